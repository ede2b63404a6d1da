"""Which relations of a big graph a prompt shows: start from the question's entities.

A KG with hundreds of relations cannot be listed in a prompt. Similarity between the question
and relation names alone misses relations whose names share no word with the question
(``people.person.profession`` for "what does X do?"). So the relations are chosen in tiers:

1. relations of the facts touching the question's linked entities (1 hop, either direction);
2. relations of the facts touching their neighbours (2 hops);
3. relations 3 hops away (an intermediate node, then its neighbours);
4. every other relation.

The reverse of a 1-hop relation (the same facts under the other direction's name,
:func:`reverse_relations`) joins tier 2, and so do the relations of the linked entities'
peers (nodes with the same relations, :func:`peer_relations`).

A dotted relation of the same type as a tier-1 or tier-2 one (``people.marriage.from`` beside
``people.marriage.spouse``) joins tier 2 even when the linked nodes lack it: a benchmark
subgraph keeps only some facts of a node (:func:`_with_siblings`; on the WebQSP dev tune half
this took recall from 142 to 148 of 161 questions, on the held-out check half from 126 to
130 of 148; undotted names are unaffected).

Within a tier relations are ranked by similarity to the question (cosine with an encoder, else
word overlap); a 2-hop relation adds the similarity of the best 1-hop relation leading to it
(``headquarters`` -> ``mailing_address.citytown``), and every relation adds
:data:`SIZE_WEIGHT` times its size (log of its fact count, relative to the largest relation's):
relations used by many facts (``people.person.gender``) are more often asked about, even as a
constraint whose name shares nothing with the question ("wife"). On the WebQSP dev tune half
weights 0.15-0.4 cover 155 of the 158 answerable questions (0: 154), 0.15-0.25 show the most
gold relations (305 of 312); 0.2 is the middle. Ties are broken by how many facts the
relation has. The list is filled in shares, so that a wrong or missing entity link cannot
crowd out everything else: up to :data:`ONE_HOP_SHARE` of the places for tier 1, up to
:data:`TWO_HOP_SHARE` for tier 2 (a question often needs a second hop through an
intermediate node), :data:`SIZE_SHARE` for the relations with the most facts (the ones most
often asked about), and the rest in tier order.

Linked entities are the graph entities the question names (longest word spans first, matched
by the mapper's normalised entity lookup), or those given by the caller (e.g. a benchmark's
topic entity). Word overlap uses a crude stem (``players`` ~ ``player``).

The shares (:data:`SHARES`) were chosen on the *tune* half of WebQSP dev only (a fixed split
by a hash of the question id; no train subgraphs are available): ``python
scripts/relation_recall.py --benchmark webqsp --half tune`` scores a small grid (1-hop 0.4-0.8,
2-hop 0.1-0.3, largest 0-0.1) and takes the best, ties going to the middle of the tied set.
The recall reported is that of the *check* half and of CronQuestions valid, neither of which
was looked at in choosing (see docs/PROMPTS.md for the figures).

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.mapping.mapper import Mapper
>>> from trustuqa_core.sources import SourceFacts
>>> g = build_graph([SourceFacts("kb", "kg", ["Ann", "Bob", "Ann"], ["job", "born", "lives"],
...                              ["Cook", "1990", "Rome"], [1, 2, 3])])
>>> [g.label(n) for n in linked_entities("what does ann do?", Mapper(g, None))]
['Ann']
>>> choose_relations(g, ["job", "born", "lives"], "what does ann do?", 2,
...                  anchors=linked_entities("what does ann do?", Mapper(g, None)))
['job', 'lives']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..mapping.dense import EmbeddingIndex, Encoder
from ..mapping.mapper import Mapper
from ..store import GraphStore

__all__ = ["ONE_HOP_SHARE", "TWO_HOP_SHARE", "SIZE_SHARE", "SHARES", "Shares", "Ranking",
           "linked_entities", "relation_tiers", "reverse_relations", "rank_relations", "fill",
           "choose_relations", "choose_within"]



class Shares(NamedTuple):
    """Shares of the shown places reserved for 1-hop relations, 2-hop relations and the
    relations with the most facts (the rest is filled in tier order)."""

    one_hop: float
    two_hop: float
    size: float


#: chosen on the tune half of WebQSP dev only (see the module docstring)
SHARES = Shares(0.5, 0.2, 0.05)
ONE_HOP_SHARE, TWO_HOP_SHARE, SIZE_SHARE = SHARES
#: weight of a relation's size (log of its fact count over the largest's) added to its
#: similarity; chosen on the tune half of WebQSP dev only (module docstring)
SIZE_WEIGHT = 0.2
_MAX_WORDS = 8
_MAX_NEIGHBOURS = 2000
_SAMPLE = 256  # facts of a relation looked at for its reverse
_MIRRORED = 2  # mirrored facts that make a reverse
_WORD = re.compile(r"[^\W_]+(?:['.][^\W_]+)*", re.UNICODE)
_SKIP = {"the", "a", "an", "of", "in", "on", "by", "for", "who", "what", "which", "when",
         "where", "how", "is", "was", "did", "does", "do", "are", "were", "and", "to", "with"}


def linked_entities(question: str, mapper: Mapper, extra: Sequence[str] = ()) -> list[int]:
    """Graph entities the question names (longest spans first, non-overlapping); when
    ``extra`` texts are given (e.g. a benchmark's topic entities) their nodes instead."""
    if extra:
        return list(dict.fromkeys(int(x) for t in extra for x in mapper.entities.normalized(t)))
    words = _WORD.findall(question)
    taken: set[int] = set()
    found: list[int] = []
    pool = mapper.entities
    for n in range(min(_MAX_WORDS, len(words)), 0, -1):
        for i in range(len(words) - n + 1):
            span = set(range(i, i + n))
            if taken & span:
                continue
            text = " ".join(words[i:i + n])
            if n == 1 and (len(text) < 3 or text.casefold() in _SKIP):
                continue
            ids = pool.normalized(text)
            if ids:
                found += [int(x) for x in ids]
                taken |= span
    return list(dict.fromkeys(found))


def relation_tiers(graph: GraphStore, anchors: Sequence[int]
                   ) -> tuple[set[int], set[int], set[int]]:
    """Relation ids 1 hop from the anchors, 2 hops (not 1), and 3 hops (not 1 or 2)."""
    one, two, three, _ = _paths(graph, anchors, {})
    return one, two, three


def _paths(graph: GraphStore, anchors: Sequence[int], sim: dict[int, float]
           ) -> tuple[set[int], set[int], set[int], dict[int, float]]:
    """1-, 2- and 3-hop relation ids, and for each 2-hop relation the best similarity of a
    1-hop relation leading to it (``sim``: relation id -> similarity to the question)."""
    if not anchors:
        return set(), set(), set(), {}
    nodes = np.asarray(sorted(set(anchors)), dtype=np.int64)
    facts = _touching(graph, nodes)
    rels = graph.rels_of(facts)
    one = {int(r) for r in np.unique(rels)}
    heads, tails = graph.heads_of(facts), graph.tails_of(facts)
    other = np.where(np.isin(heads, nodes), tails, heads)
    lead = np.array([sim.get(int(r), 0.0) for r in rels.tolist()], dtype=np.float64)
    near, first = np.unique(other, return_inverse=True)
    best = np.full(len(near), -np.inf)
    np.maximum.at(best, first, lead)
    keep = ~np.isin(near, nodes)
    near, best = near[keep], best[keep]
    if len(near) > _MAX_NEIGHBOURS:  # a hub: its neighbours reached by the likeliest relations
        top = np.sort(np.argsort(-best, kind="stable")[:_MAX_NEIGHBOURS])
        near, best = near[top], best[top]
    boost: dict[int, float] = {}
    lead_of = dict(zip(near.tolist(), best.tolist(), strict=True))
    hop = _touching(graph, near)
    for h, r, t in zip(graph.heads_of(hop).tolist(), graph.rels_of(hop).tolist(),
                       graph.tails_of(hop).tolist(), strict=True):
        via = max(lead_of.get(h, -np.inf), lead_of.get(t, -np.inf))
        if via > boost.get(r, -np.inf):
            boost[r] = via
    two = set(boost) - one
    ring = np.unique(np.concatenate([graph.heads_of(hop), graph.tails_of(hop)]))
    ring = np.setdiff1d(ring, np.concatenate([near, nodes]))
    if len(ring) > _MAX_NEIGHBOURS:
        ring = np.sort(np.random.default_rng(0).choice(ring, _MAX_NEIGHBOURS, replace=False))
    three = {int(r) for r in np.unique(graph.rels_of(_touching(graph, ring)))} - one - two
    back = reverse_relations(graph, one) - one  # likely, not certain: the 2-hop tier
    back |= peer_relations(graph, nodes) - one
    return one, two | back, three - back, boost


_PEERS = 20  # nodes most like the anchors whose relations are looked at
_PEER_MIN = 2  # relations a node must share with the anchors to be a peer


def peer_relations(graph: GraphStore, anchors: np.ndarray) -> set[int]:
    """Relations of the anchors' *peers*: the nodes that are heads of at least
    :data:`_PEER_MIN` of the relations the anchors are heads of (the :data:`_PEERS` sharing
    the most; :data:`_SAMPLE` facts of each relation looked at).

    A benchmark subgraph keeps only some facts of a node: a country's subgraph may lack the
    ``location.statistical_region.places_exported_to`` that other countries in the graph
    have. Nodes with the same relations are likely of the same kind, so their relations are
    likely ones for the question's node too; they join the 2-hop tier. On the WebQSP dev
    tune half this shows 4 more of the 312 gold relations in the graph (301 -> 305); the
    questions fully covered are unchanged (155 of 158).

    >>> from trustuqa_core.sources import SourceFacts
    >>> from trustuqa_core.graph import build_graph
    >>> g = build_graph([SourceFacts("kb", "kg", ["A", "A", "B", "B", "B", "C"],
    ...     ["born", "job", "born", "job", "exports", "job"],
    ...     ["1990", "Cook", "1980", "Chef", "Tea", "Poet"], [1, 2, 3, 4, 5, 6])])
    >>> anchors = np.asarray([g.entity("A")])
    >>> sorted(g.relation_names[r] for r in peer_relations(g, anchors))
    ['born', 'exports', 'job']
    """
    facts = graph.facts_heads(anchors)
    own = {int(r) for r in np.unique(graph.rels_of(facts))}
    if len(own) < _PEER_MIN:
        return set()
    votes: dict[int, int] = {}
    mine = set(anchors.tolist())
    for rel in sorted(own):
        found = np.sort(graph.facts_rel(rel))
        if len(found) > _SAMPLE:
            found = found[np.linspace(0, len(found) - 1, _SAMPLE).astype(np.int64)]
        for h in np.unique(graph.heads_of(found)).tolist():
            if h not in mine:
                votes[h] = votes.get(h, 0) + 1
    peers = sorted((h for h, v in votes.items() if v >= _PEER_MIN), key=lambda h: (-votes[h], h))
    if not peers:
        return set()
    near = graph.facts_heads(np.asarray(sorted(peers[:_PEERS]), dtype=np.int64))
    return {int(r) for r in np.unique(graph.rels_of(near))}


def reverse_relations(graph: GraphStore, rels: set[int]) -> set[int]:
    """Relations that run the other way of one of ``rels``: ``r2`` is a reverse of ``r`` when
    at least :data:`_MIRRORED` facts ``(a, r, b)`` (of :data:`_SAMPLE` looked at) have a
    mirror ``(b, r2, a)`` anywhere in the graph.

    Freebase-style KGs hold both directions under two names (``time.event.
    instance_of_recurring_event`` / ``time.recurring_event.instances``), and a benchmark
    subgraph often keeps only one of them for a node: the question's node is then 1 hop from
    the name the query needs only through the reverse. Reverses of 1-hop relations join the
    2-hop tier (in the 1-hop tier they crowded out a 2-hop relation another question needed);
    on the WebQSP dev tune half this adds one question (``which city held the summer olympics
    twice?``).

    >>> from trustuqa_core.sources import SourceFacts
    >>> from trustuqa_core.graph import build_graph
    >>> g = build_graph([SourceFacts("kb", "kg", ["e1", "O", "e2", "O", "e3"],
    ...     ["instance_of", "instances", "instance_of", "instances", "instance_of"],
    ...     ["O", "e1", "O", "e2", "P"], [1, 2, 3, 4, 5])])
    >>> [g.relation_names[r] for r in reverse_relations(g, {g.relation("instance_of")})]
    ['instances']
    """
    found: set[int] = set()
    for rel in sorted(rels):
        facts = np.sort(graph.facts_rel(rel))
        if len(facts) > _SAMPLE:
            facts = facts[np.linspace(0, len(facts) - 1, _SAMPLE).astype(np.int64)]
        heads, tails = graph.heads_of(facts), graph.tails_of(facts)
        back = graph.facts_heads(np.unique(tails))
        if not len(back):
            continue
        pairs = set(zip(heads.tolist(), tails.tolist(), strict=True))
        mirrored: dict[int, int] = {}
        for h, r, t in zip(graph.heads_of(back).tolist(), graph.rels_of(back).tolist(),
                           graph.tails_of(back).tolist(), strict=True):
            if r != rel and (t, h) in pairs:
                mirrored[r] = mirrored.get(r, 0) + 1
        found |= {r for r, n in mirrored.items() if n >= _MIRRORED}
    return found


def _touching(graph: GraphStore, nodes: np.ndarray) -> np.ndarray:
    parts = [graph.facts_heads(nodes)] + [graph.facts_tail(int(n)) for n in nodes.tolist()]
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)


