"""Differential check: our executor vs Ladybug on MetaQA gold programs, with timings.

Each question's gold program (:func:`~trustuqa_core.evaluate.metaqa_gold.qtype_program`) is
mapped once (topic pinned as in the ceilings); the same mapped program is executed by our
executor and, compiled to Cypher, by Ladybug. The answer sets must be identical.

>>> Row("dev-0", "movie_to_actor", "X", ["a"], ["a"], 0.001, 0.002).agree
True
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cypher.compile import CypherCompileError, compile_program
from ..cypher.run import run_compiled
from ..cypher.store import CypherStore
from ..errors import TrustUQAError
from ..execute import execute
from ..query.parse import parse
from .ceilings import topic_overrides
from .datasets import Example, Source, load_metaqa, load_recorded_queries
from .graphs import source_graph
from .metaqa_gold import qtype_program
from .outcome import ProbeFallback

__all__ = ["Row", "HopReport", "compare_examples", "metaqa_differential", "fresh_load_seconds",
           "replay_differential"]


@dataclass(frozen=True)
class Row:
    """One question: both answer sets (sorted) and both execution times (seconds)."""

    id: str
    qtype: str
    topic: str
    ours: list[str]
    cypher: list[str]
    ours_seconds: float
    cypher_seconds: float
    error: str = ""

    @property
    def agree(self) -> bool:
        return not self.error and self.ours == self.cypher


@dataclass
class HopReport:
    """Agreement and timing for one set of questions."""

    name: str
    rows: list[Row] = field(default_factory=list)
    skipped: int = 0
    not_compiled: dict[str, int] = field(default_factory=dict)
    """Questions left out, by reason (the executor failed or needed an LLM step; an operation
    without a Cypher translation)."""

    def summary(self) -> dict[str, Any]:
        n = len(self.rows)
        agree = sum(r.agree for r in self.rows)
        return {
            "name": self.name, "compared": n, "agree": agree,
            "agreement": agree / n if n else 0.0,
            "skipped_topic_not_in_kb": self.skipped,
            "left_out": dict(self.not_compiled),
            "ours_p50_ms": _p50([r.ours_seconds for r in self.rows]),
            "cypher_p50_ms": _p50([r.cypher_seconds for r in self.rows]),
            "disagreements": [r.__dict__ for r in self.rows if not r.agree],
        }


def _p50(seconds: list[float]) -> float:
    return round(statistics.median(seconds) * 1000, 2) if seconds else 0.0


def compare_examples(examples: Iterable[Example], name: str,
                     store: CypherStore | None = None) -> HopReport:
    """Run every example's gold program both ways (see the module doc)."""
    report = HopReport(name)
    for ex in examples:
        graph, mapper = source_graph(ex.sources[0])
        store = store if store is not None and store.graph is graph else CypherStore.open(graph)
        meta: Any = ex.metadata
        qtype, topic = meta["qtype"], meta["topic_entity"]
        if graph.entity(topic) is None:
            report.skipped += 1
            continue
        program = qtype_program(qtype, topic)
        mapped = mapper.map_program(program, topic_overrides(program, topic))
        t0 = time.perf_counter()
        trace = execute(mapped, graph)
        t1 = time.perf_counter()
        ours = sorted(set(trace.answer))
        compiled = compile_program(mapped, graph)
        t2 = time.perf_counter()
        theirs = run_compiled(compiled, store)
        t3 = time.perf_counter()
        error = f"executor: {trace.error.message}" if trace.error else ""
        report.rows.append(Row(ex.id, qtype, topic, ours, theirs, t1 - t0, t3 - t2, error))
    return report


def replay_differential(hops: int, limit: int | None = None,
                        root: Path | str | None = None) -> HopReport:
    """The recorded TrustUQA MetaQA queries (real GPT-3.5 output, train questions): each is
    parsed and mapped once, then run by both engines. Queries our executor cannot finish
    without an LLM, or that use an operation with no Cypher translation, are counted by reason
    in ``not_compiled``."""
    recorded = list(load_recorded_queries(f"metaqa-{hops}hop", root=root).items())[:limit]
    source = load_metaqa(hops, "dev", 1, root=root)[0].sources[0]
    graph, mapper = source_graph(source)
    store = CypherStore.open(graph)
    report = HopReport(f"metaqa-{hops}hop recorded replays" + (f" first {limit}" if limit else ""))

    def leave_out(reason: str) -> None:
        report.not_compiled[reason] = report.not_compiled.get(reason, 0) + 1

    for question, text in recorded:
        try:
            mapped = mapper.map_program(parse(text))
        except TrustUQAError as exc:
            leave_out(f"parse/map: {type(exc).__name__}")
            continue
        probe = ProbeFallback()
        t0 = time.perf_counter()
        trace = execute(mapped, graph, fallback=probe)
        t1 = time.perf_counter()
        if trace.error is not None or probe.requests or trace.inferred:
            leave_out("executor: error or LLM step")
            continue
        try:
            compiled = compile_program(mapped, graph)
        except CypherCompileError as exc:
            leave_out("no Cypher: " + str(exc).split(": ", 1)[-1][:60])
            continue
        t2 = time.perf_counter()
        theirs = run_compiled(compiled, store)
        t3 = time.perf_counter()
        report.rows.append(Row(question, "replay", question, sorted(set(trace.answer)), theirs,
                               t1 - t0, t3 - t2))
    return report


def fresh_load_seconds(kb_path: Path | str) -> tuple[float, int]:
    """Seconds to bulk-load the MetaQA KB into a new Ladybug database, and its fact count."""
    graph, _ = source_graph(Source(Path(kb_path), "kg"))
    with tempfile.TemporaryDirectory() as tmp:
        store = CypherStore.open(graph, cache_dir=tmp)
        seconds = store.load_seconds
        store.close()
    return seconds, graph.n_facts


def metaqa_differential(hops: int, split: str = "dev", limit: int | None = None,
                        root: Path | str | None = None) -> HopReport:
    """:func:`compare_examples` over MetaQA ``hops``-hop ``split`` (first ``limit`` questions)."""
    return compare_examples(load_metaqa(hops, split, limit, root=root),
                            f"metaqa-{hops}hop {split}" + (f" first {limit}" if limit else ""))
