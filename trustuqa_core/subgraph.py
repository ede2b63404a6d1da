"""A graph of some of another graph's sources (what a routed question is answered over).

:func:`restrict` keeps the facts of the chosen sources only, with their nodes, relations,
intervals and provenance; row nodes are re-keyed to the sources' new positions, so labels
(``"<source> row <n>"``) and ``previous_row`` / ``next_row`` work as in the full graph. The
result is a plain :class:`~trustuqa_core.graph.ConditionGraph`: mapping, writers and the
executor need nothing new. Results are cached per (graph, sources) while the graph lives.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.sources import SourceFacts
>>> g = build_graph([SourceFacts("t.csv", "table", [1, 1], ["Film", "Year"], ["Dune", "1984"],
...                              [1, 1], n_rows=1, columns=["Film", "Year"]),
...                  SourceFacts("kg", "kg", ["Dune"], ["written_by"], ["Frank Herbert"], [1])])
>>> sub = restrict(g, [1])
>>> [s.name for s in sub.sources], sub.n_facts, sub.relation_names
(['kg'], 1, ('written_by',))
>>> sub.entity("1984") is None, sub.entity("Dune") is not None
(True, True)
>>> rows = restrict(g, [0])
>>> [rows.label(h) for h in rows.heads_of_source(0)]
['t.csv row 1']
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .graph import ConditionGraph
from .sources import row_key

__all__ = ["restrict", "source_indices"]

_CACHE: weakref.WeakKeyDictionary[ConditionGraph, dict[tuple[int, ...], ConditionGraph]] = (
    weakref.WeakKeyDictionary())
_LOCK = threading.Lock()


def source_indices(graph: ConditionGraph, names: Sequence[str]) -> tuple[int, ...]:
    """Positions of the named sources in ``graph`` (a ``ValueError`` names an unknown one).

    >>> from trustuqa_core.graph import build_graph
    >>> from trustuqa_core.sources import SourceFacts
    >>> g = build_graph([SourceFacts("kg", "kg", ["a"], ["r"], ["b"], [1])])
    >>> source_indices(g, ["kg"])
    (0,)
    """
    known = {s.name: i for i, s in enumerate(graph.sources)}
    missing = [n for n in names if n not in known]
    if missing:
        raise ValueError(f"no loaded source named {missing[0]!r}; loaded: {', '.join(known)}")
    return tuple(sorted(known[n] for n in names))


def restrict(graph: ConditionGraph, indices: Sequence[int]) -> ConditionGraph:
    """The graph of the sources at ``indices`` only (``graph`` itself when that is all)."""
    keep = tuple(sorted(set(int(i) for i in indices)))
    if not keep or any(i < 0 or i >= len(graph.sources) for i in keep):
        raise ValueError(f"source positions {list(indices)} are not in 0..{len(graph.sources) - 1}")
    if len(keep) == len(graph.sources):
        return graph
    with _LOCK:
        cached = _CACHE.setdefault(graph, {}).get(keep)
    if cached is not None:
        return cached
    sub = _build(graph, keep)
    with _LOCK:
        _CACHE.setdefault(graph, {})[keep] = sub
    return sub


def _build(graph: ConditionGraph, keep: tuple[int, ...]) -> ConditionGraph:
    mask = np.isin(graph.fact_source, np.asarray(keep, dtype=np.int32))
    facts = np.flatnonzero(mask)
    new_index = {old: new for new, old in enumerate(keep)}
    heads, tails = graph.head[facts], graph.tail[facts]
    nodes, codes = np.unique(np.concatenate([heads, tails]), return_inverse=True)
    texts = []
    for node in nodes.tolist():
        pos = graph.row_position(node)
        texts.append(graph.label(node) if pos is None else row_key(new_index[pos[0]], pos[1]))
    rel_codes, rel_ids = pd.factorize(graph.rel[facts], sort=True)
    relations = [graph.relation_names[int(r)] for r in rel_ids]
    remap = np.zeros(len(graph.sources), dtype=np.int32)
    for old, new in new_index.items():
        remap[old] = new
    n = len(facts)
    return ConditionGraph(
        tuple(graph.sources[i] for i in keep), texts, relations,
        head=np.asarray(codes[:n], dtype=np.int64), rel=np.asarray(rel_codes, dtype=np.int64),
        tail=np.asarray(codes[n:], dtype=np.int64),
        fact_source=remap[graph.fact_source[facts]],
        fact_line=graph.fact_line[facts].copy(), start=graph.start[facts].copy(),
        end=graph.end[facts].copy())
