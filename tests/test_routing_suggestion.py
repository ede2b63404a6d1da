"""Stop 19: after the routed attempt finds nothing, an answer the fallback reads from a source
the question was not routed to is a suggestion, not the answer (issue 13).

Made data: a staff table, a books KG and a politics TKG loaded together; the writer is fixed
(it writes the same query whatever the sources, as a careless LLM might).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import FixedWriter, office_files, office_graph_of

from trustuqa_core import answer
from trustuqa_core.answer import unrouted_sources
from trustuqa_core.cli import main

STAFF = b"""Name,Department,Office
Alice Moreau,Finance,B12
Chen Wei,Marketing,A07
"""
BOOKS = b"""Dune|written_by|Frank Herbert
Emma|written_by|Jane Austen
"""
POLITICS = (b"Angela Merkel\tposition held\tChancellor of Germany\t2005\t2021\n"
            b"Helmut Kohl\tposition held\tChancellor of Germany\t1982\t1998\n")
STAFF_QUERY = ('Query1: "get_information(relation=\'Name\', tail_entity=\'Chen Wei\')"\n'
               'Query2: "get_information(relation=\'Department\', '
               'head_entity=\'output_of_query1\')"')


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return office_files(tmp_path_factory.mktemp("three"), STAFF, BOOKS, POLITICS)


@pytest.fixture(scope="module")
def graph(files: Path):  # type: ignore[no-untyped-def]
    return office_graph_of(files)


def test_an_answer_from_a_source_not_routed_to_is_a_suggestion(graph) -> None:
    a = answer("who wrote Dune?", graph, writer=FixedWriter(STAFF_QUERY), n=1, retries=0)
    assert a.routing is not None and a.routing.sources == ("books.txt",)
    assert a.answer == []
    assert a.verdict is not None and a.verdict.label == "no answer"
    reason = next(r for r in a.verdict.reasons if r.code == "unrouted_source")
    assert reason.arg == "staff.csv"
    assert "routed to books.txt: the query found nothing there" in reason.message
    assert "'Marketing' from staff.csv" in reason.message
    assert a.error is not None and "shown as a suggestion" in a.error
    assert a.warnings[0] == reason.message
    # the suggestion keeps the fallback's whole answer, trace and verdict
    assert a.suggestion is not None and a.suggestion.answer == ["Marketing"]
    assert unrouted_sources(a.suggestion, a.routing) == ["staff.csv"]
    d = a.to_dict()
    assert d["answer"] == [] and d["verdict"] == "no answer"
    assert d["suggestion"]["answer"] == ["Marketing"]
    assert d["suggestion"]["sources"] == ["staff.csv"]
    assert "Name" in d["suggestion"]["query"]
    # the answer's routing is the routed attempt's: the question's decision
    assert d["routing"]["sources"] == ["books.txt"]


def test_a_routed_answer_has_no_suggestion(graph) -> None:
    a = answer("who wrote Dune?", graph, writer="offline")
    assert a.answer == ["Frank Herbert"] and a.suggestion is None
    assert a.to_dict()["suggestion"] is None


def test_ask_json_has_the_suggestion_key(files: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "--table", str(files / "staff.csv"), "--kg", str(files / "books.txt"),
                 "--tkg", str(files / "politics.tsv"), "--writer", "offline", "--json",
                 "--question", "which department is chen wei in?"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["answer"] == ["Marketing"] and out["suggestion"] is None
