"""Issue 15, app side: demo mode shows the real pipeline (writer's query beside the reference
query), the guided step-through's stages, the session history, the Evaluate page's honest
accuracy and "open in Ask", and an overview graph whose pieces stay readable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_app.guided_views import diff_html
from trustuqa_core import load_graph
from trustuqa_core.app_services.ask import ask, bundled_demos
from trustuqa_core.app_services.benchmark_slice import (
    ask_request,
    clean_question,
    evaluable_summary,
    item_sources,
    outcome_rows,
)
from trustuqa_core.app_services.compare import (
    compare_runs,
    query_diff,
    reference_comparison,
    writer_label,
)
from trustuqa_core.app_services.data import load_all, sample_uploads
from trustuqa_core.app_services.history import MAX_RUNS, find_run, history_labels, remember
from trustuqa_core.app_services.page_settings import AppSettings
from trustuqa_core.app_services.run_tables import query_label, run_verdict
from trustuqa_core.app_services.runs import ORIGINS, Run, execute_text
from trustuqa_core.app_services.samples import example_questions, sample_sets
from trustuqa_core.app_services.stages import run_stages, stage_index
from trustuqa_core.demos import DemoPool, initial_demos
from trustuqa_core.evaluate.datasets import Example, Source
from trustuqa_core.evaluate.outcome import Outcome
from trustuqa_core.evaluate.selective import verdict_summary
from trustuqa_core.explain import _layout, overview_graph
from trustuqa_core.graph import ConditionGraph
from trustuqa_core.mapping import HashingEncoder, Mapper

REPO = Path(__file__).resolve().parents[1]
APP = str(REPO / "app.py")
TIMEOUT = 90
ITALY = "Query1: \"get_information(relation='Nation', tail_entity='Italy')\""


@pytest.fixture(autouse=True)
def _no_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    """No LLM is configured and any call to one fails the test."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)

    def _forbidden(*_args: object, **_kw: object) -> list[str]:
        raise AssertionError("the LLM was called")

    monkeypatch.setattr("trustuqa_core.llm.client.LLMClient.complete", _forbidden)


def _sample(sample: str) -> tuple[ConditionGraph, Mapper, set[str]]:
    s = next(x for x in sample_sets() if x.id == sample)
    report = load_all(sample_uploads(s))
    return report.graph, Mapper(report.graph, None), {x.name for x in report.graph.sources}


def _example(qid: str) -> object:
    return next(q for q in example_questions() if q.id == qid)


def _ask_example(qid: str, **kw: object) -> Run:
    q = _example(qid)
    graph, mapper, loaded = _sample(q.sample)  # type: ignore[attr-defined]
    pool = DemoPool(initial_demos() + bundled_demos(), HashingEncoder())
    run, message = ask(q.question, graph, mapper, loaded=loaded, demos=pool,  # type: ignore[attr-defined]
                       **kw)  # type: ignore[arg-type]
    assert run is not None, message
    return run


# ------------------------------------------------------------------ labels and diffs
@pytest.mark.parametrize("origin", sorted(set(ORIGINS) - {"llm"}))
def test_no_query_but_the_llms_is_labelled_llm(origin: str) -> None:
    assert "LLM" not in writer_label(origin, "gpt-x")
    assert "LLM" not in query_label(origin).split("(edit")[0]


def test_an_llm_query_is_labelled_with_its_model() -> None:
    assert writer_label("llm", "llama3.2") == "LLM (llama3.2)"
    assert "LLM (llama3.2)" in query_label("llm", "llama3.2")
    assert writer_label("hand-written") == writer_label("edited") == "your query"
    assert writer_label("reference") == "reference query"
    assert writer_label("offline") == "offline writer"
    assert writer_label("rebound") == "re-bound from your confirmed example"


def test_query_diff_marks_lines_only_in_one_query() -> None:
    diff = query_diff("Query1: a\nQuery2: b\nQuery3: c", "Query1: a\nQuery2: B\nQuery3: c  ")
    assert [(d.kind, d.text) for d in diff] == [
        ("same", "Query1: a"), ("removed", "Query2: b"), ("added", "Query2: B"),
        ("same", "Query3: c")]


