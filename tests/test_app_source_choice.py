"""Asking over the sources the user chooses (issues 11 and 13, item 4): the service
(``ask(..., sources=)``, re-runs and exports keeping the choice) and the Ask page (the "Ask
over" control, the "Answer over <source> only" buttons of a ``source_unsure`` card, the
reasons as the card words them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core.answer import answer
from trustuqa_core.app_services.ask import ask
from trustuqa_core.app_services.card_reasons import reason_line
from trustuqa_core.app_services.runs import imported_run, record_of, rerun
from trustuqa_core.app_services.source_choice import choice_text, unsure_sources
from trustuqa_core.errors import UsageError
from trustuqa_core.graph import build_graph
from trustuqa_core.store import GraphStore
from trustuqa_core.translate import load_source

R22 = b"Name,Team,Season\nAnn Lee,Reds,2022\nBo Park,Blues,2022\nCy Dunn,Greens,2022\n"
R23 = b"Name,Team,Season\nDee Fox,Reds,2023\nEd Moss,Blues,2023\nFay Hill,Blues,2023\n"
NAMES = ["roster_2022.csv", "roster_2023.csv"]
QUESTION = "how many players do the Reds have?"
WHO = ("Query1: \"get_information(relation='Team', tail_entity='Reds')\"\n"
       "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"")
APP = str(Path(__file__).resolve().parents[1] / "app.py")


@pytest.fixture(scope="module")
def rosters() -> GraphStore:
    return build_graph([load_source(R22, "table", NAMES[0]), load_source(R23, "table", NAMES[1])])


def test_over_both_rosters_the_answer_is_check_with_source_unsure(rosters: GraphStore) -> None:
    a = answer(QUESTION, rosters, writer="offline")
    assert a.answer == ["2"] and a.verdict is not None and a.verdict.label == "check"
    assert "source_unsure" in a.verdict.blocking
    run, _ = ask(QUESTION, rosters, None, loaded=set(NAMES))
    assert run is not None and run.sources is None and run.answer == ["2"]
    assert unsure_sources(run, run.trace.verdict, NAMES) == NAMES


def test_asked_over_one_roster_only_that_roster_answers(rosters: GraphStore) -> None:
    run, _ = ask(QUESTION, rosters, None, loaded=set(NAMES), sources=[NAMES[1]])
    assert run is not None and run.sources == (NAMES[1],)
    assert run.answer == ["1"]
    assert [s.name for s in run.trace.graph.sources] == [NAMES[1]]
    assert "source_unsure" not in run.trace.verdict.codes
    assert unsure_sources(run, run.trace.verdict, NAMES) == []
    text = choice_text(run, NAMES)
    assert text is not None and text.startswith("Asked over roster_2023.csv only (your choice)")
    assert "left out: roster_2022.csv" in text


def test_every_source_chosen_is_the_same_as_no_choice(rosters: GraphStore) -> None:
    run, _ = ask(QUESTION, rosters, None, loaded=set(NAMES), sources=NAMES)
    assert run is not None and run.sources is None and run.answer == ["2"]


def test_re_runs_stay_over_the_chosen_source(rosters: GraphStore) -> None:
    run, _ = ask(QUESTION, rosters, None, loaded=set(NAMES), sources=[NAMES[0]])
    assert run is not None
    edited = rerun(run, rosters, None, query=WHO, origin="edited", overrides={})
    assert edited.sources == (NAMES[0],) and edited.answer == ["Ann Lee"]  # not Dee Fox
    overridden = rerun(edited, rosters, None, overrides={"Q1.tail_entity": "Blues"})
    assert overridden.sources == (NAMES[0],) and overridden.answer == ["Bo Park"]
    record = json.loads(json.dumps(record_of(overridden, [])))
    assert record["asked_over"] == [NAMES[0]]
    again = imported_run(record, [], rosters, None)
    assert again.sources == (NAMES[0],) and again.answer == ["Bo Park"]


def test_a_chosen_source_that_is_not_loaded_is_said(rosters: GraphStore) -> None:
    with pytest.raises(UsageError, match="gone.csv"):
        ask(QUESTION, rosters, None, loaded=set(NAMES), sources=["gone.csv"])
    run, _ = ask(QUESTION, rosters, None, loaded=set(NAMES), sources=[NAMES[0]])
    assert run is not None
    other = build_graph([load_source(R23, "table", NAMES[1]),
                         load_source(R22, "table", "roster_2024.csv")])
    stale = rerun(run, other, None, overrides={})
    assert stale.trace.error is not None and "roster_2022.csv" in stale.trace.error.message
    assert not stale.answer


def test_reason_lines_do_not_repeat_what_the_message_says() -> None:
    from trustuqa_core.verdict import Reason

    unsure = reason_line(Reason("source_unsure", "the answer reads a.csv and b.csv together",
                                None, "a.csv, b.csv"))
    assert (unsure.title, unsure.where) == ("Source unclear", "")
    weak = reason_line(Reason("weak_mapping", "'USA' maps to 'Austria'", 2, "Q2.tail_entity"))
    assert weak.where == "Query2 · Q2.tail_entity"


# ------------------------------------------------------------------ the Ask page (AppTest)
def _loaded_app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.file_uploader(key="tq_upload").set_value(
        [(NAMES[0], R22, "text/csv"), (NAMES[1], R23, "text/csv")]).run()
    at.button(key="tq_upload_go").click().run()
    at.switch_page("pages/2_Ask.py").run()
    return at


def _warnings(at: AppTest) -> str:
    return "\n".join(w.value for w in at.warning).replace("\\", "")


def test_the_ask_page_answers_over_the_source_the_user_picks_on_the_card() -> None:
    at = _loaded_app()
    assert at.multiselect(key="tq_ask_over").value == []
    at.text_input(key="tq_question").set_value(QUESTION).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    run = at.session_state["tq_run"]
    assert run.answer == ["2"] and run.sources is None
    card = _warnings(at)
    assert "Check before use" in card and "**Source unclear**" in card
    assert "roster_2022.csv and roster_2023.csv together" in card
    over = [b for b in at.button if b.label.replace("\\", "").startswith("Answer over ")]
    assert [b.label.replace("\\", "") for b in over] == [
        "Answer over roster_2022.csv only", "Answer over roster_2023.csv only"]
    over[0].click().run()
    assert not at.exception, at.exception
    run = at.session_state["tq_run"]
    assert run.sources == (NAMES[0],) and run.answer == ["1"]
    assert at.multiselect(key="tq_ask_over").value == [NAMES[0]]  # the control says so too
    captions = [c.value.replace("\\", "") for c in at.caption]
    assert any("Asked over roster_2022.csv only (your choice); left out: roster_2023.csv"
               in c for c in captions), captions
    assert not [b for b in at.button if b.label.replace("\\", "").startswith("Answer over ")]

    # an edited query, re-run from the page, stays over roster_2022.csv
    at.text_area(key=f"tq_q{run.rid}_text").set_value(WHO).run()
    at.button(key=f"tq_q{run.rid}_btn").click().run()
    assert not at.exception, at.exception
    edited = at.session_state["tq_run"]
    assert edited.rid != run.rid and edited.origin == "edited"
    assert edited.sources == (NAMES[0],) and edited.answer == ["Ann Lee"]


def test_the_ask_over_control_restricts_the_next_question() -> None:
    at = _loaded_app()
    at.multiselect(key="tq_ask_over").set_value([NAMES[1]]).run()
    at.text_input(key="tq_question").set_value(QUESTION).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    run = at.session_state["tq_run"]
    assert run.sources == (NAMES[1],) and run.answer == ["1"]
    rows = {r for s in run.trace.steps for f in s.output.all_witnesses()
            for r in [str(run.trace.graph.provenance(f))]}
    assert rows and all(NAMES[1] in r for r in rows), rows


def test_a_calibrated_check_card_reads_with_titles_and_no_repeated_words() -> None:
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    table = b"Nation,Gold,Silver\nItaly,4,1\nSpain,0,3\nFrance,2,2\n"
    at.file_uploader(key="tq_upload").set_value([("medals.csv", table, "text/csv")]).run()
    at.button(key="tq_upload_go").click().run()
    at.switch_page("pages/2_Ask.py").run()
    assert not at.multiselect  # one source: no "Ask over" control
    at.text_input(key="tq_question").set_value(
        "which nation with 4 gold has snowy mountain peaks and rivers?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    card = _warnings(at)
    assert "**Rarely right with this evidence**: answers with this evidence" in card, card
    assert "were right about" in card and "needed)" in card
    assert "**Words the query leaves out**: no part of the query accounts for" in card
    assert "(snowy, mountain" not in card  # the words are in the message, not repeated


def test_source_names_on_the_card_are_escaped() -> None:
    """A file name holding Markdown is shown as written: escaped on the card's line and on
    the "Answer over" buttons, never rendered as a link or emphasis."""
    odd = ["*bold*_[x](http://e.example).csv", "<b>2023</b>.csv"]
    at = AppTest.from_file(APP, default_timeout=90)
    at.run()
    at.file_uploader(key="tq_upload").set_value(
        [(odd[0], R22, "text/csv"), (odd[1], R23, "text/csv")]).run()
    at.button(key="tq_upload_go").click().run()
    at.switch_page("pages/2_Ask.py").run()
    loaded = list(at.session_state["tq_sources"])
    names = [u.name for u in loaded]
    at.text_input(key="tq_question").set_value(QUESTION).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    over = [b.label for b in at.button if b.label.startswith("Answer over ")]
    # the address gets a zero-width space where Markdown would autolink it (ux9)
    assert over == ["Answer over \\*bold\\*\\_\\[x\\]\\(http:\u200b//e.example\\).csv only",
                    "Answer over &lt;b&gt;2023&lt;/b&gt;.csv only"], over
    over_keys = [b.key for b in at.button if b.label.startswith("Answer over ")]
    at.button(key=over_keys[0]).click().run()
    run = at.session_state["tq_run"]
    assert run.sources == (names[0],)
    line = next(c.value for c in at.caption if "your choice" in c.value)
    assert "\\*bold\\*" in line and "\\[x\\]" in line, line
