"""How the loaded sources connect: the nodes each pair of sources shares.

A question can chain across sources (a table row -> a film -> its director -> a dated award)
only through nodes two sources have in common: a table cell that is also a KG entity, a KG
entity that is also the subject of a temporal fact. :func:`source_connections` counts, for
every pair of loaded sources, the nodes they share (table cells, KG / TKG heads and tails;
table rows and their ``row_number`` are each source's own and never count), gives a few
examples (words before bare numbers, the best-connected first) and names the sources that
share nothing with any other, so the Data page can say plainly that questions cannot chain
from them.

The work is bounded: a source with more than ``max_facts`` facts is read only in part (the
first facts of each of its relations, ``max_facts`` in all), and the result says which
sources were read in part (their shared counts are then lower bounds). At most
``max_pairs`` pairs are listed: the pairs sharing most words (not bare numbers) first.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Film,Director\\nHeat,Michael Mann\\nAlien,Ridley Scott\\n"],
...                kgs=[b"Heat|directed_by|Michael Mann\\n"],
...                tkgs=[b"Angela Merkel\\tposition held\\tChancellor\\t2005\\t2021\\n"])
>>> c = source_connections(g)
>>> [(p.first, p.second, p.shared, p.examples) for p in c.pairs]
[('table1', 'kg1', 2, ('Heat', 'Michael Mann'))]
>>> c.isolated
('tkg1',)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..numbers import parse_number
from ..store import GraphStore
from ..translate.table import ROW_NUMBER

__all__ = ["SourcePair", "Connections", "source_connections", "MAX_SCAN_FACTS", "MAX_PAIRS",
           "EXAMPLES", "UNLINKED_SOURCES"]

#: a source with more facts than this is read only in part (the first facts of each relation)
MAX_SCAN_FACTS = 200_000
#: at most this many pairs of sources are listed (the pairs sharing most nodes first)
MAX_PAIRS = 20
#: pairs sharing nothing (within one group) are named only with at most this many sources
UNLINKED_SOURCES = 6
#: examples of shared nodes given per pair
EXAMPLES = 5
_LABEL_CANDIDATES = 200  # per pair, the best-connected shared nodes whose labels are read


@dataclass(frozen=True)
class SourcePair:
    """Two sources and the nodes they share: how many, how many of them are bare numbers,
    and a few examples."""

    first: str
    second: str
    shared: int
    numbers: int
    examples: tuple[str, ...]

    def text(self) -> str:
        """One line for the page.

        >>> SourcePair("a.csv", "b.txt", 3, 1, ("Heat", "Alien")).text()
        'a.csv ↔ b.txt: 3 shared nodes (1 of them a number) — Heat, Alien, …'
        """
        noun = "node" if self.shared == 1 else "nodes"
        nums = ""
        if self.numbers:
            nums = (" (all of them numbers)" if self.numbers == self.shared
                    else f" ({self.numbers} of them a number)" if self.numbers == 1
                    else f" ({self.numbers} of them numbers)")
        more = ", …" if self.shared > len(self.examples) else ""
        return (f"{self.first} ↔ {self.second}: {self.shared:,} shared {noun}{nums} — "
                + ", ".join(self.examples) + more)


@dataclass(frozen=True)
class Connections:
    """The shared nodes between the loaded sources (see the module docstring)."""

    sources: tuple[str, ...]
    pairs: tuple[SourcePair, ...]  # pairs sharing a node, most words (not numbers) first
    more_pairs: int  # pairs sharing nodes beyond the ones listed
    isolated: tuple[str, ...]  # sources sharing no node with any other
    partial: tuple[tuple[str, int, int], ...]  # (source, facts read, facts) read in part
    groups: tuple[tuple[str, ...], ...] = ()  # sources linked through shared nodes (2+ each)
    unlinked: tuple[tuple[str, str], ...] = ()  # pairs of one group sharing no node themselves

    def notes(self) -> list[str]:
        """What the page says besides the pairs: unconnected sources, partial reading.

        >>> Connections(("a", "b"), (), 0, ("a", "b"), ()).notes()[0]
        'No two sources share a node: a question cannot chain from one source to another (each \
source still answers questions about itself).'
        """
        out = []
        if self.isolated and len(self.isolated) == len(self.sources):
            out.append("No two sources share a node: a question cannot chain from one source "
                       "to another (each source still answers questions about itself).")
        else:
            for name in self.isolated:
                out.append(f"{name} shares no node with the other sources: a question cannot "
                           "chain from it to them (questions about it are answered from it "
                           "alone).")
        if len(self.groups) > 1:
            out.append("The sources form separate groups (" + "; ".join(
                ", ".join(g) for g in self.groups) + "): a question cannot chain from one "
                "group to another.")
        if len(self.sources) <= UNLINKED_SOURCES:
            for a, b in self.unlinked:
                out.append(f"{a} and {b} share no node themselves: a question can chain "
                           "between them only through the other sources.")
        if self.more_pairs:
            out.append(f"{self.more_pairs:,} more pairs of sources share nodes (not listed).")
        for name, read, total in self.partial:
            out.append(f"{name} is large: only {read:,} of its {total:,} facts were read (the "
                       "first of each relation), so it may share more than shown.")
        return out


def source_connections(graph: GraphStore, *, max_facts: int = MAX_SCAN_FACTS,
                       max_pairs: int = MAX_PAIRS, examples: int = EXAMPLES
                       ) -> Connections | None:
    """The nodes each pair of ``graph``'s sources shares; None with fewer than two sources."""
    names = tuple(s.name for s in graph.sources)
    if len(names) < 2:
        return None
    skip = graph.relation(ROW_NUMBER)
    nodes, owners, partial = [], [], []
    for i, info in enumerate(graph.sources):
        got, read = _source_nodes(graph, i, info.kind, max_facts, skip)
        nodes.append(got)
        owners.append(np.full(len(got), i, dtype=np.int64))
        if read < info.n_facts:
            partial.append((info.name, read, info.n_facts))
    node, owner = np.concatenate(nodes), np.concatenate(owners)
    shared, counts, members, degree = _shared(node, owner)
    if len(shared) == 0:
        return Connections(names, (), 0, names, tuple(partial))
    # one row of bits per shared node (which sources hold it); the distinct rows, weighted by
    # how many nodes have them, give every pair's count in one product
    bits = np.zeros((len(shared), len(names)), dtype=bool)
    bits[np.repeat(np.arange(len(shared)), counts), members] = True
    numeric = np.array([parse_number(t) is not None for t in graph.labels(shared)], dtype=bool)
    rows, inverse, weight = np.unique(bits, axis=0, return_inverse=True, return_counts=True)
    words = np.bincount(inverse.ravel(), weights=~numeric, minlength=len(rows))
    together = (rows.T * weight) @ rows.astype(np.int64)
    worded = (rows.T * words) @ rows.astype(np.float64)
    found = [(int(together[a, b]), a, b) for a in range(len(names))
             for b in range(a + 1, len(names)) if together[a, b] > 0]
    # pairs sharing words (names, titles) before pairs sharing mostly bare numbers
    found.sort(key=lambda x: (-worded[x[1], x[2]], -x[0], x[1], x[2]))
    pairs = tuple(_pair(graph, names, a, b, n, shared, bits, numeric, degree, examples)
                  for n, a, b in found[:max_pairs])
    linked = {x for _, a, b in found for x in (a, b)}
    isolated = tuple(n for i, n in enumerate(names) if i not in linked)
    group = _groups(len(names), [(a, b) for _, a, b in found])
    groups = tuple(tuple(names[i] for i in range(len(names)) if group[i] == g)
                   for g in sorted({group[i] for i in linked}))
    unlinked = tuple((names[a], names[b]) for a in range(len(names))
                     for b in range(a + 1, len(names))
                     if a in linked and group[a] == group[b] and together[a, b] == 0)
    return Connections(names, pairs, max(len(found) - max_pairs, 0), isolated, tuple(partial),
                       groups, unlinked[:max_pairs])


