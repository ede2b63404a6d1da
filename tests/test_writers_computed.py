"""The offline table linker writes reasoning functions for computed questions."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.execute import run_query
from trustuqa_core.query import render_program
from trustuqa_core.writers import link_table, plan_program

MEDALS = b"Nation,Gold,Silver\nItaly,10,3\nJapan,4,5\nSpain,4,1\n"
OFFICE = b"Name,Took office,Left office\nAnn,1 June 1947,12 May 1959\nBob,1959,1960\n"
GAMES = ("Week,Date,Opponent,Result\n6,October 8 1978,at Miami,L 10–24\n"
         "7,October 15 1978,Denver,W 24–7\n").encode()
RACE = b"Rank,Athlete,Country,Time\n1,Yevgeny Kulikov,Soviet Union,39.17\n2,Jim Chapin,USA,40.09\n"
PRESIDENTS = ("Year,Number,Name\n1884–1885,7,Lukin Irving\n1920–1922,4,W.B. Kingsmill\n"
              "1923–1930,9,Ann Lee\n").encode()


@pytest.mark.parametrize(
    ("data", "question", "func", "answer"),
    [
        (MEDALS, "how many more gold medals did italy win than japan?", "difference", ["6"]),
        (MEDALS, "what is the difference in silver between spain and japan?", "difference", ["4"]),
        (MEDALS, "did italy win more silver medals than japan?", "compare", ["no"]),
        (MEDALS, "did japan win fewer gold medals than italy?", "compare", ["yes"]),
        (OFFICE, "how long did ann serve?", "duration", ["12 years"]),
        # stop 19: one row's score, time, span of years
        (GAMES, "what was the difference in score in week 7?", "difference", ["17"]),
        (GAMES, "what was the point difference of the game against denver?", "difference",
         ["17"]),
        (RACE, "how long did it take jim chapin to finish?", "get_information", ["40.09"]),
        (PRESIDENTS, "how long was w.b. kingsmill club president?", "duration", ["2 years"]),
    ],
)
def test_linker_writes_computed_questions(data: bytes, question: str, func: str,
                                          answer: list[str]) -> None:
    g = load_graph(tables=[data])
    plan = link_table(question, g)
    built = plan_program(plan)
    assert built is not None
    text = render_program(built)
    assert f'"{func}(' in text
    t = run_query(text, g, question=question)
    assert t.answer == answer
    assert plan.computed is not None and plan.computed.kind in plan.explain()


def test_plain_lookups_are_not_computed() -> None:
    g = load_graph(tables=[MEDALS])
    assert link_table("how many gold medals did italy win?", g).computed is None
    assert link_table("which nation won more gold medals, italy or japan?", g).computed is None


def test_one_row_readings_need_their_column() -> None:
    """Stop 19: a score difference needs a column of scores, a time a column of times, a
    span a column of spans; two rows' difference stays the two-row reading."""
    g = load_graph(tables=[MEDALS])
    assert link_table("what was the point difference of italy?", g).computed is None
    assert link_table("how long did it take italy to win?", g).computed is None
    two = link_table("what is the difference in silver between spain and japan?", g).computed
    assert two is not None and two.kind == "difference"
    races = load_graph(tables=[b"Rank,Athlete,Time,Best time\n1,Ann,39.17,38.0\n2,Bo,40.09,39.9\n"])
    assert link_table("how long did it take bo to finish?", races).computed is None  # two


def test_one_row_readings_leave_a_named_column_and_a_word_in_several_cells() -> None:
    """'how long did it take ann to complete run 2?' reads the Run 2 the question names (not
    the only time column, Total); 'january' found inside several dates is no one row."""
    runs = load_graph(tables=[b"Athlete,Run 1,Run 2,Total\nAnn,55.1,59.10,1:54.2\n"
                              b"Bo,56.0,58.0,1:54.0\n"])
    assert link_table("how long did it take ann to complete run 2?", runs).computed is None
    games = load_graph(tables=["Date,Opponent,Result\n2 January 1922,Leeds,3–0\n"
                               "9 January 1922,Hull,1–2\n".encode()])
    assert link_table("what was the difference in score in january?", games).computed is None


def test_duration_of_one_span_with_a_two_digit_end() -> None:
    g = load_graph(tables=["Player,Career\nWayne Gretzky,1996–99\nAnn Lee,1965–76\n".encode()])
    t = run_query("Query1: \"get_information(relation='Player', tail_entity='Wayne Gretzky')\"\n"
                  "Query2: \"get_information(relation='Career', head_entity='output_of_query1')\"\n"
                  "Query3: \"duration(set='output_of_query2')\"", g,
                  question="how long was gretzky's career?")
    assert t.answer == ["3 years"]
    assert "'1996–99' is read as a span of years" in t.steps[-1].notes
