"""A small benchmark slice for the Evaluate page, without an LLM.

*Replay* runs the TrustUQA authors' recorded GPT-3.5 queries (``trustuqa_prompts/``) through our
parser, mapper and executor on the benchmark's own data and scores the answers: the best offline
check of the whole non-LLM pipeline. When the LLM layer's benchmark runner is installed, the page
uses it instead (see :func:`runner_available`).

>>> summarize([EvalRow("1", "q", ("a",), ("a",), True, None, 0.1),
...            EvalRow("2", "q", ("b",), (), False, "map", 0.2)])["accuracy"]
0.5
"""

from __future__ import annotations

import importlib.util
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..evaluate.datasets import Example, data_root, load, load_recorded_queries
from ..evaluate.metrics import denotation_match, hits_at_1_any
from ..execute import run_query
from ..graph import build_graph
from ..mapping.mapper import Mapper
from ..translate import load_source

__all__ = ["REPLAY", "EvalRow", "data_available", "replay", "summarize", "runner_available"]

#: label -> (benchmark, split, recorded-query file key, metric)
REPLAY: dict[str, tuple[str, str, str, str]] = {
    "WikiTableQuestions, train split (recorded GPT-3.5 queries)": ("wtq", "train", "wtq",
                                                                   "denotation"),
}


@dataclass(frozen=True)
class EvalRow:
    """One scored question."""

    id: str
    question: str
    gold: tuple[str, ...]
    predicted: tuple[str, ...]
    correct: bool
    failed_at: str | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "gold": " | ".join(self.gold),
                "predicted": " | ".join(self.predicted), "correct": self.correct,
                "failed at": self.failed_at or "", "seconds": round(self.seconds, 3)}


def data_available() -> str | None:
    """None when the benchmark folder exists, else a message saying where it was looked for."""
    try:
        data_root()
    except FileNotFoundError as err:
        return str(err)
    return None


def runner_available() -> bool:
    """True when ``trustuqa_core.evaluate.runner`` (the LLM layer's bench runner) exists."""
    return importlib.util.find_spec("trustuqa_core.evaluate.runner") is not None


def _score(metric: str, predicted: list[str], gold: tuple[str, ...]) -> bool:
    if metric == "denotation":
        return denotation_match(predicted, list(gold))
    return hits_at_1_any(predicted, list(gold))


def replay(label: str, limit: int) -> Iterator[tuple[int, int, EvalRow]]:
    """Yield ``(done, total, row)`` per question that has a recorded query."""
    bench, split, rec_key, metric = REPLAY[label]
    recorded = load_recorded_queries(rec_key)
    examples = [e for e in load(bench, split, limit=limit * 4) if e.question in recorded][:limit]
    for i, ex in enumerate(examples, 1):
        yield i, len(examples), _run_one(ex, recorded[ex.question], metric)


def _run_one(ex: Example, query: str, metric: str) -> EvalRow:
    t0 = time.perf_counter()
    graph = build_graph([load_source(s.path, s.kind) for s in ex.sources])
    trace = run_query(query, graph, Mapper(graph), question=ex.question)
    predicted = trace.answer
    return EvalRow(ex.id, ex.question, ex.answers, tuple(predicted),
                   _score(metric, predicted, ex.answers),
                   trace.error.stage if trace.error else ("empty" if not predicted else None),
                   time.perf_counter() - t0)


def summarize(rows: list[EvalRow]) -> dict[str, Any]:
    """Accuracy, answered share, failures by stage, mean seconds."""
    n = max(len(rows), 1)
    return {"questions": len(rows), "accuracy": sum(r.correct for r in rows) / n,
            "answered": sum(bool(r.predicted) for r in rows) / n,
            "failures": dict(Counter(r.failed_at for r in rows if r.failed_at)),
            "mean seconds": sum(r.seconds for r in rows) / n}
