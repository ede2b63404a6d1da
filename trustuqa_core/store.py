"""The backend boundary: the read API every graph store serves, and the label-pool API the
mapper searches candidates with.

Everything above this module (the operations, the mapper, the trace, explanations, prompts,
the app) reads a graph only through :class:`GraphStore`. Node and fact ids are opaque
integers handed out by the store: callers pass them back, compare them and use them as
dictionary keys, never index arrays with them or do arithmetic on them. Lookups return
numpy ``int64`` arrays of fact ids (a batch of opaque ids, so a store can answer one hop
for many heads in one call).

Two stores serve it: the in-memory :class:`~trustuqa_core.graph.ConditionGraph` (numpy
indexes; the default) and the DuckDB store in :mod:`trustuqa_core.duckstore` (SQL, for
graphs that outgrow memory). ``tests/test_store_boundary.py`` checks that no module above the
boundary reads a store's raw columns.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.sources import SourceFacts
>>> g: GraphStore = build_graph([SourceFacts("kg", "kg", ["Dune"], ["written_by"],
...                                          ["Frank Herbert"], [1])])
>>> isinstance(g, GraphStore), g.engine
(True, 'memory')
>>> [g.label(t) for t in g.tails_of(g.facts_head_rel(g.entity("Dune"), g.relation("written_by")))]
['Frank Herbert']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from .sources import SourceKind

__all__ = ["GraphStore", "LabelPool", "SourceInfo", "Provenance", "FactRow", "EMPTY"]

EMPTY = np.zeros(0, dtype=np.int64)
"""An empty array of fact (or node) ids."""


@dataclass(frozen=True)
class SourceInfo:
    """What a store keeps about one loaded source."""

    name: str
    kind: SourceKind
    n_facts: int
    n_rows: int
    columns: tuple[str, ...]
    path: str | None
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class Provenance:
    """Where a fact came from: ``source`` name, ``unit`` ("row" or "line") and its number."""

    source: str
    unit: str
    number: int

    def __str__(self) -> str:
        return f"{self.source} {self.unit} {self.number}"


@dataclass(frozen=True)
class FactRow:
    """One fact read whole: its ids, the relation's name, where it came from and its interval
    (``None`` when the fact is not temporal; an open end is ``inf``)."""

    fact: int
    head: int
    rel: int
    tail: int
    relation: str
    source: int
    line: int
    interval: tuple[float, float] | None


@runtime_checkable
class LabelPool(Protocol):
    """Labels of a candidate pool (all entities, or the values of one relation) and the
    searches the mapping cascade runs over them. Ids are node ids of the store.

    ``labels``/``ids`` list the whole pool: call them only when ``len(pool)`` is small enough
    (the dense stage checks the ``dense_labels`` limit first).
    """

    @property
    def ids(self) -> np.ndarray: ...
    @property
    def labels(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def exact(self, text: str) -> tuple[int, ...]: ...
    def normalized(self, text: str) -> tuple[int, ...]: ...
    def containing(self, text: str, limit: int = 50) -> tuple[int, ...]: ...
    def fuzzy(self, text: str, limit: int = 5, cutoff: float = 0.0) -> list[tuple[int, str, float]]:
        ...
    def numeric_equal(self, number: float, limit: int = 1000) -> list[tuple[int, str]]: ...
    def positions(self, ids: Sequence[int] | np.ndarray) -> np.ndarray: ...


@runtime_checkable
class GraphStore(Protocol):
    """The read API of a condition graph, whatever holds it (see the module docstring)."""

    engine: str
    """``"memory"`` or ``"duckdb"``."""
    sources: tuple[SourceInfo, ...]
    relation_names: tuple[str, ...]
    is_temporal: bool
    n_nodes: int
    n_facts: int

    # ------------------------------------------------------------------- nodes
    def entity(self, text: str) -> int | None: ...
    def relation(self, name: str) -> int | None: ...
    def label(self, node: int) -> str: ...
    def labels(self, nodes: Sequence[int] | np.ndarray) -> list[str]: ...
    def is_row(self, node: int) -> bool: ...
    def row_position(self, node: int) -> tuple[int, int] | None: ...
    def row_node(self, source_index: int, row: int) -> int | None: ...
    def numeric(self, node: int) -> float | None: ...

    # ---------------------------------------------------------------- lookups
    def facts_head_rel(self, head: int, rel: int) -> np.ndarray: ...
    def facts_heads_rel(self, heads: np.ndarray, rel: int) -> np.ndarray: ...
    def facts_rel_tail(self, rel: int, tail: int) -> np.ndarray: ...
    def facts_rel_tails(self, rel: int, tails: np.ndarray) -> np.ndarray: ...
    def facts_rel(self, rel: int) -> np.ndarray: ...
    def facts_head(self, head: int) -> np.ndarray: ...
    def facts_heads(self, heads: np.ndarray) -> np.ndarray: ...
    def facts_tail(self, tail: int) -> np.ndarray: ...
    def facts_rel_cmp(self, rel: int, cmp: str, value: float) -> np.ndarray: ...
    def facts_of_source(self, source_index: int) -> np.ndarray: ...

    # ------------------------------------------------------------- aggregates
    def numeric_fact_count(self, rel: int) -> int: ...
    def quantity_index(self, rel: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
    def relation_tails(self, rel: int) -> np.ndarray: ...
    def tail_counts(self, rel: int) -> tuple[np.ndarray, np.ndarray]: ...
    def relations_of_heads(self, heads: np.ndarray) -> np.ndarray: ...
    def heads_of_source(self, source_index: int) -> np.ndarray: ...

    # ------------------------------------------------------------- fact fields
    def heads_of(self, facts: np.ndarray) -> np.ndarray: ...
    def tails_of(self, facts: np.ndarray) -> np.ndarray: ...
    def rels_of(self, facts: np.ndarray) -> np.ndarray: ...
    def sources_of(self, facts: np.ndarray) -> np.ndarray: ...
    def intervals_of(self, facts: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...
    def head_of(self, fact: int) -> int: ...
    def tail_of(self, fact: int) -> int: ...
    def interval(self, fact: int) -> tuple[float, float] | None: ...
    def provenance(self, fact: int) -> Provenance: ...
    def fact_text(self, fact: int) -> tuple[str, str, str]: ...
    def fact_rows(self, facts: Sequence[int] | np.ndarray) -> list[FactRow]: ...

    # -------------------------------------------------------- candidates, misc
    def entity_pool(self) -> LabelPool: ...
    def value_pool(self, rel: int) -> LabelPool: ...
    def restrict(self, indices: Sequence[int]) -> GraphStore: ...
    def content_hash(self) -> str: ...
