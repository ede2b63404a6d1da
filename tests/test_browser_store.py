"""Big graphs in a real browser (issue #18; Playwright + Debian's Chromium): in a folder the
operator allows, a store imported by ``python -m trustuqa_core import`` is opened from the
Data page's "Big graph (DuckDB store)" tab (engine and size shown, a sample instead of the
whole graph) and answers on the Ask page with the value read from the file; a store is built
from a data file on that tab while the page shows the build's progress and stays usable.

Skipped without ``/usr/bin/chromium`` unless ``TRUSTUQA_REQUIRE_BROWSER=1`` (as the other
browser tests). Screenshots go to ``reports/screens/``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import chromium_page, open_app_page, running_app
from test_browser_sources import SCREENS, TIMEOUT_MS, _click_until, _idle

from trustuqa_core.app_services.stores import STORE_DIRS_ENV
from trustuqa_core.bench.scale import generate_kg

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
FACTS = 30_000


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The allowed folder: a generated KG file and the store ``big`` imported from it."""
    root = tmp_path_factory.mktemp("stores")
    kg = generate_kg(FACTS, folder=root)
    env = {**os.environ, "TRUSTUQA_CACHE": str(root / "cache"), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "trustuqa_core", "import", str(kg), "--kind",
                           "kg", "--name", "big"], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    store = Path(done.stdout.splitlines()[0])
    (root / "big.duckdb").symlink_to(store)
    return root


@pytest.fixture(scope="module")
def app_page(folder: Path, tmp_path_factory: pytest.TempPathFactory
             ) -> Iterator[tuple[Any, str]]:
    """The app with ``folder`` as its only store folder, and one Chromium page."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    old = os.environ.get(STORE_DIRS_ENV)
    os.environ[STORE_DIRS_ENV] = str(folder)
    try:
        with running_app(tmp_path_factory.mktemp("app")) as (url, _started), \
                chromium_page(TIMEOUT_MS) as page:
            yield page, url
    finally:
        if old is None:
            os.environ.pop(STORE_DIRS_ENV, None)
        else:
            os.environ[STORE_DIRS_ENV] = old


def _kg(folder: Path) -> Path:
    return next(folder.glob("kg_*.txt"))


def _store_tab(page: Any, url: str) -> None:
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()
    page.get_by_role("tab", name="Big graph (DuckDB store)").click()
    _idle(page)


def _picked(page: Any, key: str, name: str) -> None:
    """The selectbox with widget key ``key`` shows ``name`` (the only file of its kind in
    the folder, so it is the default choice)."""
    from playwright.sync_api import expect

    expect(page.locator(f".st-key-{key} input[role='combobox']")).to_have_value(name)


def _metric(page: Any, label: str) -> str:
    box = page.locator("[data-testid='stMetric']").filter(has_text=label).first
    return str(box.locator("[data-testid='stMetricValue']").inner_text()).strip()


def test_an_imported_store_opens_and_answers_in_the_browser(
        app_page: tuple[Any, str], folder: Path) -> None:
    from playwright.sync_api import expect

    page, url = app_page
    _store_tab(page, url)
    _picked(page, "tq_store_pick", "big.duckdb")
    _click_until(page, page.locator(".st-key-tq_store_open button"),
                 page.locator("[data-testid='stMetric']").filter(has_text="Engine"))
    assert _metric(page, "Engine") == "duckdb"
    assert _metric(page, "Facts") == f"{FACTS:,}"
    expect(page.get_by_text(re.compile("A sample")).first).to_be_visible()
    page.screenshot(path=str(SCREENS / "store_opened.png"))

    lines = _kg(folder).read_text(encoding="utf-8").splitlines()
    head = next(x.split("|")[0] for x in lines if "|founded_year|" in x)
    years = {x.split("|")[2] for x in lines if x.startswith(f"{head}|founded_year|")}
    open_app_page(page, "Ask")
    box = page.locator(".st-key-tq_question input")
    expect(box).to_be_visible()
    question = f"what is the founded year of {head}?"
    box.fill(question)
    box.press("Tab")
    _idle(page)
    guided = page.locator(".st-key-tq_guided").filter(has_text=f"Question: {question}")
    _click_until(page, page.locator(".st-key-tq_ask button"), guided)
    card = page.locator("[data-testid='stAlert']").filter(
        has_text=re.compile("|".join(rf"(^|\W){re.escape(y)}(\W|$)" for y in years))).first
    expect(card).to_be_visible()
    assert "Traceback" not in page.locator("body").inner_text()
    page.screenshot(path=str(SCREENS / "store_answer.png"))


def test_a_store_is_built_in_the_browser_with_progress(
        app_page: tuple[Any, str], folder: Path) -> None:
    from playwright.sync_api import expect

    page, url = app_page
    _store_tab(page, url)
    _picked(page, "tq_store_file", _kg(folder).name)
    page.locator(".st-key-tq_store_build_go button").click()
    seen_progress = False
    engine = page.locator("[data-testid='stMetric']").filter(has_text="Engine")
    for _ in range(240):  # bounded: the build of 30k facts takes seconds
        if page.locator("[data-testid='stProgress']").count():
            seen_progress = True
        if engine.count():
            break
        page.wait_for_timeout(500)
    expect(engine).to_be_visible()
    assert seen_progress, "no progress bar was shown while building"
    assert _metric(page, "Facts") == f"{FACTS:,}"
    assert _metric(page, "Engine") == "duckdb"
    expect(page.get_by_text("No data loaded.")).to_have_count(0)
    assert "Traceback" not in page.locator("body").inner_text()