def _stem(word: str) -> str:
    """A crude English stem: ``players`` / ``played`` / ``playing`` -> ``play``."""
    for end in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            return word[: -len(end)] + ("y" if end == "ies" else "")
    return word


def _words(text: str) -> set[str]:
    return {_stem(w) for w in re.split(r"[^a-z0-9]+", text.casefold()) if len(w) > 2}


def _similarity(rels: Sequence[str], question: str, encoder: Encoder | None,
                index: EmbeddingIndex | None) -> np.ndarray:
    readable = [re.sub(r"[._]+", " ", r) for r in rels]
    if encoder is not None and question:
        index = index or EmbeddingIndex(readable, encoder)
        return np.asarray(index.vectors @ index.encode_query(question), dtype=np.float64)
    q = _words(question)
    return np.array([len(q & _words(r)) / (1 + len(_words(r))) for r in readable],
                    dtype=np.float64)


@dataclass(frozen=True)
class Ranking:
    """The relations of a big graph ranked for one question: ``order`` (indices into the
    relation list, best first within tier order), each one's ``tier`` (0-3) and ``size``
    (number of facts). :func:`fill` turns it into the relations shown."""

    order: tuple[int, ...]
    tier: tuple[int, ...]
    size: tuple[float, ...]


def rank_relations(graph: GraphStore, rels: Sequence[str], question: str, *,
                   anchors: Sequence[int] = (), encoder: Encoder | None = None,
                   index: EmbeddingIndex | None = None, size_weight: float | None = None
                   ) -> Ranking:
    """Tier, similarity and size ranking of ``rels`` for ``question`` (module docstring);
    ``size_weight``: :data:`SIZE_WEIGHT` unless given."""
    sim = _similarity(rels, question, encoder, index)
    ids = [graph.relation(r) for r in rels]
    one, two, three, boost = _paths(
        graph, anchors, {i: float(x) for i, x in zip(ids, sim, strict=True) if i is not None})
    size = [float(len(graph.facts_rel(i))) if i is not None else 0.0 for i in ids]
    tier = [0 if i in one else 1 if i in two else 2 if i in three else 3 for i in ids]
    if anchors:
        tier = _with_siblings(graph, ids, tier)
    score = [float(sim[j]) + (boost.get(i, 0.0) if tier[j] == 1 and i is not None else 0.0)
             for j, i in enumerate(ids)]
    weight = SIZE_WEIGHT if size_weight is None else size_weight
    if weight:
        top = np.log1p(max(size, default=0.0)) or 1.0
        score = [x + weight * float(np.log1p(size[j])) / top for j, x in enumerate(score)]
    order = sorted(range(len(rels)), key=lambda j: (tier[j], -score[j], -size[j], j))
    return Ranking(tuple(order), tuple(tier), tuple(size))


