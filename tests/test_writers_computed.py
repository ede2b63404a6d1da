"""The offline table linker writes reasoning functions for computed questions."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.execute import run_query
from trustuqa_core.query import render_program
from trustuqa_core.writers import link_table, plan_program

MEDALS = b"Nation,Gold,Silver\nItaly,10,3\nJapan,4,5\nSpain,4,1\n"
OFFICE = b"Name,Took office,Left office\nAnn,1 June 1947,12 May 1959\nBob,1959,1960\n"


@pytest.mark.parametrize(
    ("data", "question", "func", "answer"),
    [
        (MEDALS, "how many more gold medals did italy win than japan?", "difference", ["6"]),
        (MEDALS, "what is the difference in silver between spain and japan?", "difference", ["4"]),
        (MEDALS, "did italy win more silver medals than japan?", "compare", ["no"]),
        (MEDALS, "did japan win fewer gold medals than italy?", "compare", ["yes"]),
        (OFFICE, "how long did ann serve?", "duration", ["12 years"]),
    ],
)
def test_linker_writes_computed_questions(data: bytes, question: str, func: str,
                                          answer: list[str]) -> None:
    g = load_graph(tables=[data])
    plan = link_table(question, g)
    built = plan_program(plan)
    assert built is not None
    text = render_program(built)
    assert f'"{func}(' in text
    t = run_query(text, g, question=question)
    assert t.answer == answer
    assert plan.computed is not None and plan.computed.kind in plan.explain()


def test_plain_lookups_are_not_computed() -> None:
    g = load_graph(tables=[MEDALS])
    assert link_table("how many gold medals did italy win?", g).computed is None
    assert link_table("which nation won more gold medals, italy or japan?", g).computed is None
