"""Routing evidence added for issue 13's routing target: anchors, centrality of a given entity,
one count per mention, repeated header rows (data made here)."""

from __future__ import annotations

from trustuqa_core import load_graph
from trustuqa_core.routing import route

VENUES = b"Venue,Year\nLondon,2012\nParis,2024\n"
# a subgraph built around m.04jpl (London), as WebQSP's are, and one that holds it once
AROUND = (b"m.04jpl|location.location.time_zones|m.03bdv\n"
          b"m.04jpl|location.location.containedby|m.02jx1\n"
          b"m.0abc|film.film.featured_film_locations|m.04jpl\n")
ONCE = (b"m.04jpl|sports.sports_team.location|m.0xyz\n"
        b"m.011|people.person.gender|m.022\nm.033|people.person.religion|m.044\n"
        b"m.055|people.person.nationality|m.066\n")


def _graph():  # type: ignore[no-untyped-def]
    return load_graph(tables=[VENUES], kgs=[AROUND, ONCE])


def test_a_given_entity_central_in_a_source_routes_there() -> None:
    d = route("tell me about london", _graph(), entities=("London", "m.04jpl"))
    assert d.sources == ("kg1",), d.scores
    assert d.scores["kg1"] > d.scores["kg2"] > 0
    assert any("'m04jpl' is in 100.0% of the facts of kg1" in e for e in d.evidence["kg1"])
    # the name London is one mention: counted as a named span, not again as a given entity
    assert not any("given entity 'london' is a node" in e for e in d.evidence["table1"])
    assert any("'london' names a node of table1" in e for e in d.evidence["table1"])


def test_a_relation_next_to_the_named_node_anchors_the_source() -> None:
    g = load_graph(kgs=[b"Dune|written_by|Frank Herbert\nDune|release_year|1965\n",
                        b"Dune|filmed_in|Jordan\nDune|release_year|2021\n"])
    d = route("where was Dune filmed?", g)
    assert d.sources == ("kg2",)
    assert "'dune' is in a fact of kg2 whose relation is named by 'filmed'" in d.evidence["kg2"]
    assert not any("whose relation" in e for e in d.evidence["kg1"])


def test_cells_of_a_repeated_header_row_name_nothing() -> None:
    games = b"Game,Day,Date,Results,Results\nGame,Day,Date,Score,Record\n1,Sat,May 2,W 3-1,1-0\n"
    scores = b"Name,Score,Team\nAda,Score,Reds\nBen,12,Blues\n"  # 'Score' here is a cell of a data row
    g = load_graph(tables=[games, scores])
    d = route("what was the score?", g)
    assert not any("'score' names a node" in e for e in d.evidence.get("table1", ()))
    assert "'score' names a node of table2 (1 word)" in d.evidence["table2"]
    assert any("'w 3 1' names" in e or "'w 3-1' names" in e
               for e in route("who won w 3-1", g).evidence.get("table1", ()))
