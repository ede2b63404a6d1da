"""Command line: ``python -m trustuqa_core <command> ...``.

Commands:
    query   run an LLM-style query over tables / KGs / TKGs and print the answer (or JSON)
    ask     answer a natural-language question (LLM or offline writer)
    bench   ``bench perf`` (speed figures) and ``bench run`` (benchmark evaluation)

Exit status: 0 answered, 1 the query/question failed (the reason is printed), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import TrustUQAError

__all__ = ["main", "build_parser"]


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
    a.add_argument("--json", action="store_true")
    a.set_defaults(handler=_cmd_ask)

    b = sub.add_parser("bench", help="performance figures and benchmark runs")
    bsub = b.add_subparsers(dest="bench_command", required=True)
    perf = bsub.add_parser("perf", help="speed of graph building, execution and mapping")
    perf.add_argument("--json", action="store_true")
    perf.add_argument("--repeat", type=int, default=50, help="timed repetitions per figure")
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
    if text == "-":
        return sys.stdin.read()
    if text.startswith("@"):
        return Path(text[1:]).read_text(encoding="utf-8")
    return text


def _graph(args: argparse.Namespace):  # noqa: ANN202
    from . import load_graph

    if not (args.table or args.kg or args.tkg):
        raise SystemExit("error: give at least one --table, --kg or --tkg file")
    return load_graph(args.table, args.kg, args.tkg)


def _overrides(items: Sequence[str]) -> dict[str, str]:
    out = {}
    for item in items:
        key, sep, label = item.partition("=")
        if not sep:
            raise SystemExit(f"error: --override expects ARG=LABEL, got {item!r}")
        out[key.strip()] = label.strip().strip("'\"")
    return out


def _cmd_query(args: argparse.Namespace) -> int:
    from .execute import run_query
    from .mapping import Mapper, default_encoder

    graph = _graph(args)
    if args.engine == "cypher":
        return _query_cypher(args, graph, Mapper(graph, default_encoder()))
    trace = run_query(
        _read_query(args.query),
        graph,
        Mapper(graph, default_encoder()),
        overrides=_overrides(args.override),
    )
    if args.json:
        _print(json.dumps(trace.to_dict(), ensure_ascii=False, indent=2))
    else:
        _print_trace(trace)
    return 0 if trace.ok else 1


def _query_cypher(args: argparse.Namespace, graph, mapper) -> int:  # noqa: ANN001
    from .cypher import run_cypher_query

    try:
        run = run_cypher_query(_read_query(args.query), graph, mapper,
                               overrides=_overrides(args.override))
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
    if trace.error:
        where = f" (Query{trace.error.step})" if trace.error.step else ""
        _print(f"error in {trace.error.stage}{where}: {trace.error.message}")
    elif trace.answer:
        _print("answer: " + " | ".join(trace.answer))
    else:
        _print("answer: (none) " + (trace.explain_empty() or ""))


def _cmd_ask(args: argparse.Namespace) -> int:
    try:
        from .answer import ask_cli
    except ImportError as exc:  # pragma: no cover - until the LLM layer lands
        raise SystemExit(f"error: the ask command is not available ({exc})") from None
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
    try:
        from .evaluate.runner import run_cli
    except ImportError as exc:  # pragma: no cover - until the benchmark runner lands
        raise SystemExit(f"error: bench run is not available ({exc})") from None
    return run_cli(args)


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")


def main(argv: Sequence[str] | None = None) -> int:
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
        return 2
    except (FileNotFoundError, PermissionError, IsADirectoryError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
