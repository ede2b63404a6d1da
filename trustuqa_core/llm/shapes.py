"""What a prompt may say about the *shape* of data without showing a data value.

Three descriptions, all derived from the graph, none quoting a value:

- :func:`value_shape`: the format of one value, digits as ``d`` and letters as ``a``
  (``'1:07.05'`` -> ``d:dd.dd``, ``'2011-03-04'`` -> ``yyyy-mm-dd``, a 4-digit year ->
  ``yyyy``); values with more than two letters in a row are just ``text``.
- :func:`column_profile`: a table column's formats (the most common shapes, with shares) and
  how many rows leave it blank (``blank in 3 of 20 rows``).
- :func:`relation_signature`: a KG/TKG relation's direction as ``head kind -> tail kind``.

The kind heuristic (documented in docs/PROMPTS.md). For the heads (or tails) of a relation
``r``, up to :data:`SAMPLE` nodes are looked at, in fact order:

1. When at least 80% of them have one literal format, the kind is that format: ``year``,
   ``number``, ``date (yyyy-mm-dd)``, or the shape itself (``d:dd.dd``).
2. Freebase-style relation names (``people.person.profession``) carry a type: the kind is
   the type most of the nodes are heads of (``person``).
3. Otherwise the kind names another relation the same nodes take part in, the one covering
   most of them: ``tail of 'award received'`` (things that ``award received`` points to) or
   ``head of 'release_year'`` (things that have a ``release_year``). ``r`` itself counts only
   on its other side.
4. With nothing covering at least 30% of them, a head is an ``entity`` and a tail is named
   after the relation (a dotted name by its last part: ``its spouse_s``), which in KGs like
   MetaQA and Wikidata describes the tail as seen from the head (``winner: entity -> its
   winner``: the head has the tail as its winner).

>>> value_shape("1:07.05"), value_shape("2011-03-04"), value_shape("1852"), value_shape("Italy")
('d:dd.dd', 'yyyy-mm-dd', 'yyyy', 'text')
>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.sources import SourceFacts
>>> g = build_graph([SourceFacts("kb", "kg", ["Copley Medal", "Ann", "Ann"],
...                              ["winner", "award received", "born"],
...                              ["Ann", "Copley Medal", "1801"], [1, 2, 3])])
>>> str(relation_signature(g, g.relation("winner")))
"winner: tail of 'award received' -> head of 'award received'"
>>> str(relation_signature(g, g.relation("born")))
"born: tail of 'winner' -> year"
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..store import GraphStore

__all__ = ["SAMPLE", "RelationSignature", "value_shape", "shape_kind", "column_profile",
           "relation_signature", "example_triple"]

SAMPLE = 64
_LITERAL_SHARE = 0.8
_COVER_SHARE = 0.3
_ISO_DATE = re.compile(r"\d{4}-\d\d-\d\d")
_YEAR = re.compile(r"1\d\d\d|20\d\d")
_MONTHS = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b", re.I)
_MAX_SHAPE = 16


def value_shape(text: str) -> str:
    """The format of a value with its digits and letters hidden (see the module docstring).

    >>> value_shape("+0.74"), value_shape("12th"), value_shape("March 3, 1999"), value_shape("")
    ('+d.dd', 'ddaa', 'month d, yyyy', 'blank')
    """
    text = " ".join(text.split())
    if not text:
        return "blank"
    if _ISO_DATE.fullmatch(text):
        return "yyyy-mm-dd"
    if _YEAR.fullmatch(text):
        return "yyyy"
    dated = _MONTHS.sub("month", text)
    if dated != text and re.search(r"\d", dated):
        rest = re.sub(r"\b(1\d\d\d|20\d\d)\b", "yyyy", dated.replace("month", "\x00"))
        rest = re.sub(r"\d", "d", rest).replace("\x00", "month")
        if not re.search(r"[A-Za-z]{3,}", rest.replace("month", "").replace("yyyy", "")):
            return rest
    if re.search(r"[^\W\d_]{3,}", text) or len(text) > _MAX_SHAPE:
        return "text"
    return re.sub(r"\d", "d", re.sub(r"[^\W\d_]", "a", text))


def shape_kind(shape: str) -> str:
    """A readable kind for a shape: ``yyyy`` -> ``year``, digits -> ``number``.

    >>> shape_kind("yyyy"), shape_kind("ddd"), shape_kind("d,ddd"), shape_kind("d:dd.dd")
    ('year', 'number', 'number', 'd:dd.dd')
    """
    if shape == "yyyy":
        return "year"
    if shape == "yyyy-mm-dd":
        return "date (yyyy-mm-dd)"
    if re.fullmatch(r"[-+]?d+(,ddd)*(\.d+)?", shape):
        return "number"
    return shape


def _fact_ids(graph: GraphStore, rel: int | None, source: int | None) -> np.ndarray:
    if rel is None:
        return np.zeros(0, dtype=np.int64)
    facts = np.sort(graph.facts_rel(rel))
    if source is not None:
        facts = facts[graph.sources_of(facts) == source]
    return facts


def column_profile(graph: GraphStore, source: int, column: str) -> str:
    """A table column's formats and blanks, no values: ``d:dd.dd`` or ``number, blank in 3 of
    20 rows`` or ``text 90%, d 10%``."""
    facts = _fact_ids(graph, graph.relation(column), source)
    labels = graph.labels(graph.tails_of(facts))
    shapes = Counter(value_shape(x) for x in labels)
    shapes.pop("blank", None)
    total = sum(shapes.values())
    rows = graph.sources[source].n_rows
    filled = len(np.unique(graph.heads_of(facts))) if len(facts) else 0
    kinds: Counter[str] = Counter()
    for shape, n in shapes.items():
        kinds[shape_kind(shape)] += n
    if not kinds:
        text = "empty"
    elif len(kinds) == 1:
        text = next(iter(kinds))
    else:
        text = ", ".join(f"{k} {round(100 * n / total)}%" for k, n in kinds.most_common(3))
        if len(kinds) > 3:
            text += ", other formats"
    blanks = rows - filled
    if blanks > 0 and rows:
        text += f", blank in {blanks} of {rows} rows"
    return text


@dataclass(frozen=True)
class RelationSignature:
    """A relation's direction: ``name: head -> tail`` (``time`` for temporal facts)."""

    name: str
    head: str
    tail: str
    time: str = ""

    def __str__(self) -> str:
        time = f" ({self.time})" if self.time else ""
        return f"{self.name}: {self.head} -> {self.tail}{time}"