def test_diff_html_escapes_query_text() -> None:
    page = diff_html(query_diff("Query1: \"f(x='<b>a</b>')\"", "Query1: \"f(x='<script>')\""))
    assert "<script>" not in page and "<b>a" not in page
    assert "&lt;script&gt;" in page and "&lt;b&gt;a&lt;/b&gt;" in page


# ------------------------------------------------------------------ demo mode
def test_an_example_question_runs_the_writer_with_the_reference_beside_it() -> None:
    run = _ask_example("slalom-2")
    q = _example("slalom-2")
    assert run.origin == "offline" and run.prompt is not None  # the writer ran
    assert run.reference == q.query  # type: ignore[attr-defined]
    assert sorted(run.reference_answer or []) == sorted(q.answer)  # type: ignore[attr-defined]
    comparison = reference_comparison(run)
    assert comparison is not None and comparison.writer == "offline writer"
    assert comparison.same and "same answer" in comparison.verdict_line
    assert comparison.diff and not comparison.identical


def test_a_different_answer_is_said_plainly() -> None:
    run = _ask_example("slalom-5")  # the offline writer reads "slower second run" right now
    comparison = reference_comparison(run)
    assert comparison is not None and comparison.same
    # a reference that reads the first run instead answers differently: said plainly
    run.reference = (run.reference or "").replace("'Run 2'", "'Run 1'")
    run.reference_answer = ["Sara Hector"]
    comparison = reference_comparison(run)
    assert comparison is not None
    assert not comparison.same and "Different answers" in comparison.verdict_line
    assert "Sara Hector" in comparison.verdict_line  # the reference query's answer
    assert any(d.kind == "added" for d in comparison.diff)


def test_reference_first_runs_only_the_reference_query() -> None:
    run = _ask_example("slalom-2", reference_first=True)
    assert run.origin == "reference" and run.prompt is None
    assert reference_comparison(run) is None


# ------------------------------------------------------------------ stages
def test_stages_follow_the_pipeline_for_a_written_query() -> None:
    run = _ask_example("slalom-2")
    stages = run_stages(run)
    keys = [s.key for s in stages]
    assert keys[:3] == ["demos", "query", "mapped"] and keys[-1] == "answer"
    assert keys[3:-1] == [f"set:{s.number}" for s in run.trace.steps]
    assert [s.title.split(" · ")[0] for s in stages] == [str(i) for i in
                                                         range(1, len(stages) + 1)]
    demos = stages[0]
    assert len(demos.rows) == len(run.demos) and {"similarity", "origin"} <= set(demos.rows[0])
    assert all(r["question"] != run.question for r in demos.rows)  # not its own reference
    query = stages[1]
    assert "offline writer" in query.caption and query.code == run.query and query.diff
    mapped = stages[2]
    assert {"argument", "mapped to", "score", "runner-up"} <= set(mapped.rows[0])
    sets = [s for s in stages if s.kind == "set"]
    assert [s.step for s in sets] == [s.number for s in run.trace.steps]
    answer = stages[-1]
    assert answer.label == run_verdict(run).label
    assert set(run.answer) <= set(answer.caption.split(", "))


def test_a_hand_written_query_has_no_demonstration_stage() -> None:
    g = load_graph(tables=[b"Name,Nation\nAnn,Italy\nBob,Spain\n"])
    run = execute_text(ITALY, g, None, origin="hand-written", question="who is italian?")
    stages = run_stages(run)
    assert [s.key for s in stages] == ["query", "mapped", "set:1", "answer"]
    assert stages[0].caption == "Written by: your query." and not stages[0].diff


