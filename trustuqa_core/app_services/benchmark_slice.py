"""A small benchmark slice for the Evaluate page, through the benchmark runner's Python API.

Modes (see :mod:`trustuqa_core.evaluate.runner`): ``ceiling`` runs gold programs (WikiSQL,
MetaQA), ``replay`` runs the TrustUQA authors' recorded GPT-3.5 queries (WTQ, MetaQA, WebQSP),
``answer`` runs the whole pipeline (offline writer, or the LLM configured in Settings). No
report files are written: outcomes stay in the session.

>>> MODES["replay"].startswith("Replay")
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pandas as pd

from ..errors import TrustUQAError
from ..evaluate.datasets import BENCHMARKS, data_root
from ..evaluate.outcome import EVALUATOR_ERRORS, Outcome, Unavailable, summarise
from ..evaluate.runner import build_evaluation

__all__ = ["MODES", "BENCHMARKS", "data_available", "evaluate_slice", "summary_of",
           "outcome_rows", "category_counts", "seconds_by_question", "median_seconds",
           "Unavailable"]

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


def evaluate_slice(benchmark: str, mode: str, limit: int, *, writer: str = "offline",
                   settings: Any = None, encoder: str = "hashing"
                   ) -> Iterator[tuple[int, int, Outcome]]:
    """Yield ``(done, total, outcome)`` for the first ``limit`` questions.

    ``encoder`` retrieves demonstrations in answer mode (``"hashing"`` loads no model;
    ``"minilm"`` encodes the benchmark's demos once, then reads them from the disk cache).
    Raises :class:`Unavailable` (with the reason) when the data cannot support the mode.
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
        yield i, len(items), outcome


def summary_of(outcomes: list[Outcome]) -> dict[str, Any]:
    """The runner's summary (accuracy, failures by category, latency, ...)."""
    return summarise(outcomes)


def outcome_rows(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    """One table row per question."""
    return [{"id": o.id, "question": o.question, "gold": " | ".join(map(str, o.gold[:5])),
             "answer": " | ".join(map(str, o.answer[:5])), "correct": o.correct,
             "verdict": o.groups.get("verdict", ""), "category": o.category,
             "seconds": round(o.seconds, 3), "detail": o.detail[:200]}
            for o in outcomes]


def category_counts(outcomes: list[Outcome]) -> dict[str, int]:
    """How many outcomes fall in each category, most frequent first."""
    return dict(Counter(o.category for o in outcomes).most_common())


def seconds_by_question(outcomes: list[Outcome]) -> dict[str, float]:
    """Each question's time in seconds (rounded to ms), by question id."""
    return {o.id: round(o.seconds, 3) for o in outcomes}


def median_seconds(outcomes: list[Outcome]) -> float:
    """The median time per question, in seconds (NaN when there are no outcomes)."""
    return float(pd.Series([o.seconds for o in outcomes]).median())
