"""The offline writer's reading of *which X has the same Y as <row>?*: the other rows whose Y
equals the named row's (writers/same_as.py)."""

from __future__ import annotations

from trustuqa_core import answer, load_graph
from trustuqa_core.writers.linking import SAME
from trustuqa_core.writers.tables import link_table

MEDALS = (b"Rank,Nation,Gold,Silver\n1,Russia,8,12\n2,Hungary,6,4\n3,Bulgaria,6,1\n"
          b"4,Chile,0,0\n5,Peru,6,0\n")


def test_the_other_rows_sharing_the_named_rows_value() -> None:
    got = answer("which nation won the same number of gold medals as hungary?",
                 load_graph(tables=[MEDALS]), writer="offline")
    assert sorted(got.answer) == ["Bulgaria", "Peru"]


def test_the_named_row_may_come_first() -> None:
    got = answer("chile had the same number of silver medals as which other nation?",
                 load_graph(tables=[MEDALS]), writer="offline")
    assert got.answer == ["Peru"]


def test_how_many_others_share_it() -> None:
    got = answer("how many other nations have the same gold as peru?",
                 load_graph(tables=[MEDALS]), writer="offline")
    assert got.answer == ["2"]


def test_a_yes_no_question_is_not_read_as_same_as() -> None:
    plan = link_table("did hungary win the same number of gold medals as peru?",
                      load_graph(tables=[MEDALS]))
    assert not any(c.cmp == SAME for c in plan.conds)


def test_no_column_between_same_and_as_is_not_read() -> None:
    plan = link_table("which nation is the same as hungary?", load_graph(tables=[MEDALS]))
    assert not any(c.cmp == SAME for c in plan.conds)


def test_the_named_rows_column_is_read_not_a_longer_name_holding_it() -> None:
    g = load_graph(tables=[b"Pos.,Driver,Co-Driver,Car\n1,Ann,Bo,Peugeot\n2,Cy,Di,Ford\n"
                           b"3,Ed,Flo,Peugeot\n"])
    got = answer("which driver drove the same car as ann?", g, writer="offline")
    assert got.answer == ["Ed"]
