"""Helpers shared by the subcommands: the source options, reading the graph, printing.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_sources(p)
>>> p.parse_args(["--table", "a.csv", "--table", "b.csv"]).table
['a.csv', 'b.csv']
"""

from __future__ import annotations

import argparse
import sys

from .. import load_graph
from ..engines import ENGINES, open_files, open_store, open_store_file
from ..errors import UsageError
from ..store import GraphStore
from ..translate import load_source

__all__ = ["add_sources", "add_store_options", "positive_int", "graph_from_args", "print_line",
           "STORE_ENGINES"]

STORE_ENGINES: tuple[str, ...] = ENGINES
"""Where the graph is held: ``memory``, ``duckdb`` (a cached store file) or ``auto``."""


def add_store_options(p: argparse.ArgumentParser, engine_flag: bool = True) -> None:
    """``--store PATH`` (a prebuilt DuckDB store) and, unless the command has its own
    ``--engine``, ``--engine memory|duckdb|auto``."""
    p.add_argument("--store", default=None, metavar="PATH",
                   help="a DuckDB store file built with `import` (instead of --table/--kg/--tkg)")
    if engine_flag:
        p.add_argument("--engine", choices=list(STORE_ENGINES), default="memory",
                       help="where the graph is held: memory (default), duckdb (a store file "
                            "in the cache, built once) or auto (duckdb for big inputs)")


def add_sources(p: argparse.ArgumentParser) -> None:
    """The ``--table`` / ``--kg`` / ``--tkg`` options (each repeatable)."""
    p.add_argument(
        "--table",
        action="append",
        default=[],
        metavar="PATH",
        help="a table file (CSV, TSV, XLSX, JSON records); repeatable",
    )
    p.add_argument(
        "--kg",
        action="append",
        default=[],
        metavar="PATH",
        help="a triple file (TSV/CSV with 3 columns, or head|relation|tail); repeatable",
    )
    p.add_argument(
        "--tkg",
        action="append",
        default=[],
        metavar="PATH",
        help="a temporal triple file (head, relation, tail, start, end); repeatable",
    )


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1 (argparse reports anything else, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def graph_from_args(args: argparse.Namespace, engine: str = "memory") -> GraphStore:
    """One graph over the files given with ``--table`` / ``--kg`` / ``--tkg`` held by
    ``engine``, or the store file of ``--store`` (warnings go to standard error);
    :class:`UsageError` when there are none."""
    store = getattr(args, "store", None)
    if store is not None:
        if args.table or args.kg or args.tkg:
            raise UsageError("give either --store or --table/--kg/--tkg files, not both")
        graph = open_store_file(store)
    elif not (args.table or args.kg or args.tkg):
        raise UsageError("give at least one --table, --kg or --tkg file (or --store)")
    elif engine == "memory":
        graph = load_graph(args.table, args.kg, args.tkg)
    elif args.kg and not (args.table or args.tkg):
        graph = open_files(args.kg, "kg", engine)
    else:
        graph = open_store([load_source(path, kind) for kind, paths in
                            (("table", args.table), ("kg", args.kg), ("tkg", args.tkg))
                            for path in paths], engine)
    for source in graph.sources:
        for warning in source.warnings:
            sys.stderr.write(f"warning: {warning}\n")
    return graph


def print_line(text: str) -> None:
    """One line on standard output."""
    sys.stdout.write(text + "\n")
