"""``count_each(set, key=)``: one count per group, witnessed by the group's rows, and the
offline writer's reading of *how many X does each Y have?* (issue #12 item 4)."""

from __future__ import annotations

from pathlib import Path

from trustuqa_core import answer, load_graph, run_query
from trustuqa_core.writers.tables import link_table

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
CLUBS = b"Player,Club,Goals\nAnn,Reds,3\nBo,Blues,1\nCy,Reds,2\nDi,Greens,5\nEd,Blues,4\nFay,Reds,0\n"


def q(*calls: str, target: str = "Club") -> str:
    """A query program of the given calls."""
    return f"## Target type: {{{target}}}\n" + "\n".join(
        f'Query{i}: "{c}"' for i, c in enumerate(calls, 1))


def test_count_each_counts_the_rows_of_each_group_largest_first() -> None:
    g = load_graph(tables=[CLUBS])
    t = run_query(q("get_information(relation='Club')",
                    "count_each(set='output_of_query1', key='Club')"), g)
    assert t.error is None
    assert t.answer == ["Reds: 3", "Blues: 2", "Greens: 1"]


def test_each_group_is_witnessed_by_the_key_cells_of_its_rows() -> None:
    g = load_graph(tables=[CLUBS])
    t = run_query(q("get_information(relation='Club')",
                    "count_each(set='output_of_query1', key='Club')"), g)
    out = t.steps[-1].output
    reds = out.witnesses[0]
    assert len(reds) == 3
    assert {g.label(g.tail_of(f)) for f in reds} == {"Reds"}
    assert len({g.head_of(f) for f in reds}) == 3  # three different rows


def test_count_each_over_rows_kept_by_a_condition() -> None:
    g = load_graph(tables=[CLUBS])
    t = run_query(q("get_information(relation='Goals', tail_entity>='2')",
                    "count_each(set='output_of_query1', key='Club')"), g)
    assert t.answer == ["Reds: 2", "Greens: 1", "Blues: 1"]


def test_a_key_naming_no_column_is_not_answered() -> None:
    g = load_graph(tables=[CLUBS])
    t = run_query(q("get_information(relation='Club')",
                    "count_each(set='output_of_query1', key='Stadium')"), g)
    assert t.answer == []


def test_the_offline_writer_counts_per_group_on_the_sample_table() -> None:
    g = load_graph(tables=[SAMPLES / "giant_slalom.csv"])
    got = answer("how many skiers does each nation have?", g, writer="offline")
    assert got.answer[0] == "France: 4"
    assert sorted(got.answer) == sorted(["France: 4", "Italy: 3", "Sweden: 3", "Austria: 3",
                                         "Germany: 2", "Slovenia: 1", "Finland: 1",
                                         "Slovakia: 1", "United States: 1", "Switzerland: 1"])
    assert got.trace is not None and "count_each(" in got.trace.query_text


def test_per_and_in_each_forms_and_a_condition() -> None:
    g = load_graph(tables=[CLUBS])
    got = answer("what is the number of players per club?", g, writer="offline")
    assert got.answer == ["Reds: 3", "Blues: 2", "Greens: 1"]
    got = answer("how many players scored more than 1 goals in each club?", g,
                 writer="offline")
    assert sorted(got.answer) == ["Blues: 1", "Greens: 1", "Reds: 2"]


def test_not_read_per_group_when_no_group_repeats_or_a_number_is_asked() -> None:
    g = load_graph(tables=[b"Player,Club,Goals\nAnn,Reds,3\nBo,Blues,1\n"])
    plan = link_table("how many players does each club have?", g)
    assert plan.computed is None or plan.computed.kind != "count_each"
    g = load_graph(tables=[CLUBS])
    plan = link_table("how many goals did each club score?", g)
    assert plan.computed is None or plan.computed.kind != "count_each"
    plan = link_table("how many players does each club have?", g)
    assert plan.computed is not None and plan.computed.kind == "count_each"


def test_the_verdict_reads_a_per_group_count_as_a_count() -> None:
    # count_unclear ('reads a value instead of counting') and type_mismatch ('France: 4' is
    # no number) were claims the evidence contradicts; a plain lookup still gets both
    g = load_graph(tables=[CLUBS])
    question = "how many players does each club have?"
    each = run_query(q("get_information(relation='Club')",
                       "count_each(set='output_of_query1', key='Club')"), g, question=question)
    codes = {r.code for r in each.verdict.reasons}
    assert not codes & {"count_unclear", "type_mismatch"}
    lookup = run_query(q("get_information(relation='Club')"), g, question=question)
    assert {"count_unclear", "type_mismatch"} <= {r.code for r in lookup.verdict.reasons}
