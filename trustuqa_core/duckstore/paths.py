"""Where store files live and what keys them: ``$TRUSTUQA_CACHE/duckdb/<content hash>.duckdb``
(``~/.cache/trustuqa`` when the variable is unset). The key covers the store format version
and the whole content (loaded facts, or the bytes of the files read), so a changed file or
format gets a new store and an unchanged one is reopened.

>>> from trustuqa_core.sources import SourceFacts
>>> a = sources_key([SourceFacts("kg", "kg", ["a"], ["r"], ["b"], [1])])
>>> b = sources_key([SourceFacts("kg", "kg", ["a"], ["r"], ["c"], [1])])
>>> len(a), a != b
(40, True)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path

from ..sources import SourceFacts
from .build import FORMAT_VERSION

__all__ = ["store_dir", "sources_key", "files_key", "name_store"]

_CHUNK = 1 << 22


def store_dir(cache_dir: str | Path | None = None) -> Path:
    """The folder of store files: ``cache_dir`` or ``$TRUSTUQA_CACHE`` (else
    ``~/.cache/trustuqa``), subfolder ``duckdb``."""
    base = cache_dir or os.environ.get("TRUSTUQA_CACHE") or Path.home() / ".cache" / "trustuqa"
    return Path(base) / "duckdb"


def sources_key(sources: Sequence[SourceFacts]) -> str:
    """A content key for loaded sources (every fact, its line, interval and the source
    descriptions)."""
    h = hashlib.sha256(f"sources v{FORMAT_VERSION}\x02".encode())
    for s in sources:
        meta = [s.name, s.kind, s.n_rows, list(s.columns), s.path, list(s.warnings)]
        h.update(json.dumps(meta).encode() + b"\x02")
        for column in (s.heads, s.relations, s.tails, s.lines, s.starts or (), s.ends or ()):
            h.update("\x01".join(map(str, column)).encode("utf-8", "surrogatepass") + b"\x02")
    return h.hexdigest()[:40]


def files_key(paths: Sequence[Path], kind: str | None) -> str:
    """A content key for files read natively: their names, kind and bytes."""
    h = hashlib.sha256(f"files v{FORMAT_VERSION} {kind}\x02".encode())
    for p in paths:
        h.update(p.name.encode("utf-8", "surrogatepass") + b"\x01" + str(p).encode() + b"\x02")
        with p.open("rb") as f:
            while chunk := f.read(_CHUNK):
                h.update(chunk)
        h.update(b"\x02")
    return h.hexdigest()[:40]


def name_store(path: Path, name: str) -> Path:
    """Link ``path`` as ``<name>.duckdb`` in its folder (replacing an older link of that
    name; characters other than letters, digits, ``.``, ``-``, ``_`` become ``_``); returns
    the link. A store file is never replaced by a link.

    >>> import tempfile
    >>> store = Path(tempfile.mkdtemp()) / "abc.duckdb"
    >>> _ = store.write_bytes(b"")
    >>> link = name_store(store, "my kb")
    >>> link.name, link.resolve() == store.resolve()
    ('my_kb.duckdb', True)
    """
    safe = re.sub(r"[^\w.-]", "_", name)[:100] or "store"
    link = path.parent / f"{safe}.duckdb"
    if link.resolve() == path.resolve():
        return link
    if link.exists() and not link.is_symlink():
        return path
    tmp = link.with_name(link.name + f".{os.getpid()}.link.tmp")
    tmp.unlink(missing_ok=True)
    os.symlink(path.name, tmp)
    os.replace(tmp, link)
    return link
