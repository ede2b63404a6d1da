"""Source routing (issue 13): several sources loaded, each question about one of them.

The data are made here (a staff table, a books KG, a politics TKG) plus the bundled samples
(comedy ranking, movie KG, careers TKG) loaded together.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import FixedWriter, office_files, office_graph_of

from trustuqa_core import answer, load_graph
from trustuqa_core.cli import main
from trustuqa_core.graph import build_graph
from trustuqa_core.llm.prompts import describe_schema
from trustuqa_core.routing import UNSURE_RATIO, route
from trustuqa_core.sources import SourceFacts
from trustuqa_core.subgraph import restrict, source_indices
from trustuqa_core.trace import ALL_SOURCES
from trustuqa_core.writers.base import WriteRequest, Written

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"

STAFF = b"""Name,Department,Office,Start year
Alice Moreau,Finance,B12,2015
Brian Okafor,Engineering,C03,2018
Chen Wei,Marketing,A07,2012
Dana Kowalski,Engineering,C11,2020
"""
BOOKS = b"""Dune|written_by|Frank Herbert
Dune|release_year|1965
Dune|has_genre|Science Fiction
Neuromancer|written_by|William Gibson
Neuromancer|release_year|1984
Emma|written_by|Jane Austen
"""
POLITICS = ("Gerhard Schr\u00f6der\tposition held\tChancellor of Germany\t1998\t2005\n"
            "Angela Merkel\tposition held\tChancellor of Germany\t2005\t2021\n"
            "Helmut Kohl\tposition held\tChancellor of Germany\t1982\t1998\n"
            "Tony Blair\tposition held\tPrime Minister of the United Kingdom\t1997\t2007\n"
            ).encode()


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return office_files(tmp_path_factory.mktemp("office"), STAFF, BOOKS, POLITICS)


@pytest.fixture(scope="module")
def office_graph(office: Path):  # type: ignore[no-untyped-def]
    return office_graph_of(office)


@pytest.fixture(scope="module")
def samples_graph():  # type: ignore[no-untyped-def]
    return load_graph(tables=[SAMPLES / "comedy_ranking.csv"], kgs=[SAMPLES / "movies_kg.txt"],
                      tkgs=[SAMPLES / "cron_tkg.tsv"])


OFFICE_CASES = [
    ("who wrote Dune?", "books.txt", ["Frank Herbert"]),
    ("Who was Chancellor of Germany in 2000?", "politics.tsv", ["Gerhard Schr\u00f6der"]),
    ("Which department is Chen Wei in?", "staff.csv", ["Marketing"]),
    ("When was Neuromancer released?", "books.txt", ["1984"]),
    ("how many people work in Engineering?", "staff.csv", ["2"]),
    ("Who started in 2018?", "staff.csv", ["Brian Okafor"]),
]


@pytest.mark.parametrize(("question", "source", "expected"), OFFICE_CASES)
def test_office_questions_are_routed_and_answered(office_graph, question: str, source: str,
                                                   expected: list[str]) -> None:
    a = answer(question, office_graph, writer="offline")
    assert a.answer == expected
    routing = a.to_dict()["routing"]
    assert routing["sources"] == [source] and routing["used"] == [source]
    assert routing["how"].startswith(f"routed to {source}")
    assert routing["evidence"][source], "a routed source shows its evidence"
    assert a.trace is not None and [s.name for s in a.trace.graph.sources] == [source]


def test_sample_questions_about_one_source_use_it(samples_graph) -> None:
    wanted = {"movies-1", "movies-2", "movies-3", "careers-1", "careers-2", "careers-3"}
    rows = [json.loads(line) for line in (SAMPLES / "questions.jsonl").read_text().splitlines()]
    checked = 0
    for row in rows:
        if row["id"] not in wanted:
            continue
        a = answer(row["question"], samples_graph, writer="offline")
        assert sorted(a.answer) == sorted(row["answer"]), row["id"]
        assert a.routing is not None and a.routing.sources == tuple(row["sources"]), row["id"]
        checked += 1
    assert checked == len(wanted)


def test_route_scores_and_evidence(office_graph) -> None:
    d = route("Who was Chancellor of Germany in 2000?", office_graph)
    assert d.sources == ("politics.tsv",) and not d.unsure and d.narrowed
    ev = " | ".join(d.evidence["politics.tsv"])
    assert "'chancellor of germany' names a node of politics.tsv (3 words)" in ev
    assert "the year 2000 falls in a dated fact" in ev
    assert d.scores["politics.tsv"] > d.scores["staff.csv"] == 0.0
    # a year outside every dated fact is no evidence for the TKG
    assert "falls in" not in " ".join(route("Who was in office in 1900?",
                                            office_graph).evidence.get("politics.tsv", ()))


def test_route_without_evidence_keeps_every_source(office_graph) -> None:
    d = route("what is this?", office_graph)
    assert d.sources == ("staff.csv", "books.txt", "politics.tsv") and d.unsure
    assert d.how.startswith(ALL_SOURCES) and not d.narrowed


def test_route_unsure_keeps_the_close_sources() -> None:
    g = build_graph([
        SourceFacts("a.csv", "table", [1], ["Name"], ["Ada Lovelace"], [1], n_rows=1,
                    columns=["Name"]),
        SourceFacts("kg", "kg", ["Ada Lovelace"], ["born_in"], ["London"], [1]),
        SourceFacts("other", "kg", ["Paris"], ["capital_of"], ["France"], [1])])
    d = route("tell me about Ada Lovelace", g)
    assert d.unsure and set(d.sources) == {"a.csv", "kg"}
    assert d.how.startswith("unsure between") and d.narrowed
    assert min(d.scores[s] for s in d.sources) >= UNSURE_RATIO * max(d.scores.values())


def test_demo_similarity_is_evidence(office_graph) -> None:
    plain = route("what is this?", office_graph)
    with_demo = route("what is this?", office_graph, {"kg": 0.9})
    assert plain.sources != with_demo.sources == ("books.txt",)
    assert "best kg demonstration similarity 0.90" in with_demo.evidence["books.txt"]


def test_single_source_is_not_routed() -> None:
    g = load_graph(tables=[STAFF])
    d = route("Which department is Chen Wei in?", g)
    assert d.sources == ("table1",) and d.how == ALL_SOURCES and not d.narrowed



def test_failed_routed_attempt_falls_back_to_all_sources(office_graph) -> None:
    query = ('Query1: "get_information(relation=\'Name\', tail_entity=\'Chen Wei\')"\n'
             'Query2: "get_information(relation=\'Department\', head_entity=\'output_of_query1\')"')
    a = answer("who wrote Dune?", office_graph, writer=FixedWriter(query), n=1, retries=0)
    # stop 19: the fallback's answer comes from staff.csv, which the question was not routed
    # to: it is shown as a suggestion, the answer itself is the routed attempt's none
    assert a.answer == [] and a.suggestion is not None
    fallback = a.suggestion
    assert fallback.answer == ["Marketing"]
    routing = fallback.to_dict()["routing"]
    assert routing["routed"] == ["books.txt"]
    # over all sources the written query's arguments map onto staff.csv only: routed there by
    # the query (routing_by_query) and answered again over it
    assert routing["sources"] == ["staff.csv"]
    assert routing["how"].startswith("routed by the query to staff.csv")
    assert routing["used"] == ["staff.csv"]
    assert fallback.routed_attempt is not None and not fallback.routed_attempt.answer
    assert "gave no answer" in fallback.warnings[0]
    assert any("routed by the written query to staff.csv" in w for w in fallback.warnings)


def test_routing_can_be_turned_off(office_graph) -> None:
    a = answer("who wrote Dune?", office_graph, writer="offline", route_sources=False)
    assert a.routing is None and a.to_dict()["routing"]["how"] == ALL_SOURCES


def test_ask_json_has_routing(office: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "--table", str(office / "staff.csv"), "--kg", str(office / "books.txt"),
                 "--tkg", str(office / "politics.tsv"), "--writer", "offline", "--json",
                 "--question", "who wrote Dune?"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["answer"] == ["Frank Herbert"]
    assert out["routing"]["sources"] == ["books.txt"]
    assert set(out["routing"]["scores"]) == {"staff.csv", "books.txt", "politics.tsv"}
    assert out["routing"]["evidence"]["books.txt"]


def test_restrict_keeps_rows_labels_and_provenance(office_graph) -> None:
    sub = restrict(office_graph, source_indices(office_graph, ["staff.csv"]))
    assert [s.name for s in sub.sources] == ["staff.csv"]
    assert sub.entity("Frank Herbert") is None and sub.entity("Chen Wei") is not None
    facts = sub.facts_rel_tail(sub.relation("Name"), sub.entity("Chen Wei"))
    row = int(sub.heads_of(facts)[0])
    assert sub.label(row) == "staff.csv row 3" and str(sub.provenance(int(facts[0]))).startswith(
        "staff.csv")
    assert sub.label(sub.row_node(0, 4)) == "staff.csv row 4"
    tkg = restrict(office_graph, [2])
    assert tkg.is_temporal and tkg.n_facts == 4 and not restrict(office_graph, [1]).is_temporal
    assert restrict(office_graph, [0, 1, 2]) is office_graph
    with pytest.raises(ValueError, match="no loaded source named 'x.csv'"):
        source_indices(office_graph, ["x.csv"])


def test_prompt_puts_the_first_source_first(office_graph) -> None:
    plain = describe_schema(office_graph, "who wrote Dune?").text
    routed = describe_schema(office_graph, "who wrote Dune?", first=["politics.tsv"]).text
    assert plain.index("Table staff.csv") < plain.index("Source politics.tsv")
    assert routed.index("Source politics.tsv") < routed.index("Table staff.csv")


class CapturingWriter(FixedWriter):
    """A fixed writer that keeps the schema and sources each attempt was shown."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.seen: list[tuple[list[str], str]] = []

    def write(self, request: WriteRequest, n: int, attempt: int = 0,
              failed_stage: str = "") -> Written:
        self.seen.append(([s.name for s in request.graph.sources], request.schema.text))
        return super().write(request, n, attempt, failed_stage)


