"""Translators: each source kind -> :class:`~trustuqa_core.sources.SourceFacts`.

>>> facts = load_source(b"Name,Year\\nAnn,1999\\n", "table", name="t.csv")
>>> facts.kind, facts.n_rows, facts.columns
('table', 1, ('Name', 'Year'))
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SourceError
from ..sources import SourceFacts, SourceKind
from .kg import from_triples, read_triples
from .table import from_table, read_table
from .temporal_kg import read_quintuples

__all__ = [
    "load_source",
    "read_table",
    "from_table",
    "read_triples",
    "from_triples",
    "read_quintuples",
    "KINDS",
]

KINDS: tuple[SourceKind, ...] = ("table", "kg", "tkg")


def load_source(
    source: str | Path | bytes,
    kind: str,
    name: str | None = None,
    max_bytes: int | None = None,
) -> SourceFacts:
    """Read one file of the given kind (``table``, ``kg`` or ``tkg``) into facts."""
    name = name or (Path(source).name if not isinstance(source, bytes) else kind)
    if kind == "table":
        df = read_table(source, name, max_bytes)
        return from_table(df, name, None if isinstance(source, bytes) else str(source))
    if kind == "kg":
        return read_triples(source, name, max_bytes)
    if kind == "tkg":
        return read_quintuples(source, name, max_bytes)
    raise SourceError(name, f"unknown source kind {kind!r}; expected one of {', '.join(KINDS)}")
