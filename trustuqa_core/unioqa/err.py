"""ERR — entity and relation replacement on a generated Cypher query, chosen by execution.

UniOQA's translator writes Cypher whose names may not be the KG's (a misspelled film, a
relation paraphrased). ERR rebuilds the query with KG names: each distinct entity literal is
bound to its best ``k_entity`` candidates from our mapper (``Mapper.map_entity``), the *first*
relation literal to its ``k_relation`` most similar relation names (``Mapper.map_relation``'s
candidates, filled up by fuzzy similarity among all relation names when it matched exactly),
every other relation literal to its best candidate. Each combination (at most ``max_variants``,
best-scored first) runs read-only on the Ladybug store; the kept variant is the first
non-empty one by mapping score (the mean of its candidates' scores), else the best-scored
one. Every variant, its bindings and its answer (or error) are kept for the trace.

The names go in as parameters (:func:`~trustuqa_core.cypher.literals.parameterise`), never
into the text, and the text passes :func:`~trustuqa_core.cypher.validate.validate_cypher`
before anything runs.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> from trustuqa_core.mapping import Mapper
>>> from trustuqa_core.cypher import CypherStore
>>> g = build_graph([load_source(b"Kismet|directed_by|William Dieterle\\n", "kg", "kg.txt")])
>>> r = replace_and_run("MATCH (m:Node)-[f:Fact]->(d:Node) WHERE m.label = 'kismett' "
...                     "AND f.rel = 'director' RETURN d.label", Mapper(g), CypherStore.open(g))
>>> r.answer, [(b.original, b.chosen) for b in r.chosen.bindings]
(['William Dieterle'], [('kismett', 'Kismet'), ('director', 'directed_by')])
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

from ..cypher.literals import SlotKind, parameterise
from ..cypher.store import CypherRunError, CypherStore
from ..cypher.validate import validate_cypher
from ..lexical_pool import LexicalPool
from ..mapping.mapper import Mapper
from ..numbers import format_number

__all__ = ["Binding", "Variant", "ERRResult", "replace_and_run", "read_answer", "MAX_ROWS"]

MAX_ROWS = 10_000


@dataclass(frozen=True)
class Binding:
    """One literal of the query bound to a KG name (``score`` is the mapper's, 0..1)."""

    kind: SlotKind
    original: str
    chosen: str
    score: float
    parameter: str


@dataclass(frozen=True)
class Variant:
    """One rebuilt query: its bindings, the answer it executed to (or its error)."""

    bindings: tuple[Binding, ...]
    answer: tuple[str, ...]
    error: str | None
    seconds: float

    @property
    def score(self) -> float:
        """The mean mapping score of its bindings (1.0 for a query with no literal)."""
        return sum(b.score for b in self.bindings) / len(self.bindings) if self.bindings else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {"bindings": [b.__dict__ for b in self.bindings], "answer": list(self.answer),
                "error": self.error, "score": round(self.score, 4),
                "seconds": round(self.seconds, 4)}


@dataclass(frozen=True)
class ERRResult:
    """The generated query, its parameterised form, every variant run and the one kept."""

    cypher: str
    parameterised: str
    variants: tuple[Variant, ...]
    chosen: Variant | None

    @property
    def answer(self) -> list[str]:
        return list(self.chosen.answer) if self.chosen else []

    @property
    def replaced(self) -> bool:
        """True when the kept query binds some literal to a different name."""
        chosen = self.chosen
        return chosen is not None and any(b.original != b.chosen for b in chosen.bindings)

    @property
    def rebuilt_cypher(self) -> str:
        """The kept query with its names written in (for display and copying)."""
        text = self.parameterised
        for b in sorted(self.chosen.bindings if self.chosen else (),
                        key=lambda b: -len(b.parameter)):
            text = text.replace("$" + b.parameter, "'" + b.chosen.replace("\\", "\\\\")
                                .replace("'", "\\'") + "'")
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"cypher": self.cypher, "rebuilt": self.rebuilt_cypher,
                "variants": [v.to_dict() for v in self.variants],
                "chosen": self.variants.index(self.chosen) if self.chosen else None}


def read_answer(rows: list[list[Any]]) -> tuple[str, ...]:
    """The distinct, sorted texts of the first column (nodes read by their ``label``).

    >>> read_answer([["b"], [{"label": "a", "id": 3}], [2.0], [None]])
    ('2', 'a', 'b')
    """
    out = set()
    for row in rows[:MAX_ROWS]:
        value = row[0] if row else None
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, dict):
                v = v.get("label")
            if v is None:
                continue
            out.add(format_number(float(v)) if isinstance(v, int | float) and not isinstance(
                v, bool) else str(v))
    return tuple(sorted(out))


def _options(kind: SlotKind, text: str, first_relation: bool, mapper: Mapper, k_entity: int,
             k_relation: int) -> list[tuple[str, float]]:
    """The (name, score) candidates of one literal, best first (the literal itself, scored
    0, when the mapper finds nothing)."""
    if kind == "entity":
        mapping, k = mapper.map_entity(text), k_entity
    else:
        mapping, k = mapper.map_relation(text), (k_relation if first_relation else 1)
    found: list[tuple[str, float]] = []
    for c in mapping.candidates:
        if c.label not in (f for f, _ in found):
            found.append((c.label, float(c.score)))
        if len(found) == k:
            break
    if kind == "relation" and len(found) < k:  # the first relation: top-k similar names,
        names = mapper.graph.relation_names     # even when one matched exactly
        for _, label, score in LexicalPool(range(len(names)), names).fuzzy(text, limit=k + 1):
            if len(found) < k and label not in (f for f, _ in found):
                found.append((label, min(float(score), found[-1][1] if found else 1.0)))
    return found or [(text, 0.0)]


def replace_and_run(cypher: str, mapper: Mapper, store: CypherStore, *, k_entity: int = 3,
                    k_relation: int = 3, max_variants: int = 27) -> ERRResult:
    """Validate ``cypher``, rebuild it with KG names, run the variants, keep the best.

    Raises :class:`~trustuqa_core.cypher.validate.CypherValidationError` for a text that is
    not one read-only query; a variant Ladybug refuses is recorded with its error.
    """
    validate_cypher(cypher)
    text, names = parameterise(cypher)
    validate_cypher(text)
    keys = list(names)
    first_rel = next((k for k in keys if k[0] == "relation"), None)
    options = [_options(kind, literal, (kind, literal) == first_rel, mapper, k_entity, k_relation)
               for kind, literal in keys]
    combos = sorted(itertools.product(*(range(len(o)) for o in options)),
                    key=lambda idx: (-sum(options[i][j][1] for i, j in enumerate(idx)), idx))
    variants: list[Variant] = []
    for idx in combos[:max_variants]:
        bindings = tuple(Binding(keys[i][0], keys[i][1], options[i][j][0], options[i][j][1],
                                 names[keys[i]]) for i, j in enumerate(idx))
        t0 = time.perf_counter()
        try:
            rows = store.execute(text, {b.parameter: b.chosen for b in bindings})
            variants.append(Variant(bindings, read_answer(rows), None, time.perf_counter() - t0))
        except CypherRunError as exc:
            variants.append(Variant(bindings, (), str(exc), time.perf_counter() - t0))
    answered = [v for v in variants if v.answer]
    pool = answered or [v for v in variants if v.error is None] or variants
    chosen = max(pool, key=lambda v: v.score) if pool else None
    return ERRResult(cypher, text, tuple(variants), chosen)
