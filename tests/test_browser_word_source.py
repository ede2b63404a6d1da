"""A word of another source, in a real browser (issues 11 and 13, item 4).

The bundled slalom table and movie KG are loaded together; "who directed Tina Maze?" (offline
writer) is answered from the table while *directed* names the KG's ``directed_by``: a
``check`` card whose reason says so, with "Ask over movies_kg.txt only". The click answers
over the KG alone (no answer there), the card says it was the user's choice, and "Ask over
all loaded sources" brings every source back. Screenshots go to ``tests/artifacts/``
(git-ignored). Skipped without ``/usr/bin/chromium`` unless ``TRUSTUQA_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

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
QUESTION = "who directed Tina Maze?"


@pytest.fixture
def page_and_url(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    with app_with_page(tmp_path, TIMEOUT_MS) as running:
        yield running


def test_a_word_of_another_source_card_asks_over_that_source(
        page_and_url: tuple[Any, str]) -> None:
    from playwright.sync_api import expect

    page, url = page_and_url
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(url)
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
    _click_until(page, page.locator(".st-key-tq_sample_slalom button"),
                 page.get_by_text("giant_slalom.csv · table").first)
    _idle(page)
    _click_until(page, page.locator(".st-key-tq_sample_add_movies button"),
                 page.get_by_text("movies_kg.txt · kg").first)
    _idle(page)

    open_app_page(page, "Ask")
    box = page.locator(".st-key-tq_question input")
    expect(box).to_be_visible(timeout=3 * TIMEOUT_MS)  # the first draw builds the demo pool
    card = ask_until_check_card(page, QUESTION)
    expect(card).to_contain_text("A word points to another source")
    expect(card).to_contain_text("'directed' names a relation of movies_kg.txt")
    expect(card).to_contain_text("'Tina Maze' is not in movies_kg.txt, the source 'directed' "
                                 "points to")  # ux9: said first, and the offer says it too
    expect(page.get_by_text("movies_kg.txt, the source 'directed' points to, has nothing named "
                            "'Tina Maze'")).to_be_visible()
    over = page.get_by_role("button", name="Ask over movies_kg.txt only")
    whole_app_shot(page, "word_of_other_source_card.png")

    chosen = page.get_by_text("Asked over movies_kg.txt only (your choice)")
    _click_until(page, over, chosen)
    _idle(page)
    expect(chosen).to_contain_text("left out: giant_slalom.csv")
    expect(page.get_by_text("No answer", exact=True)).to_be_visible()
    expect(page.get_by_text("'Tina Maze' is not a value of movies_kg.txt (the source you "
                            "asked over)")).to_be_visible()
    expect(page.locator(".st-key-tq_ask_over")).to_contain_text("movies_kg.txt")
    whole_app_shot(page, "word_of_other_source_chosen.png")

    back = page.get_by_role("button", name="Ask over all loaded sources")
    _click_until(page, back, card)
    _idle(page)
    expect(card).to_contain_text("A word points to another source")
    assert page.get_by_text("(your choice)").count() == 0
    assert "Traceback" not in page.locator("body").inner_text()
