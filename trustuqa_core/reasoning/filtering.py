"""The rows of a set kept by one column's value: ``filter(set=..., key='Place', value='1st')``
(``filter_by``, ``where``, ``filter_rows``), the yes/no test ``check(set=..., key='Place',
value>='15th')`` and ``max(set=..., key='Fillrate')`` over values that are not numbers (the
set's rows compared by a named column instead).

The key is read as a column name the way ``group_by`` reads it
(:func:`.grouping.key_column`); a value compares as text (ignoring case, spacing and
punctuation) or as numbers when both read as one (``'1st'`` and ``1``, ``'15th'``), and with
``> < >= <=`` as numbers of one kind (places, dates, durations). The kept elements are the
set's own (a value of the set is kept when its row is), with their witnesses.
"""

from __future__ import annotations

from ..numbers import parse_quantity
from ..ops.base import Context, elem_text, quantity, resolve_set
from ..query.ast import Bound, Text
from ..results import Result, Scalar
from ..rewrite import Op
from ..text import normalize
from .grouping import KEY_ARGS, key_column, rows_of
from .operands import not_applicable

__all__ = ["fn_filter", "filter_rows", "has_key", "keyed_extreme"]

_VALUE_ARGS = frozenset({"value", "tail_entity", "equals", "condition_value", "target"})
_OPS = {">": float.__gt__, "<": float.__lt__, ">=": float.__ge__, "<=": float.__le__}


def has_key(op: Op) -> bool:
    """True when the call names a column (``key=``, ``by=``, ...)."""
    return any((n or "").lower() in KEY_ARGS - {"relation"} for n, _ in op.params)


def _text(value: object) -> str | None:
    return value.value if isinstance(value, Text) else value.text if isinstance(value, Bound) \
        else None


def _cell_matches(cell: str, wanted: str, cmp: str) -> bool:
    got, want = parse_quantity(cell), parse_quantity(wanted)
    if cmp == "=":
        if normalize(cell) == normalize(wanted):
            return True
        return got is not None and want is not None and got[0] == want[0] and (
            got[1] == want[1] or "number" in (got[1], want[1]))
    if got is None or want is None or (got[1] != want[1] and "number" not in (got[1], want[1])):
        return False
    if cmp == "!=":
        return got[0] != want[0]
    return bool(_OPS[cmp](float(got[0]), float(want[0])))


def filter_rows(ctx: Context, op: Op, what: str) -> Result:
    """The elements of the set whose row's key column holds the value (module doc)."""
    key = next((_text(v) for n, v in op.params if (n or "").lower() in KEY_ARGS
                and (n or "").lower() != "relation" and _text(v)), None)
    wanted = next((_text(v) for n, v in op.params if (n or "").lower() in _VALUE_ARGS), None)
    sets = [v for n, v in op.params
            if (n or "").lower() not in KEY_ARGS | _VALUE_ARGS and _text(v) is None]
    if key is None or wanted is None or len(sets) != 1:
        raise not_applicable(ctx, f"{what} needs one set, a key column and a value")
    s = resolve_set(ctx, sets[0])
    rows = rows_of(ctx, s)
    if not rows:
        raise not_applicable(ctx, f"{what}: the set holds no table rows")
    rel = key_column(ctx, key, rows)
    if rel is None:
        own = _own_values(ctx, s, key, wanted, op.cmp, what)
        if own is not None:
            return own
        raise not_applicable(ctx, f"{what}: the key {key!r} names no column of the rows")
    g = ctx.graph
    kept_rows = set()
    for row in rows:
        cells = [g.label(t) for t in g.tails_of(g.facts_head_rel(row, rel))]
        if any(_cell_matches(c, wanted, op.cmp) for c in cells):
            kept_rows.add(row)
    keep = [i for i, (e, w) in enumerate(zip(s.elems, s.witnesses, strict=True))
            if (not isinstance(e, Scalar) and int(e) in kept_rows)
            or (w and g.head_of(w[-1]) in kept_rows)]
    ctx.notes.append(f"{what}: {len(kept_rows)} of the {len(rows)} row(s) have "
                     f"{g.relation_names[rel]!r} {op.cmp} {wanted!r}")
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep))


def _own_values(ctx: Context, s: Result, key: str, wanted: str, cmp: str,
                what: str) -> Result | None:
    """A key naming no column, over a set of values (not rows): the key describes the values
    (``check(set=<the dates>, key='publication year', value='1844')``), so the set's own
    values are tested, noted; ``None`` for a set of rows."""
    g = ctx.graph
    if any(not isinstance(e, Scalar) and g.is_row(int(e)) for e in s.elems):
        return None
    keep = [i for i, e in enumerate(s.elems) if _cell_matches(elem_text(g, e), wanted, cmp)]
    ctx.notes.append(f"{what}: the key {key!r} names no column of the rows: the set's own "
                     f"values are tested, {len(keep)} of {len(s)} {cmp} {wanted!r}")
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep))


def fn_filter(ctx: Context, op: Op) -> Result:
    """``filter(set, key, value)``: the set's elements whose row has that value."""
    return filter_rows(ctx, op, "filter()")


def keyed_extreme(ctx: Context, op: Op, largest: bool) -> Result:
    """``max(set=..., key='Fillrate')``: the set's elements whose row holds the largest
    (smallest) number in the named column, noted."""
    key = next((_text(v) for n, v in op.params if (n or "").lower() in KEY_ARGS
                and (n or "").lower() != "relation" and _text(v)), None)
    s = resolve_set(ctx, op.param("set"))
    rows = rows_of(ctx, s)
    rel = key_column(ctx, key, rows) if key and rows else None
    if rel is None:
        raise not_applicable(ctx, f"{op.name}(): the key {key!r} names no column of the rows")
    g = ctx.graph
    values: dict[int, float] = {}
    for row in rows:
        for t in g.tails_of(g.facts_head_rel(row, rel)):
            q = quantity(g, int(t))
            if q is not None:
                values[row] = q[0]
                break
    if not values:
        raise not_applicable(ctx, f"{op.name}(): no value of {g.relation_names[rel]!r} "
                                  "reads as a number")
    best = max(values.values()) if largest else min(values.values())
    winners = {r for r, x in values.items() if x == best}
    keep = [i for i, (e, w) in enumerate(zip(s.elems, s.witnesses, strict=True))
            if (not isinstance(e, Scalar) and int(e) in winners)
            or (w and g.head_of(w[-1]) in winners)]
    shown = ", ".join(repr(elem_text(g, s.elems[i])) for i in keep[:3])
    ctx.notes.append(f"{op.name}() by {g.relation_names[rel]!r} (the key): "
                     f"{'largest' if largest else 'smallest'} is {best:g}, of {shown}")
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep)).distinct()
