"""Issue #11 / #12 item 4 (core8): questions asked of the bundled samples with the offline
writer, on tables made here in their shape.

A country written as a code the lexicon reads (*USA* → ``United States``) is bound: the
verdict no longer calls it a value the query ignores.
"""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.lexicon import country_of
from trustuqa_core.mentions import Mention, is_bound
from trustuqa_core.store import GraphStore

# a race: the top three's Rank cells are blank (medallists), as in giant_slalom.csv
RACE = (
    b"Rank,Bib,Name,Nation,Run 1,Run 1 rank,Run 2,Run 2 rank,Total\n"
    b",4,Ada Berg,Norway,1:05.10,1,1:10.40,3,2:15.50\n"
    b",7,Bo Lind,United States,1:05.60,3,1:10.20,2,2:15.80\n"
    b",2,Cy Moor,Canada,1:05.40,2,1:10.90,5,2:16.30\n"
    b"4,3,Di Park,Norway,1:06.20,5,1:10.10,1,2:16.30\n"
    b"5,1,Ed Quinn,United Kingdom,1:05.90,4,1:10.70,4,2:16.60\n"
    b"6,5,Flo Ray,Canada,1:07.00,6,1:11.30,6,2:18.30\n"
    b"7,6,Gus Hale,Sweden,1:07.40,7,1:11.80,7,2:19.20\n"
)


@pytest.fixture(scope="module")
def race() -> GraphStore:
    return load_graph(tables=[RACE])


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
