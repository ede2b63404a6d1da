"""A computed yes / no answer (``exists``, ``compare``): the target type ``yes or no`` maps to
no column, so it is no reason; the answer is amber with its own reason. Data made here."""

from __future__ import annotations

from trustuqa_core import answer, load_graph

RACE = (b"Name,Nation,Total\nAnn Lee,Italy,2:20.54\nBo Ray,France,2:21.02\n"
        b"Cy Dorn,Austria,2:21.28\nDi Fox,Austria,2:21.80\n")


def test_a_computed_yes_no_carries_its_own_reason_only() -> None:
    for question, expected in (("did an austrian finish in the top three?", ["yes"]),
                               ("did an austrian finish in the top two?", ["no"]),
                               ("was Bo Ray from France?", ["yes"])):
        got = answer(question, load_graph(tables=[RACE]), writer="offline")
        codes = {r.code for r in got.verdict.reasons}
        assert got.answer == expected, question
        assert "yes_no_answer" in codes and got.verdict.label == "check"
        assert not codes & {"weak_mapping", "target_unnamed"}, codes


def test_a_read_answer_has_no_yes_no_reason() -> None:
    got = answer("what nation was Bo Ray from?", load_graph(tables=[RACE]), writer="offline")
    assert got.answer == ["France"]
    assert "yes_no_answer" not in {r.code for r in got.verdict.reasons}
