"""Two more per-group readings beside ``count_each`` (:mod:`.grouping`):

* ``groups_of_size(set=..., key='Nation', size>'2')``: the values of the key column whose
  group (the set's rows holding that value) has more than 2 rows (``size>=``, ``size<``,
  ``size<=``, ``size=`` likewise). Each value is shown once, in table order, witnessed by the
  key cells of its group's rows; ``count`` of it answers *how many nations have more than 2
  skiers?*.
* ``sum_each(set=..., key='Nation', value='Points')``: the sum of a numeric column per value
  of the key column, one element per group (``'Italy: 31'``), the largest sum first (ties in
  table order), each witnessed by the summed cells; *the total points of each nation*.

The key (and ``value``) is read as a column name the way ``group_by`` reads it
(:func:`.grouping.key_column`); a key or value naming no column of the rows, a size that is
not a number, or a value column with no number goes to the fallback with that reason.

>>> _sum_text("Italy", 31.0), _sum_text("Italy", 2.5)
('Italy: 31', 'Italy: 2.5')
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from ..numbers import format_number, parse_number
from ..ops.base import Context, elem_text, numeric
from ..ops.project import project
from ..query.ast import Bound, Text
from ..results import MAX_WITNESSES, Result, Scalar
from ..rewrite import Op
from .grouping import key_column, rows_and_key
from .operands import not_applicable

__all__ = ["fn_groups_of_size", "fn_sum_each"]

_SIZE_ARGS = frozenset({"size", "count", "n", "rows"})
_VALUE_ARGS = frozenset({"value", "values", "sum", "of"})
_CMP: dict[str, Callable[[float, float], bool]] = {
    ">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le,
    "=": operator.eq}


def _text(value: object) -> str | None:
    return value.value if isinstance(value, Text) else value.text if isinstance(value, Bound) \
        else None


def _arg(op: Op, names: frozenset[str]) -> str | None:
    return next((_text(v) for n, v in op.params if (n or "").lower() in names and _text(v)),
                None)


def _groups(ctx: Context, op: Op, fn: str) -> tuple[list[int], int, dict[str, list[int]]]:
    """The set's rows, the key column and the rows of each key value (in table order)."""
    rows, rel = rows_and_key(ctx, op, fn, _SIZE_ARGS | _VALUE_ARGS)
    values = project(ctx, rel, Result.of(rows))
    groups: dict[str, list[int]] = {}
    for i, e in enumerate(values.elems):
        groups.setdefault(elem_text(ctx.graph, e), []).append(i)
    return rows, rel, groups


def fn_groups_of_size(ctx: Context, op: Op) -> Result:
    """``groups_of_size(set, key, size>N)``: the key values whose group of rows has a size
    meeting the comparison (module doc)."""
    size = _arg(op, _SIZE_ARGS)
    bound = parse_number(size) if size is not None else None
    cmp = op.cmp if op.cmp in _CMP else "="
    if bound is None:
        raise not_applicable(ctx, f"groups_of_size(): the size {size!r} is not a number")
    rows, rel, groups = _groups(ctx, op, "groups_of_size()")
    values = project(ctx, rel, Result.of(rows))
    keep = [(ix[0], ix) for ix in groups.values() if _CMP[cmp](float(len(ix)), float(bound))]
    elems = tuple(values.elems[first] for first, _ in keep)
    wits = tuple(tuple(f for i in ix for f in values.witnesses[i][-1:])[:MAX_WITNESSES]
                 for _, ix in keep)
    name = ctx.graph.relation_names[rel]
    ctx.notes.append(f"groups_of_size(): {len(keep)} of the {len(groups)} {name!r} group(s) "
                     f"of the {len(rows)} row(s) have {cmp} {bound:g} row(s)")
    return Result(elems, wits)


def fn_sum_each(ctx: Context, op: Op) -> Result:
    """``sum_each(set, key, value)``: the sum of the value column per key value, the largest
    first (module doc)."""
    column = _arg(op, _VALUE_ARGS)
    rows, rel, groups = _groups(ctx, op, "sum_each()")
    g = ctx.graph
    vrel = key_column(ctx, column, rows) if column else None
    if vrel is None:
        raise not_applicable(ctx, f"sum_each(): the value {column!r} names no column of the "
                                  "rows")
    keys = project(ctx, rel, Result.of(rows))
    sums: list[tuple[str, float, tuple[int, ...]]] = []
    skipped = 0
    for text, ix in groups.items():
        total, cells = 0.0, []
        for i in ix:
            row = int(g.head_of(keys.witnesses[i][-1]))
            found = [(x, int(f)) for f in g.facts_head_rel(row, vrel).tolist()
                     if (x := numeric(g, int(g.tail_of(int(f))))) is not None]
            if not found:
                skipped += 1
                continue
            total += found[0][0]
            cells.append(found[0][1])
        if cells:
            sums.append((text, total, tuple(cells)))
    if not sums:
        raise not_applicable(ctx, f"sum_each(): no value of {g.relation_names[vrel]!r} reads "
                                  "as a number")
    sums.sort(key=lambda s: -s[1])  # stable: table order on ties
    ctx.notes.append(f"sum_each(): {g.relation_names[vrel]!r} summed per "
                     f"{g.relation_names[rel]!r} over {len(rows)} row(s), {len(sums)} "
                     "group(s), the largest first" + (
                         f"; {skipped} row(s) with no number are left out" if skipped else ""))
    elems = tuple(Scalar(_sum_text(t, x), _sum_text(t, x)) for t, x, _ in sums)
    return Result(elems, tuple(cells[:MAX_WITNESSES] for _, _, cells in sums))


def _sum_text(value: str, total: float) -> str:
    """One group of a per-group sum as it is shown: the key value and its sum."""
    return f"{value}: {format_number(total)}"
