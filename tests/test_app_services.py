"""The app's Streamlit-free services (``trustuqa_core.app_services``): the rows the Ask page
shows about a run, re-running an exported run, the Evaluate page's numbers, the settings."""

from __future__ import annotations

import math

import pytest

from trustuqa_core import load_graph
from trustuqa_core.app_services.benchmark_slice import (
    category_counts,
    median_seconds,
    seconds_by_question,
)
from trustuqa_core.app_services.data import Upload, unique_names
from trustuqa_core.app_services.page_settings import AppSettings
from trustuqa_core.app_services.run_tables import (
    element_rows,
    evidence_table_rows,
    provenance_rows,
    query_label,
    run_verdict,
)
from trustuqa_core.app_services.runs import execute_text, imported_run
from trustuqa_core.app_services.samples import question_match_key
from trustuqa_core.evaluate.outcome import Outcome
from trustuqa_core.graph import ConditionGraph

_ITALY = "Query1: \"get_information(relation='Nation', tail_entity='Italy')\""
_COUNT = _ITALY + "\nQuery2: \"count(set='output_of_query1')\""


@pytest.fixture
def graph() -> ConditionGraph:
    return load_graph(tables=[b"Name,Nation\nAnn,Italy\nBob,Spain\nCid,Italy\n"])


def test_element_rows_name_each_element_and_its_witnesses(graph: ConditionGraph) -> None:
    run = execute_text(_ITALY, graph, None, origin="hand-written")
    rows = element_rows(run.trace, run.trace.steps[0])
    assert [r["element"] for r in rows] == ["table1 row 1", "table1 row 3"]
    assert {r["kind"] for r in rows} == {"row"}
    assert all(r["witness facts"] >= 1 for r in rows)
    assert all("Nation = Italy" in r["because of"] for r in rows)


def test_a_computed_element_is_marked_computed(graph: ConditionGraph) -> None:
    run = execute_text(_COUNT, graph, None, origin="hand-written")
    rows = element_rows(run.trace, run.trace.steps[1])
    assert [(r["element"], r["kind"]) for r in rows] == [("2", "computed")]


def test_evidence_rows_put_the_place_in_one_column(graph: ConditionGraph) -> None:
    run = execute_text(_ITALY, graph, None, origin="hand-written")
    facts = run.trace.steps[0].output.all_witnesses()
    rows = evidence_table_rows(run.trace, facts)
    assert len(rows) == len(facts)
    for r in rows:
        assert "fact" not in r and "source" not in r and "unit" not in r
        assert r["where"].startswith("table1 ")


def test_provenance_rows_keep_each_fact_once_and_mark_computed_values() -> None:
    fact = {"fact": 7, "head": "row 1", "relation": "Nation", "tail": "Italy",
            "source": "t.csv", "unit": "row", "number": 1}
    rows = provenance_rows([{"answer": "Ann", "evidence": [fact, dict(fact)]},
                            {"answer": "3", "evidence": []}])
    assert rows == [
        {"answer": "Ann", "head": "row 1", "relation": "Nation", "tail": "Italy",
         "source": "t.csv", "row / line": "row 1"},
        {"answer": "3", "head": "", "relation": "(computed value)", "tail": "", "source": "",
         "row / line": ""},
    ]


def test_run_verdict_of_a_writer_that_wrote_nothing_is_no_answer(
        graph: ConditionGraph) -> None:
    run = execute_text(_ITALY, graph, None, origin="llm", question="who is Italian?")
    assert run_verdict(run).label != "no answer"
    run.writer_error = "the LLM was unreachable"
    assert run_verdict(run).label == "no answer"


def test_query_label_names_who_wrote_it() -> None:
    assert "offline writer" in query_label("offline")
    assert "something new" in query_label("something new")


def test_an_imported_run_on_other_data_says_so(graph: ConditionGraph) -> None:
    record = {"query": _ITALY, "overrides": {}, "question": "who is Italian?",
              "answer": ["table1 row 1"]}
    run = imported_run(record, ["t.csv: different content"], graph, None)
    assert run.origin == "imported" and run.question == "who is Italian?"
    assert "identical" not in run.note
    assert "The exported answer was: table1 row 1." in run.note
    assert run.warnings and "t.csv: different content" in run.warnings[0]


def test_unique_names_number_the_repeats_and_keep_the_data() -> None:
    items = [Upload("a.csv", "table", b"1"), Upload("a.csv", "kg", b"2"),
             Upload("a.csv", "table", b"3")]
    out = unique_names(items)
    assert [(u.name, u.kind, u.data) for u in out] == [
        ("a.csv", "table", b"1"), ("a.csv (2)", "kg", b"2"), ("a.csv (3)", "table", b"3")]


def _outcome(key: str, category: str, seconds: float) -> Outcome:
    o = Outcome(key, "wtq", "q?", category == "correct", category, [], [], seconds)
    o.id = key
    return o


def test_evaluate_page_numbers() -> None:
    outs = [_outcome("a", "correct", 0.5), _outcome("b", "wrong", 0.1234),
            _outcome("c", "correct", 2.0)]
    assert category_counts(outs) == {"correct": 2, "wrong": 1}
    assert list(category_counts(outs)) == ["correct", "wrong"]  # most frequent first
    assert seconds_by_question(outs) == {"a": 0.5, "b": 0.1234, "c": 2.0}  # not rounded to ms
    assert median_seconds(outs) == 0.5
    assert math.isnan(median_seconds([]))


def test_settings_send_only_the_llm_fields() -> None:
    s = AppSettings(writer="llm", base_url="http://x/v1", model="m", n=3, temperature=0.2,
                    k=2, privacy=False)
    assert s.llm_fields() == {"base_url": "http://x/v1", "model": "m", "n": 3,
                              "temperature": 0.2}


def test_question_match_key_ignores_accents_case_and_punctuation() -> None:
    assert question_match_key("Qui a gagné à Sölden ?") == "qui a gagne a solden"
    assert question_match_key("who won") != question_match_key("who lost")


def test_a_run_records_who_wrote_its_query_on_the_trace(graph: ConditionGraph) -> None:
    q = "Query1: \"get_information(relation='Nation', tail_entity='Italy')\""
    run = execute_text(q, graph, None, origin="hand-written", question="who is from Italy?")
    assert (run.trace.writer, run.trace.question) == ("hand-written", "who is from Italy?")
    assert run.trace.to_dict()["writer"] == "hand-written"
