"""*How many devices have no notes?*, *which nations did not win any gold medals?*: a column
named right after *no* / *not have* / *without* is a condition that its cell holds nothing.

A numeric column holding a ``0`` cell reads ``= 0`` (*no gold medals*: ``Gold = 0``); any
other column reads as the rows whose cell is blank: every row but those holding one of the
column's values (:data:`.linking.HAS`, negated; a placeholder cell such as ``—`` is a value
and is not read as blank). The condition then serves the plain plan like any other: a
count, the column the question asks for, a yes/no existence.

Not read this way: *no more than* / *no higher than* (a bound, not an absence), a column a
condition already uses, or words a condition was read from (*did not have a top ten
finish* is the negated condition *top ten*).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Device,Notes\\nA,fast\\nB,\\nC,\\n"])
>>> [(c.column, c.cmp, c.negated) for c in link_table("how many devices have no notes?", g).conds]
[('Notes', 'has', True)]
"""

from __future__ import annotations

import re

from .link_state import LinkState
from .linking import HAS, Cond, header_mentions

__all__ = ["rule_no_value", "absence_cues"]

#: verbs between *not* and the column: *did not have*, *did not win any*
_VERBS = frozenset({"have", "has", "had", "earn", "earned", "win", "won", "get", "got",
                    "receive", "received", "score", "scored", "list", "record", "include",
                    "contain", "show"})
#: words between the cue and the column name
_FILLERS = frozenset({"a", "an", "any", "the", "single"})
#: *no* before these is a bound (*no more than 3*), not an absence
_BOUNDS = frozenset({"more", "less", "fewer", "higher", "lower", "larger", "bigger", "smaller",
                     "greater", "later", "earlier", "longer", "shorter", "better", "worse",
                     "one", "other", "matter", "sooner"})


#: the word *no* itself (tokens read *no* as *number*, for *No. 21*)
_NO = re.compile(r"\bno\b(?!\.)")


def absence_cues(q: list[str], question: str) -> list[tuple[int, int]]:
    """(cue, after) per absence cue in ``q`` (the tokens of ``question``): the position of
    *no*, *without*, *not* / *n't* and the position right after it and a verb of having
    (fillers *a*, *an*, *any* skipped).

    >>> from trustuqa_core.writers.linking import tokens
    >>> def cues(text: str) -> list[int]:
    ...     return [after for _, after in absence_cues(tokens(text), text)]
    >>> cues("how many devices have no notes?"), cues("which nations didn't win any gold medals?")
    ([5], [6])
    >>> cues("how many teams scored no more than 3 goals?"), cues("who wore the no. 9 shirt?")
    ([], [])
    """
    said_no = bool(_NO.search(question.lower()))
    out: list[tuple[int, int]] = []
    for i, w in enumerate(q):
        j = -1
        if w == "without" or said_no and w in ("no", "number") and (
                i + 1 < len(q) and q[i + 1] != "of" and not q[i + 1][:1].isdigit()):
            j = i + 1
        elif (w == "not" or w == "t" and i and q[i - 1].endswith("n")) and i + 1 < len(q) \
                and q[i + 1] in _VERBS:
            j = i + 2
        if j < 0:
            continue
        while j < len(q) and q[j] in _FILLERS:
            j += 1
        if j < len(q) and q[j] not in _BOUNDS:
            out.append((i, j))
    return out


def rule_no_value(s: LinkState) -> bool:
    """A column named right after *no* / *not have* / *without* (at most one word between):
    its cell holds nothing, ``= 0`` for a numeric column with a ``0`` cell, else blank (the
    negated :data:`.linking.HAS`)."""
    changed = False
    for cue, at in absence_cues(s.q, s.question):
        if s.q[cue] == "number" and any(m[0] >= 0.5 and m[1] <= cue < m[2] and m[2] - m[1] > 1
                                        for m in s.mentions.values()):
            continue  # "the No in series": the word starts a column's name
        after = header_mentions(s.q[at:at + 6], s.table.columns)  # not "not" for "Notes"
        named = [(col, m) for col, m in after.items() if m[0] >= 0.5 and m[1] <= 1]
        if len(named) != 1:
            continue
        column, (_, start, end) = named[0][0], (0.0, at + named[0][1][1], at + named[0][1][2])
        span = range(at - 1, end)
        if any(c.column == column or set(span) & set(range(*c.span)) for c in s.conds):
            continue
        zero = s.table.numeric.get(column) and any(
            col == column for col, _ in s.table.cells.get(("0",), []))
        s.conds.append(Cond(column, "=", "0", (start, end)) if zero
                       else Cond(column, HAS, "", (start, end), negated=True))
        s.covered |= set(range(at, end))
        changed = True
    return changed
