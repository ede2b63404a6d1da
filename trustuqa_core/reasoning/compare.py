"""Comparisons and conditionals: ``compare``, ``if_then_else``, ``equals``, ``contains``.

``compare(set1=A, set2=B, op='>')`` reads A and B as numbers (counts of rows, cell values,
dates, ordinals, durations: see :func:`.operands.read_number`) and answers in the form the
question asks (:func:`.cues.question_form`): ``yes``/``no``; the name of the operand that wins
("which is taller, X or Y?"); or one of the question's own words ("above or below?"). Without
an operator, the question's comparative word gives the direction ("taller" -> ``>``). The
truth value is also kept for ``if_then_else``, whose condition may be such a step, a yes/no
value, or a text ``'output_of_query2 > 10000'`` (split by a regular expression, never
evaluated as Python).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..errors import ExecutionError, NotApplicableError
from ..numbers import format_number, parse_month_day
from ..ops.base import Context, elem_text, quantity, resolve_set
from ..query.ast import ListValue, Ref, Text
from ..results import Elem, Result, Scalar
from ..rewrite import Op
from ..text import fold, normalize
from .cues import (
    AGE_WORDS,
    CHART_POSITION,
    DIRECTION_WORDS,
    ORDER_WORDS,
    PAIR_WORDS,
    RANK_RELATION,
    RANK_WORDS,
    SPEED_WORDS,
    SUCCESS_WORDS,
    TIME_RELATION,
    order_word,
    question_form,
    rank_direction,
)
from .filtering import filter_rows, has_key
from .operands import (
    COMPARISONS,
    Args,
    Reading,
    merged_witnesses,
    not_applicable,
    operand_name,
    operand_result,
    operand_text,
    operator_symbol,
    read_expression,
    read_number,
    show,
    split_args,
)
from .placeholders import bind_compare_placeholders, bind_placeholders, bound_branch
from .scores import read_score

__all__ = ["fn_compare", "fn_if_then_else", "fn_equals", "fn_contains", "holds"]

_SYMBOLS = {">": ">", "<": "<", ">=": "≥", "<=": "≤", "=": "=", "!=": "≠"}
_TRUE = frozenset({"yes", "true", "1", "y"})
_FALSE = frozenset({"no", "false", "0", "n"})


def holds(a: float, symbol: str, b: float) -> bool:
    """``a <symbol> b`` for a comparison symbol.

    >>> holds(3, ">=", 3), holds(2, "!=", 2)
    (True, False)
    """
    return {
        ">": a > b,
        "<": a < b,
        ">=": a >= b,
        "<=": a <= b,
        "=": a == b,
        "!=": a != b,
    }[symbol]


def _align(ctx: Context, a: Reading, b: Reading) -> tuple[float, float]:
    """Values on one scale: a date (yyyymmdd) against a plain year compares by year."""
    x, y = a.value, b.value
    note = ""
    if a.kind == "date" and b.kind != "date" and 1000 <= y <= 3000:
        x = float(int(x // 10000))
        note = f"{a.text!r} is a date, compared by its year {int(x)}"
    elif b.kind == "date" and a.kind != "date" and 1000 <= x <= 3000:
        y = float(int(y // 10000))
        note = f"{b.text!r} is a date, compared by its year {int(y)}"
    if note and note not in ctx.notes:
        ctx.notes.append(note)
    return x, y


def _two_operands(ctx: Context, args: Args, what: str) -> tuple[object, object]:
    if len(args.operands) == 2:
        return args.operands[0], args.operands[1]
    if len(args.operands) == 1 and isinstance(args.operands[0], Ref):
        raise not_applicable(ctx, f"{what} needs two values; it got one set")
    raise not_applicable(ctx, f"{what} needs two values; it got {len(args.operands)}")


_COUNT_CUE = re.compile(r"\b(more|most|fewer|fewest|less|least)\b")


def _counted(ctx: Context, value: object) -> Reading | None:
    """An earlier result none of whose values reads as a number (or a score), read as how
    many values it holds (one per row it came from); else ``None``."""
    if not isinstance(value, Ref):
        return None
    r = _res(ctx, value)
    if not r or any(
        quantity(ctx.graph, e) is not None or read_score(elem_text(ctx.graph, e), None)
        for e in r.elems
    ):
        return None
    n = len(r.elems)
    return Reading(float(n), "count", f"{n} value(s)", merged_witnesses([r]))


# one word and a number: 'Week 9', 'Round 3', 'Episode 12'
_LABELLED = re.compile(r"^\s*([A-Za-z]+)\.?\s+(\d+)\s*$")


def _labelled(ctx: Context, value: object) -> tuple[str, float, str, tuple[int, ...]] | None:
    r = operand_result(ctx, value).distinct()
    if len(r) != 1:
        return None
    text = elem_text(ctx.graph, r.elems[0])
    m = _LABELLED.match(text)
    return None if m is None else (m.group(1).casefold(), float(m.group(2)), text, r.witnesses[0])


def _labelled_pair(ctx: Context, left: object, right: object, what: str
                   ) -> tuple[Reading, Reading] | None:
    """Two values written as the same word and a number (``Week 9``, ``Week 5``): their
    numbers; ``None`` for anything else."""
    a, b = _labelled(ctx, left), _labelled(ctx, right)
    if a is None or b is None or a[0] != b[0]:
        return None
    ctx.notes.append(f"{what}: {a[2]!r} and {b[2]!r} are both {a[0]!r} and a number: "
                     "compared by the numbers")
    return (Reading(a[1], "number", a[2], a[3]), Reading(b[1], "number", b[2], b[3]))


# a range of days in one month: '28–31 May', 'May 28–31' (read as its first day)
_DAY_RANGE = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s*[–—\-−]\s*\d{1,2}(?:st|nd|rd|th)?")


def month_day(text: str) -> tuple[int, int] | None:
    """``(month, day)`` of a day written without a year, a range of days read as its first
    day; ``None`` for anything else (a bare month, a date with a year).

    >>> month_day("28–31\xa0May"), month_day("May 28–31"), month_day("6 Sep"), month_day("May")
    ((5, 28), (5, 28), (9, 6), None)
    """
    md = parse_month_day(text) or parse_month_day(_DAY_RANGE.sub(r"\1", text, count=1))
    return (md[0], md[1]) if md is not None and md[1] is not None else None


def _yearless(ctx: Context, value: object) -> Reading | None:
    """One value that is a day without a year (``28 May``, ``4–7 Mar``) as ``month*100 +
    day``, or ``None``."""
    r = operand_result(ctx, value).distinct()
    if len(r) != 1 or (not isinstance(r.elems[0], Scalar) and ctx.graph.is_row(r.elems[0])):
        return None
    text = elem_text(ctx.graph, r.elems[0])
    md = month_day(text)
    if md is None:
        return None
    wits = merged_witnesses([r])
    last = [w[-1] for w in r.witnesses if w]
    relation = " ".join(ctx.graph.fact_text(last[0])[1].split()) if last else ""
    return Reading(float(md[0] * 100 + md[1]), "date without a year", text, wits,
                   relation=relation)


def _read_both(ctx: Context, left: object, right: object, what: str) -> tuple[Reading, Reading]:
    """Both operands as numbers; when neither holds numbers and the question asks "more" or
    "fewer" ("who broke more world records, X or Y?"), how many values each holds. Two days
    written without a year (``28–31 May``, ``4 Mar``) compare by month and day (noted)."""
    rows = _row_counts(ctx, left, right, what)
    if rows is not None:
        return rows
    days = _yearless(ctx, left), _yearless(ctx, right)
    if days[0] is not None and days[1] is not None:
        ctx.notes.append(f"{what}: {days[0].text!r} and {days[1].text!r} are days without a "
                         "year (a range read as its first day): compared by month and day")
        return days[0], days[1]
    try:
        return _apart(ctx, read_number(ctx, left, what, comparison=True),
                      read_number(ctx, right, what, comparison=True), what)
    except NotApplicableError:
        labelled = _labelled_pair(ctx, left, right, what)
        if labelled is not None:
            return labelled
        cue = _COUNT_CUE.search((ctx.question or "").lower())
        a, b = _counted(ctx, left), _counted(ctx, right)
        if cue is None or a is None or b is None or max(a.value, b.value) < 2:
            raise  # one value against one says nothing about "more"
        ctx.notes.append(
            f"{what}: the values are not numbers and the question asks {cue.group(1)!r}: "
            "each operand is read as how many values it holds"
        )
        return a, b


def _row_counts(ctx: Context, left: object, right: object, what: str
                ) -> tuple[Reading, Reading] | None:
    """Two earlier results of row numbers, one of them of several rows, in a question that
    asks "more" / "most" with no word of order or rank ("which division played most?", "who
    has more number one singles?"): each is read as how many rows it numbers (a row number
    names a row; their sum or the first of them answers nothing asked), noted; else
    ``None``."""
    if not (isinstance(left, Ref) and isinstance(right, Ref)):
        return None
    question = (ctx.question or "").lower()
    cue = _COUNT_CUE.search(question)
    if cue is None or order_word(question) or rank_direction(question):
        return None
    results = [_res(ctx, left), _res(ctx, right)]
    if not all(results):
        return None
    counts = [len(r.distinct()) for r in results]
    if max(counts) < 2:
        return None
    for r in results:
        if any(not isinstance(e, Scalar) and ctx.graph.is_row(e) for e in r.elems):
            return None
        last = [w[-1] for w in r.witnesses if w]
        if len(last) != len(r.elems) or any(
                " ".join(ctx.graph.fact_text(f)[1].split()).lower() != "row_number"
                for f in last) or any(quantity(ctx.graph, e) is None for e in r.elems):
            return None
    a, b = (Reading(float(k), "count", f"{k} row(s)", merged_witnesses([r]), rows=k)
            for r, k in zip(results, counts, strict=True))
    ctx.notes.append(f"{what}: both operands are row numbers and the question asks "
                     f"{cue.group(1)!r} with no word of order: each is read as how many rows "
                     f"it numbers ({a.text} against {b.text})")
    return a, b


def _apart(ctx: Context, a: Reading, b: Reading, what: str) -> tuple[Reading, Reading]:
    """Two operands, at least one of several positions read as its first (stop 19), when
    the positions of one all come before the other's: then the first of each decides as any
    of them would. Positions that interleave (rows 3, 5, 7 against rows 1, 6, 9) have no
    single order: the step goes to the fallback (unverified). E.g. rows 5, 6, 7 against row
    4 compare as 5 against 4; rows 3, 5, 7 against rows 1, 6, 9 are not compared.
    """
    if a.span is None and b.span is None:
        return a, b
    (lo_a, hi_a), (lo_b, hi_b) = a.span or (a.value, a.value), b.span or (b.value, b.value)
    if max(lo_a, lo_b) <= min(hi_a, hi_b):
        raise not_applicable(ctx, f"{what}: the positions of the two operands interleave "
                             f"({format_number(lo_a)}–{format_number(hi_a)} against "
                             f"{format_number(lo_b)}–{format_number(hi_b)}): neither comes "
                             "first throughout")
    return a, b


# a measure with its unit: '≈ 600 mm', '6 km', '1.5 kg' (unit -> (dimension, factor))
_UNITS = {"mm": ("length", 0.001), "cm": ("length", 0.01), "m": ("length", 1.0),
          "km": ("length", 1000.0), "g": ("mass", 0.001), "kg": ("mass", 1.0),
          "t": ("mass", 1000.0), "tonnes": ("mass", 1000.0), "ms": ("time", 0.001),
          "s": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0)}
_MEASURE = re.compile(r"^\s*[≈~]?\s*[\d.,]+\s*([a-z]+)\b", re.IGNORECASE)


def _unit_of(text: str) -> tuple[str, str, float] | None:
    m = _MEASURE.match(text)
    unit = m.group(1).lower() if m else ""
    return (unit, *_UNITS[unit]) if unit in _UNITS else None


def _common_unit(ctx: Context, a: Reading, b: Reading, what: str) -> tuple[Reading, Reading]:
    """Two single measures in different units of one dimension (``600 mm`` against
    ``6 km``) converted to the base unit before they are compared, noted; else unchanged.

    >>> _unit_of("≈ 600 mm"), _unit_of("6 km (3.7 mi)"), _unit_of("12 points")
    (('mm', 'length', 0.001), ('km', 'length', 1000.0), None)
    """
    ua, ub = _unit_of(a.text), _unit_of(b.text)
    if ua is None or ub is None or ua[0] == ub[0] or ua[1] != ub[1]:
        return a, b
    ctx.notes.append(f"{what}: {a.text!r} and {b.text!r} are in different units: compared "
                     f"as {format_number(a.value * ua[2])} and {format_number(b.value * ub[2])} "
                     f"({ua[1]} in base units)")
    return (replace(a, value=a.value * ua[2], kind="measure"),
            replace(b, value=b.value * ub[2], kind="measure"))


def _read_pair(ctx: Context, left: object, right: object, what: str) -> tuple[Reading, Reading]:
    """Both operands as numbers, refusing readings that would make the comparison a guess."""
    a, b = _read_both(ctx, left, right, what)
    a, b = _common_unit(ctx, a, b, what)
    cells = _counted_cells(ctx, left, right, a, b, what)
    if cells is not None:
        return cells
    if a.rows == 1 and b.rows == 1:
        word = order_word(ctx.question)
        if word is None:
            raise not_applicable(ctx, f"{what}: comparing two rows needs a value of them")
        a, b = _row_order(ctx, left, a, what), _row_order(ctx, right, b, what)
        ctx.notes.append(
            f"{what}: both operands are single rows and the question asks about order "
            f"({word!r}): they are compared by their position in the table"
        )
    if _mismatched(a, b) or _mismatched(b, a):
        raise not_applicable(
            ctx, f"{what}: {a.text!r} reads as a {a.kind} and {b.text!r} as a {b.kind}"
        )
    if (
        a.value == b.value
        and a.text != b.text
        and "leading number" in (a.kind, b.kind)
    ):
        raise not_applicable(
            ctx, f"{what}: {a.text!r} and {b.text!r} differ but their leading numbers are equal"
        )
    return a, b


# items of a list written in one cell: 'Columbus, Flint', 'Júnior, Éder, Zico'
_ITEMS = re.compile(r"\s*(?:,|;|\n|\\n|\band\b)\s*")


def _one_cell(ctx: Context, value: object) -> tuple[str, tuple[int, ...]] | None:
    """The one value a ``count`` step counted (text and witnesses), or ``None``."""
    if not isinstance(value, Ref) or value.step not in ctx.counted:
        return None
    r = ctx.counted[value.step]
    if len(r.elems) != 1 or (not isinstance(r.elems[0], Scalar)
                             and ctx.graph.is_row(int(r.elems[0]))):
        return None
    return elem_text(ctx.graph, r.elems[0]), r.witnesses[0]


def _counted_cells(ctx: Context, left: object, right: object, a: Reading, b: Reading,
                   what: str) -> tuple[Reading, Reading] | None:
    """Two counts that are 1 because each counted one cell ("more councillors in 1965 or
    1966?" counting the cells '4' and '9'; "more destinations?" counting 'Cleveland' and
    'Columbus, Flint'): the cells' own numbers when both read as numbers, else how many
    items each cell lists when one lists several, noted; ``None`` otherwise."""
    if a.value != 1 or b.value != 1:
        return None
    x, y = _one_cell(ctx, left), _one_cell(ctx, right)
    if x is None or y is None:
        return None
    qx, qy = quantity(ctx.graph, Scalar(x[0], x[0])), quantity(ctx.graph, Scalar(y[0], y[0]))
    if qx is not None and qy is not None and qx[1] == qy[1]:
        ctx.notes.append(f"{what}: each count is of one cell, which holds a number: compared "
                         f"the cells {x[0]!r} and {y[0]!r}")
        return (Reading(qx[0], qx[1], x[0], x[1]), Reading(qy[0], qy[1], y[0], y[1]))
    nx = len([t for t in _ITEMS.split(x[0]) if t.strip()])
    ny = len([t for t in _ITEMS.split(y[0]) if t.strip()])
    if qx is not None or qy is not None or max(nx, ny) < 2:
        return None
    ctx.notes.append(f"{what}: each count is of one cell listing items: compared how many "
                     f"each lists ({x[0]!r}: {nx}, {y[0]!r}: {ny})")
    return (Reading(float(nx), "count", f"{nx} item(s)", x[1]),
            Reading(float(ny), "count", f"{ny} item(s)", y[1]))


def _row_order(ctx: Context, value: object, r: Reading, what: str) -> Reading:
    """A single row read as its 1-based position in its table (``row_number``)."""
    row = _res(ctx, value).distinct().elems[0]
    pos = None if isinstance(row, Scalar) else ctx.graph.row_position(row)
    if pos is None:
        raise not_applicable(ctx, f"{what}: {operand_text(value)} is not a table row")
    return Reading(float(pos[1]), "row position", f"row {pos[1]}", r.witnesses,
                   relation="row_number")


def _mismatched(a: Reading, b: Reading) -> bool:
    """A date against anything but a date or a year, a duration against a non-duration."""
    year = b.kind in ("number", "leading number") and 1000 <= b.value <= 3000
    if a.kind == "date":
        return b.kind != "date" and not year
    return a.kind == "duration" and b.kind not in ("duration", "number", "count")


def _verdict(
    ctx: Context, left: object, symbol: str, right: object, what: str
) -> tuple[bool, Reading, Reading]:
    a, b = _read_pair(ctx, left, right, what)
    return _judge(ctx, left, a, symbol, right, b), a, b


def _judge(ctx: Context, left: object, a: Reading, symbol: str, right: object, b: Reading) -> bool:
    x, y = _align(ctx, a, b)
    truth = holds(x, symbol, y)
    ctx.notes.append(
        f"{operand_text(left)} = {show(ctx, a)}; {operand_text(right)} = {show(ctx, b)}; "
        f"{format_number(x)} {_SYMBOLS[symbol]} {format_number(y)} is "
        f"{'true' if truth else 'false'}"
        + (f" (values read as {a.kind})" if a.kind not in ("number", "count") else "")
    )
    return truth


def _answer(text: str, wits: tuple[int, ...]) -> Result:
    return Result((Scalar(text, text),), (wits,))


def _rank_like(a: Reading, b: Reading) -> bool:
    return all(r.kind == "ordinal" or RANK_RELATION.match(r.relation)
               or CHART_POSITION.match(" ".join(r.relation.split())) for r in (a, b))


def _success_direction(question: str | None, a: Reading, b: Reading) -> tuple[str, str] | None:
    """"more successful" / "least successful" over two places written as places (``14th``,
    ``2nd``): the better place is the smaller one. Not over row numbers, which are no places.

    >>> r = Reading(14.0, "ordinal", "14th", (), relation="Position")
    >>> _success_direction("which year was more successful, 2007 or 2002?", r, r)
    ('more successful', '<')
    """
    if not (a.kind == b.kind == "ordinal"):
        return None
    text = " ".join((question or "").lower().split())
    return next(((w, d) for w, d in SUCCESS_WORDS.items() if w in text), None)


def _dates_or_years(a: Reading, b: Reading) -> bool:
    return all(r.kind == "date" or (r.kind == "number" and 1000 <= r.value <= 3000
                                    and r.value == int(r.value)) for r in (a, b))


def _times(a: Reading, b: Reading) -> bool:
    return all(r.kind == "duration" or TIME_RELATION.search(r.relation) for r in (a, b))


def _word_direction(question: str | None, table: dict[str, str]) -> tuple[str, str] | None:
    """The first word of ``table`` in the question and its direction: "older" over birth
    dates asks for the earlier one, "faster" over times for the smaller one."""
    words = re.findall(r"[a-z]+", (question or "").lower())
    return next(((w, table[w]) for w in words if w in table), None)


_CUE_WORDS = frozenset(RANK_WORDS) | frozenset(DIRECTION_WORDS) | ORDER_WORDS | PAIR_WORDS


def cue_question(question: str | None, names: tuple[str | None, ...]) -> str | None:
    """The question without the names of the compared entities, to read its cue words from:
    in "was distortion or love at the bottom of the sea the highest rated album?" the album's
    name says 'bottom', the question asks 'highest'. Names the question does not write as
    words are left alone, and so is a name that is itself one cue word (``'last'``).

    >>> cue_question("was distortion or love at the bottom of the sea the highest rated?",
    ...              ("Distortion", "Love at the Bottom of the Sea"))
    'was  or  the highest rated?'
    >>> cue_question("which ranked higher, top gun or jaws?", ("Jaws", None))
    'which ranked higher, top gun or ?'
    """
    if not question:
        return question
    out = question
    for name in names:
        if name and name.strip() and name.strip().lower() not in _CUE_WORDS:
            out = re.sub(rf"(?<!\w){re.escape(name.strip())}(?!\w)", "", out, flags=re.IGNORECASE)
    return out


def _compare(ctx: Context, left: object, right: object, args: Args, what: str) -> Result:
    # cue words are read without the compared names ("love at the *bottom* of the sea")
    question = cue_question(ctx.question, (operand_name(ctx, left), operand_name(ctx, right)))
    form = question_form(question)
    given = args.operator if args.operator in COMPARISONS else None
    if args.operator is not None and given is None:
        raise not_applicable(ctx, f"{what}: {args.operator_text!r} is not a comparison")
    a, b = _read_pair(ctx, left, right, what)
    x, y = _align(ctx, a, b)
    wits = merged_witnesses([_res(ctx, left), _res(ctx, right)])
    rank_word = rank_direction(question) if _rank_like(a, b) else None
    if rank_word is None:
        rank_word = _success_direction(question, a, b)
    if rank_word is None and _dates_or_years(a, b):
        rank_word = _word_direction(question, AGE_WORDS)
    if rank_word is None and _times(a, b):
        rank_word = _word_direction(question, SPEED_WORDS)
    if rank_word is not None:
        wanted = "smaller" if rank_word[1] == "<" else "larger"
        what_values = ("dates or years" if rank_word[0] in AGE_WORDS else "times"
                       if rank_word[0] in SPEED_WORDS and not _rank_like(a, b)
                       else "ranks or positions")
        ctx.notes.append(
            f"the values are {what_values} ({a.relation or a.kind!r}): "
            f"{rank_word[0]!r} asks for the {wanted} number"
        )
    if form.kind == "pair" and form.pair is not None:
        (w1, d1), (w2, d2) = form.pair
        if rank_word is not None:
            table = next(t for t in (AGE_WORDS, SPEED_WORDS, RANK_WORDS) if rank_word[0] in t)
            d1, d2 = table.get(w1, d1), table.get(w2, d2)
        if _compared_to_first(ctx, left, right):
            truth = _judge(ctx, right, b, d1, left, a)
        else:
            truth = _judge(ctx, left, a, d1, right, b)
        _keep_verdict(ctx, truth, given, x, y)
        word = "equal" if x == y else (w1 if truth else w2)
        ctx.notes.append(f"the question asks '{w1} or {w2}': the answer is {word!r}")
        return _answer(word, wits)
    symbol: str | None
    if form.kind == "pair_choice" and form.pair is not None:
        symbol = rank_word[1] if rank_word else (form.direction or ">")
        truth = _judge(ctx, left, a, symbol, right, b)
        _keep_verdict(ctx, truth, given, x, y)
        (w1, _), (w2, _) = form.pair
        word = "equal" if x == y else (w1 if truth else w2)
        ctx.notes.append(
            f"the question asks '{w1} or {w2}' for the {'larger' if symbol == '>' else 'smaller'}"
            f" value, {w1!r} being the first value: the answer is {word!r}"
        )
        return _answer(word, wits)
    if given in ("=", "!=") and form.kind == "choice" and _one_literal(left, right):
        truth = _judge(ctx, left, a, given, right, b)
        _keep_verdict(ctx, truth, given, x, y)
        ctx.notes.append(f"{what}: '{given}' against a literal tests equality, not which of "
                         f"two is larger: {'yes' if truth else 'no'}")
        return _answer("yes" if truth else "no", wits)
    if form.kind == "choice" or (form.kind == "unknown" and given is None):
        symbol = given if given in (">", "<", ">=", "<=") else None
        source = "the operator"
        if rank_word is not None:
            symbol, source = rank_word[1], "the question"
        elif symbol is None:
            symbol = form.direction if form.direction in (">", "<") else ">"
            source = "the question" if form.direction in (">", "<") else "the default (larger)"
        truth = _judge(ctx, left, a, symbol, right, b)
        _keep_verdict(ctx, truth, given, x, y)
        names = operand_name(ctx, left), operand_name(ctx, right)
        if (names[0] is None or names[1] is None) and _HOISTED.match(ctx.description or ""):
            ctx.notes.append(
                f"{what} is {ctx.description}, which reads its truth: "
                f"{'yes' if ctx.verdicts[ctx.step] else 'no'}"
            )
            return _answer("yes" if ctx.verdicts[ctx.step] else "no", wits)
        if names[0] is None or names[1] is None or names[0].casefold() == names[1].casefold():
            columns = _column_alternatives(ctx, a, b)
            names = columns if columns[0] is not None else names
        if names[0] is None or names[1] is None:
            raise not_applicable(ctx, f"{what}: the values are not about named entities")
        names = _spelled_out(ctx, names[0], names[1])
        if x == y:
            winners = [names[0], names[1]]
            ctx.notes.append("the two values are equal: both are answers")
        else:
            winners = [names[0] if truth else names[1]]
        size = "larger" if symbol in (">", ">=") else "smaller"
        ctx.notes.append(
            f"which of {names[0]!r} and {names[1]!r}: the {size} value wins ({source}) -> "
            + ", ".join(repr(w) for w in winners)
        )
        unique = list(dict.fromkeys(winners))
        return Result(tuple(Scalar(w, w) for w in unique), tuple(wits for _ in unique))
    symbol = rank_word[1] if rank_word and given in (None, ">", "<") else given
    symbol = symbol or form.direction
    if symbol is None:
        raise not_applicable(ctx, f"{what}: no operator, and the question names none")
    truth = _judge(ctx, left, a, symbol, right, b)
    _keep_verdict(ctx, truth, given, x, y)
    return _answer("yes" if truth else "no", wits)


_COMPARED_TO = re.compile(r"^\s*(?:compared (?:to|with)|in comparison (?:to|with)) ([^,]+),")


def _compared_to_first(ctx: Context, left: object, right: object) -> bool:
    """"compared to the oval, holm park holds more or less …?": the question is about the
    second named entity, measured against the first, which the first operand is about; the
    "more or less" answer then reads the second operand against the first (noted)."""
    m = _COMPARED_TO.match((ctx.question or "").lower())
    first, second = operand_name(ctx, left), operand_name(ctx, right)
    if m is None or first is None or second is None:
        return False
    base = m.group(1)
    if first.casefold() not in base or second.casefold() in base:
        return False
    ctx.notes.append(f"the question is about {second!r}, compared to {first!r}: "
                     f"'more or less' reads {second!r} against {first!r}")
    return True


def _one_literal(left: object, right: object) -> bool:
    """True when exactly one operand is a literal (``compare(set1='output_of_query3',
    set2='1', op='=')``): an equality test of one value, not a choice between two."""
    return isinstance(left, Text) != isinstance(right, Text)


_ALTERNATIVES = re.compile(r"\b([A-Za-z]+)\s+or\s+([A-Za-z]+)\b")


def _spelled_out(ctx: Context, first: str, second: str) -> tuple[str, str]:
    """Two names that are codes of one or two letters (``W``, ``L``), when the question's two
    alternatives start with them ("did the team win or lose more games?"): the question's
    words, noted; else the names as they are."""
    if not (len(first) <= 2 and len(second) <= 2 and first.isalpha() and second.isalpha()):
        return first, second
    for m in _ALTERNATIVES.finditer(ctx.question or ""):
        w1, w2 = m.group(1), m.group(2)
        if w1.casefold().startswith(first.casefold()) and \
                w2.casefold().startswith(second.casefold()):
            ctx.notes.append(f"{first!r} and {second!r} are codes of the question's "
                             f"'{w1} or {w2}': answered with its words")
            return w1, w2
        if w1.casefold().startswith(second.casefold()) and \
                w2.casefold().startswith(first.casefold()):
            ctx.notes.append(f"{first!r} and {second!r} are codes of the question's "
                             f"'{w1} or {w2}': answered with its words")
            return w2, w1
    return first, second


def _column_alternatives(ctx: Context, a: Reading, b: Reading) -> tuple[str | None, str | None]:
    """"did march or april have more precipitation?" over the columns ``Mar`` and ``Apr``: the
    question's two alternatives, each matched to the column an operand was read from (one
    name starting with the other, ignoring case); ``(None, None)`` unless both match apart."""
    m = _ALTERNATIVES.search(ctx.question or "")
    if m is None or not a.relation or not b.relation:
        return None, None

    def same(word: str, column: str) -> bool:
        w, c = word.casefold(), column.strip().casefold()
        return len(c) >= 3 and len(w) >= 3 and (w.startswith(c) or c.startswith(w))

    w1, w2 = m.group(1), m.group(2)
    if same(w1, a.relation) and same(w2, b.relation) and not same(w1, b.relation):
        pair = (w1, w2)
    elif same(w2, a.relation) and same(w1, b.relation) and not same(w2, b.relation):
        pair = (w2, w1)
    else:
        return None, None
    ctx.notes.append(f"the operands are the columns {a.relation!r} and {b.relation!r}, the "
                     f"question's alternatives {pair[0]!r} and {pair[1]!r}")
    return pair


# the description the parser gives a comparison it lifted out of another call (query/hoist.py)
_HOISTED = re.compile(r"^part of Query\s*\d+$")


def _keep_verdict(ctx: Context, truth: bool, given: str | None, x: float, y: float) -> None:
    """The truth an ``if_then_else`` reads: the written operator's when there is one (the
    answer form may follow the question's words instead)."""
    ctx.verdicts[ctx.step] = holds(x, given, y) if given is not None else truth


