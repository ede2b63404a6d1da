"""Semantic mapping: every literal argument of a program -> graph nodes, scored, with alternatives.

Roles: ``relation``/``key`` are matched among relation names (and the time keys of a temporal
graph); ``tail_entity``/``value`` among the values of the chosen relation first (a small,
precise pool), then among all entities; ``head_entity`` and literal set arguments among all
entities. The cascade for each role is an ordered list of named stages in
:mod:`~trustuqa_core.mapping.stages` (exact -> normalised -> (numeric equality) -> fuzzy ->
dense encoder), walked once per literal. Each :class:`Mapping` keeps the top candidates,
the margin to the runner-up and a ``weak`` flag.
The dense stage never embeds more labels than the ``dense_labels`` limit: a larger pool (and
``row_number``, whose values are plain numbers) is matched lexically only.
``overrides`` (``"Q<n>.<arg>" -> label``) let a user fix a mapping and re-run without the LLM.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> from trustuqa_core.query import parse, render_program
>>> data = b"Nation,Year\\nItaly (ITA),1990\\nSpain,1994\\n"
>>> g = build_graph([load_source(data, "table", "t.csv")])
>>> text = "Query1: \\"get_information(relation='nation', tail_entity='Italy')\\""
>>> mp = Mapper(g).map_program(parse(text))
>>> print(render_program(mp.program))
Query1: "get_information(relation='Nation', tail_entity='Italy (ITA)')"
>>> [(m.arg, m.method) for m in mp.mappings]
[('relation', 'normalized'), ('tail_entity', 'contains')]
"""

from __future__ import annotations

import threading
from collections.abc import Mapping as MappingType
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import numpy as np

from ..errors import MappingError
from ..function_names import is_defined, is_reasoning
from ..lexical_pool import LexicalPool
from ..limits import current_limits
from ..numbers import parse_number
from ..query.ast import Arg, Bound, Call, ListValue, Program, Query, Ref, Text, Value
from ..store import GraphStore, LabelPool
from ..text import normalize
from ..translate.table import ROW_NUMBER
from .dense import EmbeddingIndex, Encoder, default_cache_dir
from .stages import (
    ENTITY_STAGES,
    RELATION_STAGES,
    THRESHOLD_STAGES,
    VALUE_STAGES,
    Candidate,
    Found,
    Probe,
    Stage,
    run_stages,
)

__all__ = ["Mapper", "Mapping", "MappedProgram", "TIME_KEYS", "override_key"]

Role = Literal["relation", "value", "entity", "time_key"]
TIME_KEYS = ("time", "start_time", "end_time")
_TIME_WORDS = {
    "time": "time",
    "year": "time",
    "date": "time",
    "when": "time",
    "start time": "start_time",
    "start": "start_time",
    "begin": "start_time",
    "end time": "end_time",
    "end": "end_time",
}
_WEAK_SCORE = 0.75
_WEAK_MARGIN = 0.05
MIN_SCORE = 0.4
_SPECIAL = {"most", "least"}


@dataclass(frozen=True)
class Mapping:
    """How one literal argument was mapped.

    ``ids`` are relation ids for the ``relation`` role, node ids otherwise (time keys: empty).
    ``key`` identifies the argument for overrides (``"Q2.tail_entity"``, ``"target_type"``).
    """

    key: str
    query: int
    arg: str
    text: str
    role: Role
    ids: tuple[int, ...]
    labels: tuple[str, ...]
    method: str
    score: float
    candidates: tuple[Candidate, ...]
    margin: float
    scope: str

    @property
    def weak(self) -> bool:
        """True when the choice deserves a human look (low score or close runner-up)."""
        if self.method in ("exact", "normalized", "numeric", "override", "time_key"):
            return False
        if self.method == "contains":
            return len(self.ids) > 1
        return not self.ids or self.score < _WEAK_SCORE or self.margin < _WEAK_MARGIN


@dataclass(frozen=True)
class MappedProgram:
    """A program whose literals are replaced by :class:`~trustuqa_core.query.ast.Bound` values."""

    program: Program
    original: Program
    mappings: tuple[Mapping, ...]
    target: Mapping | None


def override_key(query: int, arg: str, occurrence: int = 1) -> str:
    """The override key of an argument (``occurrence`` counts repeated names in one call).

    >>> override_key(2, "tail_entity"), override_key(2, "tail_entity", 2)
    ('Q2.tail_entity', 'Q2.tail_entity#2')
    """
    return f"Q{query}.{arg}" + (f"#{occurrence}" if occurrence > 1 else "")


