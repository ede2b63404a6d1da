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

import re
from collections.abc import Sequence

import numpy as np
import pandas as pd
from rapidfuzz import fuzz, process

from .numbers import parse_number
from .text import normalize

__all__ = ["LexicalPool", "normalize_all", "anchored_score"]

_SMALL_POOL = 2000
_FUZZY_CANDIDATES = 3000


def anchored_score(needle: str, label: str, score: float) -> float:
    """``score`` (a WRatio on 0..100) unless it came from finding a short ``needle`` inside a
    longer ``label`` starting in the middle of a word: then the whole-string scores only.

    A substring match is evidence when it is a word or a word's start (``brooks`` in ``mel
    brooks``, ``ital`` in ``italy``), not when it is a few letters inside another word.

    >>> round(anchored_score("us", "austria", fuzz.WRatio("us", "austria")))
    44
    >>> round(anchored_score("brooks", "mel brooks", fuzz.WRatio("brooks", "mel brooks")))
    90
    """
    if not needle or len(label) < 1.5 * len(needle):
        return score  # WRatio compared the whole strings
    aligned = fuzz.partial_ratio_alignment(needle, label)
    start = aligned.dest_start if aligned is not None else 0
    if start == 0 or not label[start - 1].isalnum():
        return score
    whole = max(fuzz.ratio(needle, label), 0.95 * fuzz.token_sort_ratio(needle, label),
                0.95 * fuzz.token_set_ratio(needle, label))
    return min(score, whole)


class LexicalPool:
    """Labels of a candidate pool with exact / normalised dictionaries and fuzzy search.

    Args:
        ids: the node (or relation) id of each label.
        labels: display texts, parallel to ``ids``.
    """

    def __init__(self, ids: Sequence[int] | np.ndarray, labels: Sequence[str]) -> None:
        self.ids = np.asarray(ids, dtype=np.int64)
        self.labels = list(labels)
        self.norm_labels = normalize_all(self.labels)
        self._exact = _Groups(self.labels)
        self._norm = _Groups(self.norm_labels)
        self._numbers: dict[float, list[int]] | None = None
        self._words: _Groups | None = None
        self._trigrams: _TrigramIndex | None = None

    def __len__(self) -> int:
        return len(self.labels)

    def exact(self, text: str) -> tuple[int, ...]:
        """Ids whose label is exactly ``text``."""
        return tuple(int(self.ids[i]) for i in self._exact.get(text))

    def normalized(self, text: str) -> tuple[int, ...]:
        """Ids whose normalised label equals the normalised ``text``."""
        return tuple(int(self.ids[i]) for i in self._norm.get(normalize(text)))

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
        if len(self.labels) <= _SMALL_POOL:
            found = [i for i, lab in enumerate(self.norm_labels) if padded in f" {lab} "]
        else:  # only labels holding the needle's rarest word can hold the needle
            found = [i for i in self._word_candidates(needle)
                     if padded in f" {self.norm_labels[i]} "]
        return tuple(int(self.ids[i]) for i in found[:limit])

    def _word_candidates(self, needle: str) -> list[int]:
        """Positions (ascending) of labels holding the rarest whole word of ``needle``."""
        if self._words is None:
            words, owners = [], []
            for i, lab in enumerate(self.norm_labels):
                for w in set(lab.split()):
                    words.append(w)
                    owners.append(i)
            self._words = _Groups(words, np.asarray(owners, dtype=np.int64))
        lists = [self._words.get(w) for w in needle.split()]
        if not lists:
            return []
        rarest: list[int] = min(lists, key=len)
        return sorted(rarest)

    def fuzzy(self, text: str, limit: int = 5, cutoff: float = 0.0) -> list[tuple[int, str, float]]:
        """Best ``limit`` matches as ``(id, label, score in 0..1)``, best first.

        Small pools (up to 2000 labels) use a substring- and word-order-aware scorer
        (rapidfuzz ``WRatio``) over every label, where a substring match counts only when it
        starts a word (:func:`anchored_score`: ``US`` is not found inside ``Austria``); large
        pools the plain edit-distance ratio over the :data:`_FUZZY_CANDIDATES` labels sharing
        most character trigrams with ``text``
        (ties broken by position, as a full scan would).
        """
        if not self.labels:
            return []
        if len(self.labels) <= _SMALL_POOL:
            needle = normalize(text)
            found = process.extract(needle, self.norm_labels, scorer=fuzz.WRatio,
                                    limit=max(limit * 4, 20), score_cutoff=cutoff * 100)
            scored = [(i, anchored_score(needle, label, score)) for label, score, i in found]
            scored = [(i, score) for i, score in scored if score >= cutoff * 100]
            scored.sort(key=lambda pair: -pair[1])  # stable: ties keep WRatio's order
            return [(int(self.ids[i]), self.labels[i], score / 100) for i, score in scored[:limit]]
        if self._trigrams is None:
            self._trigrams = _TrigramIndex(self.norm_labels)
        needle = normalize(text)
        near = self._trigrams.nearest(needle, _FUZZY_CANDIDATES)
        found = process.extract(needle, [self.norm_labels[i] for i in near.tolist()],
                                scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff * 100)
        return [(int(self.ids[near[j]]), self.labels[near[j]], score / 100)
                for _, score, j in found]

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


