"""``max``/``min`` over values that are not numbers, read without an LLM where the reading is
unambiguous.

Two readings, each stated in the step's notes:

* **one value**: the largest (or smallest) of a single distinct value is that value, whatever
  the order;
* **table order**: when the step's own description asks for the row number ("Get the max
  row_number of output_of_query1"), or the question asks for the last / latest (``max``) or
  the first / earliest (``min``) and not the other, ``max`` is the value of the last row and
  ``min`` the value of the first row, in table order (rows read from the values' witnesses).

* **scores**: when every value is a score or record (``W 24–17``), each reads as the one
  number the question asks for (:func:`.scores.read_score`: the first, the second for
  "against"/"away", the larger for "winning", the sum for "total").

* **bracketed numbers**: when every value is a name with a number in brackets
  (``Nenê (12)``, as game tables list their leaders), by that number (Stop 14).

* **frequency**: when the question asks for the most or the least of something counted
  ("which owner has the most networks?", "which party was elected the least?") and some
  value occurs more than once, ``max`` is the value that occurs most often and ``min`` the
  one that occurs least often, if exactly one does.

Anything else returns ``None`` and the caller hands the step to the LLM fallback, marked
unverified, as before.

>>> asks_row_order("Get the max row_number of output_of_query1")
True
>>> asks_row_order("Find the team with the most wins")
False
"""

from __future__ import annotations

import re
from collections import Counter

from ..ops.base import Context, elem_text
from ..results import Result, Scalar
from .scores import read_score

__all__ = ["asks_row_order", "extreme_without_numbers"]

_ROW_ORDER = re.compile(r"\brow[_ ]?(?:number|num|index|id)s?\b", re.I)


def asks_row_order(description: str) -> bool:
    """True when a step description asks for the row number (``row_number``, ``row index``)."""
    return bool(_ROW_ORDER.search(description or ""))


def _row_of(ctx: Context, witnesses: tuple[int, ...]) -> tuple[int, int] | None:
    """``(source, row)`` of the last witness fact whose head is a table row."""
    g = ctx.graph
    for fact in reversed(witnesses):
        pos = g.row_position(g.head_of(fact))
        if pos is not None:
            return pos
    return None


# a name with its number in brackets, as game tables list leaders: 'Nenê (12)', 'K. Martin (8)'
_BRACKETED = re.compile(r"^\s*\S.*?\s*\((\d+(?:\.\d+)?)\)\s*$", re.S)


def _extreme_bracketed(ctx: Context, name: str, s: Result) -> Result | None:
    """Every value a name with a number in brackets (``Nenê (12)``): compared by that
    number (the leader's count), noted; ``None`` otherwise."""
    texts = [elem_text(ctx.graph, e) for e in s.elems]
    found = [_BRACKETED.match(t) for t in texts]
    if not all(found):
        return None
    numbers = [float(m.group(1)) for m in found if m is not None]
    best = max(numbers) if name == "max" else min(numbers)
    keep = [i for i, x in enumerate(numbers) if x == best]
    ctx.notes.append(f"{name}(): every value is a name with a number in brackets: compared by "
                     f"that number, the {name}imum is {best:g} ({texts[keep[0]]!r})")
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep)).distinct()


def extreme_without_numbers(ctx: Context, name: str, s: Result) -> Result | None:
    """``max``/``min`` (``name``) of a non-empty bag whose values read as no number, or
    ``None`` when neither reading of this module applies."""
    d = s.distinct()
    if len(d) == 1:
        ctx.notes.append(
            f"{name}(): the values are not numbers, but there is only one "
            f"({elem_text(ctx.graph, d.elems[0])!r}), so it is the {name}imum"
        )
        return d
    scored = _extreme_score(ctx, name, s)
    if scored is not None:
        return scored
    bracketed = _extreme_bracketed(ctx, name, s)
    if bracketed is not None:
        return bracketed
    frequent = _extreme_frequency(ctx, name, s)
    if frequent is not None:
        return frequent
    order_cue = _order_cue(ctx.question, name)
    if not asks_row_order(ctx.description) and order_cue is None:
        return None
    rows = [_row_of(ctx, w) for w in s.witnesses]
    if any(r is None for r in rows) or any(isinstance(e, Scalar) for e in s.elems):
        return None
    positions = [r for r in rows if r is not None]
    if len({src for src, _ in positions}) != 1:
        return None  # rows of several tables have no common order
    pick = max(positions) if name == "max" else min(positions)
    keep = [i for i, r in enumerate(rows) if r == pick]
    why = ("the step asks for the row number" if order_cue is None
           else f"the question asks for the {order_cue!r}")
    ctx.notes.append(
        f"{name}(): the values are not numbers and {why}: the "
        f"value of the {'last' if name == 'max' else 'first'} row in table order "
        f"(row {pick[1]} of {len(set(positions))})"
    )
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep)).distinct()


