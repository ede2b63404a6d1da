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
from pathlib import Path

from .. import load_graph
from ..engines import ENGINES, open_files, open_store, open_store_file
from ..errors import UsageError
from ..store import GraphStore
from ..translate import load_source, open_query
from ..translate.sql_query import MAX_SQL_CHARS

__all__ = ["add_sources", "add_store_options", "positive_int", "graph_from_args", "print_line",
           "sql_text", "STORE_ENGINES"]

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
    p.add_argument(
        "--sql",
        action="append",
        default=[],
        nargs=3,
        metavar=("DATABASE", "NAME", "SELECT"),
        help="a read-only SELECT over a SQLite/DuckDB file or a postgresql:// URL, its result "
             "loaded as the table DATABASE:NAME (SELECT may be @FILE); repeatable",
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
    queries = getattr(args, "sql", None) or []
    if store is not None:
        if args.table or args.kg or args.tkg or queries:
            raise UsageError("give either --store or --table/--kg/--tkg/--sql sources, not both")
        graph = open_store_file(store)
    elif not (args.table or args.kg or args.tkg or queries):
        raise UsageError("give at least one --table, --kg, --tkg file or --sql query "
                         "(or --store)")
    elif queries:
        graph = open_store([load_source(path, kind) for kind, paths in
                            (("table", args.table), ("kg", args.kg), ("tkg", args.tkg))
                            for path in paths]
                           + [open_query(db, sql_text(sql), name) for db, name, sql in queries],
                           engine)
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


def read_at_file(name: str, what: str, max_bytes: int) -> bytes:
    """At most ``max_bytes`` + 1 bytes of the file named by an ``@FILE`` argument (``name``
    without the ``@``); a file that cannot be opened, or a name no file can have (a NUL
    byte), is a :class:`~trustuqa_core.errors.UsageError` naming ``what`` and the path.

    >>> read_at_file("no\\x00such", "query file", 10)
    Traceback (most recent call last):
    trustuqa_core.errors.UsageError: query file 'no\\x00such': not a file name (it holds a NUL byte)
    """
    if "\x00" in name:
        raise UsageError(f"{what} {name!r}: not a file name (it holds a NUL byte)")
    path = Path(name)
    try:
        with path.open("rb") as f:
            return f.read(max_bytes + 1)
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None


def sql_text(text: str) -> str:
    """The SELECT of ``--sql``: literal, or ``@FILE`` (UTF-8, at most
    :data:`~trustuqa_core.translate.sql_query.MAX_SQL_CHARS` characters)."""
    if not text.startswith("@"):
        return text
    path = Path(text[1:])
    data = read_at_file(text[1:], "SQL file", MAX_SQL_CHARS * 4)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"SQL file {path}: not UTF-8 text; save it as UTF-8") from None


def print_line(text: str) -> None:
    """One line on standard output."""
    sys.stdout.write(text + "\n")
