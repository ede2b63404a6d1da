"""Exact, normalised and fuzzy matching of a literal against a pool of labels
(normalised by :func:`trustuqa_core.text.normalize`).

>>> from trustuqa_core.text import normalize
>>> normalize("  Café  Crème, Ltd. ")
'cafe creme ltd'
>>> normalize("1,000"), normalize("1000.0"), normalize("Rock 'n' Roll")
('1000', '1000', 'rock n roll')
>>> pool = LexicalPool([10, 11, 12], ["Italy", "ITALY ", "Spain"])
>>> pool.exact("Italy"), pool.normalized("italy"), pool.fuzzy("Spian", 1)[0][:2]
((10,), (10, 11), (12, 'Spain'))
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from rapidfuzz import fuzz, process

from .numbers import parse_number
from .text import normalize

__all__ = ["LexicalPool"]

_SMALL_POOL = 2000


class LexicalPool:
    """Labels of a candidate pool with exact / normalised dictionaries and fuzzy search.

    Args:
        ids: the node (or relation) id of each label.
        labels: display texts, parallel to ``ids``.
    """

    def __init__(self, ids: Sequence[int] | np.ndarray, labels: Sequence[str]) -> None:
        self.ids = np.asarray(ids, dtype=np.int64)
        self.labels = list(labels)
        self._exact: dict[str, list[int]] = {}
        self._norm: dict[str, list[int]] = {}
        self.norm_labels = [normalize(t) for t in self.labels]
        for i, (label, norm) in enumerate(zip(self.labels, self.norm_labels, strict=True)):
            self._exact.setdefault(label, []).append(i)
            self._norm.setdefault(norm, []).append(i)
        self._numbers: dict[float, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.labels)

    def exact(self, text: str) -> tuple[int, ...]:
        """Ids whose label is exactly ``text``."""
        return tuple(int(self.ids[i]) for i in self._exact.get(text, ()))

    def normalized(self, text: str) -> tuple[int, ...]:
        """Ids whose normalised label equals the normalised ``text``."""
        return tuple(int(self.ids[i]) for i in self._norm.get(normalize(text), ()))

    def containing(self, text: str, limit: int = 50) -> tuple[int, ...]:
        """Ids whose normalised label contains the normalised ``text`` as whole words.

        >>> pool = LexicalPool([1, 2, 3], ["12 February 2001", "3 March", "February"])
        >>> pool.containing("february")
        (1, 3)
        """
        needle = normalize(text)
        if len(needle) < 3:
            return ()
        padded = f" {needle} "
        found = [i for i, lab in enumerate(self.norm_labels) if padded in f" {lab} "]
        return tuple(int(self.ids[i]) for i in found[:limit])

    def fuzzy(self, text: str, limit: int = 5, cutoff: float = 0.0) -> list[tuple[int, str, float]]:
        """Best ``limit`` matches as ``(id, label, score in 0..1)``, best first.

        Small pools use a substring- and word-order-aware scorer (rapidfuzz ``WRatio``);
        large pools the plain edit-distance ratio, which is much faster.
        """
        if not self.labels:
            return []
        scorer = fuzz.WRatio if len(self.labels) <= _SMALL_POOL else fuzz.ratio
        found = process.extract(
            normalize(text), self.norm_labels, scorer=scorer, limit=limit, score_cutoff=cutoff * 100
        )
        return [(int(self.ids[i]), self.labels[i], score / 100) for _, score, i in found]

    def numeric_equal(self, number: float, limit: int = 1000) -> list[tuple[int, str]]:
        """``(id, label)`` of labels holding ``number`` (``'1000.0'`` and ``'1,000'`` for 1000).

        >>> LexicalPool([1, 2, 3], ["1000.0", "10", "1,000"]).numeric_equal(1000)
        [(1, '1000.0'), (3, '1,000')]
        """
        if self._numbers is None:
            numbers: dict[float, list[int]] = {}
            for i, label in enumerate(self.labels):
                x = parse_number(label)
                if x is not None:
                    numbers.setdefault(x, []).append(i)
            self._numbers = numbers
        found = self._numbers.get(float(number), [])[:limit]
        return [(int(self.ids[i]), self.labels[i]) for i in found]

    def positions(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """Positions of ``ids`` in the pool (the pool's ids are sorted).

        >>> LexicalPool([3, 7, 9], ["a", "b", "c"]).positions([9, 3]).tolist()
        [2, 0]
        """
        return np.searchsorted(self.ids, np.asarray(ids, dtype=np.int64))
