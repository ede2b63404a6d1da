"""A resumable on-disk cache of per-question outcomes: one JSON line per question.

The file is keyed by benchmark, split, mode, writer (and model) and the *code version* (a
hash of the package's source and prompt files), so a rerun with unchanged code skips the
questions already done, and any code change starts a fresh file. Each outcome is appended
with a single ``write`` on a file opened with ``O_APPEND`` (under a lock, for threads), so
an interrupted run leaves at most one truncated last line, which :meth:`RunCache.load`
skips (and the next append starts on a new line).

>>> import tempfile
>>> from trustuqa_core.evaluate.outcome import Outcome
>>> cache = RunCache(Path(tempfile.mkdtemp()) / "run.jsonl")
>>> cache.append(Outcome("q1", "wtq", "?", True, "correct", ["1"], ["1"], 0.1))
>>> _ = cache.path.open("a").write('{"id": "q2", "benchm')   # a run killed mid-write
>>> sorted(cache.load()), cache.skipped
(['q1'], 1)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from functools import lru_cache
from pathlib import Path

from .outcome import Outcome

__all__ = ["RunCache", "code_version", "cache_file"]

_PACKAGE = Path(__file__).resolve().parents[1]
_HASHED = (".py", ".md", ".json", ".tsv")


@lru_cache(maxsize=1)
def code_version() -> str:
    """12 hex digits of a hash over every source and prompt file of ``trustuqa_core``
    (computed once per process)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*")):
        if path.suffix in _HASHED and path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(_PACKAGE)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def cache_file(cache_dir: Path, *parts: str) -> Path:
    """``<cache_dir>/<part>-<part>-....jsonl`` with unsafe characters replaced.

    >>> cache_file(Path("c"), "wtq", "train", "replay", "offline", "abc123").name
    'wtq-train-replay-offline-abc123.jsonl'
    >>> cache_file(Path("c"), "wtq", "dev", "answer", "openai", "gpt-4o/mini").name
    'wtq-dev-answer-openai-gpt-4o_mini.jsonl'
    """
    safe = [re.sub(r"[^A-Za-z0-9._-]+", "_", p) for p in parts if p]
    return cache_dir / ("-".join(safe) + ".jsonl")


class RunCache:
    """Append-only JSONL file of :class:`~.outcome.Outcome` records (thread-safe)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.skipped = 0
        self._lock = threading.Lock()
        self._checked_end = False

    def load(self) -> dict[str, Outcome]:
        """Outcomes by question id (the last record of an id wins); unreadable lines (a
        truncated last line) are counted in ``skipped``."""
        self.skipped = 0
        found: dict[str, Outcome] = {}
        if not self.path.is_file():
            return found
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                if not line.strip():
                    continue
                try:
                    outcome = Outcome.from_dict(json.loads(line))
                except (json.JSONDecodeError, TypeError, KeyError):
                    self.skipped += 1
                    continue
                found[outcome.id] = outcome
        return found

    def append(self, outcome: Outcome) -> None:
        """Write one outcome as one line, in one ``write`` call."""
        line = json.dumps(outcome.to_dict(), ensure_ascii=False) + "\n"
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if not self._checked_end:
                line = self._newline_if_needed() + line
                self._checked_end = True
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                data = line.encode("utf-8")
                while data:  # one call in practice; a short write only on a full disk
                    data = data[os.write(fd, data):]
            finally:
                os.close(fd)

    def _newline_if_needed(self) -> str:
        """A newline when the file ends inside a line (an earlier run was killed)."""
        if not self.path.is_file() or self.path.stat().st_size == 0:
            return ""
        with self.path.open("rb") as handle:
            handle.seek(-1, os.SEEK_END)
            return "" if handle.read(1) == b"\n" else "\n"