def _res(ctx: Context, value: object) -> Result:
    return operand_result(ctx, value)


def fn_compare(ctx: Context, op: Op) -> Result:
    """Compare two values or sets; the answer form follows the question (module doc).
    ``check(set=..., key='Place', value>='15th')`` (a set, a column and a value) asks whether
    a row of the set has that value: yes/no (:mod:`.filtering`)."""
    if has_key(op) and op.param("set") is not None:
        kept = filter_rows(ctx, op, f"{op.name}()")
        truth = bool(kept)
        ctx.verdicts[ctx.step] = truth
        return _answer("yes" if truth else "no", merged_witnesses([kept]))
    args = split_args(ctx, op)
    if args.has_then:
        return fn_if_then_else(ctx, op)
    return _compare_args(ctx, args, "compare()")


def _compare_args(ctx: Context, args: Args, what: str) -> Result:
    """Compare what the arguments give: a condition text (``'output_of_query2 > 10000'``)
    when there are no operands, else the two operands."""
    if isinstance(args.condition, Ref) and len(args.operands) == 1 and args.operator:
        # Calculator(check='output_of_query4', operator='==', value='August 25')
        ctx.notes.append(f"{what}: the checked output_of_query{args.condition.step} is the "
                         "left operand")
        args.operands, args.condition = [args.condition, args.operands[0]], None
    if args.condition is not None and not args.operands:
        left, symbol, right = _expression(ctx, args.condition)
        args.operator, args.operator_text = symbol, symbol
        return _compare(ctx, left, right, args, what)
    left, right = bind_compare_placeholders(ctx, *_two_operands(ctx, args, what))
    passed = _checked_comparison(ctx, left, right, args)
    if passed is not None:
        return passed
    try:
        return _compare(ctx, left, right, args, what)
    except NotApplicableError:
        if args.operator not in ("=", "!="):
            raise
        return _text_equality(ctx, left, right, args.operator == "!=", what)


