"""Routing as the product does it (issue 13): ``product_route`` makes the decision ``answer()``
makes, and the cross-source chain (which widens a decision to every source) only fires when
its hops meet in the data. Data made here: a staff table, a books KG, a politics TKG, and an
unrelated table and KG whose names collide with the TKG question's words."""

from __future__ import annotations

import pytest

from trustuqa_core import answer
from trustuqa_core.demos import DemoPool, initial_demos
from trustuqa_core.evaluate.mixed import product_route
from trustuqa_core.graph import build_graph
from trustuqa_core.mapping.dense import HashingEncoder
from trustuqa_core.store import GraphStore
from trustuqa_core.translate import load_source
from trustuqa_core.writers.chain import link_chain

STAFF = b"Name,Department\nChen Wei,Marketing\nAna Lima,Finance\n"
BOOKS = b"Dune|written_by|Frank Herbert\nEmma|written_by|Jane Austen\n"
POLITICS = (b"Gerhard Schroeder\tposition held\tChancellor of Germany\t1998\t2005\n"
            b"Angela Merkel\tposition held\tChancellor of Germany\t2005\t2021\n")
# words of a TKG question ("first time") that name a column and a KG relation of other sources
SCHEDULE = b"Stop,Time\nCentral,08:00\nHarbour,08:30\n"
PUBLISHED = b"m.0abc|book.written_work.date_of_first_publication|1999\n"


def _graph(*sources: tuple[str, str, bytes]) -> GraphStore:
    return build_graph([load_source(data, kind, name=name) for name, kind, data in sources])


@pytest.fixture(scope="module")
def graph() -> GraphStore:
    return _graph(("staff.csv", "table", STAFF), ("schedule.csv", "table", SCHEDULE),
                  ("books.txt", "kg", BOOKS), ("published.txt", "kg", PUBLISHED),
                  ("politics.tsv", "tkg", POLITICS))


@pytest.fixture(scope="module")
def pool() -> DemoPool:
    return DemoPool(initial_demos(), HashingEncoder())


QUESTIONS = ["who wrote Dune?", "Which department is Chen Wei in?",
             "Who was Chancellor of Germany in 2000?",
             "What time was Angela Merkel holding the Chancellor of Germany position for the "
             "first time?"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_product_route_is_the_decision_answer_makes(graph: GraphStore, pool: DemoPool,
                                                    question: str) -> None:
    made = answer(question, graph, writer="offline", demos=pool)
    decision = product_route(question, graph, pool)
    assert made.routing is not None
    assert made.routing.sources == decision.sources
    assert made.routing.how == decision.how
    assert made.routing.scores == decision.scores  # the demo similarities were counted alike


def test_demo_similarity_is_evidence(graph: GraphStore, pool: DemoPool) -> None:
    with_demos = product_route("who wrote Dune?", graph, pool)
    without = product_route("who wrote Dune?", graph)
    assert any("demonstration similarity" in line for line in with_demos.evidence["books.txt"])
    assert not any("demonstration" in line for lines in without.evidence.values()
                   for line in lines)


def test_no_chain_when_the_hops_do_not_meet(graph: GraphStore) -> None:
    q = QUESTIONS[3]
    assert link_chain(q, graph) == []  # 'time' column, '...first_publication', a TKG value
    decision = product_route(q, graph)
    assert decision.sources == ("politics.tsv",), decision.how


def test_a_column_named_in_the_plural_alone_chains() -> None:
    g = _graph(("bestsellers.csv", "table", b"Rank,Book\n1,Dune\n2,Neuromancer\n"),
               ("books.txt", "kg", b"Dune|written_by|Frank Herbert\n"
                                   b"Neuromancer|written_by|William Gibson\n"),
               ("awards.tsv", "tkg", b"Frank Herbert\taward received\tHugo Award for Best "
                                     b"Novel\t1966\t1966\n"))
    q = "Which books were written by the winner of the Hugo Award for Best Novel?"
    chain = link_chain(q, g)  # raised IndexError before: 'books' named no singular column
    assert chain and "table Book" in chain[0][1]
    assert answer(q, g, writer="offline").answer == ["Dune"]
