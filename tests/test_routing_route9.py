"""Routing rule of route9 (issue 13): a question asking *which year* for an extreme or the
most frequent value ranks rows, so it does not lean to a temporal source. Graphs built here;
the first test fails on the router before route9."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.routing import route

#: a club's seasons (a table) and a TKG of a player's clubs with dated facts
SEASONS = b"Year,Competition,Wins\n1998,League,12\n1999,Cup,4\n"
CLUBS = b"Marco Rossi\tmember of sports team\tAC Milan\t1998\t2003\n"


def _graph():  # type: ignore[no-untyped-def]
    return load_graph(tables=[SEASONS], tkgs=[CLUBS])


@pytest.mark.parametrize("question", ["which year had the most competitions?",
                                      "In what year were the fewest wins recorded?"])
def test_which_year_with_an_extreme_ranks_a_tables_rows(question: str) -> None:
    d = route(question, _graph())
    assert d.sources == ("table1",), (d.how, d.scores)
    assert not any("asks when" in line for line in d.evidence.get("tkg1", ()))


def test_which_year_without_an_extreme_still_leans_to_the_temporal_source() -> None:
    d = route("which year did Marco Rossi join AC Milan?", _graph())
    assert d.sources == ("tkg1",), (d.how, d.scores)
    assert "the question asks when; tkg1 holds dated facts" in d.evidence["tkg1"]
