"""Command line: ``python -m trustuqa_core <command> ...``.

Commands:
    query   run an LLM-style query over tables / KGs / TKGs and print the answer (or JSON)
    ask     answer a natural-language question (LLM or offline writer)
    bench   ``bench perf`` (speed figures), ``bench scale`` (a store at a size),
            ``bench run`` (benchmark evaluation) and ``bench differential`` (the DuckDB
            store against the memory store)
    import  build a DuckDB store file from data files and print its path

Exit status: 0 answered, 1 the query/question failed (the reason is printed), 2 bad input
(a missing or unreadable file, a limit exceeded, an empty question, a malformed option). No
input produces a traceback: errors are one line on standard error (``TRUSTUQA_DEBUG=1`` adds
the traceback of an unexpected error).

One module per subcommand: :mod:`.query`, :mod:`.ask`, :mod:`.bench` (``perf`` and ``run``);
:mod:`.common` holds the shared options and printing.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from ..errors import (
    ExecutionError,
    MappingError,
    ModelUnavailableError,
    ParseError,
    RewriteError,
    TrustUQAError,
)
from ..evaluate.mixed import SETTINGS, parse_window
from ..llm.client import LLMError, LLMNotConfigured
from .ask import cmd_ask
from .bench import cmd_bench_differential, cmd_bench_run, cmd_perf, cmd_scale, cmd_spark_batch
from .common import STORE_ENGINES, add_sources, add_store_options, positive_int
from .query import cmd_query
from .store_import import cmd_import

__all__ = ["main", "build_parser", "exit_status", "BAD_INPUT", "FAILED"]

BAD_INPUT = 2
FAILED = 1
DIFF_SETS = ("metaqa-1hop", "metaqa-2hop", "metaqa-3hop", "wikisql")
_FAILED_QUESTION: tuple[type[TrustUQAError], ...] = (
    ParseError,
    MappingError,
    RewriteError,
    ExecutionError,
    ModelUnavailableError,
    LLMError,
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand; each sets ``handler`` to the function that runs it."""
    parser = argparse.ArgumentParser(
        prog="python -m trustuqa_core", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)

    q = sub.add_parser("query", help="execute an LLM query program over data")
    add_sources(q)
    q.add_argument(
        "--query",
        required=True,
        help="the query text ('-' reads standard input, '@FILE' reads a file)",
    )
    q.add_argument(
        "--override",
        action="append",
        default=[],
        metavar="ARG=LABEL",
        help="fix a mapping, e.g. Q1.tail_entity='Italy (ITA)'; repeatable",
    )
    q.add_argument("--question", default=None,
                   help="the question the query answers (the trust verdict checks the query "
                        "against what it names)")
    q.add_argument("--json", action="store_true", help="print the whole trace as JSON")
    q.add_argument(
        "--engine",
        choices=["plan", "cypher", *STORE_ENGINES],
        default="plan",
        help="plan: our executor on the in-memory graph (default; the same as memory); "
        "duckdb / auto: our executor on a DuckDB store (auto: for big inputs); cypher: the plan "
        "compiled to Cypher and run on an embedded Ladybug database (KG/TKG sources; --json "
        "adds the Cypher)",
    )
    add_store_options(q, engine_flag=False)
    q.set_defaults(handler=cmd_query)

    a = sub.add_parser("ask", help="answer a question (LLM writer or offline writer)")
    add_sources(a)
    a.add_argument("question_text", nargs="?", default=None, metavar="QUESTION",
                   help="the question to answer (or give it with --question)")
    a.add_argument("--question", default=None,
                   help="the question to answer (the same as the QUESTION argument)")
    a.add_argument(
        "--writer",
        choices=["offline", "openai"],
        default=None,
        help="default: openai when an LLM is configured, else offline",
    )
    a.add_argument(
        "--allow-data",
        action="store_true",
        help="privacy off: the LLM may see example values and the fallback may send the "
        "values a step needs (default: schema only, no data values)",
    )
    a.add_argument(
        "--system",
        choices=["trustuqa", "unioqa"],
        default="trustuqa",
        help="unioqa: Cypher translator with entity/relation replacement, GRAG searcher (with "
        "an LLM) and the label-free merge (docs/UNIOQA.md)",
    )
    a.add_argument(
        "--over",
        action="append",
        default=[],
        metavar="SOURCE",
        help="answer over this loaded source only (repeatable; a file name as loaded, e.g. "
        "roster_2023.csv): settles a 'source_unsure' verdict; default: every loaded source, "
        "routed automatically",
    )
    a.add_argument("--json", action="store_true")
    add_store_options(a)
    a.set_defaults(handler=cmd_ask)

    imp = sub.add_parser("import", help="build a DuckDB store file from data files")
    imp.add_argument("files", nargs="+", metavar="FILE")
    imp.add_argument("--kind", choices=["table", "kg", "tkg"], default=None,
                     help="what the files hold (default: from the suffix)")
    imp.add_argument("--name", default=None,
                     help="also link the store as NAME.duckdb in the store folder")
    imp.add_argument("--json", action="store_true")
    imp.set_defaults(handler=cmd_import)

    b = sub.add_parser("bench", help="performance figures and benchmark runs")
    bsub = b.add_subparsers(dest="bench_command", required=True)
    perf = bsub.add_parser("perf", help="speed of graph building, execution and mapping")
    perf.add_argument("--json", action="store_true")
    perf.add_argument("--repeat", type=positive_int, default=50,
                      help="timed repetitions per figure")
    perf.set_defaults(handler=cmd_perf)
    scale = bsub.add_parser("scale", help="load time, memory and speed of a store at a size")
    scale.add_argument("--facts", type=positive_int, default=500_000,
                       help="facts of the generated KG")
    scale.add_argument("--engine", choices=["memory", "duckdb"], default="memory")
    scale.add_argument("--kb", choices=["generated", "metaqa"], default="generated",
                       help="metaqa: MetaQA's KB replicated --replicate times")
    scale.add_argument("--replicate", type=positive_int, default=1)
    scale.add_argument("--repeat", type=positive_int, default=30,
                       help="questions per p50 figure")
    scale.add_argument("--table-rows", type=positive_int, default=431_000,
                       help="rows of the generated table (7 columns)")
    scale.add_argument("--no-table", action="store_true", help="skip the table question")
    scale.add_argument("--json", action="store_true")
    scale.set_defaults(handler=cmd_scale)
    spark = bsub.add_parser("spark", help="batch throughput of memory, DuckDB and Spark on "
                            "3-hop programs over a generated KG (the Spark crossover)")
    spark.add_argument("--facts", type=positive_int, default=1_000_000)
    spark.add_argument("--questions", type=positive_int, default=1000)
    spark.add_argument("--engines", nargs="+", choices=["memory", "duckdb", "spark"],
                       default=["memory", "duckdb", "spark"])
    spark.add_argument("--budget", type=float, default=300.0,
                       help="seconds of execution per sequential engine at most")
    spark.add_argument("--spark-master", default=None)
    spark.add_argument("--json", action="store_true")
    spark.set_defaults(handler=cmd_spark_batch)
    run = bsub.add_parser("run", help="evaluate on a benchmark")
    run.add_argument("--benchmark", required=True)
    run.add_argument("--split", default=None)
    run.add_argument("--mode", choices=["ceiling", "replay", "answer"], default="replay")
    run.add_argument("--writer", choices=["offline", "openai"], default="offline")
    run.add_argument("--limit", type=int, default=None)
    run.add_argument("--encoder", choices=["minilm", "hashing"], default="minilm",
                     help="demo retrieval encoder for --mode answer (hashing: no model)")
    run.add_argument("--setting", choices=list(SETTINGS), default=None,
                     help="--benchmark mixed: data mixed or not, source known or not")
    run.add_argument("--window", type=_window_arg, default=None, metavar="LO:HI",
                     help="--benchmark mixed --mode answer: questions LO..HI-1 of each "
                          "benchmark over a mixed graph of their data (default 0:100, the "
                          "check half; tune windows: 100:200 ... 400:500)")
    run.add_argument("--engine", choices=["executor", "cypher", "duckdb", "spark"],
                     default="executor",
                     help="cypher: MetaQA ceiling/replay programs run on Ladybug; duckdb: "
                          "every graph on a DuckDB store (built once per content); spark: "
                          "MetaQA/WikiSQL ceiling programs as one Spark SQL batch")
    run.add_argument("--spark-master", default=None,
                     help="with --engine spark: Spark master URL (default "
                          "$TRUSTUQA_SPARK_MASTER, else local[2])")
    run.add_argument("--json", action="store_true")
    run.add_argument("--no-progress", action="store_true")
    run.add_argument("--out", type=Path, default=None, help="report folder (default reports/)")
    run.set_defaults(handler=cmd_bench_run)
    diff = bsub.add_parser("differential",
                           help="gold programs on the memory and the DuckDB store, compared")
    diff.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb",
                      help="the engine compared with the memory store (spark: one batch per set)")
    diff.add_argument("--spark-master", default=None,
                      help="Spark master URL (default $TRUSTUQA_SPARK_MASTER, else local[2])")
    diff.add_argument("--sets", nargs="+", default=list(DIFF_SETS), choices=list(DIFF_SETS))
    diff.add_argument("--split", default="dev")
    diff.add_argument("--limit", type=positive_int, default=None,
                      help="first N questions of each set")
    diff.add_argument("--target", type=float, default=0.999)
    diff.add_argument("--json", action="store_true")
    diff.set_defaults(handler=cmd_bench_differential)
    return parser


