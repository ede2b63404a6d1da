"""``groups_of_size(set, key, size>N)`` and ``sum_each(set, key, value)`` (reasoning/
group_stats.py) and the offline writer's readings of *how many Y have more than N X?* and
*the total X of each Y* (writers/group_sizes.py)."""

from __future__ import annotations

from pathlib import Path

from trustuqa_core import answer, load_graph, run_query
from trustuqa_core.writers.tables import link_table

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
CLUBS = (b"Player,Club,Goals\nAnn,Reds,3\nBo,Blues,1\nCy,Reds,2\nDi,Greens,5\nEd,Blues,4\n"
         b"Fay,Reds,6\n")


def q(*calls: str, target: str = "Club") -> str:
    """A query program of the given calls."""
    return f"## Target type: {{{target}}}\n" + "\n".join(
        f'Query{i}: "{c}"' for i, c in enumerate(calls, 1))


def test_groups_of_size_keeps_the_groups_meeting_the_bound() -> None:
    g = load_graph(tables=[CLUBS])
    every = "get_information(relation='Club')"
    t = run_query(q(every, "groups_of_size(set='output_of_query1', key='Club', size>'1')"), g)
    assert t.error is None and t.answer == ["Reds", "Blues"]
    t = run_query(q(every, "groups_of_size(set='output_of_query1', key='Club', size='1')"), g)
    assert t.answer == ["Greens"]
    t = run_query(q(every, "groups_of_size(set='output_of_query1', key='Club', size<='2')",
                    "count(set='output_of_query2')"), g)
    assert t.answer == ["2"]


def test_a_group_is_witnessed_by_the_key_cells_of_its_rows() -> None:
    g = load_graph(tables=[CLUBS])
    t = run_query(q("get_information(relation='Club')",
                    "groups_of_size(set='output_of_query1', key='Club', size>'2')"), g)
    reds = t.steps[-1].output.witnesses[0]
    assert {g.label(g.tail_of(f)) for f in reds} == {"Reds"}
    assert len({g.head_of(f) for f in reds}) == 3


def test_sum_each_sums_a_column_per_group_largest_first() -> None:
    g = load_graph(tables=[CLUBS])
    t = run_query(q("get_information(relation='Club')",
                    "sum_each(set='output_of_query1', key='Club', value='Goals')"), g)
    assert t.error is None and t.answer == ["Reds: 11", "Blues: 5", "Greens: 5"]
    cells = t.steps[-1].output.witnesses[0]
    assert sorted(g.label(g.tail_of(f)) for f in cells) == ["2", "3", "6"]


def test_a_size_or_a_value_column_that_cannot_be_read_is_not_applicable() -> None:
    g = load_graph(tables=[CLUBS])
    t = run_query(q("get_information(relation='Club')",
                    "groups_of_size(set='output_of_query1', key='Club', size>'many')"), g)
    assert t.error is not None and not t.answer
    t = run_query(q("get_information(relation='Club')",
                    "sum_each(set='output_of_query1', key='Club', value='Player')"), g)
    assert t.error is not None and not t.answer


def test_the_writer_counts_the_groups_of_a_size() -> None:
    g = load_graph(tables=[CLUBS])
    assert answer("how many clubs have more than 1 player?", g,
                  writer="offline").answer == ["2"]
    assert answer("how many clubs have only one player?", g, writer="offline").answer == ["1"]
    assert answer("how many clubs appear more than twice?", g,
                  writer="offline").answer == ["1"]
    assert sorted(answer("which clubs had at least 2 players?", g,
                         writer="offline").answer) == ["Blues", "Reds"]


def test_the_writer_sums_per_group() -> None:
    g = load_graph(tables=[CLUBS])
    for question in ("what is the total of goals for each club?",
                     "how many goals did each club score?", "sum of goals per club?"):
        got = answer(question, g, writer="offline")
        assert got.answer == ["Reds: 11", "Blues: 5", "Greens: 5"], question


def test_the_sample_table_counts_and_sums_per_nation() -> None:
    g = load_graph(tables=[SAMPLES / "giant_slalom.csv"])
    assert answer("how many nations have more than 2 skiers?", g,
                  writer="offline").answer == ["4"]
    got = answer("what is the total of run 1 rank for each nation?", g, writer="offline")
    assert got.answer[:2] == ["France: 73", "Sweden: 52"]


def test_not_read_as_groups() -> None:
    g = load_graph(tables=[CLUBS])
    # a bound on a number column is a condition on each row
    plan = link_table("how many players have more than 2 goals?", g)
    assert plan.computed is None or plan.computed.kind != "count_groups_of_size"
    assert answer("how many players have more than 2 goals?", g,
                  writer="offline").answer == ["4"]
    # a condition fixing the key: one group, not a grouping
    plan = link_table("how many reds players have more than 2 goals?", g)
    assert plan.computed is None or "groups" not in plan.computed.kind
    # a number column counting games is no value to sum
    g = load_graph(tables=[b"Game,Opponent\n1,Reds\n2,Mets\n3,Mets\n"])
    plan = link_table("how many games did each opponent play?", g)
    assert plan.computed is not None and plan.computed.kind == "count_each"


EVERY = "get_information(relation='Club')"


def test_the_verdict_reads_per_group_sums_and_group_counts_as_numbers() -> None:
    # 'Reds: 11' answers 'the total of goals for each club': no type_mismatch, and 'total'
    # is the sum's cue word; a count of groups is a count (no count_unclear)
    g = load_graph(tables=[CLUBS])
    question = "what is the total of goals for each club?"
    sums = run_query(q(EVERY, "sum_each(set='output_of_query1', key='Club', value='Goals')"),
                     g, question=question)
    codes = {r.code for r in sums.verdict.reasons}
    assert not codes & {"type_mismatch", "unexplained_words", "focus_unexplained"}, codes
    lookup = run_query(q(EVERY), g, question=question)
    assert {"type_mismatch", "unexplained_words"} <= {r.code for r in lookup.verdict.reasons}
    question = "how many clubs have more than 1 player?"
    sized = run_query(q(EVERY, "groups_of_size(set='output_of_query1', key='Club', size>'1')",
                        "count(set='output_of_query2')"), g, question=question)
    assert "count_unclear" not in {r.code for r in sized.verdict.reasons}
    plain = run_query(q(EVERY, "groups_of_size(set='output_of_query1', key='Club', size>'1')"),
                      g, question=question)
    assert "count_unclear" not in {r.code for r in plain.verdict.reasons}
    assert "count_unclear" in {r.code for r in run_query(q(EVERY), g,
                                                         question=question).verdict.reasons}
