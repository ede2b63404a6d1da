"""Knowledge-graph triples -> facts.

Accepts tab- or comma-separated files with three columns and the MetaQA ``head|relation|tail``
format (optionally gzipped). A first line naming the columns (``head, relation, tail``) is
skipped. Each fact ``(h, r, t)`` stands for the condition triples ``(h, r, ())`` and
``(r, t, (h,))``.

>>> facts = read_triples(b"Kismet|directed_by|William Dieterle\\nKismet|release_year|1944\\n", "kb")
>>> list(zip(facts.heads, facts.relations, facts.tails, facts.lines))[1]
('Kismet', 'release_year', '1944', 2)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from ..errors import SourceError
from ..sources import SourceFacts
from .text import check_count, read_text

__all__ = ["read_triples", "from_triples", "split_columns", "HEADER_WORDS"]

HEADER_WORDS = {
    "head",
    "subject",
    "h",
    "relation",
    "predicate",
    "r",
    "tail",
    "object",
    "t",
    "start",
    "end",
    "start_time",
    "end_time",
    "time",
    "head_entity",
    "tail_entity",
}


def read_triples(
    source: str | Path | bytes, name: str | None = None, max_bytes: int | None = None
) -> SourceFacts:
    """Read a triple file (TSV / CSV / ``h|r|t``) into facts with their line numbers."""
    name = name or (Path(source).name if not isinstance(source, bytes) else "kg")
    skipped: list[tuple[int, str]] = []
    lines, (heads, rels, tails) = split_columns(
        read_text(source, name, max_bytes), name, width=3, skipped=skipped
    )
    facts = SourceFacts(
        name=name,
        kind="kg",
        heads=heads,
        relations=rels,
        tails=tails,
        lines=lines,
        warnings=skipped_warning(name, skipped),
    )
    facts.path = None if isinstance(source, bytes) else str(source)
    return facts


def skipped_warning(name: str, skipped: list[tuple[int, str]]) -> list[str]:
    """One readable warning for the lines that were left out (empty when none were).

    >>> skipped_warning("kg.tsv", [(4, "empty tail"), (9, "empty head")])
    ['kg.tsv: 2 line(s) left out: line 4 (empty tail), line 9 (empty head)']
    """
    if not skipped:
        return []
    shown = ", ".join(f"line {n} ({why})" for n, why in skipped[:5])
    more = f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""
    return [f"{name}: {len(skipped)} line(s) left out: {shown}{more}"]


def from_triples(
    triples: Iterable[tuple[str, str, str]], name: str, lines: list[int] | None = None
) -> SourceFacts:
    """Facts from ``(head, relation, tail)`` tuples (lines default to 1, 2, ...)."""
    columns = list(zip(*triples, strict=True)) or [(), (), ()]
    heads, rels, tails = (list(c) for c in columns)
    return SourceFacts(
        name=name,
        kind="kg",
        heads=heads,
        relations=rels,
        tails=tails,
        lines=lines if lines is not None else list(range(1, len(heads) + 1)),
    )


def split_columns(
    text: str,
    name: str,
    width: int,
    min_width: int | None = None,
    skipped: list[tuple[int, str]] | None = None,
) -> tuple[list[int], list[Sequence[str]]]:
    """Split delimited lines into line numbers and ``width`` columns (missing ones as ``""``).

    The delimiter is tab if the first line has one, else ``|``, else comma (CSV quoting).
    With the pipe delimiter the last field takes any further pipes (titles may contain them).
    ``min_width`` allows shorter lines (e.g. a TKG line with one time instead of two).
    A first line naming the columns is skipped. Large clean files take a fast path through
    pandas' C parser; anything unusual goes through a line-by-line path that reports the line.
    A line with an empty head, relation or tail is an error, or, when a ``skipped`` list is
    given, is left out and recorded there as ``(line, problem)``. More lines than the
    ``facts`` limit raise :class:`~trustuqa_core.errors.SourceLimitError`.

    >>> split_columns("h\\tr\\tt\\nA\\tB\\tC\\n\\nD\\tE\\tF", "x", 3)
    ([2, 4], [['A', 'D'], ['B', 'E'], ['C', 'F']])
    """
    first = text.lstrip("\r\n").split("\n", 1)[0]
    sep = "\t" if "\t" in first else "|" if "|" in first else ","
    fast = _fast_columns(text, sep, width) if sep != "," and "\n\n" not in text else None
    if fast is not None:
        check_count(name, len(fast[0]), "facts", "facts")
        return fast
    rows = _split_rows(text, sep, width)
    if rows and {c.strip().lower() for c in rows[0][1]} <= HEADER_WORDS:
        rows = rows[1:]
    check_count(name, len(rows), "facts", "facts")
    if not rows:
        raise SourceError(name, "no facts found")
    min_width = width if min_width is None else min_width
    kept = []
    for number, fields in rows:
        if not min_width <= len(fields) <= width:
            expected = str(width) if min_width == width else f"{min_width} to {width}"
            raise SourceError(name, f"expected {expected} columns, got {len(fields)}", number)
        empty = next(
            (w for k, w in enumerate(("head", "relation", "tail")) if not fields[k].strip()), None
        )
        if empty is None:
            kept.append((number, fields))
        elif skipped is None:
            raise SourceError(name, f"empty {empty}", number)
        else:
            skipped.append((number, f"empty {empty}"))
    if not kept:
        raise SourceError(
            name,
            "no usable facts: " + "; ".join(f"line {n}: {why}" for n, why in (skipped or [])[:3]),
        )
    rows = kept
    columns: list[Sequence[str]] = [
        [f[k] if k < len(f) else "" for _, f in rows] for k in range(width)
    ]
    return [n for n, _ in rows], columns


def _split_rows(text: str, sep: str, width: int) -> list[tuple[int, list[str]]]:
    if sep == ",":
        reader = csv.reader(io.StringIO(text, newline=""))
        return [(reader.line_num, r) for r in reader if any(c.strip() for c in r)]
    maxsplit = width - 1 if sep == "|" else -1
    lines = text.splitlines()
    return [(i, ln.split(sep, maxsplit)) for i, ln in enumerate(lines, 1) if ln.strip()]


def _fast_columns(text: str, sep: str, width: int) -> tuple[list[int], list[Sequence[str]]] | None:
    """All columns via pandas' C parser, or ``None`` when the file needs the careful path."""
    try:
        df = pd.read_csv(
            io.StringIO(text),
            sep=sep,
            header=None,
            dtype=str,
            engine="c",
            quoting=csv.QUOTE_NONE,
            na_filter=False,
            skip_blank_lines=False,
        )
    except (pd.errors.ParserError, ValueError):
        return None
    if df.shape[1] != width or len(df) == 0:
        return None
    cols = [df[c].to_numpy(dtype=object) for c in df.columns]
    offset = 1
    if {str(c[0]).strip().lower() for c in cols} <= HEADER_WORDS:
        cols, offset = [c[1:] for c in cols], 2
    for c in cols[:3]:
        if len(c) == 0 or (c == "").any() or (df.shape[0] < 2 and not str(c[0]).strip()):
            return None
    return list(range(offset, offset + len(cols[0]))), cols
