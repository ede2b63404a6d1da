"""Big graphs in the app: DuckDB stores opened from, or built into, folders the operator
allows, with the build running in a background thread whose progress the page polls.

A visitor never types a server path: the Data page lists the store files (``*.duckdb``) and
the data files found in the allowed folders and the visitor picks one. Every path is resolved
(symlinks followed) and checked to lie inside an allowed folder before it is opened or read
(:func:`inside`). The folders come from ``TRUSTUQA_STORE_DIRS`` (separated by ``os.pathsep``)
or ``store_dirs`` in ``.streamlit/secrets.toml``; by default the cache's store folder
(``$TRUSTUQA_CACHE/duckdb``, where ``python -m trustuqa_core import`` writes).

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "kb.txt").write_text("Dune|written_by|Frank Herbert\\n")
>>> dirs = allowed_dirs({STORE_DIRS_ENV: str(folder)})
>>> [p.name for p in data_files(dirs)]
['kb.txt']
>>> job = BuildJobs().start(folder / "kb.txt", "kg", dirs)
>>> job.wait(60).error, job.fraction, [p.name for p in store_files(dirs)]
(None, 1.0, ['kb.duckdb'])
>>> g = open_store_path(folder / "kb.duckdb", dirs)
>>> [(r.label, r.value) for r in size_rows(g)][:3]
[('engine', 'duckdb'), ('facts', '1'), ('nodes', '2')]
>>> inside(Path("/etc/passwd"), dirs)
Traceback (most recent call last):
trustuqa_core.app_services.stores.StorePathError: /etc/passwd is outside the allowed store folders
"""

from __future__ import annotations

import os
import threading
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ..duckstore import DuckStore, name_store, store_dir
from ..duckstore import open_files as duck_files
from ..engines import ENGINES, choose_engine, open_store_file
from ..errors import TrustUQAError
from ..llm.settings import DEFAULT_SECRETS_PATH
from ..sources import SourceFacts
from ..store import GraphStore

__all__ = ["STORE_DIRS_ENV", "DATA_SUFFIXES", "ENGINE_LABELS", "StorePathError",
           "allowed_dirs", "inside", "store_files", "data_files", "open_store_path",
           "BuildJob", "BuildJobs", "SizeRow", "size_rows", "engine_for", "store_preview",
           "store_relation_stats", "store_sample_facts", "SAMPLE_FACTS"]

STORE_DIRS_ENV = "TRUSTUQA_STORE_DIRS"
DATA_SUFFIXES = (".txt", ".tsv", ".csv", ".nt", ".ttl", ".parquet", ".json", ".xlsx")
ENGINE_LABELS = {"auto": "auto (DuckDB above 5M facts, else memory)",
                 "memory": "memory (fastest for small data)",
                 "duckdb": "DuckDB (a store file on disk, for big graphs)"}
SAMPLE_FACTS = 50
_LIST_LIMIT = 500


class StorePathError(TrustUQAError):
    """A path outside the folders the operator allows, or not a file there."""


def allowed_dirs(env: Mapping[str, str] | None = None,
                 secrets_path: Path | None = None) -> list[Path]:
    """The folders stores may be opened from and data files read from (resolved)."""
    env = os.environ if env is None else env
    raw: Any = env.get(STORE_DIRS_ENV) or None
    if raw is None:
        path = DEFAULT_SECRETS_PATH if secrets_path is None else secrets_path
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8")).get("store_dirs")
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            raw = None
    if isinstance(raw, str):
        items = [p for p in raw.split(os.pathsep) if p.strip()]
    elif isinstance(raw, list):
        items = [str(p) for p in raw if str(p).strip()]
    else:
        items = [str(store_dir())]
    return [Path(p).expanduser().resolve() for p in items]


def inside(path: str | Path, dirs: Sequence[Path]) -> Path:
    """``path`` resolved, when it is a file inside one of ``dirs``; else
    :class:`StorePathError`."""
    real = Path(path).expanduser().resolve()
    if not any(real.is_relative_to(d) for d in dirs):
        raise StorePathError(f"{path} is outside the allowed store folders")
    if not real.is_file():
        raise StorePathError(f"{path} is not a file")
    return real


def _listing(dirs: Sequence[Path], keep: Any) -> list[Path]:
    out: list[Path] = []
    for d in dirs:
        if not d.is_dir():
            continue
        for p in sorted(d.iterdir()):
            if keep(p) and p.is_file() and p.resolve().is_relative_to(d):
                out.append(p)
            if len(out) >= _LIST_LIMIT:
                return out
    return out


def store_files(dirs: Sequence[Path]) -> list[Path]:
    """The ``*.duckdb`` files in the allowed folders (named links first, then by name; a
    content-keyed file that a named link points to is listed by its name only)."""
    found = _listing(dirs, lambda p: p.suffix == ".duckdb")
    named = {p.resolve() for p in found if p.is_symlink()}
    found = [p for p in found if p.is_symlink() or p.resolve() not in named]
    return sorted(found, key=lambda p: (not p.is_symlink(), p.name))


def data_files(dirs: Sequence[Path]) -> list[Path]:
    """Files in the allowed folders that a store can be built from (by suffix)."""
    return _listing(dirs, lambda p: p.suffix.lower() in DATA_SUFFIXES)


def open_store_path(path: str | Path, dirs: Sequence[Path]) -> GraphStore:
    """Open a store file inside ``dirs`` (read-only)."""
    return open_store_file(inside(path, dirs))


