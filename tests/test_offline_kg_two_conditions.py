"""Two named entities, each with its own relation: the things both facts share.

Before: "which films starring Gene Wilder were directed by Mel Brooks?" (movie sample) was
read as a two-hop chain from Mel Brooks (his films' actors), leaving Gene Wilder unbound; a
similar demo re-bound to one of the names tied the vote.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.mapping import Mapper
from trustuqa_core.writers.kg import link_kg

KG = Path(__file__).resolve().parents[1] / "sample_data" / "movies_kg.txt"
MADE = (b"Alpha|starred_actors|Ann Lee\nAlpha|directed_by|Bo Park\n"
        b"Beta|starred_actors|Ann Lee\nGamma|directed_by|Bo Park\n"
        b"Gamma|starred_actors|Bo Park\nDelta|starred_actors|Cy Fox\n"
        b"Delta|directed_by|Bo Park\n")


@pytest.fixture(scope="module")
def movies():
    return load_graph(kgs=[KG])


@pytest.mark.parametrize("question", [
    "which films starring Gene Wilder were directed by Mel Brooks?",
    "which movies directed by Mel Brooks starred Gene Wilder?",
])
def test_two_named_entities_with_their_own_relations_are_intersected(movies, question) -> None:
    a = answer(question, movies, writer="offline")
    assert sorted(a.answer) == ["Blazing Saddles", "The Producers", "Young Frankenstein"]
    assert a.trace is not None and a.trace.program is not None
    assert [q.call.func for q in a.trace.program.queries][-1] == "set_intersection"
    assert a.verdict.label == "verified", [r.code for r in a.verdict.reasons]


def test_the_pairing_follows_the_data_then_the_words() -> None:
    """Bo Park both directs and stars; Ann Lee only stars: Ann Lee must go with starred_actors, whatever
    the word order, and the films are those both facts share."""
    g = load_graph(kgs=[MADE])
    for q in ("which films starring Ann Lee were directed by Bo Park?",
              "which films directed by Bo Park starred Ann Lee?"):
        programs = link_kg(q, g, Mapper(g))
        assert len(programs) == 1, q
        calls = programs[0][0].queries
        pairs = {(c.call.arg("relation").value.value, c.call.arg("tail_entity").value.value)
                 for c in calls[:2]}
        assert pairs == {("starred_actors", "Ann Lee"), ("directed_by", "Bo Park")}, q
        assert answer(q, g, writer="offline").answer == ["Alpha"]


def test_one_entity_keeps_the_chain() -> None:
    g = load_graph(kgs=[MADE])
    programs = link_kg("which actors starred in films directed by Bo Park?", g, Mapper(g))
    assert programs and all(p.queries[-1].call.func != "set_intersection" for p, _ in programs)
