"""Self-consistency (paper section 4): run n written queries, vote on what they execute to.

Each sample is parsed, mapped and executed (:func:`~trustuqa_core.execute.run_query`). Samples
vote with their *normalised executed answer* (an answer set: order, case, spacing and number
formats do not matter). A genuine answer of ``0`` or ``no`` is a vote like any other; an empty
answer, a failed run, or a run with a literal that matched nothing in the data (best fuzzy or
dense score below :data:`MIN_MAPPING_SCORE`) is not a vote, but stays in the result with the
reason. When no sample yields an answer, new samples are written (up to ``retries`` more
rounds).

The confidence is the winner's share of the samples of the round that voted (every vote comes
from that round: a retry happens only when a round produced none). Ties go to the answer first
produced only so that a trace can be shown: ``VoteResult.tied`` lists every tied answer, and
the verdict (:mod:`trustuqa_core.verdict`) presents the tie as a tie, never as an answer.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Name,Year\\nAnn,1999\\nBob,2004\\n"])
>>> ok = "Query1: \\"get_information(relation='Year', tail_entity>'2000')\\""
>>> result = self_consistency(lambda attempt, n: [ok, ok, "garbage("], lambda t: run(t, g), n=3)
>>> [s.status for s in result.samples], round(result.confidence, 2)
(['answered', 'answered', 'parse_error'], 0.67)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .execute import run_query
from .fallback import Fallback
from .mapping.mapper import Mapper
from .store import GraphStore
from .text import normalize
from .trace import Trace

__all__ = ["Sample", "VoteResult", "answer_key", "run", "tally", "self_consistency",
           "SampleStatus", "MIN_MAPPING_SCORE"]

SampleStatus = Literal["answered", "empty", "parse_error", "map_error", "unmapped",
                       "rewrite_error", "execute_error", "unanswered", "writer_error"]
#: a literal whose best match scores below this matched nothing: its sample is not a vote
MIN_MAPPING_SCORE = 0.5

Write = Callable[[int, int], Sequence[str]]
Run = Callable[[str], Trace]


@dataclass
class Sample:
    """One written query and what became of it.

    Attributes:
        text: the query text as written.
        round: the round (0 = first attempt) it was written in.
        trace: the execution record (None if it never ran).
        answer: the executed answer (empty when it failed).
        status: ``answered``, ``empty`` or what failed (``parse_error``, ``map_error``...).
        error: why it failed (None when it answered).
        votes: how many samples agreed with its answer (0 for non-votes).
        note: where it came from (e.g. the offline writer's explanation).
    """

    text: str
    round: int
    trace: Trace | None = None
    answer: list[str] = field(default_factory=list)
    status: SampleStatus = "answered"
    error: str | None = None
    votes: int = 0
    note: str = ""

    @property
    def key(self) -> tuple[str, ...] | None:
        """The normalised answer this sample votes for (None: not a vote)."""
        return answer_key(self.answer) if self.status == "answered" else None

    def to_dict(self) -> dict[str, object]:
        """Plain-JSON summary (no trace)."""
        return {"query": self.text, "round": self.round, "answer": self.answer,
                "status": self.status, "error": self.error, "votes": self.votes,
                "note": self.note}


@dataclass
class VoteResult:
    """Outcome of self-consistency: the winning answer, its share, and every sample."""

    answer: list[str]
    confidence: float
    winner: Sample | None
    samples: list[Sample]
    rounds: int
    tie: bool = False
    tied: list[list[str]] = field(default_factory=list)

    @property
    def trace(self) -> Trace | None:
        """The winning sample's trace."""
        return self.winner.trace if self.winner else None


def answer_key(answer: Sequence[str]) -> tuple[str, ...]:
    """Normalised, order-free form of an answer (what samples vote with).

    >>> answer_key(["Italy ", "4.0", "italy"]) == answer_key(["4", "ITALY"])
    True
    """
    return tuple(sorted({normalize(a) or a.strip() for a in answer}))


def run(text: str, graph: GraphStore, mapper: Mapper | None = None, *,
        fallback: Fallback | None = None, question: str | None = None,
        writer: str | None = None) -> Trace:
    """Execute one query text (a thin wrapper over ``run_query``; ``writer`` names who wrote
    it, as in :data:`~trustuqa_core.trace.WRITERS`)."""
    return run_query(text, graph, mapper, fallback=fallback, question=question, writer=writer)


def _classify(sample: Sample, trace: Trace) -> None:
    sample.trace = trace
    if trace.error is not None:
        stage = trace.error.stage
        unanswered = any(s.status == "unanswered" for s in trace.steps)
        sample.status = "unanswered" if unanswered else f"{stage}_error"  # type: ignore[assignment]
        sample.error = trace.error.message
        return
    found = trace.answer  # computed once: a property that renders every element
    if not found:
        sample.status = "empty"
        sample.error = trace.explain_empty() or "the query found nothing"
    elif (bad := _unmapped(trace)) is not None:
        sample.status = "unmapped"
        sample.error = bad
    else:
        sample.answer = found
        sample.status = "answered"


def _unmapped(trace: Trace) -> str | None:
    """Why a literal of the trace matched nothing in the data (None when all matched)."""
    for m in trace.mapped.mappings if trace.mapped is not None else ():
        if m.method in ("fuzzy", "dense", "none") and m.score < MIN_MAPPING_SCORE:
            closest = f"closest: {m.labels[0]!r}, score {m.score:.2f}" if m.labels else "none"
            return f"{m.key} {m.text!r} matches nothing in the data ({closest})"
    return None


def tally(samples: Sequence[Sample]) -> tuple[Sample | None, int, bool]:
    """(first sample of the winning answer, its votes, whether it tied); sets ``votes``."""
    counts: dict[tuple[str, ...], list[Sample]] = {}
    for s in samples:
        if s.key is not None:
            counts.setdefault(s.key, []).append(s)
    for group in counts.values():
        for s in group:
            s.votes = len(group)
    if not counts:
        return None, 0, False
    best = max(len(g) for g in counts.values())
    leaders = [g[0] for g in counts.values() if len(g) == best]
    return leaders[0], best, len(leaders) > 1


def _tied(batch: Sequence[Sample], votes: int) -> list[list[str]]:
    """The answers (one per distinct key, in order of first appearance) with ``votes`` votes."""
    seen: dict[tuple[str, ...], list[str]] = {}
    for s in batch:
        if s.key is not None and s.votes == votes:
            seen.setdefault(s.key, list(s.answer))
    return list(seen.values())


def self_consistency(write: Write, execute: Run, *, n: int = 5, retries: int = 3,
                     notes: Callable[[int], Sequence[str]] | None = None,
                     catch: tuple[type[Exception], ...] = ()) -> VoteResult:
    """Write ``n`` queries, execute and vote; write again (``retries`` times) if none answers.

    Args:
        write: ``(attempt, n) -> texts`` (may return fewer or more than ``n``; an exception
            from it propagates).
        execute: ``text -> Trace``.
        notes: ``attempt -> one note per text`` (e.g. the offline writer's explanations).
        catch: exceptions of ``write`` that end the rounds with a ``writer_error`` sample
            (e.g. an unreachable LLM) instead of propagating.
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    samples: list[Sample] = []
    rounds = 0
    for attempt in range(retries + 1):
        rounds = attempt + 1
        try:
            texts = list(write(attempt, n))
        except catch as err:
            samples.append(Sample("", attempt, status="writer_error", error=str(err)))
            break
        explain = list(notes(attempt)) if notes else []
        batch = [Sample(t, attempt, note=explain[i] if i < len(explain) else "")
                 for i, t in enumerate(texts)]
        for sample in batch:
            _classify(sample, execute(sample.text))
        samples += batch
        winner, votes, tie = tally(batch)
        if winner is not None:
            share = votes / len(batch)
            tied = _tied(batch, votes) if tie else []
            return VoteResult(list(winner.answer), share, winner, samples, attempt + 1, tie,
                              tied)
        if not texts:
            break
    return VoteResult([], 0.0, None, samples, rounds)