class Mapper:
    """Maps literals onto one graph. Thread-safe; build once per graph and reuse.

    Args:
        graph: the condition graph.
        encoder: dense encoder for the last cascade stage (None: lexical only).
        cache_dir: where node embeddings are cached (default ``~/.cache/trustuqa``).
        top_k: how many candidates each mapping keeps.
        min_score: below this fuzzy/dense score nothing is bound (the candidates are still
            listed, so a user can pick one as an override).
    """

    def __init__(
        self,
        graph: GraphStore,
        encoder: Encoder | None = None,
        cache_dir: Path | None = None,
        top_k: int = 5,
        min_score: float = MIN_SCORE,
    ) -> None:
        self.graph = graph
        self.encoder = encoder
        self.cache_dir = cache_dir if cache_dir is not None else default_cache_dir()
        self.top_k = top_k
        self.min_score = min_score
        self._lock = threading.Lock()
        self._entities: LabelPool | None = None
        self._relations = LexicalPool(range(len(graph.relation_names)), graph.relation_names)
        self._entity_dense: EmbeddingIndex | None = None
        self._relation_dense: EmbeddingIndex | None = None
        self._value_dense: dict[int, EmbeddingIndex] = {}
        self.dense_labels = current_limits().dense_labels

    # ------------------------------------------------------------------ pools
    @property
    def entities(self) -> LabelPool:
        if self._entities is None:
            with self._lock:
                if self._entities is None:
                    self._entities = self.graph.entity_pool()
        return self._entities

    def relation_values(self, rel: int) -> LabelPool:
        """The distinct values of relation ``rel`` (the store caches the pool)."""
        return self.graph.value_pool(rel)

    def entity_index(self) -> EmbeddingIndex | None:
        """Embeddings of all entity labels (computed once per graph, cached on disk); None
        without an encoder or when there are more entities than the ``dense_labels`` limit."""
        if self.encoder is None or len(self.entities) > self.dense_labels:
            return None
        if self._entity_dense is None:
            self._entity_dense = EmbeddingIndex(self.entities.labels, self.encoder, self.cache_dir)
        return self._entity_dense

    def _relation_index(self) -> EmbeddingIndex | None:
        if self.encoder is None or len(self._relations.labels) > self.dense_labels:
            return None
        if self._relation_dense is None:
            self._relation_dense = EmbeddingIndex(self._relations.labels, self.encoder, None)
        return self._relation_dense

    # -------------------------------------------------------------- per role
    def map_relation(
        self,
        text: str,
        key: str = "",
        query: int = 0,
        arg: str = "relation",
        allow_time: bool = False,
    ) -> Mapping:
        """Map a relation / key name (time keys too when ``allow_time``)."""
        if allow_time and self.graph.is_temporal:
            time_key = _TIME_WORDS.get(normalize(text)) or (text if text in TIME_KEYS else None)
            if time_key:
                return _time_key(key, query, arg, text, time_key, "time_key", "time keys")
        probe = Probe(text, self._relations, self._relations_label, self.top_k,
                      dense=lambda: (self._relation_index(), None))
        return self._decide(RELATION_STAGES, probe, key, query, arg, text, "relation",
                            "relation names")

    def map_value(
        self, text: str, rel: int | None, key: str = "", query: int = 0, arg: str = "tail_entity"
    ) -> Mapping:
        """Map a value, among the values of relation ``rel`` first, then among all entities."""
        if rel is None:
            return self.map_entity(text, key, query, arg)
        pool = self.relation_values(rel)
        probe = Probe(text, pool, self.graph.label, self.top_k,
                      dense=lambda: self._value_index(rel, pool),
                      entities=lambda: self.entities)
        scope = f"values of {self.graph.relation_names[rel]!r}"
        return self._decide(VALUE_STAGES, probe, key, query, arg, text, "value", scope)

    def _value_index(
        self, rel: int, pool: LabelPool
    ) -> tuple[EmbeddingIndex | None, np.ndarray | None]:
        """The dense index for values of ``rel`` and the positions to search in it.

        Within the ``dense_labels`` limit: the shared entity index restricted to the pool;
        beyond it, an index of the relation's own values if they fit; else none (lexical
        only). ``row_number`` never gets one: its values are numbers, not names.
        """
        if self.encoder is None or self.graph.relation_names[rel] == ROW_NUMBER:
            return None, None
        if len(self.entities) <= self.dense_labels:
            return self.entity_index(), self._positions(pool.ids)
        if len(pool) > self.dense_labels:
            return None, None
        index = self._value_dense.get(rel)
        if index is None:
            index = EmbeddingIndex(pool.labels, self.encoder, self.cache_dir)
            with self._lock:
                self._value_dense[rel] = index
        return index, None

    def map_entity(
        self, text: str, key: str = "", query: int = 0, arg: str = "head_entity"
    ) -> Mapping:
        """Map an entity among all entities (heads, values)."""
        probe = Probe(text, self.entities, self.graph.label, self.top_k,
                      dense=lambda: (self.entity_index(), None))
        return self._decide(ENTITY_STAGES, probe, key, query, arg, text, "entity",
                            "all entities")

    def _decide(self, stages: tuple[Stage, ...], probe: Probe, key: str, query: int, arg: str,
                text: str, role: Role, scope: str) -> Mapping:
        """One pass over ``stages``; the deciding stage's candidates become the mapping."""
        found = run_stages(stages, probe) or Found("none", [])
        return self._mapping(key, query, arg, text, role, found, found.scope or scope)

    # ------------------------------------------------------------- program
    def map_program(
        self, program: Program, overrides: MappingType[str, str] | None = None
    ) -> MappedProgram:
        """Bind every literal argument of ``program`` (``overrides`` win over the cascade)."""
        overrides = dict(overrides or {})
        mappings: list[Mapping] = []
        queries = []
        for q in program.queries:
            call, found = self._map_call(q, overrides)
            mappings.extend(found)
            queries.append(replace(q, call=call))
        target = None
        if program.target_type:
            target = self._override(
                "target_type", overrides, 0, "target_type", program.target_type, "relation"
            )
            target = target or self.map_relation(
                program.target_type, "target_type", 0, "target_type"
            )
        unknown = set(overrides) - {m.key for m in mappings} - {"target_type"}
        if unknown:
            raise MappingError(f"override for an argument that does not exist: {sorted(unknown)}")
        bound = Program(tuple(queries), program.target_type)
        return MappedProgram(bound, program, tuple(mappings), target)

    def _map_call(self, q: Query, overrides: dict[str, str]) -> tuple[Call, list[Mapping]]:
        """Map one call: relation/key first, then values within their relation's values.

        ``tail_entity`` is looked up among the values of ``relation`` (else ``key``), ``value``
        among those of ``key`` (else ``relation``); the k-th of repeated arguments pairs with
        the k-th relation, as the rewrite's conjunction rule does.
        """
        call = q.call
        if not is_defined(call.func) or is_reasoning(call.func):
            return call, []  # undefined: the LLM fallback reads it; reasoning: read as literals
        found: list[Mapping] = []
        seen: dict[str, int] = {}
        scopes: dict[str, list[int | None]] = {"relation": [], "key": []}
        time_call = False
        args = list(call.args)
        order = sorted(range(len(args)), key=lambda i: args[i].name not in ("relation", "key"))
        for i in order:
            a = args[i]
            seen[a.name or ""] = seen.get(a.name or "", 0) + 1
            key = override_key(q.number, a.name or f"arg{i + 1}", seen[a.name or ""])
            role = self._role(call, a, time_call)
            if role is None or isinstance(a.value, Ref):
                continue
            scope = _scope(scopes, a.name, seen[a.name or ""])
            m = self._map_value(a.value, role, key, q.number, a.name or "", scope, overrides, a.cmp)
            if m is None:
                continue
            if m.role == "time_key":
                time_call = True
            elif a.name in scopes:
                scopes[a.name].append(m.ids[0] if m.ids else None)
            found.append(m)
            text = a.value.value if isinstance(a.value, Text) else str(a.value)
            args[i] = replace(a, value=Bound(text, m.ids, m.labels, m.role))
        return replace(call, args=tuple(args)), sorted(found, key=lambda m: _arg_pos(call, m))

    def _role(self, call: Call, a: Arg, time_call: bool) -> Role | None:
        if isinstance(a.value, Ref):
            return None
        if call.func == "get_information":
            if a.name in ("relation", "key"):
                return "relation"
            if a.name in ("tail_entity", "value"):
                text = a.value.value if isinstance(a.value, Text) else ""
                if text.strip().lower() in _SPECIAL:
                    return None
                if a.cmp not in ("=", "!=") and parse_number(text) is not None:
                    return None
                if a.name == "value" and time_call:
                    return None
                return "value"
            if a.name == "head_entity":
                return "entity"
            return None
        if call.func == "keep":
            return None
        return "entity"  # a literal where a set is expected: an entity by name

    def _map_value(
        self,
        value: Value,
        role: Role,
        key: str,
        query: int,
        arg: str,
        rel_id: int | None,
        overrides: dict[str, str],
        cmp: str = "=",
    ) -> Mapping | None:
        if isinstance(value, ListValue):
            texts = [v.value for v in value.items if isinstance(v, Text)]
            if not texts:
                return None
            parts = [
                self._map_value(Text(t), role, key, query, arg, rel_id, {}, cmp) for t in texts
            ]
            return _merge(key, query, arg, str(value), [p for p in parts if p is not None])
        if not isinstance(value, Text):
            return None
        text = value.value
        over = self._override(key, overrides, query, arg, text, role)
        if over is not None:
            return over
        if role == "relation":
            return self.map_relation(text, key, query, arg, allow_time=arg == "key")
        if role == "value":
            if cmp not in ("=", "!="):
                return self._map_threshold(text, rel_id, key, query, arg)
            return self.map_value(text, rel_id, key, query, arg)
        return self.map_entity(text, key, query, arg)

    def _map_threshold(
        self, text: str, rel: int | None, key: str, query: int, arg: str
    ) -> Mapping | None:
        """A non-numeric comparison literal is bound only to an equal value of the relation
        (``'5th'`` among positions); a word like ``'highest'`` stays a literal, so the
        comparison is read loosely or goes to the LLM fallback instead of a guessed value."""
        if rel is None:
            return None
        probe = Probe(text, self.relation_values(rel), self.graph.label, self.top_k)
        found = run_stages(THRESHOLD_STAGES, probe)
        if found is None:
            return None
        scope = f"values of {self.graph.relation_names[rel]!r}"
        return self._mapping(key, query, arg, text, "value", found, scope)

    def _override(
        self, key: str, overrides: dict[str, str], query: int, arg: str, text: str, role: Role
    ) -> Mapping | None:
        if key not in overrides:
            return None
        label = overrides[key]
        if role == "relation":
            if label in TIME_KEYS and self.graph.is_temporal:
                return _time_key(key, query, arg, text, label, "override", "user override")
            rid = self.graph.relation(label)
            if rid is None:
                raise MappingError(f"override {key}: no relation named {label!r}", key)
            ids = (rid,)
        else:
            nid = self.graph.entity(label)
            if nid is None:
                raise MappingError(f"override {key}: no value or entity {label!r} in the data", key)
            ids = (nid,)
        role_ = "relation" if role == "relation" else role
        cand = (Candidate(ids[0], label, 1.0, "override"),)
        return Mapping(
            key, query, arg, text, role_, ids, (label,), "override", 1.0, cand, 1.0, "user override"
        )

    # -------------------------------------------------------------- helpers
    def _positions(self, ids: np.ndarray) -> np.ndarray:
        return self.entities.positions(ids)

    def _relations_label(self, rel: int) -> str:
        return self.graph.relation_names[rel]

    def _mapping(
        self,
        key: str,
        query: int,
        arg: str,
        text: str,
        role: Role,
        found: Found,
        scope: str,
    ) -> Mapping:
        method, cands = found.method, found.candidates
        if not cands:
            return Mapping(key, query, arg, text, role, (), (), "none", 0.0, (), 0.0, scope)
        top = cands[0].score
        if method in ("exact", "normalized", "numeric", "contains"):
            chosen = [c for c in cands if c.method in (method, "numeric")]
            rest = [c for c in cands if c.method not in (method, "numeric")]
        elif top < self.min_score:  # too far from everything: bind nothing, keep candidates
            return Mapping(
                key,
                query,
                arg,
                text,
                role,
                (),
                (),
                "none",
                top,
                tuple(cands[: self.top_k]),
                0.0,
                scope,
            )
        else:
            chosen, rest = cands[:1], cands[1:]
        runner = rest[0].score if rest else 0.0
        return Mapping(
            key,
            query,
            arg,
            text,
            role,
            tuple(c.id for c in chosen),
            tuple(c.label for c in chosen),
            method,
            top,
            tuple(cands[: self.top_k]),
            round(top - runner, 6),
            scope,
        )


