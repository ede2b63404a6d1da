"""On-disk cache of LLM replies, so re-running a question or a benchmark costs nothing.

One JSON file per request, named by the sha256 of everything that shapes the reply (model,
base URL, full messages, n, temperature, other sampling settings). The API key is never part
of the key nor of the file. Writes go to a temporary file first and are then renamed with
``os.replace``, so an interrupted write never leaves a half file under a real name.

    >>> import tempfile
    >>> cache = ResponseCache(tempfile.mkdtemp())
    >>> k = request_key(model="m", base_url="http://x/v1", messages=[{"role": "user",
    ...                 "content": "hi"}], n=2, temperature=0.7)
    >>> cache.get(k) is None
    True
    >>> cache.put(k, ["a", "b"]); cache.get(k)
    ['a', 'b']
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["ResponseCache", "request_key"]

log = logging.getLogger(__name__)

_FORMAT = 1


def request_key(
    *,
    model: str,
    base_url: str,
    messages: Sequence[dict[str, Any]],
    n: int,
    temperature: float,
    **sampling: Any,
) -> str:
    """sha256 hex digest of a canonical JSON form of the request.

    ``sampling`` holds any other setting that changes the reply (``max_tokens``, ``seed``...).

    >>> a = request_key(model="m", base_url="u", messages=[], n=1, temperature=0.0)
    >>> a == request_key(model="m", base_url="u", messages=[], n=1, temperature=0.5)
    False
    """
    canonical = {
        "format": _FORMAT,
        "model": model,
        "base_url": base_url.rstrip("/"),
        "messages": list(messages),
        "n": n,
        "temperature": float(temperature),
        "sampling": sampling,
    }
    text = json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    """A directory of ``<sha256>.json`` files, each holding a list of reply texts."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def path_for(self, key: str) -> Path:
        """The file a key is stored in."""
        if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise ValueError("cache key must be a sha256 hex digest")
        return self.directory / f"{key}.json"

    def get(self, key: str) -> list[str] | None:
        """The cached texts, or ``None`` on a miss (an unreadable entry counts as a miss)."""
        path = self.path_for(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as err:
            log.warning(
                "ignoring unreadable LLM cache entry %s (%s)", path.name, type(err).__name__
            )
            return None
        texts = data.get("texts") if isinstance(data, dict) else None
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            log.warning("ignoring malformed LLM cache entry %s", path.name)
            return None
        return texts

    def put(self, key: str, texts: Sequence[str]) -> None:
        """Store ``texts`` atomically (temp file in the same directory, then ``os.replace``)."""
        path = self.path_for(key)
        self.directory.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"format": _FORMAT, "texts": list(texts)}, ensure_ascii=False)
        fd, tmp = tempfile.mkstemp(dir=self.directory, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def __len__(self) -> int:
        """Number of stored entries."""
        if not self.directory.is_dir():
            return 0
        return sum(1 for p in self.directory.glob("*.json") if not p.name.startswith("."))