_TRUE_OR_FALSE = re.compile(r"\btrue or false\b|\bfalse or true\b", re.IGNORECASE)


def _text_equality(ctx: Context, left: object, right: object, negated: bool,
                   what: str) -> Result:
    """``compare(set1='output_of_query5', set2='South Korea', op='=')`` over values that are
    not numbers: equal as text (ignoring case and spacing) when both hold the same values, or
    one holds a single value the other holds; yes/no (true/false when the question asks
    "true or false"), noted."""
    for side in (left, right):
        if isinstance(side, Text) and operator_symbol(side.value) is not None:
            raise not_applicable(ctx, f"{what}: {side.value!r} is an operator, not a value")
    ra, rb = operand_result(ctx, left), operand_result(ctx, right)
    a = {_norm(elem_text(ctx.graph, e)) for e in ra.elems}
    b = {_norm(elem_text(ctx.graph, e)) for e in rb.elems}
    if not a or not b:
        raise not_applicable(ctx, f"{what}: an operand is empty")
    equal = a == b or (len(a) == 1 and a <= b) or (len(b) == 1 and b <= a)
    truth = equal != negated
    ctx.verdicts[ctx.step] = truth
    ctx.notes.append(f"{what}: the values are not numbers: compared as text, {sorted(a)[:3]} "
                     f"{'!=' if negated else '='} {sorted(b)[:3]} is {str(truth).lower()}")
    words = ("true", "false") if _TRUE_OR_FALSE.search(ctx.question or "") else ("yes", "no")
    return _answer(words[0] if truth else words[1], merged_witnesses([ra, rb]))