def _time_key(
    key: str, query: int, arg: str, text: str, label: str, method: str, scope: str
) -> Mapping:
    """A ``key`` argument read as one of the time keys of a temporal graph."""
    return Mapping(key, query, arg, text, "time_key", (), (label,), method, 1.0, (), 1.0, scope)


def _merge(key: str, query: int, arg: str, text: str, parts: list[Mapping]) -> Mapping | None:
    if not parts:
        return None
    ids = tuple(i for p in parts for i in p.ids)
    labels = tuple(lab for p in parts for lab in p.labels)
    score = min(p.score for p in parts)
    cands = tuple(c for p in parts for c in p.candidates)
    return Mapping(
        key,
        query,
        arg,
        text,
        parts[0].role,
        ids,
        labels,
        parts[0].method,
        score,
        cands,
        min(p.margin for p in parts),
        parts[0].scope,
    )


def _scope(scopes: dict[str, list[int | None]], name: str | None, occurrence: int) -> int | None:
    """The relation whose values a tail_entity/value literal is looked up in."""
    first, second = ("relation", "key") if name == "tail_entity" else ("key", "relation")
    for ids in (scopes[first], scopes[second]):
        if ids:
            return ids[occurrence - 1] if occurrence <= len(ids) else ids[0]
    return None


def _arg_pos(call: Call, m: Mapping) -> int:
    names = [a.name for a in call.args]
    return names.index(m.arg) if m.arg in names else len(names)
