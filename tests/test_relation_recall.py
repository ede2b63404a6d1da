"""Evaluation hygiene of the relation-recall figure: tune/check halves and the share grid."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from trustuqa_core.evaluate.relation_recall import (
    GRID,
    Case,
    in_half,
    question_half,
    rankings,
    recall_of,
    relation_recall,
    share_grid,
    webqsp_cases,
)
from trustuqa_core.graph import build_graph
from trustuqa_core.llm.relations import SHARES, Ranking, Shares, fill
from trustuqa_core.sources import SourceFacts


def _graph():  # type: ignore[no-untyped-def]
    heads, rels, tails = [], [], []
    for i in range(30):  # 30 relations on entities the questions never name
        heads += [f"X{i}"] * (i % 4 + 1)
        rels += [f"rel_{i}"] * (i % 4 + 1)
        tails += [f"Y{i}-{j}" for j in range(i % 4 + 1)]
    for h, r, t in [("Ann", "profession", "Cook"), ("Cook", "category", "Trade"),
                    ("Bob", "born in", "Rome"), ("Rome", "country", "Italy")]:
        heads.append(h)
        rels.append(r)
        tails.append(t)
    return build_graph([SourceFacts("kb", "kg", heads, rels, tails, list(range(len(rels))))])


def test_fill_gives_each_tier_its_share() -> None:
    ranking = Ranking(order=(3, 0, 1, 2, 4, 5), tier=(0, 1, 1, 0, 3, 3),
                      size=(1.0, 1.0, 1.0, 1.0, 9.0, 1.0))
    assert fill(ranking, 4, Shares(0.25, 0.25, 0.25)) == [0, 1, 3, 4]
    assert fill(ranking, 2, Shares(0.0, 0.0, 0.5)) == [3, 4]  # the largest, then tier order
    assert fill(ranking, 3, Shares(1.0, 0.0, 0.0)) == [0, 1, 3]


def test_ranked_recall_matches_the_prompt_path_for_the_chosen_shares() -> None:
    graph = _graph()
    cases = [Case("a", "what does ann do for a living?", ("profession", "category")),
             Case("b", "which country was bob born in?", ("born in", "country")),
             Case("c", "what does ann do?", ("rel_7",))]
    for limit in (3, 5):
        prompt = relation_recall("toy", cases, graph, None, limit)
        assert recall_of(rankings(cases, graph), SHARES, limit) == (prompt.hits, prompt.n)
    ranked = rankings(cases, graph)
    assert recall_of(ranked, SHARES, 5)[0] >= 2
    best = share_grid(ranked, [Shares(0.0, 0.0, 1.0), Shares(0.6, 0.4, 0.0)], limit=3)
    assert [s for s, _ in best] == [Shares(0.6, 0.4, 0.0), Shares(0.0, 0.0, 1.0)]
    assert best[0][1] > best[1][1]  # only the largest relations: the linked ones are lost


def test_the_chosen_shares_are_in_the_grid_and_halves_are_named() -> None:
    assert SHARES in GRID
    assert all(s.one_hop + s.two_hop + s.size <= 1.0 for s in GRID)
    with pytest.raises(ValueError, match="tune, check or all"):
        in_half([], "dev")
    ids = [f"q{i}" for i in range(200)]
    tune = [i for i in ids if question_half(i) == "tune"]
    assert 60 < len(tune) < 140  # a hash split, not everything on one side


@pytest.mark.data
def test_webqsp_dev_halves_are_disjoint_stable_and_cover_dev(data_dir: Path) -> None:
    cases = webqsp_cases(root=data_dir)
    tune, check = in_half(cases, "tune"), in_half(cases, "check")
    tune_ids, check_ids = {c.id for c in tune}, {c.id for c in check}
    assert tune_ids and check_ids and not tune_ids & check_ids
    assert tune_ids | check_ids == {c.id for c in cases} == {c.id for c in in_half(cases, "all")}
    assert len(tune) + len(check) == len(cases)
    # stable: a plain hash of the id, independent of order, run or loading
    for c in cases:
        first = hashlib.sha256(c.id.encode("utf-8")).digest()[0]
        assert (c.id in tune_ids) == (first % 2 == 0)
    again = webqsp_cases(root=data_dir)
    assert [c.id for c in in_half(again, "tune")] == [c.id for c in tune]