def _checked_comparison(ctx: Context, left: object, right: object, args: Args) -> Result | None:
    """``compare(set1='output_of_query6', set2='True', op='=')`` where Query6 is itself a
    comparison: checking that it holds is that comparison, so its answer is passed on."""
    if args.operator not in (None, "="):
        return None
    for this, other in ((left, right), (right, left)):
        word = other.value.strip().lower() if isinstance(other, Text) else ""
        if (isinstance(this, Ref) and this.step in ctx.verdicts
                and (word in _TRUE or word in _OUTCOME_WORDS and not _yes_no(ctx, this))):
            ctx.verdicts[ctx.step] = ctx.verdicts[this.step]
            shown = other.value.strip() if isinstance(other, Text) else word
            ctx.notes.append(f"checking that the comparison output_of_query{this.step} is "
                             f"{shown!r}: that comparison's answer")
            return operand_result(ctx, this)
    return None


def _yes_no(ctx: Context, value: Ref) -> bool:
    """True when an earlier comparison answered yes / no (not a name or a question word)."""
    texts = {elem_text(ctx.graph, e).strip().lower() for e in operand_result(ctx, value).elems}
    return bool(texts) and texts <= {"yes", "no", "true", "false"}


# the outcome of a comparison written as a word it is checked against:
# ``compare(set1='output_of_query2', set2='output_of_query3') == 'greater'``
_OUTCOME_WORDS = frozenset({"greater", "larger", "bigger", "higher", "more", "less", "smaller",
                            "lower", "fewer", "greater than", "less than", "true"})


