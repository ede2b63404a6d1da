"""Arithmetic between two values: sum, difference, product, ratio, percentage, durations.

Each operand is read as one number (:func:`.operands.read_number`), and the step's note shows
the computation with where each operand came from, e.g.
``1,234 − 1,100 = 134 (row 5 Gold; row 9 Gold)``. ``subtract`` is signed (first minus second);
``difference`` is the absolute difference, as "the difference between A and B" is asked.
Results are rounded to the operands' decimal places for ``+``/``-`` (so 0.183 − 0.057 is 0.126,
not 0.12599999999999997). Durations read years out of dates and spans.
"""

from __future__ import annotations

import math
import re
from datetime import date

from ..numbers import format_number, parse_quantity
from ..ops.base import Context, elem_text, quantity
from ..query.ast import Ref, Text
from ..results import Result, Scalar
from ..rewrite import Op
from .compare import fn_compare
from .cues import asks_for_amount, mentions_years
from .operands import (
    COMPARISONS,
    Args,
    Reading,
    describe_witnesses,
    merged_witnesses,
    not_applicable,
    operand_result,
    operand_text,
    operator_symbol,
    read_expression,
    read_number,
    read_positions,
    split_args,
)
from .scores import SCORE

__all__ = [
    "fn_add",
    "fn_subtract",
    "fn_difference",
    "fn_multiply",
    "fn_divide",
    "fn_percentage",
    "fn_calculate",
    "fn_duration",
    "fn_year_difference",
    "fn_absolute",
]

_SHOWN = {"+": "+", "-": "−", "*": "×", "/": "÷", "%": "as a percentage of", "|-|": "−"}
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")
# '401 ft', '38.6m', '8 kg'; also with a converted value after it: '3.5 miles (5.6 km)'
_UNIT = re.compile(r"^\s*[\d.,]+(\s?)([A-Za-z]{1,6}\.?)\s*(?:\([^()]*\))?\s*$")
# a name the LLM made up for a part it could not name ('point1', 'score_part2'): not a value
_PLACEHOLDER = re.compile(r"^[a-z]+(?:_[a-z]+)*_?\d$", re.IGNORECASE)


def _without_placeholders(ctx: Context, args: Args, what: str) -> list[object]:
    """The operands less made-up part names (``operand1='point1', operand2='point2',
    set='output_of_query2'``) when exactly one earlier result is left to read them from."""
    refs = [o for o in args.operands if isinstance(o, Ref)]
    rest = [o for o in args.operands if not isinstance(o, Ref)]
    if len(refs) != 1 or not rest or not all(
        isinstance(o, Text) and _PLACEHOLDER.match(o.value.strip()) for o in rest
    ):
        return args.operands
    names = ", ".join(repr(o.value) for o in rest if isinstance(o, Text))
    ctx.notes.append(f"{what}: {names} name(s) no value; the operands are read from "
                     f"output_of_query{refs[0].step}")
    return [refs[0]]


def _pair_of(ctx: Context, r: Result, what: str) -> tuple[Result, Result] | None:
    """The two numbers of one value like ``'W 52–10'`` (a score, a record, a span)."""
    if len(r.distinct()) != 1 or not (m := SCORE.match(elem_text(ctx.graph, r.elems[0]))):
        return None
    ctx.notes.append(
        f"{what}: {elem_text(ctx.graph, r.elems[0])!r} holds two numbers, "
        f"{m.group(1)} and {m.group(2)}"
    )
    w = r.witnesses[0]
    return (Result((Scalar(float(m.group(1)), m.group(1)),), (w,)),
            Result((Scalar(float(m.group(2)), m.group(2)),), (w,)))


def _same_pair(
    ctx: Context, left: object, right: object, what: str
) -> tuple[Result, Result] | None:
    """Both operands are the one same score (the query reached one game twice)."""
    if not (isinstance(left, Ref) and isinstance(right, Ref)):
        return None
    a, b = operand_result(ctx, left), operand_result(ctx, right)
    if len(a.distinct()) != 1 or a.distinct().elems != b.distinct().elems:
        return None
    text = elem_text(ctx.graph, a.elems[0])
    if parse_quantity(text) is not None or not SCORE.match(text):
        return None
    ctx.notes.append(f"output_of_query{left.step} and output_of_query{right.step} are the "
                     f"same value {text!r}: its two numbers are the operands")
    return _pair_of(ctx, a, what)


