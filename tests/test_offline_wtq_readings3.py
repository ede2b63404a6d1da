"""Offline writer readings found on WTQ train's tune-half tables (docs/RESULTS.md, section 4,
"Stop 18"), each on a small table made here:

* a streak (*what was the most consecutive wins?*, *how long was their longest winning
  streak?*) over a column of game results is the longest run of wins (or losses) in table
  order, ``consecutive(set=..., value='win')``; with other conditions (*in 2010*) over the
  results of their rows only;
* *how many consecutive games was attendance above 20,000?* is the longest run of rows next
  to each other meeting the conditions (``consecutive`` over rows), not their count;
* not a streak: a question asking which row had it (*which team had the most consecutive
  wins?*), or under a negation (*no wins*), or *are the years in consecutive order?*;
* *the oldest film in the ranking* ranks by the table's year column, not by the rank the
  word *ranking* names;
* a place the question bounds (*5th or better*, *at least 12th*, *below 10th*, *the top 3*)
  is a comparison on the column of places, not the row holding that place nor the first rows
  of a table in time order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.writers.tables import link_table

GAMES = (b"Week,Season,Opponent,Result,Attendance\n"
         b"1,2009,Reds,W 24-6,21000\n2,2009,Cubs,L 1-3,25000\n3,2009,Mets,W 3-1,19000\n"
         b"4,2010,Reds,W 5-1,30000\n5,2010,Jays,W 2-0,31000\n6,2010,Cubs,W 4-2,22000\n"
         b"7,2010,Mets,L 0-1,23000\n8,2010,Jays,L 2-5,18000\n9,2010,Reds,L 1-2,24000\n")
FILMS = (b"Rank,Film,Year\n1,Some Like It Hot,1959\n2,Tootsie,1982\n3,Duck Soup,1933\n"
         b"4,Annie Hall,1977\n")


def _ask(table: bytes, question: str) -> list[str]:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    return sorted(a.answer)


@pytest.mark.parametrize(("question", "expected"), [
    ("what was the most consecutive wins?", ["4"]),           # weeks 3-6
    ("how long was their longest winning streak?", ["4"]),
    ("how many consecutive losses took place?", ["3"]),       # weeks 7-9
    ("what was the largest number of consecutive wins in 2010?", ["3"]),  # weeks 4-6
])
def test_streak_of_game_results(question: str, expected: list[str]) -> None:
    assert _ask(GAMES, question) == expected


def test_streak_states_the_run() -> None:
    """The query reads the results in table order and measures the run with ``consecutive``;
    the step's note gives the run's length."""
    a = answer("what was the most consecutive wins?", load_graph(tables=[GAMES]),
               writer="offline")
    assert a.trace is not None
    assert "consecutive(set='output_of_query1', value='win')" in a.trace.query_text
    notes = [n for s in a.trace.steps for n in s.notes]
    assert any("longest run of 'win'" in n and "4 long" in n for n in notes), notes


def test_streak_of_rows_meeting_conditions() -> None:
    """Rows with attendance above 20,000: weeks 1, 2, 4, 5, 6, 7, 9 (7 rows); the longest run
    of them next to each other is weeks 4-7."""
    assert _ask(GAMES, "for how many consecutive games was attendance above 20,000?") == ["4"]


@pytest.mark.parametrize("question", [
    "which opponent had the most consecutive wins?",      # asks for a row
    "how many consecutive games were there no wins?",     # a negation
    "are the weeks in consecutive order?",
])
def test_not_a_streak(question: str) -> None:
    plan = link_table(question, load_graph(tables=[GAMES]))
    assert plan.computed is None or plan.computed.kind != "streak"
    assert "streak" not in plan.rules


def test_oldest_in_the_ranking_reads_years() -> None:
    """*ranking* names the Rank column, but an age is read from the years."""
    assert _ask(FILMS, "what is the oldest film in the ranking?") == ["Duck Soup"]
    assert _ask(FILMS, "what is the newest film in the ranking?") == ["Tootsie"]


def test_bundled_sample_oldest_film() -> None:
    """The bundled comedy ranking's sample question is answered from its Year column."""
    data = Path(__file__).resolve().parents[1] / "sample_data" / "comedy_ranking.csv"
    a = answer("what is the oldest film in the ranking?", load_graph(tables=[data.read_bytes()]),
               writer="offline")
    assert a.trace is not None and "relation='Year'" in a.trace.query_text
    assert a.answer == ["Duck Soup"]


CAREER = (b"Year,Competition,Position\n2001,Cup,1st\n2002,Open,12th\n2003,Games,3rd\n"
          b"2004,Cup,DNF\n2005,Open,5th\n2006,Games,20th\n2007,Cup,2nd\n")


@pytest.mark.parametrize(("question", "expected"), [
    ("how many times did they place at least 12th?", ["5"]),
    ("how many times did she finish 5th or better?", ["4"]),
    ("how many times did she finish 3rd position or higher?", ["3"]),
    ("how many times has this racer finished below 10th position?", ["2"]),
    ("how many years did they place 12th or lower?", ["2"]),
    ("in which years did she place in the top 3?", ["2001", "2003", "2007"]),  # not rows 1-3
    ("what was the first year in which she placed lower than 2nd?", ["2002"]),
])
def test_places_bounded(question: str, expected: list[str]) -> None:
    assert _ask(CAREER, question) == expected


def test_one_place_stays_a_value() -> None:
    """No bound around the place: the rows holding it."""
    assert _ask(CAREER, "in which year did she finish 12th?") == ["2002"]


RANKING = (b"Rank,Name,Nation,Run 1 rank\n,Ann,Italy,2\n,Bea,France,1\n,Cy,Italy,5\n"
           b"4,Di,Italy,3\n5,Ed,Sweden,9\n6,Fy,Italy,4\n7,Gu,Norway,8\n8,Hu,Italy,6\n")


def test_top_n_of_a_ranking_stays_the_first_rows() -> None:
    """In a ranking the first N rows are its top N, the medallists whose Rank is blank
    included: *finished in the top 4* is not ``Rank <= 4`` (nor another place column)."""
    assert _ask(RANKING, "how many italians finished in the top 4?") == ["3"]
