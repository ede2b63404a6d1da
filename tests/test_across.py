"""The generated *across* benchmark (issue 13): table -> KB -> TKG questions whose gold answers
come from the data files, and whose gold programs the executor must reproduce."""

from __future__ import annotations

import gzip
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from trustuqa_core.evaluate.across import (
    _NOT_TITLE,
    _TITLE,
    TEMPLATES,
    AcrossEvaluation,
    _cells,
    generate,
)
from trustuqa_core.evaluate.datasets import Source
from trustuqa_core.evaluate.outcome import Unavailable
from trustuqa_core.evaluate.runner import build_evaluation


@pytest.fixture(scope="module")
def questions(data_dir: Path):
    return generate(400, data_dir)  # every question the data hold (270)


def test_generation_is_deterministic_and_covers_every_template(questions, data_dir) -> None:
    assert [q.question for q in generate(30, data_dir)] == [q.question for q in questions[:30]]
    kinds = Counter(q.template for q in questions)
    assert set(kinds) == set(TEMPLATES) and len(questions) >= 200
    assert all(kinds[t] >= 20 for t in TEMPLATES), kinds
    assert len({q.question for q in questions}) == len(questions)
    assert {q.benchmark for q in questions} == {"wtq", "wikisql"}


def test_the_prefilter_reads_tab_separated_tables(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("Rank\tFilm\n1\tPulp Fiction\n2\t\"Heat, the film\"\n", encoding="utf-8")
    assert {"Pulp Fiction", "Rank", "1"} <= _cells(Source(path, "table"))


def test_the_hop_starts_at_a_title_column(questions) -> None:
    for q in questions:
        if q.template != "films":  # the films template ends at the column instead
            column = q.query.splitlines()[1].split("relation='")[1].split("'")[0]
            assert _TITLE.search(column) and not _NOT_TITLE.search(column), q.question


def test_who_answers_are_people_of_the_hop_with_the_fact(questions, data_dir) -> None:
    tkg = (data_dir / "cronquestions/trustuqa_cg/CronQuestion_CG/kg_test.txt").read_text(
        encoding="utf-8").splitlines()
    for q in (q for q in questions if q.template == "who"):
        award = q.question.rsplit(" received ", 1)[-1].rsplit(" was nominated for ", 1)[-1]
        holders = {line.split("\t")[0] for line in tkg if line.split("\t")[2] == award[:-1]}
        assert q.answers and set(q.answers) <= holders, q.question


def test_every_chain_really_runs_through_the_three_sources(questions, data_dir) -> None:
    with gzip.open(data_dir / "metaqa/kb_partial/kb_partial.txt.gz", "rt",
                   encoding="utf-8") as fh:
        kb = fh.read()
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


# ------------------------------------------------------------------ the chain linker
def _three_sources():
    from trustuqa_core import load_graph

    return load_graph(
        tables=[b"Rank,Film,Year\n1,Heat,1995\n2,Pulp Fiction,1994\n"],
        kgs=[b"Pulp Fiction|directed_by|Quentin Tarantino\nHeat|directed_by|Michael Mann\n"
             b"Heat|release_year|1995\n"],
        tkgs=[b"Quentin Tarantino\taward received\tPalme d'Or\t1994\t1994\n"
              b"Quentin Tarantino\tnominated for\tPalme d'Or\t1993\t1993\n"
              b"Michael Mann\tnominated for\tEmmy Award\t1987\t1987\n"])


@pytest.mark.parametrize("question, expected", [
    ("When did the director of the Film whose Rank is 2 receive Palme d'Or?", ["1994"]),
    ("When did the director of the Film whose Rank is 2 get nominated for Palme d'Or?",
     ["1993"]),
    ("Which Film values of the table were directed by someone who was nominated for "
     "Emmy Award?", ["Heat"]),
])
def test_the_offline_writer_chains_table_kg_and_tkg(question: str, expected: list[str]) -> None:
    from trustuqa_core import answer

    result = answer(question, _three_sources(), "offline")
    assert result.answer == expected
    assert result.trace is not None and len(result.trace.steps) == 4
    assert result.routing is not None and "chained across sources" in result.routing.how


def test_no_chain_without_all_three_links() -> None:
    from trustuqa_core.writers.chain import link_chain

    g = _three_sources()
    assert link_chain("What is the Film whose Rank is 2?", g) == []


def _cross_sample():
    import json

    from trustuqa_core import load_graph

    repo = Path(__file__).resolve().parents[1] / "sample_data"
    g = load_graph(tables=[repo / "comedy_ranking.csv"], kgs=[repo / "movies_kg.txt"],
                   tkgs=[repo / "cron_tkg.tsv"])
    rows = [json.loads(line) for line in (repo / "questions.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    return g, [r for r in rows if r["sample"] == "cross"]


def test_bundled_cross_questions_reference_queries_and_writer() -> None:
    from trustuqa_core import answer, run_query

    g, rows = _cross_sample()
    assert len(rows) >= 12
    for r in rows:
        assert sorted(run_query(r["query"], g).answer) == sorted(r["answer"]), r["id"]
    # every shape (table -> KG -> TKG when / how many / which, KG -> table, TKG -> KG -> table
    # and its count, table -> KG, KG -> TKG, who among the hop, a duration) answered without
    # its query
    for r in rows:
        got = answer(r["question"], g, "offline").answer
        assert sorted(got) == sorted(r["answer"]), (r["id"], got)
