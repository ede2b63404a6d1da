"""Three more journeys in a real browser (Playwright + Debian's Chromium): a SQL query's result
over PostgreSQL loaded on the Data page, the trust loop's re-bound answer naming the confirmed
example on its card, and the UniOQA view with no LLM.

Screenshots go to ``reports/screens/`` (git-ignored test artefacts); ``docs/img/`` holds copies
for the user guide. Skipped without ``/usr/bin/chromium`` unless ``TRUSTUQA_REQUIRE_BROWSER=1``;
the PostgreSQL case uses the throwaway cluster of ``test_sources_postgres`` (required when
``TRUSTUQA_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_browser import open_app_page
from test_browser_sources import (  # noqa: F401 - browser_page is a fixture
    SCREENS,
    TIMEOUT_MS,
    _click_until,
    _fill,
    _fresh,
    _idle,
    browser_page,
)
from test_sources_postgres import PASSWORD, server  # noqa: F401 - the cluster fixture

from trustuqa_core.app_services.samples import SAMPLE_DIR

pytestmark = pytest.mark.browser

MOVIES = SAMPLE_DIR / "movies_kg.txt"


def _load(page: Any, sample: str) -> None:
    from playwright.sync_api import expect

    _click_until(page, page.locator(f".st-key-tq_sample_{sample} button"),
                 page.get_by_role("heading", name="Relations and columns"))
    expect(page.get_by_role("heading", name="Relations and columns")).to_be_visible()


def _question(page: Any, text: str) -> None:
    from playwright.sync_api import expect

    open_app_page(page, "Ask")
    box = page.locator(".st-key-tq_question input")
    expect(box).to_be_visible()
    box.fill(text)
    box.press("Tab")
    _idle(page)


def test_a_postgresql_query_result_loads_and_answers_in_the_browser(
        browser_page: tuple[Any, str], server: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    page, url = browser_page
    _fresh(page, url)
    page.get_by_role("tab", name="SQL query").click()
    _fill(page, "tq_sql_url", server.replace(f":{PASSWORD}@", "@"))
    _fill(page, "tq_sql_password", PASSWORD)
    sql = page.locator(".st-key-tq_sql_text textarea")
    sql.fill("SELECT nation, SUM(gold) AS total_gold FROM medals GROUP BY nation")
    sql.press("Tab")
    _idle(page)
    _fill(page, "tq_sql_name", "gold_totals")
    _click_until(page, page.locator(".st-key-tq_sql_go button"),
                 page.get_by_text("Loaded postgres:gold_totals"))
    expect(page.get_by_role("heading", name="Relations and columns")).to_be_visible()
    assert page.locator(".st-key-tq_sql_password input").input_value() == ""
    assert PASSWORD not in page.content()
    page.screenshot(path=str(SCREENS / "data_sql_query.png"))
    _question(page, "What is the total gold of Italy?")
    _click_until(page, page.locator(".st-key-tq_ask button"),
                 page.locator(".st-key-tq_guided").filter(has_text="Question: What is the "
                                                          "total gold of Italy?"))
    card = page.locator("[data-testid='stAlert']").filter(has_text="7").first
    expect(card).to_be_visible()
    assert PASSWORD not in page.content()


def test_the_rebound_answer_names_the_confirmed_example(
        browser_page: tuple[Any, str]) -> None:  # noqa: F811
    from playwright.sync_api import expect

    page, url = browser_page
    _fresh(page, url)
    _load(page, "slalom")
    confirmed = "Who had the highest bib?"
    _question(page, confirmed)
    page.get_by_text("Write a query by hand").click()
    hand = page.locator(".st-key-tq_hand textarea")
    hand.fill("Query1: \"get_information(relation='Bib')\"\n"
              "Query2: \"max(set='output_of_query1')\"\n"
              "Query3: \"get_information(relation='Bib', tail_entity='output_of_query2')\"\n"
              "Query4: \"get_information(relation='Name', head_entity='output_of_query3')\"")
    hand.press("Tab")
    _idle(page)
    _click_until(page, page.locator(".st-key-tq_hand_go button"),
                 page.get_by_text("Query written by: your query"))
    thumbs = page.locator("[data-testid='stFeedback'] button, .stFeedback button").first
    _click_until(page, thumbs, page.get_by_text("Confirmed: this question and query"))
    later = "Who had the lowest run 2 rank?"
    _question(page, later)
    _click_until(page, page.locator(".st-key-tq_ask button"),
                 page.locator(".st-key-tq_guided").filter(has_text=f"Question: {later}"))
    noted = page.get_by_text("shaped by your confirmed example", exact=False).first
    expect(noted).to_be_visible()
    expect(page.get_by_text("re-bound from your confirmed example").first).to_be_visible()
    page.locator("[data-testid='stMain']").evaluate("e => e.scrollTo(0, 0)")
    page.locator("h3", has_text="Answer").first.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    page.screenshot(path=str(SCREENS / "confirm_rebound.png"))


def test_the_unioqa_view_with_no_llm(browser_page: tuple[Any, str]) -> None:  # noqa: F811
    from playwright.sync_api import expect

    page, url = browser_page
    _fresh(page, url)
    _load(page, "movies")
    open_app_page(page, "Ask")
    page.locator(".st-key-tq_system").get_by_text("UniOQA").click()
    _idle(page)
    _question(page, "who was the director of Inception?")
    _click_until(page, page.locator(".st-key-tq_ask button"),
                 page.get_by_role("heading", name="UniOQA answer"))
    want = [t for h, r, t in (line.split("|") for line in
                              MOVIES.read_text(encoding="utf-8").splitlines())
            if h == "Inception" and r == "directed_by"]
    main = page.locator("[data-testid='stMain']")
    expect(main).to_contain_text(want[0])
    expect(main).to_contain_text("Merge decision")
    expect(main).to_contain_text("After ERR")
    expect(main).to_contain_text("Retrieved triples (GRAG)")
    expect(page.locator("[data-testid='stCode']").nth(1)).to_contain_text("Inception")
    page.set_viewport_size({"width": 1400, "height": 1500})
    page.get_by_role("heading", name="UniOQA answer").evaluate(
        "e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    page.screenshot(path=str(SCREENS / "unioqa.png"), timeout=TIMEOUT_MS)
    page.set_viewport_size({"width": 1400, "height": 1000})
