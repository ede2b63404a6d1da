"""``bench run --engine spark``: the MetaQA and WikiSQL ceilings, executed as one Spark batch.

:class:`SparkEngine` wraps :class:`~.ceilings.MetaQACeiling` or :class:`~.ceilings.WikiSQLCeiling`.
When the run asks for its items, every gold program of the run is mapped (with the memory
store's mapper, as :mod:`.spark_differential` does: Spark has no label pool) and compiled to
Spark SQL, the graphs are written as Parquet, and the whole set runs as **one** Spark batch.
Each item is then evaluated as usual (the gold answers and our executor's answer) and
re-scored with Spark's answer: when both engines agree (MetaQA: as sets; WikiSQL: in order)
the memory verdict stands (with MetaQA's answer order, which strict Hits@1 reads); when they
differ Spark's answer is scored by the benchmark's metric (``engine_differs`` when wrong);
a program Spark does not compile is ``not_compiled`` (never answered by another engine).
``engine_agrees`` flags agreement. The mode is ``<mode>-spark`` so reports and the resumable
cache never mix engines.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..mapping.dense import default_cache_dir
from ..sparkengine import compile_program, spark_session, write_graphs
from ..sparkengine.batch import SparkGraphs, run_batch
from .ceilings import MetaQACeiling, WikiSQLCeiling, metaqa_scores
from .outcome import Outcome, Unavailable
from .spark_differential import SparkReport, metaqa_questions, wikisql_questions
from .wikisql_gold import wikisql_match

__all__ = ["SparkEngine", "SparkBatch"]


@dataclass
class SparkBatch:
    """One run's Spark answers: per question id, and the ids Spark could not compile."""

    answers: dict[str, list[str]] = field(default_factory=dict)
    not_compiled: dict[str, str] = field(default_factory=dict)
    questions: int = 0


class SparkEngine:
    """A MetaQA or WikiSQL ceiling whose gold programs run as one Spark batch (see the module
    docstring). ``master`` is a Spark master URL (default: ``$TRUSTUQA_SPARK_MASTER``, else
    local mode)."""

    concurrent = False

    def __init__(self, inner: Any, master: str | None = None) -> None:
        if not isinstance(inner, MetaQACeiling | WikiSQLCeiling):
            raise Unavailable("--engine spark runs the MetaQA and WikiSQL ceilings only (gold "
                              "programs compiled to Spark SQL, one batch per run)")
        self.inner, self.master = inner, master
        self.benchmark, self.split = inner.benchmark, inner.split
        self.mode = f"{inner.mode}-spark"
        self.batch: SparkBatch | None = None

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        items = list(self.inner.items(limit))
        self.batch = self._run_batch(limit)
        return items

    def _run_batch(self, limit: int | None) -> SparkBatch:
        report = SparkReport(self.benchmark)
        root = self.inner.root
        if isinstance(self.inner, MetaQACeiling):
            sources, questions = metaqa_questions(self.inner.hops, self.split, limit, root, 0,
                                                  report)
            groups = [sources] if sources else []
        else:
            groups, questions = wikisql_questions(self.split, limit, root, 0, report)
        out = SparkBatch(questions=len(questions))
        if not questions:
            return out
        base = default_cache_dir() / "spark"
        base.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="bench-run-", dir=base))
        try:
            meta = write_graphs(groups, folder)
            graphs = SparkGraphs(spark_session(self.master), folder)
            plans = [compile_program(q.id, q.mapped, q.graph, meta.graphs[q.graph].has_tables)
                     for q in questions]
            outcome = run_batch(graphs, plans)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        out.answers = {k: [str(a) for a in v] for k, v in outcome.answers.items()}
        out.not_compiled = dict(outcome.not_compiled)
        return out

    def evaluate(self, item: Any) -> Outcome:
        outcome = self.inner.evaluate(item)
        batch = self.batch if self.batch is not None else SparkBatch()
        qid = outcome.id
        if qid in batch.not_compiled:
            return replace(outcome, correct=False, category="not_compiled", answer=[],
                           detail=batch.not_compiled[qid],
                           flags={**outcome.flags, "engine_agrees": False})
        if qid not in batch.answers:  # not mapped, or the topic is not in the KB
            return replace(outcome, flags={**outcome.flags, "engine_agrees": not outcome.answer})
        spark = batch.answers[qid]
        # a run error comes back as one "error: ..." answer (as the differential reports
        # it); the executor's outcome then has no answer
        error = spark[0][len("error: "):] if len(spark) == 1 and spark[0].startswith(
            "error: ") else None
        if error is not None:
            agrees = not outcome.answer
        elif isinstance(self.inner, MetaQACeiling):  # answers are sets: compared as sets
            agrees = sorted(set(spark)) == sorted(set(outcome.answer))
        else:
            agrees = spark == [str(a) for a in outcome.answer]
        if agrees:  # the same answer: the memory verdict (and MetaQA's answer order) stands
            return replace(outcome, flags={**outcome.flags, "engine_agrees": True})
        answer = [] if error is not None else spark
        if isinstance(self.inner, MetaQACeiling):
            scores = metaqa_scores(sorted(set(answer)), outcome.gold)
            correct = bool(outcome.gold) and bool(scores["hits1"])
        else:  # SQL gives NULL for an aggregate over nothing, as our empty-input error
            empty_input = error is not None and "of an empty set" in error
            scores = dict(outcome.scores)
            correct = wikisql_match(answer, outcome.gold, empty_input)
        return replace(outcome, correct=correct, answer=answer, scores=scores,
                       category="correct" if correct else "engine_differs",
                       flags={**outcome.flags, "engine_agrees": False})
