"""A target type that shapes nothing is no reason (verdict.evidence._target_used).

The target type reads the final *rows* in a column. When the answer is KG entities it is
never applied, so a weak mapping of it ('person' -> nothing in a movie KG) must not keep a
right answer from ``verified``; when it is applied, or fails on rows, its weakness counts.
"""

from __future__ import annotations

from trustuqa_core import load_graph, run_query

MOVIES = (b"High Anxiety|directed_by|Mel Brooks\nHigh Anxiety|starred_actors|Mel Brooks\n"
          b"Blazing Saddles|directed_by|Mel Brooks\nMemento|directed_by|Christopher Nolan\n")
SKIERS = (b"Name,Nation,Rank\nTina Maze,Slovenia,1\nMarlies Schild,Austria,2\n"
          b"Julia Mancuso,United States,3\n")


def _program(call: str, target: str) -> str:
    return f"## Target type: {{{target}}}\nQuery1: \"{call}\""


def test_an_unused_target_type_on_a_kg_answer_is_no_reason() -> None:
    graph = load_graph(kgs=[MOVIES])
    t = run_query(_program("get_information(relation='directed_by', head_entity='High Anxiety')",
                           "person"), graph, question="who directed High Anxiety?")
    assert t.answer == ["Mel Brooks"] and t.target_step is None
    assert t.target is not None and t.target.weak  # the mapping is weak ...
    assert "weak_mapping" not in [r.code for r in t.verdict.reasons]  # ... and unused
    assert t.verdict.label == "verified"


def test_a_weak_target_type_on_rows_still_counts() -> None:
    """Applied weakly ('person' read from row_number) or failing on rows (the answer stays
    a row id): the weak mapping is a reason in both cases."""
    graph = load_graph(tables=[SKIERS])
    call = "get_information(relation='Nation', tail_entity='Austria')"
    applied = run_query(_program(call, "person"), graph, question="which skier is from Austria?")
    assert applied.target_step is not None and applied.target.weak
    assert "weak_mapping" in [r.code for r in applied.verdict.reasons]
    failed = run_query(_program(call, "athlete"), graph, question="which skier is from Austria?")
    assert failed.target_step is None and failed.answer == ["table1 row 2"]
    assert "weak_mapping" in [r.code for r in failed.verdict.reasons]