def _expression(ctx: Context, value: object) -> tuple[object, str, object]:
    if not isinstance(value, Text):
        raise not_applicable(ctx, "the condition is not a comparison")
    parts = read_expression(value.value)
    if parts is None or parts[1] not in COMPARISONS:
        raise not_applicable(ctx, f"cannot read the condition {value.value!r}")
    return parts


def _condition(ctx: Context, value: object, args: Args | None = None) -> bool:
    """The truth of a condition: a comparison step, a yes/no value, or a comparison text
    (whose made-up operand names are bound to the branches' values when ``args`` has them,
    :mod:`.placeholders`)."""
    if isinstance(value, Ref):
        if value.step in ctx.verdicts:
            truth = ctx.verdicts[value.step]
            ctx.notes.append(f"condition output_of_query{value.step} is {str(truth).lower()}")
            return truth
        r = resolve_set(ctx, value)
        texts = {elem_text(ctx.graph, e).strip().lower() for e in r.elems}
        if texts and texts <= _TRUE:
            return True
        if texts and texts <= _FALSE:
            return False
        raise not_applicable(ctx, f"output_of_query{value.step} is not a yes/no value")
    if isinstance(value, Text) and value.value.strip().lower() in _TRUE | _FALSE:
        return value.value.strip().lower() in _TRUE
    left, symbol, right = _expression(ctx, value)
    if args is not None and args.has_then:
        left, right = bind_placeholders(ctx, left, right, args.then, args.otherwise)
    truth, _, _ = _verdict(ctx, left, symbol, right, "if_then_else()")
    return truth


