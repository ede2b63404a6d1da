"""The mapping cascade as data: ordered, named stages, tried once each, first answer wins.

A :class:`Probe` is one literal to map plus where to look (a pool of labels, the dense index
when there is one). A :class:`Stage` is a small function ``Probe -> Found | None``; a cascade
is a tuple of stages (:data:`RELATION_STAGES`, :data:`ENTITY_STAGES`, :data:`VALUE_STAGES`,
:data:`THRESHOLD_STAGES`) and :func:`run_stages` walks it in one pass. The method a
:class:`~trustuqa_core.mapping.mapper.Mapping` reports is the deciding stage's name, except
for the last stage, ``closest``, which ranks fuzzy and dense candidates together and reports
the winner's method (``fuzzy`` or ``dense``; ``none`` when there is no candidate).

>>> from trustuqa_core.lexical_pool import LexicalPool
>>> pool = LexicalPool([10, 11, 12], ["Italy", "Spain", "Sweden"])
>>> probe = Probe("spain", pool, lambda i: pool.labels[i - 10], top_k=3)
>>> [s.name for s in ENTITY_STAGES]
['exact', 'normalized', 'fuzzy', 'closest']
>>> found = run_stages(ENTITY_STAGES, probe)
>>> found.method, [c.label for c in found.candidates]
('normalized', ['Spain'])
>>> run_stages(THRESHOLD_STAGES, Probe("Portugal", pool, str, top_k=3)) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..numbers import parse_number
from ..store import LabelPool
from .dense import EmbeddingIndex

__all__ = [
    "ACCEPT_FUZZY",
    "Candidate",
    "Found",
    "Probe",
    "Stage",
    "run_stages",
    "RELATION_STAGES",
    "ENTITY_STAGES",
    "VALUE_STAGES",
    "THRESHOLD_STAGES",
]

#: a fuzzy match at least this good is accepted without asking the dense encoder
ACCEPT_FUZZY = 0.85
_EXACT, _NORMALIZED, _NUMERIC, _CONTAINS = 1.0, 0.95, 0.95, 0.9

DenseSearch = tuple[EmbeddingIndex | None, np.ndarray | None]


@dataclass(frozen=True)
class Candidate:
    """One possible target of an argument."""

    id: int
    label: str
    score: float
    method: str


@dataclass(frozen=True)
class Found:
    """What a stage decided: its method, the candidates (best first) and, when it looked
    outside the probe's pool, the scope it looked in."""

    method: str
    candidates: list[Candidate]
    scope: str | None = None


def _no_dense() -> DenseSearch:
    return None, None


@dataclass
class Probe:
    """One literal and where to look for it.

    Args:
        text: the literal as written.
        pool: the labels to match (relation names, a relation's values, all entities).
        label: display label of an id of ``pool``.
        top_k: how many candidates a stage keeps.
        dense: the dense index and the positions to search in it (called only when a stage
            needs it: building an index may embed many labels).
        entities: the pool of all entities (for the value cascade's wider look, and to read
            positions of a shared entity index restricted to ``pool``).
    """

    text: str
    pool: LabelPool
    label: Callable[[int], str]
    top_k: int = 5
    dense: Callable[[], DenseSearch] = _no_dense
    entities: Callable[[], LabelPool] | None = None
    _fuzzy: list[tuple[int, str, float]] | None = field(default=None, repr=False)

    def fuzzy(self) -> list[tuple[int, str, float]]:
        """The ``top_k`` best fuzzy matches in ``pool`` (computed once per probe)."""
        if self._fuzzy is None:
            self._fuzzy = self.pool.fuzzy(self.text, self.top_k, 0.0)
        return self._fuzzy

    def all_entities(self) -> LabelPool:
        return self.entities() if self.entities is not None else self.pool


@dataclass(frozen=True)
class Stage:
    """A named step of a cascade: ``find(probe)`` returns what it decided, or None to pass."""

    name: str
    find: Callable[[Probe], Found | None]


def run_stages(stages: Sequence[Stage], probe: Probe) -> Found | None:
    """The first stage's answer, in order (None when every stage passes)."""
    for stage in stages:
        found = stage.find(probe)
        if found is not None:
            return found
    return None


