"""Graphs as Parquet for Spark, numbered with the shared id encoding.

Each graph is a group of sources coded by :func:`~trustuqa_core.graph.encode_sources`, the
coding every store uses, so a node, relation or fact id here is the same id the memory and
DuckDB stores give. Many graphs (WikiSQL's thousands of tables) share one dataset: every row
carries its graph number ``g``. Three datasets in a folder:

* ``facts``: ``g, f, h, r, t`` (fact id, head, relation, tail), sorted by ``(g, r, h)``;
* ``nodes``: ``g, id, label, num, row`` (display label, the number its text reads as
  (:func:`~trustuqa_core.numbers.parse_number`, null when none) and whether it is a table row);
* ``relations``: ``g, r, name, n_all, n_num`` (facts of the relation, and those whose tail
  reads as a number: the executor's strict-or-loose choice for comparisons reads them).

and ``graphs.json`` with each graph's source names and kinds.

>>> import tempfile
>>> from trustuqa_core.sources import SourceFacts
>>> folder = Path(tempfile.mkdtemp())
>>> meta = write_graphs([[SourceFacts("kg", "kg", ["Dune"], ["year"], ["1984"], [1])]], folder)
>>> meta.graphs[0].n_facts, read_graphs_meta(folder).graphs[0].kinds
(1, ('kg',))
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..graph import EncodedFacts, encode_sources
from ..numbers import parse_number
from ..sources import SourceFacts, parse_row_key

__all__ = ["GraphMeta", "GraphsMeta", "write_graphs", "read_graphs_meta", "encoded_tables",
           "FORMAT"]

FORMAT = 1


@dataclass(frozen=True)
class GraphMeta:
    """One graph of a Parquet folder."""

    g: int
    sources: tuple[str, ...]
    kinds: tuple[str, ...]
    n_facts: int
    n_nodes: int

    @property
    def has_tables(self) -> bool:
        return "table" in self.kinds


@dataclass(frozen=True)
class GraphsMeta:
    """All graphs of a Parquet folder (``graphs[g]`` is graph ``g``)."""

    folder: Path
    graphs: tuple[GraphMeta, ...]

    @property
    def n_facts(self) -> int:
        return sum(m.n_facts for m in self.graphs)


def _node_columns(enc: EncodedFacts) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Display labels (row keys shown as ``<source> row <n>``), numbers and row flags."""
    labels, nums, rows = [], np.full(len(enc.node_text), np.nan), np.zeros(len(enc.node_text),
                                                                          dtype=bool)
    for i, text in enumerate(enc.node_text):
        pos = parse_row_key(text) if text[:1] == "\x00" else None
        if pos is not None:
            labels.append(f"{enc.infos[pos[0]].name} row {pos[1]}")
            rows[i] = True
            continue
        labels.append(text)
        x = parse_number(text)
        if x is not None:
            nums[i] = x
    return labels, nums, rows


def encoded_tables(g: int, enc: EncodedFacts) -> tuple[pa.Table, pa.Table, pa.Table]:
    """The ``facts``, ``nodes`` and ``relations`` rows of one coded graph."""
    labels, nums, rows = _node_columns(enc)
    n = len(enc.head)
    order = np.lexsort((enc.head, enc.rel))  # by relation, then head
    facts = pa.table({
        "g": pa.array(np.full(n, g, dtype=np.int32)),
        "f": pa.array(np.arange(n, dtype=np.int64)[order]),
        "h": pa.array(enc.head[order]), "r": pa.array(enc.rel[order].astype(np.int32)),
        "t": pa.array(enc.tail[order])})
    nodes = pa.table({
        "g": pa.array(np.full(len(labels), g, dtype=np.int32)),
        "id": pa.array(np.arange(len(labels), dtype=np.int64)),
        "label": pa.array(labels, type=pa.string()),
        "num": pa.array(nums, mask=np.isnan(nums)), "row": pa.array(rows)})
    n_rel = len(enc.relations)
    n_all = np.bincount(enc.rel, minlength=n_rel) if n else np.zeros(n_rel, dtype=np.int64)
    numeric = ~np.isnan(nums[enc.tail]) if n else np.zeros(0, dtype=bool)
    n_num = np.bincount(enc.rel[numeric], minlength=n_rel) if n else np.zeros(n_rel, np.int64)
    relations = pa.table({
        "g": pa.array(np.full(n_rel, g, dtype=np.int32)),
        "r": pa.array(np.arange(n_rel, dtype=np.int32)),
        "name": pa.array(enc.relations, type=pa.string()),
        "n_all": pa.array(n_all.astype(np.int64)), "n_num": pa.array(n_num.astype(np.int64))})
    return facts, nodes, relations


def write_graphs(groups: Sequence[Sequence[SourceFacts]], folder: str | Path) -> GraphsMeta:
    """Write each group of sources as graph ``g`` (its position) into ``folder``; graphs
    are coded one at a time, so the memory held is about one graph's."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    writers: dict[str, pq.ParquetWriter] = {}
    metas = []
    try:
        for g, sources in enumerate(groups):
            enc = encode_sources(sources)
            for name, table in zip(("facts", "nodes", "relations"), encoded_tables(g, enc),
                                   strict=True):
                if name not in writers:
                    (folder / name).mkdir(exist_ok=True)
                    writers[name] = pq.ParquetWriter(folder / name / "part-0.parquet",
                                                     table.schema)
                writers[name].write_table(table)
            metas.append(GraphMeta(g, tuple(i.name for i in enc.infos),
                                   tuple(i.kind for i in enc.infos), len(enc.head),
                                   len(enc.node_text)))
    finally:
        for w in writers.values():
            w.close()
    meta = GraphsMeta(folder, tuple(metas))
    (folder / "graphs.json").write_text(json.dumps({
        "format": FORMAT,
        "graphs": [{"g": m.g, "sources": m.sources, "kinds": m.kinds, "n_facts": m.n_facts,
                    "n_nodes": m.n_nodes} for m in metas]}), encoding="utf-8")
    return meta


def read_graphs_meta(folder: str | Path) -> GraphsMeta:
    """The ``graphs.json`` of a folder written by :func:`write_graphs`."""
    folder = Path(folder)
    path = folder / "graphs.json"
    if not path.exists():
        raise FileNotFoundError(f"{folder}: not a Spark graph folder (no graphs.json)")
    raw = json.loads(path.read_text(encoding="utf-8"))
    if raw.get("format") != FORMAT:
        raise ValueError(f"{folder}: Parquet format {raw.get('format')}, expected {FORMAT}")
    return GraphsMeta(folder, tuple(
        GraphMeta(d["g"], tuple(d["sources"]), tuple(d["kinds"]), d["n_facts"], d["n_nodes"])
        for d in raw["graphs"]))
