"""The mixed ceiling (evaluate/mixed_ceiling.py): gold / recorded queries over the mixed graph,
routed as answer() routes, against the same queries over each question's own data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core.cli import main
from trustuqa_core.evaluate.mixed import own_sources
from trustuqa_core.evaluate.mixed_ceiling import MixedCeiling, gold_query
from trustuqa_core.evaluate.outcome import Unavailable
from trustuqa_core.routing import RouteDecision


def test_unknown_setting_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(Unavailable, match="mix-unknown, mix-known, unmix-known"):
        MixedCeiling("unmix-unknown")
    code = main(["bench", "run", "--benchmark", "mixed", "--mode", "ceiling", "--setting",
                 "unmix-unknown", "--json"])
    assert code == 2
    assert "unmix-known" in json.loads(capsys.readouterr().out)["unavailable"]


@pytest.fixture(scope="module")
def ceilings(data_dir: Path) -> dict[str, MixedCeiling]:
    return {s: MixedCeiling(s, root=data_dir, encoder="hashing", per=3)
            for s in ("unmix-known", "mix-known", "mix-unknown")}


@pytest.mark.data
def test_items_are_the_questions_with_a_query(ceilings: dict[str, MixedCeiling]) -> None:
    c = ceilings["unmix-known"]
    items = c.items()
    examples = c._mixed.examples()
    assert [e for e in examples if e.benchmark == "cronquestions"]
    assert all(e.benchmark != "cronquestions" for _, e in items)
    assert sum(e.benchmark in ("wikisql", "metaqa-1hop") for _, e in items) == 6
    kept = {key for key, _ in items}
    for e in examples:  # a question is run exactly when it has a query
        assert (f"{e.benchmark}:{e.id}" in kept) == (gold_query(e, c.recorded()) is not None)
    assert len(c.items(5)) == sum(gold_query(e, c.recorded()) is not None
                                  for e in examples[:5])


@pytest.mark.data
def test_own_sources_in_the_mixed_graph_answer_as_the_own_data(
        ceilings: dict[str, MixedCeiling]) -> None:
    unmixed, known = ceilings["unmix-known"], ceilings["mix-known"]
    for _, e in unmixed.items():
        if e.benchmark not in ("wikisql", "metaqa-1hop"):
            continue
        a, b = unmixed.evaluate(e), known.evaluate(e)
        assert sorted(a.answer) == sorted(b.answer), e.id
        assert a.correct == b.correct and b.groups["source"] == e.benchmark
        assert a.flags["routed"] == b.flags["routed"]  # the decision is recorded in both


@pytest.mark.data
def test_mix_unknown_routes_as_answer_does_and_falls_back(
        ceilings: dict[str, MixedCeiling], monkeypatch: pytest.MonkeyPatch) -> None:
    c = ceilings["mix-unknown"]
    graph, _ = c._mixed.graph()
    _, e = next(item for item in c.items() if item[1].benchmark == "wikisql")
    decision = c._mixed.route(e, graph)
    outcome = c.evaluate(e)
    assert outcome.flags["routed_by_question"] == (set(decision.sources) == set(own_sources(e)))
    kb = next(s.name for s in graph.sources if s.name.startswith("metaqa-1hop/"))
    names = tuple(s.name for s in graph.sources)
    wrong = RouteDecision((kb,), f"routed to {kb}", {}, {}, False, names)
    monkeypatch.setattr(c._mixed, "route", lambda *a: wrong)
    # the gold query's column names and values map onto the question's own table: routing by
    # the query overrides the question's wrong decision, and no fallback is needed
    fixed = c.evaluate(e)
    assert fixed.flags == {"routed": True, "routed_kept": True, "routed_by_question": False,
                           "fell_back": False}
    assert fixed.correct
    # without it: routed to a source without the table, no answer there, every source tried
    monkeypatch.setattr(c, "by_query", False)
    moved = c.evaluate(e)
    assert moved.flags == {"routed": False, "routed_kept": False, "routed_by_question": False,
                           "fell_back": True}
    assert moved.answer  # the whole mixed graph holds the table