def _groups(n: int, links: list[tuple[int, int]]) -> list[int]:
    """For each of ``n`` sources, the smallest source index of its group (linked sources,
    directly or through others).

    >>> _groups(4, [(0, 2), (2, 3)])
    [0, 1, 0, 0]
    """
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in links:
        ra, rb = root(a), root(b)
        parent[max(ra, rb)] = min(ra, rb)
    return [root(i) for i in range(n)]


def _source_nodes(graph: GraphStore, i: int, kind: str, max_facts: int,
                  skip: int | None) -> tuple[np.ndarray, int]:
    """The distinct nodes of source ``i`` that another source could hold (a table's cells;
    a KG's heads and tails), and how many of its facts were read."""
    if graph.sources[i].n_facts <= max_facts:
        facts = graph.facts_of_source(i)
    else:
        rels = graph.relations_of_source(i)
        per = max(max_facts // max(len(rels), 1), 1)
        parts = [graph.first_facts_of_rel(int(r), per, i) for r in rels]
        facts = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    read = len(facts)
    if skip is not None and read:
        facts = facts[graph.rels_of(facts) != skip]
    tails = graph.tails_of(facts)
    got = tails if kind == "table" else np.concatenate([graph.heads_of(facts), tails])
    return np.asarray(got, dtype=np.int64), read


def _shared(node: np.ndarray, owner: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The nodes held by two sources or more: ``(nodes, how many sources hold each, those
    sources one after another, each node's number of facts read)``."""
    order = np.lexsort((owner, node))
    node, owner = node[order], owner[order]
    first = np.r_[True, node[1:] != node[:-1]] if len(node) else np.zeros(0, dtype=bool)
    degree = np.diff(np.r_[np.flatnonzero(first), len(node)])
    fresh = first | np.r_[True, owner[1:] != owner[:-1]] if len(node) else first
    node, owner, first = node[fresh], owner[fresh], first[fresh]
    starts = np.flatnonzero(first)
    counts = np.diff(np.r_[starts, len(node)])
    keep = counts >= 2
    members = owner[np.repeat(keep, counts)]
    return node[starts][keep], counts[keep], members, degree[keep]


def _pair(graph: GraphStore, names: tuple[str, ...], a: int, b: int, n: int,
          shared: np.ndarray, bits: np.ndarray, numeric: np.ndarray, degree: np.ndarray,
          examples: int) -> SourcePair:
    """One listed pair: its count, its numbers, its examples (words first, then numbers; the
    nodes with most facts first, then by label)."""
    both = np.flatnonzero(bits[:, a] & bits[:, b])
    best = both[np.lexsort((-degree[both], numeric[both]))][:_LABEL_CANDIDATES]
    labels = graph.labels(shared[best])
    ranked = sorted(range(len(best)), key=lambda j: (bool(numeric[best[j]]),
                                                     -int(degree[best[j]]), labels[j]))
    return SourcePair(names[a], names[b], n, int(numeric[both].sum()),
                      tuple(labels[j] for j in ranked[:examples]))
