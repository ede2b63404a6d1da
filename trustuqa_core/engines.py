"""Which store holds a graph: the one place that turns loaded sources into a
:class:`~trustuqa_core.store.GraphStore` for a chosen engine.

``memory`` is the numpy :class:`~trustuqa_core.graph.ConditionGraph`; ``duckdb`` the
:class:`~trustuqa_core.duckstore.DuckStore` (a persistent file per dataset in the cache);
``auto`` picks memory up to :data:`AUTO_THRESHOLD` facts. :func:`open_store_file` reopens a
prebuilt store (``python -m trustuqa_core import``).

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

from .duckstore import DuckStore, Progress
from .duckstore import open_files as duck_files
from .duckstore import open_sources as duck_sources
from .errors import TrustUQAError
from .graph import build_graph
from .sources import SourceFacts
from .store import GraphStore
from .translate import load_sources

__all__ = ["ENGINES", "Engine", "AUTO_THRESHOLD", "choose_engine", "check_engine", "open_store",
           "open_files", "open_store_file"]

Engine = Literal["memory", "duckdb", "auto"]
ENGINES: tuple[str, ...] = ("memory", "duckdb", "auto")

AUTO_THRESHOLD = 5_000_000
"""Above this many facts ``auto`` chooses DuckDB."""


def choose_engine(n_facts: int) -> Literal["memory", "duckdb"]:
    """The engine ``auto`` uses for a graph of ``n_facts`` facts."""
    return "duckdb" if n_facts > AUTO_THRESHOLD else "memory"


def check_engine(engine: str) -> None:
    """Raise :class:`~trustuqa_core.errors.TrustUQAError` for an unknown engine name.

    >>> check_engine("spark")
    Traceback (most recent call last):
    trustuqa_core.errors.TrustUQAError: unknown engine 'spark'; choose one of memory, duckdb, auto
    """
    if engine not in ENGINES:
        raise TrustUQAError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")


def open_store(sources: Sequence[SourceFacts], engine: str = "memory",
               progress: Progress | None = None) -> GraphStore:
    """A store of ``sources`` on ``engine`` (``memory``, ``duckdb`` or ``auto``); ``progress``
    hears the DuckDB build's steps."""
    check_engine(engine)
    if engine == "auto":
        engine = choose_engine(sum(len(s) for s in sources))
    if engine == "memory":
        return build_graph(sources)
    return duck_sources(sources, progress=progress) if progress else duck_sources(sources)


def open_store_file(path: str | Path) -> GraphStore:
    """Reopen a prebuilt DuckDB store file (read-only); a clear error when it is missing or
    not a store."""
    return DuckStore.open(path)


def open_files(paths: Sequence[str | Path], kind: str | None = None,
               engine: str = "memory", progress: Progress | None = None) -> GraphStore:
    """A store of the files at ``paths`` (``kind`` as for
    :func:`~trustuqa_core.translate.load_sources`; the suffix decides when left out).

    The memory engine reads them into facts first; the DuckDB engine reads triple files with
    its own reader (other files through the loaders) into a cached store file. ``auto`` picks
    DuckDB when the files hold more than :data:`AUTO_THRESHOLD` lines.
    """
    check_engine(engine)
    if engine == "auto":
        engine = choose_engine(_count_lines(paths))
    if engine == "duckdb":
        return duck_files(paths, kind, progress=progress) if progress else duck_files(paths, kind)
    sources = [s for p in paths for s in load_sources(str(p), kind)]
    return open_store(sources, engine)


def _count_lines(paths: Sequence[str | Path], stop: int = AUTO_THRESHOLD + 1) -> int:
    """Lines in the files (a cheap upper bound of their facts), counting up to ``stop``."""
    total = 0
    for p in paths:
        path = Path(p)
        if not path.is_file():
            continue
        with path.open("rb") as f:
            while total < stop and (chunk := f.read(1 << 24)):
                total += chunk.count(b"\n")
    return total
