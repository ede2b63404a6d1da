"""'oldest' / 'newest' / 'youngest' are explained by a ranking of years, dates or ages only:
the comedy sample's 'oldest film in the ranking' is not the film ranked first."""

from __future__ import annotations

from pathlib import Path

from trustuqa_core import load_graph, run_query
from trustuqa_core.verdict import judge

COMEDY = Path(__file__).resolve().parents[1] / "sample_data" / "comedy_ranking.csv"


def _ranked(column: str) -> str:
    return (f"Query1: \"get_information(relation='{column}', tail_entity<='lowest')\"\n"
            "Query2: \"get_information(relation='Film', head_entity='output_of_query1')\"")


def test_oldest_by_rank_is_not_verified() -> None:
    g = load_graph(tables=[str(COMEDY)])
    t = run_query(_ranked("Rank"), g)
    assert t.answer == ["Some Like It Hot"]
    v = judge(t, "what is the oldest film in the ranking?")
    assert v.label == "check"
    assert any(r.code == "unexplained_words" and "oldest" in (r.arg or "") for r in v.reasons)


def test_oldest_by_year_is_explained() -> None:
    g = load_graph(tables=[str(COMEDY)])
    t = run_query(_ranked("Year"), g)
    assert t.answer == ["Duck Soup"]
    v = judge(t, "what is the oldest film in the ranking?")
    assert not any("oldest" in (r.arg or "") for r in v.reasons), v.reasons
    assert v.label == "verified", v.reasons


def test_best_and_fastest_stay_explained_by_any_ranking() -> None:
    g = load_graph(tables=[str(COMEDY)])
    v = judge(run_query(_ranked("Rank"), g), "what is the best film?")
    assert not any("best" in (r.arg or "") for r in v.reasons), v.reasons
