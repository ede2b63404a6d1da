"""Executor ceilings: the WikiSQL SQL -> program converter, the MetaQA qtype -> program
converter (hand-made cases over tiny tables / KBs), and gold-program runs on data samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.evaluate.ceilings import (
    MetaQACeiling,
    WikiSQLCeiling,
    empty_input,
    topic_overrides,
)
from trustuqa_core.evaluate.metaqa_gold import MetaQAKB, qtype_hops, qtype_program
from trustuqa_core.evaluate.wikisql_gold import TableInfo, sql_to_program, wikisql_match
from trustuqa_core.evaluate.wikisql_sqlite import explain_failure, sqlite_answer, with_separators
from trustuqa_core.mapping import Mapper
from trustuqa_core.query import parse, render_program

TABLE = b"""Player,No.,Team,Points
Ann,3,Duke,10
Bob,21,duke,20
Cid,3,Kansas,
Dan,7,Kansas,5
"""
COLS = {"Player": 0, "No.": 1, "Team": 2, "Points": 3}


@pytest.fixture(scope="module")
def table():
    graph = load_graph(tables=[TABLE])
    return graph, Mapper(graph, None), TableInfo.from_graph(graph)


def _run(table, sel: str, agg: int, conds: list) -> tuple[list[str], object]:
    graph, mapper, info = table
    sql = {"sel": COLS[sel], "agg": agg, "conds": [[COLS[c], op, v] for c, op, v in conds]}
    text = render_program(sql_to_program(sql, info))
    assert parse(text) == parse(render_program(parse(text)))  # renders to parseable text
    trace = run_query(text, graph, mapper)
    return trace.answer, trace


def test_table_info_reads_columns_values_and_empty_cells(table):
    info = table[2]
    assert info.columns == ("Player", "No.", "Team", "Points")
    assert set(info.values[2]) == {"Duke", "duke", "Kansas"}
    assert info.has_empty == (False, False, False, True)


@pytest.mark.parametrize(("sel", "agg", "conds", "expected"), [
    ("Player", 0, [("Team", 0, "kansas")], {"Cid", "Dan"}),            # = string, any case
    ("Player", 0, [("No.", 0, 3)], {"Ann", "Cid"}),                    # = number (int)
    ("Player", 0, [("No.", 0, "3")], {"Ann", "Cid"}),                  # = number as text
    ("Player", 0, [("No.", 0, 3.0)], {"Ann", "Cid"}),                  # = float 3.0 -> '3'
    ("Player", 0, [("Points", 1, "5")], {"Ann", "Bob"}),               # >
    ("Player", 0, [("Points", 2, 10)], {"Dan"}),                       # <
    ("Player", 0, [("Team", 0, "DUKE"), ("Points", 1, 15)], {"Bob"}),  # two conditions
    ("Player", 0, [("Team", 0, "Kansas"), ("No.", 0, 7), ("Points", 2, 9)], {"Dan"}),
    ("Team", 0, [], {"Duke", "duke", "Kansas"}),                       # no condition
])
def test_sql_selection_and_conditions(table, sel, agg, conds, expected):
    answer, trace = _run(table, sel, agg, conds)
    assert trace.error is None
    assert set(answer) == expected


@pytest.mark.parametrize(("agg", "conds", "expected"), [
    (1, [("Team", 0, "duke")], "20"),      # MAX over both case variants of 'duke'
    (2, [("Team", 0, "duke")], "10"),      # MIN
    (4, [("Team", 0, "duke")], "30"),      # SUM over the bag
    (5, [("Team", 0, "duke")], "15"),      # AVG
    (4, [], "35"),                         # SUM, no condition (the empty cell is skipped)
    (5, [("No.", 0, 3)], "10"),            # AVG skips Cid's empty Points, like SQL NULL
])
def test_sql_aggregates(table, agg, conds, expected):
    answer, trace = _run(table, "Points", agg, conds)
    assert trace.error is None
    assert answer == [expected]


@pytest.mark.parametrize(("sel", "conds", "expected"), [
    ("Points", [("Team", 0, "Kansas")], "1"),   # COUNT(col) skips the empty cell (NULL)
    ("Player", [("Team", 0, "Kansas")], "2"),   # a full column: every selected row
    ("Points", [], "3"),                        # no condition, column with an empty cell
    ("Player", [], "4"),                        # no condition: every row
    ("Team", [("Team", 0, "duke")], "2"),       # rows, not distinct values
    ("Player", [("Points", 1, 100)], "0"),      # nothing matches: 0, not NULL
])
def test_sql_count_counts_rows_with_a_value(table, sel, conds, expected):
    answer, trace = _run(table, sel, 3, conds)
    assert answer == [expected], render_program(trace.program)


def test_sql_unsupported_parts_raise(table):
    info = table[2]
    with pytest.raises(ValueError, match="condition"):
        sql_to_program({"sel": 0, "agg": 0, "conds": [[1, 3, "x"]]}, info)  # 'OP'
    with pytest.raises(ValueError, match="aggregation"):
        sql_to_program({"sel": 0, "agg": 6, "conds": []}, info)
    with pytest.raises(ValueError, match="selected column"):
        sql_to_program({"sel": 9, "agg": 0, "conds": []}, info)


def test_sql_program_uses_the_cells_own_text(table):
    program = sql_to_program({"sel": 0, "agg": 0, "conds": [[2, 0, "DUKE"]]}, table[2])
    assert "tail_entity=['Duke', 'duke']" in render_program(program)
    program = sql_to_program({"sel": 0, "agg": 0, "conds": [[2, 0, "kansas"]]}, table[2])
    assert "tail_entity='Kansas'" in render_program(program)


def test_empty_aggregate_matches_sql_null(table):
    answer, trace = _run(table, "Points", 4, [("Points", 1, 100)])
    assert answer == ["0"] and empty_input(trace)
    assert wikisql_match(answer, [None], empty_input(trace))
    answer, trace = _run(table, "Points", 1, [("Points", 1, 100)])
    assert answer == [] and empty_input(trace)
    assert not wikisql_match(["0"], [None])


@pytest.mark.parametrize(("pred", "gold", "ok"), [
    (["20"], [20.0], True), (["19.9999999"], [20.0], True), (["21"], [20.0], False),
    (["Duke"], ["duke"], True), (["Duke", "Kansas"], ["duke"], False),
    (["55000"], ["55,000"], True), (["5.1"], ["5.10"], True), (["x"], [3], False),
    ([], [None], True), (["a"], [None], False), ([], ["a"], False),
])
def test_wikisql_match(pred, gold, ok):
    assert wikisql_match(pred, gold) is ok


def test_sqlite_recreation_explains_text_stored_numbers(tmp_path: Path):
    assert with_separators("21500") == "21,500" and with_separators("-1234.5") == "-1,234.5"
    header, rows = ["Venue", "Crowd"], [["MCG", "21500"], ["Oval", "9000"], ["Park", "500"]]
    sql = {"sel": 0, "agg": 0, "conds": [[1, 1, "20,000"]]}
    assert sqlite_answer(header, rows, sql, "clean") == ["mcg"]
    # text '9,000' > 20000 in SQLite: the original database returns it as well
    assert sqlite_answer(header, rows, sql, "db") == ["mcg", "oval"]
    path = tmp_path / "t.csv"
    path.write_text("Venue\tCrowd\n" + "\n".join("\t".join(r) for r in rows) + "\n")
    category, detail = explain_failure(path, sql, ["mcg", "oval"], ["MCG"])
    assert category == "gold_text_number" and "'9,000'" in detail
    assert explain_failure(path, sql, ["park"], ["MCG"])[0] is None


# -------------------------------------------------------------------------- MetaQA

KB = b"""Kismet|directed_by|William Dieterle
Juarez|directed_by|William Dieterle
Juarez|written_by|William Dieterle
Juarez|written_by|John Huston
Juarez|release_year|1939
Kismet|release_year|1944
Kismet|starred_actors|Ronald Colman
Juarez|starred_actors|Paul Muni
"""


@pytest.fixture(scope="module")
def kb():
    graph = load_graph(kgs=[KB])
    lines = KB.decode().splitlines()
    return graph, Mapper(graph, None), MetaQAKB.from_lines(lines)


def _metaqa(kb, qtype: str, topic: str) -> list[str]:
    graph, mapper, _ = kb
    program = qtype_program(qtype, topic)
    trace = run_query(render_program(program), graph, mapper,
                      overrides=topic_overrides(program, topic))
    assert trace.error is None, trace.error
    return trace.answer


@pytest.mark.parametrize(("qtype", "topic", "expected"), [
    ("movie_to_director", "Kismet", {"William Dieterle"}),
    ("director_to_movie", "William Dieterle", {"Kismet", "Juarez"}),
    ("movie_to_year", "Juarez", {"1939"}),
    ("movie_to_director_to_movie", "Kismet", {"Juarez"}),          # the topic is excluded
    ("director_to_movie_to_writer", "William Dieterle", {"John Huston"}),  # person: excluded
    ("director_to_movie_to_year", "William Dieterle", {"1939", "1944"}),
    ("movie_to_director_to_movie_to_year", "Kismet", {"1939"}),     # via Juarez only
    ("movie_to_director_to_movie_to_actor", "Kismet", {"Paul Muni"}),
])
def test_qtype_programs_execute_to_the_metaqa_answer(kb, qtype, topic, expected):
    assert set(_metaqa(kb, qtype, topic)) == expected
    assert kb[2].path_answers(qtype, topic) == expected


def test_qtype_program_shape():
    program = qtype_program("movie_to_actor_to_movie_to_language", "Love")
    calls = [q.call for q in program.queries]
    assert [c.func for c in calls] == ["get_information", "get_information", "set_difference",
                                       "get_information"]
    assert [a.name for a in calls[0].args] == ["relation", "head_entity"]
    assert [a.name for a in calls[1].args] == ["relation", "tail_entity"]
    assert calls[3].args[0].value.value == "in_language"
    assert len(qtype_program("actor_to_movie_to_genre", "X").queries) == 2  # no exclusion
    assert len(qtype_program("actor_to_movie_to_director", "X").queries) == 3
    assert qtype_hops("tag_to_movie") == [("tag", "movie")]


@pytest.mark.parametrize("bad", ["movie", "movie_to_colour", "actor_to_director", ""])
def test_unknown_qtypes_raise(bad):
    with pytest.raises(ValueError, match="question type"):
        qtype_program(bad, "X")


def test_reachability_within_hops(kb):
    index = kb[2]
    assert index.within_hops("Kismet", ["1939"], 3)
    assert not index.within_hops("Kismet", ["1939"], 2)
    assert not index.within_hops("Kismet", ["Nobody"], 3)


# ------------------------------------------------------------------ data samples

# Floors on these fixed slices, a few points under what they measured on 2026-11-23
# (code 4a39435): a real regression fails, run-to-run noise cannot (fixed slices, deterministic
# pipeline). Raise them when the measured value rises for good.
#   WikiSQL dev [::84]: 99/101 = 98.0%
#   MetaQA dev, 30 spread questions, over the reachable ones: 29/30, 24/24, 20/20
FLOOR_WIKISQL = 0.95
FLOOR_METAQA_REACHABLE = {1: 0.93, 2: 0.95, 3: 0.95}  # one more miss than today at most


@pytest.mark.data
def test_wikisql_ceiling_on_a_sample(data_dir):
    evaluation = WikiSQLCeiling("dev", root=data_dir)
    items = evaluation.items()[::84]  # 101 questions spread over the dev set
    outcomes = [evaluation.evaluate(item) for _, item in items]
    accuracy = sum(o.correct for o in outcomes) / len(outcomes)
    assert accuracy >= FLOOR_WIKISQL
    assert {o.category for o in outcomes} <= {"correct", "gold_text_number",
                                              "wikisql_text_equality"}


@pytest.mark.data
@pytest.mark.parametrize("hops", [1, 2, 3])
def test_metaqa_ceiling_on_a_sample(data_dir, hops):
    evaluation = MetaQACeiling(hops, "dev", root=data_dir)
    items = evaluation.items()
    items = items[:: len(items) // 30][:30]
    outcomes = [evaluation.evaluate(item) for _, item in items]
    reachable = [o for o in outcomes if o.flags["reachable"]]
    assert len(reachable) >= 15
    accuracy = sum(o.correct for o in reachable) / len(reachable)
    assert accuracy >= FLOOR_METAQA_REACHABLE[hops]
    assert all(o.category in ("correct", "unreachable", "extra_answers") for o in outcomes)
