"""``group_by(set=..., key='Location')`` and the other names of its family (``count_by``,
``count_by_key``, ``group_by_country``): the rows of the set grouped by one column.

The result is the key column's value of each row of the set (a bag, in table order, each
value witnessed by its row), and the step is marked as a grouping, so a ``max`` / ``min`` of
it picks the group with the most / fewest rows (:func:`frequency_extreme`), which is what
``group_by(...); max(set='output_of_query2')`` asks for. The key is read as a column name
(equal once normalised, else a column whose words hold the key's words or the other way
round); a key naming no column of the rows goes to the LLM fallback with that reason.

``count_each(set=..., key='Nation')`` is the per-group count itself (*how many skiers does
each nation have?*): one element per group, ``'France: 4'``, the groups with the most rows
first (ties in table order), each witnessed by the key cells of its rows.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np

from ..ops.base import Context, elem_text, resolve_set
from ..ops.project import project
from ..query.ast import Bound, Ref, Text
from ..results import MAX_WITNESSES, Result, Scalar
from ..rewrite import Op
from ..text import normalize
from .operands import not_applicable

__all__ = ["fn_group_by", "fn_count_each", "frequency_extreme", "key_column", "keyed_count",
           "rows_of", "column_function", "KEY_ARGS"]

# argument names that carry the grouping column
KEY_ARGS = frozenset({"key", "by", "group_by", "groupby", "column", "relation", "attribute",
                       "field", "group", "property", "category"})
# arguments that say what to do with each group (a count is the only reading)
_HOW_ARGS = frozenset({"function", "operation", "aggregate", "agg", "op", "method", "func"})


def _text(value: object) -> str | None:
    return value.value if isinstance(value, Text) else value.text if isinstance(value, Bound) \
        else None


def key_column(ctx: Context, key: str, rows: list[int]) -> int | None:
    """The column of the rows ``key`` names: equal once normalised, else one whose words hold
    the key's words or the other way round (``Country`` -> ``Country of birth``)."""
    g = ctx.graph
    have = np.unique(g.rels_of(g.facts_heads(np.asarray(rows, dtype=np.int64)))).tolist()
    wanted = normalize(key)
    names = {r: normalize(g.relation_names[r]) for r in have}
    exact = [r for r, n in names.items() if n == wanted]
    if exact:
        return int(exact[0])
    words = set(wanted.split())
    loose = [r for r, n in names.items()
             if words and (words <= set(n.split()) or set(n.split()) <= words and n)]
    return int(loose[0]) if len(loose) == 1 else None


def rows_of(ctx: Context, r: Result) -> list[int]:
    """The table rows a set is about: its rows, or the rows its values were read from."""
    g, rows = ctx.graph, []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        if not isinstance(e, Scalar) and g.is_row(int(e)):
            rows.append(int(e))
        elif w and g.is_row(h := g.head_of(w[-1])):
            rows.append(int(h))
    return list(dict.fromkeys(rows))


def _grouping(ctx: Context, what: str, rel: int, rows: list[int]) -> Result:
    """The ``rel`` value of each row, the step marked as a grouping (with its note)."""
    values = project(ctx, rel, Result.of(rows))
    counts = Counter(elem_text(ctx.graph, e) for e in values.elems)
    shown = ", ".join(f"{t!r} {c}" for t, c in counts.most_common(4))
    ctx.grouped.add(ctx.step)
    ctx.notes.append(f"{what}: the {ctx.graph.relation_names[rel]!r} of each of the "
                     f"{len(rows)} row(s), {len(counts)} group(s) ({shown} ...); a max/min of "
                     "it is the group with the most/fewest rows")
    return values


# a key that names the rows themselves: each row is its own group member
_ROW_KEYS = frozenset({"row_number", "row", "rows", "row number", "id"})


