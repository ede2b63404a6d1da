"""Settling which source a question means, in a real browser (issues 11 and 13, item 4).

Two rosters of one schema are uploaded on the Data page; "how many players do the Reds
have?" (offline writer) gets a ``check`` card whose reason says the data cannot tell which
roster the question means; "Answer over roster_2022.csv only" answers it over that roster,
and the card says the user chose it. Screenshots go to ``tests/artifacts/`` (git-ignored).
Skipped without ``/usr/bin/chromium`` unless ``TRUSTUQA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import (
    ARTIFACTS,
    app_with_page,
    ask_until_check_card,
    open_app_page,
    whole_app_shot,
)
from test_browser import click_until as _click_until
from test_browser import wait_idle as _idle

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
R22 = b"Name,Team,Season\nAnn Lee,Reds,2022\nBo Park,Blues,2022\nCy Dunn,Greens,2022\n"
R23 = b"Name,Team,Season\nDee Fox,Reds,2023\nEd Moss,Blues,2023\nFay Hill,Blues,2023\n"
QUESTION = "how many players do the Reds have?"


@pytest.fixture
def rosters(tmp_path: Path) -> list[Path]:
    """Two seasons' rosters of one schema, one Reds player each."""
    out = []
    for name, data in (("roster_2022.csv", R22), ("roster_2023.csv", R23)):
        path = tmp_path / name
        path.write_bytes(data)
        out.append(path)
    return out


@pytest.fixture
def page_and_url(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    with app_with_page(tmp_path, TIMEOUT_MS) as running:
        yield running


def test_a_source_unsure_card_answers_over_the_roster_the_user_picks(
        page_and_url: tuple[Any, str], rosters: list[Path]) -> None:
    from playwright.sync_api import expect

    page, url = page_and_url
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(url)
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
    page.get_by_role("tab", name="Upload files").click()
    page.locator(".st-key-tq_upload input[type='file']").set_input_files(
        [str(p) for p in rosters])
    _idle(page)
    _click_until(page, page.locator(".st-key-tq_upload_go button"),
                 page.get_by_role("heading", name="Relations and columns"))

    open_app_page(page, "Ask")
    expect(page.locator(".st-key-tq_ask_over").get_by_role("combobox", name="Ask over")) \
        .to_be_visible()
    card = ask_until_check_card(page, QUESTION)
    expect(card).to_contain_text("Source unclear")
    expect(card).to_contain_text("reads roster_2022.csv and roster_2023.csv together")
    expect(card).to_contain_text(re.compile(r"Check before use\W+2\b"))
    assert page.locator("[data-testid='stAlertContentSuccess']").count() == 0
    one = page.get_by_role("button", name="Answer over roster_2022.csv only")
    expect(one).to_be_visible()
    expect(page.get_by_role("button", name="Answer over roster_2023.csv only")).to_be_visible()
    whole_app_shot(page, "source_unsure_card.png")

    chosen = page.get_by_text("Asked over roster_2022.csv only (your choice)")
    _click_until(page, one, chosen)
    _idle(page)
    expect(chosen).to_contain_text("left out: roster_2023.csv")
    answer = page.locator("[data-testid='stAlert']").filter(
        has_text=re.compile(r"^\s*1\s*$|Check before use\W+1\b")).first
    expect(answer).to_be_visible()
    expect(page.locator(".st-key-tq_ask_over")).to_contain_text("roster_2022.csv")
    assert page.get_by_role("button", name="Answer over roster_2022.csv only").count() == 0
    assert "Traceback" not in page.locator("body").inner_text()
    whole_app_shot(page, "source_chosen_card.png")
