"""The Ask page's routing section (issue 13, App): when the written query re-routed the
question, that is its own caption, and its evidence is kept apart from the question's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import FixedWriter
from streamlit.testing.v1 import AppTest

from trustuqa_core import load_graph
from trustuqa_core.answer import Answer, answer
from trustuqa_core.app_services.routing_view import routing_view
from trustuqa_core.store import GraphStore

REDS = b"Name,Team\nAnn,Reds\nCid,Greens\n"
BLUES = b"Name,Team\nBob,Blues\nDan,Whites\n"
QUERY = ("Query1: \"get_information(relation='Team', tail_entity='Blues')\"\n"
         "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"")
VAGUE = "who is the player of that team?"  # names nothing that tells the two tables apart


def test_a_query_that_re_routed_the_question_gets_its_own_caption() -> None:
    g = load_graph(tables=[REDS, BLUES])
    a = answer(VAGUE, g, writer=FixedWriter(QUERY))
    assert a.answer == ["Bob"] and a.trace is not None and a.routing is not None
    assert a.routing.unsure  # the question alone could not choose
    view = routing_view(a.trace, a.routing.to_dict())
    assert view is not None
    assert view.line == "Asked of: table2 — chosen by the written query; facts read from: table2"
    assert view.by_query is not None
    assert view.by_query.startswith("Routed by the written query: its arguments map exactly "
                                    "onto table2 (3 of its 3 arguments map exactly there; "
                                    "best other: 2 of 3")
    assert "so it was run there" in view.by_query
    assert "The question's words alone pointed to table1, table2 — all loaded sources: unsure" \
        in view.by_query
    assert view.query == ["table1: 2 of the query's 3 arguments map exactly onto table1",
                          "table2: 3 of the query's 3 arguments map exactly onto table2"]
    assert view.question and not any("query" in e for e in view.question)


def test_a_query_that_agrees_with_the_question_says_so() -> None:
    g = load_graph(tables=[REDS, BLUES])
    a = answer("who plays for the Blues?", g, writer=FixedWriter(QUERY))
    assert a.trace is not None
    view = routing_view(a.trace)
    assert view is not None and view.line.startswith("Asked of: table2 — routed to table2")
    assert view.by_query == ("The written query agrees: 3 of the query's 3 arguments map "
                             "exactly onto table2.")
    assert "table2: 'blues' names a node of table2 (1 word)" in view.question


def test_one_source_has_no_routing_section() -> None:
    a = answer("who plays for the Blues?", load_graph(tables=[BLUES]), writer=FixedWriter(QUERY))
    assert a.trace is not None and routing_view(a.trace) is None


# ------------------------------------------------------------------ the Ask page (AppTest)
APP = str(Path(__file__).resolve().parents[1] / "app.py")


@pytest.fixture
def fixed_writer(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The app's writer writes :data:`QUERY` (as an LLM might); nothing else changes."""
    def written(question: str, graph: GraphStore, **kw: Any) -> Answer:
        kw.pop("writer", None)
        return answer(question, graph, writer=FixedWriter(QUERY), **kw)

    monkeypatch.setattr("trustuqa_core.app_services.ask.answer", written)
    yield


def test_the_ask_page_shows_the_re_routing_apart_from_the_question_evidence(
        fixed_writer: None) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.file_uploader(key="tq_upload").set_value(
        [("reds.csv", REDS, "text/csv"), ("blues.csv", BLUES, "text/csv")]).run()
    at.button(key="tq_upload_go").click().run()
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value(VAGUE).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    assert at.session_state["tq_run"].answer == ["Bob"]
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert any(c.startswith("Asked of: blues.csv — chosen by the written query")
               for c in captions), captions
    routed = [c for c in captions if "Routed by the written query" in c]
    assert len(routed) == 1
    assert "its arguments map exactly onto blues.csv" in routed[0]
    assert "The question's words alone pointed to reds.csv, blues.csv" in routed[0]
    labels = [e.label for e in at.expander]
    assert "Why these sources: the question's words" in labels
    assert "Where the written query's arguments map" in labels
    question = at.expander[labels.index("Why these sources: the question's words")]
    assert "arguments map" not in "".join(m.value for m in question.markdown)
    query = at.expander[labels.index("Where the written query's arguments map")]
    assert "3 of the query's 3 arguments map exactly onto blues.csv" in \
        "".join(m.value for m in query.markdown).replace("\\", "")
