"""Relation choice on big graphs: companions of the linked nodes' relations, and why a gold
relation was missed (hand-made KGs)."""

from __future__ import annotations

import numpy as np
import pytest

from trustuqa_core.evaluate.relation_recall import Case, rankings, relation_recall, why_missed
from trustuqa_core.graph import build_graph
from trustuqa_core.llm import relations
from trustuqa_core.llm.relations import (
    Shares,
    choose_relations,
    companions,
    linked_entities,
    rank_relations,
)
from trustuqa_core.mapping.mapper import Mapper
from trustuqa_core.sources import SourceFacts


def _kg(triples: list[tuple[str, str, str]]):  # type: ignore[no-untyped-def]
    heads, rels, tails = (list(x) for x in zip(*triples, strict=True))
    return build_graph([SourceFacts("kb", "kg", heads, rels, tails, list(range(len(rels))))])


def _marriages():  # type: ignore[no-untyped-def]
    """Ann's marriage node lacks the ``start``/``end`` facts the other marriage nodes have
    (a subgraph cut from a bigger KG); 12 unrelated, larger relations make the graph "big"."""
    triples = [("Ann", "spouse_s", "m1"), ("m1", "partner", "Bob")]
    for i in (2, 3, 4):
        triples += [(f"P{i}", "spouse_s", f"m{i}"), (f"m{i}", "partner", f"Q{i}"),
                    (f"m{i}", "start", f"19{i}0"), (f"m{i}", "end", f"19{i}5")]
    triples += [(f"X{i}", f"filler_{i}", f"Y{i}-{j}") for i in range(12) for j in range(5)]
    return _kg(triples)


def test_companions_are_the_share_of_nodes_with_both_relations() -> None:
    g = _marriages()
    p = companions(g)
    rel = g.relation
    assert p.shape == (len(g.relation_names),) * 2
    assert p[rel("partner"), rel("start")] == pytest.approx(0.75)  # 3 of 4 marriage nodes
    assert p[rel("start"), rel("partner")] == pytest.approx(1.0)
    assert p[rel("filler_0"), rel("start")] == 0.0
    assert np.allclose(np.diag(p), 1.0)
    assert companions(g) is p  # cached per graph


def test_a_companion_of_a_linked_relation_is_shown_though_the_node_lacks_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = _marriages()
    rels = list(dict.fromkeys(g.relation_names))
    question = "when did ann get married?"
    anchors = linked_entities(question, Mapper(g, None))
    assert [g.label(a) for a in anchors] == ["Ann"]
    tier = dict(zip(rels, rank_relations(g, rels, question, anchors=anchors).tier, strict=True))
    assert tier["spouse_s"] == 0 and tier["partner"] == 1
    assert tier["start"] == tier["end"] == 1  # companions of `partner`, moved up
    assert tier["filler_3"] == 3
    shown = choose_relations(g, rels, question, 4, anchors=anchors)
    assert shown == ["spouse_s", "partner", "start", "end"]
    monkeypatch.setattr(relations, "COMPANION_MIN", 1.01)  # no companions: start/end stay out
    without = rank_relations(g, rels, question, anchors=anchors).tier
    assert dict(zip(rels, without, strict=True))["start"] == 3
    assert "start" not in choose_relations(g, rels, question, 4, anchors=anchors)


def test_no_anchor_means_no_companions() -> None:
    g = _marriages()
    rels = list(dict.fromkeys(g.relation_names))
    assert set(rank_relations(g, rels, "when did ann get married?").tier) == {3}


def test_why_missed_names_each_reason() -> None:
    g = _marriages()
    cases = [Case("gone", "when did ann get married?", ("spouse_s", "divorce_reason")),
             Case("far", "when did ann get married?", ("filler_5",)),
             Case("cut", "when did ann get married?", ("end",)),
             Case("nobody", "what is a filler?", ("filler_2",))]
    ranked = rankings(cases, g)
    misses = {(m.case, m.relation): m for m in why_missed(ranked, Shares(0.5, 0.25, 0.0), 2)}
    assert misses[("gone", "divorce_reason")].reason == "not in graph"
    assert ("gone", "spouse_s") not in misses  # shown
    assert misses[("far", "filler_5")].reason == "beyond 3 hops"
    cut = misses[("cut", "end")]
    assert (cut.reason, cut.tier) == ("ranked below the cut", 1) and cut.rank is not None
    assert misses[("nobody", "filler_2")].reason == "no entity linked"
    assert why_missed(ranked, Shares(0.5, 0.25, 0.0), 40) == [
        m for m in misses.values() if m.reason == "not in graph"]  # all shown but the absent


def test_recall_counts_unreachable_questions_and_prompt_tokens_apart() -> None:
    g = _marriages()
    cases = [Case("a", "when did ann get married?", ("spouse_s", "start")),
             Case("b", "when did ann get married?", ("spouse_s", "divorce_reason"))]
    r = relation_recall("toy", cases, g, None, 4)
    assert (r.hits, r.n, r.n_in_graph, r.hits_in_graph) == (1, 2, 1, 1)
    assert r.recall == 0.5 and r.recall_in_graph == 1.0
    assert len(r.schema_tokens) == 2 and r.mean_tokens > 10
    assert r.missed == {"b": ("divorce_reason",)}
