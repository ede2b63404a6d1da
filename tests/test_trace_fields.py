"""The question, the writer and the routing a trace records, through to_dict, export and re-run."""

from __future__ import annotations

import json

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.answer import answer
from trustuqa_core.export import (
    ExportError,
    SourceStamp,
    build_record,
    load_record,
    rerun_record,
    to_json,
    to_markdown,
)
from trustuqa_core.recovery import run_with_recovery
from trustuqa_core.trace import ALL_SOURCES, WRITERS, Routing, writer_kind
from trustuqa_core.vote import run
from trustuqa_core.writers import Written

MEDALS = b"Nation,Gold\nItaly,4\nSpain,0\n"
SKIERS = b"Name,Country\nAnn,Austria\nBea,Australia\n"
ITALY = "Query1: \"get_information(relation='Nation', tail_entity='Italy')\""
QUESTION = "which nation is Italy?"


@pytest.fixture(scope="module")
def graph():
    return load_graph(tables=[MEDALS, SKIERS])


def test_trace_records_question_writer_and_the_sources_it_read(graph) -> None:
    t = run_query(ITALY, graph, question=QUESTION, writer="llm:some-model")
    assert (t.question, t.writer) == (QUESTION, "llm:some-model")
    assert t.routing is not None
    assert t.routing.sources == ("table1", "table2") and t.routing.how == ALL_SOURCES
    assert t.routing.used == ("table1",)  # only the medals table was read
    d = t.to_dict()
    assert (d["question"], d["writer"]) == (QUESTION, "llm:some-model")
    assert d["routing"]["sources"] == ["table1", "table2"] and d["routing"]["used"] == ["table1"]
    assert json.loads(t.to_json())["routing"] == d["routing"]


def test_failed_runs_still_say_what_they_were_asked(graph) -> None:
    t = run_query('Query1: "get_information(relation=', graph, question=QUESTION,
                  writer="hand-written")
    assert t.error is not None and t.error.stage == "parse"
    assert (t.question, t.writer, t.routing.used) == (QUESTION, "hand-written", ())
    assert t.to_dict()["routing"]["sources"] == ["table1", "table2"]


def test_unknown_writer_names_are_refused(graph) -> None:
    with pytest.raises(ValueError, match="unknown writer 'gpt'"):
        run_query(ITALY, graph, writer="gpt")
    assert writer_kind("llm:m") == "llm" and set(WRITERS) >= {"llm", "offline", "reference"}


def test_a_given_routing_is_kept_and_its_used_sources_filled(graph) -> None:
    routing = Routing(("table1",), "keyword", scores={"table1": 0.8},
                      evidence={"table1": ("Nation",)})
    t = run_query(ITALY, graph, routing=routing)
    assert t.routing == Routing(("table1",), "keyword", ("table1",), {"table1": 0.8},
                                {"table1": ("Nation",)})


def test_recovery_keeps_question_writer_and_routing() -> None:
    g = load_graph(tables=[b"Name,Nation,Year\nAnn,Austria,1990\nBea,Australia,2000\n"])
    q = ("## Target type: {Name}\n"
         "Query1: \"get_information(relation='Nation', tail_entity='Austrlia')\"\n"
         "Query2: \"get_information(relation='Year', tail_entity='1990')\"\n"
         "Query3: \"set_intersection(set1='output_of_query1', set2='output_of_query2')\"")
    t = run_with_recovery(q, g, question="who is from Austrlia in 1990?", writer="edited")
    assert t.recovery, "the runner-up binding should have been tried"
    assert (t.question, t.writer, t.routing.used) == ("who is from Austrlia in 1990?", "edited",
                                                      ("table1",))


def test_vote_run_and_answer_fill_the_writer(graph) -> None:
    assert run(ITALY, graph, question=QUESTION, writer="offline").writer == "offline"
    a = answer("Which nation won 4 gold medals?", load_graph(tables=[MEDALS]), writer="offline")
    assert a.answer == ["Italy"] and a.trace is not None
    assert (a.trace.question, a.trace.writer) == ("Which nation won 4 gold medals?", a.writer)
    assert a.to_dict()["trace"]["writer"] == "offline"


class _OwnWriter:
    """A Writer object a caller plugs in: it always writes one fixed query."""

    name = "my-sql-writer"

    def write(self, request, n, attempt=0, failed_stage=""):
        return Written([ITALY] * n, "fixed")


def test_a_writer_passed_in_is_recorded_as_custom(graph) -> None:
    a = answer(QUESTION, graph, writer=_OwnWriter())
    assert a.trace is not None and a.error is None
    assert a.trace.writer == "custom:my-sql-writer" and writer_kind(a.trace.writer) == "custom"


def _record(graph, **kw) -> dict:
    t = run_query(ITALY, graph, question=QUESTION, writer="llm:some-model", **kw)
    stamps = [SourceStamp("table1", "table", "ab", 1), SourceStamp("table2", "table", "cd", 1)]
    return build_record(t.to_dict(), question=t.question, sources=stamps, origin="llm")


def test_export_carries_the_fields_and_a_rerun_keeps_them(graph) -> None:
    rec = _record(graph)
    assert rec["writer"] == "llm:some-model" and rec["routing"]["used"] == ["table1"]
    md = to_markdown(rec)
    assert "**Writer:** the LLM \\(some-model\\)" in md
    assert "table1, table2 — all loaded sources; facts read from: table1" in md
    back = load_record(to_json(rec))
    again = rerun_record(back, graph)
    assert again.answer == back["answer"] == ["table1 row 1"]
    assert (again.question, again.writer) == (QUESTION, "llm:some-model")
    assert again.to_dict()["routing"] == rec["routing"]


def test_a_rerun_keeps_a_routed_decision(graph) -> None:
    rec = _record(graph, routing=Routing(("table1",), "keyword", scores={"table1": 0.5}))
    again = rerun_record(load_record(to_json(rec)), graph)
    assert (again.routing.sources, again.routing.how, dict(again.routing.scores)) == (
        ("table1",), "keyword", {"table1": 0.5})


@pytest.mark.parametrize(("field", "value", "problem"), [
    ("writer", "someone", "unknown writer 'someone'"),
    ("routing", {"sources": "table1"}, "'sources' must be a list"),
    ("routing", {"sources": [], "scores": {"a": "high"}}, "'scores' must map"),
])
def test_bad_exported_fields_are_named(graph, field, value, problem) -> None:
    rec = load_record(to_json({**_record(graph), field: value}))
    with pytest.raises(ExportError, match=problem):
        rerun_record(rec, graph)
