"""Graphs (and their Mappers) for benchmark runs, built once per source file and reused.

WTQ and WikiSQL ask many questions per table, so table graphs are cached per path (LRU);
MetaQA's ``kb_partial`` is built once per process. A graph and its Mapper are safe to share
between threads (both are read-only after construction, the Mapper's lazy pools are locked).

``bench run --engine duckdb`` (:func:`use_engine`, :class:`StoreEngine`) puts every graph on a
DuckDB store instead: a triple file is read by DuckDB's own reader, anything else through the
loaders; each store is built once per content (hash-keyed in ``$TRUSTUQA_CACHE/duckdb``) and
reopened after that.

>>> from pathlib import Path
>>> g1, _ = source_graph(Source(Path("x.csv"), "table"), b"A,B\\n1,2\\n")
>>> g2, _ = source_graph(Source(Path("x.csv"), "table"), b"A,B\\n1,2\\n")
>>> g1 is g2, g1.relation_names
(True, ('A', 'B', 'row_number'))
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from ..engines import open_files, open_store
from ..mapping import Mapper
from ..store import GraphStore
from ..translate import load_source
from .datasets import Source

__all__ = ["source_graph", "sources_graph", "clear_graph_cache", "GRAPH_CACHE_SIZE",
           "use_engine", "current_engine", "StoreEngine", "STORE_ENGINES", "compare_runs"]

STORE_ENGINES = ("memory", "duckdb")
_engine = ["memory"]

GRAPH_CACHE_SIZE = 256
_lock = threading.Lock()
_building: dict[tuple, threading.Lock] = {}
_cache: OrderedDict[tuple, tuple[GraphStore, Mapper]] = OrderedDict()


def use_engine(engine: str) -> str:
    """Build the graphs of this process on ``engine`` (``memory`` or ``duckdb``) from now on;
    returns the engine used before.

    >>> before = use_engine("duckdb"); current_engine(), use_engine(before)
    ('duckdb', 'duckdb')
    """
    if engine not in STORE_ENGINES:
        raise ValueError(f"unknown store engine {engine!r}; valid: {', '.join(STORE_ENGINES)}")
    with _lock:
        before, _engine[0] = _engine[0], engine
    return before


def current_engine() -> str:
    """The engine graphs are built on (``memory`` unless :func:`use_engine` said otherwise)."""
    return _engine[0]


def _key(sources: Sequence[Source]) -> tuple:
    return (current_engine(), *((str(s.path), s.kind) for s in sources))


def _build(sources: Sequence[Source], contents: Sequence[bytes | None]) -> GraphStore:
    engine = current_engine()
    if engine == "duckdb" and len(sources) == 1 and contents[0] is None:
        return open_files([sources[0].path], sources[0].kind, "duckdb")
    facts = [load_source(blob if blob is not None else s.path, s.kind, name=s.path.name)
             for s, blob in zip(sources, contents, strict=True)]
    return open_store(facts, engine)


def sources_graph(
    sources: Sequence[Source], data: Sequence[bytes | None] | None = None
) -> tuple[GraphStore, Mapper]:
    """The graph over ``sources`` (and a lexical Mapper, no encoder), built at most once.

    ``data`` optionally gives the file contents (tests); otherwise the paths are read. Two
    threads asking for the same sources wait for one build instead of building twice.
    """
    key = _key(sources)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
        build_lock = _building.setdefault(key, threading.Lock())
    with build_lock:
        with _lock:
            hit = _cache.get(key)
        if hit is None:
            graph = _build(sources, data or [None] * len(sources))
            hit = (graph, Mapper(graph, None))
            with _lock:
                _cache[key] = hit
                while len(_cache) > GRAPH_CACHE_SIZE:
                    _cache.popitem(last=False)
    with _lock:
        _building.pop(key, None)
    return hit


def source_graph(source: Source, data: bytes | None = None) -> tuple[GraphStore, Mapper]:
    """:func:`sources_graph` for a single source."""
    return sources_graph([source], None if data is None else [data])


def clear_graph_cache() -> None:
    """Forget every cached graph (tests; long-running processes that change data files)."""
    with _lock:
        _cache.clear()


class StoreEngine:
    """An evaluation run with its graphs on another store (``bench run --engine duckdb``):
    everything is the wrapped evaluation's, except ``mode`` (``<mode>-duckdb``), so reports
    and the resumable cache keep the engines apart and two runs compare question by question.
    """

    def __init__(self, inner: Any, engine: str = "duckdb") -> None:
        use_engine(engine)
        self._inner = inner
        self.engine = engine
        self.mode = f"{inner.mode}-{engine}"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def compare_runs(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Question-by-question comparison of two runs' cached outcomes (``RunCache.load()`` of a
    memory run and of a ``--engine duckdb`` run): how many questions both answered, how many
    with the same answer list, and every disagreement.

    >>> from types import SimpleNamespace as O
    >>> compare_runs({"q1": O(answer=["a"]), "q2": O(answer=["b"])},
    ...              {"q1": O(answer=["a"]), "q2": O(answer=["c"]), "q3": O(answer=[])})
    {'compared': 2, 'agree': 1, 'disagree': [{'id': 'q2', 'first': ['b'], 'second': ['c']}]}
    """
    ids = [k for k in first if k in second]
    wrong = [{"id": k, "first": list(first[k].answer), "second": list(second[k].answer)}
             for k in ids if list(first[k].answer) != list(second[k].answer)]
    return {"compared": len(ids), "agree": len(ids) - len(wrong), "disagree": wrong}
