"""Write a :class:`~trustuqa_core.graph.GraphStore` into an embedded Ladybug database.

Schema (one node table, one relationship table)::

    Node(id INT64 PRIMARY KEY, label STRING, num DOUBLE)      -- id = our node id
    Fact(FROM Node TO Node, fid INT64, rel STRING, start DOUBLE, stop DOUBLE)

``num`` is the node's numeric reading (NULL when it is not a number), ``fid`` our fact id,
``start``/``stop`` a temporal fact's interval (NULL when unknown; ``end`` is a Cypher keyword).
The facts are bulk-loaded once with ``COPY ... FROM`` CSV files written in the database's
folder, keyed by a hash of the graph's content, so the same graph is loaded once per cache.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> g = build_graph([load_source(b"Kismet|directed_by|William Dieterle\\n", "kg", "kg.txt")])
>>> store = CypherStore.open(g)
>>> store.execute("MATCH (n:Node) RETURN count(n)")
[[2]]
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import TrustUQAError
from ..store import GraphStore

__all__ = ["CypherStore", "CypherRunError", "graph_key", "SCHEMA"]

SCHEMA = (
    "CREATE NODE TABLE Node(id INT64, label STRING, num DOUBLE, PRIMARY KEY(id))",
    "CREATE REL TABLE Fact(FROM Node TO Node, fid INT64, rel STRING, start DOUBLE, stop DOUBLE)",
)
_READY = "ready"


class CypherRunError(TrustUQAError):
    """Ladybug refused or failed a statement (or could not open the store); carries its
    message."""
_lock = threading.Lock()


def graph_key(graph: GraphStore) -> str:
    """A hash of the graph's texts and facts (the name of its database folder)."""
    h = hashlib.sha256(graph.content_hash().encode())
    facts = all_facts(graph)
    for arr in (graph.heads_of(facts), graph.rels_of(facts), graph.tails_of(facts),
                *graph.intervals_of(facts)):
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()[:24]


def all_facts(graph: GraphStore) -> np.ndarray:
    """Every fact id of a store, source by source."""
    parts = [graph.facts_of_source(i) for i in range(len(graph.sources))]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _cache_root() -> Path:
    return Path(os.environ.get("TRUSTUQA_CACHE", Path.home() / ".cache" / "trustuqa")) / "ladybug"


def _num(x: float) -> str:
    return "" if x is None or not np.isfinite(x) else repr(float(x))


class CypherStore:
    """A graph's facts in a Ladybug database, opened read-only, with one connection.

    Build with :meth:`open`; ``load_seconds`` is the bulk-load time (0 when reused from disk).
    """

    def __init__(self, graph: GraphStore, path: Path, load_seconds: float) -> None:
        self.graph = graph
        self.path = path
        self.load_seconds = load_seconds
        # read-only: several processes may share the store, and a write that got past the
        # validator is refused by the database itself
        import ladybug  # imported on first use (it pulls in asyncio and ssl): not at CLI start

        try:
            self._db = ladybug.Database(str(path / "db"), read_only=True)
            self._conn = ladybug.Connection(self._db)
        except RuntimeError as exc:
            raise CypherRunError(f"cannot open the Ladybug store at {path}: {exc}") from None
        self._conn_lock = threading.Lock()

    @staticmethod
    def open(graph: GraphStore, cache_dir: Path | str | None = None) -> CypherStore:
        """The store of ``graph`` under ``cache_dir`` (default ``$TRUSTUQA_CACHE/ladybug``),
        bulk-loading it the first time."""
        root = Path(cache_dir) if cache_dir is not None else _cache_root()
        path = root / graph_key(graph)
        with _lock:
            if (path / _READY).exists():
                return CypherStore(graph, path, 0.0)
            seconds = _build(graph, path)
            return CypherStore(graph, path, seconds)

    def execute(self, cypher: str, parameters: dict[str, Any] | None = None) -> list[list[Any]]:
        """Run one Cypher statement and return its rows."""
        with self._conn_lock:
            try:
                result = self._conn.execute(cypher, parameters or {})
            except RuntimeError as exc:
                raise CypherRunError(f"Ladybug: {exc}") from None
            if isinstance(result, list):  # one QueryResult per statement of a multi-statement text
                raise CypherRunError(f"Ladybug: {len(result)} statements run, expected one")
            rows: list[list[Any]] = []
            for row in result.get_all():
                if not isinstance(row, list):  # a dict only when QueryResult.as_dict is set
                    raise CypherRunError(f"Ladybug: a row is {type(row).__name__}, not a list")
                rows.append(row)
            return rows

    def close(self) -> None:
        """Release the database (the files stay for the next :meth:`open`)."""
        self._conn.close()
        self._db.close()


def _build(graph: GraphStore, path: Path) -> float:
    """Write CSVs and bulk-load them into a fresh database at ``path``; returns seconds."""
    import ladybug  # imported on first use (outside the timed load), as in CypherStore

    if path.exists():  # a half-built folder from an interrupted load
        shutil.rmtree(path)
    path.mkdir(parents=True)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(dir=path) as tmp:
        nodes, facts = Path(tmp) / "nodes.csv", Path(tmp) / "facts.csv"
        _write_nodes(graph, nodes)
        _write_facts(graph, facts)
        db = ladybug.Database(str(path / "db"))
        conn = ladybug.Connection(db)
        for statement in SCHEMA:
            conn.execute(statement)
        # PARALLEL=false: labels may hold newlines inside quoted fields
        options = "(HEADER=false, ESCAPE='\"', PARALLEL=false)"
        conn.execute(f"COPY Node FROM '{nodes.as_posix()}' {options}")
        conn.execute(f"COPY Fact FROM '{facts.as_posix()}' {options}")
        conn.close()
        db.close()
    (path / _READY).write_text("ok", encoding="utf-8")
    return time.perf_counter() - t0


def _write_nodes(graph: GraphStore, path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        facts = all_facts(graph)
        nodes = np.unique(np.concatenate([graph.heads_of(facts), graph.tails_of(facts)]))
        for node in nodes.tolist():
            x = graph.numeric(node)
            out.writerow((node, graph.label(node), "" if x is None else repr(x)))


def _write_facts(graph: GraphStore, path: Path) -> None:
    names = graph.relation_names
    with path.open("w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        facts = all_facts(graph)
        starts, ends = graph.intervals_of(facts)
        rows = zip(
            facts.tolist(), graph.heads_of(facts).tolist(), graph.tails_of(facts).tolist(),
            graph.rels_of(facts).tolist(), starts.tolist(), ends.tolist(), strict=True,
        )
        for fid, h, t, r, s, e in rows:
            out.writerow((h, t, fid, names[r], _num(s), _num(e)))
