"""Rewrite and execution gaps found by the WTQ replay (issue #12, item 3)."""

from __future__ import annotations

from trustuqa_core import build_graph, load_source, run_query
from trustuqa_core.query.ast import Arg, Bound, Call, Text
from trustuqa_core.rewrite import rewrite

RACE = (
    b'Driver,Team,Laps,Pos\n"Robert Manzon\n Louis Rosier",Scuderia Ferrari,177,6th\n'
    b"Alberto Ascari,Scuderia Ferrari,100,9th\nJean Behra,Gordini,50,27thq\n"
    b"Jose Froilan,Maserati,20,5th\n"
)


def _graph():  # noqa: ANN202
    return build_graph([load_source(RACE, "table", "race.csv")])


def test_value_ge_and_le_on_one_key_pair_with_the_key() -> None:
    rel = Bound("Team", (1,), ("Team",), "relation")
    key = Bound("Laps", (2,), ("Laps",), "relation")
    call = Call(
        "get_information",
        (
            Arg("relation", rel),
            Arg("tail_entity", Text("Scuderia Ferrari")),
            Arg("key", key),
            Arg("value", Text("50"), ">="),
            Arg("value", Text("150"), "<="),
        ),
    )
    ops = [str(op) for op in rewrite(call)]
    assert ops == [
        "$1 = select(relation='Team', value='Scuderia Ferrari')",
        "$2 = select(relation='Laps', value>='50')",
        "$3 = select(relation='Laps', value<='150')",
        "intersect(sets=[$1, $2, $3])",
    ]


def test_value_range_on_one_key_executes() -> None:
    t = run_query(
        "## Target type: {Driver}\n"
        "Query1: \"get_information(relation='Team', tail_entity='Scuderia Ferrari', "
        "key='Laps', value>='50', value<='150')\"",
        _graph(),
    )
    assert t.answer == ["Alberto Ascari"]


def test_a_name_inside_a_multi_value_cell_matches() -> None:
    t = run_query(
        "Query1: \"get_information(relation='Team', tail_entity='Scuderia Ferrari', "
        "head_entity='Robert Manzon')\"\n"
        "Query2: \"get_information(relation='Laps', head_entity='output_of_query1')\"",
        _graph(),
    )
    assert t.answer == ["177"]
    assert any("table cells" in n for n in t.steps[0].notes)


def test_ordinals_with_one_malformed_cell() -> None:
    t = run_query(
        "## Target type: {Driver}\n"
        "Query1: \"get_information(relation='Pos')\"\nQuery2: \"max(set='output_of_query1')\"",
        _graph(),
    )
    assert t.error is None and t.answer == ["27thq"]


def test_space_grouped_thousands_are_numbers_for_extrema() -> None:
    g = build_graph([load_source(b"Company,Revenue\nA,79 037 121\nB,29 258 539\n",
                                 "table", "rev.csv")])
    t = run_query(
        "Query1: \"get_information(relation='Revenue')\"\nQuery2: \"min(set='output_of_query1')\"",
        g,
    )
    assert t.answer == ["29 258 539"]
    assert "space-grouped thousands" in t.steps[-1].notes[0]


def test_more_superlatives_select_extremes() -> None:
    g = build_graph([load_source(b"Athlete,Time,Year\nAnn,1:48.64,1990\nBea,1:47.10,1985\n",
                                 "table", "times.csv")])
    for word, answer in (("fastest", "Bea"), ("slowest", "Ann")):
        t = run_query(
            "## Target type: {Athlete}\n"
            f"Query1: \"get_information(relation='Time', tail_entity>='{word}')\"",
            g,
        )
        assert t.answer == [answer], word
    t = run_query("## Target type: {Athlete}\n"
                  "Query1: \"get_information(relation='Year', tail_entity>='oldest')\"", g)
    assert t.answer == ["Bea"]
