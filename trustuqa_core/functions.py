"""Reasoning functions of the query language: set operations, aggregates, ``keep``, rows.

Aggregates work on bags: ``sum``/``mean`` count every element (two rows worth 10 sum to 20);
``count`` counts distinct elements -- rows are distinct elements, so counting selected rows
counts every row, while counting projected values counts different values; a count of 0 is an
answer like any other. ``max``/``min`` return the extreme elements themselves, so the answer
keeps its original text and its witnesses.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable

import numpy as np

from .fallback import FallbackRequest
from .numbers import format_number, ordinal_text, parse_number
from .ops import Context, elem_text, intersect, numeric, project, quantity, resolve_set, union
from .ops.base import summary_rows_left_out, without_summary_rows
from .query.ast import Bound, Ref, Text
from .reasoning import REASONING
from .reasoning.filtering import has_key, keyed_extreme
from .reasoning.grouping import frequency_extreme, keyed_count
from .reasoning.order import extreme_without_numbers
from .results import MAX_WITNESSES, Elem, Result, Scalar, elem_key
from .rewrite import Op
from .store import EMPTY

__all__ = ["FUNCTIONS"]


def _sets(ctx: Context, op: Op) -> list[Result]:
    return [resolve_set(ctx, v) for k, v in op.params if k and k.startswith("set")]


def _one_set(ctx: Context, op: Op) -> Result:
    value = op.param("set")
    if value is None:
        raise ctx.fail(f"{op.name}() needs set=...")
    return resolve_set(ctx, value)


def fn_set_union(ctx: Context, op: Op) -> Result:
    """Elements in any of the sets (each once)."""
    return union(_sets(ctx, op))


def fn_set_intersection(ctx: Context, op: Op) -> Result:
    """Elements in every set."""
    sets = _sets(ctx, op)
    if len(sets) < 2:
        raise ctx.fail("set_intersection() needs at least two sets")
    return intersect(sets)


def fn_set_difference(ctx: Context, op: Op) -> Result:
    """Elements of set1 that are not in set2.

    When set1 holds table rows and set2 holds values (not rows), as in
    ``set_difference(set1='output_of_query2', set2='Dark Victory')`` over a table, the rows that
    hold one of those values in any cell are left out (with a note saying so).
    """
    a, b = resolve_set(ctx, op.param("set1")), resolve_set(ctx, op.param("set2"))
    drop = b.keys()
    rows = [e for e in a.elems if not isinstance(e, Scalar) and ctx.graph.is_row(int(e))]
    values = [int(e) for e in b.elems if not isinstance(e, Scalar)
              and not ctx.graph.is_row(int(e))]
    if rows and values and not drop & {elem_key(e) for e in a.elems}:
        g = ctx.graph
        holding = g.heads_of(g.facts_heads(np.asarray(rows, dtype=np.int64)))
        tails = g.tails_of(g.facts_heads(np.asarray(rows, dtype=np.int64)))
        hit = np.isin(tails, np.asarray(values, dtype=np.int64))
        dropped = {int(h) for h in holding[hit]}
        drop = drop | {elem_key(h) for h in dropped}
        ctx.notes.append(f"set2 holds values, not rows: left out the {len(dropped)} row(s) of "
                         "set1 holding one of them in a cell")
    d = a.distinct()
    keep = [i for i, e in enumerate(d.elems) if elem_key(e) not in drop]
    return Result(tuple(d.elems[i] for i in keep), tuple(d.witnesses[i] for i in keep))


def fn_set_negation(ctx: Context, op: Op) -> Result:
    """Rows / subjects of the same source(s) that are not in the set."""
    g, s = ctx.graph, _one_set(ctx, op)
    nodes = [int(e) for e in s.elems if not isinstance(e, Scalar)]
    if nodes:
        sources = np.unique(g.sources_of(g.facts_heads(np.asarray(nodes, dtype=np.int64))))
    else:
        sources = np.arange(len(g.sources))
    heads = np.unique(np.concatenate([g.heads_of_source(int(s)) for s in sources] or [EMPTY]))
    drop = set(nodes)
    return Result.of(h for h in heads.tolist() if h not in drop)


Item = tuple[float, Elem, tuple[int, ...]]


def _numbers(ctx: Context, r: Result, what: str) -> list[tuple[float, Elem, tuple[int, ...]]]:
    """Numeric values of a bag. When plain numbers are missing, values are read loosely
    (ordinals, units, durations, dates) and the most common reading is used, with a note;
    values that do not read that way are left out, also with a note."""
    strict = [(numeric(ctx.graph, e), e, w) for e, w in zip(r.elems, r.witnesses, strict=True)]
    out = [(x, e, w) for x, e, w in strict if x is not None]
    if len(out) < len(strict):
        loose = [(quantity(ctx.graph, e), e, w) for _, e, w in strict]
        counts = Counter(q[1] for q, _, _ in loose if q is not None and q[1] != "number")
        spaced = [(q[0], e, w) for q, e, w in loose if q is not None and q[1] == "number"]
        if not counts and len(spaced) > len(out):  # '79 037 121': thousands grouped by spaces
            out = spaced
            ctx.notes.append(f"{what}: values with space-grouped thousands read as numbers")
        elif counts:
            kind, n = counts.most_common(1)[0]
            if n + len(out) > len(out) and n >= len(out):
                out = [
                    (q[0], e, w) for q, e, w in loose if q is not None and q[1] in (kind, "number")
                ]
                ctx.notes.append(f"{what}: values read as {kind}")
    if out and len(out) < len(strict):
        out = _glossed(ctx, strict, out, what)
    if len(out) < len(strict):
        used = {elem_key(e) for _, e, _ in out}
        bad = [e for _, e, _ in strict if elem_key(e) not in used]
        shown = ", ".join(repr(elem_text(ctx.graph, e)) for e in bad[:3])
        if not out:
            raise ctx.fail(
                f"{what} needs numbers, and these values do not read as numbers ({shown})"
            )
        ctx.notes.append(
            f"{len(strict) - len(out)} value(s) that do not read as numbers were "
            f"left out of {what}: {shown}"
        )
    return out


# a number with a note in brackets after it: '36.38% (52% in 2010)', '1,204 (est.)'
_GLOSSED = re.compile(r"^\s*([^()]+?)\s*\([^()]*\)\s*$")


def _glossed(ctx: Context, strict: list[tuple[float | None, Elem, tuple[int, ...]]],
             out: list[Item], what: str) -> list[Item]:
    """Plain numbers plus the values that are a plain number followed by a note in
    brackets (``36.38% (52% in 2010)``), read by that number, noted; ``out`` unchanged when
    there is none. Only beside plain numbers (the bag's reading)."""
    used = {elem_key(e) for _, e, _ in out}
    extra = []
    for _, e, w in strict:
        if elem_key(e) in used:
            continue
        m = _GLOSSED.match(elem_text(ctx.graph, e))
        x = parse_number(m.group(1)) if m else None
        if x is not None:
            extra.append((x, e, w))
    if not extra:
        return out
    ctx.notes.append(f"{what}: {len(extra)} value(s) read by the number before their note in "
                     "brackets: " + ", ".join(repr(elem_text(ctx.graph, e))
                                              for _, e, _ in extra[:3]))
    return out + extra


def _witness_all(r: Result) -> tuple[int, ...]:
    return tuple(r.all_witnesses()[:MAX_WITNESSES])


def fn_count(ctx: Context, op: Op) -> Result:
    """Number of distinct elements (0 when empty); with ``value='x'`` over values (not
    rows), how many times that value occurs; with ``key=`` / ``group_by=`` see
    :func:`.reasoning.grouping.keyed_count` (a value's occurrences, or a grouping)."""
    s = _one_set(ctx, op)
    keyed = keyed_count(ctx, op, s)
    if keyed is not None:
        return keyed
    wanted = next((v.value if isinstance(v, Text) else v.text for k, v in op.params
                   if k in _COUNT_VALUE and isinstance(v, Text | Bound)), None)
    if wanted is not None and s and not any(
        not isinstance(e, Scalar) and ctx.graph.is_row(e) for e in s.elems
    ):
        key = wanted.strip().casefold()
        keep = [i for i, e in enumerate(s.elems)
                if elem_text(ctx.graph, e).strip().casefold() == key]
        if keep:
            hits = Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep))
            ctx.notes.append(f"count(): {wanted!r} occurs {len(hits)} time(s) among the "
                             f"{len(s)} value(s)")
            return Result((Scalar.number(len(hits)),), (_witness_all(hits),))
    ctx.counted[ctx.step] = s
    return Result((Scalar.number(len(s.distinct())),), (_witness_all(s),))