def test_writer_sees_the_routed_schema_then_all_with_the_routed_first(office_graph) -> None:
    writer = CapturingWriter("not a query at all")
    answer("Who was Chancellor of Germany in 2000?", office_graph, writer=writer, n=1,
           retries=0)
    (routed, routed_schema), (every, fallback_schema), *looks = writer.seen
    assert routed == ["politics.tsv"] and "staff.csv" not in routed_schema
    # no second look (stop 17) for a writer other than the offline one: each look would cost
    # it another round
    assert looks == []
    assert "position held" in routed_schema
    assert every == ["staff.csv", "books.txt", "politics.tsv"]
    assert fallback_schema.index("politics.tsv") < fallback_schema.index("Table staff.csv")


def test_a_word_of_a_node_label_routes_when_no_label_is_named_whole() -> None:
    """'Herbert' and 'Merkel' are words of node labels, not whole labels: the source holding
    the word gets the question, with the word as evidence."""
    g = load_graph(tables=[STAFF], kgs=[BOOKS], tkgs=[POLITICS])
    d = route("which books did herbert write?", g)
    assert d.sources == ("kg1",), d.how
    assert ("'herbert' is a word of a node of kg1 (the question names no node of it)"
            in d.evidence["kg1"])
    d = route("what office did merkel hold?", g)
    assert d.sources == ("tkg1",), (d.how, d.scores)
    # a word every source holds is no evidence for any of them
    assert not any("'office'" in line and "node" in line
                   for lines in d.evidence.values() for line in lines)

