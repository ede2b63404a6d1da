"""Tables laid out as one block of columns repeated side by side (``Year | Medalist |
Position | Year | Medalist | Position``): a lookup reads every block, and a row found in a
later block reads that block's columns (stop 23)."""

from __future__ import annotations

import pytest

from trustuqa_core import build_graph, load_source, run_query
from trustuqa_core.mapping import Mapper

_MEDALS = ("Year,Medalist,Position,Year,Medalist,Position\n"
           "1901,Ann Ash,Soldier,1951,Bob Birch,Poet\n"
           "1902,Cy Cole,Poet,1952,Di Dale,Soldier\n"
           "1903,Ed Eng,Soldier,1953,Fay Fox,Judge\n"
           "1904,Gus Gray,Judge,1954,Hal Hart,Soldier\n")

# the same columns, not repeated as a block: a header repeated once stays as before
_SONGS = ("Week,Performer,Album,Performer\n"
          "1,Ann Ash,First,Ann Ash\n"
          "2,Bob Birch,Second,Cy Cole\n")


def _run(table: str, query: str, question: str) -> tuple[list[str], list[str]]:
    g = build_graph([load_source(table.encode("utf-8"), "table", "t.csv")])
    t = run_query(query, g, Mapper(g), question=question)
    assert t.error is None, t.error
    return t.answer, [n for s in t.steps for n in s.notes]


@pytest.mark.parametrize(("position", "count"), [("Soldier", "4"), ("Poet", "2"),
                                                 ("Judge", "2")])
def test_a_lookup_reads_every_block(position: str, count: str) -> None:
    query = (f"Query1: \"get_information(relation='Position', tail_entity='{position}')\"\n"
             "Query2: \"count(set='output_of_query1')\"")
    answer, notes = _run(_MEDALS, query, f"how many times is {position.lower()} listed?")
    assert answer == [count]
    assert any("repeats its columns in 2 blocks side by side" in n for n in notes), notes


def test_a_row_found_in_a_later_block_reads_that_block() -> None:
    query = ("Query1: \"get_information(relation='Position', tail_entity='Poet')\"\n"
             "Query2: \"get_information(relation='Medalist', head_entity='output_of_query1')\"")
    answer, notes = _run(_MEDALS, query, "who were the poets?")
    assert sorted(answer) == ["Bob Birch", "Cy Cole"]
    assert any("read from the same block" in n for n in notes), notes


def test_a_comparison_reads_every_block() -> None:
    query = ("Query1: \"get_information(relation='Year', tail_entity>'1952')\"\n"
             "Query2: \"get_information(relation='Medalist', head_entity='output_of_query1')\"")
    answer, _ = _run(_MEDALS, query, "who won after 1952?")
    assert sorted(answer) == ["Fay Fox", "Hal Hart"]


def test_a_header_repeated_outside_a_block_is_read_as_before() -> None:
    query = ("Query1: \"get_information(relation='Performer', tail_entity='Ann Ash')\"\n"
             "Query2: \"count(set='output_of_query1')\"")
    answer, notes = _run(_SONGS, query, "how many times is ann ash listed?")
    assert answer == ["1"]
    assert not any("blocks side by side" in n for n in notes), notes
