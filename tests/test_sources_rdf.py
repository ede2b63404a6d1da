"""RDF files (N-Triples, Turtle) as KG sources."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from trustuqa_core import SourceError, build_graph, load_graph, run_query
from trustuqa_core.errors import SourceLimitError
from trustuqa_core.limits import current_limits, env_name
from trustuqa_core.translate import load_source, load_sources

pytest.importorskip("rdflib", reason="rdflib is in requirements.txt; install it")

NT = b"""# films
<http://ex.org/film/Kismet> <http://ex.org/prop#directed_by> <http://ex.org/person/William_Dieterle> .
<http://ex.org/film/Kismet> <http://ex.org/prop#release_year> "1944"^^<http://www.w3.org/2001/XMLSchema#gYear> .

<http://ex.org/film/Heat> <http://ex.org/prop#directed_by> <http://ex.org/person/Michael_Mann> .
_:b1 <http://ex.org/prop#note> "anonymous"@en .
"""

TTL = """@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

ex:k1 rdfs:label "Kismet"@en, "Kismet (Film)"@de ;
      a ex:Film ;
      ex:directed_by ex:p1 ;
      ex:release_year "1944"^^xsd:gYear ;
      ex:budget 1.5e6 .
ex:p1 rdfs:label "William Dieterle" ; ex:born_in "Ludwigshafen" .
ex:p2 ex:born_in "Zürich" .
"""

DIRECTOR = (
    "Query1: \"get_information(relation='directed_by', head_entity='Kismet')\""
)


@pytest.fixture
def set_limits(monkeypatch: pytest.MonkeyPatch):
    def apply(**values: int) -> None:
        for field, value in values.items():
            monkeypatch.setenv(env_name(field), str(value))
        current_limits.cache_clear()

    yield apply
    current_limits.cache_clear()


def test_ntriples_local_names_literals_and_lines(tmp_path: Path) -> None:
    path = tmp_path / "films.nt"
    path.write_bytes(NT)
    facts = load_source(path)
    assert facts.kind == "kg" and facts.name == "films.nt" and facts.path == str(path)
    assert list(zip(facts.heads, facts.relations, facts.tails, facts.lines, strict=True)) == [
        ("Kismet", "directed_by", "William_Dieterle", 2),
        ("Kismet", "release_year", "1944", 3),
        ("Heat", "directed_by", "Michael_Mann", 5),
        ("_:b1", "note", "anonymous", 6),
    ]


def test_turtle_labels_name_iris_and_literals_keep_their_text() -> None:
    facts = load_source(TTL.encode(), "kg", name="films.ttl")
    triples = set(zip(facts.heads, facts.relations, facts.tails, strict=True))
    assert ("Kismet", "directed_by", "William Dieterle") in triples
    assert ("Kismet", "release_year", "1944") in triples
    assert ("Kismet", "type", "Film") in triples
    assert ("Kismet", "budget", "1500000.0") in triples  # rdflib's normal form of 1.5e6
    assert ("p2", "born_in", "Zürich") in triples  # no label: the local name
    assert not any(r == "label" for _, r, _ in triples)  # labels name nodes, not facts
    assert list(facts.lines) == sorted(set(facts.lines))  # statement numbers, in order


def test_rdf_graph_answers_a_question() -> None:
    graph = build_graph([load_source(TTL.encode(), "kg", name="films.ttl")])
    assert run_query(DIRECTOR, graph).answer == ["William Dieterle"]


def test_kind_from_suffix_gzip_and_cli_path(tmp_path: Path) -> None:
    path = tmp_path / "films.nt.gz"
    path.write_bytes(gzip.compress(NT))
    assert len(load_sources(path, kind="kg")[0]) == 4
    ttl = tmp_path / "films.ttl"
    ttl.write_text(TTL, encoding="utf-8")
    assert run_query(DIRECTOR, load_graph(kgs=[ttl])).answer == ["William Dieterle"]
    with pytest.raises(SourceError, match="not read yet"):
        load_source(ttl, "tkg")


def test_same_local_name_for_two_iris_is_reported() -> None:
    data = (b"<http://a.org/Paris> <http://x.org/in> <http://x.org/France> .\n"
            b"<http://b.org/Paris> <http://x.org/in> <http://x.org/Texas> .\n")
    facts = load_source(data, "kg", "places.nt")
    [warning] = facts.warnings
    assert "'Paris'" in warning and "http://a.org/Paris" in warning and "http://b.org/Paris" in warning


@pytest.mark.parametrize(
    ("data", "name", "line", "needle"),
    [
        (b'<http://a/x> <http://a/p> "ok" .\n\n<http://a/y> <http://a/p> oops .\n', "b.nt", 3,
         "malformed N-Triples"),
        (b'<http://a/x> <http://a/p> "unterminated .\n', "c.nt", 1, "malformed N-Triples"),
        (b'@prefix ex: <http://a/> .\nex:x ex:p "ok" .\nex:y ex:p oops oops .\n', "b.ttl", 3,
         "malformed Turtle"),
        (b"# only a comment\n", "e.nt", None, "no RDF statements"),
    ],
)
def test_malformed_rdf_names_the_line(data: bytes, name: str, line: int | None,
                                      needle: str) -> None:
    with pytest.raises(SourceError) as info:
        load_source(data, "kg", name)
    assert info.value.line == line and needle in str(info.value)
    assert str(info.value).startswith(name)


def test_ntriples_fact_limit_stops_the_read(set_limits) -> None:
    data = b"".join(b"<http://a/%d> <http://a/p> <http://a/o> .\n" % i for i in range(300))
    assert len(load_source(data, "kg", "big.nt")) == 300
    set_limits(facts=100)
    with pytest.raises(SourceLimitError, match="more than 100 facts"):
        load_source(data, "kg", "big.nt")
    with pytest.raises(SourceLimitError, match="larger than allowed"):
        load_source(data, "kg", "big.nt", max_bytes=100)
