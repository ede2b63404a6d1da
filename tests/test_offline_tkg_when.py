"""The offline writer answers "when did X join / leave Y?" over a temporal KG (the bundled
demos hold the shape), and the verdict reads "join" / "leave" as the start / end time asked.

The data is made here: no name of it is in the bundled demonstrations.
"""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer

CAREERS = (b"Marta Vidal\tmember of sports team\tPort Ellis\t1999\t2004\n"
           b"Marta Vidal\tmember of sports team\tKestrel Town\t2004\t2009\n"
           b"Owen Hale\tmember of sports team\tKestrel Town\t2001\t2003\n"
           b"Owen Hale\taward received\tGolden Boot\t2002\t2002\n")


@pytest.fixture(scope="module")
def careers():  # noqa: ANN201
    return load_graph(tkgs=[CAREERS])


@pytest.mark.parametrize(("question", "year"), [
    ("when did Marta Vidal join Kestrel Town?", "2004"),
    ("when did Owen Hale join Kestrel Town?", "2001"),
    ("when did Marta Vidal leave Port Ellis?", "2004"),
    ("when did Owen Hale leave Kestrel Town?", "2003"),
])
def test_join_and_leave_are_the_membership_times(careers, question: str, year: str) -> None:  # noqa: ANN001
    a = answer(question, careers, writer="offline")
    assert a.answer == [year], (a.answer, a.trace.query_text if a.trace else a.error)
    assert a.verdict is not None and a.verdict.label == "verified", a.verdict
    assert "unexplained_words" not in [r.code for r in a.verdict.reasons]


PRIZES = (b"Lumen Prize\twinner\tAda Brook\t1990\t1990\n"
          b"Lumen Prize\twinner\tCai Dunn\t1975\t1975\n"
          b"Lumen Prize\twinner\tEli Fenn\t2003\t2003\n")


@pytest.mark.parametrize(("question", "expected"), [
    ("who was the first winner of the Lumen Prize?", ["Cai Dunn"]),
    ("who was the earliest winner of the Lumen Prize?", ["Cai Dunn"]),
    ("who was the latest winner of the Lumen Prize?", ["Eli Fenn"]),
    ("who was the last winner of the Lumen Prize?", ["Eli Fenn"]),
])
def test_first_and_last_fact_by_time(question: str, expected: list[str]) -> None:
    got = answer(question, load_graph(tkgs=[PRIZES]), writer="offline")
    assert got.answer == expected, got.trace.query_text if got.trace else got.error
    assert got.verdict.label == "verified"


SEATS = (b"Ed Fitz\tposition held\tMember of the 33rd Parliament\t1920\t1924\n"
         b"Ed Fitz\tposition held\tMember of the 34th Parliament\t1924\t1929\n"
         b"Ann Gale\tposition held\tMember of the 33rd Parliament\t1921\t1924\n")


@pytest.mark.parametrize(("question", "expected"), [
    # no word names 'position held': the one relation joining the two named nodes is meant
    ("What is the last year that Ed Fitz was Member of the 33rd Parliament", ["1924"]),
    ("What is the first year that Ann Gale was Member of the 33rd Parliament", ["1921"]),
    ("when was Ed Fitz Member of the 34th Parliament?", ["1924–1929"]),
])
def test_the_fact_joining_two_named_entities(question: str, expected: list[str]) -> None:
    got = answer(question, load_graph(tkgs=[SEATS]), writer="offline")
    assert got.answer == expected, got.trace.query_text if got.trace else got.error
    assert got.verdict.label == "verified"