_SIMPLE = re.compile(r"[A-Za-z0-9]+(?: [A-Za-z0-9]+)*")
_PLAIN_INT = re.compile(r"0|[1-9][0-9]{0,14}")


def normalize_all(labels: Sequence[str]) -> list[str]:
    """:func:`~trustuqa_core.text.normalize` of every label, with a fast path for the
    common plain labels (ASCII words separated by single spaces, plain integers), whose
    normal form is their lower-case text.

    >>> normalize_all(["Amber Oak 3", "1200", "Café, Ltd.", "007"])
    ['amber oak 3', '1200', 'cafe ltd', '7']
    """
    out = []
    for label in labels:
        if _SIMPLE.fullmatch(label) and (not label.isdigit() or _PLAIN_INT.fullmatch(label)):
            out.append(label.lower())
        else:
            out.append(normalize(label))
    return out


class _Groups:
    """Positions grouped by key: ``get(key)`` lists the positions (ascending) whose key it is.

    >>> _Groups(["a", "b", "a"]).get("a"), _Groups(["a"]).get("z")
    ([0, 2], [])
    """

    def __init__(self, keys: Sequence[str], positions: np.ndarray | None = None) -> None:
        codes, uniques = pd.factorize(np.asarray(keys, dtype=object), sort=False)
        order = np.argsort(codes, kind="stable")
        self._positions = (order if positions is None else positions[order]).tolist()
        self._starts = np.searchsorted(codes[order], np.arange(len(uniques) + 1)).tolist()
        self._code = dict(zip(uniques.tolist(), range(len(uniques)), strict=True))

    def get(self, key: str) -> list[int]:
        code = self._code.get(key)
        if code is None:
            return []
        return self._positions[self._starts[code] : self._starts[code + 1]]


class _TrigramIndex:
    """Character trigrams (of the UTF-8 bytes, words padded by spaces) of many labels, to find
    the labels sharing most trigrams with a text without scoring every label.

    >>> idx = _TrigramIndex(["north river", "south river", "oak hill"])
    >>> idx.nearest("nrth river", 2).tolist()
    [0, 1]
    """

    def __init__(self, labels: Sequence[str]) -> None:
        data = [f" {lab} ".encode() for lab in labels]
        lengths = np.fromiter((len(b) for b in data), dtype=np.int64, count=len(data))
        buf = np.frombuffer(b"".join(data), dtype=np.uint8).astype(np.int32)
        codes = _codes(buf)
        owner = np.repeat(np.arange(len(data), dtype=np.int32), lengths)[: len(codes)]
        ends = np.cumsum(lengths)
        inside = np.ones(len(codes), dtype=bool)  # a trigram must not cross into the next label
        for back in (1, 2):
            cut = ends - back
            inside[cut[(cut >= 0) & (cut < len(codes))]] = False
        codes, owner = codes[inside], owner[inside]
        order = np.argsort(codes, kind="stable")
        self._codes, self._owner = codes[order], owner[order]
        self._n = len(data)

    def nearest(self, text: str, k: int) -> np.ndarray:
        """Positions (ascending) of the ``k`` labels sharing most distinct trigrams with
        ``text`` (at most the labels sharing any)."""
        q = np.unique(_codes(np.frombuffer(f" {text} ".encode(), dtype=np.uint8)
                             .astype(np.int32)))
        lo = np.searchsorted(self._codes, q, "left")
        hi = np.searchsorted(self._codes, q, "right")
        if int((hi - lo).sum()) == 0:
            return np.arange(min(k, self._n), dtype=np.int64)
        hits = np.concatenate([self._owner[a:b] for a, b in zip(lo.tolist(), hi.tolist(),
                                                                strict=True)])
        counts = np.bincount(hits, minlength=self._n)
        shared = np.flatnonzero(counts)
        if len(shared) > k:  # the k best; ties at the cut go to the earlier labels
            c = counts[shared]
            cut = np.partition(c, len(c) - k)[len(c) - k]
            above = shared[c > cut]
            shared = np.sort(np.concatenate([above, shared[c == cut][: k - len(above)]]))
        return shared.astype(np.int64)


def _codes(buf: np.ndarray) -> np.ndarray:
    """Trigram codes at every position of a byte buffer (``len - 2`` of them)."""
    if len(buf) < 3:
        return np.zeros(0, dtype=np.int32)
    return (buf[:-2] << 16) | (buf[1:-1] << 8) | buf[2:]
