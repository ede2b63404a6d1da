"""The four kinds of source of issue 15 in a real browser (Playwright + Debian's Chromium): a
PostgreSQL table (opened by URL on the Data page), a SQLite file, a Parquet file and a Turtle
file each load on the Data page and answer a question on the Ask page.

Each source is loaded in a fresh session (a new page), so each answer comes from that source
alone. Waits are generous: the machine may be loaded. Screenshots go to ``reports/screens/``
(git-ignored test artefacts). Skipped without ``/usr/bin/chromium`` unless
``TRUSTUQA_REQUIRE_BROWSER=1``; the PostgreSQL case uses the throwaway cluster of
``test_sources_postgres`` (required when ``TRUSTUQA_REQUIRE_POSTGRES=1``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from test_browser import chromium_page, open_app_page, running_app
from test_browser import click_until as _click_until
from test_browser import wait_idle as _idle
from test_sources_postgres import PASSWORD, server  # noqa: F401 - the cluster fixture

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
SCREENS = REPO / "reports" / "screens"
TIMEOUT_MS = 60_000

TURTLE = b"""@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:dune ex:written_by ex:herbert .
ex:dune rdfs:label "Dune" .
ex:herbert rdfs:label "Frank Herbert" .
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A SQLite file, a Parquet file and a Turtle file, written here."""
    root = tmp_path_factory.mktemp("sources")
    shop = root / "shop.sqlite"
    with sqlite3.connect(shop) as db:
        db.execute("create table staff (name text, city text, salary integer)")
        db.executemany("insert into staff values (?, ?, ?)",
                       [("Ann", "Berlin", 50), ("Bob", "Paris", 70)])
    sales = root / "sales.parquet"
    duckdb.sql("select * from (values ('North', 12), ('South', 30)) t(region, units)") \
        .write_parquet(str(sales))
    books = root / "books.ttl"
    books.write_bytes(TURTLE)
    return {"sqlite": shop, "parquet": sales, "turtle": books}


@pytest.fixture(scope="module")
def browser_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    """One app and one Chromium page for the module: (page, app URL)."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    with running_app(tmp_path_factory.mktemp("app")) as (url, _started), \
            chromium_page(TIMEOUT_MS) as page:
        yield page, url


def _fresh(page: Any, url: str) -> None:
    """A new session on the Data page."""
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()


def _upload(page: Any, path: Path) -> None:
    from playwright.sync_api import expect

    page.get_by_role("tab", name="Upload files").click()
    page.locator(".st-key-tq_upload input[type='file']").set_input_files(str(path))
    go = page.locator(".st-key-tq_upload_go button")
    expect(go).to_be_visible()
    _idle(page)
    _click_until(page, go, page.get_by_role("heading", name="Relations and columns"))


def _fill(page: Any, key: str, text: str) -> None:
    """Type into a text input and wait until the app has taken the value (Enter sends it; the
    next field is filled only once that rerun is over)."""
    box = page.locator(f".st-key-{key} input")
    box.fill(text)
    box.press("Enter")
    _idle(page)


def _ask_and_see(page: Any, question: str, expected: str, shot: str) -> None:
    from playwright.sync_api import expect

    open_app_page(page, "Ask")
    box = page.locator(".st-key-tq_question input")
    expect(box).to_be_visible()
    box.fill(question)
    box.press("Tab")
    _idle(page)
    guided = page.locator(".st-key-tq_guided").filter(has_text=f"Question: {question}")
    _click_until(page, page.locator(".st-key-tq_ask button"), guided)
    card = page.locator("[data-testid='stAlert']").filter(has_text=re.compile(
        rf"(^|\W){re.escape(expected)}(\W|$)")).first
    expect(card).to_be_visible()
    assert "Traceback" not in page.locator("body").inner_text()
    page.screenshot(path=str(SCREENS / shot))


@pytest.mark.parametrize("kind, question, expected", [
    ("sqlite", "Which city is Bob in?", "Paris"),
    ("parquet", "How many units did South sell?", "30"),
    ("turtle", "who wrote Dune?", "Frank Herbert"),
])
def test_a_file_source_loads_and_answers_in_the_browser(
        browser_page: tuple[Any, str], files: dict[str, Path], kind: str, question: str,
        expected: str) -> None:
    page, url = browser_page
    _fresh(page, url)
    _upload(page, files[kind])
    assert files[kind].name in page.locator("[data-testid='stMain']").inner_text()
    _ask_and_see(page, question, expected, f"source_{kind}.png")


def test_a_postgresql_table_opens_and_answers_in_the_browser(
        browser_page: tuple[Any, str], server: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    page, url = browser_page
    _fresh(page, url)
    page.get_by_role("tab", name="PostgreSQL").click()
    _fill(page, "tq_pg_url", server.replace(f":{PASSWORD}@", "@"))
    _fill(page, "tq_pg_password", PASSWORD)
    _fill(page, "tq_pg_tables", "medals")
    _idle(page)
    _click_until(page, page.locator(".st-key-tq_pg_go button"),
                 page.get_by_text("Opened postgres:medals"))
    expect(page.get_by_role("heading", name="Relations and columns")).to_be_visible()
    assert page.locator(".st-key-tq_pg_password input").input_value() == ""
    assert PASSWORD not in page.content()
    page.screenshot(path=str(SCREENS / "source_postgresql_data.png"))
    _ask_and_see(page, "How many gold did Spain win?", "5", "source_postgresql.png")
    assert PASSWORD not in page.content()
