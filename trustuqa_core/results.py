"""Intermediate results: bags of elements, each carrying the facts (witnesses) behind it.

An element is a graph node id (a value, an entity or a table row) or a computed
:class:`Scalar` (a count, a sum, a year, a time interval). A :class:`Result` is a *bag*:
projecting ``Score`` from two rows worth 10 gives two elements, so ``sum`` is 20.

>>> r = Result((5, 5, Scalar(3.0, "3")), ((1,), (2,), ()))
>>> len(r), len(r.distinct()), r.distinct().witnesses[0]
(3, 2, (1, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .numbers import format_number

__all__ = ["Scalar", "Elem", "Result", "elem_key", "MAX_WITNESSES"]

MAX_WITNESSES = 64  # per element; more are counted in the step, not stored on the element


@dataclass(frozen=True)
class Scalar:
    """A computed value. ``upper`` makes it a closed interval ``[value, upper]`` of years."""

    value: float | str
    text: str
    upper: float | None = None

    @staticmethod
    def number(x: float) -> Scalar:
        """A computed number, shown without a needless ``.0``.

        >>> Scalar.number(2.0).text
        '2'
        """
        return Scalar(float(x), format_number(x))

    @staticmethod
    def interval(start: float, end: float) -> Scalar:
        """A year or a span of years (``1990-1994``).

        >>> Scalar.interval(1990, 1990).text, Scalar.interval(1990, 1994).text
        ('1990', '1990–1994')
        """
        if start == end:
            return Scalar(float(start), format_number(start))
        return Scalar(float(start), f"{format_number(start)}–{format_number(end)}", float(end))

    @property
    def lower(self) -> float | None:
        return self.value if isinstance(self.value, float) else None

    @property
    def high(self) -> float | None:
        """Upper end for intervals, else the value (None for text)."""
        if self.upper is not None:
            return self.upper
        return self.value if isinstance(self.value, float) else None


Elem = int | Scalar


def elem_key(e: Elem) -> tuple:
    """Identity used by set operations: nodes by id, scalars by value."""
    if isinstance(e, Scalar):
        return ("s", e.value, e.upper)
    return ("n", int(e))


@dataclass(frozen=True)
class Result:
    """A bag of elements with one witness tuple (fact ids) per element."""

    elems: tuple[Elem, ...]
    witnesses: tuple[tuple[int, ...], ...]

    @staticmethod
    def empty() -> Result:
        return Result((), ())

    @staticmethod
    def of(elems: Iterable[Elem], witnesses: Iterable[Sequence[int]] | None = None) -> Result:
        elems = tuple(elems)
        if witnesses is None:
            return Result(elems, ((),) * len(elems))
        return Result(elems, tuple(tuple(w)[:MAX_WITNESSES] for w in witnesses))

    @staticmethod
    def from_facts(
        nodes: np.ndarray, facts: np.ndarray, base: Sequence[tuple[int, ...]] | None = None
    ) -> Result:
        """One element per fact: ``nodes[i]`` witnessed by ``facts[i]`` (after ``base[i]``)."""
        node_list, fact_list = nodes.tolist(), facts.tolist()
        if base is None:
            return Result(tuple(node_list), tuple((f,) for f in fact_list))
        wit = tuple((*b[: MAX_WITNESSES - 1], f) for b, f in zip(base, fact_list, strict=True))
        return Result(tuple(node_list), wit)

    def __len__(self) -> int:
        return len(self.elems)

    def __bool__(self) -> bool:
        return bool(self.elems)

    def distinct(self) -> Result:
        """Each element once (first-seen order), with the witnesses of all its copies."""
        if self.all_nodes() and len(set(self.elems)) == len(self.elems):  # fast path
            return Result(self.elems, tuple(
                w if type(w) is tuple and len(w) <= MAX_WITNESSES else tuple(w[:MAX_WITNESSES])
                for w in self.witnesses))
        index: dict[object, int] = {}
        elems: list[Elem] = []
        wits: list[list[int]] = []
        for e, w in zip(self.elems, self.witnesses, strict=True):
            k = e if type(e) is int else elem_key(e)  # node ids key themselves (fast path)
            i = index.get(k)
            if i is None:
                index[k] = len(elems)
                elems.append(e)
                wits.append(list(w))
            elif len(wits[i]) < MAX_WITNESSES:
                wits[i].extend(x for x in w if x not in wits[i])
        return Result(tuple(elems), tuple(tuple(w[:MAX_WITNESSES]) for w in wits))

    def all_nodes(self) -> bool:
        """True when every element is a node id (no scalars).

        >>> Result.of([3, 4]).all_nodes(), Result.of([3, Scalar(1.0, "1")]).all_nodes()
        (True, False)
        """
        return all(type(e) is int for e in self.elems)

    def keys(self) -> set[tuple]:
        return {elem_key(e) for e in self.elems}

    def nodes(self) -> list[int]:
        """Node elements (ints) in order."""
        return [e for e in self.elems if not isinstance(e, Scalar)]

    def all_witnesses(self) -> list[int]:
        """Every witness fact id once, in order of appearance."""
        return list(dict.fromkeys(f for w in self.witnesses for f in w))
