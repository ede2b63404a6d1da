"""One-set reasoning functions: yes/no tests, the most frequent value, years and months out of
dates, the first/last element, distinct values. Each keeps its elements' witnesses.
"""

from __future__ import annotations

import re
from collections import Counter

from ..numbers import parse_quantity
from ..ops.base import Context, elem_text, intersect, resolve_set
from ..query.ast import Ref, Text
from ..results import Elem, Result, Scalar, elem_key
from ..rewrite import Op
from ..text import normalize
from .operands import merged_witnesses, not_applicable, split_args

__all__ = [
    "fn_is_empty",
    "fn_exists",
    "fn_most_frequent",
    "fn_extract_year",
    "fn_extract_month",
    "fn_first",
    "fn_last",
    "fn_distinct",
    "fn_overlaps",
    "fn_row_number",
    "fn_decade",
    "fn_is_subset",
]

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_MONTH_WORD = re.compile(r"\b(" + "|".join(m[:3] for m in _MONTHS) + r")[a-z]*\.?", re.I)
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")


def _the_set(ctx: Context, op: Op, what: str) -> Result:
    args = split_args(ctx, op)
    if len(args.operands) != 1:
        raise not_applicable(ctx, f"{what} needs one set; it got {len(args.operands)} values")
    return resolve_set(ctx, args.operands[0])


def _yes_no(ctx: Context, truth: bool, r: Result, what: str) -> Result:
    ctx.verdicts[ctx.step] = truth
    ctx.notes.append(f"{what}: the set has {len(r.distinct())} element(s), so "
                     f"{'yes' if truth else 'no'}")
    text = "yes" if truth else "no"
    return Result((Scalar(text, text),), (merged_witnesses([r]),))


def fn_is_empty(ctx: Context, op: Op) -> Result:
    """``yes`` when the set is empty, else ``no``."""
    r = _the_set(ctx, op, "is_empty()")
    return _yes_no(ctx, not r, r, "is_empty()")


def fn_exists(ctx: Context, op: Op) -> Result:
    """``yes`` when the set has an element, else ``no``."""
    r = _the_set(ctx, op, "exists()")
    return _yes_no(ctx, bool(r), r, "exists()")


def fn_overlaps(ctx: Context, op: Op) -> Result:
    """``yes`` when the two sets share an element (``check_intersection``), else ``no``."""
    args = split_args(ctx, op)
    if len(args.operands) != 2:
        raise not_applicable(ctx, f"overlaps() needs two sets; it got {len(args.operands)}")
    a, b = (resolve_set(ctx, v) for v in args.operands)
    common = intersect([a.distinct(), b.distinct()])
    ctx.verdicts[ctx.step] = bool(common)
    ctx.notes.append(f"overlaps(): the sets ({len(a.distinct())} and {len(b.distinct())} "
                     f"element(s)) share {len(common)}, so {'yes' if common else 'no'}")
    text = "yes" if common else "no"
    return Result((Scalar(text, text),), (merged_witnesses([common if common else a]),))


_TRUE_OR_FALSE = re.compile(r"\btrue or false\b|\bfalse or true\b", re.IGNORECASE)


def fn_is_subset(ctx: Context, op: Op) -> Result:
    """``yes`` when every element of the first set is in the second, compared as text
    (``is_subset``, ``all_in``), else ``no`` (true/false when the question asks "true or
    false")."""
    values = [v for _, v in op.params]  # set1 then set2, as written (a list is one set)
    if len(values) != 2:
        raise not_applicable(ctx, f"is_subset() needs two sets; it got {len(values)}")
    a, b = (resolve_set(ctx, v).distinct() for v in values)
    if not a:
        raise not_applicable(ctx, "is_subset(): the first set is empty")
    theirs = {normalize(elem_text(ctx.graph, e)) for e in b.elems}
    keep = [i for i, e in enumerate(a.elems) if normalize(elem_text(ctx.graph, e)) in theirs]
    common = Result(tuple(a.elems[i] for i in keep), tuple(a.witnesses[i] for i in keep))
    truth = len(common) == len(a)
    ctx.verdicts[ctx.step] = truth
    words = ("true", "false") if _TRUE_OR_FALSE.search(ctx.question or "") else ("yes", "no")
    ctx.notes.append(f"is_subset(): {len(common)} of the first set's {len(a)} element(s) are "
                     f"in the second ({len(b)}), so {words[0] if truth else words[1]}")
    text = words[0] if truth else words[1]
    return Result((Scalar(text, text),), (merged_witnesses([common if common else a]),))


