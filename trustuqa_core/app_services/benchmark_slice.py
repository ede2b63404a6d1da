"""A small benchmark slice for the Evaluate page, through the benchmark runner's Python API.

Modes (see :mod:`trustuqa_core.evaluate.runner`): ``ceiling`` runs gold programs (WikiSQL,
MetaQA), ``replay`` runs the TrustUQA authors' recorded GPT-3.5 queries (WTQ, MetaQA, WebQSP),
``answer`` runs the whole pipeline (offline writer, or the LLM configured in Settings). No
report files are written: outcomes stay in the session.

>>> MODES["replay"].startswith("Replay")
True
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import TrustUQAError
from ..evaluate.datasets import BENCHMARKS, Example, data_root
from ..evaluate.outcome import EVALUATOR_ERRORS, Outcome, Unavailable, summarise
from ..evaluate.runner import build_evaluation

__all__ = ["MODES", "BENCHMARKS", "data_available", "evaluate_slice", "summary_of",
           "outcome_rows", "category_counts", "seconds_by_question", "median_seconds",
           "Unavailable", "clean_question", "evaluable_summary", "item_sources", "AskRequest",
           "ask_request", "read_sources", "MODE_ORIGINS", "risk_coverage_rows",
           "timing_recorded", "seconds_text"]

MODES = {
    "replay": "Replay the recorded GPT-3.5 queries (no LLM)",
    "ceiling": "Gold programs: the executor's ceiling (no LLM)",
    "answer": "Answer with the configured writer (offline, or the LLM from Settings)",
}
_CAUGHT: tuple[type[BaseException], ...] = (TrustUQAError, *EVALUATOR_ERRORS)


def data_available() -> str | None:
    """None when the benchmark folder exists, else a message saying where it was looked for."""
    try:
        data_root()
    except FileNotFoundError as err:
        return str(err)
    return None


def item_sources(item: Any, evaluation: Any = None) -> list[tuple[str, str]]:
    """The data files (path, kind) a benchmark item is answered over: an
    :class:`~trustuqa_core.evaluate.datasets.Example`'s sources, those of an example inside a
    replay item, or the evaluation's one shared source (MetaQA replay). Empty when unknown."""
    found: list[Example] = []
    if isinstance(item, Example):
        found = [item]
    elif isinstance(item, tuple):
        for part in item:
            if isinstance(part, Example):
                found.append(part)
            elif isinstance(part, list):
                found += [p for p in part if isinstance(p, Example)]
    for example in found:
        if example.sources:
            return [(str(src.path), src.kind) for src in example.sources]
    shared = getattr(evaluation, "_source", None)
    if shared is not None and hasattr(shared, "path"):
        return [(str(shared.path), str(shared.kind))]
    return []


def evaluate_slice(benchmark: str, mode: str, limit: int, *, writer: str = "offline",
                   settings: Any = None, encoder: str = "hashing",
                   sources: dict[str, list[tuple[str, str]]] | None = None
                   ) -> Iterator[tuple[int, int, Outcome]]:
    """Yield ``(done, total, outcome)`` for the first ``limit`` questions.

    ``encoder`` retrieves demonstrations in answer mode (``"hashing"`` loads no model;
    ``"minilm"`` encodes the benchmark's demos once, then reads them from the disk cache).
    ``sources``, when given, receives each question's data files by outcome id (for "open in
    Ask"). Raises :class:`Unavailable` (with the reason) when the data cannot support the mode.
    """
    evaluation = build_evaluation(benchmark, mode, writer=writer, settings=settings,
                                  encoder=encoder)
    items = evaluation.items(limit)
    for i, (key, item) in enumerate(items, 1):
        try:
            outcome = evaluation.evaluate(item)
        except _CAUGHT as exc:  # one failing question is an outcome, not a crash
            outcome = Outcome(key, benchmark, str(getattr(item, "question", "")), False, "error",
                              [], [str(a) for a in getattr(item, "answers", ())], 0.0,
                              detail=f"{type(exc).__name__}: {exc}")
        outcome.id = key
        if sources is not None:
            sources[key] = item_sources(item, evaluation)
        yield i, len(items), outcome


_SLOT = re.compile(r"\{(\w+)\}")


def clean_question(text: str) -> tuple[str, str]:
    """A benchmark question for display, and a note when it had to be cleaned.

    Some CronQuestions questions (370 of the 5,020 of the shared ``valid`` split) come with a
    template slot the dataset never filled, e.g. ``who was the {tail2}``: the annotation has
    no ``tail2``, so the words are missing from the data itself, not lost by our loader. The
    slot is shown as ``…`` and the note says so.

    >>> clean_question("When A was the B , who was the {tail2}")
    ('When A was the B, who was the …', 'the dataset left the template slot {tail2} unfilled')
    >>> clean_question("who won?")
    ('who won?', '')
    """
    slots = _SLOT.findall(text)
    if not slots:
        return text, ""
    shown = re.sub(r"\s+([,?.])", r"\1", _SLOT.sub("…", text))
    names = ", ".join("{" + s + "}" for s in dict.fromkeys(slots))
    return shown, f"the dataset left the template slot {names} unfilled"


