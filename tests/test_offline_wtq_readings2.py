"""Offline writer readings found on WTQ train's tune-half tables (docs/RESULTS.md, section 4,
"Stop 17"), each on a small table made here:

* a choice between two values of one column with *more* / *fewer* and no column to compare
  counts each value's rows (*are there more players from Sweden or Canada?*); *did A win
  more or less than B?* answers *more* / *less*; equal counts answer both options;
* *top* with nothing to rank by, asking for a text column (*who is at the top of the list?*,
  *who was the top finisher from Poland?*), is the first row, as *first* is; over a number
  column it stays the largest value;
* *which year had the most films?* asks for the year found in the most rows (a column of
  numbers whose values repeat, named where the question word points), and *which month had
  the most games?* with no column of months reads the month of the date column;
* a word naming a column by what it measures (*the shortest song* -> ``Length``, *the most
  residents* -> ``Population``, *the most wins* -> ``W``, *the least medals* -> ``Total``, *which
  bridge is longer, A or B?* -> ``Length``) ranks or compares by that column;
* *first* / *last* asking for a row whose year column the question reads (*what was the
  first game released?*) ranks by that year, not by the row order (which *the first game
  listed* keeps), and reads the rows' names; *what year was the first game released?* is the
  earliest year; a verb that dates rows (*released*, *founded*) ranks by the table's year
  column even when the noun names the column read (*the first film released*); *which came
  first, A or B?* chooses by the rows' year column, else by the table's order;
* *who / which / what ... after / before X* whose column read was only guessed answers with the
  neighbour row's value in X's own column (*who came next after Venezuela?* -> the next
  nation), and a row holding X again is left out of the neighbours (*the next opening act
  after X* is another act).
"""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer

PLAYERS = (b"Name,Nationality,Club,Season\n"
           b"Ann Lee,Sweden,Reds,2010\nBo Ray,Canada,Reds,2011\nCy Day,Sweden,Blues,2011\n"
           b"Di Fox,Sweden,Reds,2011\nEd Ng,Canada,Blues,2011\nFy Ho,Canada,Blues,2011\n"
           b"Gu Li,Norway,Reds,2011\n")
RACES = (b"Year,Race,Winner\n"
         b"2001,Spring Cup,Australia II\n2002,Spring Cup,Liberty\n2003,Spring Cup,Australia II\n"
         b"2004,Autumn Cup,Australia II\n2005,Autumn Cup,Courageous\n"
         b"2006,Autumn Cup,Liberty\n2007,Spring Cup,Courageous\n")


