"""The SQL :class:`~trustuqa_core.store.LabelPool`: candidate search over a DuckDB store.

Exact and normalised matches read the sorted ``by_text``/``by_norm`` tables, numbers the
``by_num`` table; ``containing`` and, for large pools, ``fuzzy`` pick candidates through the
token table (normalised word -> node) and score them with rapidfuzz. Small pools are read
whole and searched exactly as :class:`~trustuqa_core.lexical_pool.LexicalPool` does, so both
stores give the same candidates there.

>>> from trustuqa_core.duckstore import DuckStore
>>> from trustuqa_core.sources import SourceFacts
>>> import tempfile
>>> g = DuckStore.build([SourceFacts("kg", "kg", ["Dune"], ["by"], ["Frank Herbert"], [1])],
...                     cache_dir=tempfile.mkdtemp())
>>> pool = g.entity_pool()
>>> [g.label(i) for i in pool.normalized("frank  HERBERT")], len(pool)
(['Frank Herbert'], 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from rapidfuzz import fuzz, process

from ..lexical_pool import LexicalPool
from ..text import normalize

__all__ = ["SqlLabelPool", "FULL_SCAN"]

FULL_SCAN = 50_000
"""Pools up to this size are read whole for fuzzy search (the memory store's exact search)."""

_SMALL_POOL = 2000  # the memory store's switch from WRatio to ratio
_CANDIDATES = 20_000

Query = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]


class SqlLabelPool:
    """A label pool of a DuckDB store: all entities (``members`` is ``None``) or the nodes
    the SQL subquery ``members`` selects (``id`` column; one ``?`` parameter, ``param``)."""

    def __init__(self, query: Query, members: str | None = None, param: int = 0) -> None:
        self._q = query
        self._param = [param] if members is not None else []
        self._filter = f" AND id IN ({members})" if members is not None else ""
        self._ids: np.ndarray | None = None
        self._labels: list[str] | None = None
        self._small: LexicalPool | None = None
        size = self._q(f"SELECT count(*) FROM by_text WHERE true{self._filter}", self._param)
        self._len = int(size[0][0])

    def __len__(self) -> int:
        return self._len

    @property
    def ids(self) -> np.ndarray:
        """All ids of the pool, sorted."""
        if self._ids is None:
            self._load()
        assert self._ids is not None
        return self._ids

    @property
    def labels(self) -> list[str]:
        """All labels, parallel to :attr:`ids`."""
        if self._labels is None:
            self._load()
        assert self._labels is not None
        return self._labels

    def _load(self) -> None:
        rows = self._q(f"SELECT id, text FROM nodes WHERE row_src IS NULL{self._filter}"
                       " ORDER BY id", self._param)
        self._ids = np.array([r[0] for r in rows], dtype=np.int64)
        self._labels = [r[1] for r in rows]

    def _lexical(self) -> LexicalPool:
        if self._small is None:
            self._small = LexicalPool(self.ids, self.labels)
        return self._small

    def exact(self, text: str) -> tuple[int, ...]:
        """Ids whose label is exactly ``text``."""
        rows = self._q(f"SELECT id FROM by_text WHERE text = ?{self._filter} ORDER BY id",
                       [text, *self._param])
        return tuple(int(r[0]) for r in rows)

    def normalized(self, text: str) -> tuple[int, ...]:
        """Ids whose normalised label equals the normalised ``text``."""
        rows = self._q(f"SELECT id FROM by_norm WHERE norm = ?{self._filter} ORDER BY id",
                       [normalize(text), *self._param])
        return tuple(int(r[0]) for r in rows)

    def containing(self, text: str, limit: int = 50) -> tuple[int, ...]:
        """Ids whose normalised label contains the normalised ``text`` as whole words."""
        needle = normalize(text)
        if len(needle) < 3:
            return ()
        word = max(needle.split(), key=len)
        rows = self._q(
            "SELECT n.id FROM nodes n WHERE n.id IN (SELECT id FROM tokens WHERE token = ?)"
            f" AND contains(' ' || n.norm || ' ', ?){self._filter.replace('id IN', 'n.id IN')}"
            " ORDER BY n.id LIMIT ?", [word, f" {needle} ", *self._param, int(limit)])
        return tuple(int(r[0]) for r in rows)

    def fuzzy(self, text: str, limit: int = 5, cutoff: float = 0.0) -> list[tuple[int, str, float]]:
        """Best ``limit`` matches as ``(id, label, score in 0..1)``, best first (exactly the
        memory store's search up to :data:`FULL_SCAN` labels; above it, over the labels
        sharing the most words with ``text``)."""
        if self._len <= FULL_SCAN:
            return self._lexical().fuzzy(text, limit, cutoff)
        words = normalize(text).split()
        if not words:
            return []
        rows = self._q(
            "WITH c AS (SELECT id, count(*) AS shared FROM tokens WHERE token IN"
            f" (SELECT unnest(?)){self._filter} GROUP BY id ORDER BY shared DESC, id"
            f" LIMIT {_CANDIDATES}) SELECT n.id, n.text, n.norm FROM c JOIN nodes n USING (id)"
            " ORDER BY n.id", [words, *self._param])
        if not rows:
            return []
        scorer = fuzz.WRatio if self._len <= _SMALL_POOL else fuzz.ratio
        found = process.extract(normalize(text), [r[2] for r in rows], scorer=scorer,
                                limit=limit, score_cutoff=cutoff * 100)
        return [(int(rows[i][0]), rows[i][1], score / 100) for _, score, i in found]

    def numeric_equal(self, number: float, limit: int = 1000) -> list[tuple[int, str]]:
        """``(id, label)`` of labels holding ``number``."""
        rows = self._q(
            "SELECT n.id, n.text FROM nodes n WHERE n.id IN (SELECT id FROM by_num WHERE num = ?)"
            f"{self._filter.replace('id IN', 'n.id IN')} ORDER BY n.id LIMIT ?",
            [float(number), *self._param, int(limit)])
        return [(int(a), str(b)) for a, b in rows]

    def positions(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """Positions of ``ids`` in the pool (its ids are sorted)."""
        return np.searchsorted(self.ids, np.asarray(ids, dtype=np.int64))
