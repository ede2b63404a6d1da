"""Facts extracted from one data file, before they join a condition graph.

A :class:`SourceFacts` is the common shape every translator (table, KG, temporal KG) produces:
parallel columns of head / relation / tail text with the line or row each fact came from.
Table rows are heads too: a table's ``heads`` are its 1-based row numbers, which the graph
turns into private row keys (:func:`row_key`) and shows as ``"<source> row <n>"``.

>>> facts = SourceFacts(name="t.csv", kind="table", heads=[1], relations=["Year"],
...                     tails=["1999"], lines=[1])
>>> len(facts)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["SourceFacts", "SourceKind", "row_key", "parse_row_key", "ROW_PREFIX"]

SourceKind = Literal["table", "kg", "tkg"]
ROW_PREFIX = "\x00row\x00"


def row_key(source_index: int, row: int) -> str:
    """The head text that stands for data row ``row`` (1-based) of source ``source_index``.

    Real text never contains NUL (loaders strip it), so a row key cannot clash with a value.

    >>> parse_row_key(row_key(2, 17))
    (2, 17)
    """
    return f"{ROW_PREFIX}{source_index}\x00{row}"


def parse_row_key(text: str) -> tuple[int, int] | None:
    """``(source_index, row)`` for a row key, ``None`` for any other text."""
    if not text.startswith(ROW_PREFIX):
        return None
    src, row = text[len(ROW_PREFIX) :].split("\x00")
    return int(src), int(row)


@dataclass
class SourceFacts:
    """Facts of one source as parallel columns (one entry per fact).

    Attributes:
        name: what the user calls the source (usually the file name).
        kind: ``table``, ``kg`` or ``tkg``.
        heads, relations, tails: fact text; heads of table facts are row numbers (int).
        lines: provenance per fact: data row number (tables) or file line (KG/TKG), 1-based.
        starts, ends: TKG validity interval per fact (years); ``None`` when unknown.
        columns: table column names in file order (``row_number`` excluded).
        n_rows: number of table rows (0 for KGs).
        warnings: problems found while reading that did not stop it (shown to the user).
        path: the file it was read from, if any.
    """

    name: str
    kind: SourceKind
    heads: Sequence[str] | Sequence[int]
    relations: Sequence[str]
    tails: Sequence[str]
    lines: Sequence[int]
    starts: Sequence[float | None] | None = None
    ends: Sequence[float | None] | None = None
    columns: tuple[str, ...] = ()
    n_rows: int = 0
    warnings: list[str] = field(default_factory=list)
    path: str | None = None

    def __len__(self) -> int:
        return len(self.heads)
