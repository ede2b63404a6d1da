"""The DuckDB graph store: the whole :class:`~trustuqa_core.store.GraphStore` API as SQL over
a read-only ``.duckdb`` file (one statement per call).

Tables (written by :mod:`trustuqa_core.duckstore.build`): ``facts`` by fact id, ``hr`` sorted
by (head, rel, fact), ``rt`` by (rel, tail, fact) with the tail's number, ``tl`` by (tail,
fact), ``nodes`` by id with their normalised text and number, the sorted lookup tables
``by_text``/``by_norm``/``by_num``/``by_row``, the ``tokens`` index and ``meta``. Sorted tables
let DuckDB's zone maps skip everything but the rows a lookup needs; a hop over many heads is a
semi-join against an ``unnest`` of the ids. Answers, ids and their order are the memory
store's.

>>> from trustuqa_core.sources import SourceFacts
>>> import tempfile
>>> g = DuckStore.build([SourceFacts("kg", "kg", ["Kismet", "Kismet"], ["by", "year"],
...                                  ["William Dieterle", "1944"], [1, 2])],
...                     cache_dir=tempfile.mkdtemp())
>>> g.engine, g.n_facts, g.labels(g.tails_of(g.facts_head(g.entity("Kismet"))))
('duckdb', 2, ['William Dieterle', '1944'])
>>> [g.label(h) for h in g.heads_of(g.facts_rel_cmp(g.relation("year"), ">", 1940))]
['Kismet']
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from ..errors import TrustUQAError
from ..numbers import parse_quantity
from ..sources import SourceFacts, row_key
from ..store import EMPTY, FactRow, GraphStore, Provenance, SourceInfo
from .build import FORMAT_VERSION, Progress, info_dict, quiet, write_arrays, write_sources
from .paths import sources_key, store_dir
from .pool import SqlLabelPool

__all__ = ["DuckStore", "StoreFileError"]

_CMP = {">", "<", ">=", "<=", "="}
_LABEL_CACHE = 100_000  # entries of each LRU: labels, row positions, single facts


class StoreFileError(TrustUQAError):
    """A store file that is missing, unreadable or not a TrustUQA DuckDB store."""


class DuckStore:
    """A read-only graph store in a DuckDB file. Open one with :meth:`open` or build one with
    :meth:`build` (or :func:`~trustuqa_core.engines.open_store` / ``open_files``)."""

    engine = "duckdb"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise StoreFileError(f"no DuckDB store at {self.path}")
        try:
            self._con = duckdb.connect(str(self.path), read_only=True)
            row = self._con.execute("SELECT value FROM meta").fetchone()
            meta = json.loads(row[0]) if row else {}
            rels = self._con.execute("SELECT name FROM relations ORDER BY id").fetchall()
        except (duckdb.Error, json.JSONDecodeError) as exc:
            raise StoreFileError(f"{self.path} is not a readable TrustUQA DuckDB store: "
                                 f"{str(exc).splitlines()[0]}") from None
        if meta.get("version") != FORMAT_VERSION:
            self._con.close()
            raise StoreFileError(f"{self.path} was written by another store format version "
                                 f"({meta.get('version')!r}, expected {FORMAT_VERSION!r}); "
                                 "build it again")
        self.sources = tuple(
            SourceInfo(s["name"], s["kind"], s["n_facts"], s["n_rows"], tuple(s["columns"]),
                       s["path"], tuple(s["warnings"])) for s in meta["sources"])
        self.relation_names: tuple[str, ...] = tuple(r[0] for r in rels)
        self._rel_id = {name: i for i, name in enumerate(self.relation_names)}
        self.n_nodes, self.n_facts = int(meta["n_nodes"]), int(meta["n_facts"])
        self.is_temporal = bool(meta["is_temporal"])
        self._hash = str(meta["content_hash"])
        self._lock = threading.Lock()
        self._labels: OrderedDict[int, str] = OrderedDict()
        self._rows: OrderedDict[int, tuple[int, int] | None] = OrderedDict()
        self._facts: OrderedDict[int, FactRow] = OrderedDict()
        self._has_rows = any(s.kind == "table" for s in self.sources)
        self._entity_pool: SqlLabelPool | None = None
        self._value_pools: dict[int, SqlLabelPool] = {}
        self._quantity: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._rel_tails: dict[int, np.ndarray] = {}

    # -------------------------------------------------------------- building
    @classmethod
    def open(cls, path: str | Path) -> DuckStore:
        """Reopen a store file (read-only)."""
        return cls(path)

    @classmethod
    def build(cls, sources: Sequence[SourceFacts], cache_dir: str | Path | None = None,
              progress: Progress = quiet) -> DuckStore:
        """The store of ``sources``, built into the cache (content-hash keyed) unless there."""
        path = store_dir(cache_dir) / f"{sources_key(sources)}.duckdb"
        if not path.is_file():
            write_sources(path, sources, progress)
        return cls(path)

    def close(self) -> None:
        """Close the connection."""
        self._con.close()

    # ------------------------------------------------------------------ SQL
    def _q(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._con.execute(sql, list(params)).fetchall()

    def _ids(self, sql: str, params: Sequence[Any] = ()) -> np.ndarray:
        with self._lock:
            arr = self._con.execute(sql, list(params)).fetchnumpy()
        if not arr:
            return EMPTY
        col = next(iter(arr.values()))
        return np.asarray(col, dtype=np.int64)

    def _cols(self, sql: str, params: Sequence[Any] = ()) -> dict[str, np.ndarray]:
        with self._lock:
            return self._con.execute(sql, list(params)).fetchnumpy()

    # ---------------------------------------------------------------- nodes
    def entity(self, text: str) -> int | None:
        """Node id of an entity / cell value with exactly this text, or ``None``."""
        rows = self._q("SELECT id FROM by_text WHERE text = ?", [text])
        return int(rows[0][0]) if rows else None

    def relation(self, name: str) -> int | None:
        """Relation id with exactly this name, or ``None``."""
        return self._rel_id.get(name)

    def label(self, node: int) -> str:
        """Display text: the value itself, or ``"<source> row <n>"`` for a table row."""
        return self.labels([node])[0]

    def labels(self, nodes: Sequence[int] | np.ndarray) -> list[str]:
        """Display texts of several nodes (one statement for those not cached)."""
        wanted = [int(n) for n in np.asarray(nodes, dtype=np.int64).tolist()]
        found = {n: self._labels[n] for n in wanted if n in self._labels}
        missing = sorted({n for n in wanted if n not in found})
        if missing:
            rows = self._q("SELECT id, text, row_src, row_no FROM nodes WHERE id IN"
                           " (SELECT unnest(?))", [missing])
            for node, text, src, row in rows:
                found[int(node)] = text if src is None else f"{self.sources[src].name} row {row}"
            with self._lock:  # the cache keeps the newest; the answer never depends on it
                for node in missing[-_LABEL_CACHE:]:
                    if node in found:
                        self._labels[node] = found[node]
                while len(self._labels) > _LABEL_CACHE:
                    self._labels.popitem(last=False)
        try:
            return [found[n] for n in wanted]
        except KeyError as exc:
            raise IndexError(f"no node {exc.args[0]} in this store") from None

    def is_row(self, node: int) -> bool:
        """True for table-row nodes."""
        return self.row_position(node) is not None

    def row_position(self, node: int) -> tuple[int, int] | None:
        """``(source index, 1-based row)`` of a row node, else ``None`` (no query at all when
        the store has no table; looked-up positions are cached)."""
        if not self._has_rows:
            return None
        key = int(node)
        if key in self._rows:
            return self._rows[key]
        rows = self._q("SELECT row_src, row_no FROM nodes WHERE id = ?", [key])
        pos = None if not rows or rows[0][0] is None else (int(rows[0][0]), int(rows[0][1]))
        with self._lock:
            self._rows[key] = pos
            if len(self._rows) > _LABEL_CACHE:
                self._rows.popitem(last=False)
        return pos

    def row_node(self, source_index: int, row: int) -> int | None:
        """Node id of row ``row`` (1-based) of a source, or None beyond the table."""
        rows = self._q("SELECT id FROM by_row WHERE row_src = ? AND row_no = ?",
                       [int(source_index), int(row)])
        return int(rows[0][0]) if rows else None

    def numeric(self, node: int) -> float | None:
        """Numeric value of a node's text."""
        rows = self._q("SELECT num FROM nodes WHERE id = ?", [int(node)])
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    # ---------------------------------------------------------------- facts
    def facts_head_rel(self, head: int, rel: int) -> np.ndarray:
        """Facts ``(head, rel, *)``."""
        return self._ids("SELECT fact FROM hr WHERE head = ? AND rel = ? ORDER BY fact",
                         [int(head), int(rel)])

    def facts_heads_rel(self, heads: np.ndarray, rel: int) -> np.ndarray:
        """Facts ``(h, rel, *)`` for every ``h`` in ``heads`` (in the order of ``heads``)."""
        return self._per_key("hr", "head", heads, "AND x.rel = ?", [int(rel)], "x.fact")

    def facts_rel_tail(self, rel: int, tail: int) -> np.ndarray:
        """Facts ``(*, rel, tail)``."""
        return self._ids("SELECT fact FROM rt WHERE rel = ? AND tail = ? ORDER BY fact",
                         [int(rel), int(tail)])

    def facts_rel_tails(self, rel: int, tails: np.ndarray) -> np.ndarray:
        """Facts ``(*, rel, t)`` for every ``t`` in ``tails``."""
        return self._per_key("rt", "tail", tails, "AND x.rel = ?", [int(rel)], "x.fact")

    def _per_key(self, table: str, key: str, keys: np.ndarray, extra: str,
                 params: list[Any], order: str) -> np.ndarray:
        """Facts of ``table`` per key in the order of ``keys`` (repeats repeat them): a
        semi-join on the distinct keys, then the facts in key order."""
        values = np.asarray(keys, dtype=np.int64)
        if len(values) == 0:
            return EMPTY
        return self._ids(
            f"WITH k AS (SELECT unnest(?) AS key, unnest(range(?)) AS pos),"
            f" x AS (SELECT * FROM {table} WHERE {key} IN (SELECT key FROM k))"
            f" SELECT x.fact FROM k JOIN x ON x.{key} = k.key {extra} ORDER BY k.pos, {order}",
            [values.tolist(), len(values), *params])

    def facts_rel(self, rel: int) -> np.ndarray:
        """All facts of a relation."""
        return self._ids("SELECT fact FROM rt WHERE rel = ? ORDER BY tail, fact", [int(rel)])

    def facts_head(self, head: int) -> np.ndarray:
        """All facts whose head is ``head``."""
        return self._ids("SELECT fact FROM hr WHERE head = ? ORDER BY rel, fact", [int(head)])

    def facts_heads(self, heads: np.ndarray) -> np.ndarray:
        """All facts whose head is in ``heads``."""
        return self._per_key("hr", "head", heads, "", [], "x.rel, x.fact")

    def facts_tail(self, tail: int) -> np.ndarray:
        """All facts whose tail is ``tail`` (any relation)."""
        return self._ids("SELECT fact FROM tl WHERE tail = ? ORDER BY fact", [int(tail)])

    def facts_of_source(self, source_index: int) -> np.ndarray:
        """All facts of one source (sorted ids)."""
        return self._ids("SELECT fact FROM facts WHERE src = ? ORDER BY fact",
                         [int(source_index)])

    def facts_rel_cmp(self, rel: int, cmp: str, value: float) -> np.ndarray:
        """Facts of ``rel`` whose tail is a number with ``tail <cmp> value`` (by value, then
        as :meth:`facts_rel` orders them)."""
        if cmp not in _CMP:
            raise ValueError(f"unknown comparison {cmp!r}")
        return self._ids(f"SELECT fact FROM rt WHERE rel = ? AND tnum {cmp} ?"
                         " ORDER BY tnum, tail, fact", [int(rel), float(value)])

    def numeric_fact_count(self, rel: int) -> int:
        """How many facts of ``rel`` have a numeric tail."""
        return int(self._q("SELECT count(*) FROM rt WHERE rel = ? AND tnum IS NOT NULL",
                           [int(rel)])[0][0])

    def quantity_index(self, rel: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Facts of ``rel`` (sorted), their tails read loosely as numbers (NaN if unreadable)
        and how each was read (``""`` if unreadable); cached per relation."""
        index = self._quantity.get(int(rel))
        if index is None:
            cols = self._cols("SELECT r.fact, r.tail, n.text FROM rt r JOIN nodes n"
                              " ON n.id = r.tail WHERE r.rel = ? ORDER BY r.fact", [int(rel)])
            facts = np.asarray(cols["fact"], dtype=np.int64)
            texts = dict(zip(np.asarray(cols["tail"]).tolist(), list(cols["text"]), strict=True))
            read = {t: parse_quantity(str(x)) or (np.nan, "") for t, x in texts.items()}
            tails = np.asarray(cols["tail"]).tolist()
            vals = np.array([read[t][0] for t in tails], dtype=np.float64)
            kinds = np.array([read[t][1] for t in tails], dtype=object)
            index = (facts, vals, kinds)
            with self._lock:
                self._quantity[int(rel)] = index
        return index

    def relation_tails(self, rel: int) -> np.ndarray:
        """Distinct tail nodes of a relation (sorted ids), cached."""
        tails = self._rel_tails.get(int(rel))
        if tails is None:
            tails = self._ids("SELECT DISTINCT tail FROM rt WHERE rel = ? ORDER BY tail",
                              [int(rel)])
            with self._lock:
                self._rel_tails[int(rel)] = tails
        return tails

    def tail_counts(self, rel: int) -> tuple[np.ndarray, np.ndarray]:
        """Distinct tails of a relation (sorted ids) and how many facts have each."""
        cols = self._cols("SELECT tail, count(*) AS n FROM rt WHERE rel = ? GROUP BY tail"
                          " ORDER BY tail", [int(rel)])
        return (np.asarray(cols.get("tail", EMPTY), dtype=np.int64),
                np.asarray(cols.get("n", EMPTY), dtype=np.int64))

    def relations_of_heads(self, heads: np.ndarray) -> np.ndarray:
        """Distinct relation ids used by facts whose head is in ``heads``."""
        values = np.asarray(heads, dtype=np.int64)
        if len(values) == 0:
            return EMPTY
        return self._ids("SELECT DISTINCT rel FROM hr WHERE head IN (SELECT unnest(?))"
                         " ORDER BY rel", [values.tolist()])

    def heads_of_source(self, source_index: int) -> np.ndarray:
        """Distinct heads (rows / subjects) of one source."""
        return self._ids("SELECT DISTINCT head FROM facts WHERE src = ? ORDER BY head",
                         [int(source_index)])

    def relations_of_source(self, source_index: int) -> np.ndarray:
        """Relation ids used by one source, in the order of their first fact."""
        return self._ids("SELECT rel FROM facts WHERE src = ? GROUP BY rel ORDER BY min(fact)",
                         [int(source_index)])

    def relation_nodes(self, rel: int, side: str, source_index: int | None = None
                       ) -> np.ndarray:
        """Distinct heads (``side="head"``) or tails (``"tail"``) of ``rel``'s facts, within
        one source when ``source_index`` is given (sorted ids; one SQL scan)."""
        column = "head" if side == "head" else "tail"
        if source_index is None and column == "tail":
            return self.relation_tails(rel)
        where, params = _rel_filter(rel, source_index)
        return self._ids(f"SELECT DISTINCT {column} FROM facts WHERE {where} ORDER BY 1", params)

    def first_facts_of_rel(self, rel: int, n: int, source_index: int | None = None
                           ) -> np.ndarray:
        """The ``n`` smallest fact ids of ``rel`` (within one source when given), sorted."""
        where, params = _rel_filter(rel, source_index)
        return self._ids(f"SELECT fact FROM facts WHERE {where} ORDER BY fact LIMIT ?",
                         [*params, max(int(n), 0)])

    def node_relations(self, nodes: np.ndarray, side: str) -> tuple[np.ndarray, np.ndarray]:
        """Distinct (node, relation) pairs: the relations each of ``nodes`` is the head of
        (``side="head"``) or the tail of (``"tail"``), sorted by node then relation."""
        keys = np.unique(np.asarray(nodes, dtype=np.int64))
        if not len(keys):
            return EMPTY, EMPTY
        table, column = ("hr", "head") if side == "head" else ("rt", "tail")
        cols = self._cols(f"SELECT DISTINCT {column} AS n, rel AS r FROM {table}"
                          f" WHERE {column} IN (SELECT unnest(?)) ORDER BY 1, 2",
                          [keys.tolist()])
        if not cols or not len(cols["n"]):
            return EMPTY, EMPTY
        return (np.asarray(cols["n"], dtype=np.int64), np.asarray(cols["r"], dtype=np.int64))

    # ------------------------------------------------------------ fact fields
    def _field(self, facts: np.ndarray, expr: str) -> dict[str, np.ndarray]:
        values = np.asarray(facts, dtype=np.int64)
        if len(values) == 0:
            return {}
        # the range lets the zone maps of ``facts`` (sorted by fact) skip the other row
        # groups: a few facts no longer cost a scan of the whole table (10 ms at 10M facts)
        return self._cols(
            f"WITH k AS (SELECT unnest(?) AS key, unnest(range(?)) AS pos)"
            f" SELECT {expr} FROM k JOIN facts f ON f.fact = k.key"
            f" WHERE f.fact BETWEEN ? AND ? ORDER BY k.pos",
            [values.tolist(), len(values), int(values.min()), int(values.max())])

    def _int_field(self, facts: np.ndarray, column: str) -> np.ndarray:
        cols = self._field(facts, f"f.{column} AS v")
        if not cols:
            return EMPTY
        if len(cols["v"]) != len(facts):
            raise IndexError("fact id out of range")
        return np.asarray(cols["v"], dtype=np.int64)

    def heads_of(self, facts: np.ndarray) -> np.ndarray:
        """Head node of each fact."""
        return self._int_field(facts, "head")

    def tails_of(self, facts: np.ndarray) -> np.ndarray:
        """Tail node of each fact."""
        return self._int_field(facts, "tail")

    def rels_of(self, facts: np.ndarray) -> np.ndarray:
        """Relation id of each fact."""
        return self._int_field(facts, "rel")

    def sources_of(self, facts: np.ndarray) -> np.ndarray:
        """Source index of each fact."""
        return self._int_field(facts, "src").astype(np.int32)

    def intervals_of(self, facts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Start and end years of each fact (NaN where unknown)."""
        cols = self._field(facts, 'coalesce(f.start, \'nan\'::DOUBLE) AS s,'
                                  ' coalesce(f."end", \'nan\'::DOUBLE) AS e')
        if not cols:
            return np.zeros(0), np.zeros(0)
        return np.asarray(cols["s"], dtype=np.float64), np.asarray(cols["e"], dtype=np.float64)

    def head_of(self, fact: int) -> int:
        """Head node of one fact."""
        return self.fact_rows([fact])[0].head

    def tail_of(self, fact: int) -> int:
        """Tail node of one fact."""
        return self.fact_rows([fact])[0].tail

    def interval(self, fact: int) -> tuple[float, float] | None:
        """``(start, end)`` years of a temporal fact (an open end is ``inf``), else ``None``."""
        return self.fact_rows([fact])[0].interval

    def provenance(self, fact: int) -> Provenance:
        """Source name and row/line number of a fact."""
        row = self.fact_rows([fact])[0]
        src = self.sources[row.source]
        return Provenance(src.name, "row" if src.kind == "table" else "line", row.line)

    def fact_text(self, fact: int) -> tuple[str, str, str]:
        """``(head label, relation, tail label)`` of a fact."""
        row = self.fact_rows([fact])[0]
        head, tail = self.labels([row.head, row.tail])
        return head, row.relation, tail

    def fact_rows(self, facts: Sequence[int] | np.ndarray) -> list[FactRow]:
        """Each fact read whole (ids, relation name, source, line, interval)."""
        values = np.asarray(facts, dtype=np.int64)
        if len(values) == 1 and int(values[0]) in self._facts:
            return [self._facts[int(values[0])]]
        if len(values) == 0:
            return []
        rows = self._q(
            "WITH k AS (SELECT unnest(?) AS key, unnest(range(?)) AS pos)"
            " SELECT f.fact, f.head, f.rel, f.tail, f.src, f.line, f.start, f.\"end\""
            " FROM k JOIN facts f ON f.fact = k.key ORDER BY k.pos",
            [values.tolist(), len(values)])
        if len(rows) != len(values):
            raise IndexError("fact id out of range")
        out = []
        for fact, head, rel, tail, src, line, start, end in rows:
            interval = None
            if start is not None or end is not None:
                interval = (-np.inf if start is None else float(start),
                            np.inf if end is None else float(end))
            out.append(FactRow(int(fact), int(head), int(rel), int(tail),
                               self.relation_names[int(rel)], int(src), int(line), interval))
        if len(out) == 1:
            with self._lock:
                self._facts[out[0].fact] = out[0]
                if len(self._facts) > _LABEL_CACHE:
                    self._facts.popitem(last=False)
        return out

    # ------------------------------------------------------------ candidates
    def entity_pool(self) -> SqlLabelPool:
        """All entities (non-row nodes) as a label pool."""
        if self._entity_pool is None:
            self._entity_pool = SqlLabelPool(self._q)
        return self._entity_pool

    def value_pool(self, rel: int) -> SqlLabelPool:
        """The distinct values of one relation as a label pool, cached."""
        pool = self._value_pools.get(int(rel))
        if pool is None:
            pool = SqlLabelPool(self._q, "SELECT tail FROM rt WHERE rel = ?", int(rel))
            with self._lock:
                self._value_pools[int(rel)] = pool
        return pool

    def restrict(self, indices: Sequence[int]) -> GraphStore:
        """A store of the sources at ``indices`` only, ids numbered as the memory store's
        ``restrict`` numbers them (built once into the cache's store folder: this store may
        sit in a read-only folder the operator allows)."""
        keep = tuple(sorted({int(i) for i in indices}))
        folder = store_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{self._hash[:24]}-{'-'.join(map(str, keep))}.duckdb"
        if not path.is_file():
            write_restricted(self, keep, path)
        return DuckStore(path)

    def content_hash(self) -> str:
        """A stable hash of all node and relation texts (the memory store's for the same graph)."""
        return self._hash

    # ------------------------------------------- summaries (bounded, for the app)
    def first_facts(self, source_index: int, limit: int = 50) -> np.ndarray:
        """The first ``limit`` facts of a source, in file order (a preview, never the whole
        source)."""
        return self._ids("SELECT fact FROM facts WHERE src = ? ORDER BY fact LIMIT ?",
                         [source_index, limit])

    def relation_summary(self) -> list[dict[str, Any]]:
        """Per relation: facts, distinct tails, facts with a numeric tail and the first fact's
        tail label, in relation order; one scan of ``rt`` (seconds at 10M facts)."""
        rows = self._q("""SELECT rel, count(*), count(DISTINCT tail), count(tnum),
            arg_min(tail, fact) FROM rt GROUP BY rel ORDER BY rel""")
        labels = self.labels([int(r[4]) for r in rows])
        return [{"relation": self.relation_names[int(rel)], "facts": int(n),
                 "distinct": int(d), "numeric": int(num), "example": label}
                for (rel, n, d, num, _), label in zip(rows, labels, strict=True)]

    def __repr__(self) -> str:
        names = ", ".join(s.name for s in self.sources)
        return f"<DuckStore {self.n_facts} facts, {self.n_nodes} nodes, sources: {names}>"


def write_restricted(store: DuckStore, keep: tuple[int, ...], path: Path) -> None:
    """Write the store of the sources ``keep`` of ``store`` (ids as the memory store's
    ``restrict`` gives them) to ``path``."""
    cols = store._cols("SELECT fact, head, rel, tail, src, line,"
                       " coalesce(start, 'nan'::DOUBLE) AS start,"
                       " coalesce(\"end\", 'nan'::DOUBLE) AS stop FROM facts"
                       " WHERE src IN (SELECT unnest(?)) ORDER BY fact", [list(keep)])
    n = len(cols["fact"])
    new_index = {old: new for new, old in enumerate(keep)}
    heads = np.asarray(cols["head"], dtype=np.int64)
    tails = np.asarray(cols["tail"], dtype=np.int64)
    nodes, codes = np.unique(np.concatenate([heads, tails]), return_inverse=True)
    rows = store._q("SELECT id, text, row_src, row_no FROM nodes WHERE id IN (SELECT unnest(?))"
                    " ORDER BY id", [nodes.tolist()])
    texts = [text if src is None else row_key(new_index[int(src)], int(row))
             for _, text, src, row in rows]
    rel_ids, rel_codes = np.unique(np.asarray(cols["rel"], dtype=np.int64), return_inverse=True)
    remap = {old: new for old, new in new_index.items()}
    write_arrays(path, [info_dict(store.sources[i]) for i in keep], texts,
                 [store.relation_names[int(r)] for r in rel_ids],
                 np.asarray(codes[:n], dtype=np.int64), np.asarray(rel_codes, dtype=np.int64),
                 np.asarray(codes[n:], dtype=np.int64),
                 np.array([remap[int(s)] for s in np.asarray(cols["src"]).tolist()],
                          dtype=np.int32),
                 np.asarray(cols["line"], dtype=np.int64),
                 np.asarray(cols["start"], dtype=np.float64),
                 np.asarray(cols["stop"], dtype=np.float64))


def _check_protocol(g: DuckStore) -> GraphStore:
    return g  # mypy checks here that DuckStore serves the whole GraphStore API


def _rel_filter(rel: int, source_index: int | None) -> tuple[str, list[int]]:
    """The ``facts`` filter (and its parameters) for one relation, within one source when
    ``source_index`` is given."""
    if source_index is None:
        return "rel = ?", [int(rel)]
    return "rel = ? AND src = ?", [int(rel), int(source_index)]
