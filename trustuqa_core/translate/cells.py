"""Cell text and column names shared by the table readers (delimited text, JSON, XLSX).

>>> cell_text(None), cell_text(True), cell_text(2.5), cell_text({"a": 1})
('', 'true', '2.5', '{"a": 1}')
>>> unique_header(["Score", "Score", ""])
['Score', 'Score (2)', 'column 3']
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["cell_text", "unique_header", "text_frame", "MAX_WARNINGS"]

MAX_WARNINGS = 5


def cell_text(value: object) -> str:
    """The text of one cell value read from JSON or a spreadsheet (NUL removed)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def renamed_columns(cells: Sequence[object], header: Sequence[str]) -> list[str]:
    """What :func:`unique_header` renamed, in words (for a file's warnings): a column with no
    name, a name the header repeats.

    >>> cells = ["Name", "", "Goals", "Goals"]
    >>> renamed_columns(cells, unique_header(cells))  # doctest: +NORMALIZE_WHITESPACE
    ["column 2 has no name in the header: it is called 'column 2'",
     "the header repeats 'Goals': column 4 is called 'Goals (2)'"]
    >>> renamed_columns(["a", "b"], ["a", "b"])
    []
    """
    out = []
    for i, (cell, name) in enumerate(zip(cells, header, strict=False), 1):
        text = " ".join(str(cell).split())
        if not text:
            out.append(f"column {i} has no name in the header: it is called {name!r}")
        elif name != text:
            out.append(f"the header repeats {text!r}: column {i} is called {name!r}")
    return out


def unique_header(cells: Sequence[object]) -> list[str]:
    """Column names made unique: a repeated name gets the first free ``" (n)"`` suffix that no
    other column of the header uses; empty names become ``"column <i>"``. Linear time, however
    many columns repeat.

    >>> unique_header(["a", "a", "a (2)"]), unique_header(["a", "a (2)", "a", ""])
    (['a', 'a (3)', 'a (2)'], ['a', 'a (2)', 'a (3)', 'column 4'])
    """
    names = [" ".join(str(c).split()) or f"column {i}" for i, c in enumerate(cells, 1)]
    reserved = set(names)
    taken: set[str] = set()
    next_suffix: dict[str, int] = {}
    out = []
    for text in names:
        name = text
        if name in taken:
            n = next_suffix.get(text, 2)
            while f"{text} ({n})" in reserved or f"{text} ({n})" in taken:
                n += 1
            next_suffix[text] = n + 1
            name = f"{text} ({n})"
        taken.add(name)
        out.append(name)
    return out


def text_frame(rows: Sequence[Sequence[str]], header: Sequence[str]) -> pd.DataFrame:
    """A DataFrame of cell texts built from one 2-D object array (a single block: fast even
    with hundreds of thousands of columns). Every row must have ``len(header)`` cells.

    >>> text_frame([["Ann", "1999"]], ["Name", "Year"]).to_dict("records")
    [{'Name': 'Ann', 'Year': '1999'}]
    >>> text_frame([], ["Name"]).shape
    (0, 1)
    """
    values = np.empty((len(rows), len(header)), dtype=object)
    for i, row in enumerate(rows):
        values[i, :] = row
    return pd.DataFrame(values, columns=list(header), dtype=object, copy=False)