def test_a_query_that_does_not_parse_goes_from_query_to_answer() -> None:
    g = load_graph(tables=[b"Name,Nation\nAnn,Italy\n"])
    run = execute_text("Query1: \"get_information(relation=\"", g, None, origin="edited")
    stages = run_stages(run)
    assert [s.key for s in stages] == ["query", "answer"]
    assert stages[-1].label == "no answer" and stages[-1].notes[0].startswith("The run stopped")


def test_stage_index_stays_within_the_stages() -> None:
    g = load_graph(tables=[b"Name,Nation\nAnn,Italy\n"])
    stages = run_stages(execute_text(ITALY, g, None, origin="edited"))
    assert stage_index(stages, -1) == 0 and stage_index(stages, 99) == len(stages) - 1
    assert stage_index(stages, 2) == 2


# ------------------------------------------------------------------ history
def test_history_keeps_runs_in_order_once_each_and_capped() -> None:
    g = load_graph(tables=[b"Name,Nation\nAnn,Italy\nBob,Spain\n"])
    runs = [execute_text(ITALY, g, None, origin="hand-written", question=f"q{i}")
            for i in range(MAX_RUNS + 2)]
    history: list[Run] = []
    for r in runs:
        history = remember(history, r)
    assert len(history) == MAX_RUNS and history[0] is runs[2] and history[-1] is runs[-1]
    again = remember(history, runs[5])
    assert len(again) == MAX_RUNS and again[-1] is runs[5]
    assert find_run(history, runs[7].rid) is runs[7] and find_run(history, "nope") is None
    labels = history_labels(history[:2])
    assert labels[runs[2].rid].startswith("1 · q2 → table1 row 1 · ")


def test_compare_runs_says_what_differs() -> None:
    g = load_graph(tables=[b"Name,Nation\nAnn,Italy\nBob,Spain\n"])
    a = execute_text(ITALY, g, None, origin="hand-written", question="who is italian?")
    b = execute_text(ITALY.replace("Italy", "Spain"), g, None, origin="edited",
                     question="who is italian?")
    rows = {r["aspect"]: r for r in compare_runs(a, b)}
    assert set(rows) == {"question", "written by", "query", "answer", "verdict", "steps"}
    assert rows["question"]["same"] and rows["written by"]["same"] and rows["steps"]["same"]
    assert not rows["query"]["same"] and not rows["answer"]["same"]
    assert rows["answer"]["run A"] == "table1 row 1" and rows["answer"]["run B"] == "table1 row 2"


# ------------------------------------------------------------------ Evaluate
def _outcome(i: int, category: str, detail: str = "", question: str = "q") -> Outcome:
    return Outcome(f"id{i}", "cronquestions", question, category == "correct", category, [],
                   ["Q1"], 0.1, detail=detail)


def test_not_evaluable_questions_are_counted_and_explained() -> None:
    ids = "gold answers are Wikidata ids"
    outcomes = ([_outcome(i, "not_evaluable", ids) for i in range(8)]
                + [_outcome(8, "correct"), _outcome(9, "wrong")])
    line = evaluable_summary(outcomes)
    assert line.startswith("8 of 10 not evaluable: gold answers are Wikidata ids")
    assert "other 2" in line
    assert evaluable_summary([_outcome(0, "correct")]) == ""
    mixed = evaluable_summary([_outcome(0, "not_evaluable", ids),
                               _outcome(1, "not_evaluable", "the data file is missing")])
    assert "Wikidata ids (1)" in mixed and "missing (1)" in mixed


def test_unfilled_template_slots_are_not_shown() -> None:
    text = "When James was the Member of the 45th Parliament , who was the {tail2}"
    shown, note = clean_question(text)
    assert "{" not in shown and shown.endswith("who was the …")
    assert "{tail2}" in note
    row = outcome_rows([_outcome(0, "not_evaluable", question=text)])[0]
    assert "{" not in row["question"] and row["note"] == note


