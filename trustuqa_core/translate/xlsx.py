"""XLSX workbooks -> a DataFrame of cell texts, with the cost bounded before parsing.

An XLSX file is a zip of XML parts, so a small file can stand for a huge sheet. Before openpyxl
opens anything: the zip directory's sizes are checked against ``unzipped_bytes``; then every XML
part is streamed through zlib (fast, bounded by its declared size) to count its rows, cells and
formulas, which are checked against ``table_rows`` and ``facts``. Only then is the first sheet
parsed, a second time only if the workbook holds formulas (to report them). The sheet's
declared dimension is never trusted.

>>> import openpyxl
>>> wb = openpyxl.Workbook()
>>> wb.active.append(["Name", "Year"]); wb.active.append(["Ann", 1999])
>>> buf = io.BytesIO(); wb.save(buf)
>>> read_xlsx(buf.getvalue(), "t.xlsx").to_dict("records")
[{'Name': 'Ann', 'Year': '1999'}]
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..errors import SourceError
from ..limits import current_limits
from .cells import MAX_WARNINGS, cell_text, text_frame, unique_header
from .text import check_count, check_zip_size

__all__ = ["read_xlsx", "SheetCounts", "count_sheet"]

_CHUNK = 1024 * 1024
_TAGS = {b"row": 0, b"c": 1, b"f": 2}  # what is counted, and where
_PLAIN = [[b"<" + t + end for end in (b" ", b">", b"/")] for t in _TAGS]
_PREFIXED = re.compile(rb"<(?:\w{1,16}:)?(row|c|f)[\s>/]")  # also <x:row ...>
_LONGEST = 24  # longer than any tag _PREFIXED matches (at most 22 bytes)


@dataclass(frozen=True)
class SheetCounts:
    """Rows, cells and formulas of a sheet's XML, counted without parsing it."""

    rows: int
    cells: int
    formulas: int


def count_sheet(archive: zipfile.ZipFile, member: str) -> SheetCounts:
    """Count the ``<row>``, ``<c>`` and ``<f>`` opening tags of one XML part, streaming it
    through zlib, without parsing it (a few ms per MB).

    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w") as z:
    ...     z.writestr("s.xml", "<row r='1'><c><v>1</v></c><x:c><f>A1</f></x:c></row><row/>")
    >>> count_sheet(zipfile.ZipFile(buf), "s.xml")
    SheetCounts(rows=2, cells=2, formulas=1)
    """
    counts = [0, 0, 0]
    tail = b""
    with archive.open(member) as stream:
        while chunk := stream.read(_CHUNK):
            text = tail + chunk
            cut = _safe_cut(text)
            _add_counts(counts, text[:cut])
            tail = text[cut:]
    _add_counts(counts, tail)
    return SheetCounts(*counts)


def _add_counts(counts: list[int], text: bytes) -> None:
    """Add the tags of ``text``: ``bytes.count`` (C speed) unless a namespace prefix is used,
    then a regular expression (about 50 ms per MB)."""
    if b":row" in text or b":c" in text or b":f" in text:
        for tag in _PREFIXED.findall(text):
            counts[_TAGS[tag]] += 1
        return
    for i, forms in enumerate(_PLAIN):
        counts[i] += sum(text.count(form) for form in forms)


def _safe_cut(text: bytes) -> int:
    """Where to split ``text`` so that no tag is cut in two. A counted tag starts with ``<``
    and holds no other, so splitting at the last ``<`` is safe; when that is further back than
    the longest tag, the tag it starts is complete and the split is the end."""
    last = text.rfind(b"<")
    return last if last > len(text) - _LONGEST else len(text)


