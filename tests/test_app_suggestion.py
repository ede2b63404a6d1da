"""A suggestion from a source the question was not routed to, on the Ask page (issues 11 and 13,
item 4): the card shows it as such (not the answer: its answer, its source, its own verdict and
reasons), one click adopts it by asking again over that source, and the adoption is kept in the
history and the exports.

Made data: a staff table, a books KG and a politics TKG. The writer is a careless one that
writes the same staff query whatever is asked (a fixed writer for the service, the local fake
OpenAI-compatible server for the page): "who wrote Dune?" is routed to the books KG, where that
query finds nothing; over every source it finds 'Marketing' in the staff table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer, FakeReply, scripted
from helpers import FixedWriter, configure_llm, office_files, office_graph_of
from streamlit.testing.v1 import AppTest

from trustuqa_core.app_services.ask import ask
from trustuqa_core.app_services.history import history_labels, remember
from trustuqa_core.app_services.run_tables import run_verdict, what_to_try
from trustuqa_core.app_services.runs import execute_text, imported_run, record_of, rerun
from trustuqa_core.app_services.stages import run_stages
from trustuqa_core.app_services.suggestion import (
    adoption_of,
    adoption_text,
    suggestion_line,
    suggestion_markdown,
)
from trustuqa_core.export import to_markdown
from trustuqa_core.store import GraphStore

STAFF = b"Name,Department,Office\nAlice Moreau,Finance,B12\nChen Wei,Marketing,A07\n"
BOOKS = b"Dune|written_by|Frank Herbert\nEmma|written_by|Jane Austen\n"
POLITICS = (b"Angela Merkel\tposition held\tChancellor of Germany\t2005\t2021\n"
            b"Helmut Kohl\tposition held\tChancellor of Germany\t1982\t1998\n")
STAFF_QUERY = ("Query1: \"get_information(relation='Name', tail_entity='Chen Wei')\"\n"
               "Query2: \"get_information(relation='Department', "
               "head_entity='output_of_query1')\"")
QUESTION = "who wrote Dune?"
NAMES = {"staff.csv", "books.txt", "politics.tsv"}
APP = str(Path(__file__).resolve().parents[1] / "app.py")


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> GraphStore:
    return office_graph_of(office_files(tmp_path_factory.mktemp("office"), STAFF, BOOKS,
                                        POLITICS))


def _suggested_run(office: GraphStore):  # type: ignore[no-untyped-def]
    run, _ = ask(QUESTION, office, None, loaded=NAMES, writer=FixedWriter(STAFF_QUERY), n=1)
    assert run is not None
    return run


def test_the_run_keeps_the_suggestion_apart_from_its_answer(office: GraphStore) -> None:
    run = _suggested_run(office)
    # the core said "no answer": the shown sample's own result is not the run's answer
    assert run.answer == [] and run_verdict(run).label == "no answer"
    assert "unrouted_source" in run_verdict(run).codes
    s = run.suggestion
    assert s is not None
    assert s.answer == ("Marketing",) and s.sources == ("staff.csv",)
    assert s.routed == ("books.txt",)
    assert s.verdict in ("verified", "check") and s.query is not None and "Chen Wei" in s.query
    assert all(r.title and r.message for r in s.reasons)
    assert suggestion_line(s).startswith("Not the answer. The question was routed to books.txt")
    # the panel says it once: not again as a warning above the card, nor in the note
    assert not any("shown as a suggestion" in w for w in run.warnings)
    assert "shown as a suggestion" not in run.note
    assert "adopt the suggestion below (it asks again over staff.csv)" in what_to_try(run)
    last = run_stages(run)[-1]  # the step-through's answer stage says it too
    assert last.kind == "answer" and not last.rows
    assert last.notes[0].endswith("Suggested (not the answer): Marketing.")


def test_a_refused_sample_is_not_shown_as_the_answer(office: GraphStore) -> None:
    """Before stop 20 the card showed the first sample's result ('Jane Austen', found through a
    runner-up mapping and refused by the vote) as a `check` answer while the core said none."""
    run = _suggested_run(office)
    assert run.trace.answer  # the sample shown for its steps did find something ...
    assert run.answer == []  # ... which is not the answer
    assert run.note == ("None of the 4 written queries gave an answer that counts: 4 had an "
                        "argument that matches nothing in the data well enough. Shown: the "
                        "first query's steps; what it found is not the answer.")
    record = json.loads(json.dumps(record_of(run, [])))
    assert record["answer"] == [] and record["verdict"] == "no answer"
    # an edit or an override is the user's own query, judged on its own: the suggestion goes
    edited = rerun(run, office, None, query=STAFF_QUERY, origin="edited", overrides={})
    assert edited.verdict is None and edited.suggestion is None
    assert edited.answer == ["Marketing"]


def test_the_export_and_the_history_carry_the_suggestion_and_its_adoption(
        office: GraphStore) -> None:
    run = _suggested_run(office)
    record = json.loads(json.dumps(record_of(run, [])))
    assert record["suggestion"]["answer"] == ["Marketing"]
    assert record["suggestion"]["sources"] == ["staff.csv"]
    assert record["suggestion"]["routed"] == ["books.txt"]
    md = to_markdown(record) + suggestion_markdown(record)
    assert "## Suggestion (not the answer)" in md and "Marketing (from staff.csv" in md

    adoption = adoption_of(run.suggestion, run.rid, QUESTION)  # type: ignore[arg-type]
    again, _ = ask(QUESTION, office, None, loaded=NAMES, writer=FixedWriter(STAFF_QUERY), n=1,
                   sources=list(adoption.sources))
    assert again is not None and again.sources == ("staff.csv",)
    again.adopted = adoption
    assert again.answer == ["Marketing"] and again.suggestion is None
    assert adoption_text(adoption, again.answer).endswith("Same answer as suggested.")
    record = json.loads(json.dumps(record_of(again, [])))
    assert record["adopted_suggestion"] == {"from_run": run.rid, "question": QUESTION,
                                            "sources": ["staff.csv"],
                                            "suggested_answer": ["Marketing"]}
    assert "## Adopted suggestion" in suggestion_markdown(record)
    assert imported_run(record, [], office, None).adopted == adoption  # re-run from the export
    labels = history_labels(remember(remember([], run), again))
    assert "no answer (suggested: Marketing)" in labels[run.rid]
    assert labels[again.rid].endswith("· adopted suggestion (staff.csv)")
    # a re-run of the adopted answer (an override) is still the adopted question's
    assert rerun(again, office, None, overrides={}).adopted == adoption


def test_what_to_try_fits_the_run(office: GraphStore) -> None:
    nothing = execute_text("", office, None, origin="offline", question="who is Zed?")
    nothing.writer_error = "could not link 'Zed'"
    text = what_to_try(nothing)
    assert "write the query yourself" in text and "edit the query" not in text
    assert "override a mapping" not in text
    empty = execute_text("Query1: \"get_information(relation='Name', tail_entity='Zed')\"",
                         office, None, origin="llm", question="who is Zed?")
    text = what_to_try(empty)
    assert "edit the query (Details → Steps)" in text and "override a mapping" in text
    assert "configure an LLM" not in text  # an LLM wrote it already


# ------------------------------------------------------------------ the Ask page (AppTest)
def _texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "warning", "info")
                     for e in getattr(at, kind)).replace("\\", "")


def _office_app(base_url: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.file_uploader(key="tq_upload").set_value(
        [("staff.csv", STAFF, "text/csv"), ("books.txt", BOOKS, "text/plain"),
         ("politics.tsv", POLITICS, "text/plain")]).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception, at.exception
    configure_llm(at, base_url)
    at.switch_page("pages/2_Ask.py").run()
    return at


def test_the_card_shows_the_suggestion_and_one_click_adopts_it() -> None:
    with FakeOpenAIServer(scripted(FakeReply.ok(*[STAFF_QUERY] * 5))) as srv:
        at = _office_app(srv.base_url)
        at.text_input(key="tq_question").set_value(QUESTION).run()
        at.button(key="tq_ask").click().run()
        assert not at.exception, at.exception
        first = at.session_state["tq_run"]
        assert first.answer == [] and first.suggestion is not None
        texts = _texts(at)
        assert "No answer" in texts
        assert "Suggestion — not the answer" in texts
        assert "Not the answer. The question was routed to books.txt" in texts
        assert "Suggested answer (from staff.csv): **Marketing**" in texts
        assert "Its own verdict:" in texts
        assert "Found only in a source not asked" not in texts  # the panel said it already
        assert "limit of" not in texts  # the careless LLM answered each call in full
        assert not at.success  # never green, whatever the suggestion's own verdict
        assert not any("Marketing" in w.value for w in at.warning)  # not an amber answer
        assert "Check before use" not in "\n".join(w.value for w in at.warning)
        assert not at.get("feedback")  # nothing to confirm on a card without an answer
        adopt = at.button(key=f"tq_adopt{first.rid}")
        assert adopt.label.replace("\\", "") == "Ask again over staff.csv"
        adopt.click().run()
        assert not at.exception, at.exception
        run = at.session_state["tq_run"]
        assert run.rid != first.rid and run.sources == ("staff.csv",)
        assert run.answer == ["Marketing"]
        assert run.adopted is not None and run.adopted.from_rid == first.rid
        assert at.multiselect(key="tq_ask_over").value == ["staff.csv"]
        texts = _texts(at)
        assert "You adopted the suggestion of an earlier run: asked again over staff.csv" in texts
        assert "Same answer as suggested." in texts
        labels = list(history_labels(at.session_state["tq_history"]).values())
        assert any("adopted suggestion (staff.csv)" in o for o in labels), labels
        assert any("no answer (suggested: Marketing)" in o for o in labels), labels
        # the next question is a new one: no adoption is carried over to it
        at.text_input(key="tq_question").set_value("who wrote Emma?").run()
        at.button(key="tq_ask").click().run()
        assert at.session_state["tq_run"].adopted is None


def _hostile_panel() -> None:
    from trustuqa_app.views import suggestion_panel
    from trustuqa_core import load_graph
    from trustuqa_core.app_services.runs import execute_text
    from trustuqa_core.app_services.suggestion import SuggestedReason, Suggestion

    g = load_graph(tables=[b"Name\nAnn\n"])
    run = execute_text("", g, None, origin="llm", question="q")
    run.suggestion = Suggestion(("<img src=x onerror=alert(1)>", "**bold**"),
                                ("<b>evil</b>.csv",), ("k.txt",), "check",
                                (SuggestedReason("weak_mapping", "Weak mapping",
                                                 "<script>x</script>"),), "Q", ("weak_mapping",))
    suggestion_panel(run, lambda: None)


def test_the_suggestion_panel_escapes_data() -> None:
    at = AppTest.from_function(_hostile_panel).run()
    assert not at.exception, at.exception
    shown = "\n".join(str(e.value) for kind in ("markdown", "caption") for e in getattr(at, kind))
    assert "<img" not in shown and "<b>" not in shown and "<script>" not in shown
    assert "&lt;img src=x onerror=alert\\(1\\)&gt;" in shown and "\\*\\*bold\\*\\*" in shown
    label = at.button[0].label
    assert "<b>" not in label and "&lt;b&gt;evil&lt;/b&gt;.csv" in label
