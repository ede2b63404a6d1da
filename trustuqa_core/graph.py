"""The condition graph: an immutable, indexed store of facts from one or more sources.

Every fact ``(head, relation, tail)`` stands for the condition triples of the paper
(``(head, relation, ())`` and ``(relation, tail, (head,))``); table rows are heads, cells are
tails. Temporal facts also carry a validity interval; time lookups are answered from the
interval, never from one stored entry per year. Everything above reads it only through the
:class:`~trustuqa_core.store.GraphStore` API (fact ids in, fact ids out), which the DuckDB
store serves too.

>>> from trustuqa_core.sources import SourceFacts
>>> g = build_graph([SourceFacts("kg", "kg", ["Kismet", "Kismet"], ["directed_by", "release_year"],
...                              ["William Dieterle", "1944"], [1, 2])])
>>> f = g.facts_head_rel(g.entity("Kismet"), g.relation("directed_by"))
>>> [g.label(t) for t in g.tails_of(f)]
['William Dieterle']
>>> [g.label(h) for h in g.heads_of(g.facts_rel_cmp(g.relation("release_year"), ">", 1940))]
['Kismet']
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .errors import LimitError
from .lexical_pool import LexicalPool
from .limits import current_limits, over_limit
from .numbers import parse_number, parse_quantity
from .sources import SourceFacts, parse_row_key, row_key
from .store import EMPTY, FactRow, GraphStore, Provenance, SourceInfo

__all__ = ["ConditionGraph", "SourceInfo", "Provenance", "build_graph", "encode_sources",
           "EncodedFacts", "EMPTY"]

_CMP = {">", "<", ">=", "<=", "="}


class ConditionGraph:
    """Read-only in-memory fact store (numpy indexes) serving the
    :class:`~trustuqa_core.store.GraphStore` API. Build with :func:`build_graph`."""

    engine = "memory"

    def __init__(
        self,
        sources: tuple[SourceInfo, ...],
        node_text: list[str],
        relations: list[str],
        head: np.ndarray,
        rel: np.ndarray,
        tail: np.ndarray,
        fact_source: np.ndarray,
        fact_line: np.ndarray,
        start: np.ndarray,
        end: np.ndarray,
    ) -> None:
        self.sources = sources
        self._text = node_text
        self.relation_names: tuple[str, ...] = tuple(relations)
        self._rel_id = {name: i for i, name in enumerate(relations)}
        self._row_of = _row_positions(node_text)
        self._ent_id = dict(zip(node_text, range(len(node_text)), strict=True))
        for i in self._row_of:  # row keys are not entities (NUL never occurs in real text)
            del self._ent_id[node_text[i]]
        self._row_node = {pos: i for i, pos in self._row_of.items()}
        self.head, self.rel, self.tail = head, rel, tail
        self.fact_source, self.fact_line = fact_source, fact_line
        self.start, self.end = start, end
        for arr in (head, rel, tail, fact_source, fact_line, start, end):
            arr.setflags(write=False)
        self.n_nodes, self.n_facts = len(node_text), len(head)
        self._sources_sorted = bool(np.all(fact_source[1:] >= fact_source[:-1]))
        self._nr = max(len(relations), 1)
        self._hr_order, self._hr_sorted = _sort_index(head * self._nr + rel)
        self._rt_order, self._rt_sorted = _sort_index(rel * max(self.n_nodes, 1) + tail)
        self._t_order, self._t_sorted = _sort_index(tail)
        self._lock = threading.Lock()
        self._rel_numeric: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._rel_tails: dict[int, np.ndarray] = {}
        self._rel_quantity: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._source_heads: dict[int, np.ndarray] = {}
        self._entity_pool: LexicalPool | None = None
        self._value_pools: dict[int, LexicalPool] = {}
        self.is_temporal = bool(np.isfinite(start).any() or np.isfinite(end).any())

    # ----------------------------------------------------------------- nodes
    def entity(self, text: str) -> int | None:
        """Node id of an entity / cell value with exactly this text, or ``None``."""
        return self._ent_id.get(text)

    def relation(self, name: str) -> int | None:
        """Relation id with exactly this name, or ``None``."""
        return self._rel_id.get(name)

    def is_row(self, node: int) -> bool:
        """True for table-row nodes."""
        return int(node) in self._row_of

    def row_position(self, node: int) -> tuple[int, int] | None:
        """``(source index, 1-based row)`` of a row node, else ``None``."""
        return self._row_of.get(int(node))

    def row_node(self, source_index: int, row: int) -> int | None:
        """Node id of row ``row`` (1-based) of a source, or None beyond the table."""
        return self._row_node.get((int(source_index), int(row)))

    def label(self, node: int) -> str:
        """Display text: the value itself, or ``"<source> row <n>"`` for a table row."""
        pos = self._row_of.get(int(node))
        if pos is None:
            return self._text[int(node)]
        return f"{self.sources[pos[0]].name} row {pos[1]}"

    def labels(self, nodes: Sequence[int] | np.ndarray) -> list[str]:
        """Display texts of several nodes."""
        return [self.label(n) for n in np.asarray(nodes, dtype=np.int64).tolist()]

    def entity_ids(self) -> np.ndarray:
        """Ids of all non-row nodes (the pool for mapping entity arguments)."""
        rows = np.fromiter(self._row_of, dtype=np.int64, count=len(self._row_of))
        return np.setdiff1d(np.arange(self.n_nodes, dtype=np.int64), rows, assume_unique=True)

    def numeric(self, node: int) -> float | None:
        """Numeric value of a node's text (see :func:`~trustuqa_core.numbers.parse_number`)."""
        text = self._text[int(node)]
        return None if text[:1] == "\x00" else parse_number(text)

    # ----------------------------------------------------------------- facts
    def facts_head_rel(self, head: int, rel: int) -> np.ndarray:
        """Facts ``(head, rel, *)``."""
        return _lookup(self._hr_order, self._hr_sorted, int(head) * self._nr + int(rel))

    def facts_heads_rel(self, heads: np.ndarray, rel: int) -> np.ndarray:
        """Facts ``(h, rel, *)`` for every ``h`` in ``heads`` (in the order of ``heads``)."""
        return _lookup_many(self._hr_order, self._hr_sorted, np.asarray(heads) * self._nr + rel)

    def facts_rel_tail(self, rel: int, tail: int) -> np.ndarray:
        """Facts ``(*, rel, tail)``."""
        return _lookup(self._rt_order, self._rt_sorted, int(rel) * self.n_nodes + int(tail))

    def facts_rel_tails(self, rel: int, tails: np.ndarray) -> np.ndarray:
        """Facts ``(*, rel, t)`` for every ``t`` in ``tails``."""
        keys = rel * self.n_nodes + np.asarray(tails, dtype=np.int64)
        return _lookup_many(self._rt_order, self._rt_sorted, keys)

    def facts_rel(self, rel: int) -> np.ndarray:
        """All facts of a relation."""
        lo = int(rel) * self.n_nodes
        return _range(self._rt_order, self._rt_sorted, lo, lo + self.n_nodes)

    def facts_head(self, head: int) -> np.ndarray:
        """All facts whose head is ``head``."""
        lo = int(head) * self._nr
        return _range(self._hr_order, self._hr_sorted, lo, lo + self._nr)

    def facts_heads(self, heads: np.ndarray) -> np.ndarray:
        """All facts whose head is in ``heads``."""
        keys = np.asarray(heads, dtype=np.int64) * self._nr
        lo = np.searchsorted(self._hr_sorted, keys, "left")
        hi = np.searchsorted(self._hr_sorted, keys + self._nr, "left")
        return _gather(self._hr_order, lo, hi)

    def facts_tail(self, tail: int) -> np.ndarray:
        """All facts whose tail is ``tail`` (any relation)."""
        return _lookup(self._t_order, self._t_sorted, int(tail))

    def facts_of_source(self, source_index: int) -> np.ndarray:
        """All facts of one source (sorted ids)."""
        if self._sources_sorted:
            lo, hi = np.searchsorted(self.fact_source, [source_index, source_index + 1])
            return np.arange(lo, hi, dtype=np.int64)
        return np.flatnonzero(self.fact_source == int(source_index)).astype(np.int64)

    def facts_rel_cmp(self, rel: int, cmp: str, value: float) -> np.ndarray:
        """Facts of ``rel`` whose tail is a number with ``tail <cmp> value``.

        Uses a sorted numeric index per relation (built on first use), never a scan.
        """
        if cmp not in _CMP:
            raise ValueError(f"unknown comparison {cmp!r}")
        vals, facts = self._numeric_index(int(rel))
        lo, hi = 0, len(vals)
        if cmp in (">", ">=", "="):
            lo = int(np.searchsorted(vals, value, side="right" if cmp == ">" else "left"))
        if cmp in ("<", "<=", "="):
            hi = int(np.searchsorted(vals, value, side="left" if cmp == "<" else "right"))
        return facts[lo:hi]

    def numeric_fact_count(self, rel: int) -> int:
        """How many facts of ``rel`` have a numeric tail."""
        return len(self._numeric_index(int(rel))[0])

    def _numeric_index(self, rel: int) -> tuple[np.ndarray, np.ndarray]:
        index = self._rel_numeric.get(rel)
        if index is None:
            facts = self.facts_rel(rel)
            uniq, inverse = np.unique(self.tail[facts], return_inverse=True)
            vals = _numbers([self._text[t] for t in uniq.tolist()])[inverse]
            keep = ~np.isnan(vals)
            order = np.argsort(vals[keep], kind="stable")
            index = (vals[keep][order], facts[keep][order])
            with self._lock:
                self._rel_numeric[rel] = index
        return index

    def quantity_index(self, rel: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Facts of ``rel`` (sorted), their tails read loosely as numbers (NaN if unreadable)
        and how each was read (``number``, ``date``, ``duration``...; ``""`` if unreadable).

        Cached per relation; each distinct tail is parsed once.
        """
        index = self._rel_quantity.get(rel)
        if index is None:
            facts = np.sort(self.facts_rel(rel))
            uniq, inverse = np.unique(self.tail[facts], return_inverse=True)
            read = [parse_quantity(self._text[t]) for t in uniq.tolist()]
            vals = np.array([np.nan if q is None else q[0] for q in read], dtype=np.float64)
            kinds = np.array(["" if q is None else q[1] for q in read], dtype=object)
            index = (facts, vals[inverse], kinds[inverse])
            with self._lock:
                self._rel_quantity[rel] = index
        return index

    def relation_tails(self, rel: int) -> np.ndarray:
        """Distinct tail nodes of a relation (sorted ids), cached."""
        tails = self._rel_tails.get(rel)
        if tails is None:
            lo = int(rel) * self.n_nodes
            a = np.searchsorted(self._rt_sorted, lo, "left")
            b = np.searchsorted(self._rt_sorted, lo + self.n_nodes, "left")
            tails = np.unique(self._rt_sorted[a:b] - lo)
            with self._lock:
                self._rel_tails[rel] = tails
        return tails

    def tail_counts(self, rel: int) -> tuple[np.ndarray, np.ndarray]:
        """Distinct tails of a relation (sorted ids) and how many facts have each."""
        facts = self.facts_rel(rel)
        values, counts = np.unique(self.tail[facts], return_counts=True)
        return values, counts.astype(np.int64)

    def relations_of_heads(self, heads: np.ndarray) -> np.ndarray:
        """Distinct relation ids used by facts whose head is in ``heads``."""
        return np.unique(self.rel[self.facts_heads(heads)])

    def relations_of_source(self, source_index: int) -> np.ndarray:
        """Relation ids used by one source, in the order of their first fact."""
        rels = self.rel[self.facts_of_source(source_index)]
        _, first = np.unique(rels, return_index=True)
        return rels[np.sort(first)].astype(np.int64)

    def _rel_facts_in(self, rel: int, source_index: int | None) -> np.ndarray:
        facts = self.facts_rel(rel)
        if source_index is not None:
            facts = facts[self.fact_source[facts] == int(source_index)]
        return facts

    def relation_nodes(self, rel: int, side: str, source_index: int | None = None
                       ) -> np.ndarray:
        """Distinct heads (``side="head"``) or tails (``"tail"``) of ``rel``'s facts, within
        one source when ``source_index`` is given (sorted ids)."""
        if side != "head" and source_index is None:
            return self.relation_tails(rel)
        column = self.head if side == "head" else self.tail
        return np.unique(column[self._rel_facts_in(rel, source_index)]).astype(np.int64)

    def first_facts_of_rel(self, rel: int, n: int, source_index: int | None = None
                           ) -> np.ndarray:
        """The ``n`` smallest fact ids of ``rel`` (within one source when given), sorted."""
        return np.sort(self._rel_facts_in(rel, source_index))[:max(int(n), 0)]

    def node_relations(self, nodes: np.ndarray, side: str) -> tuple[np.ndarray, np.ndarray]:
        """Distinct (node, relation) pairs: the relations each of ``nodes`` is the head of
        (``side="head"``) or the tail of (``"tail"``), sorted by node then relation."""
        keys = np.unique(np.asarray(nodes, dtype=np.int64))
        if side == "head":
            facts = self.facts_heads(keys)
            owner = self.head[facts]
        else:
            per = [self.facts_tail(int(t)) for t in keys.tolist()]
            facts = np.concatenate(per) if per else np.zeros(0, dtype=np.int64)
            owner = self.tail[facts]
        if not len(facts):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        pairs = np.unique(np.stack([owner.astype(np.int64), self.rel[facts].astype(np.int64)],
                                   axis=1), axis=0)
        return pairs[:, 0], pairs[:, 1]

    def heads_of(self, facts: np.ndarray) -> np.ndarray:
        """Head node of each fact."""
        return self.head[facts]

    def tails_of(self, facts: np.ndarray) -> np.ndarray:
        """Tail node of each fact."""
        return self.tail[facts]

    def intervals_of(self, facts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Start and end years of each fact (NaN where unknown)."""
        return self.start[facts], self.end[facts]

    def head_of(self, fact: int) -> int:
        """Head node of one fact."""
        return int(self.head[int(fact)])

    def tail_of(self, fact: int) -> int:
        """Tail node of one fact."""
        return int(self.tail[int(fact)])

    def rels_of(self, facts: np.ndarray) -> np.ndarray:
        """Relation id of each fact."""
        return self.rel[facts]

    def sources_of(self, facts: np.ndarray) -> np.ndarray:
        """Source index of each fact."""
        return self.fact_source[facts]

    def heads_of_source(self, source_index: int) -> np.ndarray:
        """Distinct heads (rows / subjects) of one source, cached."""
        heads = self._source_heads.get(source_index)
        if heads is None:
            heads = np.unique(self.head[self.fact_source == source_index])
            with self._lock:
                self._source_heads[source_index] = heads
        return heads

    def interval(self, fact: int) -> tuple[float, float] | None:
        """``(start, end)`` years of a temporal fact (an open end is ``inf``), else ``None``."""
        s, e = self.start[int(fact)], self.end[int(fact)]
        if np.isnan(s) and np.isnan(e):
            return None
        return (-np.inf if np.isnan(s) else float(s), np.inf if np.isnan(e) else float(e))

    def provenance(self, fact: int) -> Provenance:
        """Source name and row/line number of a fact."""
        src = self.sources[int(self.fact_source[int(fact)])]
        unit = "row" if src.kind == "table" else "line"
        return Provenance(src.name, unit, int(self.fact_line[int(fact)]))

    def fact_text(self, fact: int) -> tuple[str, str, str]:
        """``(head label, relation, tail label)`` of a fact."""
        f = int(fact)
        return (
            self.label(self.head[f]),
            self.relation_names[self.rel[f]],
            self.label(self.tail[f]),
        )

    def fact_rows(self, facts: Sequence[int] | np.ndarray) -> list[FactRow]:
        """Each fact read whole (ids, relation name, source, line, interval)."""
        return [
            FactRow(f, int(self.head[f]), int(self.rel[f]), int(self.tail[f]),
                    self.relation_names[int(self.rel[f])], int(self.fact_source[f]),
                    int(self.fact_line[f]), self.interval(f))
            for f in np.asarray(facts, dtype=np.int64).tolist()
        ]

    # ------------------------------------------------------------ candidates
    def entity_pool(self) -> LexicalPool:
        """All entities (non-row nodes) as a label pool, built on first use."""
        if self._entity_pool is None:
            ids = self.entity_ids()
            pool = LexicalPool(ids, [self._text[i] for i in ids.tolist()])
            with self._lock:
                if self._entity_pool is None:
                    self._entity_pool = pool
        return self._entity_pool

    def value_pool(self, rel: int) -> LexicalPool:
        """The distinct values of one relation as a label pool, cached."""
        pool = self._value_pools.get(int(rel))
        if pool is None:
            tails = self.relation_tails(int(rel))
            pool = LexicalPool(tails, self.labels(tails))
            with self._lock:
                self._value_pools[int(rel)] = pool
        return pool

    def restrict(self, indices: Sequence[int]) -> ConditionGraph:
        """A new graph of the sources at (sorted, distinct) ``indices`` only: their facts,
        nodes, relations, intervals and provenance; row nodes re-keyed to the new positions."""
        keep = tuple(sorted({int(i) for i in indices}))
        facts = np.flatnonzero(np.isin(self.fact_source, np.asarray(keep, dtype=np.int32)))
        new_index = {old: new for new, old in enumerate(keep)}
        heads, tails = self.head[facts], self.tail[facts]
        nodes, codes = np.unique(np.concatenate([heads, tails]), return_inverse=True)
        texts = []
        for node in nodes.tolist():
            pos = self.row_position(node)
            texts.append(self.label(node) if pos is None else row_key(new_index[pos[0]], pos[1]))
        rel_codes, rel_ids = pd.factorize(self.rel[facts], sort=True)
        relations = [self.relation_names[int(r)] for r in rel_ids]
        remap = np.zeros(len(self.sources), dtype=np.int32)
        for old, new in new_index.items():
            remap[old] = new
        n = len(facts)
        return ConditionGraph(
            tuple(self.sources[i] for i in keep), texts, relations,
            head=np.asarray(codes[:n], dtype=np.int64), rel=np.asarray(rel_codes, dtype=np.int64),
            tail=np.asarray(codes[n:], dtype=np.int64),
            fact_source=remap[self.fact_source[facts]],
            fact_line=self.fact_line[facts].copy(), start=self.start[facts].copy(),
            end=self.end[facts].copy())

    def content_hash(self) -> str:
        """A stable hash of all node and relation texts (keys on-disk caches such as embeddings)."""
        h = hashlib.sha256()
        for t in self._text:
            h.update(t.encode("utf-8", "surrogatepass") + b"\x01")
        h.update(b"\x02")
        for r in self.relation_names:
            h.update(r.encode("utf-8", "surrogatepass") + b"\x01")
        return h.hexdigest()

    def __repr__(self) -> str:
        names = ", ".join(s.name for s in self.sources)
        return f"<ConditionGraph {self.n_facts} facts, {self.n_nodes} nodes, sources: {names}>"


def _check_protocol(g: ConditionGraph) -> GraphStore:
    return g  # mypy checks here that ConditionGraph serves the whole GraphStore API


def build_graph(sources: Sequence[SourceFacts]) -> ConditionGraph:
    """Join the facts of several sources into one graph (entities with equal text are one node).

    Raises :class:`~trustuqa_core.errors.LimitError` when the sources hold more facts than the
    ``facts`` limit allows in one graph.
    """
    total, cap = sum(len(s) for s in sources), current_limits().facts
    if total > cap:
        shown = ", ".join(s.name for s in sources[:5]) + (", ..." if len(sources) > 5 else "")
        found = f"{total:,} facts in the loaded sources ({shown})"
        raise LimitError(over_limit(found, "facts", cap, "facts"))
    enc = encode_sources(sources)
    return ConditionGraph(enc.infos, enc.node_text, enc.relations, head=enc.head, rel=enc.rel,
                          tail=enc.tail, fact_source=enc.fact_source, fact_line=enc.fact_line,
                          start=enc.start, end=enc.end)


@dataclass(frozen=True)
class EncodedFacts:
    """The facts of several sources as coded columns: node ``i`` is ``node_text[i]`` (first
    appearance among the heads, then the tails), relation ``j`` is ``relations[j]``; every
    store numbers its ids this way, so the memory and DuckDB stores agree."""

    infos: tuple[SourceInfo, ...]
    node_text: list[str]
    relations: list[str]
    head: np.ndarray
    rel: np.ndarray
    tail: np.ndarray
    fact_source: np.ndarray
    fact_line: np.ndarray
    start: np.ndarray
    end: np.ndarray


def encode_sources(sources: Sequence[SourceFacts]) -> EncodedFacts:
    """Code the facts of ``sources`` (entities with equal text are one node; sources with the
    same name get ``" (k)"`` appended).

    >>> enc = encode_sources([SourceFacts("kg", "kg", ["a", "b"], ["r", "r"], ["b", "c"], [1, 2])])
    >>> enc.node_text, enc.head.tolist(), enc.tail.tolist()
    (['a', 'b', 'c'], [0, 1], [1, 2])
    """
    names = [s.name for s in sources]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sources = [replace(s, name=f"{s.name} ({i + 1})") if s.name in dup else s
                   for i, s in enumerate(sources)]
    heads, rels, tails, lines, src_ids, starts, ends = [], [], [], [], [], [], []
    for index, s in enumerate(sources):
        n = len(s)
        if s.kind == "table":  # one key per row, not per cell
            rows, inverse = np.unique(np.asarray(s.heads, dtype=np.int64), return_inverse=True)
            keys = np.array([row_key(index, r) for r in rows.tolist()], dtype=object)
            heads.append(keys[inverse.reshape(-1)] if n else np.zeros(0, dtype=object))
        else:
            heads.append(np.asarray(s.heads, dtype=object))
        rels.append(np.asarray(s.relations, dtype=object))
        tails.append(np.asarray(s.tails, dtype=object))
        lines.append(np.asarray(s.lines, dtype=np.int64))
        src_ids.append(np.full(n, index, dtype=np.int32))
        starts.append(_floats(s.starts, n))
        ends.append(_floats(s.ends, n))
    n_all = sum(len(s) for s in sources)
    if n_all:
        codes, uniques = pd.factorize(np.concatenate(heads + tails), sort=False)
        rel_codes, rel_uniques = pd.factorize(np.concatenate(rels), sort=False)
        node_text, relations = [str(u) for u in uniques], [str(u) for u in rel_uniques]
    else:
        codes, rel_codes, node_text, relations = EMPTY, EMPTY, [], []
    infos = tuple(
        SourceInfo(s.name, s.kind, len(s), s.n_rows, tuple(s.columns), s.path, tuple(s.warnings))
        for s in sources
    )
    return EncodedFacts(
        infos, node_text, relations,
        head=np.asarray(codes[:n_all], dtype=np.int64),
        rel=np.asarray(rel_codes, dtype=np.int64),
        tail=np.asarray(codes[n_all:], dtype=np.int64),
        fact_source=_cat(src_ids, np.int32),
        fact_line=_cat(lines, np.int64),
        start=_cat(starts, np.float64),
        end=_cat(ends, np.float64),
    )


def _cat(arrays: list[np.ndarray], dtype: type) -> np.ndarray:
    return np.concatenate(arrays).astype(dtype) if arrays else np.zeros(0, dtype)


def _row_positions(texts: list[str]) -> dict[int, tuple[int, int]]:
    """``{node: (source index, row)}`` for the row keys among ``texts``."""
    out = {}
    for i, t in enumerate(texts):
        if t[:1] == "\x00":
            pos = parse_row_key(t)
            if pos is not None:
                out[i] = pos
    return out


def _numbers(texts: list[str]) -> np.ndarray:
    """:func:`~trustuqa_core.numbers.parse_number` of each text (NaN if none; row keys NaN)."""
    vals = [parse_number(t) if t[:1] != "\x00" else None for t in texts]
    return np.array([np.nan if v is None else v for v in vals], dtype=np.float64)


def _floats(values: Sequence[float | None] | None, n: int) -> np.ndarray:
    if values is None:
        return np.full(n, np.nan)
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


def _sort_index(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(keys, kind="stable").astype(np.int64)
    return order, keys[order]


def _lookup(order: np.ndarray, sorted_keys: np.ndarray, key: int) -> np.ndarray:
    lo = int(np.searchsorted(sorted_keys, key, "left"))
    hi = int(np.searchsorted(sorted_keys, key, "right"))
    return order[lo:hi]


def _range(order: np.ndarray, sorted_keys: np.ndarray, lo_key: int, hi_key: int) -> np.ndarray:
    lo = int(np.searchsorted(sorted_keys, lo_key, "left"))
    hi = int(np.searchsorted(sorted_keys, hi_key, "left"))
    return order[lo:hi]


def _lookup_many(order: np.ndarray, sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    keys = np.asarray(keys, dtype=np.int64)
    lo = np.searchsorted(sorted_keys, keys, "left")
    hi = np.searchsorted(sorted_keys, keys, "right")
    return _gather(order, lo, hi)


def _gather(order: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Concatenate ``order[lo[i]:hi[i]]`` for all i, without a Python loop."""
    counts = hi - lo
    nonzero = counts > 0
    lo, counts = lo[nonzero], counts[nonzero]
    if len(lo) == 0:
        return EMPTY
    if len(lo) == 1:
        return order[int(lo[0]) : int(lo[0] + counts[0])]
    offsets = np.repeat(lo - np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
    return order[offsets + np.arange(int(counts.sum()))]