def read_xlsx(data: bytes, name: str) -> pd.DataFrame:
    """The first sheet of a workbook as a DataFrame of strings; formula cells keep their last
    computed value and are listed in ``df.attrs["warnings"]``."""
    import openpyxl  # imported lazily: only needed for spreadsheets

    check_zip_size(data, name)
    formulas_found = _precheck(data, name)
    try:
        values_wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many unrelated types for bad files
        raise SourceError(name, f"not a readable .xlsx workbook ({type(exc).__name__})") from None
    formula_wb = None
    try:
        if not values_wb.worksheets:
            raise SourceError(name, "the workbook has no worksheet")
        sheet = values_wb.worksheets[0]
        fsheet = None
        if formulas_found:
            formula_wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
            fsheet = formula_wb.worksheets[0]
        for ws in (sheet, fsheet):  # the declared size (<dimension>) may lie: never pad to it
            if ws is not None:
                ws.reset_dimensions()
        rows, warnings, formulas = _sheet_rows(sheet, fsheet, name)
    except SourceError:
        raise
    except Exception as exc:  # noqa: BLE001 - openpyxl raises many unrelated types for bad sheets
        detail = f"{type(exc).__name__}: {str(exc)[:120]}"
        raise SourceError(name, f"the first sheet cannot be read ({detail})") from None
    finally:
        values_wb.close()
        if formula_wb is not None:
            formula_wb.close()
    rows = [r for r in rows if any(str(c).strip() for c in r)]
    if not rows:
        raise SourceError(name, "the first sheet is empty")
    width = max(len(r) for r in rows)
    found = f"{len(rows):,} rows x {width:,} columns = {width * len(rows):,} cells"
    check_count(name, width * len(rows), "facts", "cells", found)
    rows = [r + [""] * (width - len(r)) for r in rows]
    df = text_frame(rows[1:], unique_header(rows[0]))
    if warnings:
        more = formulas - len(warnings)
        df.attrs["warnings"] = warnings + ([f"... and {more} more"] if more > 0 else [])
    return df


def _precheck(data: bytes, name: str) -> bool:
    """Refuse a workbook with a part holding too many rows or cells before openpyxl reads it
    (opening a workbook already scans every sheet that declares no dimension); True when some
    part holds formulas. Every XML part is counted: a sheet may live at any path."""
    formulas = False
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.namelist():
            if not member.lower().endswith(".xml"):
                continue
            counts = count_sheet(archive, member)
            where = f"{member} holds"
            check_count(name, counts.rows - 1, "table_rows", "rows",
                        f"{where} {counts.rows:,} rows")
            check_count(name, counts.cells + counts.rows, "facts", "cells",
                        f"{where} {counts.cells:,} cells in {counts.rows:,} rows")
            formulas = formulas or counts.formulas > 0
    return formulas


def _sheet_rows(sheet: Any, fsheet: Any, name: str) -> tuple[list[list[str]], list[str], int]:
    """Cell texts row by row, formula warnings (the first few) and the formula count; stops at
    the ``table_rows`` limit and at the ``facts`` limit of cells read (empty ones included)."""
    rows: list[list[str]] = []
    warnings: list[str] = []
    formulas = 0
    max_cells = current_limits().facts
    cells = 0
    formula_rows = fsheet.iter_rows() if fsheet is not None else None
    for r, vals in enumerate(sheet.iter_rows(), 1):
        forms = next(formula_rows, ()) if formula_rows is not None else ()
        row = [_cell(cell.value) for cell in vals]
        for fcell in forms:
            if isinstance(fcell.value, str) and fcell.value.startswith("="):
                formulas += 1
                if formulas <= MAX_WARNINGS:
                    ref = f"{fcell.column_letter}{r}"
                    col = fcell.column - 1
                    empty = col >= len(row) or row[col] == ""
                    kept = "left empty" if empty else "its last computed value is used"
                    warnings.append(f"{name}: cell {ref} holds a formula; {kept}")
        cells += len(row) + 1  # empty cells cost reading time too
        if cells > max_cells:
            found = f"more than {max_cells:,} cells, empty ones included"
            check_count(name, cells, "facts", "cells", found)
        rows.append(row)
        check_count(name, len(rows) - 1, "table_rows", "rows")  # the first row is the header
    return rows, warnings, formulas


def _cell(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime) and value.time() == dt.time(0):
        return value.date().isoformat()
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    return cell_text(value)