def _operands(ctx: Context, args: Args, what: str) -> tuple[object, object]:
    """Two operands: two arguments, or one expression text, or one set of two values, or
    one value holding two numbers (a score ``21–7`` or ``W 52–10``, a span ``1937–1978``),
    also when both arguments are that one value."""
    operands = _without_placeholders(ctx, args, what)
    if len(operands) == 2:
        pair = _same_pair(ctx, operands[0], operands[1], what)
        return pair if pair is not None else (operands[0], operands[1])
    if not operands and isinstance(args.condition, Text):
        parts = read_expression(args.condition.value)
        if parts is not None:
            return parts[0], parts[2]
    if len(operands) == 1 and isinstance(operands[0], Ref):
        r = operand_result(ctx, operands[0])
        if (pair := _pair_of(ctx, r, what)) is not None:
            return pair
        if len(r) == 2:
            ctx.notes.append(
                f"{what}: output_of_query{operands[0].step} holds two values; "
                "the first is the first operand"
            )
            return (Result((r.elems[0],), (r.witnesses[0],)),
                    Result((r.elems[1],), (r.witnesses[1],)))
    raise not_applicable(ctx, f"{what} needs two values; it got {len(operands)}")


def _as_years(ctx: Context, a: Reading, b: Reading) -> tuple[float, float]:
    x, y = a.value, b.value
    if a.kind == "date" or b.kind == "date":
        x = float(int(x // 10000)) if a.kind == "date" else x
        y = float(int(y // 10000)) if b.kind == "date" else y
        ctx.notes.append("dates are read as their years")
    return x, y


def _compute(ctx: Context, op: Op, symbol: str, what: str) -> Result:
    args = split_args(ctx, op)
    left, right = _operands(ctx, args, what)
    shifted = _shift_each(ctx, left, right, symbol, what)
    if shifted is not None:
        return shifted
    subtraction = symbol in ("-", "|-|")
    a = read_number(ctx, left, what, first_of_positions=subtraction)
    b = read_number(ctx, right, what, first_of_positions=subtraction)
    x, y = _as_years(ctx, a, b)
    if symbol in ("/", "%") and y == 0:
        raise ctx.fail(f"{what}: division by zero ({operand_text(right)} is 0)")
    value = {
        "+": lambda: x + y,
        "-": lambda: x - y,
        "|-|": lambda: abs(x - y),
        "*": lambda: x * y,
        "/": lambda: x / y,
        "%": lambda: x / y * 100,
    }[symbol]()
    if symbol == "-" and value < 0 and asks_for_amount(ctx.question):
        ctx.notes.append(
            f"{format_number(x)} − {format_number(y)} is negative and the question asks how much "
            "more / the difference: the size of the difference is the answer"
        )
        symbol, value = "|-|", -value
    if symbol in ("+", "-", "|-|"):
        value = round(value, max(a.decimals, b.decimals))
    elif not math.isfinite(value):
        raise ctx.fail(f"{what}: the result is not a finite number")
    shown = format_number(value)
    where = "; ".join(w for w in (describe_witnesses(ctx, a.witnesses),
                                  describe_witnesses(ctx, b.witnesses)) if w)
    if symbol == "|-|":
        line = f"|{a.text} − {b.text}| = {shown}"
    elif symbol == "%":
        line = f"{a.text} ÷ {b.text} × 100 = {shown}"
    else:
        line = f"{a.text} {_SHOWN[symbol]} {b.text} = {shown}"
    ctx.notes.append(line + (f" ({where})" if where else ""))
    result = Scalar.number(value)
    unit = _common_unit(a, b) if symbol in ("+", "-", "|-|") else None
    if unit is not None:
        result = Scalar(result.value, f"{result.text}{unit}")
        ctx.notes.append(f"both values are in {unit.strip()!r}: the result keeps the unit")
    wits = merged_witnesses([operand_result(ctx, left), operand_result(ctx, right)])
    return Result((result,), (wits,))


def _shift_each(ctx: Context, left: object, right: object, symbol: str, what: str
                ) -> Result | None:
    """A number literal added to or taken from several years, places or row numbers
    (``add(number=<Season 2008, 2009>, value='1')``, "the year after each"): each value moved
    on its own, one result per value witnessed by its own cell, noted; ``None`` for anything
    else (the operands are then read as one number each)."""
    if symbol not in ("+", "-") or not isinstance(right, Text):
        return None
    step = parse_quantity(right.value)
    each = read_positions(ctx, left)
    if step is None or step[1] != "number" or each is None \
            or any(r.kind != "number" for r, _ in each):
        return None
    moved = [r.value + step[0] if symbol == "+" else r.value - step[0] for r, _ in each]
    ctx.notes.append(
        f"{what}: {operand_text(left)} holds {len(each)} years, places or row numbers; "
        f"each {'plus' if symbol == '+' else 'minus'} {format_number(step[0])}: "
        + ", ".join(f"{r.text} -> {format_number(m)}" for (r, _), m in zip(each[:4], moved,
                                                                           strict=False))
        + (", ..." if len(each) > 4 else "")
    )
    # a moved value the data writes as a node (the season ``2010``) is that node, so a later
    # set operation meets the cells holding it
    elems = [ctx.graph.entity(format_number(m)) for m in moved]
    return Result(tuple(Scalar.number(m) if e is None else e for e, m in zip(elems, moved,
                                                                            strict=True)),
                  tuple(r.witnesses for r, _ in each))


def _common_unit(a: Reading, b: Reading) -> str | None:
    """The unit both operands are written with (``'401 ft'``, ``'4 ft'`` -> ``' ft'``)."""
    ua, ub = _UNIT.match(a.text), _UNIT.match(b.text)
    if a.kind == "ordinal" or b.kind == "ordinal":
        return None  # '6th' − '3rd' is 3, not '3th'
    if ua and ub and ua.group(2).lower() == ub.group(2).lower():
        return ua.group(1) + ua.group(2)
    if ua and ub and _singular(ua.group(2)) == _singular(ub.group(2)) and len(ua.group(2)) > 2:
        plural = ua if ua.group(2).lower().endswith("s") else ub  # 'mile' and 'miles'
        return plural.group(1) + plural.group(2)
    return None


def _singular(unit: str) -> str:
    word = unit.lower().rstrip(".")
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def fn_add(ctx: Context, op: Op) -> Result:
    """The sum of two values."""
    return _compute(ctx, op, "+", "add()")


def fn_subtract(ctx: Context, op: Op) -> Result:
    """The first value minus the second (signed)."""
    return _compute(ctx, op, "-", "subtract()")


def fn_difference(ctx: Context, op: Op) -> Result:
    """The absolute difference of two values."""
    return _compute(ctx, op, "|-|", "difference()")


def fn_multiply(ctx: Context, op: Op) -> Result:
    """The product of two values."""
    return _compute(ctx, op, "*", "multiply()")


def fn_divide(ctx: Context, op: Op) -> Result:
    """The first value divided by the second (a ratio)."""
    return _compute(ctx, op, "/", "divide()")


def fn_percentage(ctx: Context, op: Op) -> Result:
    """The first value as a percentage of the second."""
    return _compute(ctx, op, "%", "percentage()")


def fn_calculate(ctx: Context, op: Op) -> Result:
    """A calculation whose operation is an argument (``operation='-'``, ``function=
    'subtract'``) or an expression text (``'output_of_query4 - output_of_query2'``); a
    comparison operator makes it a :func:`~.compare.fn_compare`."""
    args = split_args(ctx, op)
    symbol = args.operator
    if symbol is None and isinstance(args.condition, Text):
        parts = read_expression(args.condition.value)
        symbol = parts[1] if parts else None
    if symbol is None:
        symbol = _named_operation(ctx, args)
    if symbol in COMPARISONS:
        return fn_compare(ctx, op)
    if symbol is None and _one_number(ctx, args):
        ctx.notes.append(f"calculate() of one number, {operand_text(args.operands[0])}, with no "
                         "operation: that number")
        return operand_result(ctx, args.operands[0])
    if symbol not in ("+", "-", "*", "/", "%"):
        raise not_applicable(ctx, "calculate() names no operation it knows")
    return _compute(ctx, op, symbol, f"calculate({symbol})")


def _one_number(ctx: Context, args: Args) -> bool:
    """True when the only operand is an earlier result holding one plain number."""
    if len(args.operands) != 1 or args.condition is not None or not isinstance(
        args.operands[0], Ref
    ):
        return False
    r = operand_result(ctx, args.operands[0]).distinct()
    q = quantity(ctx.graph, r.elems[0]) if len(r) == 1 else None
    return q is not None and q[1] == "number"


def _named_operation(ctx: Context, args: Args) -> str | None:
    """The operation the operands' names all spell (``calculate(sum='...', sum2='...')``)."""
    words = {re.sub(r"_?\d+$", "", n) for n in args.names}
    symbols = {operator_symbol(w) for w in words}
    if len(symbols) != 1 or (symbol := symbols.pop()) not in ("+", "-", "*", "/", "%"):
        return None
    ctx.notes.append(f"calculate(): the operands are named {sorted(words)[0]!r}: {symbol}")
    return symbol


def _years(ctx: Context, value: object) -> list[tuple[int, tuple[int, ...]]]:
    """Years in an operand's values: a date's year, a plain year, or years inside a text."""
    r = operand_result(ctx, value)
    out = []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        text = elem_text(ctx.graph, e)
        q = parse_quantity(text)
        if q is not None and q[1] == "date":
            out.append((int(q[0] // 10000), w))
        elif q is not None and q[1] == "number" and 1000 <= q[0] <= 2999 and q[0] == int(q[0]):
            out.append((int(q[0]), w))
        else:
            out.extend((int(y), w) for y in _YEAR.findall(text))
    return out


def _span(ctx: Context, op: Op, what: str) -> tuple[int, int, tuple[int, ...]]:
    args = split_args(ctx, op)
    if len(args.operands) == 2:
        first, second = _years(ctx, args.operands[0]), _years(ctx, args.operands[1])
        if not first or not second:
            raise not_applicable(ctx, f"{what}: no year in the values")
        wits = merged_witnesses([operand_result(ctx, v) for v in args.operands])
        return first[0][0], second[0][0], wits
    if len(args.operands) == 1:
        years = _years(ctx, args.operands[0])
        if len(years) >= 2:
            wits = merged_witnesses([operand_result(ctx, args.operands[0])])
            ys = [y for y, _ in years]
            return min(ys), max(ys), wits
        early = _early_span(ctx, args.operands[0]) or _short_span(ctx, args.operands[0])
        if early is not None:
            return early
    raise not_applicable(ctx, f"{what} needs two dates or years (or one span)")


def _short_span(ctx: Context, value: object) -> tuple[int, int, tuple[int, ...]] | None:
    """One value that is a span whose end is written in two digits (``1996–99``, stop 19):
    from its start to its end, noted; ``None`` for anything else."""
    r = operand_result(ctx, value).distinct()
    if len(r) != 1:
        return None
    text = elem_text(ctx.graph, r.elems[0]).strip()
    n, m = span_years(text), _SPAN.match(text)
    if n is None or m is None:
        return None
    ctx.notes.append(f"{text!r} is read as a span of years")
    return int(m.group(1)), int(m.group(1)) + n, merged_witnesses([r])


# a span of years before 1000 (``264-280``), read only where a duration is asked for
_EARLY_SPAN = re.compile(r"^\s*(\d{3,4})\s*[–—\-−]\s*(\d{3,4})\s*$")


def _early_span(ctx: Context, value: object) -> tuple[int, int, tuple[int, ...]] | None:
    """One value ``264-280`` whose end follows its start, read as a span of years."""
    r = operand_result(ctx, value).distinct()
    if len(r) != 1 or (m := _EARLY_SPAN.match(elem_text(ctx.graph, r.elems[0]))) is None:
        return None
    start, end = int(m.group(1)), int(m.group(2))
    if end <= start:
        return None
    ctx.notes.append(f"{elem_text(ctx.graph, r.elems[0])!r} is read as a span of years")
    return start, end, merged_witnesses([r])


# one span of years, the end possibly in two digits: ``1983–1984``, ``1965–76``
_SPAN = re.compile(r"^(1\d{3}|20\d{2})\s*[–—\-−]\s*(\d{4}|\d{2})$")


def span_years(text: str) -> int | None:
    """The years a value of spans covers: ``1965–76`` is 11; ``1991–97, 2000–04`` is
    6 + 4 = 10; ``None`` when a part is no span whose end follows its start (``1983–present``).

    >>> span_years("1965–76"), span_years("1991–97, 2000–04"), span_years("1983–present")
    (11, 10, None)
    """
    total = 0
    for part in text.split(","):
        m = _SPAN.match(part.strip())
        if m is None:
            return None
        start, end = int(m.group(1)), m.group(2)
        stop = int(end) if len(end) == 4 else start // 100 * 100 + int(end)
        if len(end) == 2 and stop < start:
            stop += 100
        if stop < start:
            return None
        total += stop - start
    return total


def _each_span(ctx: Context, r: Result) -> Result | None:
    """``duration(set=...)`` of several values that are each a span of years (one per row,
    ``Career`` = ``1965–76``): each value's length, witnessed by its own cell, so a ``max``
    of them finds the longest and a lookup of it finds the cell again. ``None`` unless there
    are at least two values and every one reads as spans."""
    if len(r) < 2:
        return None
    texts = [elem_text(ctx.graph, e) for e in r.elems]
    lengths = [span_years(t) for t in texts]
    if any(n is None for n in lengths):
        return None
    counted = [int(n) for n in lengths if n is not None]
    unit = "" if mentions_years(ctx.question) else " years"
    ctx.notes.append(f"duration() of {len(r)} values that are each a span of years: each "
                     "value's length (" + ", ".join(
                         f"{t!r} {n}" for t, n in list(zip(texts, counted, strict=True))[:4])
                     + (" ...)" if len(r) > 4 else ")"))
    return Result(tuple(Scalar(float(n), f"{n}{unit}") for n in counted), r.witnesses)


def fn_duration(ctx: Context, op: Op) -> Result:
    """Years from a start to an end (two dates or years, or one span like ``1947–1959``),
    answered as ``N years`` (the number alone when the question already says "years"). One
    value that is itself a duration (``2:12:59``) is that duration."""
    args = split_args(ctx, op)
    if len(args.operands) == 1:
        r = operand_result(ctx, args.operands[0]).distinct()
        q = quantity(ctx.graph, r.elems[0]) if len(r) == 1 else None
        if q is not None and q[1] == "duration":
            ctx.notes.append(f"duration() of one value that is a duration, "
                             f"{elem_text(ctx.graph, r.elems[0])!r}: that value")
            return r
        each = _each_span(ctx, operand_result(ctx, args.operands[0]))
        if each is not None:
            return each
    start, end, wits = _span(ctx, op, "duration()")
    n = abs(end - start)
    ctx.notes.append(
        f"from {start} to {end}: {n} years ({describe_witnesses(ctx, wits, limit=4)})"
    )
    if mentions_years(ctx.question):
        ctx.notes.append("the question counts in years: the answer is the number")
        return Result((Scalar.number(n),), (wits,))
    return Result((Scalar(float(n), f"{n} years"),), (wits,))


def _day_number(ctx: Context, value: object, what: str) -> tuple[date, tuple[int, ...]]:
    """The one full date (year, month and day) an operand holds."""
    r = operand_result(ctx, value).distinct()
    q = parse_quantity(elem_text(ctx.graph, r.elems[0])) if len(r) == 1 else None
    if q is None or q[1] != "date":
        raise not_applicable(ctx, f"{what}: {operand_text(value)} is not one date")
    n = int(q[0])
    try:
        return date(n // 10000, n // 100 % 100, n % 100), r.witnesses[0]
    except ValueError as e:  # a year or a month alone (day 0) has no day count
        raise not_applicable(ctx, f"{what}: {operand_text(value)} is not a full date") from e


def fn_day_difference(ctx: Context, op: Op) -> Result:
    """The number of days between two full dates (absolute)."""
    args = split_args(ctx, op)
    if len(args.operands) != 2:
        raise not_applicable(ctx, f"day_difference() needs two dates; it got {len(args.operands)}")
    (a, wa), (b, wb) = (_day_number(ctx, v, "day_difference()") for v in args.operands)
    n = abs((b - a).days)
    ctx.notes.append(f"from {a.isoformat()} to {b.isoformat()}: {n} days "
                     f"({describe_witnesses(ctx, wa + wb, limit=4)})")
    return Result((Scalar.number(n),), (wa + wb,))


def fn_year_difference(ctx: Context, op: Op) -> Result:
    """The number of years between two dates or years (absolute)."""
    start, end, wits = _span(ctx, op, "year_difference()")
    n = abs(end - start)
    ctx.notes.append(f"|{end} − {start}| = {n} years ({describe_witnesses(ctx, wits, limit=4)})")
    return Result((Scalar.number(n),), (wits,))


def fn_absolute(ctx: Context, op: Op) -> Result:
    """The size of one value (``abs(output_of_query6)``): a non-negative value is kept as it
    is written (with its unit and witnesses), a negative one loses its sign."""
    args = split_args(ctx, op)
    if len(args.operands) != 1:
        raise not_applicable(ctx, f"absolute() needs one value; it got {len(args.operands)}")
    a = read_number(ctx, args.operands[0], "absolute()")
    r = operand_result(ctx, args.operands[0])
    where = describe_witnesses(ctx, a.witnesses, limit=4)
    if a.value >= 0 and len(r.distinct()) == 1:
        ctx.notes.append(f"|{a.text}| = {a.text}" + (f" ({where})" if where else ""))
        return r.distinct()
    value = abs(a.value)
    ctx.notes.append(f"|{a.text}| = {format_number(value)}" + (f" ({where})" if where else ""))
    return Result((Scalar.number(value),), (a.witnesses,))