# ``count(set=..., value='Liberal')``: the argument naming the value to count
_COUNT_VALUE = frozenset({"value", "element", "item", "target"})


def _set_params(ctx: Context, op: Op) -> Result:
    """``set=`` or, when the call lists several (``sum(set='output_of_query3',
    'output_of_query4')``), all of them as one bag (noted)."""
    values = [v for k, v in op.params if k and (k.startswith("set") or k.startswith("arg"))]
    if len(values) < 2:
        return _one_set(ctx, op)
    parts = [resolve_set(ctx, v) for v in values]
    ctx.notes.append(f"{op.name}() lists {len(parts)} sets: their values are taken together")
    return Result(tuple(e for p in parts for e in p.elems),
                  tuple(w for p in parts for w in p.witnesses))


def fn_sum(ctx: Context, op: Op) -> Result:
    """Sum over the bag (over several listed sets, their values together)."""
    s = _set_params(ctx, op)
    values = [x for x, _, _ in _numbers(ctx, s, "sum")] if s else []
    return Result((Scalar.number(math.fsum(values)),), (_witness_all(s),))


def fn_mean(ctx: Context, op: Op) -> Result:
    """Mean over the bag."""
    s = _one_set(ctx, op)
    if not s:
        raise ctx.fail("mean() of an empty set")
    items = _numbers(ctx, s, "mean")
    values = [x for x, _, _ in items]
    mean = math.fsum(values) / len(values)
    texts = [elem_text(ctx.graph, e) for _, e, _ in items]
    return Result((Scalar(mean, _mean_text(ctx, mean, texts)),), (_witness_all(s),))


