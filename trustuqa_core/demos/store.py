"""The opt-in store of confirmed demos shared by all sessions (a JSONL file, locked appends).

>>> import tempfile
>>> store = UserDemoStore(Path(tempfile.mkdtemp()) / "demos.jsonl")
>>> store.load(), store.signature()
([], (0.0, 0))
"""

from __future__ import annotations

import json
import logging
import os
import threading
from datetime import UTC, datetime
from pathlib import Path

from ..errors import LimitError
from ..mapping.dense import default_cache_dir
from ..translate.text import load_json
from .model import Demo
from .verify import DemoNotReproduced

__all__ = ["UserDemoStore"]

log = logging.getLogger(__name__)


class UserDemoStore:
    """Questions a user marked correct: one JSON object per line, appended atomically.

    Used only when the operator shares confirmed demos between sessions
    (``shared_user_demos``); by default they stay in the session. Default path:
    ``$TRUSTUQA_CACHE/user_demos.jsonl``. Each append is a single ``write`` of one complete
    line under an exclusive lock, then fsync; readers skip a damaged line with a warning
    instead of failing, and :meth:`load` returns only demos :func:`confirm_demo` verified.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_dir() / "user_demos.jsonl"
        self._lock = threading.Lock()

    def add(self, demo: Demo) -> None:
        """Append one demo (origin forced to ``user``; a timestamp is recorded).

        Raises:
            DemoNotReproduced: the demo was not verified by :func:`confirm_demo`.
        """
        if demo.meta.get("verified") is not True:
            raise DemoNotReproduced("only a demo verified by confirm_demo() can be shared")
        record = {**demo.to_json(), "origin": "user",
                  "added": datetime.now(UTC).isoformat(timespec="seconds")}
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                _lock_file(fd)
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)

    def load(self) -> list[Demo]:
        """Every stored, verified demo, in the order added (others are skipped, logged)."""
        if not self.path.is_file():
            return []
        out = []
        with self.path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    demo = Demo.from_json(load_json(line))  # depth-limited: a hostile line
                except (ValueError, KeyError, TypeError, LimitError) as err:
                    log.warning("%s line %d skipped: %s", self.path, number, type(err).__name__)
                    continue
                if demo.meta.get("verified") is not True:
                    log.warning("%s line %d skipped: not a re-executed demo", self.path, number)
                    continue
                out.append(demo)
        return out

    def signature(self) -> tuple[float, int]:
        """(mtime, size) of the file, to notice changes cheaply."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return (0.0, 0)
        return (st.st_mtime, st.st_size)


def _lock_file(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: O_APPEND alone
        return
    fcntl.flock(fd, fcntl.LOCK_EX)
