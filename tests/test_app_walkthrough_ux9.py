"""Walk-through ux9: the app as a user with several sources sees it (issues 11 item 4, 13 items
4-5); each thing found is pinned here (AppTest on the bundled samples, offline writer)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)


def test_streamlits_page_list_is_off_and_the_app_draws_its_own_links() -> None:
    """On a session's first load Streamlit listed the pages/ folder (with an "app" entry)
    before the app's navigation: its sidebar list is off, the app draws the links itself."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showSidebarNavigation"] is False
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, at.exception
    links = at.sidebar.get("page_link")
    assert [link.proto.label for link in links] == ["Data", "Ask", "Evaluate", "Settings"]
    assert [link.proto.page for link in links] == ["", "Ask", "Evaluate", "Settings"]
