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
from ..errors import UsageError
from ..store import GraphStore

__all__ = ["add_sources", "positive_int", "graph_from_args", "print_line"]


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


def graph_from_args(args: argparse.Namespace) -> GraphStore:
    """One graph over the files given with ``--table`` / ``--kg`` / ``--tkg`` (warnings go to
    standard error); :class:`UsageError` when there are none."""
    if not (args.table or args.kg or args.tkg):
        raise UsageError("give at least one --table, --kg or --tkg file")
    graph = load_graph(args.table, args.kg, args.tkg)
    for source in graph.sources:
        for warning in source.warnings:
            sys.stderr.write(f"warning: {warning}\n")
    return graph


def print_line(text: str) -> None:
    """One line on standard output."""
    sys.stdout.write(text + "\n")
