"""Walk-through ux8: what a user tripped over on the Ask and Settings pages, each fixed (AppTest
on the bundled samples, offline writer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_app.views import scroll_to, step_anchor
from trustuqa_core import load_graph
from trustuqa_core.app_services.benchmark_slice import seconds_by_question
from trustuqa_core.app_services.charts import risk_coverage_figure, timing_figure
from trustuqa_core.app_services.run_tables import timing_rows
from trustuqa_core.app_services.runs import execute_text

APP = str(Path(__file__).resolve().parents[1] / "app.py")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)


def _ask(sample: str, question: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.button(key=f"tq_sample_{sample}").click().run()
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value(question).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    return at


def _scripts(at: AppTest) -> list[str]:
    return [str(h.proto.body) for h in at.get("html")]


def test_a_reasons_step_link_opens_that_step_and_scrolls_to_it() -> None:
    at = _ask("slalom", "how many italians finished in the top ten?")
    run = at.session_state["tq_run"]
    link = next(b for b in at.button if b.label.startswith("Open Query"))
    step = int(link.label.removeprefix("Open Query"))
    assert not any("scrollIntoView" in s for s in _scripts(at))  # nothing scrolls unasked
    link.click().run()
    assert not at.exception, at.exception
    assert at.session_state["tq_view"] == "Steps" and at.session_state["tq_step"] == step
    scripts = [s for s in _scripts(at) if "scrollIntoView" in s]
    assert len(scripts) == 1 and f".st-key-tq_step_{step}\"" in scripts[0]
    assert any(getattr(c, "key", None) == f"tq_step_{step}" for c in _containers(at))
    at.run()  # the next draw does not scroll again
    assert not any("scrollIntoView" in s for s in _scripts(at))
    assert at.session_state["tq_run"].rid == run.rid


def test_a_reasons_mapping_link_scrolls_to_the_details() -> None:
    at = _ask("slalom", "which skier is listed before denise karbon?")
    at.button(key=next(b.key for b in at.button if b.label == "Open the mappings")).click().run()
    assert not at.exception, at.exception
    assert at.session_state["tq_view"] == "Mappings"
    scripts = [s for s in _scripts(at) if "scrollIntoView" in s]
    assert len(scripts) == 1 and ".st-key-tq_details\"" in scripts[0]


def _containers(at: AppTest) -> list[object]:
    out: list[object] = []
    stack = list(at.main.children.values())
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(getattr(node, "children", {}).values())
    return out


def _choose_llm(at: AppTest, preset: str, base_url: str = "", model: str = "") -> None:
    at.switch_page("pages/4_Settings.py").run()
    at.radio[0].set_value("llm")
    at.selectbox[0].set_value(preset)
    at.text_input[0].set_value(base_url)
    at.text_input[1].set_value(model)
    next(b for b in at.button if b.label == "Apply").click().run()
    assert not at.exception, at.exception


def test_an_llm_chosen_without_its_key_says_so_and_who_writes_instead() -> None:
    at = AppTest.from_file(APP, default_timeout=90).run()
    _choose_llm(at, "OpenAI")
    # an address is shown with a zero-width space where Markdown would autolink it (ux9)
    warned = [w.value.replace("\u200b", "") for w in at.warning]
    assert any("An LLM is chosen, but the server at https://api.openai.com/v1 needs an API key "
               "and none is saved" in w and "offline writer writes the queries" in w
               for w in warned), warned
    assert not any("No LLM is configured" in i.value for i in at.info)  # it was chosen
    at.switch_page("pages/1_Data.py").run()
    at.button(key="tq_sample_movies").click().run()
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value("who was the director of Inception?").run()
    at.button(key="tq_ask").click().run()
    run = at.session_state["tq_run"]
    assert run.origin == "offline"
    assert "the LLM chosen in Settings cannot be called" in run.note
    assert "needs an API key" in run.note


def test_a_local_server_needs_no_key_and_is_not_warned_about() -> None:
    at = AppTest.from_file(APP, default_timeout=90).run()
    _choose_llm(at, "Ollama", "http://127.0.0.1:9/v1", "llama3")
    assert not at.warning
    assert any("Will call model" in c.value and "llama3" in c.value for c in at.caption)


def test_the_timing_chart_shows_seconds_only_in_words_with_the_total_apart() -> None:
    """The chart drew ``llm_calls`` (a count of requests) as seconds, an LLM fallback never
    called as a bar, and ``total`` as one more stage."""
    g = load_graph(tables=[b"Name,Nation\nAnn,Italy\n"])
    run = execute_text("Query1: \"get_information(relation='Nation')\"", g, None,
                       origin="llm")
    run.stage_seconds = {"retrieve": 0.01, "write": 1.5, "fallback_llm": 0.0,
                         "llm_calls": 5.0, "total": 1.6}
    rows = timing_rows(run)
    whats = [r["what"] for r in rows]
    assert "llm_calls" not in whats and 5.0 not in [r["seconds"] for r in rows]
    assert "LLM fallback" not in whats and "fallback_llm" not in whats
    assert whats[:2] == ["retrieve demonstrations", "write the queries"]
    assert rows[-1] == {"what": "total", "seconds": 1.6, "kind": "total"}
    fig = timing_figure(rows)
    assert list(fig.data[0].marker.color)[-1] == "#adb5bd"  # the total is grey


@pytest.mark.data
def test_evaluate_draws_sub_millisecond_times_and_says_why_the_verdict_part_is_missing(
        data_dir: Path) -> None:
    """WebQSP replay takes well under a millisecond per question and records no verdict: the
    seconds were rounded to 0 ms (an empty chart, axis -1 to 1) and the trust verdict part was
    left out without a word."""
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.switch_page("pages/3_Evaluate.py").run()
    at.selectbox[0].set_value("webqsp")
    at.selectbox[1].set_value("replay")
    at.slider[0].set_value(5).run()
    at.button(key="tq_eval_go").click().run()
    assert not at.exception, at.exception
    outcomes = at.session_state["tq_eval"][2]
    assert outcomes and all(0 < o.seconds < 0.05 for o in outcomes)
    assert all(v > 0 for v in seconds_by_question(outcomes).values())
    assert "No trust verdict" in " ".join(c.value for c in at.caption)
    assert len(at.get("plotly_chart")) == 2  # outcomes and seconds; no risk-coverage


def test_the_risk_coverage_curve_keeps_a_corner_point_inside_the_frame() -> None:
    fig = risk_coverage_figure([{"label": "verified", "answered": 1.0, "risk": 0.0}])
    low_x, high_x = fig.layout.xaxis.range
    low_y, high_y = fig.layout.yaxis.range
    assert low_x < 0 < 1 < high_x and low_y < 0 < high_y


def test_an_answer_asked_over_chosen_sources_offers_all_sources_again() -> None:
    """"Ask over <source> only" stays chosen for the next questions; only a no-answer card
    offered to ask over every source again, so a later answer (amber, from the one source)
    hid that the others were left out."""
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.button(key="tq_sample_cross").click().run()
    at.switch_page("pages/2_Ask.py").run()
    at.multiselect(key="tq_ask_over").set_value(["movies_kg.txt"]).run()
    at.text_input(key="tq_question").set_value("who was the director of Inception?").run()
    at.button(key="tq_ask").click().run()
    run = at.session_state["tq_run"]
    assert run.sources == ("movies_kg.txt",) and run.answer == ["Christopher Nolan"]
    at.button(key=f"tq_all_top{run.rid}").click().run()
    assert not at.exception, at.exception
    again = at.session_state["tq_run"]
    assert again.rid != run.rid and again.sources is None
    assert at.session_state["tq_ask_over"] == []
    assert again.answer == ["Christopher Nolan"]
    assert not [b for b in at.button if (b.key or "").startswith("tq_all_top")]


@pytest.mark.parametrize("bad", ["tq_step_1\"><img src=x onerror=alert(1)>", "a b", "x;y", ""])
def test_the_scroll_script_takes_only_an_anchor_key(bad: str) -> None:
    """The script runs in the page: it holds only a key of letters, digits and underscores."""
    with pytest.raises(ValueError, match="not an anchor key"):
        scroll_to(bad)
    assert step_anchor(7) == "tq_step_7"
