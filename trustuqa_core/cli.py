"""Command line: ``python -m trustuqa_core <command> ...``.

Commands:
    query   run an LLM-style query over tables / KGs / TKGs and print the answer (or JSON)
    ask     answer a natural-language question (LLM or offline writer)
    bench   ``bench perf`` (speed figures) and ``bench run`` (benchmark evaluation)

Exit status: 0 answered, 1 the query/question failed (the reason is printed), 2 bad input
(a missing or unreadable file, a limit exceeded, an empty question, a malformed option). No
input produces a traceback: errors are one line on standard error (``TRUSTUQA_DEBUG=1`` adds
the traceback of an unexpected error).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from .errors import (
    ExecutionError,
    MappingError,
    ModelUnavailableError,
    ParseError,
    RewriteError,
    TrustUQAError,
    UsageError,
)
from .limits import current_limits, over_limit
from .llm.client import LLMError, LLMNotConfigured
from .verdict import render_verdict

__all__ = ["main", "build_parser", "exit_status", "BAD_INPUT", "FAILED"]

BAD_INPUT = 2
FAILED = 1
_FAILED_QUESTION: tuple[type[TrustUQAError], ...] = (
    ParseError,
    MappingError,
    RewriteError,
    ExecutionError,
    ModelUnavailableError,
    LLMError,
)


def _add_sources(p: argparse.ArgumentParser) -> None:
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


def _positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1 (argparse reports anything else, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m trustuqa_core", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)

    q = sub.add_parser("query", help="execute an LLM query program over data")
    _add_sources(q)
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
        choices=["plan", "cypher"],
        default="plan",
        help="plan: our executor (default); cypher: the plan compiled to Cypher and run on an "
        "embedded Ladybug database (KG/TKG sources; --json adds the Cypher)",
    )
    q.set_defaults(handler=_cmd_query)

    a = sub.add_parser("ask", help="answer a question (LLM writer or offline writer)")
    _add_sources(a)
    a.add_argument("--question", required=True)
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
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_cmd_ask)

    b = sub.add_parser("bench", help="performance figures and benchmark runs")
    bsub = b.add_subparsers(dest="bench_command", required=True)
    perf = bsub.add_parser("perf", help="speed of graph building, execution and mapping")
    perf.add_argument("--json", action="store_true")
    perf.add_argument("--repeat", type=_positive_int, default=50,
                      help="timed repetitions per figure")
    perf.set_defaults(handler=_cmd_perf)
    run = bsub.add_parser("run", help="evaluate on a benchmark")
    run.add_argument("--benchmark", required=True)
    run.add_argument("--split", default=None)
    run.add_argument("--mode", choices=["ceiling", "replay", "answer"], default="replay")
    run.add_argument("--writer", choices=["offline", "openai"], default="offline")
    run.add_argument("--limit", type=int, default=None)
    run.add_argument("--encoder", choices=["minilm", "hashing"], default="minilm",
                     help="demo retrieval encoder for --mode answer (hashing: no model)")
    run.add_argument("--json", action="store_true")
    run.add_argument("--no-progress", action="store_true")
    run.add_argument("--out", type=Path, default=None, help="report folder (default reports/)")
    run.set_defaults(handler=_cmd_bench_run)
    return parser


def _read_query(text: str) -> str:
    """The query text of ``--query``: literal, ``-`` (standard input) or ``@FILE``."""
    if text == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            return sys.stdin.read()
        return _decode_query(stream.read(_query_bytes() + 1), "standard input")
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            with path.open("rb") as f:
                data = f.read(_query_bytes() + 1)
        except OSError as exc:
            raise UsageError(f"query file {path}: {exc.strerror or exc}") from None
        return _decode_query(data, f"query file {path}")
    return text


def _query_bytes() -> int:
    return current_limits().query_chars * 4  # UTF-8 takes at most 4 bytes per character


def _decode_query(data: bytes, where: str) -> str:
    """UTF-8 text of a query read from a file or standard input (size-checked)."""
    if len(data) > _query_bytes():
        cap = current_limits().query_chars
        raise UsageError(where + ": " + over_limit("too long", "query_chars", cap, "characters"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{where}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8"
        ) from None


def _graph(args: argparse.Namespace):  # noqa: ANN202
    from . import load_graph

    if not (args.table or args.kg or args.tkg):
        raise UsageError("give at least one --table, --kg or --tkg file")
    graph = load_graph(args.table, args.kg, args.tkg)
    for source in graph.sources:
        for warning in source.warnings:
            sys.stderr.write(f"warning: {warning}\n")
    return graph


def _overrides(items: Sequence[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, label = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--override expects ARG=LABEL (e.g. Q1.tail_entity=Italy), "
                             f"got {item!r}")
        out[key.strip()] = label.strip().strip("'\"")
    return out


def _cmd_query(args: argparse.Namespace) -> int:
    from .mapping import Mapper, default_encoder
    from .recovery import run_with_recovery

    text, overrides = _read_query(args.query), _overrides(args.override)
    graph = _graph(args)
    mapper = Mapper(graph, default_encoder())
    if args.engine == "cypher":
        return _query_cypher(args, text, overrides, graph, mapper)
    trace = run_with_recovery(text, graph, mapper, overrides=overrides,
                              question=getattr(args, "question", None))
    if args.json:
        _print(json.dumps(trace.to_dict(), ensure_ascii=False, indent=2))
    else:
        _print_trace(trace)
    return 0 if trace.ok else 1


def _query_cypher(args: argparse.Namespace, text: str, overrides: dict[str, str],
                  graph, mapper) -> int:  # noqa: ANN001
    from .cypher import run_cypher_query

    try:
        run = run_cypher_query(text, graph, mapper, overrides=overrides)
    except TrustUQAError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1
    if args.json:
        statements = [{"step": st.step, "text": st.text, "parameters": st.parameters,
                       "inputs": list(st.inputs)} for st in run.cypher.statements]
        _print(json.dumps({"engine": "cypher", "answer": run.answer, "cypher": run.cypher.text,
                           "statements": statements, "seconds": run.seconds},
                          ensure_ascii=False, indent=2))
    else:
        _print(run.cypher.text)
        _print("answer: " + (" | ".join(run.answer) if run.answer else "(none)"))
    return 0 if run.answer else 1


def _print_trace(trace) -> None:  # noqa: ANN001
    for step in trace.steps:
        shown = ", ".join(trace._step_dict(step)["output"][:8])
        size = len(step.output.distinct())
        more = ", ..." if size > 8 else ""
        _print(f"Query{step.number}: {step.mapped_call} -> {size} [{shown}{more}]")
        for note in step.notes:
            _print(f"    note: {note}")
        if step.error:
            _print(f"    error: {step.error}")
    for r in trace.recovery:
        _print(f"recovered: {r.message()}")
    _print(render_verdict(trace.verdict).rstrip("\n"))
    if trace.error:
        where = f" (Query{trace.error.step})" if trace.error.step else ""
        _print(f"error in {trace.error.stage}{where}: {trace.error.message}")
    elif trace.answer:
        _print("answer: " + " | ".join(trace.answer))
    else:
        _print("answer: (none) " + (trace.explain_empty() or ""))


def _cmd_ask(args: argparse.Namespace) -> int:
    from .answer import ask_cli, check_question

    args.question = check_question(args.question)
    return ask_cli(args, _graph(args))


def _cmd_perf(args: argparse.Namespace) -> int:
    from .bench.perf import run_perf

    figures = run_perf(repeat=args.repeat)
    if args.json:
        _print(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            _print(f"{key:28s} {value}")
    return 0


def _cmd_bench_run(args: argparse.Namespace) -> int:
    from .evaluate.runner import run_cli

    return run_cli(args)


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")


def exit_status(exc: BaseException) -> int:
    """The exit status for an error: 1 when a question or query failed (it could not be
    parsed, mapped or executed, or the LLM call failed), 2 for bad input (files, limits,
    options, configuration).

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
