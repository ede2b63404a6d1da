"""The generated *across* benchmark (issue 13): table -> KB -> TKG questions whose gold answers
come from the data files, and whose gold programs the executor must reproduce."""

from __future__ import annotations

import gzip
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from trustuqa_core.evaluate.across import TEMPLATES, AcrossEvaluation, generate
from trustuqa_core.evaluate.outcome import Unavailable
from trustuqa_core.evaluate.runner import build_evaluation


@pytest.fixture(scope="module")
def questions(data_dir: Path):
    return generate(400, data_dir)


def test_generation_is_deterministic_and_covers_every_template(questions, data_dir) -> None:
    assert [q.question for q in generate(30, data_dir)] == [q.question for q in questions[:30]]
    kinds = Counter(q.template for q in questions)
    assert set(kinds) == set(TEMPLATES) and len(questions) >= 90
    assert len({q.question for q in questions}) == len(questions)
    assert {q.benchmark for q in questions} == {"wtq", "wikisql"}


def test_every_chain_really_runs_through_the_three_sources(questions, data_dir) -> None:
    kb = gzip.open(data_dir / "metaqa/kb_partial/kb_partial.txt.gz", "rt",
                   encoding="utf-8").read()
    tkg = (data_dir / "cronquestions/trustuqa_cg/CronQuestion_CG/kg_test.txt").read_text(
        encoding="utf-8")
    for q in questions[:40]:
        rels = {line.split("relation='")[1].split("'")[0] for line in q.query.splitlines()
                if "relation='" in line}
        assert any(f"|{r}|" in kb for r in rels), q.query
        assert any(f"\t{r}\t" in tkg for r in rels), q.query


def test_the_gold_programs_reach_the_gold_answers(questions, data_dir) -> None:
    ev = AcrossEvaluation("ceiling", data_dir)
    ev._questions = questions
    picked = [next(q for q in questions if q.template == t) for t in TEMPLATES]
    outcomes = [ev.evaluate(q) for q in picked]
    assert all(o.correct for o in outcomes), [(o.id, o.answer, o.gold) for o in outcomes]


def test_a_wrong_gold_answer_is_caught(questions, data_dir) -> None:
    ev = AcrossEvaluation("ceiling", data_dir)
    q = next(q for q in questions if q.template == "when")
    wrong = replace(q, answers=tuple(str(int(a) + 1) for a in q.answers))
    outcome = ev.evaluate(wrong)
    assert not outcome.correct and outcome.category == "wrong"


def test_runner_builds_it_and_refuses_what_it_cannot_do(data_dir) -> None:
    assert build_evaluation("across", "ceiling", root=data_dir).benchmark == "across"
    with pytest.raises(Unavailable):
        build_evaluation("across", "replay", root=data_dir)
    with pytest.raises(Unavailable):
        build_evaluation("across", "answer", writer="openai", root=data_dir)
