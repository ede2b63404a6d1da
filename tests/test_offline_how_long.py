"""The offline writer's *how long did X ...?* over the rows X names (writers/computed.py):
the years from the earliest year of X's rows to the latest (``year_span``), and from the
start to the end of the one row two conditions find (``row_duration``)."""

from __future__ import annotations

from trustuqa_core import answer, load_graph
from trustuqa_core.writers.tables import link_table

SEATS = (b"Year,Member,Party\n1920,James Leach,Labour\n1922,James Leach,Labour\n"
         b"1924,Ann Bo,Tory\n1933,James Leach,Labour\n1935,Cy Dee,Tory\n")
SERVICE = (b"First Name,Surname,Beginning of service,End of service\nBottka,Paul,1872,1881\n"
           b"Ann,Paul,1880,1890\nBottka,Zed,1850,1860\n")


def test_how_long_spans_the_years_of_the_named_rows() -> None:
    for question in ("how long did james leach hold his seat?",
                     "how long was james leach in office?"):
        got = answer(question, load_graph(tables=[SEATS]), writer="offline")
        assert got.answer == ["13 years"], question


def test_one_row_is_no_span_of_years() -> None:
    plan = link_table("how long did cy dee hold his seat?", load_graph(tables=[SEATS]))
    assert plan.computed is None or plan.computed.kind != "year_span"


def test_how_long_was_is_no_span_of_years() -> None:
    # "how long was the race": a distance or a length, not the years of the rows
    plan = link_table("how long was the race of james leach?", load_graph(tables=[SEATS]))
    assert plan.computed is None or plan.computed.kind != "year_span"


def test_how_long_reads_the_start_and_end_of_the_row_both_conditions_find() -> None:
    got = answer("how long did bottka paul serve?", load_graph(tables=[SERVICE]),
                 writer="offline")
    assert got.answer == ["9 years"]
    assert got.trace is not None and "set_intersection" in got.trace.query_text