@pytest.mark.parametrize(("table", "question", "expected"), [
    (PLAYERS, "are there more players from sweden or canada?", ["Canada", "Sweden"]),
    (PLAYERS, "which club had more players, reds or blues?", ["Reds"]),
    (PLAYERS, "which nationality had fewer players, norway or sweden?", ["Norway"]),
    (PLAYERS, "were there more swedes or canadians in 2011?", ["Canada"]),
    (RACES, "did australia ii win more or less races than liberty?", ["more"]),
    (RACES, "who won more races, liberty or courageous?", ["Courageous", "Liberty"]),  # a tie
    (RACES, "who won fewer races, australia ii or courageous?", ["Courageous"]),
])
def test_count_choice(table: bytes, question: str, expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


def test_count_choice_states_both_counts() -> None:
    """The trace shows each option's rows counted and the counts compared."""
    a = answer("which club had more players, reds or blues?", load_graph(tables=[PLAYERS]),
               writer="offline")
    assert a.trace is not None
    text = a.trace.query_text
    assert text.count("count(") == 2 and "compare(" in text, text


def test_count_choice_not_over_a_named_column() -> None:
    """A number column named (*points*) is compared, not the rows counted."""
    table = b"Name,Points\nAnn,10\nBo,3\nAnn,1\n"
    a = answer("who scored more points, ann or bo?", load_graph(tables=[table]),
               writer="offline")
    assert a.trace is None or "count(" not in a.trace.query_text


SKIERS = (b"Rank,Name,Nation,Points\n"
          b"1,Ann Lee,Norway,100\n2,Bo Ray,Poland,80\n3,Cy Day,Norway,60\n"
          b"4,Di Fox,Poland,90\n")
PLACES = (b"Year,Competition,Position\n"
          b"2001,Cup,10th\n2002,Games,5th\n2003,Open,7th\n")


@pytest.mark.parametrize(("table", "question", "expected"), [
    (SKIERS, "who is at the top of the list?", ["Ann Lee"]),
    (SKIERS, "which nation is listed on top?", ["Norway"]),
    (SKIERS, "who was the top finisher from poland?", ["Bo Ray"]),
    (PLACES, "what competition is at the top of the table?", ["Cup"]),
])
def test_top_is_the_first_row(table: bytes, question: str, expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


def test_top_over_a_number_column_is_its_largest() -> None:
    """*the top points* reads the Points column's largest value, not the first row."""
    a = answer("what were the top points?", load_graph(tables=[SKIERS]), writer="offline")
    assert a.answer == ["100"] or "row_number" not in (a.trace.query_text if a.trace else "")


FILMS = (b"Year,Title,Role\n"
         b"2005,Alpha,Lead\n2007,Beta,Lead\n2007,Gamma,Cameo\n2007,Delta,Lead\n"
         b"2009,Eps,Cameo\n2009,Zeta,Lead\n")
SCHEDULE = (b"Game,Date,Opponent,Result\n"
            b"1,October 3,Reds,W\n2,October 10,Cubs,L\n3,November 1,Mets,W\n"
            b"4,November 8,Reds,W\n5,November 15,Jays,L\n6,December 2,Cubs,W\n")


@pytest.mark.parametrize(("table", "question", "expected"), [
    (FILMS, "which year had the most films released?", ["2007"]),
    (FILMS, "which year had the least films?", ["2005"]),
    (FILMS, "in what year did she have the most lead roles?", ["2007"]),
    (SCHEDULE, "which month had the most games?", ["November"]),
    (SCHEDULE, "what month were the most games played?", ["November"]),
])
def test_most_frequent_year_or_month(table: bytes, question: str,
                                     expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


def test_month_count_is_a_step() -> None:
    """The months are read from the dates and counted in steps the user sees."""
    a = answer("which month had the most games?", load_graph(tables=[SCHEDULE]),
               writer="offline")
    assert a.trace is not None
    assert "extract_month(" in a.trace.query_text and "most_frequent(" in a.trace.query_text


SONGS = (b"#,Title,Length\n1,Intro,1:05\n2,Felonies,4:41\n3,Outro,2:10\n")
TOWNS = (b"Township,FIPS,Population\nAlta,01500,221\nEmma,21025,4181\nGarden,25300,294\n")
TABLE = (b"Place,Team,Played,W,D,L,Points\n"
         b"1,Reds,10,7,2,1,23\n2,Blues,10,5,4,1,19\n3,Greens,10,2,1,7,7\n")
MEDAL_TABLE = (b"Rank,Nation,Gold,Silver,Bronze,Total\n"
               b"1,Japan,5,2,0,7\n2,China,4,3,2,9\n3,North Korea,0,1,0,1\n")
BRIDGES = (b"Bridge name,Location,Length\n"
           b"Old Youngs Bay Bridge,Astoria,\"1,766\"\nEllsworth Street Bridge,Albany,1090\n")


@pytest.mark.parametrize(("table", "question", "expected"), [
    (SONGS, "what song is the shortest?", ["Intro"]),
    (SONGS, "which is the longest song?", ["Felonies"]),
    (TOWNS, "which township has the most residents?", ["Emma"]),
    (TABLE, "which team had the most wins?", ["Reds"]),
    (TABLE, "which team had the most losses?", ["Greens"]),
    (MEDAL_TABLE, "which country won the least medals?", ["North Korea"]),
    (MEDAL_TABLE, "which country won the most gold medals?", ["Japan"]),
    (BRIDGES, "which bridge is longer, old youngs bay bridge or ellsworth street bridge?",
     ["Old Youngs Bay Bridge"]),
])
def test_property_words_name_a_column(table: bytes, question: str,
                                      expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


def test_a_column_of_years_measures_nothing() -> None:
    """*the most wins* does not rank by a ``Year(s) won`` column of years."""
    table = b"Player,Year(s) won,Total\nAnn,1967,150\nBo,1922,160\n"
    a = answer("who had the most wins?", load_graph(tables=[table]), writer="offline")
    assert a.trace is None or "Year(s) won" not in a.trace.query_text


GAMES_RELEASED = (b"Title,Release,Platform\n"
                  b"Lego Racers,1999,PC\nLego Island,1997,PC\nLego Chess,1998,PC\n")


@pytest.mark.parametrize(("question", "expected"), [
    ("what was the first game released?", ["Lego Island"]),
    ("what was the last game released?", ["Lego Racers"]),
    ("what is the first game listed?", ["Lego Racers"]),
    ("what year was the first game released?", ["1997"]),
])
def test_first_and_last_by_a_year_column(question: str, expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[GAMES_RELEASED]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


COMEDIES = b"Rank,Film,Year\n1,Some Like It Hot,1959\n2,Tootsie,1982\n3,Duck Soup,1933\n"


@pytest.mark.parametrize(("question", "expected"), [
    ("what was the first film released?", ["Duck Soup"]),
    ("what was the last film released?", ["Tootsie"]),
    ("what is the first film listed?", ["Some Like It Hot"]),
])
def test_a_dating_verb_ranks_by_the_year_column(question: str, expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[COMEDIES]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


NATIONS = (b"Rank,Nation,Gold,Total\n"
           b"1,Brazil,5,9\n2,Venezuela,3,8\n3,Colombia,2,7\n4,Chile,0,2\n")
TOUR = (b"Date,City,Opening act\n"
        b"August 10,Miami,Cadillac Tramps\nAugust 12,Tampa,Cadillac Tramps\n"
        b"August 14,Atlanta,Doughboys\nAugust 16,Boston,Big Star\n")


@pytest.mark.parametrize(("table", "question", "expected"), [
    (NATIONS, "who came next after venezuela?", ["Colombia"]),
    (NATIONS, "which nation is listed before colombia?", ["Venezuela"]),
    (NATIONS, "who is listed next after rank number 2?", ["Colombia"]),
    (TOUR, "who was the next opening act after the cadillac tramps?", ["Doughboys"]),
])
def test_neighbour_in_the_named_column(table: bytes, question: str,
                                       expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error


@pytest.mark.parametrize(("table", "question", "expected"), [
    (COMEDIES, "which came first, tootsie or duck soup?", ["Duck Soup"]),
    (COMEDIES, "which was released last: duck soup or some like it hot?", ["Some Like It Hot"]),
    (NATIONS, "who is listed first, colombia or venezuela?", ["Venezuela"]),
])
def test_first_or_last_of_two_named(table: bytes, question: str, expected: list[str]) -> None:
    a = answer(question, load_graph(tables=[table]), writer="offline")
    assert sorted(a.answer) == expected, a.trace.query_text if a.trace else a.error
