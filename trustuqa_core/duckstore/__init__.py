"""The DuckDB graph store (issue #18): the :class:`~trustuqa_core.store.GraphStore` API as SQL
over a persistent ``.duckdb`` file per dataset, for graphs that outgrow memory.

``store.py`` serves the API, ``pool.py`` the SQL label pool, ``build.py`` writes store files
(from loaded facts, or triple files through DuckDB's own reader), ``paths.py`` keys them in the
cache. :func:`open_files` is what ``engines.open_files(..., "duckdb")`` calls.

>>> import tempfile
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "kb.txt").write_text("Dune|written_by|Frank Herbert\\n")
>>> g = open_files([folder / "kb.txt"], "kg", cache_dir=folder)
>>> g.labels(g.tails_of(g.facts_head(g.entity("Dune")))), g.path.parent.name
(['Frank Herbert'], 'duckdb')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..sources import SourceFacts
from ..translate import load_sources
from .build import (
    Progress,
    check_readable,
    quiet,
    triple_separator,
    write_sources,
    write_triple_files,
)
from .paths import files_key, name_store, sources_key, store_dir
from .pool import SqlLabelPool
from .store import DuckStore, StoreFileError

__all__ = ["DuckStore", "SqlLabelPool", "StoreFileError", "Progress", "open_files",
           "open_sources", "store_dir", "sources_key", "files_key", "name_store"]


def open_sources(sources: Sequence[SourceFacts], cache_dir: str | Path | None = None,
                 progress: Progress = quiet) -> DuckStore:
    """The store of loaded ``sources`` (built into the cache unless already there)."""
    return DuckStore.build(sources, cache_dir, progress)


def open_files(paths: Sequence[str | Path], kind: str | None = None,
               cache_dir: str | Path | None = None, progress: Progress = quiet,
               folder: str | Path | None = None) -> DuckStore:
    """The store of the files at ``paths``: triple files (``kind`` ``kg``, tab- or
    ``|``-separated) are read by DuckDB itself; anything else goes through the Python
    loaders first. Content-hash keyed in the cache (or in ``folder`` itself when given), so
    an unchanged file is only reopened."""
    files = [Path(p) for p in paths]
    check_readable(files)
    where = Path(folder) if folder is not None else store_dir(cache_dir)
    path = where / f"{files_key(files, kind)}.duckdb"
    if path.is_file():
        return DuckStore(path)
    native = kind == "kg" and all(triple_separator(f) for f in files)
    if not (native and write_triple_files(path, files, progress)):
        progress("reading files", 0.0)
        sources = [s for f in files for s in load_sources(str(f), kind)]
        write_sources(path, sources, progress)
    return DuckStore(path)
