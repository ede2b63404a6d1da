"""The record of one run: every step's call, mapping, plan, output and evidence.

A :class:`Trace` keeps live objects (results, mappings) for programmatic use and renders to
plain JSON with :meth:`Trace.to_dict` for the app, exports and golden tests. It also says what
it answers: the ``question``, the ``writer`` of the program (one of :data:`WRITERS`, an LLM as
``"llm:<model>"``) and the ``routing`` (:class:`Routing`: the sources it was answered over).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from collections.abc import Mapping as MappingType
from dataclasses import dataclass, field
from typing import Any, Literal

from .mapping.mapper import MappedProgram, Mapping
from .ops import elem_text
from .query.ast import Program
from .results import Result, Scalar
from .store import GraphStore
from .verdict_record import Verdict

__all__ = ["StepTrace", "Trace", "ErrorInfo", "Status", "MAX_EVIDENCE", "Recovery", "Routing",
           "WRITERS", "ALL_SOURCES", "writer_kind"]

Status = Literal["ok", "empty", "error", "unanswered", "inferred"]
MAX_EVIDENCE = 200
MAX_ELEMENTS = 200


#: who wrote a program (``Trace.writer``) and how to say it; an LLM writer is named
#: ``"llm:<model>"`` (its kind is ``"llm"``, see :func:`writer_kind`)
WRITERS: dict[str, str] = {
    "llm": "the LLM",
    "offline": "the offline writer",
    "reference": "the bundled reference query",
    "hand-written": "you (hand-written)",
    "edited": "you (edited query)",
    "imported": "an exported run (re-run)",
    "confirmed": "a demonstration you confirmed",
    "rebound": "re-bound from a demonstration you confirmed",
    "recorded": "the recorded GPT-3.5 query of the benchmark",
    "gold": "the benchmark's gold program",
    "custom": "a writer passed in by the caller",
}
#: how the sources were chosen until questions are routed: every loaded source is used
ALL_SOURCES = "all loaded sources"


def writer_kind(writer: str | None) -> str | None:
    """The :data:`WRITERS` key of a writer's name (``"llm:<model>"`` -> ``"llm"``).

    >>> writer_kind("llm:gpt-4o-mini"), writer_kind("offline"), writer_kind(None)
    ('llm', 'offline', None)
    >>> writer_kind("custom:my-sql-writer")  # a Writer object a caller passed to answer()
    'custom'
    >>> writer_kind("a poem")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown writer 'a poem'; expected one of llm:<model>, offline, reference, ...
    """
    if writer is None:
        return None
    kind = writer.split(":", 1)[0] if writer.startswith(("llm:", "custom:")) else writer
    if kind not in WRITERS:
        names = ", ".join({"llm": "llm:<model>", "custom": "custom:<name>"}.get(k, k)
                          for k in WRITERS)
        raise ValueError(f"unknown writer {writer!r}; expected one of {names}")
    return kind


@dataclass(frozen=True)
class Routing:
    """The sources a question was answered over, and how they were chosen.

    ``sources`` are the sources the run could read; ``how`` says why (:data:`ALL_SOURCES`
    until questions are routed); ``used`` are those the executed steps read facts from.
    ``scores`` and ``evidence`` (per source) are for a router to fill.

    >>> r = Routing(("a.csv", "b.csv"), used=("b.csv",))
    >>> d = r.to_dict()
    >>> d["sources"], d["how"], d["used"], d["scores"]
    (['a.csv', 'b.csv'], 'all loaded sources', ['b.csv'], {})
    >>> Routing.from_dict(r.to_dict()) == r
    True
    """

    sources: tuple[str, ...]
    how: str = ALL_SOURCES
    used: tuple[str, ...] = ()
    scores: MappingType[str, float] = field(default_factory=dict)
    evidence: MappingType[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def all_of(cls, graph: GraphStore) -> Routing:
        """Every source loaded in ``graph``."""
        return cls(tuple(s.name for s in graph.sources))

    def to_dict(self) -> dict[str, Any]:
        return {"sources": list(self.sources), "how": self.how, "used": list(self.used),
                "scores": {k: round(v, 4) for k, v in self.scores.items()},
                "evidence": {k: list(v) for k, v in self.evidence.items()}}

    @classmethod
    def from_dict(cls, d: MappingType[str, Any]) -> Routing:
        """The routing of an exported trace (raises ``ValueError`` naming a bad field)."""
        def names(key: str) -> tuple[str, ...]:
            value = d.get(key, [])
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise ValueError(f"routing: {key!r} must be a list of source names")
            return tuple(value)

        scores, evidence = d.get("scores", {}), d.get("evidence", {})
        if not isinstance(scores, dict) or not all(
                isinstance(v, int | float) for v in scores.values()):
            raise ValueError("routing: 'scores' must map source names to numbers")
        if not isinstance(evidence, dict) or not all(
                isinstance(v, list) for v in evidence.values()):
            raise ValueError("routing: 'evidence' must map source names to lists")
        how = d.get("how", ALL_SOURCES)
        if not isinstance(how, str):
            raise ValueError("routing: 'how' must be text")
        return cls(names("sources"), how, names("used"),
                   {str(k): float(v) for k, v in scores.items()},
                   {str(k): tuple(map(str, v)) for k, v in evidence.items()})


@dataclass
class ErrorInfo:
    """Where and why a run stopped."""

    stage: Literal["parse", "map", "rewrite", "execute"]
    message: str
    step: int | None = None
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class Recovery:
    """A runner-up binding used because the first choice found nothing.

    >>> Recovery("Q1.tail_entity", 1, "USA", "Austria", "United States", 0.0).message()
    "'USA' -> 'United States' (runner-up; the first choice, 'Austria', found nothing, margin 0.00)"
    """

    key: str
    step: int
    text: str
    first: str
    chosen: str
    margin: float

    def message(self) -> str:
        return (f"{self.text!r} -> {self.chosen!r} (runner-up; the first choice, {self.first!r}, "
                f"found nothing, margin {self.margin:.2f})")

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "step": self.step, "text": self.text, "first": self.first,
                "chosen": self.chosen, "margin": round(self.margin, 4),
                "message": self.message()}


@dataclass
class StepTrace:
    """One executed (or attempted) query."""

    number: int
    func: str
    call: str
    mapped_call: str
    description: str = ""
    mappings: list[Mapping] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)
    status: Status = "ok"
    result: Result | None = None
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    inferred_note: str = ""

    @property
    def output(self) -> Result:
        return self.result if self.result is not None else Result.empty()


@dataclass
class Trace:
    """Everything a person needs to check an answer."""

    query_text: str
    graph: GraphStore
    program: Program | None = None
    mapped: MappedProgram | None = None
    steps: list[StepTrace] = field(default_factory=list)
    target: Mapping | None = None
    target_step: StepTrace | None = None
    final: Result | None = None
    error: ErrorInfo | None = None
    timings: dict[str, float] = field(default_factory=dict)
    question: str | None = None
    recovery: list[Recovery] = field(default_factory=list)
    judged: Verdict | None = None  # set by answer() with the vote's evidence
    writer: str | None = None  # who wrote the program: a WRITERS key or "llm:<model>"
    routing: Routing | None = None  # the sources it was answered over (set by execute)
    #: how :attr:`verdict` is judged on first read; given by whoever builds the trace
    #: (``execute`` passes :func:`trustuqa_core.verdict.judge_alone`), so the trace itself
    #: never imports the verdict module that sits above it
    judge_with: Callable[[Trace], Verdict] | None = field(default=None, repr=False,
                                                           compare=False)

    # --------------------------------------------------------------- verdict
    @property
    def verdict(self) -> Verdict:
        """The trust verdict (from the trace and its question alone, unless ``answer()``
        judged it with the vote's evidence), judged on first read by :attr:`judge_with`."""
        if self.judged is None:
            if self.judge_with is None:
                raise RuntimeError("this trace has no verdict and no judge: build it with "
                                   "judge_with=trustuqa_core.verdict.judge_alone")
            self.judged = self.judge_with(self)
        return self.judged

    # ---------------------------------------------------------------- answer
    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def answer(self) -> list[str]:
        """Distinct answer texts in order (empty when the run failed or found nothing)."""
        if self.final is None:
            return []
        elems = self.final.distinct().elems
        nodes = [e for e in elems if not isinstance(e, Scalar)]
        texts = dict(zip(nodes, self.graph.labels(nodes), strict=True)) if nodes else {}
        return [e.text if isinstance(e, Scalar) else texts[e] for e in elems]  # one batch read

    @property
    def inferred(self) -> bool:
        """True when some step was answered by the LLM fallback (not verified)."""
        return any(s.status == "inferred" for s in self.steps)

    @property
    def empty_step(self) -> int | None:
        """The first step whose output was empty, among the steps the answer depends on."""
        needed = self.needed_steps()
        for s in self.steps:
            if s.status == "empty" and s.number in needed:
                return s.number
        return None

    def needed_steps(self) -> set[int]:
        """Numbers of the queries the last query depends on (itself included)."""
        if self.program is None or not self.program.queries:
            return set()
        calls = {q.number: q.call for q in self.program.queries}
        todo, seen = [self.program.last.number], set()
        while todo:
            n = todo.pop()
            if n in seen or n not in calls:
                continue
            seen.add(n)
            todo.extend(calls[n].refs())
        return seen

    _ancestors = needed_steps  # the earlier private name (other branches may still call it)

    def explain_empty(self) -> str | None:
        """A sentence naming the step that emptied the answer, or None."""
        n = self.empty_step
        if n is None:
            return None
        step = next(s for s in self.steps if s.number == n)
        why = f" ({'; '.join(step.notes)})" if step.notes else ""
        return f"Query{n} `{step.mapped_call}` returned nothing{why}, so the answer is empty."

    # -------------------------------------------------------------- evidence
    def evidence_rows(self, facts: list[int]) -> list[dict[str, Any]]:
        """Readable fact rows (head, relation, tail, interval, source, row/line)."""
        out = []
        for f in facts[:MAX_EVIDENCE]:
            head, rel, tail = self.graph.fact_text(f)
            prov = self.graph.provenance(f)
            row = {
                "fact": int(f),
                "head": head,
                "relation": rel,
                "tail": tail,
                "source": prov.source,
                "unit": prov.unit,
                "number": prov.number,
            }
            span = self.graph.interval(f)
            if span is not None:
                row["interval"] = [None if abs(x) == float("inf") else x for x in span]
            out.append(row)
        return out

    def answer_provenance(self) -> list[dict[str, Any]]:
        """For each answer element: its text and the facts (with sources) behind it."""
        if self.final is None:
            return []
        d = self.final.distinct()
        return [
            {"answer": elem_text(self.graph, e), "evidence": self.evidence_rows(list(w))}
            for e, w in zip(d.elems[:MAX_ELEMENTS], d.witnesses, strict=False)
        ]

    # --------------------------------------------------------------- export
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able record (see the README for the shape)."""
        return {
            "query": self.query_text,
            "target_type": self.program.target_type if self.program else None,
            "target": _mapping_dict(self.target) if self.target else None,
            "answer": self.answer,
            "inferred": self.inferred,
            "error": None if self.error is None else vars(self.error).copy(),
            "empty_step": self.empty_step,
            "explanation": self.explain_empty(),
            "steps": [self._step_dict(s) for s in self.steps],
            "target_step": self._step_dict(self.target_step) if self.target_step else None,
            "answer_provenance": self.answer_provenance(),
            "timings": {k: round(v, 6) for k, v in self.timings.items()},
            "sources": [s.name for s in self.graph.sources],
            "recovery": [r.to_dict() for r in self.recovery],
            **self.verdict.to_dict(),
            "question": self.question,
            "writer": self.writer,
            "routing": self.routing.to_dict() if self.routing is not None else None,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def _step_dict(self, s: StepTrace) -> dict[str, Any]:
        res = s.output
        d = res.distinct()
        elements = []
        for e, w in zip(d.elems[:MAX_ELEMENTS], d.witnesses, strict=False):
            kind = (
                "computed" if isinstance(e, Scalar) else "row" if self.graph.is_row(e) else "value"
            )
            elements.append(
                {
                    "text": elem_text(self.graph, e),
                    "kind": kind,
                    "node": None if isinstance(e, Scalar) else int(e),
                    "witnesses": [int(x) for x in w],
                }
            )
        return {
            "number": s.number,
            "func": s.func,
            "call": s.call,
            "mapped_call": s.mapped_call,
            "description": s.description,
            "mappings": [_mapping_dict(m) for m in s.mappings],
            "ops": s.ops,
            "status": s.status,
            "size": len(res),
            "distinct": len(d),
            "output": [el["text"] for el in elements],
            "elements": elements,
            "evidence": self.evidence_rows(res.all_witnesses()),
            "notes": s.notes,
            "error": s.error,
            "inferred_note": s.inferred_note,
            "seconds": round(s.seconds, 6),
        }


def _mapping_dict(m: Mapping) -> dict[str, Any]:
    return {
        "key": m.key,
        "query": m.query,
        "arg": m.arg,
        "text": m.text,
        "role": m.role,
        "labels": list(m.labels),
        "method": m.method,
        "score": round(m.score, 4),
        "margin": round(m.margin, 4),
        "weak": m.weak,
        "scope": m.scope,
        "candidates": [
            {"label": c.label, "score": round(c.score, 4), "method": c.method} for c in m.candidates
        ],
    }
