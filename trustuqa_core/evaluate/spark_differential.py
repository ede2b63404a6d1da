"""Differential check of Spark batch execution: the gold programs of MetaQA and WikiSQL,
mapped once, executed by the memory executor one question at a time and by Spark as one
batch per set; the answers must agree.

Literal mapping is shared (the memory store's Mapper: Spark has no label pool, and the
Parquet ids are the memory store's), so what is compared is execution. MetaQA answers are
compared as sets (as the DuckDB differential does), WikiSQL answers in order. A question
whose plan Spark does not compile is counted and listed under ``not_compiled`` with the
reason, never answered by another engine; a question whose mapping fails is counted under
``not_mapped``.

>>> SparkRow("dev-0", ["a"], ["a"]).agree, SparkRow("dev-1", ["a"], ["b"]).agree
(True, False)
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import TrustUQAError
from ..execute import execute
from ..graph import build_graph
from ..mapping import Mapper
from ..mapping.dense import default_cache_dir
from ..mapping.mapper import MappedProgram
from ..query.parse import parse
from ..query.render import render_program
from ..sources import SourceFacts
from ..sparkengine import NotCompiled, Plan, compile_program, spark_session, write_graphs
from ..sparkengine.batch import SparkGraphs, run_batch
from ..store import GraphStore
from ..translate import load_source
from .ceilings import topic_overrides
from .datasets import load_metaqa, load_wikisql
from .metaqa_gold import qtype_program
from .wikisql_gold import TableInfo, sql_to_program

__all__ = ["SparkRow", "SparkReport", "Question", "spark_differential", "SPARK_SETS",
           "metaqa_questions", "wikisql_questions", "compare", "memory_answer"]

SPARK_SETS = ("metaqa-1hop", "metaqa-2hop", "metaqa-3hop", "wikisql")


@dataclass(frozen=True)
class SparkRow:
    """One question's answer from the memory executor and from Spark."""

    id: str
    memory: list[str]
    spark: list[str]

    @property
    def agree(self) -> bool:
        return self.memory == self.spark


@dataclass
class Question:
    """A mapped gold program, its graph in the Parquet folder and the memory answer."""

    id: str
    graph: int
    mapped: MappedProgram
    memory: list[str]
    memory_seconds: float


@dataclass
class SparkReport:
    """Agreement, what was not compiled, and timing over one set."""

    name: str
    rows: list[SparkRow] = field(default_factory=list)
    not_compiled: dict[str, str] = field(default_factory=dict)
    not_mapped: dict[str, str] = field(default_factory=dict)
    skipped: int = 0
    memory_seconds: float = 0.0
    spark_seconds: float = 0.0
    positions: int = 0

    def summary(self) -> dict[str, Any]:
        n = len(self.rows)
        agree = sum(r.agree for r in self.rows)
        reasons: dict[str, int] = defaultdict(int)
        for why in self.not_compiled.values():
            reasons[why.split(": ", 1)[-1]] += 1
        return {
            "name": self.name, "compared": n, "agree": agree,
            "agreement": agree / n if n else 0.0,
            "not_compiled": len(self.not_compiled), "not_compiled_reasons": dict(reasons),
            "not_compiled_questions": self.not_compiled,
            "not_mapped": len(self.not_mapped), "skipped_topic_not_in_kb": self.skipped,
            "memory_seconds": round(self.memory_seconds, 3),
            "memory_questions_per_s": _rate(n + len(self.not_compiled), self.memory_seconds),
            "spark_seconds": round(self.spark_seconds, 3),
            "spark_questions_per_s": _rate(n + len(self.not_compiled), self.spark_seconds),
            "spark_plan_positions": self.positions,
            "disagreements": [r.__dict__ for r in self.rows if not r.agree],
        }


def _rate(n: int, seconds: float) -> float:
    return round(n / seconds, 1) if seconds > 0 else 0.0


def memory_answer(mapped: MappedProgram, graph: GraphStore) -> tuple[list[str], float]:
    """The executor's answer on ``graph`` (``["error: ..."]`` when it fails) and its time."""
    t0 = time.perf_counter()
    trace = execute(mapped, graph)
    seconds = time.perf_counter() - t0
    if trace.error is not None:
        return [f"error: {trace.error.message}"], seconds
    return [str(a) for a in trace.answer], seconds


def metaqa_questions(hops: int, split: str, limit: int | None, root: Path | str | None,
                     graph_index: int, report: SparkReport
                     ) -> tuple[list[SourceFacts], list[Question]]:
    """The KB's sources and the mapped gold programs of MetaQA ``hops``-hop."""
    examples = load_metaqa(hops, split, limit, root=root)
    if not examples:
        return [], []
    path = examples[0].sources[0].path
    sources = [load_source(path, "kg", name=path.name)]
    memory = build_graph(sources)
    mapper = Mapper(memory, None)
    out = []
    for ex in examples:
        meta: Any = ex.metadata
        topic = meta["topic_entity"]
        if memory.entity(topic) is None:
            report.skipped += 1
            continue
        program = qtype_program(meta["qtype"], topic)
        try:
            mapped = mapper.map_program(program, topic_overrides(program, topic))
        except TrustUQAError as exc:
            report.not_mapped[ex.id] = str(exc)
            continue
        answer, seconds = memory_answer(mapped, memory)
        out.append(Question(ex.id, graph_index, mapped, sorted(set(answer)), seconds))
    return sources, out


