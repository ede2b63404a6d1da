"""Stop 20, second round: offline-writer readings users hit (issues #11 item 3, #12 item 4).

*how many times did X hold Y?* over a temporal KG read X's relation and answered with Y
itself; *what is ranked first?* / *what came first?* answered with the place (``1``), not the
row's name; *in the top ten* of a ranking was read as the first ten rows, missing a row tied
at 10th. Each test runs on data made here.
"""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.store import GraphStore

# a temporal KG: one person held one office twice, another once
OFFICES = (
    b"Ada Rossi\tposition held\tMayor of Lumen\t1980\t1984\n"
    b"Ada Rossi\tposition held\tMayor of Lumen\t1990\t1994\n"
    b"Ada Rossi\tposition held\tMinister of Roads\t1986\t1988\n"
    b"Ben Costa\tposition held\tMayor of Lumen\t1984\t1990\n"
    b"Ben Costa\tmember of sports team\tLumen FC\t1970\t1975\n"
    b"Ben Costa\tmember of sports team\tLumen FC\t1977\t1979\n"
    b"Ben Costa\tmember of sports team\tOrto FC\t1975\t1977\n"
)

# a ranking whose first column is the place
BOOKS = b"Rank,Title,Year\n1,Green Hills,1931\n2,Salt Road,1950\n3,Iron Bell,1927\n"

# a ranking: the medallists' places are blank, two rows tie at 4th (the 5th row holds 4)
RACE = (
    b"Rank,Name,Nation\n"
    b",Ada Berg,Norway\n,Bo Lind,Canada\n,Cy Moor,Norway\n"
    b"4,Di Park,Sweden\n4,Ed Quinn,Norway\n6,Flo Ray,Canada\n7,Gus Hale,Norway\n"
    b"8,Hal Ives,Sweden\n9,Ivo Kerr,Canada\n10,Jon Lund,Norway\n"
)


@pytest.fixture(scope="module")
def offices() -> GraphStore:
    return load_graph(tkgs=[OFFICES])


@pytest.fixture(scope="module")
def books() -> GraphStore:
    return load_graph(tables=[BOOKS])


@pytest.mark.parametrize(("question", "expected"), [
    ("how many times did Ada Rossi hold the position of Mayor of Lumen?", ["2"]),
    ("how many times did Ben Costa hold the position of Mayor of Lumen?", ["1"]),
    ("how many times did Ben Costa play for Lumen FC?", ["2"]),
])
def test_how_many_times_counts_the_dated_facts(question: str, expected: list[str],
                                               offices: GraphStore) -> None:
    a = answer(question, offices, writer="offline")
    assert a.answer == expected
    assert a.trace is not None
    assert "count(" in a.trace.query_text and "key='time'" in a.trace.query_text
    # the count's witnesses are the counted facts
    last = a.trace.steps[-1].output
    assert last is not None and len(last.witnesses[0]) == int(expected[0])


@pytest.mark.parametrize(("question", "expected"), [
    ("what is ranked first?", ["Green Hills"]),
    ("what came first?", ["Green Hills"]),
    ("what is ranked last?", ["Iron Bell"]),
])
def test_what_is_ranked_first_asks_for_the_row(question: str, expected: list[str],
                                               books: GraphStore) -> None:
    assert answer(question, books, writer="offline").answer == expected



@pytest.fixture(scope="module")
def race() -> GraphStore:
    return load_graph(tables=[RACE])


@pytest.mark.parametrize(("question", "expected"), [
    ("how many Norwegians finished in the top four?", ["3"]),
    ("how many skiers from Norway are in the top four?", ["3"]),
    ("how many skiers from Canada are in the top four?", ["1"]),
])
def test_top_n_of_a_ranking_keeps_a_tie_at_the_last_place(question: str, expected: list[str],
                                                           race: GraphStore) -> None:
    assert answer(question, race, writer="offline").answer == expected

