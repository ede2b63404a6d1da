"""Issue #11 / #12 item 4 (core8): questions asked of the bundled samples with the offline
writer, on tables made here in their shape.

A country written as a code the lexicon reads (*USA* → ``United States``) is bound: the
verdict no longer calls it a value the query ignores.
"""

from __future__ import annotations

import pytest
from helpers import RACE_BLANK_TOP3

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.lexicon import country_of
from trustuqa_core.mentions import Mention, is_bound
from trustuqa_core.store import GraphStore


@pytest.fixture(scope="module")
def race() -> GraphStore:
    return load_graph(tables=[RACE_BLANK_TOP3])


def test_a_country_code_names_its_country() -> None:
    assert country_of("USA") == "United States" and country_of("the UK") == "United Kingdom"
    assert country_of("us") is None  # a word, not a code
    assert is_bound(Mention("USA", "entity"), ["Nation", "United States"])


def test_a_code_bound_through_the_lexicon_is_not_unbound(race: GraphStore) -> None:
    a = answer("which skiers are from USA?", race, writer="offline")
    assert a.answer == ["Bo Lind"]
    assert a.verdict is not None
    codes = a.verdict.codes
    assert "unbound_mention" not in codes
    said = " ".join(r.message for r in a.verdict.reasons)
    assert "'usa'" not in said.lower()  # nor an unexplained word


# a ranking of films: the first place is not the earliest year, the last not the latest
FILMS = (
    b"Rank,Film,Year\n"
    b"1,Some Like It Hot,1959\n2,Tootsie,1982\n3,Dr. Strangelove,1964\n"
    b"4,Duck Soup,1933\n5,Blazing Saddles,1974\n6,Annie Hall,1977\n"
)


@pytest.fixture(scope="module")
def films() -> GraphStore:
    return load_graph(tables=[FILMS])


@pytest.mark.parametrize("question, expected", [
    ("what year is ranked first?", ["1959"]),  # was the earliest year, 1933
    ("what year is ranked last?", ["1977"]),  # was the latest year, 1982
    ("which film came first?", ["Some Like It Hot"]),
])
def test_the_year_of_the_row_placed_first(films: GraphStore, question: str,
                                          expected: list[str]) -> None:
    assert answer(question, films, writer="offline").answer == expected


def test_a_comparison_of_places_with_a_blank_place_says_why(race: GraphStore) -> None:
    a = answer("did Ada Berg rank higher than Gus Hale?", race, writer="offline")
    assert a.answer == [] and a.error is not None
    assert "'Rank' cell of 'Ada Berg' is blank" in a.error
    filled = answer("did Di Park rank higher than Gus Hale?", race, writer="offline")
    assert filled.answer == ["yes"]  # both places filled: read from the column of places
