"""The mixed benchmark (evaluate/mixed.py): questions, the one graph, the four settings."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from trustuqa_core.demos import DemoPool, initial_demos
from trustuqa_core.evaluate.mixed import (
    MIXED_BENCHMARKS,
    MixedEvaluation,
    build_mixed_graph,
    mixed_examples,
    own_sources,
    routing_summary,
    topic_entities,
)
from trustuqa_core.evaluate.outcome import Outcome, Unavailable
from trustuqa_core.evaluate.runner import build_evaluation, run_evaluation
from trustuqa_core.mapping.dense import HashingEncoder


class _Answer:
    def __init__(self, answer: list[str]) -> None:
        self.answer, self.trace, self.error = answer, None, ""


def test_unavailable_combinations() -> None:
    with pytest.raises(Unavailable, match="--mode ceiling or --mode answer"):
        build_evaluation("mixed", "replay")  # the ceiling is built now (runner wiring)
    with pytest.raises(Unavailable, match="for --benchmark mixed only"):
        build_evaluation("wtq", "answer", setting="mix-known")
    with pytest.raises(Unavailable, match="unknown setting 'mixed'"):
        build_evaluation("mixed", "answer", setting="mixed")


def test_routing_summary_counts_exact_and_kept() -> None:
    def o(i: int, source: str, routed: bool, kept: bool) -> Outcome:
        return Outcome(str(i), "mixed", "q", False, "wrong", [], [], 0.0,
                       groups={"source": source}, flags={"routed": routed, "routed_kept": kept})
    s = routing_summary([o(1, "wtq", True, True), o(2, "wtq", False, True),
                         o(3, "webqsp", False, False)])
    assert s["all"] == {"n": 3, "exact": 1, "kept": 2, "accuracy": 1 / 3, "kept_rate": 2 / 3}
    assert s["source"]["wtq"]["accuracy"] == 0.5 and s["source"]["webqsp"]["kept"] == 0


@pytest.mark.data
def test_examples_and_graph(data_dir: Path) -> None:
    examples = mixed_examples(3, root=data_dir)
    assert Counter(e.benchmark for e in examples) == {b: 3 for b in MIXED_BENCHMARKS}
    assert [e.benchmark for e in examples[:5]] == list(MIXED_BENCHMARKS)  # interleaved
    assert all(e.metadata.get("answer_format") != "wikidata_id" for e in examples)
    graph = build_mixed_graph(examples)
    names = {s.name for s in graph.sources}
    for e in examples:
        assert set(own_sources(e)) <= names, e.id
    kb = [i for i, s in enumerate(graph.sources) if s.name.startswith("metaqa-1hop/")]
    topics = {t for e in examples if e.benchmark == "metaqa-1hop" for t in topic_entities(e)}
    facts = [f for f in range(graph.n_facts) if graph.fact_source[f] == kb[0]]
    assert facts and all({graph.fact_text(f)[0], graph.fact_text(f)[2]} & topics
                         for f in facts)


@pytest.mark.data
@pytest.mark.parametrize("setting", ["mix-unknown", "mix-known", "unmix-unknown",
                                     "unmix-known"])
def test_settings_hand_answer_the_right_graph_and_demos(data_dir: Path, tmp_path: Path,
                                                        setting: str) -> None:
    seen: list[tuple[str, Any, dict[str, Any]]] = []
    gold: dict[str, tuple[str, ...]] = {}

    def oracle(question: str, graph: Any, **kwargs: Any) -> _Answer:
        seen.append((question, graph, kwargs))
        return _Answer(list(gold[question]))

    evaluation = MixedEvaluation(setting, root=data_dir, encoder="hashing", per=2,
                                 answer_fn=oracle)
    own = DemoPool(initial_demos()[:3], HashingEncoder())
    union = DemoPool(initial_demos(), HashingEncoder())
    evaluation.pool = lambda benchmark: (own, lambda e: ("scored",))  # type: ignore[method-assign]
    evaluation.union_pool = lambda: union  # type: ignore[method-assign]
    examples = [e for _, e in evaluation.items()]
    gold.update({e.question: e.answers for e in examples})
    result = run_evaluation(evaluation, out_dir=tmp_path, progress=False, workers=2,
                            writer="offline", report=False)
    assert len(seen) == 10 and result.summary["n"] == 10
    assert set(result.summary["groups"]["source"]) == set(MIXED_BENCHMARKS)
    assert result.summary["routing_accuracy"]["all"]["n"] == 10
    mixed, _ = evaluation.graph()
    by_question = {e.question: e for e in examples}
    for question, graph, kwargs in seen:
        e = by_question[question]
        assert kwargs["demos"] is (own if setting.endswith("-known") else union)
        assert kwargs["exclude_origins"] == ("scored",)
        if setting == "mix-unknown":
            assert graph is mixed and kwargs["entities"] == topic_entities(e)
        elif setting == "mix-known":
            assert [s.name for s in graph.sources] == list(own_sources(e))
            assert kwargs["route_sources"] is False
        else:
            assert graph is not mixed and len(graph.sources) == len(e.sources)
