"""Benchmark demo pools: WikiSQL SQL converted to demo text runs like the SQL."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.evaluate.demo_pools import demo_half
from trustuqa_core.evaluate.wikisql_demos import sql_to_demo_text
from trustuqa_core.execute import run_query

PLAYERS = (b"Player,No.,Nationality,Position,Years in Toronto,School/Club Team,Points\n"
           b"Antonio Lang,21,United States,Guard-Forward,1999-2000,Duke,10\n"
           b"Voshon Lenard,2,United States,Guard,2002-03,Minnesota,32\n"
           b"Martin Lewis,32,United States,Guard-Forward,1996-97,Butler CC (KS),5\n"
           b"Brad Lohaus,33,United States,Forward-Center,1996,Iowa,12\n")
HEADER = ["Player", "No.", "Nationality", "Position", "Years in Toronto", "School/Club Team",
          "Points"]


@pytest.mark.parametrize(("sql", "expected"), [
    ({"sel": 0, "agg": 0, "conds": [[3, 0, "Guard-Forward"], [6, 2, 11]]},
     ["Antonio Lang", "Martin Lewis"]),
    ({"sel": 6, "agg": 4, "conds": []}, ["59"]),  # mean of 10, 32, 5, 12
    ({"sel": 1, "agg": 3, "conds": [[6, 1, 11]]}, ["2"]),  # Points > 11: Lenard, Lohaus
    ({"sel": 6, "agg": 2, "conds": [[2, 0, "united states"]]}, ["5"]),
])
def test_sql_to_demo_text_runs_like_the_sql(sql, expected) -> None:  # noqa: ANN001
    graph = load_graph(tables=[PLAYERS])
    assert run_query(sql_to_demo_text(sql, HEADER), graph).answer == expected


def test_integral_float_values_are_written_without_a_fraction() -> None:
    text = sql_to_demo_text({"sel": 0, "agg": 0, "conds": [[6, 0, 10.0]]}, HEADER)
    assert "tail_entity='10'" in text and "10.0" not in text


def test_demo_half_splits_both_ways() -> None:
    halves = {demo_half(f"1-{i}-1") for i in range(20)}
    assert halves == {"a", "b"}
