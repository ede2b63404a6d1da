"""Walk-through ux8: what a user tripped over on the Ask and Settings pages, each fixed (AppTest
on the bundled samples, offline writer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

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