def wikisql_questions(split: str, limit: int | None, root: Path | str | None,
                      first_graph: int, report: SparkReport
                      ) -> tuple[list[list[SourceFacts]], list[Question]]:
    """One graph per table (numbered from ``first_graph``) and the mapped gold programs."""
    examples = sorted(load_wikisql(split, limit, root=root), key=lambda e: str(e.sources[0].path))
    groups: list[list[SourceFacts]] = []
    out = []
    current: tuple[str, GraphStore, Mapper] | None = None
    for ex in examples:
        path = ex.sources[0].path
        if current is None or current[0] != str(path):
            sources = [load_source(path, "table", name=path.name)]
            graph = build_graph(sources)
            current = (str(path), graph, Mapper(graph, None))
            groups.append(sources)
        _, memory, mapper = current
        sql: Any = ex.metadata["sql"]
        try:
            text = render_program(sql_to_program(sql, TableInfo.from_graph(memory)))
            mapped = mapper.map_program(parse(text))
        except (TrustUQAError, ValueError) as exc:
            report.not_mapped[ex.id] = str(exc)
            continue
        answer, seconds = memory_answer(mapped, memory)
        out.append(Question(ex.id, first_graph + len(groups) - 1, mapped, answer, seconds))
    return groups, out


def compare(report: SparkReport, questions: Sequence[Question],
            plans: Sequence[Plan | NotCompiled], graphs: SparkGraphs, as_set: bool) -> None:
    """Run ``plans`` as one Spark batch and compare with the memory answers."""
    outcome = run_batch(graphs, plans)
    report.spark_seconds, report.positions = outcome.seconds, outcome.positions
    report.not_compiled.update(outcome.not_compiled)
    for q in questions:
        if q.id in outcome.not_compiled:
            continue
        spark = outcome.answers[q.id]
        report.memory_seconds += q.memory_seconds
        report.rows.append(SparkRow(q.id, q.memory, sorted(set(spark)) if as_set else spark))
    report.memory_seconds += sum(q.memory_seconds for q in questions
                                 if q.id in outcome.not_compiled)


def spark_differential(sets: Sequence[str] = SPARK_SETS, split: str = "dev",
                       limit: int | None = None, root: Path | str | None = None,
                       master: str | None = None,
                       progress: Callable[[str], None] | None = None) -> list[SparkReport]:
    """Each set's report (see the module docstring); the Parquet graphs are written into a
    temporary folder under the cache directory and removed afterwards."""
    say = progress or (lambda _: None)
    unknown = [s for s in sets if s not in SPARK_SETS]
    if unknown:
        raise TrustUQAError(f"unknown set {unknown[0]!r}; choose from {', '.join(SPARK_SETS)}")
    groups: list[list[SourceFacts]] = []
    work: list[tuple[SparkReport, list[Question], bool]] = []
    kb_graph: int | None = None
    for name in sets:
        suffix = f" {split}" + (f" first {limit}" if limit else "")
        report = SparkReport(name + suffix)
        t0 = time.perf_counter()
        if name.startswith("metaqa-"):
            sources, questions = metaqa_questions(int(name[7]), split, limit, root,
                                                  kb_graph if kb_graph is not None
                                                  else len(groups), report)
            if kb_graph is None and sources:
                kb_graph = len(groups)
                groups.append(sources)
            work.append((report, questions, True))
        else:
            tables, questions = wikisql_questions(split, limit, root, len(groups), report)
            groups.extend(tables)
            work.append((report, questions, False))
        say(f"{report.name}: {len(questions)} questions mapped and run on the memory store "
            f"({time.perf_counter() - t0:.1f} s)")
    base = default_cache_dir() / "spark"
    base.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="differential-", dir=base))
    try:
        t0 = time.perf_counter()
        meta = write_graphs(groups, folder)
        say(f"Parquet: {len(groups)} graphs, {meta.n_facts} facts "
            f"({time.perf_counter() - t0:.1f} s)")
        t0 = time.perf_counter()
        graphs = SparkGraphs(spark_session(master), folder)
        say(f"Spark session ready ({time.perf_counter() - t0:.1f} s)")
        for report, questions, as_set in work:
            plans = [compile_program(q.id, q.mapped, q.graph, meta.graphs[q.graph].has_tables)
                     for q in questions]
            compare(report, questions, plans, graphs, as_set)
            say(f"{report.name}: Spark batch {report.spark_seconds:.1f} s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return [w[0] for w in work]

