"""Stop 20: what a walk-through of the app as an analyst, a stakeholder and someone fixing a
mapping found wrong or confusing, each fixed on the Ask page's card (AppTest on the bundled
samples, offline writer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core.export import md_escape

APP = str(Path(__file__).resolve().parents[1] / "app.py")
USA = ("Query1: \"get_information(relation='Nation', tail_entity='USA')\"\n"
       "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)


def _ask_page(sample: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.button(key=f"tq_sample_{sample}").click().run()
    at.switch_page("pages/2_Ask.py").run()
    assert not at.exception, at.exception
    return at


def _captions(at: AppTest) -> str:
    return "\n".join(c.value for c in at.caption).replace("\\", "")


def test_the_card_says_the_answer_rests_on_the_users_override_and_can_undo_it() -> None:
    at = _ask_page("slalom")
    at.text_input(key="tq_question").set_value("which skiers are from USA?").run()
    at.text_area(key="tq_hand").set_value(USA).run()
    at.button(key="tq_hand_go").click().run()
    weak = at.session_state["tq_run"]
    assert weak.answer != ["Julia Mancuso"]  # 'USA' went to the wrong nation
    label = "Use 'United States' for Q1.tail_entity and re-run"
    button = next(b for b in at.button if b.label.replace("\\", "") == label)
    assert button.label == md_escape(label)  # a button label is Markdown: data escaped
    button.click().run()
    assert not at.exception, at.exception
    fixed = at.session_state["tq_run"]
    assert fixed.answer == ["Julia Mancuso"]
    assert fixed.overrides == {"Q1.tail_entity": "United States"}
    assert ("Mapped by you: 'USA' → United States (Q1.tail_entity). The answer rests on this "
            "choice.") in _captions(at)
    at.button(key=f"tq_undo{fixed.rid}").click().run()
    assert not at.exception, at.exception
    undone = at.session_state["tq_run"]
    assert undone.overrides == {} and undone.answer == weak.answer
    assert "Mapped by you" not in _captions(at)


def test_a_card_without_a_query_offers_what_can_be_done() -> None:
    at = _ask_page("slalom")
    at.text_input(key="tq_question").set_value("which skiers are from Japan?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    run = at.session_state["tq_run"]
    assert run.answer == [] and run.writer_error
    tries = next(c.value for c in at.caption if "What to try" in c.value)
    assert "write the query yourself" in tries
    assert "edit the query" not in tries and "override a mapping" not in tries
    assert not at.get("feedback")  # nothing to confirm: no thumbs on a card without answer


def test_a_fallback_that_found_nothing_does_not_say_it_answered() -> None:
    at = _ask_page("cross")
    at.text_input(key="tq_question").set_value("what films did Dustin Hoffman act in?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    assert at.session_state["tq_run"].answer == []
    warnings = "\n".join(w.value for w in at.warning).replace("\\", "")
    assert "gave no answer; tried again over all loaded sources: no answer there either" \
        in warnings
    assert "answered over all loaded sources" not in warnings
