"""Per-question evaluation records, failure categories and their summary.

Every evaluator (ceilings, replays, LLM answers) turns one question into one :class:`Outcome`:
the answer, the gold answer, whether it counts as correct and, if not, *why* (a category).
Outcomes are plain data, so they go to the on-disk cache as JSON lines and come back unchanged.

>>> o = Outcome("q1", "wtq", "how many?", False, "wrong", ["3"], ["4"], 0.01,
...             groups={"half": "tune"}, flags={"no_llm_step": True})
>>> Outcome.from_dict(o.to_dict()) == o
True
>>> s = summarise([o, Outcome("q2", "wtq", "who?", True, "correct", ["a"], ["a"], 0.02)])
>>> s["n"], s["accuracy"], s["failures"], s["flags"]["no_llm_step"]["n"]
(2, 0.5, {'wrong': 1}, 1)
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from ..fallback import FallbackAnswer, FallbackRequest
from ..trace import Trace

__all__ = [
    "EVALUATOR_ERRORS",
    "Evaluation",
    "Unavailable",
    "CATEGORIES",
    "CATEGORY_HELP",
    "Outcome",
    "ProbeFallback",
    "classify_trace",
    "summarise",
]

CATEGORY_HELP = {
    "correct": "the answer matches the gold answer",
    "parse": "the query text could not be parsed",
    "mapping": "an argument (relation, value, entity) matched nothing usable in the data",
    "rewrite": "no rewrite rule for the argument combination of a get_information call",
    "llm_function": "the query needs an LLM-inferred step (an undefined function, a step "
    "depending on one, or a comparison / extremum over non-numbers)",
    "execute": "an operation failed for another reason (see the message)",
    "empty": "the query ran but returned no answer",
    "wrong": "the query ran and returned a different answer",
    "gold_text_number": "gold from text-stored number: the original WikiSQL database kept "
    "this number as text (e.g. '21,500'), so SQLite compared / aggregated it as text and the "
    "gold answer cannot be rebuilt from the table values",
    "wikisql_text_equality": "WikiSQL compares text cells as strings ('5.10' != '5.1'); the "
    "query language compares numbers by value",
    "unreachable": "the gold answers cannot be reached in the (incomplete) data",
    "extra_answers": "every gold answer is in the prediction, but so are answers the KB has "
    "and the gold leaves out (e.g. two films with one title merged into one node), and the "
    "first one is among those (strict Hits@1 reads only the first)",
    "not_evaluable": "the gold answer cannot be compared (e.g. Wikidata ids with no name map)",
    "no_program": "no gold program or recorded query exists for this question",
    "llm_error": "the LLM call failed (connection, authentication, rate limit, bad reply)",
    "error": "the evaluator itself failed on this question (a bug: see the message)",
    "no_cypher": "--engine cypher: the program has no Cypher form (an op the compiler does not "
    "cover), so Ladybug could not run it",
    "engine_differs": "--engine cypher: Ladybug's answer differs from our executor's on the same "
    "program (a compiler or executor bug: see the message)",
}
CATEGORIES = tuple(CATEGORY_HELP)

_REWRITE = re.compile(r"^(no rule for|repeated arguments)")
_MAPPING = re.compile(r"matched no relation|matched nothing|is not a known value|"
                      r"is a relation name where a set|no relation named|no value or entity")
_EMPTY = re.compile(r"of an empty set|has no result|which has no answer")


class Unavailable(Exception):
    """A benchmark / mode combination that cannot be evaluated with the data at hand."""


# What an evaluator may raise for one question without stopping the run (category "error").
EVALUATOR_ERRORS: tuple[type[BaseException], ...] = (
    ValueError, LookupError, TypeError, ArithmeticError, OSError)


class Evaluation(Protocol):
    """A benchmark in one mode: the questions (``items``: id and payload) and how to
    evaluate one of them. ``evaluate`` must be safe to call from several threads."""

    benchmark: str
    split: str
    mode: str
    concurrent: bool  # True when evaluate() waits on I/O (LLM calls): run it in a pool

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]: ...

    def evaluate(self, item: Any) -> Outcome: ...


@dataclass
class Outcome:
    """What happened to one question.

    Attributes:
        id: the question id (unique within a run; the cache key).
        correct: whether it counts as correct under the benchmark's metric.
        category: ``"correct"`` or a failure category (see :data:`CATEGORY_HELP`).
        groups: breakdown dimensions, e.g. ``{"qtype": "movie_to_year", "half": "tune"}``.
        flags: booleans for subsets, e.g. ``{"reachable": True, "no_llm_step": False}``.
        scores: extra per-question metrics in 0..1 (``hits1``, ``f1``, ``set_equal``).
        detail: an error message or a note; query: the executed query text.
    """

    id: str
    benchmark: str
    question: str
    correct: bool
    category: str
    answer: list[str]
    gold: list[str]
    seconds: float
    groups: dict[str, str] = field(default_factory=dict)
    flags: dict[str, bool] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    detail: str = ""
    query: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Outcome:
        return Outcome(**{k: data[k] for k in Outcome.__dataclass_fields__ if k in data})


class ProbeFallback:
    """A fallback that records what the executor asked for and always declines.

    Running a query with it tells whether the query *needs* an LLM-inferred step, without
    calling any LLM. Not shared between threads: make one per query.
    """

    def __init__(self) -> None:
        self.requests: list[FallbackRequest] = []

    def __call__(self, request: FallbackRequest) -> FallbackAnswer:
        self.requests.append(request)
        return FallbackAnswer(None, "declined: offline evaluation probe")


def classify_trace(trace: Trace, probe: ProbeFallback | None = None) -> tuple[str, str]:
    """(category, detail) of a trace whose answer was not correct.

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"A,B\\nx,1\\n"])
    >>> classify_trace(run_query("Query1: get_information(relation='A', tail_entity='x'", g))[0]
    'parse'
    >>> q = "Query1: \\"get_information(relation='B', tail_entity>'5')\\""
    >>> classify_trace(run_query(q, g))[0]
    'empty'
    """
    if probe is not None and probe.requests:
        req = probe.requests[0]
        return "llm_function", f"{req.kind}: {req.call}"
    if any(s.status == "unanswered" for s in trace.steps):
        step = next(s for s in trace.steps if s.status == "unanswered")
        return "llm_function", f"function: {step.call}"
    err = trace.error
    if err is not None:
        message = err.message
        if err.stage == "parse":
            return "parse", f"line {err.line}, column {err.column}: {message}"
        if err.stage == "map" or _MAPPING.search(message):
            return "mapping", message
        if err.stage == "rewrite" or _REWRITE.search(message):
            return "rewrite", message
        if _EMPTY.search(message):
            return "empty", message
        return "execute", message
    if not trace.answer:
        return "empty", trace.explain_empty() or ""
    return "wrong", ""


def _rate(hits: int, n: int) -> float | None:
    return hits / n if n else None


def _accuracy(part: Sequence[Outcome]) -> float | None:
    return _rate(sum(o.correct for o in part), sum(o.category != "not_evaluable" for o in part))


def _latency(seconds: Sequence[float]) -> dict[str, float]:
    if not seconds:
        return {}
    ordered = sorted(seconds)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, math.ceil(p * len(ordered)) - 1)]

    return {"mean": sum(ordered) / len(ordered), "p50": pct(0.5), "p90": pct(0.9),
            "p99": pct(0.99), "max": ordered[-1], "total": sum(ordered)}


def summarise(outcomes: Iterable[Outcome], examples: int = 1) -> dict[str, Any]:
    """Counts, accuracy, failures by category (with ``examples`` examples each), accuracy by
    group, subsets by flag (n, accuracy and score means within the subset), latency.

    Questions of category ``not_evaluable`` (no usable gold answer) are counted in ``n`` but
    left out of ``n_evaluated`` and of the accuracy.
    """
    items = list(outcomes)
    n, correct = len(items), sum(o.correct for o in items)
    n_evaluated = sum(o.category != "not_evaluable" for o in items)
    failures = Counter(o.category for o in items if not o.correct)
    shown: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for o in items:
        if not o.correct and len(shown[o.category]) < examples:
            shown[o.category].append({"id": o.id, "question": o.question, "answer": o.answer[:5],
                                      "gold": o.gold[:5], "detail": o.detail[:300],
                                      "query": o.query})
    groups: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for dim in sorted({d for o in items for d in o.groups}):
        values = sorted({o.groups[dim] for o in items if dim in o.groups})
        for value in values:
            part = [o for o in items if o.groups.get(dim) == value]
            groups[dim][value] = {"n": len(part), "correct": sum(o.correct for o in part),
                                  "accuracy": _accuracy(part)}
    flags = {}
    for flag in sorted({f for o in items for f in o.flags}):
        part = [o for o in items if o.flags.get(flag)]
        flags[flag] = {"n": len(part), "correct": sum(o.correct for o in part),
                       "accuracy": _accuracy(part),
                       "scores": _score_means(part)}
    return {
        "n": n,
        "n_evaluated": n_evaluated,
        "correct": correct,
        "accuracy": _rate(correct, n_evaluated),
        "failures": dict(failures.most_common()),
        "examples": dict(shown),
        "scores": _score_means(items),
        "groups": dict(groups),
        "flags": flags,
        "latency": _latency([o.seconds for o in items]),
    }


def _score_means(items: Sequence[Outcome]) -> dict[str, float]:
    keys = sorted({k for o in items for k in o.scores})
    out = {}
    for k in keys:
        values = [o.scores[k] for o in items if k in o.scores]
        out[k] = sum(values) / len(values)
    return out
