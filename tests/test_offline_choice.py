"""Choices between two named rows ("who was faster, A or B?", "which ranked higher, A or
B?"): the offline linker's column and direction, and what the verdict says about them.
Data made here."""

from __future__ import annotations

from trustuqa_core import answer, load_graph
from trustuqa_core.writers.tables import link_table

RACE = (b"Rank,Name,Run 1,Run 2,Total\n"
        b",Ann Lee,1:07.05,1:13.49,2:20.54\n"
        b",Bo Ray,1:09.17,1:11.85,2:21.02\n"
        b"4,Cy Dorn,1:08.24,1:13.04,2:21.28\n"
        b"5,Di Fox,59.80,1:22.00,2:21.80\n")
MEDALS = b"Rank,Nation,Gold\n1,Italy,10\n2,Japan,4\n3,France,2\n"


def _plan(question: str, table: bytes) -> tuple[str | None, str, object]:
    plan = link_table(question, load_graph(tables=[table]))
    return plan.select, plan.agg, plan.ranking


def test_faster_compares_the_total_time() -> None:
    assert _plan("who was faster, Cy Dorn or Di Fox?", RACE) == ("Name", "min",
                                                                ("extreme", "Total"))
    assert _plan("who was slower, Cy Dorn or Di Fox?", RACE)[1:] == ("max",
                                                                    ("extreme", "Total"))


def test_a_named_time_column_beats_the_total() -> None:
    # "run 1" names Run 1 (and less well Run 2 and the rank columns)
    assert _plan("who was slower in run 1, Cy Dorn or Di Fox?", RACE)[1:] == (
        "max", ("extreme", "Run 1"))


def test_times_are_compared_as_durations_and_verified() -> None:
    # 59.80 s is faster than 1:08.24, which text order would not say
    got = answer("who was faster in run 1, Cy Dorn or Di Fox?", load_graph(tables=[RACE]),
                 writer="offline")
    assert got.answer == ["Di Fox"]
    codes = {r.code for r in got.verdict.reasons}
    assert "text_extreme" not in codes and "echoes_question" not in codes
    assert got.verdict.label == "verified"


def test_higher_rank_is_the_smaller_number() -> None:
    assert _plan("which ranked higher, italy or japan?", MEDALS) == ("Nation", "min",
                                                                    ("extreme", "Rank"))
    assert _plan("which ranked lower, italy or japan?", MEDALS)[1] == "max"
    # a numeric column that is no rank keeps "higher" as the larger value
    assert _plan("which had higher gold, italy or japan?", MEDALS)[1:] == (
        "max", ("extreme", "Gold"))


def test_a_row_without_a_value_keeps_the_choice_amber() -> None:
    # Ann Lee's rank cell is blank: the min over ranks sees only Cy Dorn's 4
    got = answer("who finished higher, Ann Lee or Cy Dorn?", load_graph(tables=[RACE]),
                 writer="offline")
    codes = {r.code for r in got.verdict.reasons}
    assert "extreme_missing" in codes and got.verdict.label != "verified"
    both = answer("who finished higher, Cy Dorn or Di Fox?", load_graph(tables=[RACE]),
                  writer="offline")
    assert both.answer == ["Cy Dorn"]
    assert "extreme_missing" not in {r.code for r in both.verdict.reasons}


def test_two_columns_of_one_row() -> None:
    """"which run was faster for X, run 1 or run 2?" answers a column, as the question names
    it; "how many places higher ... in run 2 than in run 1?" reads the sibling rank columns
    (``Run 2 rank`` / ``Run 1 rank``) and takes their difference."""
    table = (b"Name,Run 1,Run 1 rank,Run 2,Run 2 rank\n"
             b"Ann Lee,1:07.05,1,1:13.49,15\nBo Ray,1:09.17,19,1:11.85,1\n")
    g = load_graph(tables=[table])
    cases = {"which run was faster for bo ray, run 1 or run 2?": ["Run 1"],
             "which run was slower for bo ray, run 1 or run 2?": ["Run 2"],
             "in which run did bo ray rank higher, run 1 or run 2?": ["Run 2"],
             "in which run did ann lee rank higher, run 1 or run 2?": ["Run 1"],
             "how many places higher did bo ray rank in run 2 than in run 1?": ["18"]}
    for question, expected in cases.items():
        got = answer(question, g, writer="offline")
        assert got.answer == expected, (question, got.trace.query_text if got.trace else "")
    chosen = answer("which run was faster for bo ray, run 1 or run 2?", g, writer="offline")
    codes = {r.code for r in chosen.verdict.reasons}
    assert not codes & {"weak_mapping", "target_unnamed"}, codes


def test_how_long_is_explained_by_an_answer_of_times() -> None:
    """"how long did it take X?" answered from a column of times: the column need not be
    named (no target_unnamed) and *how long ... take* is explained; a length is not a time."""
    got = answer("how long did it take Cy Dorn?", load_graph(tables=[RACE]), writer="offline")
    codes = {r.code for r in got.verdict.reasons}
    assert got.answer == ["2:21.28"]
    assert not codes & {"target_unnamed", "unexplained_words"}, codes
    bridges = b"Bridge,Main span metres\nOld Arch,1310\nNew Arch,870\n"
    span = answer("how long is the Old Arch?", load_graph(tables=[bridges]), writer="offline")
    assert "target_unnamed" in {r.code for r in span.verdict.reasons}


def test_better_is_the_smaller_time_but_no_direction_over_points() -> None:
    table = (b"Name,Run 1,Run 2,Points 2019,Points 2020\n"
             b"Bo Ray,1:09.17,1:11.85,10,30\nCy Dorn,1:08.24,1:13.04,5,2\n")
    g = load_graph(tables=[table])
    timed = answer("which run was better for bo ray, run 1 or run 2?", g, writer="offline")
    assert timed.answer == ["Run 1"]
    # over points "better" says no direction: no comparison is written (it took the smaller)
    points = answer("which season was better for bo ray, points 2019 or points 2020?", g,
                    writer="offline")
    assert points.trace is None or "if_then_else" not in points.trace.query_text