def keyed_count(ctx: Context, op: Op, s: Result) -> Result | None:
    """``count(set=..., key=K)`` (also ``group_by=``, ``by=``): K read as a value of the set
    counts its occurrences, as a value of the set's rows counts the rows holding it; K naming
    a column of the set's rows (or ``row_number``: the set's own values, one per row) keeps
    the grouping for a later max/min/most_frequent (``ctx.groupings``) and returns ``None``,
    as it does when K is none of these (the count is then the plain count).

    >>> keyed_count.__name__
    'keyed_count'
    """
    key = next((_text(v) for n, v in op.params
                if (n or "").lower() in KEY_ARGS - {"relation"} and _text(v)), None)
    if key is None or not s:
        return None
    g = ctx.graph
    rows_only = all(not isinstance(e, Scalar) and g.is_row(int(e)) for e in s.elems)
    if not rows_only:
        wanted = normalize(key)
        keep = [i for i, e in enumerate(s.elems) if normalize(elem_text(g, e)) == wanted]
        if keep:
            ctx.notes.append(f"count(): the key {key!r} is a value of the set; it occurs "
                             f"{len(keep)} time(s) among the {len(s)} value(s)")
            wits = tuple(w for i in keep for w in s.witnesses[i])
            return Result((Scalar.number(len(keep)),), (wits[:MAX_WITNESSES],))
    rows = rows_of(ctx, s)
    if not rows:
        return None
    if normalize(key) in _ROW_KEYS:
        if not rows_only:
            _keep_grouping(ctx, key, "the set's values, one per row", s)
        return None
    rel = key_column(ctx, key, rows)
    if rel is not None:
        values = project(ctx, rel, Result.of(rows))
        _keep_grouping(ctx, key, f"the {g.relation_names[rel]!r} of each of the {len(rows)} "
                       "row(s)", values)
        return None
    return _rows_holding(ctx, key, op, rows)


def _keep_grouping(ctx: Context, key: str, what: str, values: Result) -> None:
    """Remember the groups a keyed count counted (its answer stays the count), noted."""
    counts = Counter(elem_text(ctx.graph, e) for e in values.elems)
    shown = ", ".join(f"{t!r} {c}" for t, c in counts.most_common(4))
    ctx.groupings[ctx.step] = values
    ctx.notes.append(f"count() by {key!r}: {what}, {len(counts)} group(s) ({shown} ...); the "
                     "count is of the set, and a max/min/most_frequent of this step is the "
                     "group with the most/fewest rows")


def _rows_holding(ctx: Context, key: str, op: Op, rows: list[int]) -> Result | None:
    """The set's rows holding the key as a cell (equal once normalised, or the cell the
    mapper matched it to), counted; ``None`` when no row holds it."""
    g = ctx.graph
    bound = next((v for n, v in op.params if isinstance(v, Bound) and _text(v) == key), None)
    mapped = bound.labels if bound is not None and bound.role in ("value", "entity") else ()
    wanted = {normalize(key)} | {normalize(t) for t in mapped}
    hits: list[tuple[int, int]] = []
    for row in rows:
        facts = g.facts_heads(np.asarray([row], dtype=np.int64))
        tails = g.tails_of(facts).tolist()
        found = next((int(f) for f, t in zip(facts.tolist(), tails, strict=True)
                      if normalize(g.label(int(t))) in wanted), None)
        if found is not None:
            hits.append((row, found))
    if not hits:
        return None
    ctx.notes.append(f"count(): {len(hits)} of the set's {len(rows)} row(s) hold {key!r} "
                     "(the key read as a value of their rows)")
    wits = tuple(f for _, f in hits)[:MAX_WITNESSES]
    return Result((Scalar.number(len(hits)),), (wits,))


def fn_group_by(ctx: Context, op: Op) -> Result:
    """The key column's value of each row of the set (module doc)."""
    how = next((_text(v) for n, v in op.params if (n or "").lower() in _HOW_ARGS), None)
    if how is not None and "count" not in how.lower():
        raise not_applicable(ctx, f"group_by(): {how!r} of each group is not a count")
    rows, rel = rows_and_key(ctx, op, "group_by()")
    return _grouping(ctx, "group_by()", rel, rows)