def _branch(ctx: Context, value: object) -> Result:
    if isinstance(value, Text):
        return Result.of([Scalar(value.value, value.value)])
    return resolve_set(ctx, value)


def fn_if_then_else(ctx: Context, op: Op) -> Result:
    """``if_then_else(condition=C, then=X, else=Y)``: X when C holds, else Y.

    Also reads the recorded variants: ``if('output_of_query2 > 10000', 'yes', 'no')``;
    ``if(set1=A, set2=B, operator='>', then=X, else=Y)``; and ``if(set1=A, set2=B)``
    without branches, which is a comparison (:func:`fn_compare`).
    """
    offered = _if_offered(ctx, op)
    if offered is not None:
        return offered
    args = split_args(ctx, op)
    if not args.has_then:
        only = args.operands[0] if len(args.operands) == 1 else None
        if args.condition is None and isinstance(only, Ref) and only.step in ctx.verdicts:
            ctx.verdicts[ctx.step] = ctx.verdicts[only.step]
            ctx.notes.append(f"if_then_else() of the comparison in output_of_query{only.step}, "
                             "without branches: that comparison's answer")
            return operand_result(ctx, only)
        return _compare_args(ctx, args, "if_then_else()")
    either = _either_named(ctx, args)
    if either is not None:
        return either
    if args.condition is not None:
        truth = _condition(ctx, args.condition, args)
    elif len(args.operands) == 2 and args.operator in COMPARISONS:
        left, right = bind_placeholders(ctx, args.operands[0], args.operands[1], args.then,
                                        args.otherwise)
        truth, _, _ = _verdict(ctx, left, args.operator, right, "if_then_else()")
    elif len(args.operands) == 1:
        truth = _condition(ctx, args.operands[0])
    else:
        raise not_applicable(ctx, "if_then_else() needs a condition")
    chosen = args.then if truth else args.otherwise
    if chosen is None:
        raise not_applicable(ctx, "if_then_else() has no value for this branch")
    ctx.verdicts[ctx.step] = truth
    ctx.notes.append(
        f"the condition is {'true' if truth else 'false'}: the answer is the "
        f"{'then' if truth else 'else'} value {operand_text(chosen)}"
    )
    chosen = bound_branch(ctx, chosen, args.condition)
    unchosen = bound_branch(ctx, args.otherwise if truth else args.then, args.condition)
    named = _named_branch(ctx, chosen, unchosen)
    return named if named is not None else _branch(ctx, chosen)


