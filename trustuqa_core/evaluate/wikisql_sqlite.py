"""An SQLite re-creation of WikiSQL's database, used only to *explain* ceiling failures.

WikiSQL's gold answers come from executing the SQL on SQLite tables whose text was
lower-cased and whose numeric ("real") columns got SQLite's REAL affinity. A number written
with thousands separators (``21,500``) cannot be converted, so SQLite kept it as TEXT: such
a value sorts above every number (``'21,500' > 30000`` is true), is never ``=`` to a number,
and ``AVG``/``SUM`` read only its leading digits (``21``). Those gold answers cannot be
rebuilt from the table's values. The tables we have (TrustUQA's copies) dropped the
separators (``21500``), so the re-creation puts them back. :func:`explain_failure` re-runs
the SQL in three ways:

* ``db``: the original storage: numbers of 1,000 and more written with separators, as text,
* ``clean``: every number stored as a number,
* ``text``: every column text (string equality, as for WikiSQL's text columns),

and names the failure by which re-creation reproduces the gold answer.

>>> header, rows = ["Team", "Crowd"], [["Carlton", "21500"], ["Geelong", "9,000"]]
>>> sql = {"sel": 1, "agg": 5, "conds": []}
>>> sqlite_answer(header, rows, sql, "db"), sqlite_answer(header, rows, sql, "clean")
([15.0], [15250.0])
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from ..numbers import parse_number
from ..translate import read_table
from .wikisql_gold import AGG_NAMES, wikisql_match

__all__ = ["Storage", "column_is_real", "sqlite_answer", "explain_failure", "read_rows",
           "with_separators"]

Storage = Literal["db", "clean", "text"]
_SQL_OPS = ("=", ">", "<")
_NUM = re.compile(r"[-+]?\d*\.\d+|\d+")  # WikiSQL's dbengine fallback for condition numbers


def read_rows(path: Path | str) -> tuple[list[str], list[list[str]]]:
    """Header and cell texts of a table file, read exactly as the graph reads it."""
    df = read_table(path)
    return [str(c) for c in df.columns], [[str(c) for c in row] for row in df.to_numpy()]


_PLAIN_NUMBER = re.compile(r"^[+-]?(?:\d+|\d{1,3}(?:,\d{3})+)?(?:\.\d+)?$")


def column_is_real(cells: Sequence[str]) -> bool:
    """A column is numeric ("real") when every non-empty cell is a plain number (thousands
    separators allowed; ``12%`` or ``$5`` make it text).

    >>> column_is_real(["1", "21,500", ""]), column_is_real(["1", "1.7%"]), column_is_real([""])
    (True, False, False)
    """
    filled = [c.strip() for c in cells if c.strip()]
    return bool(filled) and all(_PLAIN_NUMBER.match(c) and c not in ("+", "-", ".")
                                for c in filled)


_BIG_INT = re.compile(r"^([+-]?)(\d{4,})((?:\.\d+)?)$")


def with_separators(text: str) -> str:
    """``21500`` -> ``21,500`` (the integer part of plain numbers of four digits or more).

    >>> with_separators("1126.84"), with_separators("999"), with_separators("n/a")
    ('1,126.84', '999', 'n/a')
    """
    m = _BIG_INT.match(text.strip())
    return f"{m[1]}{int(m[2]):,}{m[3]}" if m else text


def _cell(text: str, real: bool, storage: Storage) -> object:
    if not text.strip():
        return None
    if real and storage == "clean":
        number = parse_number(text)
        if number is not None:
            return number
    if real and storage == "db":
        return with_separators(text).lower()
    return text.lower()


def _cond(value: object, real: bool) -> object:
    if not real:
        return value.lower() if isinstance(value, str) else value
    if isinstance(value, int | float):
        return float(value)
    number = parse_number(str(value))
    if number is not None:
        return number
    found = _NUM.findall(str(value))
    return float(found[0]) if found else str(value).lower()


def sqlite_answer(
    header: Sequence[str], rows: Sequence[Sequence[str]], sql: Mapping[str, object],
    storage: Storage,
) -> list[object]:
    """Execute WikiSQL ``sql`` on an in-memory SQLite copy of the table (see module doc)."""
    n = len(header)
    real = [storage != "text" and column_is_real([r[i] for r in rows]) for i in range(n)]
    columns = ", ".join(f"c{i} {'REAL' if real[i] else 'TEXT'}" for i in range(n))
    with sqlite3.connect(":memory:") as db:
        db.execute(f"CREATE TABLE t ({columns})")
        marks = ", ".join("?" * n)
        db.executemany(f"INSERT INTO t VALUES ({marks})",
                       [[_cell(r[i], real[i], storage) for i in range(n)] for r in rows])
        sel, agg = int(sql["sel"]), int(sql["agg"])  # type: ignore[call-overload]
        target = f"{AGG_NAMES[agg]}(c{sel})" if agg else f"c{sel}"
        where, params = [], []
        for c, op, value in sql["conds"]:  # type: ignore[attr-defined]
            where.append(f"c{int(c)} {_SQL_OPS[int(op)]} ?")
            params.append(_cond(value, real[int(c)]))
        query = f"SELECT {target} FROM t" + (" WHERE " + " AND ".join(where) if where else "")
        found = [row[0] for row in db.execute(query, params)]
    return found or [None]


def explain_failure(
    path: Path | str, sql: Mapping[str, object], gold: Sequence[object], pred: Sequence[str],
    inexact: Sequence[str] = (),
) -> tuple[str | None, str]:
    """(category, detail) for a ceiling failure, or ``(None, detail)`` when the SQLite
    re-creations do not explain it (the caller keeps its own category).

    Categories: ``gold_text_number`` (the gold needs numbers stored as text),
    ``wikisql_text_equality`` (WikiSQL compared text exactly where we compare numbers by
    value or normalise punctuation).
    """
    header, rows = read_rows(path)
    db = sqlite_answer(header, rows, sql, "db")
    if wikisql_match([str(x) for x in db if x is not None], gold):
        clean = sqlite_answer(header, rows, sql, "clean")
        if not wikisql_match([str(x) for x in clean if x is not None], gold):
            texts = [with_separators(r[c]) for r in rows for c in _used_columns(sql)]
            shown = ", ".join([repr(t) for t in texts if "," in t][:3])
            return "gold_text_number", (f"with numbers stored as numbers SQLite gives {clean[:5]}; "
                                        f"the gold {list(gold)[:5]} needs text-stored numbers "
                                        f"such as {shown}")
        if inexact:
            return "wikisql_text_equality", (f"no cell equals {'; '.join(inexact)} exactly, so "
                                             "SQL finds nothing; the Mapper's normalised match "
                                             f"found {list(pred)[:5]}")
        twins = _numeric_twins(header, rows, sql)
        if twins:
            return "wikisql_text_equality", (f"WikiSQL compares text cells as strings; {twins} "
                                             "are equal as numbers")
        return None, f"SQLite re-creation reproduces the gold answer {db[:5]}"
    text = sqlite_answer(header, rows, sql, "text")
    if wikisql_match([str(x) for x in text if x is not None], gold):
        return "wikisql_text_equality", ("WikiSQL compared this column as text (string "
                                          "equality); we compare numbers by value")
    return None, f"no SQLite re-creation reproduces the gold answer (db: {db[:5]})"


def _numeric_twins(header: Sequence[str], rows: Sequence[Sequence[str]],
                   sql: Mapping[str, object]) -> str:
    """A text-column equality condition whose number other cells also equal ('5.1', '5.10')."""
    for c, op, value in sql["conds"]:  # type: ignore[attr-defined]
        cells = [r[int(c)] for r in rows]
        number = parse_number(str(value))
        if int(op) != 0 or number is None or column_is_real(cells):
            continue
        same = sorted({x for x in cells if parse_number(x) == number})
        if len(same) > 1 or (same and same[0].lower() != str(value).lower()):
            return " and ".join(repr(x) for x in same) + f" (column {header[int(c)]!r})"
    return ""


def _used_columns(sql: Mapping[str, object]) -> list[int]:
    conds = [int(c) for c, _, _ in sql["conds"]]  # type: ignore[attr-defined]
    return sorted({int(sql["sel"]), *conds})  # type: ignore[call-overload]
