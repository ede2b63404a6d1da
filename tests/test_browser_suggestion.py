"""A suggestion from a source the question was not routed to, in a real browser (issues 11 and
13, item 4).

A staff table, a books KG and a politics TKG are uploaded; the LLM is the local fake
OpenAI-compatible server, a careless writer that answers every question with the same staff
query. "who wrote Dune?" is routed to the books KG, where that query finds nothing: the card
says *No answer* and shows, apart and never green, the suggestion found in staff.csv with its
own verdict; "Ask again over staff.csv" adopts it, and the new card says so. Screenshots go
to ``tests/artifacts/`` (git-ignored). Skipped without ``/usr/bin/chromium`` unless
``TRUSTUQA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAIServer, FakeReply, scripted
from helpers import office_files
from test_app_suggestion import BOOKS, POLITICS, QUESTION, STAFF, STAFF_QUERY
from test_browser import ARTIFACTS, app_with_page, open_app_page, whole_app_shot
from test_browser import click_until as _click_until
from test_browser import wait_idle as _idle

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000


@pytest.fixture
def office(tmp_path: Path) -> list[Path]:
    folder = office_files(tmp_path, STAFF, BOOKS, POLITICS)
    return [folder / "staff.csv", folder / "books.txt", folder / "politics.tsv"]


@pytest.fixture
def page_and_url(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    with app_with_page(tmp_path, TIMEOUT_MS) as running:
        yield running


def _use_llm(page: Any, base_url: str) -> None:
    """Settings: the LLM writer, a custom server at ``base_url``."""
    from playwright.sync_api import expect

    open_app_page(page, "Settings")
    form = page.locator("[data-testid='stForm']").filter(has_text="Who writes the query")
    form.get_by_text("An LLM (OpenAI-compatible)").click()
    form.locator("[data-testid='stSelectbox']").click()
    page.get_by_role("option", name="Custom server").click()
    form.get_by_label("Base URL (leave empty to use the preset's)").fill(base_url)
    form.get_by_label("Model (leave empty to use the preset's)").fill("fake-model")
    form.get_by_role("button", name="Apply").click()
    _idle(page)
    expect(page.locator("[data-testid='stSidebar']")).to_contain_text("Writer: LLM")


def test_a_suggestion_is_shown_apart_and_adopted_with_one_click(
        page_and_url: tuple[Any, str], office: list[Path]) -> None:
    from playwright.sync_api import expect

    page, url = page_and_url
    ARTIFACTS.mkdir(exist_ok=True)
    with FakeOpenAIServer(scripted(FakeReply.ok(*[STAFF_QUERY] * 5))) as srv:
        page.goto(url)
        expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
        page.get_by_role("tab", name="Upload files").click()
        page.locator(".st-key-tq_upload input[type='file']").set_input_files(
            [str(p) for p in office])
        _idle(page)
        _click_until(page, page.locator(".st-key-tq_upload_go button"),
                     page.get_by_role("heading", name="Relations and columns"))
        _use_llm(page, srv.base_url)

        open_app_page(page, "Ask")
        box = page.locator(".st-key-tq_question input")
        box.fill(QUESTION)
        box.press("Tab")
        _idle(page)
        panel = page.locator("[class*='st-key-tq_sugg']")
        _click_until(page, page.locator(".st-key-tq_ask button"), panel)
        expect(page.get_by_text("No answer", exact=True)).to_be_visible()
        expect(panel).to_contain_text("Suggestion — not the answer")
        expect(panel).to_contain_text("routed to books.txt, where the query found nothing")
        expect(panel).to_contain_text("Suggested answer (from staff.csv): Marketing")
        expect(panel).to_contain_text("Its own verdict:")
        assert page.locator("[data-testid='stAlertContentSuccess']").count() == 0
        assert page.locator("[data-testid='stAlertContentWarning']").filter(
            has_text="Check before use").count() == 0
        whole_app_shot(page, "suggestion_card.png")

        adopted = page.get_by_text("You adopted the suggestion of an earlier run")
        _click_until(page, panel.get_by_role("button", name="Ask again over staff.csv"),
                     adopted)
        _idle(page)
        expect(adopted).to_contain_text("asked again over staff.csv (it had suggested "
                                        "Marketing). Same answer as suggested.")
        expect(page.get_by_text("Asked over staff.csv only (your choice)")).to_be_visible()
        expect(page.locator(".st-key-tq_ask_over")).to_contain_text("staff.csv")
        assert page.locator("[class*='st-key-tq_sugg']").count() == 0
        assert "Traceback" not in page.locator("body").inner_text()
        whole_app_shot(page, "suggestion_adopted.png")
