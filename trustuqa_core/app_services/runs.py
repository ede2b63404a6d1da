"""One question's run as the app keeps it, and the tables the Ask page shows about it.

A :class:`Run` holds the query text, the user's overrides and the executed
:class:`~trustuqa_core.trace.Trace`, plus (when an LLM or the offline writer wrote the query)
the prompt, the samples and the vote. Re-running with an edited query or a mapping override
never calls the LLM: :func:`rerun` executes the text again on the loaded graph.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\nBob,Spain\\n"])
>>> run = execute_text("Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\"",
...                    g, None, origin="hand-written")
>>> run.trace.answer, [r["mapped to"] for r in mapping_rows(run)]
(['table1 row 1'], ['Nation', 'Italy'])
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..export import SourceStamp, build_record
from ..fallback import Fallback
from ..graph import ConditionGraph
from ..mapping.mapper import Mapper
from ..ops import elem_text
from ..recovery import run_with_recovery
from ..results import Scalar
from ..trace import ErrorInfo, StepTrace, Trace

__all__ = ["Run", "execute_text", "rerun", "mapping_rows", "step_summary", "record_of",
           "aggregate_values", "timing_rows", "ORIGINS"]

log = logging.getLogger(__name__)

ORIGINS = {"llm": "the LLM", "offline": "the offline writer",
           "reference": "the bundled reference query", "hand-written": "you (hand-written)",
           "edited": "you (edited query)", "imported": "an exported run (re-run)",
           "confirmed": "a demonstration you confirmed"}
_INTERNAL = (KeyError, IndexError, TypeError, ValueError, AttributeError)


@dataclass
class Run:
    """A question, the query that answers it, and everything that explains the answer."""

    question: str | None
    query: str
    trace: Trace
    origin: str
    overrides: dict[str, str] = field(default_factory=dict)
    prompt: list[dict[str, str]] | None = None
    data_sent: str = "No LLM was called: nothing left this machine."
    samples: list[dict[str, Any]] = field(default_factory=list)
    confidence: float | None = None
    demos: list[dict[str, Any]] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    note: str = ""
    model: str | None = None
    feedback: str | None = None
    confirmed: set[str] = field(default_factory=set)
    rid: str = field(default_factory=lambda: uuid.uuid4().hex[:12])  # widget keys, caches
    writer_error: str | None = None  # no query could be written (e.g. the LLM was unreachable)
    warnings: list[str] = field(default_factory=list)  # shown above the answer

    @property
    def answer(self) -> list[str]:
        return self.trace.answer


def execute_text(text: str, graph: ConditionGraph, mapper: Mapper | None, *,
                 origin: str, question: str | None = None,
                 overrides: Mapping[str, str] | None = None,
                 fallback: Fallback | None = None) -> Run:
    """Parse, map and execute ``text`` (no LLM call unless ``fallback`` is given)."""
    over = {k: v for k, v in (overrides or {}).items() if v}
    t0 = time.perf_counter()
    try:
        trace = run_with_recovery(text, graph, mapper, overrides=over, fallback=fallback,
                                  question=question)
    except _INTERNAL as exc:  # a bug in a core stage: shown to the user, logged for us
        log.exception("internal error while executing a query")
        trace = Trace(text, graph)
        trace.error = ErrorInfo("execute", f"internal error ({type(exc).__name__}: {exc}); "
                                "the query could not be executed — please report this")
    seconds = time.perf_counter() - t0
    return Run(question, text, trace, origin, dict(over), stage_seconds={"execute": seconds})


def rerun(run: Run, graph: ConditionGraph, mapper: Mapper | None, *, query: str | None = None,
          overrides: Mapping[str, str] | None = None, origin: str | None = None) -> Run:
    """Execute an edited query and/or new overrides; keeps the question, prompt and samples."""
    new = execute_text(run.query if query is None else query, graph, mapper,
                       origin=origin or run.origin, question=run.question,
                       overrides=run.overrides if overrides is None else overrides)
    return replace(run, query=new.query, trace=new.trace, overrides=new.overrides,
                   origin=new.origin, stage_seconds={**run.stage_seconds, **new.stage_seconds},
                   feedback=None, confirmed=set(), rid=new.rid)


# ------------------------------------------------------------------------------ tables
def mapping_rows(run: Run) -> list[dict[str, Any]]:
    """One row per mapped argument: written text, chosen node(s), score, runner-up, margin."""
    rows = []
    mappings = [m for s in run.trace.steps for m in s.mappings]
    if run.trace.target is not None:
        mappings.append(run.trace.target)
    for m in mappings:
        chosen = set(m.labels)
        runner = next((c for c in m.candidates if c.label not in chosen), None)
        rows.append({
            "argument": m.key, "written": m.text,
            "mapped to": ", ".join(m.labels) if m.labels else "(nothing)",
            "method": m.method, "score": round(m.score, 3),
            "runner-up": f"{runner.label} ({runner.score:.2f})" if runner else "—",
            "margin": round(m.margin, 3), "among": m.scope,
            "status": ("overridden" if m.method == "override" else
                       "confirmed" if m.key in run.confirmed else
                       "weak: please check" if m.weak else "ok"),
        })
    return rows


def candidates_of(run: Run, key: str) -> list[str]:
    """Candidate labels of one argument (chosen first), for the override picker."""
    for s in run.trace.steps:
        for m in s.mappings:
            if m.key == key:
                return list(dict.fromkeys([*m.labels, *(c.label for c in m.candidates)]))
    t = run.trace.target
    if t is not None and t.key == key:
        return list(dict.fromkeys([*t.labels, *(c.label for c in t.candidates)]))
    return []


def step_summary(trace: Trace) -> list[dict[str, Any]]:
    """One row per step: number, function, status, output size, seconds."""
    steps = list(trace.steps) + ([trace.target_step] if trace.target_step else [])
    return [{"step": f"Query{s.number}" if s.number else "target type", "function": s.func,
             "status": s.status, "elements": len(s.output), "distinct": len(s.output.distinct()),
             "seconds": round(s.seconds, 4)} for s in steps]


def aggregate_values(trace: Trace, step: StepTrace) -> list[tuple[str, float]]:
    """The numbers an aggregate step (sum/mean/max/min) was computed from, with their labels
    (the row or entity each value belongs to when the graph knows it)."""
    if step.func not in ("sum", "mean", "max", "min", "average", "avg") or not step.number:
        return []
    if trace.program is None:
        return []
    g, out = trace.graph, []
    for ref in trace.program.query(step.number).call.refs():
        src = next((s for s in trace.steps if s.number == ref), None)
        if src is None:
            continue
        for e, w in list(zip(src.output.elems, src.output.witnesses, strict=True))[:200]:
            x = (e.value if isinstance(e.value, float) else None) if isinstance(e, Scalar) \
                else g.numeric(e)
            if x is None:
                continue
            owner = g.label(int(g.head[w[-1]])) if w else ""
            out.append((f"{owner}: {elem_text(g, e)}" if owner else elem_text(g, e), x))
    return out


def timing_rows(run: Run) -> list[dict[str, Any]]:
    """Stage timings (writer/LLM, parse, map, execute) and per-step seconds, for a chart."""
    rows = [{"what": k, "seconds": v, "kind": "stage"}
            for k, v in {**run.stage_seconds, **run.trace.timings}.items() if k != "execute"]
    rows += [{"what": f"Query{s.number}", "seconds": s.seconds, "kind": "step"}
             for s in run.trace.steps]
    return rows


def record_of(run: Run, stamps: Sequence[SourceStamp]) -> dict[str, Any]:
    """The export record of a run (see :func:`trustuqa_core.export.build_record`)."""
    return build_record(run.trace.to_dict(), question=run.question, sources=stamps,
                        overrides=run.overrides, origin=run.origin, prompt=run.prompt,
                        data_sent=run.data_sent, samples=run.samples,
                        confidence=run.confidence, demos=run.demos, model=run.model,
                        feedback=run.feedback)
