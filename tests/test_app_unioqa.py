"""The Ask page's UniOQA view (issue 14, item 5) with no LLM and no API key: on the bundled
movie KG, and on a KG whose names are Markdown/HTML (shown escaped). Expected answers are read
from the data file, not written into the test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core import load_graph
from trustuqa_core.app_services.samples import SAMPLE_DIR
from trustuqa_core.app_services.unioqa_view import unioqa_view
from trustuqa_core.mapping.mapper import Mapper

REPO = Path(__file__).resolve().parents[1]
MOVIES = SAMPLE_DIR / "movies_kg.txt"


@pytest.fixture(autouse=True)
def _no_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)

    def _forbidden(*_args: object, **_kw: object) -> list[str]:
        raise AssertionError("the LLM was called")

    monkeypatch.setattr("trustuqa_core.llm.client.LLMClient.complete", _forbidden)
    yield


def _tails(head: str, relation: str) -> list[str]:
    out = []
    for line in MOVIES.read_text(encoding="utf-8").splitlines():
        h, r, t = line.split("|")
        if h == head and r == relation:
            out.append(t)
    return sorted(out)


def _frame(at: AppTest, column: str) -> pd.DataFrame:
    """The one table on the page that has ``column``."""
    [frame] = [d.value for d in at.dataframe if column in d.value.columns]
    return frame


def _ask_unioqa(at: AppTest, question: str) -> AppTest:
    at.switch_page("pages/2_Ask.py").run()
    at.radio(key="tq_system").set_value("UniOQA").run()
    at.text_input(key="tq_question").set_value(question).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception
    return at


def test_the_unioqa_view_on_the_bundled_movie_kg_with_no_llm() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=90)
    at.run()
    at.button(key="tq_sample_movies").click().run()
    _ask_unioqa(at, "who was the director of Inception?")
    view = at.session_state["tq_unioqa"]
    want = _tails("Inception", "directed_by")
    assert want and view.answer == want and view.translator_answer == want
    # the answer: executed (blue, not the green of a TrustUQA "verified"), and the decision
    assert any(w in i.value for i in at.info for w in want) and "executed" in at.info[0].value
    assert not at.success
    decision = [m.value for m in at.markdown if m.value.startswith("**Merge decision:**")]
    assert decision and "`no_searcher`" in decision[0]
    # the Cypher as written and after ERR, in code boxes (st.code has the copy button)
    codes = [c.value for c in at.code]
    assert view.cypher in codes and view.rebuilt in codes and "Inception" in view.rebuilt
    # every ERR variant, the kept one marked
    variants = _frame(at, "kept")
    assert len(variants) == len(view.variants) >= 2 and variants["kept"].sum() == 1
    assert "directed_by" in variants.loc[variants["kept"], "bindings"].iloc[0]
    # the GRAG triples of the linked entity, retrieved with no LLM; the searcher did not run
    triples = _frame(at, "sentence")
    assert "Inception" in set(triples["head"]) | set(triples["tail"])
    row = triples[triples["relation"] == "directed_by"].iloc[0]
    assert row["tail"] == want[0] and want[0] in row["names"]
    assert not view.searcher_ran and "needs an LLM" in view.searcher_note
    # switching back shows the TrustUQA page as before
    at.radio(key="tq_system").set_value("TrustUQA").run()
    assert not at.exception and not [c for c in at.code if c.value == view.rebuilt]


HOSTILE = (b"**Bold** <img src=x onerror=alert(1)>|directed_by|[link](javascript:alert(1))\n"
           b"**Bold** <img src=x onerror=alert(1)>|release_year|1999\n")


def test_data_strings_are_escaped_in_the_unioqa_view() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=90)
    at.run()
    at.file_uploader(key="tq_upload").set_value([("evil.txt", HOSTILE, "text/plain")]).run()
    at.selectbox(key="tq_kind_evil.txt").set_value("kg").run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception
    _ask_unioqa(at, "who directed [**Bold** <img src=x onerror=alert(1)>]?")
    view = at.session_state["tq_unioqa"]
    assert view.answer == ["[link](javascript:alert(1))"]
    shown = "\n".join([i.value for i in at.info] + [m.value for m in at.markdown]
                      + [c.value for c in at.caption])
    assert "\\[link\\]\\(javascript:alert\\(1\\)\\)" in shown  # Markdown-escaped
    assert "<img" not in shown and "[link](" not in shown


def test_the_view_data_without_streamlit() -> None:
    graph = load_graph(kgs=[MOVIES])
    view = unioqa_view("who acted in Young Frankenstein?", graph, Mapper(graph, encoder=None))
    want = _tails("Young Frankenstein", "starred_actors")
    assert view.answer == want and view.source == "translator" and not view.unverified
    kept = [v for v in view.variants if v["kept"]]
    assert len(kept) == 1 and kept[0]["answer"] == ", ".join(want)
    assert view.record["system"] == "unioqa" and view.record["answer"] == want
    assert {t["tail"] for t in view.triples if t["relation"] == "starred_actors"} == set(want)


def test_switching_systems_keeps_the_trustuqa_run() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=90)
    at.run()
    at.button(key="tq_sample_movies").click().run()
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value("who was the director of Inception?").run()
    at.button(key="tq_ask").click().run()
    run = at.session_state["tq_run"]
    assert run.answer == _tails("Inception", "directed_by")
    at.radio(key="tq_system").set_value("UniOQA").run()
    assert not at.exception
    assert any("current TrustUQA run" in c.value and "Inception" in c.value for c in at.caption)
    assert not [h for h in at.subheader if h.value == "Answer"]  # the card is not drawn
    at.radio(key="tq_system").set_value("TrustUQA").run()
    assert [h for h in at.subheader if h.value == "Answer"]
    assert at.session_state["tq_run"].rid == run.rid
