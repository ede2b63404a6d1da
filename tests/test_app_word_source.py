"""A ``word_of_other_source`` card offers "Ask over <source> only" (issues 11 and 13, item 4):
the service names the source a question word points to, the card says what the click does,
and after the click the run is over that source, which the card, the history and the exports
say was the user's choice.

Made data: the staff table, books KG and politics TKG of ``tests/test_routing.py``; offline
writer: "who wrote Chen Wei?" is answered 'Marketing' from the staff table while *wrote*
names the books KG's ``written_by``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import office_files, office_graph_of
from streamlit.testing.v1 import AppTest
from test_routing import BOOKS, POLITICS, STAFF

from trustuqa_core.app_services.ask import ask
from trustuqa_core.app_services.history import history_labels
from trustuqa_core.app_services.run_tables import run_verdict
from trustuqa_core.app_services.runs import record_of
from trustuqa_core.app_services.source_choice import (
    WordSource,
    choice_markdown,
    word_source_line,
    word_sources,
)
from trustuqa_core.store import GraphStore

QUESTION = "who wrote Chen Wei?"
NAMES = {"staff.csv", "books.txt", "politics.tsv"}
APP = str(Path(__file__).resolve().parents[1] / "app.py")


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> GraphStore:
    return office_graph_of(office_files(tmp_path_factory.mktemp("word"), STAFF, BOOKS,
                                        POLITICS))


def test_the_service_names_the_source_the_word_points_to(office: GraphStore) -> None:
    run, _ = ask(QUESTION, office, None, loaded=NAMES, writer="offline")
    assert run is not None and run.answer == ["Marketing"]
    verdict = run_verdict(run)
    assert verdict.label == "check" and "word_of_other_source" in verdict.codes
    offers = word_sources(run, verdict, office)
    # books.txt holds no 'Chen Wei' (the staff table does): the offer says so (ux9)
    assert offers == [WordSource("books.txt", ("wrote",), ("Chen Wei",))]
    line = word_source_line(offers[0])
    assert line.startswith("books.txt, the source 'wrote' points to, has nothing named "
                           "'Chen Wei': asked over it alone, the question will likely find no "
                           "answer")


def test_no_offer_without_the_reason_or_once_one_source_is_chosen(office: GraphStore) -> None:
    right, _ = ask("who wrote Dune?", office, None, loaded=NAMES, writer="offline")
    assert right is not None and right.answer == ["Frank Herbert"]
    assert word_sources(right, run_verdict(right), office) == []
    chosen, _ = ask(QUESTION, office, None, loaded=NAMES, writer="offline",
                    sources=["staff.csv"])
    assert chosen is not None and chosen.sources == ("staff.csv",)
    assert word_sources(chosen, run_verdict(chosen), office) == []


def test_two_words_pointing_to_one_source_are_named_together() -> None:
    offer = WordSource("staff.csv", ("department", "office"))
    assert word_source_line(offer).startswith(
        "To answer from staff.csv, the source 'department' and 'office' point to:")


def _texts(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "warning", "info")
                     for e in getattr(at, kind)).replace("\\", "")


def test_the_card_offers_ask_over_the_other_source_and_records_the_choice() -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.file_uploader(key="tq_upload").set_value(
        [("staff.csv", STAFF, "text/csv"), ("books.txt", BOOKS, "text/plain"),
         ("politics.tsv", POLITICS, "text/plain")]).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception, at.exception
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value(QUESTION).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    first = at.session_state["tq_run"]
    assert first.answer == ["Marketing"] and first.sources is None
    texts = _texts(at)
    assert "Check before use" in texts and "**A word points to another source**" in texts
    assert ("'wrote' names a relation of books.txt, but the answer was read from staff.csv"
            in texts), texts  # the reason says which word names what
    assert ("books.txt, the source 'wrote' points to, has nothing named 'Chen Wei': asked "
            "over it alone, the question will likely find no answer" in texts), texts
    button = at.button(key=f"tq_word{first.rid}_0")
    assert button.label.replace("\\", "") == "Ask over books.txt only"
    button.click().run()
    assert not at.exception, at.exception
    run = at.session_state["tq_run"]
    assert run.rid != first.rid and run.question == QUESTION
    assert run.sources == ("books.txt",)
    assert at.multiselect(key="tq_ask_over").value == ["books.txt"]
    texts = _texts(at)
    assert "Asked over books.txt only (your choice); left out: staff.csv, politics.tsv" in texts
    assert not [b for b in at.button if b.key and b.key.startswith(f"tq_word{run.rid}")]
    labels = history_labels(at.session_state["tq_history"])
    assert labels[run.rid].endswith(" · over books.txt (your choice)"), labels
    assert "your choice" not in labels[first.rid]
    record = record_of(run, [])
    assert record["asked_over"] == ["books.txt"]
    assert "Asked over books.txt only: the user's choice" in choice_markdown(record)
    assert choice_markdown(record_of(first, [])) == ""

    # over books.txt alone nothing answers: the no-answer card offers every source again
    assert run.answer == []
    assert 'ask over every loaded source (your choice left out all but books.txt' in texts
    assert "'Chen Wei' is not a value of books.txt (the source you asked over)" in texts
    assert "is not a value of the loaded data" not in texts
    back = at.button(key=f"tq_all{run.rid}")
    assert back.label == "Ask over all loaded sources"
    back.click().run()
    assert not at.exception, at.exception
    again = at.session_state["tq_run"]
    assert again.rid != run.rid and again.sources is None and again.answer == ["Marketing"]
    assert at.multiselect(key="tq_ask_over").value == []
    assert "(your choice)" not in _texts(at)
