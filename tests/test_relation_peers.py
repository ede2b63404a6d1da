"""Relation choice on big graphs: peers' relations, the size weight, and whole gold names."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core.evaluate.relation_recall import Case, gold_relations, webqsp_cases
from trustuqa_core.graph import build_graph
from trustuqa_core.llm import relations
from trustuqa_core.llm.relations import choose_relations, rank_relations
from trustuqa_core.sources import SourceFacts


def _kg(triples: list[tuple[str, str, str]]):  # type: ignore[no-untyped-def]
    heads, rels, tails = (list(x) for x in zip(*triples, strict=True))
    return build_graph([SourceFacts("kb", "kg", heads, rels, tails, list(range(len(rels))))])


def _countries():  # type: ignore[no-untyped-def]
    """Chad's subgraph lacks the export facts two other countries (its peers: both share
    ``capital`` and ``language`` with it) have; 12 unrelated relations make the graph big."""
    triples = [("Chad", "country.capital", "N'Djamena"), ("Chad", "country.language", "Arabic")]
    for c in ("Peru", "Fiji"):
        triples += [(c, "country.capital", f"{c} city"), (c, "country.language", f"{c} tongue"),
                    (c, "region.exports_to", f"{c} buyer")]
    triples += [(f"X{i}", f"filler_{i}", f"Y{i}-{j}") for i in range(12) for j in range(5)]
    return _kg(triples)


def test_a_relation_of_the_linked_nodes_peers_joins_the_two_hop_tier(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = _countries()
    rels = list(dict.fromkeys(g.relation_names))
    question = "which countries does chad sell goods to?"
    anchors = [g.entity("Chad")]
    tier = dict(zip(rels, rank_relations(g, rels, question, anchors=anchors).tier, strict=True))
    assert tier["country.capital"] == tier["country.language"] == 0
    assert tier["region.exports_to"] == 1
    assert "region.exports_to" in choose_relations(g, rels, question, 3, anchors=anchors)
    monkeypatch.setattr(relations, "_PEER_MIN", 3)  # Peru and Fiji share only 2: no peers
    tier = dict(zip(rels, rank_relations(g, rels, question, anchors=anchors).tier, strict=True))
    assert tier["region.exports_to"] == 3
    assert "region.exports_to" not in choose_relations(g, rels, question, 3, anchors=anchors)


def test_the_size_weight_lifts_a_big_relation_over_a_weakly_similar_small_one() -> None:
    triples = [("Ed", "gender", "male"), ("Ed", "wife_note_small_extra_words", "n1")]
    triples += [(f"P{i}", "gender", "female" if i % 2 else "male") for i in range(200)]
    g = _kg(triples)
    rels = ["wife_note_small_extra_words", "gender"]
    question = "who was the wife of ed?"
    anchors = [g.entity("Ed")]

    def first(weight: float) -> str:
        ranking = rank_relations(g, rels, question, anchors=anchors, size_weight=weight)
        return rels[ranking.order[0]]

    assert first(0.0) == "wife_note_small_extra_words"  # word overlap alone (1 word of 5)
    assert first(relations.SIZE_WEIGHT) == "gender"
    assert relations.SIZE_WEIGHT > 0


def test_gold_relations_keep_every_dotted_part() -> None:
    sparql = ("ns:m.0hzlz ns:base.aareas.schema.administrative_area.administrative_children ?x ."
              " ?x ns:location.location.containedby ns:m.0d0x8 .")
    assert gold_relations(sparql) == ("base.aareas.schema.administrative_area."
                                      "administrative_children", "location.location.containedby")


def test_webqsp_gold_relations_are_whole_names_of_the_data(data_dir: Path) -> None:
    cases: list[Case] = webqsp_cases(data_dir)
    with_long = [c for c in cases if any(g.count(".") >= 3 for g in c.gold)]
    assert with_long, "some WebQSP dev gold relations have four or more parts"
    long_names = {g for c in with_long for g in c.gold if g.count(".") >= 3}
    assert "base.aareas.schema.administrative_area.administrative_children" in long_names
    assert "base.aareas.schema" not in {g for c in cases for g in c.gold}
