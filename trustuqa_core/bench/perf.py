"""``bench perf``: speed of graph building, query execution and mapping on MetaQA's kb_partial.

Every figure is a median over warm repetitions on this machine, printed next to a naive
baseline measured in the same run (a list of triples scanned linearly, as an executor without
indexes would do), so the ratio says how much the indexes buy.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from ..evaluate.datasets import data_root
from ..execute import run_query
from ..graph import build_graph
from ..mapping import Mapper, default_encoder
from ..store import GraphStore
from ..translate import load_source
from .demo_perf import demo_retrieval_ms

__all__ = ["run_perf", "THREE_HOP", "RANGE_QUERY", "kb_partial_path"]

THREE_HOP = """Query1: "get_information(relation='directed_by', head_entity='Following')"
Query2: "get_information(relation='directed_by', tail_entity='output_of_query1')"
Query3: "set_difference(set1='output_of_query2', set2='Following')"
Query4: "get_information(relation='in_language', head_entity='output_of_query3')\""""
RANGE_QUERY = """Query1: "get_information(relation='release_year', tail_entity>'2010')\""""
MAP_TEXTS = [
    "Christopher Nolen",
    "The Dark Knigth",
    "Kate Winslett",
    "Stanly Kubrick",
    "Pulp Fictoin",
    "Meryl Strep",
    "Incepton",
    "Steven Spielbergh",
]


def kb_partial_path() -> Path:
    return data_root() / "metaqa" / "kb_partial" / "kb_partial.txt.gz"


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def _build(path: Path) -> GraphStore:
    return build_graph([load_source(path, "kg")])


def _naive_three_hop(triples: list[tuple[str, str, str]]) -> set[str]:
    directors = {t for h, r, t in triples if h == "Following" and r == "directed_by"}
    movies = {h for h, r, t in triples if r == "directed_by" and t in directors} - {"Following"}
    return {t for h, r, t in triples if r == "in_language" and h in movies}


def _naive_range(triples: list[tuple[str, str, str]]) -> set[str]:
    return {h for h, r, t in triples if r == "release_year" and t.isdigit() and int(t) > 2010}


def _typos(labels: list[str], n: int, seed: int = 7) -> list[tuple[str, str]]:
    """``(misspelled, original)`` pairs: one letter dropped from names of 8+ letters."""
    rng = random.Random(seed)
    names = [x for x in labels if len(x) >= 8 and x.isascii()]
    out = []
    for name in rng.sample(names, n):
        i = rng.randrange(1, len(name) - 1)
        out.append((name[:i] + name[i + 1 :], name))
    return out


def _mapping_figures(mapper: Mapper, repeat: int) -> dict[str, float | str | int]:
    """Entity mapping against every entity, with embeddings cached on disk."""
    index = mapper.entity_index()
    assert index is not None
    t0 = time.perf_counter()
    _ = index.vectors  # computed once (~80 s for 43k names on 2 cores), then read from disk
    load_s = time.perf_counter() - t0
    mapper.map_entity("warm up the encoder")
    typos = _typos(mapper.entities.labels, max(repeat, 20))
    times, hits = [], 0
    for typo, name in typos:
        t0 = time.perf_counter()
        m = mapper.map_entity(typo)
        times.append((time.perf_counter() - t0) * 1000)
        hits += name in m.labels
    dense_times = []
    for typo, _ in typos:
        t0 = time.perf_counter()
        index.search_positions(typo.upper() + " (film)", 5)  # distinct text: no memo
        dense_times.append((time.perf_counter() - t0) * 1000)
    return {
        "entity_embeddings_load_s": round(load_s, 2),
        "map_entity_ms": round(statistics.median(times), 3),
        "map_entity_typo_accuracy": f"{hits}/{len(typos)}",
        "map_entity_dense_stage_ms": round(statistics.median(dense_times), 3),
    }


def run_perf(repeat: int = 50, with_dense: bool = True) -> dict[str, float | str | int]:
    """Measure and return the figures (milliseconds unless the key ends in ``_s``)."""
    path = kb_partial_path()
    build_times = []
    graph = None
    for _ in range(max(3, repeat // 10)):
        t0 = time.perf_counter()
        graph = _build(path)
        build_times.append(time.perf_counter() - t0)
    assert graph is not None
    mapper = Mapper(graph, default_encoder() if with_dense else None)
    first = run_query(THREE_HOP, graph, mapper)
    if first.answer != sorted(first.answer, key=first.answer.index) or not first.answer:
        raise RuntimeError(f"3-hop query gave no answer: {first.error}")
    triples = [graph.fact_text(f) for f in range(graph.n_facts)]
    three_hop = _median_ms(lambda: run_query(THREE_HOP, graph, mapper), repeat)
    three_hop_naive = _median_ms(lambda: _naive_three_hop(triples), 5)
    range_ms = _median_ms(lambda: run_query(RANGE_QUERY, graph, mapper), repeat)
    range_naive = _median_ms(lambda: _naive_range(triples), 5)
    figures: dict[str, float | str | int] = {
        "facts": graph.n_facts,
        "entities": len(mapper.entities),
        "build_s": round(statistics.median(build_times), 4),
        "three_hop_ms": round(three_hop, 3),
        "three_hop_naive_ms": round(three_hop_naive, 3),
        "three_hop_speedup": round(three_hop_naive / three_hop, 1),
        "range_ms": round(range_ms, 3),
        "range_naive_ms": round(range_naive, 3),
        "range_speedup": round(range_naive / range_ms, 1),
        "three_hop_answer": " | ".join(first.answer),
    }
    if with_dense:
        figures.update(_mapping_figures(mapper, repeat))
    figures["demo_retrieval_ms"] = round(demo_retrieval_ms(repeat), 3)
    return figures
