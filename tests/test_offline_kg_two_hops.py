"""Two hops when the named entity takes part in both relations the question names
(writers.kg._two_hops / _nearer): the relation whose word stands next to the name is the
first hop. Made data: Ida Park directs and also acts, as Mel Brooks does in the sample."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer

FILMS = (b"Low Tide|directed_by|Ida Park\nLow Tide|starred_actors|Ida Park\n"
         b"Low Tide|starred_actors|Tom Ash\nNorth Road|directed_by|Ida Park\n"
         b"North Road|starred_actors|Eve Lund\nGlass Bay|directed_by|Sam Roe\n"
         b"Glass Bay|starred_actors|Ida Park\nGlass Bay|starred_actors|Nia Cole\n"
         b"Low Tide|written_by|Sam Roe\nGlass Bay|written_by|Sam Roe\n")


@pytest.fixture(scope="module")
def films():  # noqa: ANN201
    return load_graph(kgs=[FILMS])


@pytest.mark.parametrize(("question", "expected"), [
    ("which actors starred in films directed by Ida Park?", {"Ida Park", "Tom Ash", "Eve Lund"}),
    ("who directed the films Ida Park starred in?", {"Ida Park", "Sam Roe"}),
])
def test_the_relation_named_next_to_the_entity_is_the_first_hop(
        films, question: str, expected: set[str]) -> None:  # noqa: ANN001
    a = answer(question, films, writer="offline")
    assert set(a.answer) == expected, a.trace.query_text if a.trace else a.error


def test_a_relation_that_touches_only_the_results_still_comes_second(films) -> None:  # noqa: ANN001
    """Sam Roe only directs and writes: the old rule (second hop must not touch the entity)."""
    a = answer("which actors starred in films written by Sam Roe?", films, writer="offline")
    assert set(a.answer) == {"Ida Park", "Tom Ash", "Nia Cole"}, a.trace.query_text if a.trace else a.error


@pytest.mark.parametrize(("question", "expected"), [
    # asked together: the films of both relations (Low Tide is the one Ida Park directed
    # and starred in; Glass Bay she only starred in, North Road she only directed)
    ("which films directed by Ida Park did she star in?", {"Low Tide"}),
    ("which films directed by Ida Park did Ida Park star in?", {"Low Tide"}),
    ("which films did Ida Park both direct and star in?", {"Low Tide"}),
    ("which films did Sam Roe both write and direct?", {"Glass Bay"}),
    ("which films did Ida Park direct or star in?", {"Low Tide", "North Road", "Glass Bay"}),
])
def test_two_relations_asked_of_one_entity_together(
        films, question: str, expected: set[str]) -> None:  # noqa: ANN001
    a = answer(question, films, writer="offline")
    assert set(a.answer) == expected, a.trace.query_text if a.trace else a.error
    assert a.verdict.label == "verified"
