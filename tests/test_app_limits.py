"""An operator's unreadable ``TRUSTUQA_LIMIT_*`` setting: every page says which variable is
wrong and loads nothing (before: the Data page died with Streamlit's redacted error)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core.limits import current_limits

APP = str(Path(__file__).resolve().parents[1] / "app.py")


@pytest.fixture
def fresh_limits() -> Iterator[None]:
    current_limits.cache_clear()  # the limits are read once per process
    yield
    current_limits.cache_clear()


def test_a_bad_limit_is_named_and_nothing_runs(fresh_limits: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page runs ``app.py`` first (``st.navigation``), which stops with the error."""
    monkeypatch.setenv("TRUSTUQA_LIMIT_FACTS", "abc")
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value for e in at.error).replace("\\_", "_")  # markdown-escaped
    assert "TRUSTUQA_LIMIT_FACTS" in shown and "'abc'" in shown
    assert not at.button  # no page ran (the Data page has its sample buttons)


def test_good_limits_show_the_page(fresh_limits: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTUQA_LIMIT_FACTS", "1000")
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    assert not at.exception and not at.error
    assert at.button  # the sample buttons are there