# a number written with a unit after it: '25 °C', '12%', '4.5 m'
_WITH_UNIT = re.compile(r"^\s*[-+]?[\d.,]+\s*(%|[^\d\s.,][^\d]*?)\s*$")
_ORDINAL = re.compile(r"^\s*\d+\s*(st|nd|rd|th)\s*$", re.IGNORECASE)


def _mean_text(ctx: Context, mean: float, texts: list[str]) -> str:
    """How a mean is written: with the unit every operand is written with (``25 °C``); as a
    place (``2nd``) when every operand is one and the mean is whole; else as the number.
    Each choice is noted."""
    text = format_number(mean)
    if texts and all(_ORDINAL.match(t) for t in texts):
        if mean != int(mean):
            return text
        ctx.notes.append("every value is a place (1st, 2nd ...): the mean is written as one")
        return ordinal_text(int(mean))
    units = {m.group(1) for t in texts if (m := _WITH_UNIT.match(t))}
    if len(units) == 1 and all(_WITH_UNIT.match(t) for t in texts) and len(next(iter(units))) <= 4:
        unit = units.pop()
        spaced = " " if all(re.search(r"\d\s+\D", t) for t in texts) else ""
        ctx.notes.append(f"every value is written in {unit!r}: the mean keeps the unit")
        return f"{text}{spaced}{unit}"
    return text


def _extreme(ctx: Context, op: Op, pick: Callable[..., float]) -> Result:
    source = op.param("set")
    if isinstance(source, Ref) and source.step in ctx.groupings:  # count(set, key=column)
        ctx.by_count.add(ctx.step)
        return frequency_extreme(ctx, op.name, ctx.groupings[source.step])
    s = _one_set(ctx, op)
    if not s:
        raise ctx.fail(f"{op.name}() of an empty set")
    source = op.param("set")
    if isinstance(source, Ref) and source.step in ctx.grouped:
        ctx.by_count.add(ctx.step)
        return frequency_extreme(ctx, op.name, s)
    if has_key(op) and all(quantity(ctx.graph, e) is None for e in s.elems):
        return keyed_extreme(ctx, op, largest=op.name == "max")  # max(set=names, key='Fillrate')
    if all(not isinstance(e, Scalar) and ctx.graph.is_row(e) for e in s.elems):
        return _extreme_rows(ctx, op, s, pick)
    unreadable = [e for e in s.elems if quantity(ctx.graph, e) is None]
    if unreadable and len(unreadable) == len(s):
        read = extreme_without_numbers(ctx, op.name, without_summary_rows(ctx, s, f"{op.name}()"))
        if read is not None:
            return read
        if ctx.fallback is not None:
            return _llm_extreme(ctx, op, s)
    rated = _ratings(ctx, s, op.name)
    if rated is not None:
        return rated
    items = _without_summaries(ctx, _numbers(ctx, s, f"{op.name}()"), op.name)
    ends = [
        (e.high if isinstance(e, Scalar) and op.name == "max" and e.high is not None else x, e, w)
        for x, e, w in items
    ]
    best = pick(x for x, _, _ in ends)
    elems = [
        Scalar.interval(best, best) if isinstance(e, Scalar) and e.upper is not None else e
        for x, e, _ in ends
        if x == best
    ]
    wits = [w for x, _, w in ends if x == best]
    return Result(tuple(elems), tuple(wits)).distinct()