# "his last competition", "the latest album" (max); "the first album", "earliest" (min)
_LAST_CUE = re.compile(r"\b(last|latest|final|most recent)\b")
_FIRST_CUE = re.compile(r"\b(first|earliest)\b")


def _order_cue(question: str | None, name: str) -> str | None:
    """The word asking for the last (``max``) or first (``min``) in table order, when the
    question has one for that direction and none for the other; else ``None``.

    >>> _order_cue("when was his last competition?", "max"), _order_cue("first?", "max")
    ('last', None)
    """
    q = (question or "").lower()
    want, other = (_LAST_CUE, _FIRST_CUE) if name == "max" else (_FIRST_CUE, _LAST_CUE)
    m = want.search(q)
    return m.group(1) if m is not None and other.search(q) is None else None


# a span of years still open: '1973–present' (read as its first year, as a closed span is)
_OPEN_SPAN = re.compile(r"^\s*(\d{4})\s*[–—\-−]\s*(?:present|now|today|current)?\s*$", re.I)


def _read_score_or_span(text: str, question: str | None) -> tuple[float, str] | None:
    score = read_score(text, question)
    if score is not None:
        return score
    m = _OPEN_SPAN.match(text)
    return (float(m.group(1)), "its first number") if m else None


def _extreme_score(ctx: Context, name: str, s: Result) -> Result | None:
    """The values whose score reading is the largest (smallest), when all are scores or
    spans of years (at most one in ten may be neither, such as a 'Bye' row: left out, noted)."""
    texts = [elem_text(ctx.graph, e) for e in s.elems]
    readings = [_read_score_or_span(t, ctx.question) for t in texts]
    missing = [t for t, r in zip(texts, readings, strict=True) if r is None]
    if len(missing) == len(readings) or len(missing) > 0.1 * len(readings):
        return None
    values = [r[0] for r in readings if r is not None]
    pick = max(values) if name == "max" else min(values)
    keep = [i for i, r in enumerate(readings) if r is not None and r[0] == pick]
    how = next(r[1] for r in readings if r is not None)
    ctx.notes.append(
        f"{name}(): the values are scores or records, each read as {how}: "
        f"{name}imum {pick:g} ({elem_text(ctx.graph, s.elems[keep[0]])!r})"
        + (f"; left out (not scores): {', '.join(repr(t) for t in missing[:3])}"
           if missing else "")
    )
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep)).distinct()


# "the most networks", "elected the least", "the fewest wins"; not "the most recent"
_COUNTED = re.compile(r"\b(most|least|fewest)\b(?!\s+(?:recent|recently|recents?)\b)")


def _extreme_frequency(ctx: Context, name: str, s: Result) -> Result | None:
    """The value occurring most (``max``) or least (``min``) often, when the question asks
    "most"/"least"/"fewest", some value repeats, and exactly one value is that frequent."""
    cue = _COUNTED.search((ctx.question or "").lower())
    if cue is None or (cue.group(1) == "most") != (name == "max"):
        return None
    texts = [elem_text(ctx.graph, e).strip() for e in s.elems]
    counts = Counter(t.casefold() for t in texts)
    if max(counts.values()) < 2:
        return None
    best = max(counts.values()) if name == "max" else min(counts.values())
    winners = [t for t, c in counts.items() if c == best]
    if len(winners) != 1:
        return None
    keep = [i for i, t in enumerate(texts) if t.casefold() == winners[0]]
    shown = ", ".join(f"{t!r} {c}" for t, c in counts.most_common(4))
    ctx.notes.append(
        f"{name}(): the values are not numbers and the question asks {cue.group(1)!r}: the "
        f"value occurring {'most' if name == 'max' else 'least'} often ({shown} ...)"
    )
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep)).distinct()
