"""Walk-through ux9: the app as a user with several sources sees it (issues 11 item 4, 13 items
4-5); each thing found is pinned here (AppTest on the bundled samples, offline writer)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core.app_services.ask import ask
from trustuqa_core.app_services.data import load_all, sample_uploads
from trustuqa_core.app_services.run_tables import run_verdict
from trustuqa_core.app_services.runs import record_of
from trustuqa_core.app_services.samples import sample_sets
from trustuqa_core.export import md_escape, to_markdown

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


def test_an_export_of_a_run_with_no_query_says_what_the_card_says() -> None:
    """"Ask over movies_kg.txt only" for *who acted in Tootsie?* (the KG lacks Tootsie): the
    card says no query was written and that 'Tootsie' is not a value of the chosen source;
    the export said 'run_failed: the run stopped while parse' instead."""
    cross = next(s for s in sample_sets() if s.id == "cross")
    graph = load_all(sample_uploads(cross)).graph
    run, _ = ask("who acted in Tootsie?", graph, None, loaded={s.name for s in graph.sources},
                 writer="offline", sources=["movies_kg.txt"])
    assert run is not None and not run.answer
    shown = run_verdict(run)
    record = record_of(run, [])
    assert record["verdict"] == shown.label == "no answer"
    assert [r["code"] for r in record["reasons"]] == shown.codes
    assert "unlinked_mention" in shown.codes
    unlinked = next(r for r in record["reasons"] if r["code"] == "unlinked_mention")
    assert unlinked["message"].startswith("'Tootsie' is not a value of movies_kg.txt (the "
                                          "source you asked over)")
    assert "run_failed" not in to_markdown(record)


@pytest.mark.parametrize("value", ["Bob [link](http://x.io)", "see HTTPS://evil.example/p",
                                   "www.example.com", "write to a@b.co"])
def test_a_data_value_with_an_address_is_shown_not_linked(value: str) -> None:
    """An uploaded cell 'Bob [link](http://x)' showed on the answer card as a clickable
    link (Markdown's autolinks ignore backslash escapes): the escaped text has no address
    Markdown would link, and reads the same once the invisible space is dropped."""
    shown = md_escape(value)
    assert not re.search(r"(?i)://|\bwww\.|\w@\w", shown)
    assert shown.replace("\u200b", "").replace("\\", "") == value


def test_the_favicon_needs_no_network() -> None:
    # Streamlit's frontend fetches a ':material/...:' page icon from fonts.gstatic.com (the
    # walk-through saw the request fail offline); an emoji is drawn as an inline SVG
    tree = ast.parse(Path(APP).read_text(encoding="utf-8"))
    icons = [kw.value.value for node in ast.walk(tree) if isinstance(node, ast.Call)
             and getattr(node.func, "attr", "") == "set_page_config"
             for kw in node.keywords if kw.arg == "page_icon"
             and isinstance(kw.value, ast.Constant)]
    assert icons, "app.py sets a page icon"
    assert not any(str(i).startswith(":material") for i in icons), icons