def _with_siblings(graph: GraphStore, ids: Sequence[int | None], tier: list[int]
                   ) -> list[int]:
    """Tiers after moving namespace siblings of 1- and 2-hop relations to the 2-hop tier (1).

    A benchmark subgraph keeps only some facts of a node: a question's marriage node may have
    ``people.marriage.spouse`` but lack the ``people.marriage.from`` / ``.to`` that other
    marriage nodes have. A dotted name's type part (:func:`_namespace`) says which kind of
    node has it, so relations of the same type as a nearby relation are likely ones too.
    Undotted names (MetaQA, Wikidata labels) have no siblings: their tiers are unchanged."""
    kinds = {_namespace(graph.relation_names[i]) for i, t in zip(ids, tier, strict=True)
             if i is not None and t <= 1} - {""}
    if not kinds:
        return tier
    return [1 if t > 1 and i is not None and _namespace(graph.relation_names[i]) in kinds
            else t for t, i in zip(tier, ids, strict=True)]


def _namespace(name: str) -> str:
    """The type part of a dotted relation name (``people.marriage.from`` -> ``people.marriage``;
    ``""`` for undotted names): Freebase-style names say which kind of node has them.

    >>> _namespace("people.marriage.from"), _namespace("spouse")
    ('people.marriage', '')
    """
    return name.rpartition(".")[0] if name.count(".") >= 2 else ""