def evaluable_summary(outcomes: list[Outcome]) -> str:
    """One sentence on the questions left out of the accuracy, with their reasons, e.g.
    ``8 of 10 not evaluable: gold answers are Wikidata ids (no name map) (8)``; empty when
    every question was evaluable."""
    left = [o for o in outcomes if o.category == "not_evaluable"]
    if not left:
        return ""
    why = Counter(o.detail or "no usable gold answer" for o in left).most_common()
    reasons = "; ".join(f"{d} ({n})" if len(why) > 1 else d for d, n in why)
    return (f"{len(left)} of {len(outcomes)} not evaluable: {reasons}. The accuracy is "
            f"computed over the other {len(outcomes) - len(left)}.")


MODE_ORIGINS = {"replay": "recorded", "ceiling": "gold"}


@dataclass(frozen=True)
class AskRequest:
    """What "open in Ask" needs: the question's data files, the question (cleaned), and the
    query the benchmark row executed with who wrote it (a :data:`~.runs.ORIGINS` key)."""

    question: str
    sources: tuple[tuple[str, str], ...]
    query: str
    origin: str


def ask_request(outcome: Outcome, mode: str, sources: list[tuple[str, str]],
                writer: str = "offline") -> AskRequest:
    """The "open in Ask" request of one benchmark row (``writer``: who wrote the queries in
    answer mode, ``offline`` or ``llm``)."""
    question, _ = clean_question(outcome.question)
    origin = MODE_ORIGINS.get(mode, "llm" if writer == "llm" else "offline")
    return AskRequest(question, tuple(sources), outcome.query, origin)


def read_sources(request: AskRequest) -> list[tuple[str, str, bytes]]:
    """(file name, kind, bytes) of each data file of ``request``, for the Data step."""
    return [(Path(path).name, kind, Path(path).read_bytes()) for path, kind in request.sources]


def summary_of(outcomes: list[Outcome]) -> dict[str, Any]:
    """The runner's summary (accuracy, failures by category, latency, ...)."""
    return summarise(outcomes)


def outcome_rows(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """One table row per question."""
    return [{"id": o.id, "question": clean_question(o.question)[0],
             "note": clean_question(o.question)[1], "gold": " | ".join(map(str, o.gold[:5])),
             "answer": " | ".join(map(str, o.answer[:5])), "correct": o.correct,
             "verdict": o.groups.get("verdict", ""), "category": o.category,
             "seconds": round(o.seconds, 3), "detail": o.detail[:200]}
            for o in outcomes]


def category_counts(outcomes: list[Outcome]) -> dict[str, int]:
    """How many outcomes fall in each category, most frequent first."""
    return dict(Counter(o.category for o in outcomes).most_common())


def seconds_by_question(outcomes: list[Outcome]) -> dict[str, float]:
    """Each question's time in seconds (to the microsecond: a replay takes well under a
    millisecond, and rounding to ms drew an empty chart), by question id."""
    return {o.id: round(o.seconds, 6) for o in outcomes}


def median_seconds(outcomes: list[Outcome]) -> float:
    """The median time per question, in seconds (NaN when there are no outcomes)."""
    return float(pd.Series([o.seconds for o in outcomes]).median())


def risk_coverage_rows(curve: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The risk-coverage curve's points as table rows (the chart alone hides a lone point at
    a corner), in the page's words.

    >>> risk_coverage_rows([{"label": "verified", "answered": 0.5, "risk": 0.0, "n": 5,
    ...                      "correct": 5}])
    [{'answers kept': 'verified', 'questions answered': '50%', 'error rate': '0%', \
'right / kept': '5 / 5'}]
    """
    return [{"answers kept": p["label"], "questions answered": f"{p['answered']:.0%}",
             "error rate": f"{p['risk']:.0%}", "right / kept": f"{p['correct']} / {p['n']}"}
            for p in curve]


def timing_recorded(outcomes: list[Outcome]) -> bool:
    """Whether any question of the slice recorded its time (some modes record none: their
    seconds chart would be empty).

    >>> timing_recorded([])
    False
    """
    return any(o.seconds > 0 for o in outcomes)


def seconds_text(seconds: float) -> str:
    """A time for the page: seconds, or milliseconds below a tenth of a second (a replay's
    median read "0.00 s").

    >>> seconds_text(2.345), seconds_text(0.0004), seconds_text(0.05), seconds_text(float("nan"))
    ('2.35 s', '0.4 ms', '50.0 ms', 'n/a')
    """
    if seconds != seconds:  # NaN: no outcomes
        return "n/a"
    return f"{seconds:.2f} s" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"
