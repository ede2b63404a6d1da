"""Offline writer readings found on WTQ train's tune-half tables (docs/RESULTS.md, section 4,
"Stop 16"), each on a small table made here:

* *the number of X of Y* reads Y's column X when X names a numeric column that measures the
  rows (*what is the number of silver medals awarded to Argentina?* -> 7, not the 1 row
  counted); two rows named add up; a column that numbers the rows (*Game*) is still counted;
* a condition after *not*, *other than*, *besides*, *except* is negated (the rows that do not
  meet it), and a list after the cue is left out whole;
* a question word that is one word of a few longer cells of one column (*in June* -> *June 3*,
  *June 10*) picks the rows holding any of them;
* *at least* / *at most* bound a number and ask for no least or most (*which cities have at
  least 200 people?*);
* the word right after a superlative names the column ranked even when it names it only partly
  (*the least density* -> ``Density (inhabitants/km2)``);
* *after* / *before* a row named by two values (*the Olympic Games in 1996*) is the row after /
  before the one where both meet.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer

MEDALS = (b"Rank,Nation,Gold,Silver,Bronze,Total\n"
          b"1,Argentina,3,7,2,12\n2,Chile,1,2,3,6\n3,Peru,0,1,1,2\n"
          b"Total,Total,4,10,6,20\n")
GAMES = (b"Game,Date,Opponent,Venue,Attendance\n"
         b"1,June 3,Reds,Home,100\n2,June 10,Cubs,Away,200\n3,July 1,Mets,Home,300\n"
         b"4,July 8,Reds,Away,400\n5,August 2,Jays,Home,50\n")
ATHLETES = (b"Rank,Athlete,Nationality,Points\n"
            b"1,Ann Lee,Cyprus,10\n2,Bo Ray,Greece,8\n3,Cy Day,Cyprus,7\n4,Di Fox,Italy,5\n"
            b"5,Ed Ng,Greece,4\n")
CITIES = (b"City,Population,Density (inhabitants/km2)\n"
          b"Alba,100,50.5\nBra,300,20.1\nCuneo,250,80\nDogliani,120,30\n")
EVENTS = (b"Year,Competition,Venue,Position\n"
          b"1995,World Championships,Gothenburg,4th\n1996,Olympic Games,Atlanta,5th\n"
          b"1996,Grand Prix Final,Milan,2nd\n2000,Olympic Games,Sydney,3rd\n"
          b"2001,Grand Prix Final,Melbourne,1st\n")
SLAMS = (b"Tournament,Surface,Prize money\n"
         b"Wimbledon,Grass,50\nUS Open,Hard,40\nAustralian Open,Hard,30\n"
         b"French Open,Clay,35\nMasters,Hard,20\n")


@pytest.mark.parametrize(("table", "question", "expected"), [
    # the number of X of a named row: X's value (the old reading counted the 1 row)
    (MEDALS, "what is the number of silver medals awarded to argentina?", ["7"]),
    (MEDALS, "the total number of bronze medals for chile?", ["3"]),
    (MEDALS, "how many silver medals did argentina and chile win?", ["9"]),
    # negation: the rows that do not meet the condition after the cue
    (ATHLETES, "how many athletes were from a country other than cyprus?", ["3"]),
    (ATHLETES, "which athletes were not from cyprus?", ["Bo Ray", "Di Fox", "Ed Ng"]),
    (ATHLETES, "besides ann lee, who was from cyprus?", ["Cy Day"]),
    (ATHLETES, "which athlete not from cyprus had more than 6 points?", ["Bo Ray"]),
    (SLAMS, "how many tournaments are there besides wimbledon and the us open?", ["3"]),
    # a word of a few longer cells of one column
    (GAMES, "how many games were played in june?", ["2"]),
    (GAMES, "what was the total attendance in july?", ["700"]),
    # "at least" is a bound, not a superlative
    (CITIES, "which cities have at least 200 people?", ["Bra", "Cuneo"]),
    (CITIES, "which cities have a population of at least 200?", ["Bra", "Cuneo"]),
    # a column named partly right after the superlative
    (CITIES, "which city has the least density?", ["Bra"]),
    (CITIES, "which city has the highest density?", ["Cuneo"]),
    # the row after / before the one two values name
    (EVENTS, "what competition came after the olympic games in 1996?", ["Grand Prix Final"]),
    (EVENTS, "which competition was before the olympic games in 2000?", ["Grand Prix Final"]),
])
def test_wtq_readings(table: bytes, question: str, expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


def test_a_column_that_numbers_the_rows_is_counted() -> None:
    """*the number of games in June* counts the games: the Game column numbers the rows."""
    a = answer("what is the number of games in june?", load_graph(tables=[GAMES]),
               writer="offline")
    assert a.answer == ["2"], a.trace.query_text if a.trace else a.error


def test_negation_is_a_step_of_the_query() -> None:
    """The rows left out are a step the user sees (set_difference / set_negation)."""
    a = answer("which athlete not from cyprus had more than 6 points?",
               load_graph(tables=[ATHLETES]), writer="offline")
    assert a.trace is not None
    assert "set_difference(" in a.trace.query_text


def test_a_word_shared_by_most_cells_picks_nothing() -> None:
    """*open* is a word of three of the five tournaments: not a condition."""
    a = answer("how many open tournaments are played on hard courts?",
               load_graph(tables=[SLAMS]), writer="offline")
    assert a.trace is not None
    assert "Open" not in a.trace.query_text


SLALOM = Path(__file__).resolve().parents[1] / "sample_data" / "giant_slalom.csv"


def _slalom_rows() -> list[dict[str, str]]:
    with SLALOM.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_bundled_sample_other_than_a_country() -> None:
    """The bundled giant-slalom sample: the skiers of every nation but Italy, counted."""
    expected = sum(r["Nation"] != "Italy" for r in _slalom_rows())
    a = answer("how many skiers were from a country other than italy?",
               load_graph(tables=[SLALOM]), writer="offline")
    assert a.answer == [str(expected)], a.trace.query_text if a.trace else a.error


def test_bundled_sample_negated_top_ten() -> None:
    """Swedes outside the first ten rows (*not in the top ten*)."""
    rows = _slalom_rows()
    expected = sorted(r["Name"] for i, r in enumerate(rows) if r["Nation"] == "Sweden"
                      and i >= 10)
    a = answer("which skiers from sweden were not in the top ten?",
               load_graph(tables=[SLALOM]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error
