"""Temporal KG quintuples ``(head, relation, tail, start, end)`` -> facts with intervals.

The validity interval is stored once per fact; ``time`` lookups are answered from it (a fact
spanning 1000 years costs one entry, not 1000). A 4-column line ``(h, r, t, time)`` is a fact
valid in one year; an empty, ``None`` or ``####`` time is unknown (open).

>>> line = b"Walter Judd\\tmilitary branch\\tUnited States Army\\t1918\\t1919\\n"
>>> facts = read_quintuples(line, "tkg")
>>> facts.starts, facts.ends
([1918.0], [1919.0])
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import SourceError
from ..sources import SourceFacts
from .kg import skipped_warning, split_columns
from .text import read_text

__all__ = ["read_quintuples", "parse_year"]

_YEAR = re.compile(r"^\s*([+-]?\d{1,4})(?:[-/.]\d{1,2}(?:[-/.]\d{1,2})?)?(?:[T ].*)?\s*$")
_UNKNOWN = {"", "none", "null", "nan", "####", "unknown", "-"}


def parse_year(text: str) -> float | None:
    """Year of a time field (``1918``, ``1918-05-01``), ``None`` when unknown.

    >>> parse_year("1918-05-01"), parse_year("####"), parse_year("-44")
    (1918.0, None, -44.0)
    >>> parse_year("soon")
    Traceback (most recent call last):
    ...
    ValueError: not a year: 'soon'
    """
    if text.strip().lower() in _UNKNOWN:
        return None
    m = _YEAR.match(text)
    if m is None:
        raise ValueError(f"not a year: {text!r}")
    return float(int(m.group(1)))


def read_quintuples(
    source: str | Path | bytes, name: str | None = None, max_bytes: int | None = None
) -> SourceFacts:
    """Read a TKG file (tab/pipe/comma separated, 4 or 5 columns) into facts with intervals."""
    name = name or (Path(source).name if not isinstance(source, bytes) else "tkg")
    skipped: list[tuple[int, str]] = []
    lines, columns = split_columns(
        read_text(source, name, max_bytes), name, width=5, min_width=4, skipped=skipped
    )
    keep: list[int] = []
    starts: list[float | None] = []
    ends: list[float | None] = []
    for i, (number, s_text, e_text) in enumerate(zip(lines, columns[3], columns[4], strict=True)):
        try:
            start = parse_year(s_text)
            end = parse_year(e_text) if e_text != "" else start
        except ValueError as exc:
            skipped.append((number, str(exc)))
            continue
        if start is not None and end is not None and start > end:
            skipped.append((number, f"start {s_text!r} is after end {e_text!r}"))
            continue
        keep.append(i)
        starts.append(start)
        ends.append(end)
    if not keep:
        raise SourceError(
            name,
            "no usable facts: " + "; ".join(f"line {n}: {why}" for n, why in sorted(skipped)[:3]),
        )
    heads, rels, tails = ([col[i] for i in keep] for col in columns[:3])
    return SourceFacts(
        name=name,
        kind="tkg",
        heads=heads,
        relations=rels,
        tails=tails,
        lines=[lines[i] for i in keep],
        starts=starts,
        ends=ends,
        warnings=skipped_warning(name, sorted(skipped)),
        path=None if isinstance(source, bytes) else str(source),
    )
