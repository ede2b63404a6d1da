"""Temporal operations: the validity intervals of facts, and facts valid at a time."""

from __future__ import annotations

import numpy as np

from ..numbers import parse_number
from ..query.ast import Bound, Text
from ..results import MAX_WITNESSES, Result, Scalar
from ..rewrite import Op
from ..store import GraphStore
from .base import Context, as_nodes, numeric, relation_param, resolve_set, witness_map


def _candidate_facts(ctx: Context, op: Op) -> tuple[np.ndarray, dict[int, tuple[int, ...]]]:
    """Facts matching the given head/relation/tail, and the witnesses that brought each head or
    tail node here (so time answers keep their provenance back through earlier steps)."""
    g = ctx.graph
    rel = relation_param(ctx, op.param("relation")) if op.param("relation") is not None else None
    heads = resolve_set(ctx, op.param("head")) if op.param("head") is not None else None
    tails = resolve_set(ctx, op.param("tail")) if op.param("tail") is not None else None
    head_nodes = as_nodes(ctx, heads) if heads is not None else None
    tail_nodes = as_nodes(ctx, tails) if tails is not None else None
    base = {
        **(witness_map(tails) if tails is not None else {}),
        **(witness_map(heads) if heads is not None else {}),
    }
    if head_nodes is not None and rel is not None:
        facts = g.facts_heads_rel(np.asarray(head_nodes, dtype=np.int64), rel)
    elif tail_nodes is not None and rel is not None:
        facts = g.facts_rel_tails(rel, np.asarray(tail_nodes, dtype=np.int64))
    elif head_nodes is not None:
        facts = g.facts_heads(np.asarray(head_nodes, dtype=np.int64))
    elif rel is not None:
        facts = g.facts_rel(rel)
    else:
        raise ctx.fail("a time lookup needs a head, a relation or a tail")
    if tail_nodes is not None:
        facts = facts[np.isin(g.tails_of(facts), tail_nodes)]
    if head_nodes is not None:
        facts = facts[np.isin(g.heads_of(facts), head_nodes)]
    return np.sort(facts), base


def _inherited(g: GraphStore, base: dict[int, tuple[int, ...]], fact: int) -> tuple[int, ...]:
    """Earlier witnesses of a fact's head or tail, then the fact itself."""
    earlier = base.get(g.head_of(fact)) or base.get(g.tail_of(fact)) or ()
    return (*earlier[: MAX_WITNESSES - 1], fact)


def _key(op: Op) -> str:
    key = op.param("key")
    return key.labels[0] if isinstance(key, Bound) else str(key)


def op_fact_times(ctx: Context, op: Op) -> Result:
    """Times of the matching facts: ``time`` -> the interval, ``start_time``/``end_time`` ->
    a year."""
    g, key = ctx.graph, _key(op)
    elems, wits, missing = [], [], 0
    facts, base = _candidate_facts(ctx, op)
    for f in facts.tolist():
        span = g.interval(f)
        if span is None:
            missing += 1
            continue
        start, end = span
        if key == "start_time" or (key == "time" and not np.isfinite(end)):
            value = None if not np.isfinite(start) else Scalar.interval(start, start)
        elif key == "end_time" or not np.isfinite(start):
            value = None if not np.isfinite(end) else Scalar.interval(end, end)
        else:
            value = Scalar.interval(start, end)
        if value is None:
            missing += 1
            continue
        elems.append(value)
        wits.append(_inherited(g, base, f))
    if missing:
        ctx.notes.append(f"{missing} matching fact(s) have no known {key}")
    return Result.of(elems, wits)


def op_select_at_time(ctx: Context, op: Op) -> Result:
    """Tails (given a head) or heads (given a tail) of facts valid at the given time."""
    g, key = ctx.graph, _key(op)
    spans = _time_values(ctx, op.param("time"))
    candidates, base = _candidate_facts(ctx, op)
    keep = [f for f in candidates.tolist() if _time_ok(g.interval(f), key, op.cmp, spans)]
    facts = np.asarray(keep, dtype=np.int64)
    nodes = g.tails_of(facts) if op.param("head") is not None else g.heads_of(facts)
    return Result.from_facts(nodes, facts, [_inherited(g, base, f)[:-1] for f in keep]).distinct()


def _time_values(ctx: Context, value: object) -> list[tuple[float, float]]:
    if isinstance(value, Text):
        x = parse_number(value.value)
        if x is None:
            raise ctx.fail(f"time value {value.value!r} is not a year")
        return [(x, x)]
    out = []
    for e in resolve_set(ctx, value).elems:
        if isinstance(e, Scalar) and e.upper is not None and isinstance(e.value, float):
            out.append((e.value, e.upper))
        else:
            x = numeric(ctx.graph, e)
            if x is not None:
                out.append((x, x))
    if not out:
        raise ctx.fail("no year to compare the facts' times with")
    return out


def _time_ok(
    span: tuple[float, float] | None, key: str, cmp: str, values: list[tuple[float, float]]
) -> bool:
    if span is None:
        return False
    start, end = span
    if key == "start_time":
        start = end = span[0]
    elif key == "end_time":
        start = end = span[1]
    for lo, hi in values:
        if cmp == "=" and start <= hi and lo <= end:
            return True
        if (cmp == ">" and end > hi) or (cmp == ">=" and end >= lo):
            return True
        if (cmp == "<" and start < lo) or (cmp == "<=" and start <= hi):
            return True
    return False