@dataclass
class BuildJob:
    """One store build running in a background thread; the page reads its progress."""

    file: Path
    kind: str
    step: str = "queued"
    fraction: float = 0.0
    store: Path | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    @property
    def seconds(self) -> float:
        return (self.finished or time.monotonic()) - self.started

    def progress(self, step: str, fraction: float) -> None:
        self.step, self.fraction = step, max(self.fraction, min(1.0, fraction))

    def wait(self, timeout: float) -> BuildJob:
        self._done.wait(timeout)
        return self

    def run(self, folder: Path) -> None:
        try:
            store = duck_files([self.file], self.kind, progress=self.progress,
                               folder=folder)
            self.store = name_store(store.path, self.file.stem)
            store.close()
            self.progress("done", 1.0)
        except TrustUQAError as err:
            self.error = str(err)
        except Exception as exc:  # noqa: BLE001 - the page shows it instead of a dead thread
            self.error = f"{self.file.name}: the build failed ({type(exc).__name__}: " \
                         f"{str(exc).splitlines()[0][:200] if str(exc) else ''})"
        finally:
            self.finished = time.monotonic()
            self._done.set()


class BuildJobs:
    """The builds of one process: one at a time per (file, kind); a second request for a
    running build gets the same job."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[tuple[str, str], BuildJob] = {}

    def start(self, file: str | Path, kind: str, dirs: Sequence[Path]) -> BuildJob:
        """Start building the store of ``file`` (inside ``dirs``) into the first allowed
        folder; returns the job (an already running one for the same file and kind)."""
        real = inside(file, dirs)
        key = (str(real), kind)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and not job.done:
                return job
            job = BuildJob(real, kind)
            self._jobs[key] = job
        threading.Thread(target=job.run, args=(dirs[0],), daemon=True,
                         name=f"store-build-{real.name}").start()
        return job

    def get(self, file: str, kind: str) -> BuildJob | None:
        with self._lock:
            return self._jobs.get((file, kind))


@dataclass(frozen=True)
class SizeRow:
    label: str
    value: str


def size_rows(graph: GraphStore, opened_as: str | None = None) -> list[SizeRow]:
    """Engine and size of a loaded graph: engine, facts, nodes, relations, sources (and the
    store file for DuckDB, by the name it was opened as: a named link such as ``big.duckdb``
    rather than the content-keyed file it points to)."""
    rows = [SizeRow("engine", str(getattr(graph, "engine", "memory"))),
            SizeRow("facts", f"{graph.n_facts:,}"), SizeRow("nodes", f"{graph.n_nodes:,}"),
            SizeRow("relations", f"{len(graph.relation_names):,}"),
            SizeRow("sources", f"{len(graph.sources):,}")]
    if isinstance(graph, DuckStore):
        name = Path(opened_as).name if opened_as else graph.path.name
        rows.append(SizeRow("store file", f"{name} "
                                          f"({graph.path.stat().st_size / 1e6:,.0f} MB)"))
    return rows


def engine_for(choice: str, n_facts: int, store_loaded: bool = False) -> str:
    """The engine uploads are built on: ``auto`` picks by size
    (:func:`~trustuqa_core.engines.choose_engine`); a prebuilt store is always DuckDB.

    >>> engine_for("auto", 1000), engine_for("duckdb", 1000), engine_for("memory", 10**8)
    ('memory', 'duckdb', 'memory')
    """
    if choice not in ENGINES:
        raise TrustUQAError(f"unknown engine {choice!r}")
    if store_loaded:
        return "duckdb"
    return choose_engine(n_facts) if choice == "auto" else choice


def store_preview(store: DuckStore, source_index: int,
                  limit: int = SAMPLE_FACTS) -> pd.DataFrame:
    """The first ``limit`` facts of one source of a store (never the whole source)."""
    rows = store.fact_rows(store.first_facts(source_index, limit))
    labels = store.labels([n for r in rows for n in (r.head, r.tail)])
    return pd.DataFrame({"line": [r.line for r in rows], "head": labels[0::2],
                         "relation": [r.relation for r in rows],
                         "tail": labels[1::2]}).set_index("line")


def store_relation_stats(store: DuckStore) -> pd.DataFrame:
    """Per relation: facts, distinct values, numeric share and an example (one SQL scan)."""
    return pd.DataFrame([{"relation": r["relation"], "facts": r["facts"],
                          "distinct values": r["distinct"],
                          "numeric": f"{r['numeric'] / max(r['facts'], 1):.0%}",
                          "example value": r["example"]} for r in store.relation_summary()])


def store_sample_facts(graph: GraphStore, limit: int = SAMPLE_FACTS) -> list[SourceFacts]:
    """A sample of each source of a store: its first ``limit`` facts as
    :class:`~trustuqa_core.sources.SourceFacts` (what the Data page previews; never the whole
    source). A memory graph has no such sample: an empty list."""
    if not isinstance(graph, DuckStore):
        return []
    out = []
    for i, info in enumerate(graph.sources):
        rows = graph.fact_rows(graph.first_facts(i, limit))
        labels = graph.labels([n for r in rows for n in (r.head, r.tail)])
        heads: list[Any] = labels[0::2]
        if info.kind == "table":
            heads = [(graph.row_position(r.head) or (i, 0))[1] for r in rows]
        out.append(SourceFacts(info.name, info.kind, heads, [r.relation for r in rows],
                               labels[1::2], [r.line for r in rows],
                               columns=tuple(info.columns), n_rows=info.n_rows,
                               warnings=list(info.warnings), path=info.path))
    return out
