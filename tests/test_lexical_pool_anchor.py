"""Fuzzy matching counts a substring only where it starts a word (lexical_pool.anchored_score).

WRatio scores a short literal found anywhere inside a longer label at 0.9: ``US`` matched
``Austria`` at 0.9 with a 0.3 margin, so a wrong mapping looked strong and its answer was
verified. A match at a word's start (a word, a prefix, a surname) keeps its score.
"""

from __future__ import annotations

import pytest

from trustuqa_core import build_graph, load_source
from trustuqa_core.lexical_pool import LexicalPool
from trustuqa_core.mapping import Mapper
from trustuqa_core.mapping.stages import ACCEPT_FUZZY

NATIONS = ["Slovenia", "Italy", "France", "Austria", "United States", "Jerusalem FC"]


@pytest.mark.parametrize("text", ["US", "usa", "str"])
def test_letters_inside_another_word_are_not_a_strong_match(text: str) -> None:
    found = LexicalPool(range(len(NATIONS)), NATIONS).fuzzy(text, 3)
    assert found and all(score < ACCEPT_FUZZY for _, _, score in found), found


@pytest.mark.parametrize(("text", "label"), [("Brooks", "Mel Brooks"), ("Ital", "Italy"),
                                             ("Milan", "A.C. Milan"), ("Stan", "Stanley Kubrick")])
def test_a_word_or_a_words_start_keeps_its_score(text: str, label: str) -> None:
    labels = [label, "Something Else", "Another One"]
    [(_, best, score)] = LexicalPool(range(3), labels).fuzzy(text, 1)
    assert best == label and score >= ACCEPT_FUZZY


def test_the_cutoff_applies_after_the_anchor() -> None:
    pool = LexicalPool(range(len(NATIONS)), NATIONS)
    assert [lab for _, lab, _ in pool.fuzzy("US", 5, cutoff=0.85)] == []


def test_a_lexical_mapping_of_us_is_weak_not_austria() -> None:
    """Lexical only (no encoder): 'US' is shown as a weak guess, never a strong Austria."""
    rows = "\n".join(f"{n},{i}" for i, n in enumerate(NATIONS))
    graph = build_graph([load_source(f"Nation,Rank\n{rows}\n".encode(), "table", "t.csv")])
    mapper = Mapper(graph, encoder=None)
    m = mapper.map_value("US", graph.relation("Nation"))
    assert m.weak or m.labels[0] != "Austria", m