def fn_row_number(ctx: Context, op: Op) -> Result:
    """The position in its table of each row of the set; a value stands for the row it was
    read from (its last witness fact's row)."""
    r = _the_set(ctx, op, "row_number()")
    g = ctx.graph
    elems: list[Elem] = []
    wits: list[tuple[int, ...]] = []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        row = e if not isinstance(e, Scalar) and g.is_row(e) else (
            g.head_of(w[-1]) if w else None)
        pos = g.row_position(row) if row is not None else None
        if pos is None:
            raise not_applicable(ctx, f"row_number(): {elem_text(g, e)!r} comes from no table row")
        elems.append(Scalar.number(pos[1]))
        wits.append(w)
    ctx.notes.append(f"row_number(): the table positions of {len(elems)} element(s)")
    return Result(tuple(elems), tuple(wits))


def fn_most_frequent(ctx: Context, op: Op) -> Result:
    """The value(s) occurring most often in the bag (ties: all), with their witnesses."""
    r = _the_set(ctx, op, "most_frequent()")
    source = split_args(ctx, op).operands[0]
    if isinstance(source, Ref) and source.step in ctx.groupings:  # count(set, key=column)
        r = ctx.groupings[source.step]
        ctx.notes.append(f"most_frequent() of output_of_query{source.step}, a count by a key: "
                         "read over the groups it counted")
    if not r:
        raise ctx.fail("most_frequent() of an empty set")
    if all(not isinstance(e, Scalar) and ctx.graph.is_row(e) for e in r.elems):
        raise not_applicable(ctx, "most_frequent() over rows: read a column of the rows first")
    counts = Counter(elem_key(e) for e in r.elems)
    top = max(counts.values())
    keep = [i for i, e in enumerate(r.elems) if counts[elem_key(e)] == top]
    out = Result(tuple(r.elems[i] for i in keep), tuple(r.witnesses[i] for i in keep)).distinct()
    ranked = counts.most_common(4)
    d = r.distinct()
    label = {elem_key(e): elem_text(ctx.graph, e) for e in d.elems}
    ctx.notes.append("counts: " + ", ".join(f"{label[k]!r} {n}" for k, n in ranked)
                     + (" ..." if len(counts) > 4 else ""))
    return out


def _selected_by(ctx: Context, e: Elem, witnesses: tuple[int, ...]) -> str | None:
    """The cell a table row was selected by: the value of its last witness fact, when that
    fact is about the row; ``None`` for anything else."""
    g = ctx.graph
    if isinstance(e, Scalar) or not g.is_row(e) or not witnesses:
        return None
    fact = witnesses[-1]
    return g.label(g.tail_of(fact)) if g.head_of(fact) == e else None


def _map_values(ctx: Context, op: Op, what: str, read) -> Result:  # noqa: ANN001
    r = _the_set(ctx, op, what)
    elems: list[Elem] = []
    wits: list[tuple[int, ...]] = []
    skipped = []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        text = elem_text(ctx.graph, e)
        value = read(text)
        if value is None and (cell := _selected_by(ctx, e, w)) is not None:
            value = read(cell)
            if value is not None:
                ctx.notes.append(f"{what}: {text!r} is a row, read by the value it was found by, "
                                 f"{cell!r}")
        if value is None:
            skipped.append(text)
            continue
        elems.append(value)
        wits.append(w)
    if skipped:
        ctx.notes.append(f"{what}: {len(skipped)} value(s) hold none, left out: "
                         + ", ".join(repr(s) for s in skipped[:3]))
    if not elems and r:
        raise ctx.fail(f"{what}: no value holds one ({', '.join(map(repr, skipped[:3]))})")
    return Result(tuple(elems), tuple(wits))