def _literal_kind(labels: Sequence[str]) -> str | None:
    if not labels:
        return None
    kinds = Counter(shape_kind(value_shape(x)) for x in labels)
    kind, n = kinds.most_common(1)[0]
    if re.search(r"d|year|number", kind) and n >= _LITERAL_SHARE * len(labels):
        return kind
    return None


def _freebase_kind(graph: GraphStore, nodes: np.ndarray, head_rels: list[set[int]]
                   ) -> str | None:
    votes: Counter[str] = Counter()
    for rels in head_rels:
        types = {".".join(graph.relation_names[r].split(".")[:2])
                 for r in rels if graph.relation_names[r].count(".") >= 2}
        votes.update(types)
    if not votes:
        return None
    kind, n = votes.most_common(1)[0]
    if n < _COVER_SHARE * len(nodes):
        return None
    return kind.split(".")[-1].replace("_", " ")


def _rels_per_node(graph: GraphStore, nodes: np.ndarray, side: str) -> list[set[int]]:
    """The relations each of ``nodes`` is the head (or tail) of, in one store call for all
    nodes (a store on disk answers each call in milliseconds, so one call per node adds up)."""
    owners, rels = graph.node_relations(np.asarray(nodes, dtype=np.int64), side)
    where = {int(n): i for i, n in enumerate(nodes.tolist())}
    out: list[set[int]] = [set() for _ in range(len(nodes))]
    for n, r in zip(owners.tolist(), rels.tolist(), strict=True):
        out[where[n]].add(r)
    return out


def _head_rels(graph: GraphStore, nodes: np.ndarray) -> list[set[int]]:
    """The relations each node is the head of."""
    return _rels_per_node(graph, nodes, "head")


