"""Graphs (and their Mappers) for benchmark runs, built once per source file and reused.

WTQ and WikiSQL ask many questions per table, so table graphs are cached per path (LRU);
MetaQA's ``kb_partial`` is built once per process. A graph and its Mapper are safe to share
between threads (both are read-only after construction, the Mapper's lazy pools are locked).

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

from ..graph import build_graph
from ..mapping import Mapper
from ..store import GraphStore
from ..translate import load_source
from .datasets import Source

__all__ = ["source_graph", "sources_graph", "clear_graph_cache", "GRAPH_CACHE_SIZE"]

GRAPH_CACHE_SIZE = 256
_lock = threading.Lock()
_building: dict[tuple, threading.Lock] = {}
_cache: OrderedDict[tuple, tuple[GraphStore, Mapper]] = OrderedDict()


def _key(sources: Sequence[Source]) -> tuple:
    return tuple((str(s.path), s.kind) for s in sources)


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
            contents = data or [None] * len(sources)
            facts = [load_source(blob if blob is not None else s.path, s.kind, name=s.path.name)
                     for s, blob in zip(sources, contents, strict=True)]
            graph = build_graph(facts)
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
