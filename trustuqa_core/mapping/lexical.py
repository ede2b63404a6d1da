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

from ..text import normalize

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