# ------------------------------------------------------------------------------ stages
def numeric_equal(text: str, pool: LabelPool, exclude: tuple[int, ...] = ()) -> list[Candidate]:
    """Labels of ``pool`` holding the same number as ``text`` (``'1,000'`` = ``'1000.0'``).

    >>> from trustuqa_core.lexical_pool import LexicalPool
    >>> [c.label for c in numeric_equal("1,000", LexicalPool([1, 2], ["1000.0", "10"]))]
    ['1000.0']
    """
    number = parse_number(text)
    if number is None:
        return []
    return [Candidate(i, label, _NUMERIC, "numeric")
            for i, label in pool.numeric_equal(number) if i not in exclude]


def _match(method: str, score: float, *, numbers: bool = False,
           wide: bool = False) -> Callable[[Probe], Found | None]:
    """An exact (``method='exact'``) or normalised lookup scored ``score``; ``numbers`` adds
    the pool's numerically equal labels, ``wide`` looks among all entities instead."""

    def find(p: Probe) -> Found | None:
        pool = p.all_entities() if wide else p.pool
        ids = pool.exact(p.text) if method == "exact" else pool.normalized(p.text)
        if not ids:
            return None
        cands = [Candidate(i, p.label(i), score, method) for i in ids]
        if numbers:
            cands += numeric_equal(p.text, p.pool, tuple(c.id for c in cands))
        return Found(method, cands, "all entities" if wide else None)

    return find


def _numeric(p: Probe) -> Found | None:
    """Labels holding the same number as the literal."""
    cands = numeric_equal(p.text, p.pool)
    return Found("numeric", cands) if cands else None


def _contains(p: Probe) -> Found | None:
    """Labels containing a non-numeric literal as whole words (``February`` in a date)."""
    if parse_number(p.text) is not None:
        return None
    ids = p.pool.containing(p.text)
    return Found("contains", [Candidate(i, p.label(i), _CONTAINS, "contains") for i in ids]) \
        if ids else None


def _fuzzy_ranked(p: Probe) -> dict[int, Candidate]:
    return {i: Candidate(i, lab, s, "fuzzy") for i, lab, s in p.fuzzy()}


def _fuzzy(p: Probe) -> Found | None:
    """The fuzzy matches, when the best is at least :data:`ACCEPT_FUZZY`."""
    cands = _fuzzy_ranked(p)
    if max((c.score for c in cands.values()), default=0.0) < ACCEPT_FUZZY:
        return None
    return Found("fuzzy", sorted(cands.values(), key=lambda c: -c.score)[: p.top_k])


def _closest(p: Probe) -> Found:
    """Fuzzy and (below :data:`ACCEPT_FUZZY`, with an encoder) dense candidates ranked
    together; the method is the winner's. Never passes."""
    cands = _fuzzy_ranked(p)
    best = max((c.score for c in cands.values()), default=0.0)
    index, subset = p.dense() if best < ACCEPT_FUZZY else (None, None)
    if index is not None:
        ids = p.pool.ids if subset is None else p.all_entities().ids
        for pos, score in index.search_positions(p.text, p.top_k, subset):
            i = int(ids[pos])
            if i not in cands or cands[i].score < score:
                cands[i] = Candidate(i, index.labels[pos], score, "dense")
    ranked = sorted(cands.values(), key=lambda c: -c.score)
    return Found(ranked[0].method if ranked else "none", ranked[: p.top_k])


#: relation names, and entities by name: exact -> normalised -> fuzzy -> closest
RELATION_STAGES: tuple[Stage, ...] = (
    Stage("exact", _match("exact", _EXACT)),
    Stage("normalized", _match("normalized", _NORMALIZED)),
    Stage("fuzzy", _fuzzy),
    Stage("closest", _closest),
)
ENTITY_STAGES = RELATION_STAGES

#: a value among the values of its relation; before guessing, an exact or normalised match
#: among all entities (scope ``all entities``) wins over a guess among the values
VALUE_STAGES: tuple[Stage, ...] = (
    Stage("exact", _match("exact", _EXACT, numbers=True)),
    Stage("normalized", _match("normalized", _NORMALIZED, numbers=True)),
    Stage("numeric", _numeric),
    Stage("contains", _contains),
    Stage("fuzzy", _fuzzy),
    Stage("exact_anywhere", _match("exact", _EXACT, wide=True)),
    Stage("normalized_anywhere", _match("normalized", _NORMALIZED, wide=True)),
    Stage("closest", _closest),
)

#: a non-numeric comparison literal binds only to an equal value (both scored 1.0)
THRESHOLD_STAGES: tuple[Stage, ...] = (
    Stage("exact", _match("exact", _EXACT)),
    Stage("normalized", _match("normalized", _EXACT)),
)
