"""Routing: the given entity's forms (id and name) are one entity, and a year is evidence for
a temporal source only in a dated fact about something the question names (route7)."""

from __future__ import annotations

from pathlib import Path

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.routing import route


def _lincoln_graph():  # type: ignore[no-untyped-def]
    """A KG subgraph around the id ``m1`` and a table with the name in one cell of many."""
    kg = "".join(f"m1|people.person.r{i}|m{i + 10}\n" for i in range(8)).encode()
    rows = "".join(f"Person {i},{1800 + i}\n" for i in range(30))
    table = f"Name,Year\nAbraham Lincoln,1861\n{rows}".encode()
    return load_graph(tables=[table], kgs=[kg])


def test_a_span_naming_the_given_entity_counts_for_the_source_holding_its_id() -> None:
    g = _lincoln_graph()
    d = route("what job did abraham lincoln have?", g, entities=("Abraham Lincoln", "m1"))
    assert d.sources == ("kg1",) and not d.unsure
    kg = " | ".join(d.evidence["kg1"])
    assert "'abraham lincoln' names the given entity, a node of kg1 as 'm1'" in kg
    # the span weighs the same in both (two sources hold the entity); centrality decides
    assert d.scores["kg1"] > d.scores["table1"] > 0
    assert "the given entity 'm1' is in 100.0% of the facts of kg1" in kg


def test_given_forms_unnamed_in_the_question_share_one_weight() -> None:
    g = _lincoln_graph()
    d = route("what was his job?", g, entities=("Abraham Lincoln", "m1"))
    assert d.sources == ("kg1",)
    assert "the given entity 'abraham lincoln' is a node of table1" in d.evidence["table1"]
    assert "the given entity 'm1' is a node of kg1" in d.evidence["kg1"]


def test_a_year_counts_for_a_tkg_only_in_a_fact_about_a_named_node() -> None:
    g = load_graph(tables=[b"Winner,Season\nAnn Lee,2003\nBo Chan,2004\n"],
                   tkgs=[b"Gerhard Schroeder|position held|Chancellor|1998|2005\n"])
    d = route("who was the winner in 2003?", g)
    assert d.sources == ("table1",)
    assert not any("falls in" in line for line in d.evidence.get("tkg1", ()))
    named = route("who was chancellor in 2003?", g)
    assert named.sources == ("tkg1",)
    assert ("the year 2003 falls in a dated fact of tkg1 about 'chancellor'"
            in named.evidence["tkg1"])


def test_cross_sample_actors_of_a_film_in_table_and_kg_come_from_the_kg() -> None:
    """The bundled cross-source sample (table -> KG -> TKG): a film of the comedy ranking that
    the movie KG also holds; *acted* is a relation word of the KG only."""
    samples = Path(__file__).resolve().parents[1] / "sample_data"
    g = load_graph(tables=[samples / "comedy_ranking.csv"], kgs=[samples / "movies_kg.txt"],
                   tkgs=[samples / "cron_tkg.tsv"])
    a = answer("who acted in Young Frankenstein?", g, writer="offline")
    assert a.routing is not None and a.routing.sources == ("movies_kg.txt",)
    assert sorted(a.answer) == ["Gene Wilder", "Madeline Kahn", "Marty Feldman", "Peter Boyle"]


def test_relation_words_of_a_kg_whose_nodes_the_question_names_not_weigh_less() -> None:
    g = load_graph(tables=[b"Nation,Total\nItaly,10\nFrance,7\n"],
                   kgs=[b"Rome|award_medals|Gold\n"])
    d = route("which nation has the most medals?", g)
    assert d.sources == ("table1",) and d.scores["kg1"] > 0
    assert "'medals' is a word of a relation of kg1 (the question names no node of it)" \
        in d.evidence["kg1"]
    named = route("how many medals did Rome get?", g)
    assert named.sources == ("kg1",)
    assert "'medals' is a word of a relation of kg1" in named.evidence["kg1"]
