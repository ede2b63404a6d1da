"""Cross-source chains of the offline writer beyond table → KG → TKG (issue 13), on data made
here (a bestseller table, a books KG, an awards TKG): table → KG, KG → TKG, a count over
TKG → KG → table, a column word inside the TKG value, and chains refused when the hops do not
meet in the data."""

from __future__ import annotations

import pytest

from trustuqa_core import answer
from trustuqa_core.graph import build_graph
from trustuqa_core.store import GraphStore
from trustuqa_core.translate import load_source
from trustuqa_core.writers.chain import link_chain

BESTSELLERS = b"Rank,Book,Year\n1,Dune,1965\n2,Neuromancer,1984\n3,Children of Dune,1976\n"
BOOKS = (b"Dune|written_by|Frank Herbert\nChildren of Dune|written_by|Frank Herbert\n"
         b"Neuromancer|written_by|William Gibson\nNeuromancer|has_genre|Cyberpunk\n"
         b"Emma|written_by|Jane Austen\n")
AWARDS = (b"Frank Herbert\taward received\tHugo Award for Best Novel\t1966\t1966\n"
          b"William Gibson\taward received\tHugo Award for Best Novel\t1985\t1985\n"
          b"William Gibson\taward received\tNebula Award for Best Book\t1985\t1985\n"
          b"Ann Leckie\taward received\tArthur C. Clarke Award\t2014\t2014\n")


def _graph(*sources: tuple[str, str, bytes]) -> GraphStore:
    return build_graph([load_source(data, kind, name=name) for name, kind, data in sources])


@pytest.fixture(scope="module")
def shelf() -> GraphStore:
    return _graph(("bestsellers.csv", "table", BESTSELLERS), ("books.txt", "kg", BOOKS),
                  ("awards.tsv", "tkg", AWARDS))


CASES = [
    # table -> KG: the key row's Book, then the KG relation (no TKG relation named)
    ("Who wrote the book ranked 2nd in the bestsellers?", ["William Gibson"],
     "table row Rank='2' → Book → KG 'written_by'"),
    # KG -> TKG: a KG entity, its writer, the year of the named award
    ("When did the writer of Children of Dune receive the Hugo Award for Best Novel?",
     ["1966"], "KG 'Children of Dune' 'written_by' → TKG 'award received'"),
    # TKG -> KG -> table, counted
    ("How many books in the bestsellers were written by someone who received the Hugo Award "
     "for Best Novel?", ["3"], "→ table Book"),
    # 'Book' inside the award's name is no column: KG -> TKG, not TKG -> KG -> table
    ("When did the writer of Neuromancer receive the Nebula Award for Best Book?", ["1985"],
     "KG 'Neuromancer' 'written_by' → TKG 'award received'"),
]


@pytest.mark.parametrize(("question", "expected", "how"), CASES)
def test_chain_shapes(shelf: GraphStore, question: str, expected: list[str], how: str) -> None:
    chain = link_chain(question, shelf)
    assert chain and how in chain[0][1], chain
    got = answer(question, shelf, writer="offline")
    assert sorted(got.answer) == sorted(expected), got.answer


def test_kg_to_tkg_needs_the_hops_to_meet(shelf: GraphStore) -> None:
    # Ann Leckie won the Clarke award, but she wrote none of the KG's books
    assert link_chain("When did the writer of Dune receive the Arthur C. Clarke Award?",
                      shelf) == []


def test_table_to_kg_needs_the_column_in_the_kg(shelf: GraphStore) -> None:
    # the Year cells are no heads of written_by: no chain through them
    assert link_chain("Who wrote the Year of the book ranked 1st?", shelf) == []


def test_kg_to_tkg_without_a_table() -> None:
    g = _graph(("books.txt", "kg", BOOKS), ("awards.tsv", "tkg", AWARDS))
    q = "When did the writer of Neuromancer receive the Nebula Award for Best Book?"
    assert link_chain(q, g) and answer(q, g, writer="offline").answer == ["1985"]