def _test_name(ctx: Context, step: int, other: int, question: str) -> str | None:
    """The entity a yes/no test is about and the other test is not, named in the question."""
    mine = [*ctx.names.get(step, ()), *ctx.literals.get(step, ())]
    theirs = {fold(_norm(n)) for n in (*ctx.names.get(other, ()), *ctx.literals.get(other, ()))}
    found = [n for n in mine
             if (f := fold(_norm(n))) and f not in theirs and f in question]
    return found[0] if len(found) == 1 else None


def _either_named(ctx: Context, args: Args) -> Result | None:
    """``A or B`` of two yes/no tests (the parser writes ``if_then_else(condition=A,
    then='yes', else=B)``) when the question offers the two entities the tests are about
    ("did china or north korea obtain 5 silver medals?"): the name(s) whose test holds,
    noted; ``None`` for anything else (then it is the yes/no it always was)."""
    cond, then, other = args.condition, args.then, args.otherwise
    if not (isinstance(cond, Ref) and isinstance(other, Ref) and isinstance(then, Text)
            and then.value.strip().lower() == "yes" and cond.step in ctx.verdicts
            and other.step in ctx.verdicts):
        return None
    question = fold(_norm(ctx.question or ""))  # accents aside: 'alvaro' names 'Álvaro'
    if " or " not in f" {question} ":
        return None
    first = _test_name(ctx, cond.step, other.step, question)
    second = _test_name(ctx, other.step, cond.step, question)
    if first is None or second is None or _norm(first) == _norm(second):
        return None
    holds = [name for name, step in ((first, cond.step), (second, other.step))
             if ctx.verdicts[step]]
    if not holds:
        return None
    ctx.verdicts[ctx.step] = True
    ctx.notes.append(f"the question asks which of {first!r} or {second!r}: the test about "
                     + " and ".join(repr(h) for h in holds) + " holds")
    wits = merged_witnesses([resolve_set(ctx, cond), resolve_set(ctx, other)])
    return Result(tuple(Scalar(h, h) for h in holds), tuple(wits for _ in holds))


def _row(ctx: Context, e: Elem) -> bool:
    return not isinstance(e, Scalar) and ctx.graph.is_row(int(e))


_ASKS_WHICH = re.compile(r"^\s*(which|who)\b", re.IGNORECASE)


def _named_branch(ctx: Context, chosen: object, other: object) -> Result | None:
    """"which tramway was inaugurated first, the 3s aerial tramway or the aiguille du midi?"
    with branches that are the compared years: the question asks which of the two it names,
    so the answer is the name the chosen branch's query chain is about (noted). Only when the
    question starts with which/who, names both branches' entities, and the chosen branch holds
    numbers, dates or other quantities, or table rows; else ``None``."""
    if not isinstance(chosen, Ref) or not isinstance(other, Ref) \
            or not _ASKS_WHICH.match(ctx.question or ""):
        return None
    mine, theirs = operand_name(ctx, chosen), operand_name(ctx, other)
    if mine is None or theirs is None or _norm(mine) == _norm(theirs) \
            or not _in_question(mine, ctx.question or "") \
            or not _in_question(theirs, ctx.question or ""):
        return None
    r = resolve_set(ctx, chosen)
    if not r or any(not _row(ctx, e) and quantity(ctx.graph, e) is None for e in r.elems):
        return None
    ctx.notes.append(f"the question asks which of {mine!r} and {theirs!r}: the branch's "
                     f"value {elem_text(ctx.graph, r.elems[0])!r} is about {mine!r}")
    return Result((Scalar(mine, mine),), (merged_witnesses([r]),))


def _in_question(name: str, question: str) -> bool:
    """True when the question writes ``name``, up to case, accents and punctuation
    ("st. joseph" writes ``St Joseph``; "jaen" writes ``Jaén``).

    >>> _in_question("St Joseph", "which was founded earlier, st. joseph or st james?")
    True
    >>> _in_question("Jaén", "almeria or jaen?"), _in_question("Cádiz", "almeria or jaen?")
    (True, False)
    """
    if _norm(name) in _norm(question):
        return True
    wanted = normalize(name)
    return bool(wanted) and f" {wanted} " in f" {normalize(question)} "


_SPACE = re.compile(r"\s+")


