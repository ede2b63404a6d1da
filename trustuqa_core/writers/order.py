"""Row-order readings of the offline linker that :mod:`.tables` asks about.

*Who is at the top of the list?*, *which constituency is listed on top?*, *who was the top
finisher from Poland?*: *top* with nothing to rank by (no number or time column named, and the
column asked for is text, whose largest value means nothing) is the table's first row among
the rows the question names, as *first* is.

>>> from trustuqa_core.writers.linking import tokens
>>> top_is_first_row(tokens("who is at the top of the list?"), set())
True
>>> top_is_first_row(tokens("who were the top ten?"), set())
False
"""

from __future__ import annotations

import re

from .linking import Table, number_words

__all__ = ["top_is_first_row", "ordinal_column"]

#: words after *top* that make it a bound or a name rather than the first row
_NOT_AFTER_TOP = frozenset({"speed", "ten", "three", "five", "scorer", "scorers", "half",
                            "level", "division", "flight", "tier", "seed", "seeds", "number",
                            "amount", "total"})
#: superlatives that rank by a value (then *top* is not the row order)
_OTHER_SUPERLATIVES = frozenset({"most", "least", "highest", "lowest", "largest", "smallest",
                                 "greatest", "fewest", "longest", "shortest", "best", "worst",
                                 "fastest", "slowest", "biggest", "oldest", "youngest"})


def top_is_first_row(q: list[str], covered: set[int]) -> bool:
    """*top* stands free (not inside a value or a column name, not *top ten*, *top speed*)
    and no other superlative ranks by a value."""
    if _OTHER_SUPERLATIVES & set(q):
        return False
    for i, word in enumerate(q):
        if word != "top" or i in covered:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        return not (nxt.isdigit() or nxt in number_words() or nxt in _NOT_AFTER_TOP)
    return False


_ORDINAL = re.compile(r"^\s*(?:t-?)?\d+\s*(?:st|nd|rd|th)\b", re.IGNORECASE)


def ordinal_column(table: Table, column: str) -> bool:
    """Most of the column's cells are places (``5th``, ``1st``, ``T-3rd``): its *top* is the
    least place, not the first row.

    >>> t = Table("t", ["Year", "Position"], {("5th",): [("Position", "5th")],
    ...           ("10th",): [("Position", "10th")], ("1995",): [("Year", "1995")]}, {}, 1, {})
    >>> ordinal_column(t, "Position"), ordinal_column(t, "Year")
    (True, False)
    """
    labels = [label for options in table.cells.values() for c, label in options if c == column]
    return bool(labels) and sum(bool(_ORDINAL.match(x)) for x in labels) >= 0.5 * len(labels)
