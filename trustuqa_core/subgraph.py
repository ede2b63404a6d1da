"""A graph of some of another graph's sources (what a routed question is answered over).

:func:`restrict` keeps the facts of the chosen sources only, with their nodes, relations,
intervals and provenance; row nodes are re-keyed to the sources' new positions, so labels
(``"<source> row <n>"``) and ``previous_row`` / ``next_row`` work as in the full graph. The
result is a store of the same kind (its ``restrict``): mapping, writers and the executor need
nothing new. Results are cached per (graph, sources) while the graph lives.

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

from .store import GraphStore

__all__ = ["restrict", "source_indices"]

_CACHE: weakref.WeakKeyDictionary[GraphStore, dict[tuple[int, ...], GraphStore]] = (
    weakref.WeakKeyDictionary())
_LOCK = threading.Lock()


def source_indices(graph: GraphStore, names: Sequence[str]) -> tuple[int, ...]:
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


def restrict(graph: GraphStore, indices: Sequence[int]) -> GraphStore:
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
    sub = graph.restrict(keep)
    with _LOCK:
        _CACHE.setdefault(graph, {})[keep] = sub
    return sub
