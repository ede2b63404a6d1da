"""Routing by the written query (trustuqa_core/routing_by_query.py): the source where the
query's arguments map exactly, ties broken by execution, then by the question's score; and
``answer()`` answering again over the source the query picks. Data made here: two medal
tables of one schema, a roster table and a small KG."""

from __future__ import annotations

import pytest
from helpers import FixedWriter

from trustuqa_core import answer
from trustuqa_core.graph import build_graph
from trustuqa_core.query import parse
from trustuqa_core.routing import RouteDecision, route
from trustuqa_core.routing_by_query import query_literals, route_by_query
from trustuqa_core.store import GraphStore
from trustuqa_core.translate import load_source

MEDALS_A = b"Nation,Gold,Total\nItaly,4,9\nSpain,1,3\n"
MEDALS_B = b"Nation,Gold,Total\nNorway,4,7\nChile,0,2\n"
ROSTER = b"Player,No.,School\nAnn Lee,3,Duke\nBo Kim,5,\n"
ROSTER_2 = b"Player,No.,School\nCy Dow,3,\nDi Fox,8,Rice\n"
FILMS = b"Dune|directed_by|David Lynch\nEmma|directed_by|Autumn de Wilde\n"


def _graph(*sources: tuple[str, str, bytes]) -> GraphStore:
    return build_graph([load_source(data, kind, name=name) for name, kind, data in sources])


@pytest.fixture(scope="module")
def graph() -> GraphStore:
    return _graph(("medals_a.csv", "table", MEDALS_A), ("medals_b.csv", "table", MEDALS_B),
                  ("roster.csv", "table", ROSTER), ("roster_2.csv", "table", ROSTER_2),
                  ("films.txt", "kg", FILMS))


def _q(*calls: str) -> str:
    return "\n".join(f'Query{i}: "{c}"' for i, c in enumerate(calls, 1))


def test_literals_leave_out_references_and_special_values() -> None:
    p = parse(_q("get_information(relation='Gold', tail_entity='most')",
                 "get_information(relation='Nation', head_entity='output_of_query1')"))
    assert query_literals(p) == (["gold", "nation"], [])


def test_a_value_only_one_table_holds_decides(graph: GraphStore) -> None:
    asked = route("how many medals in total did Norway win?", graph)
    # the question names Norway, so route() alone is right here; a query naming Spain
    # (as a writer might for another question) moves it to the table holding Spain
    p = parse(_q("get_information(relation='Nation', tail_entity='Spain')",
                 "get_information(relation='Total', head_entity='output_of_query1')"))
    d = route_by_query(p, graph, asked)
    assert d.sources == ("medals_a.csv",) and not d.unsure
    assert d.how.startswith("routed by the query to medals_a.csv: 3 of its 3 arguments")
    assert "best other: 2 of 3" in d.how
    line = [x for x in d.evidence["medals_b.csv"] if x.startswith("query:")]
    assert line == ["query: 2 of the query's 3 arguments map exactly onto medals_b.csv"]
    assert dict(d.scores) == dict(asked.scores)  # the question's scores are kept


def test_execution_breaks_a_tie_in_fit(graph: GraphStore) -> None:
    # both rosters have a player numbered 3 and a School column; only roster.csv's has a school
    p = parse(_q("get_information(relation='No.', tail_entity='3')",
                 "get_information(relation='School', head_entity='output_of_query1')"))
    names = tuple(s.name for s in graph.sources)
    even = RouteDecision(names, "all", {n: 0.0 for n in names}, {}, True, names)
    d = route_by_query(p, graph, even)
    assert d.sources == ("roster.csv",)
    runs = {n: [x for x in d.evidence.get(n, ()) if "runs to" in x] for n in names}
    assert "it runs to an answer there" in runs["roster.csv"][0]
    assert "it runs to no answer there" in runs["roster_2.csv"][0]


def test_an_exact_tie_is_decided_by_the_question_or_stays_unsure(graph: GraphStore) -> None:
    p = parse(_q("get_information(relation='Gold', tail_entity='4')",
                 "get_information(relation='Nation', head_entity='output_of_query1')"))
    names = tuple(s.name for s in graph.sources)
    tie = RouteDecision(names, "all", {n: 1.0 for n in names}, {}, True, names)
    d = route_by_query(p, graph, tie)
    assert set(d.sources) == {"medals_a.csv", "medals_b.csv"} and d.unsure
    leaning = RouteDecision(names, "all", {**{n: 1.0 for n in names}, "medals_b.csv": 2.0}, {},
                            True, names)
    assert route_by_query(p, graph, leaning).sources == ("medals_b.csv",)


def test_a_query_that_maps_nowhere_leaves_the_decision(graph: GraphStore) -> None:
    asked = route("who directed Dune?", graph)
    p = parse(_q("get_information(relation='Coach', tail_entity='Nobody')"))
    assert route_by_query(p, graph, asked) == asked


def test_one_source_loaded_is_left_alone() -> None:
    g = _graph(("medals_a.csv", "table", MEDALS_A))
    asked = route("who won 4 gold?", g)
    p = parse(_q("get_information(relation='Gold', tail_entity='4')"))
    assert route_by_query(p, g, asked) is asked



def test_answer_is_sought_again_over_the_source_the_query_picks(graph: GraphStore) -> None:
    # 'gold' and 'nation' name columns of both medal tables: route() is unsure between them;
    # the written query's value 9 is a Total of medals_a only
    text = _q("get_information(relation='Total', tail_entity='9')",
              "get_information(relation='Nation', head_entity='output_of_query1')")
    asked = route("which nation won gold medals, nine in all?", graph)
    assert set(asked.sources) == {"medals_a.csv", "medals_b.csv"}
    a = answer("which nation won gold medals, nine in all?", graph, writer=FixedWriter(text),
               n=1, retries=0)
    assert a.answer == ["Italy"]
    routing = a.to_dict()["routing"]
    assert routing["sources"] == ["medals_a.csv"]
    assert routing["how"].startswith("routed by the query to medals_a.csv")
    assert any(line.startswith("query: 3 of the query's 3 arguments map exactly onto medals_a")
               for line in routing["evidence"]["medals_a.csv"])
    assert any("routed by the written query to medals_a.csv" in w for w in a.warnings)


def test_answer_keeps_a_decision_the_query_agrees_with(graph: GraphStore) -> None:
    a = answer("who directed Dune?", graph, writer="offline", n=1, retries=0)
    assert a.answer == ["David Lynch"]
    routing = a.to_dict()["routing"]
    assert routing["sources"] == ["films.txt"] and routing["how"].startswith("routed to films")
    assert any(line.startswith("query: ") and "films.txt" in line
               for line in routing["evidence"]["films.txt"])
    assert not any("written query" in w for w in a.warnings)
