"""Relation choice on big graphs: namespace siblings of the linked nodes' relations, and why
a gold relation was missed (hand-made KGs)."""

from __future__ import annotations

import pytest

from trustuqa_core.evaluate.relation_recall import Case, rankings, relation_recall, why_missed
from trustuqa_core.graph import build_graph
from trustuqa_core.llm import relations
from trustuqa_core.llm.relations import (
    Shares,
    _namespace,
    choose_relations,
    linked_entities,
    rank_relations,
)
from trustuqa_core.mapping.mapper import Mapper
from trustuqa_core.sources import SourceFacts


def _kg(triples: list[tuple[str, str, str]]):  # type: ignore[no-untyped-def]
    heads, rels, tails = (list(x) for x in zip(*triples, strict=True))
    return build_graph([SourceFacts("kb", "kg", heads, rels, tails, list(range(len(rels))))])


def _marriages():  # type: ignore[no-untyped-def]
    """Ann's marriage node lacks the ``start``/``end`` facts other marriage nodes have (a
    subgraph cut from a bigger KG); 12 unrelated, larger relations make the graph "big"."""
    triples = [("Ann", "person.spouse_s", "m1"), ("m1", "people.marriage.partner", "Bob")]
    for i in (2, 3, 4):  # other people's marriages, not linked to Ann
        triples += [(f"m{i}", "people.marriage.start", f"19{i}0"),
                    (f"m{i}", "people.marriage.end", f"19{i}5")]
    triples += [(f"X{i}", f"filler_{i}", f"Y{i}-{j}") for i in range(12) for j in range(5)]
    return _kg(triples)


def test_a_sibling_of_a_linked_relation_is_shown_though_the_node_lacks_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g = _marriages()
    rels = list(dict.fromkeys(g.relation_names))
    question = "when did ann get married?"
    anchors = linked_entities(question, Mapper(g, None))
    assert [g.label(a) for a in anchors] == ["Ann"]
    tier = dict(zip(rels, rank_relations(g, rels, question, anchors=anchors).tier, strict=True))
    start, end = "people.marriage.start", "people.marriage.end"
    assert tier["person.spouse_s"] == 0 and tier["people.marriage.partner"] == 1
    assert tier[start] == tier[end] == 1  # siblings of `people.marriage.partner`, moved up
    assert tier["filler_3"] == 3
    shown = choose_relations(g, rels, question, 4, anchors=anchors)
    assert set(shown) == {"person.spouse_s", "people.marriage.partner", start, end}
    monkeypatch.setattr(relations, "_namespace", lambda name: "")  # no siblings: they stay out
    without = rank_relations(g, rels, question, anchors=anchors).tier
    assert dict(zip(rels, without, strict=True))[start] == 3
    assert start not in choose_relations(g, rels, question, 4, anchors=anchors)


def test_only_dotted_names_have_a_namespace() -> None:
    assert _namespace("people.marriage.from") == "people.marriage"
    assert _namespace("a.b.c.d") == "a.b.c"
    assert _namespace("person.spouse_s") == _namespace("position held") == ""


def test_no_anchor_means_no_companions() -> None:
    g = _marriages()
    rels = list(dict.fromkeys(g.relation_names))
    assert set(rank_relations(g, rels, "when did ann get married?").tier) == {3}


def test_why_missed_names_each_reason() -> None:
    g = _marriages()
    cases = [Case("gone", "when did ann get married?", ("person.spouse_s", "divorce_reason")),
             Case("far", "when did ann get married?", ("filler_5",)),
             Case("cut", "when did ann get married?", ("people.marriage.end",)),
             Case("nobody", "what is a filler?", ("filler_2",))]
    ranked = rankings(cases, g)
    misses = {(m.case, m.relation): m for m in why_missed(ranked, Shares(0.5, 0.25, 0.0), 2)}
    assert misses[("gone", "divorce_reason")].reason == "not in graph"
    assert ("gone", "person.spouse_s") not in misses  # shown
    assert misses[("far", "filler_5")].reason == "beyond 3 hops"
    cut = misses[("cut", "people.marriage.end")]
    assert (cut.reason, cut.tier) == ("ranked below the cut", 1) and cut.rank is not None
    assert misses[("nobody", "filler_2")].reason == "no entity linked"
    assert why_missed(ranked, Shares(0.5, 0.25, 0.0), 40) == [
        m for m in misses.values() if m.reason == "not in graph"]  # all shown but the absent


def test_recall_counts_unreachable_questions_and_prompt_tokens_apart() -> None:
    g = _marriages()
    cases = [Case("a", "when did ann get married?", ("person.spouse_s", "people.marriage.end")),
             Case("b", "when did ann get married?", ("person.spouse_s", "divorce_reason"))]
    r = relation_recall("toy", cases, g, None, 4)
    assert (r.hits, r.n, r.n_in_graph, r.hits_in_graph) == (1, 2, 1, 1)
    assert r.recall == 0.5 and r.recall_in_graph == 1.0
    assert len(r.schema_tokens) == 2 and r.mean_tokens > 10
    assert r.missed == {"b": ("divorce_reason",)}


def test_a_token_budget_shows_more_short_relations_than_long_ones() -> None:
    """The relation lines are chosen within a token budget, not a count: short names fit more
    of them, and the block stays within the budget."""
    from trustuqa_core.llm.budget import estimate_tokens
    from trustuqa_core.llm.prompts import describe_schema

    def block(prefix: str) -> tuple[int, int]:
        g = _kg([(f"X{i}", f"{prefix}{i}", f"Y{i}") for i in range(80)])
        schema = describe_schema(g, "which one?", relation_tokens=400)
        lines = schema.text.splitlines()[1:]
        assert len(lines) == len(schema.relations) < 80
        assert sum(estimate_tokens(line) - 3 for line in lines) <= 400
        return len(lines), estimate_tokens(schema.text)

    short, _ = block("r")
    long, _ = block("some.much_longer_namespace.relation_name_number_")
    assert short > long > 0


def test_the_reverse_of_a_linked_relation_joins_the_two_hop_tier() -> None:
    """Summer Olympics is only the tail of ``instance_of`` here; other events show that
    ``instances`` runs the other way, so the reverse is shown though the node lacks it."""
    from trustuqa_core.llm.relations import reverse_relations

    triples = [("g1", "time.event.instance_of", "Summer Olympics")]
    for i in (2, 3, 4):  # another recurring event with both directions
        triples += [(f"w{i}", "time.event.instance_of", "World Cup"),
                    ("World Cup", "time.recurring.instances", f"w{i}")]
    triples += [(f"X{i}", f"filler_{i}", f"Y{i}-{j}") for i in range(12) for j in range(5)]
    g = _kg(triples)
    one = {g.relation("time.event.instance_of")}
    assert {g.relation_names[r] for r in reverse_relations(g, one)} == {
        "time.recurring.instances"}
    rels = list(dict.fromkeys(g.relation_names))
    question = "how often were the summer olympics held?"
    anchors = linked_entities(question, Mapper(g, None))
    tier = dict(zip(rels, rank_relations(g, rels, question, anchors=anchors).tier, strict=True))
    assert tier["time.event.instance_of"] == 0 and tier["time.recurring.instances"] == 1
    assert "time.recurring.instances" in choose_relations(g, rels, question, 3, anchors=anchors)
    assert not reverse_relations(g, {g.relation("filler_1")})