def _norm(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


_BARE_YEAR = re.compile(r"^(1\d{3}|20\d{2})$")
_A_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")


def years_against_dated(
    years: set[str], dated: set[str]
) -> tuple[set[str], set[str]] | None:
    """``(years, the years of the dated values)`` when ``years`` are bare years and each of
    ``dated`` writes exactly one year (``'1276\\nson of james ii'``, ``'10 august 1267'``):
    "born in the year 1276?" compares the year of a birth, not its whole cell. ``None`` else.

    >>> sorted(years_against_dated({"1276"}, {"1276\\nson of james ii", "10 august 1267"})[1])
    ['1267', '1276']
    >>> years_against_dated({"1276"}, {"1267–1276"}) is None
    True
    """
    if not years or not dated or not all(_BARE_YEAR.match(y) for y in years):
        return None
    found = [_A_YEAR.findall(d) for d in dated]
    if any(len(f) != 1 for f in found):
        return None
    return years, {f[0] for f in found}


def fn_equals(ctx: Context, op: Op) -> Result:
    """``yes`` when the two values are equal (as numbers when both read as numbers, else as
    text ignoring case and spacing), else ``no``."""
    args = split_args(ctx, op)
    left, right = _two_operands(ctx, args, "equals()")
    try:
        truth, _, _ = _verdict(ctx, left, "=", right, "equals()")
    except ExecutionError:  # not numbers: compare the texts instead
        a = {_norm(elem_text(ctx.graph, e)) for e in operand_result(ctx, left).elems}
        b = {_norm(elem_text(ctx.graph, e)) for e in operand_result(ctx, right).elems}
        by_year = years_against_dated(a, b) or years_against_dated(b, a)
        if by_year is not None:
            truth = bool(by_year[0]) and by_year[0] == by_year[1]
            ctx.notes.append(f"a bare year against dated values: compared by year, "
                             f"{sorted(by_year[0])[:3]} and {sorted(by_year[1])[:3]}")
        else:
            truth = bool(a) and a == b
            ctx.notes.append(f"compared as text: {sorted(a)[:3]} and {sorted(b)[:3]}")
    ctx.verdicts[ctx.step] = truth
    wits = merged_witnesses([operand_result(ctx, left), operand_result(ctx, right)])
    return _answer("yes" if truth else "no", wits)


# argument names of the element looked for (``check_inclusion(value='1st', set=...)``)
_ELEMENT_NAMES = frozenset({"value", "element", "item", "entity", "string", "text", "word",
                            "needle", "target", "substring", "x"})


def _alternative(ctx: Context, item: object) -> tuple[str | None, list[str]]:
    """An alternative of a list (``'2004'``, or ``'output_of_query3'`` whose chain looked up
    ``'Lake George'``): its name (``None`` when a lookup found nothing to name) and the
    texts to look for (its values, or its name when it holds rows)."""
    m = _REF_TEXT.match(item.value) if isinstance(item, Text) else None
    if isinstance(item, Text) and m is None:
        return item.value.strip(), [_norm(item.value)]
    ref = item if isinstance(item, Ref) else Ref(int(m.group(1))) if m is not None else None
    if ref is None:
        return None, []
    name = operand_name(ctx, ref)
    r = resolve_set(ctx, ref)
    if r and not any(_row(ctx, e) for e in r.elems):
        return name, [_norm(elem_text(ctx.graph, e)) for e in r.elems]
    return name, [_norm(name)] if name and r else []


_REF_TEXT = re.compile(r"^\s*output_of_query\s*(\d+)\s*$", re.IGNORECASE)


def _offered_alternatives(ctx: Context, pool_arg: object, element: object) -> Result | None:
    """``is_in(set=…, value_list=['2003', '2004'])`` for "was it awarded in 2003 or 2004?":
    the question offers the list's alternatives ("A or B", both written in it), so the answer
    is the alternative(s) among the set's values, not yes/no (noted). ``None`` for anything
    else, or when no alternative is among them (then the yes/no test as before)."""
    question = ctx.question or ""
    if not isinstance(element, ListValue) or len(element.items) < 2 \
            or " or " not in f" {question.lower()} ":
        return None
    alternatives = [_alternative(ctx, i) for i in element.items]
    named = [a[0] for a in alternatives if a[0] is not None]
    if not named or any(not _in_question(n, question) for n in named):
        return None
    pool = operand_result(ctx, pool_arg)
    texts = [(_norm(elem_text(ctx.graph, e)), w)
             for e, w in zip(pool.elems, pool.witnesses, strict=True)]
    held: list[tuple[str, tuple[int, ...]]] = []
    for name, needles in alternatives:
        wits = [w for t, w in texts if any(n and n == t for n in needles)]
        if wits and name is not None:
            held.append((name, merged_witnesses([Result(tuple(range(len(wits))),
                                                        tuple(wits))])))
    if not held:
        return None
    ctx.verdicts[ctx.step] = True
    ctx.notes.append(
        "the question offers " + " or ".join(
            repr(a[0]) if a[0] is not None else f"{operand_text(i)} (which found nothing)"
            for a, i in zip(alternatives, element.items, strict=True))
        + f": {' and '.join(repr(h) for h, _ in held)} "
        + f"{'is' if len(held) == 1 else 'are'} among the {len(pool)} value(s) of "
        + operand_text(pool_arg)
    )
    return Result(tuple(Scalar(h, h) for h, _ in held), tuple(w for _, w in held))


# the alternatives an ``if`` writes as one text: ``'McLaren-Honda' or 'Ferrari'`` arrives as
# ``McLaren-Honda' or 'Ferrari`` (its outer quotes taken by the parser)
_QUOTED_OR = re.compile(r"""'\s+or\s+'""")


def _if_offered(ctx: Context, op: Op) -> Result | None:
    """``if(set='output_of_query2', 'McLaren-Honda' or 'Ferrari')`` for "did he have
    McLaren-Honda or Ferrari as the constructor?": no condition and no branches, a set and
    the question's alternatives, so the answer is the alternative(s) among the set's values
    (:func:`_offered_alternatives`). ``None`` for any other shape."""
    values = [v for _, v in op.params]
    if len(values) != 2:
        return None
    refs = [v for v in values if isinstance(v, Ref)]
    texts = [v for v in values if isinstance(v, Text) and _QUOTED_OR.search(v.value)]
    if len(refs) != 1 or len(texts) != 1:
        return None
    items = tuple(Text(t.strip(" '")) for t in _QUOTED_OR.split(texts[0].value))
    return _offered_alternatives(ctx, refs[0], ListValue(items))


def fn_contains(ctx: Context, op: Op) -> Result:
    """``yes`` when a value of the set equals or contains the element's text (ignoring case
    and spacing), else ``no``; the witnesses are those of the matching values. The set comes
    first unless the first argument is named as the element (``value=``, ``element=``)."""
    args = split_args(ctx, op)
    if len(args.operands) != 2:
        raise not_applicable(ctx, "contains() needs a set and an element")
    first, second = args.operands
    if args.names[0] in _ELEMENT_NAMES and args.names[1] not in _ELEMENT_NAMES:
        first, second = second, first
    offered = _offered_alternatives(ctx, first, second)
    if offered is not None:
        return offered
    pool, element = operand_result(ctx, first), second
    needles = [_norm(elem_text(ctx.graph, e)) for e in operand_result(ctx, element).elems]
    hits = [
        (e, w)
        for e, w in zip(pool.elems, pool.witnesses, strict=True)
        if any(n and n in _norm(elem_text(ctx.graph, e)) for n in needles)
    ]
    truth = bool(hits)
    ctx.verdicts[ctx.step] = truth
    shown = ", ".join(repr(elem_text(ctx.graph, e)) for e, _ in hits[:3])
    ctx.notes.append(
        f"{operand_text(element)} {'is' if truth else 'is not'} among the {len(pool)} value(s) "
        f"of {operand_text(first)}" + (f": {shown}" if shown else "")
    )
    wits = merged_witnesses([Result(tuple(e for e, _ in hits), tuple(w for _, w in hits))])
    return _answer("yes" if truth else "no", wits)