def _tail_rels(graph: GraphStore, nodes: np.ndarray) -> list[set[int]]:
    """The relations each node is the tail of."""
    return _rels_per_node(graph, nodes, "tail")


def _cover_kind(graph: GraphStore, nodes: np.ndarray, rel: int, side: str,
                head_rels: list[set[int]]) -> str:
    votes: Counter[tuple[str, int]] = Counter()
    for as_head, as_tail in zip(head_rels, _tail_rels(graph, nodes), strict=True):
        seen = {("head", r) for r in as_head} | {("tail", r) for r in as_tail}
        seen.discard((side, rel))
        votes.update(seen)
    if not votes:
        return "entity" if side == "head" else _its(graph.relation_names[rel])
    best = max(votes.items(), key=lambda kv: (kv[1], kv[0][0] == "tail", -kv[0][1]))
    (where, other), n = best
    if n < _COVER_SHARE * len(nodes):
        return "entity" if side == "head" else _its(graph.relation_names[rel])
    return f"{where} of '{graph.relation_names[other]}'"


def _its(name: str) -> str:
    """A tail kind named after its relation; a dotted name by its last part only (the line
    already spells the whole name, and Freebase names are long).

    >>> _its("winner"), _its("people.person.spouse_s")
    ('its winner', 'its spouse_s')
    """
    return f"its {name.rpartition('.')[2] if name.count('.') >= 2 else name}"


def _kind(graph: GraphStore, nodes: np.ndarray, rel: int, side: str) -> str:
    nodes = nodes[:SAMPLE]
    literal = _literal_kind(graph.labels(nodes))
    if literal is not None:
        return literal
    head_rels = _head_rels(graph, nodes)
    return (_freebase_kind(graph, nodes, head_rels)
            or _cover_kind(graph, nodes, rel, side, head_rels))


def _time_kind(graph: GraphStore, facts: np.ndarray) -> str:
    """``time: year`` or ``time: span of years`` from the first :data:`SAMPLE` facts."""
    starts, ends = graph.intervals_of(np.asarray(facts[:SAMPLE], dtype=np.int64))
    known = ~(np.isnan(starts) & np.isnan(ends))
    if not known.any():
        return ""
    if np.array_equal(starts[known], ends[known]):
        return "time: year"
    return "time: span of years"


def _spread(nodes: np.ndarray) -> np.ndarray:
    """At most :data:`SAMPLE` nodes, a fixed spread over all of them (not the first ids)."""
    if len(nodes) <= SAMPLE:
        return nodes
    return np.sort(np.random.default_rng(0).choice(nodes, SAMPLE, replace=False))


def relation_signature(graph: GraphStore, rel: int, source: int | None = None
                       ) -> RelationSignature:
    """The direction of relation ``rel`` (within one source when ``source`` is given), read
    from a fixed sample of its distinct heads and tails and its first facts: the store does
    the scanning, so a relation with millions of facts costs a few store calls."""
    heads = graph.relation_nodes(rel, "head", source)
    tails = graph.relation_nodes(rel, "tail", source)
    return RelationSignature(graph.relation_names[rel],
                             _kind(graph, _spread(heads), rel, "head"),
                             _kind(graph, _spread(tails), rel, "tail"),
                             _time_kind(graph, graph.first_facts_of_rel(rel, SAMPLE, source)))


def example_triple(graph: GraphStore, rel: int, source: int | None = None) -> str:
    """One fact of ``rel`` as ``(head, relation, tail[, years])`` -- data values: only with
    privacy off."""
    facts = graph.first_facts_of_rel(rel, 1, source)
    if not len(facts):
        return ""
    fact = int(facts[0])
    head, name, tail = (" ".join(x.split()) for x in graph.fact_text(fact))
    span = graph.interval(fact)
    years = ""
    if span is not None:
        lo, hi = (int(x) if np.isfinite(x) else None for x in span)
        years = f", {lo}" if lo == hi else f", {lo or ''}-{hi or ''}"
    return f"({head}, {name}, {tail}{years})"
