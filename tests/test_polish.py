"""Polish items of issue 15: quiet model loading in the CLI, code spans in the Markdown
export, who-wrote-the-query labels, the progress box's place, open step panels on the
answer's path, and the ``row_number`` example value."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core.app_services.data import ROW_POSITION, Upload, load_all, relation_stats
from trustuqa_core.app_services.run_tables import query_label
from trustuqa_core.app_services.samples import example_questions
from trustuqa_core.export import to_markdown
from trustuqa_core.mapping.dense import quiet_model_loading

REPO = Path(__file__).resolve().parents[1]
APP = str(REPO / "app.py")

SIDE_STEP_QUERY = (
    "Query1: \"get_information(relation='Nation', tail_entity='Slovenia')\"\n"
    "Query2: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
    "Query3: \"get_information(relation='Name', head_entity='output_of_query1')\"")


@pytest.fixture(autouse=True)
def _no_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    """No LLM is configured and any call to one fails the test."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)

    def _forbidden(*_args: object, **_kw: object) -> list[str]:
        raise AssertionError("the LLM was called")

    monkeypatch.setattr("trustuqa_core.llm.client.LLMClient.complete", _forbidden)


def _slalom() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.button(key="tq_sample_slalom").click().run()
    at.switch_page("pages/2_Ask.py").run()
    assert not at.exception, at.exception
    return at


def _hand_query(at: AppTest, text: str) -> AppTest:
    at.text_area(key="tq_hand").set_value(text).run()
    at.button(key="tq_hand_go").click().run()
    assert not at.exception, at.exception
    return at


def _main_index(at: AppTest, label: str) -> int:
    """Position, among the page's top-level elements, of the expander with ``label``."""
    for i, node in at.main.children.items():
        if getattr(node, "label", None) == label:
            return i
    raise AssertionError(f"no top-level block labelled {label!r}")


def _walk(node: Any) -> Iterator[Any]:
    """``node`` and every element below it."""
    yield node
    for child in getattr(node, "children", {}).values():
        yield from _walk(child)


# ------------------------------------------------------------------ CLI: quiet model loading
def test_quiet_model_loading_turns_off_progress_bars_but_keeps_warnings() -> None:
    from transformers.utils import logging as hf_logging

    hf_logging.enable_progress_bar()
    quiet_model_loading()
    assert not hf_logging.is_progress_bar_enabled()
    assert os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] == "1"
    assert hf_logging.get_verbosity() <= logging.WARNING  # real problems are still logged


def test_cli_ask_prints_no_loading_weights_bar(tmp_path: Path) -> None:
    """The real CLI with the real bundled MiniLM model (a subprocess, ~10 s)."""
    table = tmp_path / "staff.csv"
    table.write_text("Name,Salary\nAnn,50000\nBob,45000\n", encoding="utf-8")
    env = {**os.environ, "TRUSTUQA_CACHE": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1"}
    env.pop("HF_HUB_DISABLE_PROGRESS_BARS", None)
    done = subprocess.run(
        [sys.executable, "-m", "trustuqa_core", "ask", "--table", str(table),
         "--question", "what is the salary of Bob?"],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "45000" in done.stdout
    assert "Loading weights" not in done.stderr + done.stdout
    assert "it/s]" not in done.stderr


# ------------------------------------------------------------------ Markdown export
def test_markdown_export_leaves_code_spans_unescaped() -> None:
    op = "select_extreme(rows, key='Gold', order=max)"
    record = {"question": "who won *most* golds?", "answer": ["Italy"], "origin": "offline",
              "reasons": [{"code": "weak_mapping", "step": 1, "arg": "relation",
                           "message": "a_b is close"}],
              "trace": {"steps": [{"number": 1, "func": "select_extreme", "status": "ok",
                                   "mapped_call": op, "ops": [op, "a`b"], "output": ["Italy"],
                                   "size": 1, "distinct": 1}]}}
    md = to_markdown(record)
    assert f"`{op}`" in md
    assert "`` a`b ``" in md
    assert "- reason `weak_mapping`" in md
    assert "select\\_extreme\\(" not in md and "weak\\_mapping" not in md
    # outside code, data is still escaped
    assert "who won \\*most\\* golds?" in md and "a\\_b is close" in md


# ------------------------------------------------------------------ labels
@pytest.mark.parametrize("origin", ["reference", "hand-written", "edited", "offline"])
def test_query_label_names_the_writer_and_never_says_llm_for_others(origin: str) -> None:
    assert "LLM query" not in query_label(origin)
    assert "no LLM is called" in query_label(origin)
    assert "LLM (gpt-x)" in query_label("llm", "gpt-x")


def test_reference_and_hand_written_queries_are_not_labelled_llm_query() -> None:
    at = _slalom()
    example = next(q for q in example_questions() if q.sample == "slalom")
    at.text_input(key="tq_question").set_value(example.question).run()
    at.button(key="tq_ask").click().run()
    run = at.session_state["tq_run"]  # demo mode: the offline writer wrote this one
    assert run.origin == "offline" and run.reference == example.query
    label = at.text_area(key=f"tq_q{run.rid}_text").label
    assert "LLM" not in label.split("(edit")[0] and "offline writer" in label

    _hand_query(at, SIDE_STEP_QUERY)
    run = at.session_state["tq_run"]
    label = at.text_area(key=f"tq_q{run.rid}_text").label
    assert "LLM query" not in label and "your query" in label


# ------------------------------------------------------------------ progress box
def test_progress_box_does_not_take_the_hand_query_boxs_place() -> None:
    """The "Answering…" box lives in a slot drawn on every run, so the hand-written query
    box (with its "Run query" button) keeps its position and is never drawn inside it."""
    at = _slalom()
    before = _main_index(at, "Write a query by hand")
    at.text_input(key="tq_question").set_value("who won?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    assert _main_index(at, "Write a query by hand") == before
    statuses = [n for n in _walk(at.main) if n.type == "status"]
    assert len(statuses) == 1, "the progress box was not drawn"
    inside = [getattr(n, "label", None) for n in _walk(statuses[0])]
    assert "Run query" not in inside and "Write a query by hand" not in inside


# ------------------------------------------------------------------ step panels
def test_steps_on_the_answer_path_are_open_and_side_steps_closed() -> None:
    at = _slalom()
    _hand_query(at, SIDE_STEP_QUERY)
    assert "Tina Maze" in " ".join(at.session_state["tq_run"].answer)
    panels = {e.label.split(" · ")[0]: e for e in at.expander if e.label.startswith("Query")}
    assert set(panels) >= {"Query1", "Query2", "Query3"}
    assert panels["Query1"].proto.expanded and panels["Query3"].proto.expanded
    assert not panels["Query2"].proto.expanded


# ------------------------------------------------------------------ row_number
def test_row_number_example_is_described_not_a_row_value() -> None:
    report = load_all([Upload("t.csv", "table", b"Name,Year\nAnn,1999\nBob,2000\n")])
    stats = relation_stats(report.graph).set_index("relation / column")
    assert stats.loc["row_number", "example value"] == ROW_POSITION
    assert "position" in ROW_POSITION
    assert stats.loc["Year", "example value"] in ("1999", "2000")
