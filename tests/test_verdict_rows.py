"""The verdict's row reasons of stop 13 (issue #11): the row before / after asked in time on a
latest-first table, a neighbour cue no step accounts for, a count over a listing column, and
the identifier columns an aggregate may not read. Each code has a case where it fires and one
where it must not; data made here."""

from __future__ import annotations

import dataclasses

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.verdict import REASON_CODES, THRESHOLDS, judge

#: the rules alone: each code's own rule, as before the calibrated verdict (stop 16), whose
#: combination of the soft codes is tested in test_verdict_calibration.py
RULES = dataclasses.replace(THRESHOLDS, calibrated=False)

WINNERS_LATEST_FIRST = b"Year,Winner\n2012,Ann\n2011,Bea\n2010,Cid\n2009,Dan\n"
WINNERS_EARLIEST_FIRST = b"Year,Winner\n2009,Dan\n2010,Cid\n2011,Bea\n2012,Ann\n"
DRIVERS = (b'Driver,Team,Languages\n'
           b'Ann Lee,Red,"English, French"\n'
           b'Bob Stone,Blue,French\n'
           b'Cid Moss,Red,English\n')
NEW_CODES = ("row_order_vs_time", "unexplained_neighbour", "list_condition_aggregate",
             "range_unread")


def q(*calls: str) -> str:
    return "\n".join(f'Query{i + 1}: "{c}"' for i, c in enumerate(calls))


def codes(t) -> list[str]:  # noqa: ANN001
    return [r.code for r in t.verdict.reasons]


def neighbour(func: str) -> str:
    return q("get_information(relation='Winner', tail_entity='Bea')", f"{func}(set='output_of_query1')",
             "get_information(relation='Winner', head_entity='output_of_query2')")


@pytest.fixture(scope="module")
def drivers():  # noqa: ANN201
    return load_graph(tables=[DRIVERS])


def test_new_codes_are_documented_and_block() -> None:
    assert set(NEW_CODES) <= set(REASON_CODES)
    assert set(NEW_CODES) <= THRESHOLDS.blocking


def test_row_order_vs_time_on_a_latest_first_table() -> None:
    """WTQ nt-2: "which team won previous to crettyard?" read the row above on a table listing
    the latest year first, so it answered the year after."""
    latest_first = load_graph(tables=[WINNERS_LATEST_FIRST])
    t = run_query(neighbour("previous_row"), latest_first, question="who won previous to Bea?")
    assert t.answer == ["Ann"] and "row_order_vs_time" in t.verdict.blocking
    r = next(r for r in t.verdict.reasons if r.code == "row_order_vs_time")
    assert r.arg == "Year" and r.step == 2


def test_row_order_vs_time_does_not_fire_on_table_order_or_time_order() -> None:
    latest_first = load_graph(tables=[WINNERS_LATEST_FIRST])
    listed = run_query(neighbour("previous_row"), latest_first,
                       question="who is listed above Bea?")  # the table's order is meant
    assert listed.answer == ["Ann"] and "row_order_vs_time" not in codes(listed)
    earliest_first = load_graph(tables=[WINNERS_EARLIEST_FIRST])
    t = run_query(neighbour("previous_row"), earliest_first, question="who won previous to Bea?")
    assert t.answer == ["Cid"] and "row_order_vs_time" not in codes(t)
    no_dates = load_graph(tables=[b"Rank,Winner\n1,Ann\n2,Bea\n3,Cid\n"])
    u = run_query(neighbour("previous_row"), no_dates, question="who won previous to Bea?")
    assert u.answer == ["Ann"] and "row_order_vs_time" not in codes(u)


def test_unexplained_neighbour(drivers) -> None:  # noqa: ANN001
    """WTQ nt-10481: "who is listed before don randall?" read Don Randall's own row."""
    own_row = run_query(q("get_information(relation='Driver', tail_entity='Bob Stone')",
                          "get_information(relation='Team', head_entity='output_of_query1')"),
                        drivers, question="which team is listed before Bob Stone?")
    assert own_row.answer == ["Blue"] and "unexplained_neighbour" in own_row.verdict.blocking
    moved = run_query(q("get_information(relation='Driver', tail_entity='Bob Stone')",
                        "previous_row(set='output_of_query1')",
                        "get_information(relation='Team', head_entity='output_of_query2')"),
                      drivers, question="which team is listed before Bob Stone?")
    assert moved.answer == ["Red"] and "unexplained_neighbour" not in codes(moved)


def test_unexplained_neighbour_leaves_a_comparison_in_time_alone() -> None:
    g = load_graph(tables=[WINNERS_EARLIEST_FIRST])
    t = run_query(q("get_information(relation='Year', tail_entity<'2011')",
                    "get_information(relation='Winner', head_entity='output_of_query1')"),
                  g, question="who won prior to 2011?")
    assert sorted(t.answer) == ["Cid", "Dan"] and "unexplained_neighbour" not in codes(t)


