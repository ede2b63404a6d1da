"""Resource limits in one place: what a file, a query or an LLM call may cost.

Every limit has a default suited to a shared deployment on a small machine, and can be raised or
lowered by the operator with an environment variable ``TRUSTUQA_LIMIT_<NAME>`` (upper case), e.g.
``TRUSTUQA_LIMIT_TABLE_ROWS=2000000``. Code that enforces a limit reads it from
:func:`current_limits` and raises :class:`~trustuqa_core.errors.LimitError` naming the limit, the
value found and how to raise it.

>>> lim = load_limits({"TRUSTUQA_LIMIT_TABLE_ROWS": "10"})
>>> lim.table_rows, lim.facts == DEFAULT_LIMITS.facts
(10, True)
>>> load_limits({"TRUSTUQA_LIMIT_TABLE_ROWS": "many"})
Traceback (most recent call last):
...
trustuqa_core.errors.LimitError: TRUSTUQA_LIMIT_TABLE_ROWS must be a positive number, got 'many'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from .errors import LimitError

__all__ = [
    "Limits",
    "DEFAULT_LIMITS",
    "load_limits",
    "current_limits",
    "ENV_PREFIX",
    "env_name",
    "over_limit",
    "bytes_text",
]

ENV_PREFIX = "TRUSTUQA_LIMIT_"
_MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """The configurable limits (sizes in bytes, times in seconds).

    Attributes:
        upload_bytes: largest file accepted from an upload or a path.
        unzipped_bytes: largest total uncompressed size of an XLSX (a zip) or a gzip file.
        table_rows: most rows read from one table.
        facts: most facts in one loaded source, and in one graph.
        graph_cache_entries: graphs kept in memory per process (shared by all sessions).
        llm_seconds_per_question: wall-clock budget for all LLM calls of one question,
            retries included.
        llm_calls_per_question: most HTTP requests to the LLM for one question, retries included.
        llm_read_timeout_s: longest wait for the next bytes of one reply.
        query_chars: longest LLM reply (or hand-written query) parsed.
        query_line_chars: longest single line of a query.
        parse_depth: deepest nesting of brackets / calls in a query.
        number_digits: most digits in a number written in a query.
        json_depth: deepest nesting accepted in a JSON file (tables, exported runs).
        dense_labels: most node labels embedded for one mapping (larger sets stay lexical).
    """

    upload_bytes: int = 50 * _MIB
    unzipped_bytes: int = 200 * _MIB
    table_rows: int = 1_000_000
    facts: int = 5_000_000
    graph_cache_entries: int = 4
    llm_seconds_per_question: float = 180.0
    llm_calls_per_question: int = 6
    llm_read_timeout_s: float = 60.0
    query_chars: int = 100_000
    query_line_chars: int = 10_000
    parse_depth: int = 32
    number_digits: int = 64
    json_depth: int = 64
    dense_labels: int = 50_000


DEFAULT_LIMITS = Limits()


def load_limits(env: Mapping[str, str] | None = None) -> Limits:
    """Read ``TRUSTUQA_LIMIT_*`` overrides from ``env`` (default: the process environment)."""
    env = os.environ if env is None else env
    changes: dict[str, Any] = {}  # int or float per field, as declared
    for f in fields(Limits):
        key = ENV_PREFIX + f.name.upper()
        if key not in env:
            continue
        raw = env[key].strip()
        try:
            value: int | float = float(raw) if f.type == "float" else int(raw)
        except ValueError:
            value = -1
        if not value > 0:
            raise LimitError(f"{key} must be a positive number, got {env[key]!r}")
        changes[f.name] = value
    return replace(DEFAULT_LIMITS, **changes)


@lru_cache(maxsize=1)
def current_limits() -> Limits:
    """The limits of this process (read once from the environment)."""
    return load_limits()


def env_name(field: str) -> str:
    """The environment variable that sets limit ``field``.

    >>> env_name("table_rows")
    'TRUSTUQA_LIMIT_TABLE_ROWS'
    """
    return ENV_PREFIX + field.upper()


def over_limit(found: str, field: str, limit: int | float, unit: str = "") -> str:
    """The message for a limit that was exceeded: what was found, the limit and how to raise it.

    >>> over_limit("more than 10 rows", "table_rows", 10, "rows")
    'more than 10 rows (limit: 10 rows; set TRUSTUQA_LIMIT_TABLE_ROWS to raise it)'
    >>> over_limit("file is 3.0 MB", "upload_bytes", 2 * _MIB, "bytes")
    'file is 3.0 MB (limit: 2.0 MB; set TRUSTUQA_LIMIT_UPLOAD_BYTES to raise it)'
    """
    shown = bytes_text(int(limit)) if unit == "bytes" else f"{limit:,} {unit}".strip()
    return f"{found} (limit: {shown}; set {env_name(field)} to raise it)"


def bytes_text(n: int) -> str:
    """A byte count for people: ``MB`` with one decimal, or plain bytes below 100 kB.

    >>> bytes_text(3 * _MIB), bytes_text(900)
    ('3.0 MB', '900 bytes')
    """
    return f"{n / _MIB:.1f} MB" if n >= 100_000 else f"{n:,} bytes"
