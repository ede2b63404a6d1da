"""The Data page reads database files and RDF uploads (issue #15): a SQLite file gives one
source per table, a Turtle file a KG, a Parquet file a table — each answers a question."""

from __future__ import annotations

import sqlite3

import duckdb

from trustuqa_core.answer import answer
from trustuqa_core.app_services.data import Upload, guess_kind, load_all
from trustuqa_core.app_services.routing_view import routing_view

TURTLE = b"""@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:dune ex:written_by ex:herbert .
ex:dune rdfs:label "Dune" .
ex:herbert rdfs:label "Frank Herbert" .
"""


def _sqlite_bytes(tmp_path) -> bytes:
    path = tmp_path / "shop.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("create table staff (name text, city text, salary integer)")
        db.executemany("insert into staff values (?, ?, ?)",
                       [("Ann", "Berlin", 50), ("Bob", "Paris", 70)])
        db.execute("create table cities (city text, country text)")
        db.execute("insert into cities values ('Berlin', 'Germany')")
    return path.read_bytes()


def test_a_sqlite_upload_gives_one_source_per_table_and_answers(tmp_path) -> None:
    up = Upload("shop.sqlite", guess_kind("shop.sqlite"), _sqlite_bytes(tmp_path))
    report = load_all([up])
    assert not report.errors
    assert sorted(f.name for f in report.facts) == ["shop.sqlite:cities", "shop.sqlite:staff"]
    got = answer("Which city is Bob in?", report.graph, writer="offline")
    assert got.answer == ["Paris"]


def test_a_turtle_upload_is_a_kg_that_answers(tmp_path) -> None:
    assert guess_kind("books.ttl") == "kg"
    report = load_all([Upload("books.ttl", "kg", TURTLE)])
    assert not report.errors and report.facts[0].kind == "kg"
    assert answer("who wrote Dune?", report.graph, writer="offline").answer == ["Frank Herbert"]


def test_a_parquet_upload_is_a_table_that_answers(tmp_path) -> None:
    path = tmp_path / "sales.parquet"
    duckdb.sql("select * from (values ('North', 12), ('South', 30)) t(region, units)") \
        .write_parquet(str(path))
    report = load_all([Upload("sales.parquet", guess_kind("sales.parquet"), path.read_bytes())])
    assert not report.errors
    assert answer("How many units did South sell?", report.graph,
                  writer="offline").answer == ["30"]


def test_the_ask_page_says_which_source_a_question_was_asked_of(tmp_path) -> None:
    report = load_all([Upload("shop.sqlite", "table", _sqlite_bytes(tmp_path)),
                       Upload("books.ttl", "kg", TURTLE)])
    got = answer("who wrote Dune?", report.graph, writer="offline")
    assert got.answer == ["Frank Herbert"] and got.trace is not None
    view = routing_view(got.trace)
    assert view is not None
    assert view.line.startswith("Asked of: books.ttl — ") and "facts read from: books.ttl" in view.line
    assert any(e.startswith("books.ttl: ") for e in view.question)


def test_a_database_upload_stays_loaded_under_its_file_name(tmp_path) -> None:
    """The Data page keeps the uploads that gave sources: a SQLite file gives sources named
    after its tables (``shop.sqlite:staff``), and must still count as loaded."""
    from trustuqa_core.app_services.data import loaded_uploads

    ups = [Upload("shop.sqlite", "table", _sqlite_bytes(tmp_path)),
           Upload("bad.tsv", "kg", b"a\tb\n")]
    report = load_all(ups)
    assert [u.name for u in loaded_uploads(ups, report)] == ["shop.sqlite"]