def _year_of(text: str) -> Scalar | None:
    q = parse_quantity(text)
    if q is not None and q[1] == "date":
        return Scalar.number(int(q[0] // 10000))
    m = _YEAR.search(text)
    return Scalar.number(int(m.group(1))) if m else None


def _month_of(text: str) -> Scalar | None:
    q = parse_quantity(text)
    if q is not None and q[1] == "date" and int(q[0] // 100) % 100:
        name = _MONTHS[int(q[0] // 100) % 100 - 1]
        return Scalar(name, name)
    m = _MONTH_WORD.search(text)
    if m is None:
        return None
    name = next(x for x in _MONTHS if x[:3].lower() == m.group(1)[:3].lower())
    return Scalar(name, name)


def fn_extract_year(ctx: Context, op: Op) -> Result:
    """The year of each value (a date's year, or a four-digit year in the text)."""
    return _map_values(ctx, op, "extract_year()", _year_of)


def _decade_of(text: str) -> Scalar | None:
    year = _year_of(text)
    if year is None:
        m = re.search(r"(?<!\d)(1\d{2}0|20\d0)s\b", text)  # 'cancelled in 1980s'
        return Scalar(f"{m.group(1)}s", f"{m.group(1)}s") if m else None
    decade = f"{int(float(year.value)) // 10 * 10}s"
    return Scalar(decade, decade)


def fn_decade(ctx: Context, op: Op) -> Result:
    """The decade of each value's year (``1985`` -> ``1980s``)."""
    return _map_values(ctx, op, "decade()", _decade_of)


def fn_extract_month(ctx: Context, op: Op) -> Result:
    """The month name of each value (from a date or a month word in the text)."""
    return _map_values(ctx, op, "extract_month()", _month_of)


def _ordered(ctx: Context, r: Result) -> list[int]:
    g = ctx.graph
    pos = [None if isinstance(e, Scalar) else g.row_position(e) for e in r.elems]
    if all(p is not None for p in pos):
        return sorted(range(len(r)), key=lambda i: pos[i])  # type: ignore[arg-type,return-value]
    return list(range(len(r)))


# ``get_any(set=..., n='1')``: a count argument asking for one element is the plain call
_ONE_OF = frozenset({"n", "k", "count", "number", "num", "limit"})


def _without_count_of_one(op: Op) -> Op:
    params = tuple((n, v) for n, v in op.params
                   if not ((n or "").lower() in _ONE_OF and isinstance(v, Text)
                           and v.value.strip() in ("1", "one")))
    return Op(op.name, params, op.cmp, op.out)


def _how_many(op: Op) -> int:
    """``n='2'`` (``choose_n(set, n=2)``, ``first(set, k='3')``): how many to take, else 1."""
    for name, value in op.params:
        if (name or "").lower() in _ONE_OF and isinstance(value, Text) \
                and value.value.strip().isdigit() and 1 < int(value.value) <= 100:
            return int(value.value)
    return 1


def _end(ctx: Context, op: Op, last: bool) -> Result:
    what = "last()" if last else "first()"
    n = _how_many(op)
    params = tuple((k, v) for k, v in op.params if (k or "").lower() not in _ONE_OF) \
        if n > 1 else _without_count_of_one(op).params
    r = _the_set(ctx, Op(op.name, params, op.cmp, op.out), what).distinct()
    if not r:
        raise ctx.fail(f"{what} of an empty set")
    order = _ordered(ctx, r)
    picked = order[-n:] if last else order[:n]
    ctx.notes.append(f"{what}: the {'last' if last else 'first'} "
                     f"{'' if n == 1 else f'{len(picked)} '}of {len(r)} element(s) "
                     "in table order")
    return Result(tuple(r.elems[i] for i in picked), tuple(r.witnesses[i] for i in picked))


def fn_first(ctx: Context, op: Op) -> Result:
    """The first element (the first row in table order)."""
    return _end(ctx, op, last=False)


def fn_last(ctx: Context, op: Op) -> Result:
    """The last element (the last row in table order)."""
    return _end(ctx, op, last=True)


def fn_distinct(ctx: Context, op: Op) -> Result:
    """Each element once."""
    return _the_set(ctx, op, "distinct()").distinct()