# a rating out of a scale: '9.5 of 10', '36 of 40', '76 out of 100', '4/5'
_RATING = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:of|out of|/)\s*(\d+(?:\.\d+)?)\s*$", re.I)


def _ratings(ctx: Context, s: Result, name: str) -> Result | None:
    """max/min over ratings on different scales (``9.5 of 10``, ``76 of 100``): compared by
    their share of the scale, noted (their leading numbers would compare 76 with 9.5);
    ``None`` unless at least three values in four are ratings and their scales differ."""
    g = ctx.graph
    read = []
    for e, w in zip(s.elems, s.witnesses, strict=True):
        m = _RATING.match(elem_text(g, e))
        if m is not None and float(m.group(2)) > 0:
            read.append((float(m.group(1)) / float(m.group(2)), float(m.group(2)), e, w))
    if len(read) < 2 or len(read) < 0.75 * len(s) or len({d for _, d, _, _ in read}) < 2:
        return None
    best = (max if name == "max" else min)(x for x, _, _, _ in read)
    keep = [(e, w) for x, _, e, w in read if x == best]
    ctx.notes.append(f"{name}(): the values are ratings on different scales (such as "
                     f"{elem_text(g, read[0][2])!r}): compared by their share of the scale, "
                     f"{name}imum {elem_text(g, keep[0][0])!r}"
                     + (f"; {len(s) - len(read)} value(s) that are no rating left out"
                        if len(read) < len(s) else ""))
    return Result(tuple(e for e, _ in keep), tuple(w for _, w in keep)).distinct()


def _without_summaries(ctx: Context, items: list[Item], name: str) -> list[Item]:
    """The (number, element, witnesses) items whose row is no summary row (``Total``),
    noted; all of them when none or every one is."""
    drop = summary_rows_left_out(ctx, [w for _, _, w in items], f"{name}()")
    return items if drop is None else [it for it, d in zip(items, drop, strict=True) if not d]


def _extreme_rows(ctx: Context, op: Op, s: Result, pick: Callable[..., float]) -> Result:
    """max/min over rows: compare them by the target-type column (the only sensible reading)."""
    g, rel = ctx.graph, ctx.target_relation
    if rel is None:
        raise ctx.fail(
            f"{op.name}() over rows needs values: read a column of the rows first "
            "(or give a ## Target type)"
        )
    values = project(ctx, rel, s.distinct())
    items = _numbers(ctx, values, f"{op.name}()")
    if not items:
        raise ctx.fail(f"{op.name}(): the rows have no {g.relation_names[rel]!r} value")
    best = pick(x for x, _, _ in items)
    facts = {w[-1] for x, _, w in items if x == best and w}
    heads = {g.head_of(f) for f in facts}
    rows = [int(e) for e in s.elems if not isinstance(e, Scalar)]
    keep = [i for i, e in enumerate(rows) if e in heads]
    ctx.notes.append(
        f"{op.name}() over rows: compared by their {g.relation_names[rel]!r} (the target type)"
    )
    return Result(
        tuple(s.elems[i] for i in keep),
        tuple(
            tuple(s.witnesses[i]) + tuple(sorted(f for f in facts if g.head_of(f) == rows[i]))
            for i in keep
        ),
    ).distinct()


def fn_max(ctx: Context, op: Op) -> Result:
    """The element(s) with the largest value (interval ends for time spans)."""
    return _extreme(ctx, op, max)


def fn_min(ctx: Context, op: Op) -> Result:
    """The element(s) with the smallest value (interval starts for time spans)."""
    return _extreme(ctx, op, min)