def test_item_sources_and_ask_request(tmp_path: Path) -> None:
    src = Source(tmp_path / "kg.txt", "kg")
    example = Example(id="dev-1", benchmark="metaqa-1hop", split="dev", question="who {x}?",
                      answers=("a",), sources=(src,))
    assert item_sources(example) == [(str(src.path), "kg")]
    assert item_sources(("question", "query", [example])) == [(str(src.path), "kg")]
    assert item_sources(("question", "query")) == []

    class Shared:
        _source = src

    assert item_sources(("q", "query"), Shared()) == [(str(src.path), "kg")]
    outcome = Outcome("dev-1", "metaqa-1hop", "who {x}?", False, "wrong", [], ["a"], 0.1,
                      query=ITALY)
    replay = ask_request(outcome, "replay", item_sources(example))
    assert replay.origin == "recorded" and replay.query == ITALY and replay.question == "who …?"
    assert ask_request(outcome, "ceiling", []).origin == "gold"
    assert ask_request(outcome, "answer", [], writer="llm").origin == "llm"
    assert ask_request(outcome, "answer", []).origin == "offline"


# ------------------------------------------------------------------ overview layout
def _edge_over_span(pos: dict[int, tuple[float, float]], edges: list[tuple[int, int]]
                    ) -> float:
    """The median edge length as a share of the picture's width or height (what vis's
    fit() scales to the frame): small means every piece is drawn as a dot."""
    xy = np.array(list(pos.values()))
    span = float(np.ptp(xy, axis=0).max())
    return float(np.median([np.hypot(*np.subtract(pos[a], pos[b])) for a, b in edges])) / span


def test_overview_pieces_are_laid_out_large_enough_to_read() -> None:
    """A table overview is many small stars (one per row), a KG overview a few big ones: each
    keeps a readable size in the whole picture (one spring layout for all pieces gave
    0.045, 0.065 and 0.081 here; packing the pieces gives 0.10, 0.14 and 0.21)."""
    graph, _, _ = _sample("cross")
    table = load_all([u for u in sample_uploads(next(s for s in sample_sets()
                                                    if s.id == "cross"))
                      if u.name == "comedy_ranking.csv"]).graph
    careers, _, _ = _sample("careers")
    for g in (table, graph, careers):
        ev = overview_graph(g, max_facts=30)
        pos = _layout(ev, size=600.0)
        assert set(pos) == {n.id for n in ev.nodes}
        assert _edge_over_span(pos, [(e.head, e.tail) for e in ev.edges]) > 0.095


