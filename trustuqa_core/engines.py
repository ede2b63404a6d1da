"""Which store holds a graph: the one place that turns loaded sources into a
:class:`~trustuqa_core.store.GraphStore` for a chosen engine.

``memory`` is the numpy :class:`~trustuqa_core.graph.ConditionGraph`; ``auto`` picks it up to
:data:`AUTO_THRESHOLD` facts. The DuckDB engine plugs in here (issue #18).

>>> from trustuqa_core.sources import SourceFacts
>>> g = open_store([SourceFacts("kg", "kg", ["a"], ["r"], ["b"], [1])], "auto")
>>> g.engine, g.n_facts
('memory', 1)
>>> choose_engine(10_000), choose_engine(50_000_000)
('memory', 'duckdb')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from .errors import TrustUQAError
from .graph import build_graph
from .sources import SourceFacts
from .store import GraphStore
from .translate import load_sources

__all__ = ["ENGINES", "Engine", "AUTO_THRESHOLD", "choose_engine", "open_store", "open_files"]

Engine = Literal["memory", "duckdb", "auto"]
ENGINES: tuple[str, ...] = ("memory", "duckdb", "auto")

AUTO_THRESHOLD = 5_000_000
"""Above this many facts ``auto`` chooses DuckDB."""


def choose_engine(n_facts: int) -> Literal["memory", "duckdb"]:
    """The engine ``auto`` uses for a graph of ``n_facts`` facts."""
    return "duckdb" if n_facts > AUTO_THRESHOLD else "memory"


def open_store(sources: Sequence[SourceFacts], engine: str = "memory") -> GraphStore:
    """A store of ``sources`` on ``engine`` (``memory``, ``duckdb`` or ``auto``)."""
    if engine not in ENGINES:
        raise TrustUQAError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine == "auto":
        engine = choose_engine(sum(len(s) for s in sources))
    if engine == "memory":
        return build_graph(sources)
    raise TrustUQAError("the DuckDB engine is not built yet")


def open_files(paths: Sequence[str | Path], kind: str | None = None,
               engine: str = "memory") -> GraphStore:
    """A store of the files at ``paths`` (``kind`` as for
    :func:`~trustuqa_core.translate.load_sources`; the suffix decides when left out).

    The memory engine reads them into facts first; the DuckDB engine reads them with its own
    readers.
    """
    sources = [s for p in paths for s in load_sources(str(p), kind)]
    return open_store(sources, engine)