def _llm_extreme(ctx: Context, op: Op, s: Result) -> Result:
    assert ctx.fallback is not None
    labels = list(dict.fromkeys(elem_text(ctx.graph, e) for e in s.elems))
    answer = ctx.fallback(
        FallbackRequest(
            "extremum",
            ctx.step,
            ctx.call_text,
            ctx.description,
            {"set": labels},
            labels,
            ctx.question,
            op.name,
        )
    )
    ctx.fallback_notes.append(answer.note or "LLM-inferred extremum, not verified")
    if answer.values is None:
        raise ctx.fail(f"{op.name}() over non-numeric values and the LLM fallback declined")
    chosen = set(answer.values)
    keep = [i for i, e in enumerate(s.elems) if elem_text(ctx.graph, e) in chosen]
    return Result(tuple(s.elems[i] for i in keep), tuple(s.witnesses[i] for i in keep)).distinct()


def fn_keep(ctx: Context, op: Op) -> Result:
    """Elements whose value compares with ``value`` (time spans are clipped to the condition)."""
    s, value = _one_set(ctx, op), op.param("value")
    if op.cmp == "=" or value is None:
        raise ctx.fail("keep() needs value with one of > < >= <=")
    if isinstance(value, Text):
        number = parse_number(value.value)
        if number is None:
            raise ctx.fail(f"keep(): {value.value!r} is not a number")
        limit = number
    else:
        xs = [x for e in resolve_set(ctx, value).elems if (x := numeric(ctx.graph, e)) is not None]
        if not xs:
            raise ctx.fail("keep(): the comparison value is not a number")
        limit = min(xs) if op.cmp in (">", ">=") else max(xs)
    elems, wits = [], []
    for x, e, w in _numbers(ctx, s, "keep()"):
        kept = _clip(e, x, op.cmp, limit)
        if kept is not None:
            elems.append(kept)
            wits.append(w)
    return Result(tuple(elems), tuple(wits))


def _clip(e: Elem, x: float, cmp: str, limit: float) -> Elem | None:
    if isinstance(e, Scalar) and e.upper is not None:  # a span of years
        lo, hi = x, e.upper
        if cmp in (">", ">="):
            lo = max(lo, math.floor(limit) + 1 if cmp == ">" else math.ceil(limit))
        else:
            hi = min(hi, math.ceil(limit) - 1 if cmp == "<" else math.floor(limit))
        return Scalar.interval(lo, hi) if lo <= hi else None
    ok = {">": x > limit, "<": x < limit, ">=": x >= limit, "<=": x <= limit}[cmp]
    return e if ok else None


def _shift(ctx: Context, op: Op, delta: int) -> Result:
    g, s = ctx.graph, _one_set(ctx, op)
    elems: list[Elem] = []
    wits: list[tuple[int, ...]] = []
    beyond = 0
    for e, w in zip(s.elems, s.witnesses, strict=True):
        pos = None if isinstance(e, Scalar) else g.row_position(e)
        if pos is not None:
            node = g.row_node(pos[0], pos[1] + delta)
            if node is None:
                beyond += 1
                continue
            elems.append(node)
            wits.append(w)
            continue
        x = numeric(g, e)
        if x is None:
            raise ctx.fail(f"{op.name}() needs rows or numbers, got {elem_text(g, e)!r}")
        elems.append(Scalar.number(x + delta))
        wits.append(w)
    if beyond:
        edge = "first" if delta < 0 else "last"
        ctx.notes.append(
            f"{beyond} row(s) have no {op.name.replace('_', ' ')}: the {edge} row "
            "of the table was reached"
        )
    return Result(tuple(elems), tuple(wits)).distinct()


def fn_previous_row(ctx: Context, op: Op) -> Result:
    """The row before each row (or each number minus one, as ``row_number`` values)."""
    return _shift(ctx, op, -1)


def fn_next_row(ctx: Context, op: Op) -> Result:
    """The row after each row (or each number plus one)."""
    return _shift(ctx, op, +1)


FUNCTIONS: dict[str, Callable[[Context, Op], Result]] = {
    "set_union": fn_set_union,
    "set_intersection": fn_set_intersection,
    "set_difference": fn_set_difference,
    "set_negation": fn_set_negation,
    "count": fn_count,
    "sum": fn_sum,
    "mean": fn_mean,
    "max": fn_max,
    "min": fn_min,
    "keep": fn_keep,
    "previous_row": fn_previous_row,
    "next_row": fn_next_row,
    **REASONING,
}
