"""Tables (CSV, TSV, XLSX, JSON records) -> facts.

Row ``i`` becomes a head; each non-empty cell ``v`` of column ``c`` becomes the fact
``(row i, c, v)``, i.e. the condition triples ``([row i], c, ())`` and ``(c, v, ([row i],))``.
A ``row_number`` column (1-based) is added unless the table already has one, because LLM
queries in the paper's style ask for "the row_number of ...".

>>> facts = from_table(read_table(b"Name,Score\\nAnn,10\\nBob,10\\n", "s.csv"), "s.csv")
>>> list(zip(facts.heads, facts.relations, facts.tails))[:3]
[(1, 'Name', 'Ann'), (1, 'Score', '10'), (1, 'row_number', '1')]
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pandas as pd

from ..errors import LimitError, SourceError, SourceLimitError
from ..limits import current_limits
from ..sources import SourceFacts
from .cells import MAX_WARNINGS, cell_text, renamed_columns, text_frame, unique_header
from .text import (
    check_count,
    load_json,
    looks_like_formula,
    looks_like_html,
    read_any_text,
    read_bytes,
    read_text,
)
from .xlsx import read_xlsx

__all__ = ["read_table", "from_table", "table_facts", "ROW_NUMBER", "EXTRA", "sniff_delimiter"]

ROW_NUMBER = "row_number"
EXTRA = "extra_"  # columns for the cells of rows longer than the header: extra_1, ...


#: the table formats :func:`read_table` can be told to use (``fmt``)
TABLE_FORMATS = (".csv", ".tsv", ".xlsx", ".json")


def read_table(
    source: str | Path | bytes, name: str | None = None, max_bytes: int | None = None,
    fmt: str | None = None,
) -> pd.DataFrame:
    """Read a table file into a DataFrame of strings (``""`` for empty cells).

    The format comes from the file name (``.xlsx``, ``.json``, ``.tsv``, else delimited text
    whose delimiter is sniffed: the official WikiSQL/WTQ copies are tab-separated ``.csv``).
    ``fmt`` (``csv``, ``tsv``, ``xlsx``, ``json``) overrides the name's suffix: a snapshot of a
    database table named ``t.xlsx`` is CSV whatever its name says.
    Delimited text need not be UTF-8 (see :func:`~trustuqa_core.translate.text.read_any_text`).
    Unreadable files raise :class:`SourceError`; what is read leniently (another encoding,
    rows longer or shorter than the header, formulas, HTML in cells) is listed in
    ``df.attrs["warnings"]``.
    Sizes, rows and JSON nesting are bounded by :mod:`trustuqa_core.limits`
    (:class:`~trustuqa_core.errors.SourceLimitError` names the file and the limit).
    """
    name = name or (Path(source).name if not isinstance(source, bytes) else "table")
    suffix = "." + fmt.lower() if fmt else Path(name).suffix.lower()
    if fmt and suffix not in TABLE_FORMATS:
        raise SourceError(name, f"unknown table format {fmt!r}; expected one of "
                                f"{', '.join(f[1:] for f in TABLE_FORMATS)}")
    if suffix in (".xlsx", ".xlsm"):
        df = read_xlsx(read_bytes(source, name, max_bytes), name)
    elif suffix == ".json":
        df = _read_json(read_text(source, name, max_bytes), name)
    else:
        text, decoded = read_any_text(source, name, max_bytes)
        delimiter = "\t" if suffix == ".tsv" else sniff_delimiter(text)
        df = _read_delimited(text, name, delimiter)
        df.attrs["warnings"] = decoded + list(df.attrs.get("warnings", []))
    warnings = list(df.attrs.get("warnings", []))
    warnings += _cell_warnings(df, name)
    df.attrs["warnings"] = warnings
    return df


def from_table(df: pd.DataFrame, name: str, path: str | None = None) -> SourceFacts:
    """Facts of a table: one head per row, one fact per non-empty cell, plus ``row_number``.

    At most the ``facts`` limit of facts; a table with a header and no rows loads with a warning.
    """
    columns = [str(c) for c in df.columns]
    add_rn = ROW_NUMBER not in columns
    heads: list[int] = []
    rels: list[str] = []
    tails: list[str] = []
    values = df.to_numpy(dtype=object)
    warnings = list(df.attrs.get("warnings", []))
    if len(values) == 0:
        warnings.append(f"{name}: the table has a header but 0 rows; it adds no facts")
    max_facts = current_limits().facts
    for i, row in enumerate(values, start=1):
        if len(heads) > max_facts:
            break
        for col, cell in zip(columns, row, strict=True):
            text = "" if cell is None else str(cell)
            if text.strip():
                heads.append(i)
                rels.append(col)
                tails.append(text)
        if add_rn:
            heads.append(i)
            rels.append(ROW_NUMBER)
            tails.append(str(i))
    check_count(name, len(heads), "facts", "facts")
    return SourceFacts(
        name=name,
        kind="table",
        heads=heads,
        relations=rels,
        tails=tails,
        lines=list(heads),
        columns=tuple(columns),
        n_rows=len(values),
        warnings=warnings,
        path=path,
    )


def table_facts(df: pd.DataFrame, name: str, path: str | None = None) -> SourceFacts:
    """Facts of a DataFrame of cell texts read from elsewhere (a database table, a Parquet
    file), with the warnings a file gets for markup and formula-like cells.

    >>> facts = table_facts(pd.DataFrame({"Note": ["=1+1"]}, dtype=object), "db:t")
    >>> facts.tails, "formula" in facts.warnings[0]
    (['=1+1', '1'], True)
    """
    df.attrs["warnings"] = list(df.attrs.get("warnings", [])) + _cell_warnings(df, name)
    return from_table(df, name, path)


def sniff_delimiter(text: str) -> str:
    """The delimiter that splits the first lines into a constant number (> 1) of fields.

    Tab is tried first, then comma, semicolon and pipe; with no consistent one, the delimiter
    giving the most fields in the header wins (comma on ties).

    >>> sniff_delimiter("a\\tb, c\\n1\\t2, 3"), sniff_delimiter("a,b\\n1,2"), sniff_delimiter("x")
    ('\\t', ',', ',')
    """
    head = "\n".join(text.splitlines()[:50])
    widths: dict[str, list[int]] = {}
    for d in ("\t", ",", ";", "|"):
        try:
            rows = list(
                csv.reader(
                    io.StringIO(head, newline=""),
                    delimiter=d,
                    quoting=csv.QUOTE_NONE if d == "\t" else csv.QUOTE_MINIMAL,
                )
            )
        except csv.Error:
            continue
        rows = [r for r in rows if any(c.strip() for c in r)]
        widths[d] = [len(r) for r in (rows[:-1] if len(rows) > 2 else rows)]
    for d, w in widths.items():
        if w and w[0] > 1 and len(set(w)) == 1:
            return d
    return max(widths, key=lambda d: (widths[d][0] if widths[d] else 0, d == ","), default=",")


def _read_delimited(text: str, name: str, delimiter: str) -> pd.DataFrame:
    reader = csv.reader(
        io.StringIO(text, newline=""),
        delimiter=delimiter,
        quoting=csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL,
    )
    max_rows = current_limits().table_rows + 1  # the header and the data rows
    rows: list[tuple[int, list[str]]] = []
    blank: list[int] = []  # rows of several fields, every one empty (",,"): skipped, and said
    try:
        for r in reader:
            if any(c.strip() for c in r):
                rows.append((reader.line_num, r))
                if len(rows) > max_rows:
                    check_count(name, len(rows) - 1, "table_rows", "rows")
            elif len(r) > 1 and rows:
                blank.append(reader.line_num)
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise SourceError(name, f"a cell is longer than {csv.field_size_limit():,} "
                              "characters, the most one cell may hold (often a double quote "
                              "opened and never closed)", reader.line_num) from None
        raise SourceError(name, f"malformed delimited text ({exc})", reader.line_num) from None
    if not rows:
        raise SourceError(name, "no header row")
    if delimiter != "\t" and any("\n" in c for c in rows[-1][1]) and _quote_left_open(
            text, delimiter):
        start = rows[-2][0] + 1 if len(rows) > 1 else 1
        raise SourceError(name, "a double quote opened here is never closed, so the rest of the "
                          "file would be read as one cell: close the quote or remove it", start)
    width = len(rows[0][1])
    extra = max((_last_filled(r) + 1 - width for _, r in rows[1:]), default=0)
    extras = [f"{EXTRA}{k}" for k in range(1, extra + 1)]
    header = unique_header(rows[0][1] + extras) if extras else unique_header(rows[0][1])
    full = width + len(extras)
    short, long, data = [], [], []
    for line, row in rows[1:]:
        if len(row) < width:
            short.append(line)
        elif len(row) > width:
            long.append(line)
        data.append((row + [""] * (full - len(row)))[:full])
    df = text_frame(data, header)
    warnings = [f"{name}: {note}" for note in renamed_columns(rows[0][1], header)]
    if long:
        kept = (
            f"the extra cells are kept in column(s) {', '.join(header[width:])}"
            if extras
            else "the extra fields are all empty and were ignored"
        )
        warnings.append(
            f"{name}: {len(long)} row(s) have more fields than the header's {width} "
            f"(lines {_lines(long)}); {kept}"
        )
    if short:
        warnings.append(
            f"{name}: {len(short)} row(s) have fewer fields than the header (lines "
            f"{_lines(short)}); the missing cells are left empty"
        )
    if blank:
        warnings.append(
            f"{name}: {len(blank)} row(s) with every cell empty were skipped (lines "
            f"{_lines(blank)}); the rows after them are numbered without them"
        )
    if warnings:
        df.attrs["warnings"] = warnings
    return df


def _quote_left_open(text: str, delimiter: str) -> bool:
    """Whether a quoted field of ``text`` runs to the end of the data (the lenient reader then
    reads the rest of the file as one cell; the strict one says so).

    >>> _quote_left_open('a,b\\n"x,1\\n2,3\\n', ","), _quote_left_open('a,b\\n"x\\ny",1\\n', ",")
    (True, False)
    """
    try:
        for _ in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True):
            pass
    except csv.Error as exc:
        return "unexpected end of data" in str(exc)
    return False


def _last_filled(row: list[str]) -> int:
    """Index of the last non-blank cell of ``row`` (-1 when all are blank).

    >>> _last_filled(["a", "", "b", " "]), _last_filled([" "])
    (2, -1)
    """
    return next((i for i in range(len(row) - 1, -1, -1) if row[i].strip()), -1)


def _lines(numbers: list[int]) -> str:
    """The first line numbers, then ``...`` when there are more.

    >>> _lines([2, 3]), _lines(list(range(1, 9)))
    ('2, 3', '1, 2, 3, 4, 5 ...')
    """
    shown = ", ".join(map(str, numbers[:MAX_WARNINGS]))
    return shown + (" ..." if len(numbers) > MAX_WARNINGS else "")


def _read_json(text: str, name: str) -> pd.DataFrame:
    try:
        data = load_json(text)
    except json.JSONDecodeError as exc:
        raise SourceError(
            name, f"invalid JSON: {exc.msg} (column {exc.colno})", exc.lineno
        ) from None
    except LimitError as exc:
        raise SourceLimitError(name, str(exc)) from None
    if isinstance(data, dict) and all(isinstance(v, list) for v in data.values()):
        lengths = {len(v) for v in data.values()}
        if len(lengths) > 1:
            raise SourceError(name, "JSON columns have different lengths")
        data = [dict(zip(data, vals, strict=True)) for vals in zip(*data.values(), strict=True)]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise SourceError(name, "expected a list of records (objects) or an object of columns")
    check_count(name, len(data), "table_rows", "rows")
    columns: dict[str, None] = {}
    for record in data:
        columns.update(dict.fromkeys(record))
    if not columns:
        raise SourceError(name, "no columns found")
    found = f"{len(data):,} records x {len(columns):,} columns = {len(data) * len(columns):,} cells"
    check_count(name, len(data) * len(columns), "facts", "cells", found)
    rows = [[cell_text(r.get(c)) for c in columns] for r in data]  # JSON keys are strings
    return text_frame(rows, unique_header(list(columns)))


def _cell_warnings(df: pd.DataFrame, name: str) -> list[str]:
    """Warnings for cells holding markup or formula-like text (one pass over the values: a
    table may have hundreds of thousands of columns, and column access is slow)."""
    found: dict[str, list[str]] = {"html": [], "formula": []}
    columns = [str(c) for c in df.columns]
    for i, row in enumerate(df.to_numpy(dtype=object), 1):
        for col, cell in zip(columns, row, strict=True):
            text = str(cell)
            if looks_like_html(text):
                found["html"].append(f"row {i}, column {col!r}")
            elif looks_like_formula(text):
                found["formula"].append(f"row {i}, column {col!r}")
    out = []
    if found["html"]:
        where = "; ".join(found["html"][:3])
        out.append(
            f"{name}: {len(found['html'])} cell(s) contain HTML/JS markup ({where}); "
            "it is kept as plain text and never rendered"
        )
    if found["formula"]:
        where = "; ".join(found["formula"][:3])
        out.append(
            f"{name}: {len(found['formula'])} cell(s) look like spreadsheet formulas "
            f"({where}); kept as text, and exports defuse them"
        )
    return out