def rows_and_key(ctx: Context, op: Op, fn: str,
                 named: frozenset[str] = _HOW_ARGS) -> tuple[list[int], int]:
    """The rows of a grouping call's one set and the column its key names (``group_by``,
    ``count_each``, ``sum_each`` ...; ``named``: the call's other argument names, which are
    no set); not applicable, said in ``fn``'s name, when either is missing."""
    key = next((_text(v) for n, v in op.params if (n or "").lower() in KEY_ARGS
                and _text(v)), None)
    sets = [v for n, v in op.params if (n or "").lower() not in KEY_ARGS | named]
    if key is None or len(sets) != 1:
        raise not_applicable(ctx, f"{fn} needs one set and a key column")
    rows = rows_of(ctx, resolve_set(ctx, sets[0]))
    if not rows:
        raise not_applicable(ctx, f"{fn}: the set holds no table rows")
    rel = key_column(ctx, key, rows)
    if rel is None:
        raise not_applicable(ctx, f"{fn}: the key {key!r} names no column of the rows")
    return rows, rel


def fn_count_each(ctx: Context, op: Op) -> Result:
    """``count_each(set=..., key=K)``: how many rows of the set each value of the column K
    has, as one element per group (``'Italy: 3'``), largest group first, ties in table
    order; each group is witnessed by the K cells of its rows. A row with no K cell is in no
    group (the note says how many).

    >>> _group_text("Italy", 3)
    'Italy: 3'
    """
    rows, rel = rows_and_key(ctx, op, "count_each()")
    values = project(ctx, rel, Result.of(rows))
    groups: dict[str, list[int]] = {}
    for i, e in enumerate(values.elems):
        groups.setdefault(elem_text(ctx.graph, e), []).append(i)
    ranked = sorted(groups.items(), key=lambda kv: -len(kv[1]))  # stable: table order on ties
    elems = tuple(Scalar(_group_text(t, len(ix)), _group_text(t, len(ix))) for t, ix in ranked)
    wits = tuple(tuple(f for i in ix for f in values.witnesses[i][-1:])[:MAX_WITNESSES]
                 for _, ix in ranked)
    name = ctx.graph.relation_names[rel]
    blank = len(rows) - len(values)
    ctx.notes.append(f"count_each(): the {len(rows)} row(s) by {name!r}, {len(groups)} "
                     "group(s), the largest first" + (
                         f"; {blank} row(s) with no {name!r} are in no group" if blank > 0
                         else ""))
    return Result(elems, wits)


def _group_text(value: str, n: int) -> str:
    """One group of a per-group count as it is shown: the key value and its count."""
    return f"{value}: {n}"


def frequency_extreme(ctx: Context, name: str, s: Result) -> Result:
    """``max`` / ``min`` of a grouping: the value(s) occurring most / least often."""
    counts = Counter(elem_text(ctx.graph, e) for e in s.elems)
    best = max(counts.values()) if name == "max" else min(counts.values())
    winners = {t for t, c in counts.items() if c == best}
    keep = [i for i, e in enumerate(s.elems) if elem_text(ctx.graph, e) in winners]
    ctx.notes.append(f"{name}() of a grouping: the group(s) with the "
                     f"{'most' if name == 'max' else 'fewest'} rows ({best}): "
                     + ", ".join(repr(t) for t in sorted(winners)))
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep)).distinct()


# a verb before the column a made-up function is named after: ``get_country``
_VERBS = re.compile(r"^(?:get|find|extract|lookup|look_up|read|the)_")


def column_function(ctx: Context, func: str, args: tuple[object, ...]) -> Result | None:
    """A function the language lacks, named after a column of its one operand's rows
    (``distance(output_of_query2)`` over ``Distance`` values, ``country(set=...)`` of
    winners in a table with a ``Country`` column): that column's value of each row, noted.
    ``None`` when the call has other than one earlier result, the rows have no such column,
    or the name is no column name.

    >>> _VERBS.sub("", "get_country")
    'country'
    """
    refs = [a for a in args if isinstance(a, Ref)]
    if len(refs) != 1 or len(args) != 1:
        return None
    rows = rows_of(ctx, resolve_set(ctx, refs[0]))
    name = _VERBS.sub("", func.strip().lower()).replace("_", " ").strip()
    if not rows or not name:
        return None
    rel = key_column(ctx, name, rows)
    if rel is None or normalize(ctx.graph.relation_names[rel]) != normalize(name):
        return None
    ctx.notes.append(f"{func}() is not part of the query language, but it names the column "
                     f"{ctx.graph.relation_names[rel]!r} of the {len(rows)} row(s) of "
                     f"output_of_query{refs[0].step}: read as that column's values")
    return project(ctx, rel, Result.of(rows))