def fill(ranking: Ranking, limit: int, shares: Shares = SHARES) -> list[int]:
    """Indices of the ``limit`` relations to show, sorted, filled in ``shares``.

    >>> fill(Ranking((2, 0, 1, 3), (0, 1, 3, 3), (1.0, 1.0, 9.0, 1.0)), 2, Shares(0.5, 0, 0))
    [0, 2]
    """
    chosen: list[int] = []
    for part, share in ((0, shares.one_hop), (1, shares.two_hop)):
        chosen += [j for j in ranking.order if ranking.tier[j] == part][: int(limit * share)]
    taken = set(chosen)
    biggest = sorted((j for j in range(len(ranking.order)) if j not in taken),
                     key=lambda j: -ranking.size[j])
    chosen += biggest[: int(limit * shares.size)]
    taken = set(chosen)
    chosen += [j for j in ranking.order if j not in taken][: limit - len(chosen)]
    return sorted(chosen)


def choose_relations(graph: GraphStore, rels: Sequence[str], question: str, limit: int,
                     *, anchors: Sequence[int] = (), encoder: Encoder | None = None,
                     index: EmbeddingIndex | None = None) -> list[str]:
    """The ``limit`` relations of ``rels`` to show, in their original order (module docstring).

    ``index``: embeddings of ``rels`` (readable names) computed earlier with ``encoder``.
    """
    if len(rels) <= limit:
        return list(rels)
    ranking = rank_relations(graph, rels, question, anchors=anchors, encoder=encoder,
                             index=index)
    return [rels[j] for j in fill(ranking, limit)]


