"""``python -m trustuqa_core query``: run a query program over files and print its trace.

>>> parse_overrides(["Q1.tail_entity='Italy (ITA)'"])
{'Q1.tail_entity': 'Italy (ITA)'}
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ..cypher import run_cypher_query
from ..errors import TrustUQAError, UsageError
from ..limits import current_limits, over_limit
from ..mapping import Mapper, default_encoder
from ..recovery import run_with_recovery
from ..source_verdict import source_reasons
from ..store import GraphStore
from ..trace import Trace
from ..verdict import render_verdict
from .common import graph_from_args, print_line, read_at_file

__all__ = ["cmd_query", "read_query", "parse_overrides"]


def read_query(text: str) -> str:
    """The query text of ``--query``: literal, ``-`` (standard input) or ``@FILE``."""
    if text == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            return sys.stdin.read()
        return _decode_query(stream.read(_query_bytes() + 1), "standard input")
    if text.startswith("@"):
        data = read_at_file(text[1:], "query file", _query_bytes())
        return _decode_query(data, f"query file {Path(text[1:])}")
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


def parse_overrides(items: Sequence[str]) -> dict[str, str]:
    """``--override ARG=LABEL`` items as a dict (quotes around the label dropped)."""
    out = {}
    for item in items:
        key, sep, label = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--override expects ARG=LABEL (e.g. Q1.tail_entity=Italy), "
                             f"got {item!r}")
        out[key.strip()] = label.strip().strip("'\"")
    return out


def cmd_query(args: argparse.Namespace) -> int:
    """``query``: run a query program over the given files; 0 when it answered, else 1."""
    text, overrides = read_query(args.query), parse_overrides(args.override)
    store_engine = args.engine if args.engine in ("duckdb", "auto") else "memory"
    graph = graph_from_args(args, store_engine)
    mapper = Mapper(graph, default_encoder())
    if args.engine == "cypher":
        return _query_cypher(args, text, overrides, graph, mapper)
    trace = run_with_recovery(text, graph, mapper, overrides=overrides,
                              question=getattr(args, "question", None))
    if trace.question and trace.answer:  # judged against every loaded source, as ask is
        trace.judged = source_reasons(trace.verdict, trace, graph)
    if args.json:
        print_line(json.dumps(trace.to_dict(), ensure_ascii=False, indent=2))
    else:
        _print_trace(trace)
    return 0 if trace.ok else 1


def _query_cypher(args: argparse.Namespace, text: str, overrides: dict[str, str],
                  graph: GraphStore, mapper: Mapper) -> int:
    try:
        run = run_cypher_query(text, graph, mapper, overrides=overrides)
    except TrustUQAError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1
    if args.json:
        statements = [{"step": st.step, "text": st.text, "parameters": st.parameters,
                       "inputs": list(st.inputs)} for st in run.cypher.statements]
        print_line(json.dumps({"engine": "cypher", "answer": run.answer, "cypher": run.cypher.text,
                           "statements": statements, "seconds": run.seconds},
                          ensure_ascii=False, indent=2))
    else:
        print_line(run.cypher.text)
        print_line("answer: " + (" | ".join(run.answer) if run.answer else "(none)"))
    return 0 if run.answer else 1


def _print_trace(trace: Trace) -> None:
    for step in trace.steps:
        shown = ", ".join(trace._step_dict(step)["output"][:8])
        size = len(step.output.distinct())
        more = ", ..." if size > 8 else ""
        print_line(f"Query{step.number}: {step.mapped_call} -> {size} [{shown}{more}]")
        for note in step.notes:
            print_line(f"    note: {note}")
        if step.error:
            print_line(f"    error: {step.error}")
    for r in trace.recovery:
        print_line(f"recovered: {r.message()}")
    print_line(render_verdict(trace.verdict).rstrip("\n"))
    if trace.error:
        where = f" (Query{trace.error.step})" if trace.error.step else ""
        print_line(f"error in {trace.error.stage}{where}: {trace.error.message}")
    elif trace.answer:
        print_line("answer: " + " | ".join(trace.answer))
    else:
        print_line("answer: (none) " + (trace.explain_empty() or ""))
