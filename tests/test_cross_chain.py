"""The offline writer across sources (issue 13), on data made here: a bestseller table, a
books KG and an awards TKG. Shapes: table key (an ordinal) → KG → TKG time asked as "in which
year"; KG → table ("which books in the list were written by X"); a duration between two rows'
years; and a KG-only question that must not be narrowed to the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core import answer, load_graph
from trustuqa_core.query.render import render_program
from trustuqa_core.writers.chain import link_chain

BESTSELLERS = b"""Rank,Book,Year
1,Dune,1965
2,Neuromancer,1984
3,Children of Dune,1976
4,Emma,1815
"""
BOOKS = b"""Dune|written_by|Frank Herbert
Children of Dune|written_by|Frank Herbert
The Dosadi Experiment|written_by|Frank Herbert
Neuromancer|written_by|William Gibson
Emma|written_by|Jane Austen
Ubik|written_by|Philip K. Dick
"""
AWARDS = (b"Frank Herbert\taward received\tHugo Award for Best Novel\t1966\t1966\n"
          b"William Gibson\taward received\tHugo Award for Best Novel\t1986\t1986\n"
          b"William Gibson\taward received\tNebula Award for Best Novel\t1985\t1985\n"
          b"Jane Austen\tposition held\twriter\t1795\t1817\n"
          b"William Gibson\tnominated for\tLocus Award\t1985\t1985\n"
          b"William Gibson\tnominated by\tSFWA\t1985\t1985\n")


@pytest.fixture(scope="module")
def shelf(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    d = tmp_path_factory.mktemp("shelf")
    for name, data in (("bestsellers.csv", BESTSELLERS), ("books.txt", BOOKS),
                       ("awards.tsv", AWARDS)):
        (d / name).write_bytes(data)
    return load_graph(tables=[d / "bestsellers.csv"], kgs=[d / "books.txt"],
                      tkgs=[d / "awards.tsv"])


CASES = [
    ("In which year did the writer of the book ranked 2nd in the bestsellers receive the "
     "Nebula Award for Best Novel?", ["1985"]),
    ("What year did the writer of the book at rank 1 receive the Hugo Award for Best Novel?",
     ["1966"]),
    ("Which books in the bestsellers were written by Frank Herbert?", ["Children of Dune",
                                                                       "Dune"]),
    ("how long was it between the releases of Dune and Neuromancer?", ["19 years"]),
    # "the writer of": a role naming the KG hop, though 'writer' is also a TKG value
    ("How many awards did the writer of the Book whose Rank is 2 receive?", ["2"]),
    # the TKG relation named word for word wins over a near one (nominated for / by)
    ("Which nominations did the writer of the Book whose Rank is 2 get nominated for?",
     ["Locus Award"]),
    # about the KG alone (no table named): every Herbert book, not only the listed ones
    ("Which books were written by Frank Herbert?", ["Children of Dune", "Dune",
                                                    "The Dosadi Experiment"]),
]


@pytest.mark.parametrize(("question", "expected"), CASES)
def test_offline_writer_answers_across_sources(shelf, question: str,
                                               expected: list[str]) -> None:
    a = answer(question, shelf, writer="offline")
    assert sorted(a.answer) == expected, a.trace.to_dict() if a.trace else a


def test_ordinal_key_and_year_question_make_the_chain(shelf) -> None:
    found = link_chain("In which year did the writer of the book ranked 2nd in the bestsellers "
                       "receive the Nebula Award for Best Novel?", shelf)
    text = render_program(found[0][0])
    assert "relation='Rank', tail_entity='2'" in text
    assert "relation='Book', head_entity='output_of_query1'" in text  # not the Year column
    assert "key='time'" in text


def test_kg_to_table_needs_the_table_named_and_shared_values(shelf) -> None:
    assert link_chain("Which books were written by Frank Herbert?", shelf) == []
    assert link_chain("Which books in the bestsellers were written by Jane Austen?", shelf)
    # a value the KG does not hold: no chain with the table column: not a chain
    assert link_chain("Which books in the bestsellers were written by Nobody Known?",
                      shelf) == []


def test_files_are_named_for_the_table_cue(tmp_path: Path) -> None:
    (tmp_path / "t.csv").write_bytes(BESTSELLERS)
    (tmp_path / "k.txt").write_bytes(BOOKS)
    g = load_graph(tables=[tmp_path / "t.csv"], kgs=[tmp_path / "k.txt"])
    # "the table" names any loaded table
    assert link_chain("Which books of the table were written by Frank Herbert?", g)
    assert link_chain("Which books in the bestsellers were written by Frank Herbert?", g) == []