def choose_within(graph: GraphStore, rels: Sequence[str], question: str,
                  cost: Callable[[str], int], budget: int, cap: int | None = None, *,
                  anchors: Sequence[int] = (), encoder: Encoder | None = None,
                  index: EmbeddingIndex | None = None) -> list[str]:
    """The relations of ``rels`` to show within a token ``budget`` (and at most ``cap``), in
    their original order: the most places :func:`fill` can be given while the lines'
    ``cost`` (tokens of one relation's schema line) sums to at most ``budget``.

    A budget instead of a count lets a graph with short relation lines show more of them and
    keeps long Freebase-style lines from swelling the prompt. At least one relation is shown.

    >>> from trustuqa_core.sources import SourceFacts
    >>> from trustuqa_core.graph import build_graph
    >>> g = build_graph([SourceFacts("kb", "kg", ["A"] * 4, ["r1", "r2", "long_name", "r3"],
    ...                              ["B", "C", "D", "E"], [1, 2, 3, 4])])
    >>> rels = ["r1", "r2", "long_name", "r3"]
    >>> choose_within(g, rels, "name", len, 12), choose_within(g, rels, "name", len, 10)
    (['r1', 'long_name'], ['long_name'])
    """
    cap = len(rels) if cap is None else min(cap, len(rels))
    if sum(cost(r) for r in rels[:cap]) <= budget and cap == len(rels):
        return list(rels)
    ranking = rank_relations(graph, rels, question, anchors=anchors, encoder=encoder,
                             index=index)
    lo, hi = 1, cap  # the largest count that fits (the fill's cost grows with the count)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if sum(cost(rels[j]) for j in fill(ranking, mid)) <= budget:
            lo = mid
        else:
            hi = mid - 1
    return [rels[j] for j in fill(ranking, lo)]
