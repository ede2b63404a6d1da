"""Run export (JSON / Markdown / CSV) and re-run of an exported run (trustuqa_core.export)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from trustuqa_core import build_graph, load_graph, load_source, run_query
from trustuqa_core.export import (
    FORMAT,
    ExportError,
    SourceStamp,
    build_record,
    compare_sources,
    defuse_cell,
    fingerprint,
    load_record,
    md_escape,
    to_csv,
    to_json,
    to_markdown,
)

EVIL = "<script>alert(1)</script>"
TABLE = f"Name,Note\n{EVIL},# heading\n=cmd|' /C calc'!A0,1. item\n".encode()
QUERY = ("Query1: \"get_information(relation='row_number', tail_entity<='2')\"\n"
         "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"")


@pytest.fixture(scope="module")
def record() -> dict:
    g = build_graph([load_source(TABLE, "table", "evil.csv")])
    trace = run_query(QUERY, g)
    stamp = SourceStamp("evil.csv", "table", fingerprint(TABLE), len(TABLE))
    return build_record(trace.to_dict(), question="who? ```` ` $x$", sources=[stamp],
                        overrides={"Q1.relation": "row_number"}, origin="hand-written",
                        prompt=[{"role": "user", "content": "schema ```` only sk-SECRET-123"}],
                        samples=[{"query": QUERY, "answer": [EVIL], "status": "answered"}],
                        confidence=1.0, model="m")


def test_record_holds_the_whole_run(record: dict) -> None:
    assert record["format"] == FORMAT and record["answer"] == [EVIL, "=cmd|' /C calc'!A0"]
    trace = record["trace"]
    assert [s["number"] for s in trace["steps"]] == [1, 2]
    step = trace["steps"][1]
    assert step["ops"] and step["mappings"][0]["key"] == "Q2.relation"
    assert step["elements"][0]["witnesses"] and step["evidence"][0]["source"] == "evil.csv"
    assert trace["answer_provenance"][0]["evidence"][0]["number"] == 1
    assert record["prompt"][0]["role"] == "user" and record["samples"][0]["status"] == "answered"


def test_json_round_trip_and_secret_redaction(record: dict) -> None:
    text = to_json(record, secrets=["sk-SECRET-123"])
    assert "sk-SECRET-123" not in text and "***" in text
    back = load_record(text)
    assert back["query"] == QUERY and back["overrides"] == {"Q1.relation": "row_number"}


def test_markdown_escapes_data_strings(record: dict) -> None:
    md = to_markdown(record, secrets=["sk-SECRET-123"])
    assert EVIL not in md and "&lt;script&gt;" in md
    assert "sk-SECRET-123" not in md
    assert not any(line.startswith("# heading") for line in md.splitlines())
    assert "\\$x\\$" in md
    assert "`````\n" in md  # the prompt's four backticks cannot close its code fence
    assert "who? \\`\\`" in md
    assert md.startswith("# TrustUQA run report")
    for heading in ("## Query", "## Mappings", "## Steps", "## Answer provenance",
                    "## What the LLM saw"):
        assert heading in md


def test_markdown_table_cells_cannot_break_the_table() -> None:
    assert md_escape("a|b\nc") == "a\\|b c"
    assert md_escape("- item").startswith("\\-")
    assert md_escape("2. x").startswith("2\\.")


def test_csv_defuses_formulas() -> None:
    text = to_csv([{"a": "=SUM(A1)", "b": "+cmd", "c": "-3", "d": "@x", "e": "\tz"}])
    row = next(csv.DictReader(io.StringIO(text)))
    assert row == {"a": "'=SUM(A1)", "b": "'+cmd", "c": "-3", "d": "'@x", "e": "'\tz"}
    assert defuse_cell(None) == ""


@pytest.mark.parametrize(("data", "problem"), [
    (b"{", "not valid JSON"),
    (b"[]", "not a TrustUQA run export"),
    (json.dumps({"format": FORMAT, "version": 99, "query": "q"}).encode(), "version"),
    (json.dumps({"format": FORMAT, "version": 1, "query": " "}).encode(), "no query"),
    (json.dumps({"format": FORMAT, "version": 1, "query": "q", "overrides": {"a": 1}}).encode(),
     "overrides"),
    (b"\xff\xfe", "UTF-8"),
])
def test_bad_exports_are_rejected(data: bytes, problem: str) -> None:
    with pytest.raises(ExportError, match=problem):
        load_record(data)


def test_compare_sources_names_every_difference() -> None:
    a, b = SourceStamp("a.csv", "table", "1", 1), SourceStamp("b.txt", "kg", "2", 1)
    changed = SourceStamp("a.csv", "table", "9", 1)
    assert compare_sources([a.to_dict(), b.to_dict()], [a, b]) == []
    diffs = compare_sources([a.to_dict(), b.to_dict()], [changed, SourceStamp("c", "kg", "3", 1)])
    assert diffs == ["a.csv: the loaded file has different content",
                     "b.txt: used by the exported run but not loaded now",
                     "c: loaded now but not used by the exported run"]


def test_exported_run_re_runs_to_the_same_answer(record: dict) -> None:
    back = load_record(to_json(record))
    g = build_graph([load_source(TABLE, "table", "evil.csv")])
    again = run_query(back["query"], g)
    assert again.answer == back["answer"]


def test_the_markdown_report_names_the_writer_in_words_once() -> None:
    """Walk-through ux8: the report said "Query written by: offline" (the raw origin), then
    "Writer: the offline writer"; its mapping table had a column without a header; a step of
    one element said "1 elements"."""
    g = load_graph(tables=[b"Name,Nation\nAnn,Italy\nBob,Spain\n"])
    t = run_query("Query1: \"get_information(relation='Nation', tail_entity='Italy')\"", g,
                  writer="offline")
    md = to_markdown(build_record(t.to_dict(), question="who is italian?", sources=[],
                                  origin="offline"))
    assert "- **Query written by:** the offline writer" in md
    assert "**Writer:**" not in md  # the same words: said once
    assert "| margin | weak? |" in md and "| margin |  |" not in md
    assert "Output (1 element, 1 distinct)" in md