def test_list_condition_aggregate(drivers) -> None:  # noqa: ANN001
    """WTQ nt-1648: "how many provinces have pashto as one of their languages" counted only
    the cells equal to Pashto, not those listing it."""
    counted = run_query(q("get_information(relation='Languages', tail_entity='French')",
                          "count(set='output_of_query1')"),
                        drivers, question="how many drivers speak French?")
    assert counted.answer == ["1"] and "list_condition_aggregate" in counted.verdict.blocking
    looked_up = run_query(q("get_information(relation='Languages', tail_entity='French')",
                            "get_information(relation='Driver', head_entity='output_of_query1')"),
                          drivers, question="which driver speaks French?")
    assert "list_condition" in codes(looked_up)  # shown ...
    assert "list_condition_aggregate" not in codes(looked_up)  # ... but a lookup is not a count
    plain = run_query(q("get_information(relation='Team', tail_entity='Red')",
                        "count(set='output_of_query1')"), drivers,
                      question="how many drivers drive for Red?")
    assert plain.answer == ["2"] and "list_condition_aggregate" not in codes(plain)


@pytest.mark.parametrize(("column", "is_id"), [
    ("OrderID", True), ("Facility ID", True), ("#", True), ("No", True),
    ("Grid", False), ("# of total votes", False), ("Paid", False)])
def test_id_aggregate_columns(column: str, is_id: bool) -> None:
    header = f'Name,"{column}"\n'.encode()
    g = load_graph(tables=[header + b"Ann,3\nBea,5\n"])
    t = run_query(q(f"get_information(relation='{column}')", "max(set='output_of_query1')"),
                  g, question=f"what is the highest {column}?")
    assert t.answer == ["5"]
    assert ("id_aggregate" in codes(t)) is is_id


def test_column_unused_needs_a_whole_word_and_skips_row_number() -> None:
    g = load_graph(tables=[b"Team,Player,Maps\nRed,Ann,3\nBlue,Bea,5\n"])
    read = q("get_information(relation='Team', tail_entity='Red')",
             "get_information(relation='Team', head_entity='output_of_query1')")
    maps = run_query(read, g, question="which team with Red has the most maps?")
    assert next(r.arg for r in maps.verdict.reasons if r.code == "column_unused") == "Maps"
    play = run_query(read, g, question="which team did Red play?")  # play is not Player
    assert "column_unused" not in codes(play)
    number = run_query(read, g, question="which team number is Red?")  # not row_number
    assert "column_unused" not in codes(number)


def test_only_is_no_unexplained_word_but_a_count_still_reads_it(drivers) -> None:  # noqa: ANN001
    """"who is the only driver with French" names nothing the query must read beyond French;
    a count keeps every loose word (the count may miss a condition)."""
    lookup = q("get_information(relation='Languages', tail_entity='French')",
               "get_information(relation='Driver', head_entity='output_of_query1')")
    only = run_query(lookup, drivers, question="who is the only driver with French?")
    assert "unexplained_words" not in codes(only)
    other = run_query(lookup, drivers, question="who is the fastest driver with French?")
    assert "fastest" in next(r.arg for r in other.verdict.reasons
                             if r.code == "unexplained_words")
    counted = run_query(q("get_information(relation='Team', tail_entity='Red')",
                          "count(set='output_of_query1')"), drivers,
                        question="how many are only Red?")  # "only" is its one loose word
    assert "count_words_unexplained" in judge(counted, counted.question,
                                              thresholds=RULES).blocking


def test_range_unread() -> None:
    """WTQ nt-5924: "how many movies has he been from 1941-1949." counted the rows of 1941 and
    of 1949 only."""
    g = load_graph(tables=[WINNERS_EARLIEST_FIRST])
    ends = q("get_information(relation='Year', tail_entity='2009')",
             "get_information(relation='Year', tail_entity='2011')",
             "set_union(set1='output_of_query1', set2='output_of_query2')",
             "count(set='output_of_query3')")
    t = run_query(ends, g, question="how many winners were there from 2009-2011.")
    assert t.answer == ["2"] and "range_unread" in t.verdict.blocking
    between = q("get_information(relation='Year', tail_entity>='2009')",
                "get_information(relation='Year', tail_entity<='2011')",
                "set_intersection(set1='output_of_query1', set2='output_of_query2')",
                "count(set='output_of_query3')")
    u = run_query(between, g, question="how many winners were there from 2009-2011.")
    assert u.answer == ["3"] and "range_unread" not in codes(u)
    cell = load_graph(tables=[b"Years,Team\n1993-2000,Aces\n2001-2004,Bees\n"])
    v = run_query(q("get_information(relation='Years', tail_entity='1993-2000')",
                    "get_information(relation='Team', head_entity='output_of_query1')"),
                  cell, question="which team played in 1993-2000?")
    assert v.answer == ["Aces"] and "range_unread" not in codes(v)
