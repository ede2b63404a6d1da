"""``sort`` and the n-th largest / smallest value of one bag.

``sort(set=..., order='descending')`` orders the values by the number each reads as (the way
``max``/``min`` read them: plain numbers, dates, durations, ordinals) when every value reads as
one number of one kind, else alphabetically (ignoring case); ``key='alphabetical'`` asks for
the alphabetical order outright. The step records that its result is ordered, so a later
lookup that needs one value (``get_information(relation='Points',
tail_entity='output_of_query2')``) reads the sorted result as its first element
(:func:`trustuqa_core.ops.select.op_select`), with a note.

``nth_largest(set=..., n=2)`` (``second_max``, ``nth_highest``) is the n-th largest distinct
number; ``nth_smallest`` the n-th smallest.

``consecutive(set=..., value='Standard')`` is the length of the longest run of that value in
table order; without a value, over whole numbers (years), the longest run of consecutive
numbers among the distinct values. An empty set has no run: 0, as ``count`` of it is 0
(noted).

>>> descending([("order", "descending")]), descending([("ascending", "False")])
(True, True)
>>> descending([("order", "ascending")]), descending([])
(False, False)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from ..function_names import RESULT_WORDS
from ..numbers import format_number
from ..ops.base import Context, elem_text, quantity, resolve_set, without_summary_rows
from ..query.ast import Bound, Ref, Text
from ..results import MAX_WITNESSES, Result, Scalar
from ..rewrite import Op
from .operands import not_applicable, split_args

__all__ = ["fn_sort", "fn_nth_largest", "fn_nth_smallest", "fn_consecutive", "descending"]

_DOWN = frozenset({"descending", "desc", "decreasing", "down", "reverse", "largest_first",
                   "highest_first", "high_to_low", "max_to_min"})
_UP = frozenset({"ascending", "asc", "increasing", "up", "smallest_first", "lowest_first",
                 "low_to_high", "min_to_max"})
_ORDER_NAMES = frozenset({"order", "direction", "sort_order", "orderby", "order_by", "how",
                          "sort", "by", "type", "mode", "key"})
_YES = frozenset({"true", "yes", "1"})
_NO = frozenset({"false", "no", "0"})
_ALPHABETICAL = frozenset({"alphabetical", "alphabetically", "alpha", "name", "lexicographic",
                           "text", "string"})


def _word(value: object) -> str:
    text = value.value if isinstance(value, Text) else value.text if isinstance(value, Bound) \
        else str(value)
    return text.strip().lower().replace(" ", "_").replace("-", "_")


def descending(params: list[tuple[str, object]] | tuple[tuple[str, object], ...]) -> bool:
    """True when the arguments ask for the largest first (``order='descending'``,
    ``ascending=False``, ``reverse=True``)."""
    for name, value in params:
        key, word = (name or "").lower(), _word(value)
        if key == "ascending" and word in _NO | _YES:
            return word in _NO
        if key in ("reverse", "descending") and word in _NO | _YES:
            return word in _YES
        if word in _DOWN:
            return True
        if word in _UP:
            return False
    return False


def _alphabetical(params: tuple[tuple[str, object], ...]) -> bool:
    return any(_word(v) in _ALPHABETICAL for _, v in params)


def _the_set(ctx: Context, op: Op, what: str) -> Result:
    args = split_args(ctx, Op(op.name, tuple((n, v) for n, v in op.params
                                             if (n or "").lower() not in _SORT_ARGS), op.cmp))
    if len(args.operands) != 1:
        raise not_applicable(ctx, f"{what} needs one set; it got {len(args.operands)} values")
    return resolve_set(ctx, args.operands[0])


_SORT_ARGS = _ORDER_NAMES | {"ascending", "reverse", "descending", "n", "k", "rank", "nth",
                             "position", "index"}
_VALUE_ARGS = frozenset({"value", "element", "target", "item", "equals", "match"})


def _numbers(ctx: Context, r: Result) -> list[float] | None:
    """One number per element when all read as numbers of one kind, else ``None``."""
    reads = [quantity(ctx.graph, e) for e in r.elems]
    if any(q is None for q in reads):
        return None
    kinds = {q[1] for q in reads if q is not None}
    if len(kinds) != 1:
        return None
    return [q[0] for q in reads if q is not None]


def _plain(q: tuple[float, str] | None) -> tuple[float, str] | None:
    """A leading number (``2007, 2010``) sorts with plain numbers."""
    return (q[0], "number") if q is not None and q[1] == "leading number" else q


def _mostly_numbers(ctx: Context, r: Result) -> list[float | None] | None:
    """One number per element (``None`` where it reads as none) when at least half of the
    elements read as numbers of one kind, else ``None``."""
    reads = [_plain(quantity(ctx.graph, e)) for e in r.elems]
    kinds = Counter(q[1] for q in reads if q is not None)
    if not kinds:
        return None
    kind, n = kinds.most_common(1)[0]
    if 2 * n < len(reads):
        return None
    return [q[0] if q is not None and q[1] == kind else None for q in reads]


def fn_sort(ctx: Context, op: Op) -> Result:
    """The values in order (module doc); the step is marked as ordered."""
    r = _the_set(ctx, op, "sort()")
    down = descending(op.params)
    numbers = None if _alphabetical(op.params) else _mostly_numbers(ctx, r)
    if numbers is not None:
        read = [i for i, x in enumerate(numbers) if x is not None]
        rest = [i for i, x in enumerate(numbers) if x is None]
        order = sorted(read, key=lambda i: numbers[i] or 0.0, reverse=down) + rest
        how = "by their numbers" + (f" ({len(rest)} that read as none put last)" if rest else "")
    else:
        texts = [elem_text(ctx.graph, e).strip().casefold() for e in r.elems]
        order = sorted(range(len(r)), key=lambda i: texts[i], reverse=down)
        how = "alphabetically"
    ctx.ordered.add(ctx.step)
    out = Result(tuple(r.elems[i] for i in order), tuple(r.witnesses[i] for i in order))
    shown = ", ".join(repr(elem_text(ctx.graph, e)) for e in out.elems[:3])
    ctx.notes.append(f"sort(): {len(r)} value(s) {how}, "
                     f"{'largest' if down else 'smallest'} first: {shown}"
                     + (" ..." if len(r) > 3 else ""))
    return out


def _n(ctx: Context, op: Op) -> int:
    for name, value in op.params:
        if (name or "").lower() in ("n", "k", "rank", "nth", "position", "index"):
            text = _word(value)
            if text.isdigit() and int(text) >= 1:
                return int(text)
            raise not_applicable(ctx, f"{op.name}(): {text!r} is not a position")
    raise not_applicable(ctx, f"{op.name}() needs n=")


def _nth(ctx: Context, op: Op, largest: bool) -> Result:
    what = f"{op.name}()"
    r = without_summary_rows(ctx, _the_set(ctx, op, what), what)
    n = _n(ctx, op)
    numbers = _numbers(ctx, r)
    if numbers is None:
        raise not_applicable(ctx, f"{what}: the values are not numbers of one kind")
    distinct = sorted(set(numbers), reverse=largest)
    if n > len(distinct):
        raise ctx.fail(f"{what}: there are only {len(distinct)} distinct value(s)")
    pick = distinct[n - 1]
    keep = [i for i, x in enumerate(numbers) if x == pick]
    ctx.notes.append(
        f"{what}: the {'largest' if largest else 'smallest'} distinct values are "
        + ", ".join(format_number(x) for x in distinct[:n + 1])
        + f"; number {n} is {format_number(pick)} ({elem_text(ctx.graph, r.elems[keep[0]])!r})"
    )
    return Result(tuple(r.elems[i] for i in keep), tuple(r.witnesses[i] for i in keep)).distinct()


def fn_nth_largest(ctx: Context, op: Op) -> Result:
    """The n-th largest distinct number of the bag (``n=2``: the second largest)."""
    return _nth(ctx, op, largest=True)


def fn_nth_smallest(ctx: Context, op: Op) -> Result:
    """The n-th smallest distinct number of the bag."""
    return _nth(ctx, op, largest=False)



def _run_value(op: Op) -> str | None:
    for name, value in op.params:
        if (name or "").lower() in _VALUE_ARGS:
            return value.value if isinstance(value, Text) else value.text \
                if isinstance(value, Bound) else None
    return None


# a game result's one-letter code in tables of games (``W 13–7``, ``L``)
_RESULT_LETTER = {"win": "w", "loss": "l", "draw": "d", "tie": "t"}


def _value_matcher(wanted: str) -> Callable[[str], bool]:
    """Which values a run is of: equal to ``wanted``; for a game result (``win``, ``loss``,
    read from names like ``consecutive_losses``) also a value whose first word is that result
    or its one-letter code (``Loss``, ``W 13–7``, ``L 8-21 OT``)."""
    key = wanted.strip().casefold()
    result = RESULT_WORDS.get(key)
    words = {key} if result is None else {result, _RESULT_LETTER[result],
                                          *(w for w, r in RESULT_WORDS.items() if r == result)}

    def matches(text: str) -> bool:
        folded = text.strip().casefold()
        if folded == key:
            return True
        first = re.split(r"[\s\d(–-]", folded, maxsplit=1)[0] if result else ""
        return bool(first) and first in words

    return matches


def _adjacent_rows(ctx: Context, r: Result, positions: list[tuple[int, int]],
                   wanted: str | None) -> Result:
    """A set of table rows: the longest run of rows next to each other in the table."""
    order = sorted({(src, i): w for (src, i), w in zip(positions, r.witnesses,
                                                         strict=True)}.items())
    best, start, run = 1, 0, 1
    for k in range(1, len(order)):
        (s0, i0), (s1, i1) = order[k - 1][0], order[k][0]
        run = run + 1 if s1 == s0 and i1 == i0 + 1 else 1
        if run > best:
            best, start = run, k - run + 1
    ignored = f" (the set is already the rows; {wanted!r} is not looked for again)" \
        if wanted is not None else ""
    ctx.notes.append(f"consecutive(): the set holds table rows: the longest run of rows next "
                     f"to each other is {best} long{ignored}")
    flat = tuple(f for _, w in order[start:start + best] for f in w)[:MAX_WITNESSES]
    return Result((Scalar.number(best),), (flat,))


def fn_consecutive(ctx: Context, op: Op) -> Result:
    """The longest run (module doc), as a number; the witnesses are those of the run."""
    wanted = _run_value(op)
    params = tuple((n, v) for n, v in op.params if (n or "").lower() not in _VALUE_ARGS)
    refs = [(n, v) for n, v in params if isinstance(v, Ref)]
    if len(refs) == 1 and len(params) > 1:  # consecutive_wins(set=..., tail_entity='this season')
        ctx.notes.append("consecutive(): runs over the one earlier result; the other "
                         "argument(s) (" + ", ".join(repr(_word(v)) for n, v in params
                                                     if not isinstance(v, Ref)) + ") not read")
        params = tuple(refs)
    r = _the_set(ctx, Op(op.name, params, op.cmp), "consecutive()")
    if not r:  # as ``count`` of an empty set is 0: no element, so no run
        ctx.notes.append("consecutive(): the set is empty, so there is no run: 0 (as count() "
                         "of an empty set is 0)")
        return Result((Scalar.number(0),), ((),))
    rows = [ctx.graph.row_position(e) if not isinstance(e, Scalar) else None for e in r.elems]
    if all(pos is not None for pos in rows):
        return _adjacent_rows(ctx, r, [pos for pos in rows if pos is not None], wanted)
    if wanted is not None:
        matches = _value_matcher(wanted)
        hits = [matches(elem_text(ctx.graph, e)) for e in r.elems]
        best, start, run = 0, 0, 0
        for i, hit in enumerate(hits):
            run = run + 1 if hit else 0
            if run > best:
                best, start = run, i - run + 1
        what = f"{wanted!r} in table order"
        if wanted.strip().casefold() in RESULT_WORDS:
            what += " (a game result: values whose first word is it or its letter)"
        wits = r.witnesses[start:start + best]
    else:
        numbers = _numbers(ctx, r)
        if numbers is None or any(x != int(x) for x in numbers):
            raise not_applicable(ctx, "consecutive() needs a value to look for, or whole numbers")
        distinct = sorted({int(x) for x in numbers})
        best, start, run = 1, 0, 1
        for i in range(1, len(distinct)):
            run = run + 1 if distinct[i] == distinct[i - 1] + 1 else 1
            if run > best:
                best, start = run, i - run + 1
        span = distinct[start:start + best]
        what = f"consecutive numbers ({span[0]}–{span[-1]})"
        wits = tuple(w for e, w in zip(r.elems, r.witnesses, strict=True)
                     if (q := quantity(ctx.graph, e)) is not None and span[0] <= q[0] <= span[-1])
    ctx.notes.append(f"consecutive(): the longest run of {what} is {best} long")
    flat = tuple(f for w in wits for f in w)[:MAX_WITNESSES]
    return Result((Scalar.number(best),), (flat,))
