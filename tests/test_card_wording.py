"""Wording fixes found walking through the app in a browser (issues 11 and 13, item 4): the
routing caption explains a fractional count of arguments, and a no-answer card does not say
"no query was written: no query could be written"."""

from __future__ import annotations

from pathlib import Path

from trustuqa_core import answer, load_graph
from trustuqa_core.app_services.routing_view import HALF_NOTE, routing_view, with_half_note
from trustuqa_core.app_services.run_tables import as_sentence, writer_error_line

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def test_a_fractional_argument_count_is_explained_and_a_whole_one_is_not() -> None:
    assert with_half_note("0.5 of its 2 arguments map exactly there").endswith(
        f"(Counting: {HALF_NOTE}.)")
    assert with_half_note("2 of its 2 arguments map exactly there") == \
        "2 of its 2 arguments map exactly there"
    assert with_half_note("ranked 1.5 of 3") == "ranked 1.5 of 3"  # not an argument count


def test_the_samples_routing_caption_explains_half_an_argument() -> None:
    g = load_graph(tables=[SAMPLES / "giant_slalom.csv"], kgs=[SAMPLES / "movies_kg.txt"])
    a = answer("who directed Inception?", g, writer="offline")
    assert a.answer == ["Christopher Nolan"] and a.trace is not None
    view = routing_view(a.trace)
    assert view is not None and view.by_query is not None
    assert "1.5 of the query's 3 arguments" in view.by_query
    assert view.by_query.endswith(f"(Counting: {HALF_NOTE}.)")


def test_the_writer_error_line_says_it_once() -> None:
    assert writer_error_line("no query could be written for this question") == \
        "No query was written for this question."
    assert writer_error_line("the query writer failed: timeout") == \
        "No query was written: the query writer failed: timeout."


def test_the_writer_error_line_leaves_the_advice_to_what_to_try() -> None:
    g = load_graph(tables=[SAMPLES / "giant_slalom.csv"], kgs=[SAMPLES / "movies_kg.txt"])
    a = answer("who directed Titanic?", g, writer="offline")
    assert a.answer == [] and a.error is not None and "override a mapping" in a.error
    line = writer_error_line(a.error)
    assert line.startswith("No query was written: could not link 'Titanic'")
    assert "override a mapping" not in line and line.endswith(".")


def test_a_core_warning_reads_as_a_sentence() -> None:
    assert as_sentence("tried again over all loaded sources: no answer there either") == \
        "Tried again over all loaded sources: no answer there either."
    assert as_sentence("Done.") == "Done."