# ------------------------------------------------------------------ in the app (AppTest)
def _app(sample: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.button(key=f"tq_sample_{sample}").click().run()
    at.switch_page("pages/2_Ask.py").run()
    assert not at.exception, at.exception
    return at


def _ask_in_app(at: AppTest, question: str) -> Run:
    at.text_input(key="tq_question").set_value(question).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    return at.session_state["tq_run"]  # type: ignore[no-any-return]


def test_demo_mode_in_the_app_shows_both_queries_and_whether_they_agree() -> None:
    at = _app("slalom")
    run = _ask_in_app(at, _example("slalom-5").question)  # type: ignore[attr-defined]
    assert run.origin == "offline" and run.reference
    assert not any("Different answers" in w.value for w in at.warning)  # both: Anja Pärson
    assert any("offline writer's query beside the reference query" in e.label
               for e in at.expander)
    assert any("Query written by: offline writer" in c.value for c in at.caption)
    run.reference_answer = ["Sara Hector"]  # a reference answering otherwise is said plainly
    at.run()
    assert any("Different answers" in w.value and "Sara Hector" in w.value for w in at.warning)
    at.session_state["tq_settings"] = AppSettings(reference_first=True)
    run = _ask_in_app(at, _example("slalom-5").question)  # type: ignore[attr-defined]
    assert run.origin == "reference" and run.answer == ["Anja Pärson"]


def test_step_through_goes_back_and_forth_through_every_stage() -> None:
    at = _app("slalom")
    run = _ask_in_app(at, _example("slalom-2").question)  # type: ignore[attr-defined]
    titles = [s.title for s in run_stages(run)]
    seen = []
    for i in range(len(titles)):
        heads = [m.value for m in at.markdown if m.value.startswith("#### ")]
        seen.append(next(h for h in heads if h.removeprefix("#### ").startswith(f"{i + 1} · ")))
        assert at.button(key="tq_stage_back").disabled == (i == 0)
        assert at.button(key="tq_stage_next").disabled == (i == len(titles) - 1)
        if i == 3:  # the first output_of_query stage draws the graph with that step lit
            assert at.get("iframe"), "no evidence graph on a set stage"
        if i < len(titles) - 1:
            at.button(key="tq_stage_next").click().run()
            assert not at.exception, at.exception
    assert [s.removeprefix("#### ") for s in seen] == [t.replace("_", "\\_") for t in titles]
    at.button(key="tq_stage_back").click().run()
    assert at.session_state[f"tq_stage_{run.rid}"] == len(titles) - 2


def test_history_keeps_every_run_and_the_ask_page_compares_two() -> None:
    """The sidebar's buttons are driven in the browser test (AppTest drops app.py's sidebar
    after a page switch); here: every run enters the history and the comparison is drawn."""
    at = _app("slalom")
    first = _ask_in_app(at, _example("slalom-2").question)  # type: ignore[attr-defined]
    second = _ask_in_app(at, "who skied for slovenia?")
    assert [r.rid for r in at.session_state["tq_history"]] == [first.rid, second.rid]
    at.session_state["tq_compare"] = (first.rid, second.rid)
    at.run()
    assert not at.exception, at.exception
    assert any("Two runs side by side" in m.value for m in at.markdown)
    answers = [m.value for m in at.markdown if m.value.startswith("Answer: ")]
    assert answers == [f"Answer: **{', '.join(first.answer)}**", "Answer: **Tina Maze**"]
    at.button(key="tq_compare_close").click().run()
    assert not any("Two runs side by side" in m.value for m in at.markdown)


@pytest.mark.data
def test_evaluate_tells_the_truth_and_opens_a_row_in_ask(data_dir: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    at.switch_page("pages/3_Evaluate.py").run()
    at.selectbox[0].set_value("cronquestions")
    at.selectbox[1].set_value("answer")
    at.slider[0].set_value(10).run()
    at.button(key="tq_eval_go").click().run()
    assert not at.exception, at.exception
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Questions"] == "10"
    evaluable = int(metrics["Evaluable"])
    assert evaluable < 10
    note = next(i.value for i in at.info if "not evaluable" in i.value)
    assert note.startswith(f"{10 - evaluable} of 10 not evaluable: gold answers are Wikidata ids")
    pick = at.selectbox(key="tq_eval_pick")
    assert len(pick.options) == 10 and not any("{" in o for o in pick.options)
    assert any(o.startswith("valid-4 · Who were the … when") for o in pick.options)
    pick.set_value("valid-2").run()
    at.button(key="tq_eval_open").click().run()
    assert not at.exception, at.exception
    question = at.text_input(key="tq_question").value
    assert question.startswith("When James Scott-Hopkins") and "{" not in question
    assert [u.name for u in at.session_state["tq_sources"]] == ["kg_test.txt"]
    run = at.session_state["tq_run"]
    assert run.question == question and any(m.value.startswith("#### ") for m in at.markdown)


def test_risk_coverage_survives_a_slice_without_verified_or_one_reason_checks() -> None:
    """The CronQuestions slice of the issue: no verified answer and only checks with two
    reasons; the curve starts at two reasons instead of dividing by zero."""
    checks = [Outcome(f"c{i}", "cronquestions", "q", i == 0, "wrong", [], ["1"], 0.1,
                      groups={"verdict": "check"},
                      flags={"why:empty_answer": True, "why:weak_mapping": True})
              for i in range(2)]
    summary = verdict_summary(checks)
    assert [p["label"] for p in summary["risk_coverage"]] == ["check <= 2 reasons"]
    assert summary["risk_coverage"][0]["risk"] == 0.5
