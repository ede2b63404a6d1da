"""Differential check of the graph stores: the same gold programs mapped and executed on the
in-memory store and on the DuckDB store must give the same answers.

MetaQA: each question's gold program (topic pinned as in the ceilings) over the KB, the
DuckDB store read from the KB file by DuckDB's own reader. WikiSQL: each question's gold SQL
as a program over its table, the DuckDB store built from the loaded table. Every step runs on
each store separately (literal mapping through each store's label pool, then execution), so
a disagreement anywhere below the answer shows up.

>>> Row("dev-0", "metaqa", ["a"], ["a"], 0.001, 0.002).agree
True
>>> Row("dev-1", "metaqa", ["a"], ["b"], 0.001, 0.002).agree
False
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engines import open_files, open_store
from ..errors import TrustUQAError
from ..execute import execute, run_query
from ..mapping import Mapper
from ..query.ast import Program
from ..query.render import render_program
from ..store import GraphStore
from ..trace import Trace
from ..translate import load_source
from .ceilings import topic_overrides
from .datasets import Example, load_metaqa, load_wikisql
from .graphs import source_graph
from .metaqa_gold import qtype_program
from .wikisql_gold import TableInfo, sql_to_program

__all__ = ["Row", "EngineReport", "metaqa_engines", "wikisql_engines"]


@dataclass(frozen=True)
class Row:
    """One question: the answer on each store and each store's time (seconds)."""

    id: str
    benchmark: str
    memory: list[str]
    duckdb: list[str]
    memory_seconds: float
    duckdb_seconds: float

    @property
    def agree(self) -> bool:
        return self.memory == self.duckdb


@dataclass
class EngineReport:
    """Agreement and timing over one set of questions."""

    name: str
    rows: list[Row] = field(default_factory=list)
    skipped: int = 0

    def summary(self) -> dict[str, Any]:
        n = len(self.rows)
        agree = sum(r.agree for r in self.rows)
        return {
            "name": self.name, "compared": n, "agree": agree,
            "agreement": agree / n if n else 0.0, "skipped_topic_not_in_kb": self.skipped,
            "memory_p50_ms": _p50([r.memory_seconds for r in self.rows]),
            "duckdb_p50_ms": _p50([r.duckdb_seconds for r in self.rows]),
            "disagreements": [r.__dict__ for r in self.rows if not r.agree],
        }


def _p50(seconds: list[float]) -> float:
    return round(statistics.median(seconds) * 1000, 2) if seconds else 0.0


def _outcome(run: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[list[str], float]:
    """The answer of ``run(*args, **kwargs)`` (a trace) as comparable text, or its error, and
    the time."""
    t0 = time.perf_counter()
    try:
        trace = run(*args, **kwargs)
    except TrustUQAError as exc:
        return [f"error: {type(exc).__name__}: {exc}"], time.perf_counter() - t0
    seconds = time.perf_counter() - t0
    if trace.error is not None:
        return [f"error: {trace.error.message}"], seconds
    return [str(a) for a in trace.answer], seconds


def metaqa_engines(hops: int, split: str = "dev", limit: int | None = None,
                   root: Path | str | None = None) -> EngineReport:
    """MetaQA ``hops``-hop gold programs on both stores (first ``limit`` questions)."""
    examples = load_metaqa(hops, split, limit, root=root)
    report = EngineReport(f"metaqa-{hops}hop {split}" + (f" first {limit}" if limit else ""))
    if not examples:
        return report
    source = examples[0].sources[0]
    memory, memory_mapper = source_graph(source)
    duck = open_files([source.path], "kg", "duckdb")
    duck_mapper = Mapper(duck, None)
    for ex in examples:
        meta: Any = ex.metadata
        qtype, topic = meta["qtype"], meta["topic_entity"]
        if memory.entity(topic) is None:
            report.skipped += 1
            continue
        program = qtype_program(qtype, topic)
        pinned = topic_overrides(program, topic)
        ours, t_mem = _outcome(_gold, program, pinned, memory, memory_mapper)
        theirs, t_duck = _outcome(_gold, program, pinned, duck, duck_mapper)
        report.rows.append(Row(ex.id, f"metaqa-{hops}hop", sorted(set(ours)),
                               sorted(set(theirs)), t_mem, t_duck))
    return report


def _gold(program: Program, pinned: dict[str, str], g: GraphStore, mapper: Mapper) -> Trace:
    """A gold program mapped on ``g`` (topic pinned) and executed there."""
    return execute(mapper.map_program(program, pinned), g)


def wikisql_engines(split: str = "dev", limit: int | None = None,
                    root: Path | str | None = None) -> EngineReport:
    """WikiSQL gold programs on both stores (answers compared in order)."""
    report = EngineReport(f"wikisql {split}" + (f" first {limit}" if limit else ""))
    stores: dict[str, tuple[GraphStore, Mapper]] = {}
    for ex in _wikisql(split, limit, root):
        source = ex.sources[0]
        memory, memory_mapper = source_graph(source)
        key = str(source.path)
        if key not in stores:
            duck = open_store([load_source(source.path, "table", name=source.path.name)],
                              "duckdb")
            stores = {key: (duck, Mapper(duck, None))}  # one table at a time
        duck, duck_mapper = stores[key]
        sql: Any = ex.metadata["sql"]
        text = render_program(sql_to_program(sql, TableInfo.from_graph(memory)))
        ours, t_mem = _outcome(run_query, text, memory, memory_mapper, question=ex.question)
        theirs, t_duck = _outcome(run_query, text, duck, duck_mapper, question=ex.question)
        report.rows.append(Row(ex.id, "wikisql", ours, theirs, t_mem, t_duck))
    return report


def _wikisql(split: str, limit: int | None, root: Path | str | None) -> Iterable[Example]:
    """The questions grouped by table (each DuckDB store is opened once)."""
    examples = load_wikisql(split, limit, root=root)
    return sorted(examples, key=lambda e: str(e.sources[0].path))
