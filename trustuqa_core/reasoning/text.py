"""String functions over earlier results: ``split`` a value at a delimiter, ``extract_number``.

Replies split a score or a list cell (``split(string='output_of_query2', delimiter='-')``)
and then compute with the parts (``subtract(set1='output_of_query3[0]', ...)``, read by
:func:`.operands.operand_result`). The parts keep the witnesses of the value they came from,
and the step's notes say how each value was split. A dash delimiter splits at any dash
(``-``, ``–``, ``—``, ``−``), since tables write scores with all of them.

>>> split_text("2–1", "-"), split_text("Oslo, Bergen", ",")
(['2', '1'], ['Oslo', 'Bergen'])
>>> _scalar("W 45").value, _scalar("Oslo").value
(45.0, 'Oslo')
>>> first_number("W 113–89"), first_number("none") is None
('113', True)
"""

from __future__ import annotations

import re

from ..numbers import SCORE, parse_number
from ..ops.base import Context, elem_text, resolve_set
from ..results import Result, Scalar
from ..rewrite import Op
from .operands import not_applicable

__all__ = ["fn_split", "fn_extract_number", "fn_score_parts", "split_text", "first_number"]

DELIMITER_NAMES = frozenset({"delimiter", "sep", "separator", "by", "char", "on", "split_by",
                             "delim"})
_DASHES = "-–—−"
_NUMBER = re.compile(r"[+\-]?\d+(?:,\d{3})*(?:\.\d+)?")


def split_text(text: str, delimiter: str) -> list[str]:
    """The non-empty, stripped parts of ``text`` at ``delimiter`` (any dash for a dash)."""
    d = delimiter.strip()
    if d and all(c in _DASHES for c in d):
        parts = re.split(f"[{_DASHES}]", text)
    else:
        parts = text.split(delimiter if delimiter else None)
    return [p.strip() for p in parts if p.strip()]


def first_number(text: str) -> str | None:
    """The first number written in ``text``, or ``None``."""
    m = _NUMBER.search(text)
    return m.group(0) if m else None


# a game result before a score part: 'W 45' of 'W 45–28'
_RESULT_PREFIX = re.compile(r"^(?:w|l|t|d|won|lost|win|loss|tie|draw)\b\.?[\s,]*(?=\d)",
                            re.IGNORECASE)


def _scalar(part: str) -> Scalar:
    number = parse_number(_RESULT_PREFIX.sub("", part))
    return Scalar(number, part) if number is not None else Scalar(part, part)


def _source(ctx: Context, op: Op, what: str) -> tuple[Result, str | None]:
    """The set to read (the one non-delimiter argument) and the delimiter text, if any."""
    sets, delimiter = [], None
    for name, value in op.params:
        if (name or "").lower() in DELIMITER_NAMES:
            delimiter = getattr(value, "value", None) or getattr(value, "text", None)
        else:
            sets.append(value)
    if len(sets) != 1:
        raise not_applicable(ctx, f"{what} needs one set; it got {len(sets)} values")
    return resolve_set(ctx, sets[0]), delimiter


def fn_split(ctx: Context, op: Op) -> Result:
    """Each value of the set split at the delimiter (default: white space), parts in order."""
    r, delimiter = _source(ctx, op, "split()")
    elems: list[Scalar] = []
    wits: list[tuple[int, ...]] = []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        text = elem_text(ctx.graph, e)
        parts = split_text(text, delimiter or "")
        ctx.notes.append(f"split {text!r} at {delimiter or 'white space'!r}: "
                         + ", ".join(repr(p) for p in parts))
        elems.extend(_scalar(p) for p in parts)
        wits.extend(w for _ in parts)
    return Result(tuple(elems), tuple(wits))


def fn_extract_number(ctx: Context, op: Op) -> Result:
    """The first number written in each value (``'3–8'`` -> 3, ``'W 113–89'`` -> 113)."""
    r, _ = _source(ctx, op, "extract_number()")
    elems: list[Scalar] = []
    wits: list[tuple[int, ...]] = []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        text = elem_text(ctx.graph, e)
        number = first_number(text)
        if number is None:
            raise not_applicable(ctx, f"extract_number(): {text!r} holds no number")
        ctx.notes.append(f"the first number in {text!r} is {number}")
        elems.append(_scalar(number))
        wits.append(w)
    return Result(tuple(elems), tuple(wits))


def fn_score_parts(ctx: Context, op: Op) -> Result:
    """The two numbers of each score or record (``W 27–24`` -> 27, 24), in order, each
    witnessed by its value (``parse_points``, ``parse_score``, ``split_score``, ...), so a
    ``difference`` of the result is the margin; a value that is no score goes to the
    fallback."""
    r, _ = _source(ctx, op, "score_parts()")
    elems: list[Scalar] = []
    wits: list[tuple[int, ...]] = []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        text = elem_text(ctx.graph, e)
        m = SCORE.match(text)
        if m is None:
            raise not_applicable(ctx, f"score_parts(): {text!r} is not a score")
        ctx.notes.append(f"the score {text!r} holds {m.group(1)} and {m.group(2)}")
        for part in (m.group(1), m.group(2)):
            elems.append(Scalar(float(part), part))
            wits.append(w)
    return Result(tuple(elems), tuple(wits))