def _window_arg(text: str) -> tuple[int, int]:
    """``--window LO:HI`` parsed, an argparse error when malformed."""
    try:
        return parse_window(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def exit_status(exc: BaseException) -> int:
    """The exit status for an error: 1 when a question or query failed (it could not be
    parsed, mapped or executed, or the LLM call failed), 2 for bad input (files, limits,
    options, configuration).

    >>> from trustuqa_core.errors import UsageError
    >>> exit_status(ParseError("expected ')'")), exit_status(UsageError("empty question"))
    (1, 2)
    """
    if isinstance(exc, LLMNotConfigured):
        return BAD_INPUT
    if isinstance(exc, _FAILED_QUESTION):
        return FAILED
    return BAD_INPUT


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (argparse itself exits 2 on unknown options)."""
    args = build_parser().parse_args(argv)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    package_log = logging.getLogger("trustuqa_core")
    if not package_log.handlers:  # long one-off steps (embedding a big graph) say so on stderr
        package_log.addHandler(handler)
        package_log.setLevel(logging.INFO)
    try:
        return int(args.handler(args))
    except TrustUQAError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return exit_status(exc)
    except OSError as exc:  # a file vanished or cannot be read/written while working
        sys.stderr.write(f"error: {exc}\n")
        return BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except Exception as exc:  # noqa: BLE001 - the last line of defence: a message, not a trace
        if os.environ.get("TRUSTUQA_DEBUG"):
            traceback.print_exc()
        sys.stderr.write(f"error: internal error ({type(exc).__name__}: {str(exc)[:300]}); "
                         "please report it (TRUSTUQA_DEBUG=1 shows the details)\n")
        return FAILED
