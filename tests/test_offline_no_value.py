"""The offline writer's reading of *no <column>* / *did not have <column>* / *without
<column>*: the rows whose cell is blank, or ``0`` in a numeric column (writers/no_value.py)."""

from __future__ import annotations

from trustuqa_core import answer, load_graph
from trustuqa_core.writers.linking import HAS
from trustuqa_core.writers.tables import link_table

DEVICES = b"Device,Type,Notes\nA,SSD,fast\nB,SSD,\nC,HDD,\nD,HDD,slow\nE,SSD,\n"
MEDALS = (b"Rank,Nation,Gold,Silver,Bronze,Total\n1,Russia,8,12,10,30\n2,China,7,4,0,11\n"
          b"3,Peru,0,1,1,2\n4,Chile,0,0,3,3\n")


def test_rows_with_a_blank_cell_are_counted() -> None:
    got = answer("how many devices have no notes?", load_graph(tables=[DEVICES]),
                 writer="offline")
    assert got.answer == ["3"]


def test_the_asked_column_of_the_blank_rows_is_read() -> None:
    got = answer("which devices have no notes?", load_graph(tables=[DEVICES]),
                 writer="offline")
    assert sorted(got.answer) == ["B", "C", "E"]


def test_a_blank_cell_with_another_condition() -> None:
    got = answer("how many ssd devices did not have notes?", load_graph(tables=[DEVICES]),
                 writer="offline")
    assert got.answer == ["2"]


def test_a_numeric_column_reads_zero() -> None:
    g = load_graph(tables=[MEDALS])
    assert answer("how many countries earned no gold medals?", g,
                  writer="offline").answer == ["2"]
    assert answer("which nations did not win any silver medals?", g,
                  writer="offline").answer == ["Chile"]


def test_a_bound_after_no_is_not_an_absence() -> None:
    plan = link_table("how many nations have no more than 1 gold medals?",
                      load_graph(tables=[MEDALS]))
    assert not any(c.cmp == HAS or (c.column == "Gold" and c.value == "0") for c in plan.conds)


def test_the_number_sign_is_not_read_as_no() -> None:
    g = load_graph(tables=[b"Player,No.,Notes\nAnn,9,captain\nBo,10,\n"])
    plan = link_table("what notes does player no. 9 have?", g)
    assert not any(c.cmp == HAS for c in plan.conds)


def test_did_any_asks_whether_such_a_row_exists() -> None:
    g = load_graph(tables=[b"Club,Wins,Losses\nA,3,4\nB,5,6\nC,2,1\n"])
    assert answer("did any clubs have no losses?", g, writer="offline").answer == ["no"]
    g = load_graph(tables=[b"Club,Wins,Losses\nA,3,4\nB,5,0\nC,2,1\n"])
    assert answer("did any clubs have no losses?", g, writer="offline").answer == ["yes"]


def test_no_starting_a_column_name_is_not_an_absence() -> None:
    g = load_graph(tables=[b"No in series,Title,Written by\n148,Ann,Rob Wright\n149,Bo,Jo Fox\n"
                           b"150,Cy,\n"])
    plan = link_table("what is the No in series when Jo Fox was the writer?", g)
    assert not any(c.cmp == HAS for c in plan.conds)
