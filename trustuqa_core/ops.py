"""Execution-plan operations: pure functions over the graph's read API.

Each operation takes a :class:`Context` and an :class:`~trustuqa_core.rewrite.Op` and returns a
:class:`~trustuqa_core.results.Result`. Operations never print and never store anything on
the graph; notes for the user (a reinterpretation, values skipped) go to ``ctx.notes``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .errors import ExecutionError
from .fallback import Fallback, FallbackRequest
from .graph import EMPTY, ConditionGraph
from .numbers import parse_number, parse_quantity
from .query.ast import Bound, ListValue, Ref, Text
from .results import Elem, Result, Scalar, elem_key
from .rewrite import Op

__all__ = ["Context", "GRAPH_OPS", "resolve_set", "numeric", "quantity", "elem_text"]


@dataclass
class Context:
    """Per-execution state (never stored on the graph)."""

    graph: ConditionGraph
    step: int = 0
    env: dict[int, Result] = field(default_factory=dict)
    local: dict[str, Result] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    fallback: Fallback | None = None
    fallback_notes: list[str] = field(default_factory=list)
    question: str | None = None
    call_text: str = ""
    description: str = ""
    target_relation: int | None = None

    def fail(self, message: str) -> ExecutionError:
        return ExecutionError(message, self.step)


# ------------------------------------------------------------------ helpers
def elem_text(g: ConditionGraph, e: Elem) -> str:
    """Display text of an element."""
    return e.text if isinstance(e, Scalar) else g.label(e)


def numeric(g: ConditionGraph, e: Elem) -> float | None:
    """Numeric value of an element (intervals: their start)."""
    if isinstance(e, Scalar):
        return e.value if isinstance(e.value, float) else parse_number(e.value)
    return g.numeric(e)


def quantity(g: ConditionGraph, e: Elem) -> tuple[float, str] | None:
    """Loose numeric reading (units, ordinals, durations, dates), for where plain numbers fail."""
    x = numeric(g, e)
    if x is not None:
        return x, "number"
    return parse_quantity(elem_text(g, e))


def resolve_set(ctx: Context, value: object) -> Result:
    """A set-valued parameter: a reference, a plan local, mapped literal(s) or a list."""
    if isinstance(value, Ref):
        if value.step not in ctx.env:
            raise ctx.fail(f"output_of_query{value.step} has no result")
        return ctx.env[value.step]
    if isinstance(value, str) and value.startswith("$"):
        return ctx.local[value]
    if isinstance(value, Bound):
        if value.role == "relation":
            raise ctx.fail(f"{value.text!r} is a relation name where a set was expected")
        if not value.ids:
            ctx.notes.append(f"{value.text!r} matched nothing in the data closely enough")
            return Result.empty()
        return Result.of(value.ids)
    if isinstance(value, ListValue):
        parts = [resolve_set(ctx, v) for v in value.items]
        return Result(
            tuple(e for p in parts for e in p.elems), tuple(w for p in parts for w in p.witnesses)
        )
    if isinstance(value, Text):
        number = parse_number(value.value)
        if number is not None:
            return Result.of([Scalar.number(number)])
        raise ctx.fail(f"{value.value!r} is not a known value, entity or earlier result")
    raise ctx.fail(f"expected a set, got {value!r}")


def _relation(ctx: Context, value: object) -> int:
    if isinstance(value, Bound) and value.role == "relation" and value.ids:
        return value.ids[0]
    shown = value.text if isinstance(value, Bound) else str(value)
    raise ctx.fail(f"relation {shown!r} matched no relation of the data")


def _rel_name(ctx: Context, rel: int) -> str:
    return ctx.graph.relation_names[rel]


def _group(
    g: ConditionGraph,
    nodes: np.ndarray,
    facts: np.ndarray,
    base: dict[int, tuple[int, ...]] | None = None,
) -> Result:
    """Distinct nodes (in fact order), each witnessed by its facts (and ``base`` witnesses)."""
    order = np.argsort(facts, kind="stable")
    return Result.from_facts(
        nodes[order], facts[order], [base.get(int(n), ()) for n in nodes[order]] if base else None
    ).distinct()


def _node_witness_map(r: Result) -> dict[int, tuple[int, ...]]:
    out: dict[int, tuple[int, ...]] = {}
    for e, w in zip(r.elems, r.witnesses, strict=True):
        if not isinstance(e, Scalar) and int(e) not in out:
            out[int(e)] = w
    return out


# ------------------------------------------------------------- selections
def op_select(ctx: Context, op: Op) -> Result:
    """Heads whose ``relation`` value matches (``=``) or compares (``< > <= >=``) with ``value``."""
    g, rel, value = ctx.graph, _relation(ctx, op.param("relation")), op.param("value")
    if op.cmp == "!=":
        equal = op_select(ctx, Op("select", op.params, "="))
        facts = np.sort(g.facts_rel(rel))
        drop = equal.keys()
        keep = facts[[("n", int(h)) not in drop for h in g.heads_of(facts).tolist()]]
        return _group(g, g.heads_of(keep), keep)
    if op.cmp != "=":
        return _select_cmp(ctx, rel, op.cmp, value)
    if isinstance(value, Bound):
        if not value.ids:
            ctx.notes.append(
                f"{value.text!r} matched no value of {_rel_name(ctx, rel)!r} closely enough"
            )
        return _select_nodes(ctx, rel, np.asarray(value.ids, dtype=np.int64), {})
    if isinstance(value, Text):
        node = g.entity(value.value)
        number = parse_number(value.value)
        facts = g.facts_rel_tail(rel, node) if node is not None else EMPTY
        if number is not None:
            facts = np.union1d(facts, g.facts_rel_cmp(rel, "=", number))
        return _group(g, g.heads_of(facts), facts)
    source = resolve_set(ctx, value)
    rows = [e for e in source.elems if not isinstance(e, Scalar) and g.is_row(e)]
    if rows and len(rows) == len(source):
        ctx.notes.append(
            f"the earlier result holds rows, not values of {_rel_name(ctx, rel)!r}: "
            f"read {_rel_name(ctx, rel)!r} of those rows instead"
        )
        return _project(ctx, rel, source)
    nodes = np.asarray(source.nodes(), dtype=np.int64)
    result = _select_nodes(ctx, rel, nodes, _node_witness_map(source))
    numbers = {
        x for e in source.elems if isinstance(e, Scalar) and (x := numeric(g, e)) is not None
    }
    if numbers:
        facts = np.concatenate([g.facts_rel_cmp(rel, "=", x) for x in numbers])
        extra = _group(g, g.heads_of(facts), facts)
        result = _union([result, extra])
    return result


def _select_nodes(
    ctx: Context, rel: int, nodes: np.ndarray, base: dict[int, tuple[int, ...]]
) -> Result:
    g = ctx.graph
    facts = g.facts_rel_tails(rel, nodes)
    numbers = {x for n in nodes.tolist() if (x := g.numeric(n)) is not None}
    if numbers:  # "1" also matches "1.0" and "01"
        extra = [g.facts_rel_cmp(rel, "=", x) for x in numbers]
        facts = np.union1d(facts, np.concatenate(extra)) if extra else facts
    tails = g.tails_of(facts)
    wit: dict[int, tuple[int, ...]] = {}
    if base:
        for t, f in zip(tails.tolist(), facts.tolist(), strict=True):
            wit.setdefault(int(g.heads_of(f)), base.get(t, ()))
    return _group(g, g.heads_of(facts), facts, wit or None)


def _select_cmp(ctx: Context, rel: int, cmp: str, value: object) -> Result:
    """Numeric comparison through the sorted index; values that are not plain numbers are read
    loosely (units, durations, dates) when that reads more of them, with a note."""
    g = ctx.graph
    thresholds = _thresholds(ctx, value)
    n_numeric, n_all = g.numeric_fact_count(rel), len(g.facts_rel(rel))
    if thresholds is not None and n_numeric >= 0.9 * n_all:
        facts = np.concatenate([g.facts_rel_cmp(rel, cmp, x) for x in thresholds] or [EMPTY])
        if n_numeric < n_all:
            ctx.notes.append(
                f"{n_all - n_numeric} non-numeric value(s) of "
                f"{_rel_name(ctx, rel)!r} were not compared"
            )
        return _group(g, g.heads_of(facts), np.unique(facts))
    loose = _loose_thresholds(ctx, value)
    if loose is not None:
        result = _select_cmp_loose(ctx, rel, cmp, loose, n_numeric)
        if result is not None:
            return result
    if thresholds is not None and n_numeric:
        facts = np.concatenate([g.facts_rel_cmp(rel, cmp, x) for x in thresholds] or [EMPTY])
        ctx.notes.append(
            f"{n_all - n_numeric} non-numeric value(s) of {_rel_name(ctx, rel)!r} were not compared"
        )
        return _group(g, g.heads_of(facts), np.unique(facts))
    return _llm_compare(ctx, rel, cmp, value)


def _loose_thresholds(ctx: Context, value: object) -> list[tuple[float, str]] | None:
    g = ctx.graph
    if isinstance(value, Text):
        q = parse_quantity(value.value)
        return None if q is None else [q]
    elems = (
        Result.of(value.ids).elems
        if isinstance(value, Bound)
        else (resolve_set(ctx, value).distinct().elems)
    )
    qs = [quantity(g, e) for e in elems]
    return None if not qs or None in qs else [q for q in qs if q is not None]


def _select_cmp_loose(
    ctx: Context, rel: int, cmp: str, thresholds: list[tuple[float, str]], n_numeric: int
) -> Result | None:
    """Compare values read loosely (units, durations, dates); None when that reads no more
    values than the plain numbers or mixes kinds of reading."""
    g = ctx.graph
    facts, vals, how_read = g.quantity_index(rel)
    kinds = set(how_read.tolist()) - {""} | {h for _, h in thresholds}
    n_read = int((~np.isnan(vals)).sum())
    if n_read <= n_numeric and thresholds[0][1] == "number" or len(kinds - {"number"}) > 1:
        return None
    ops = {">": np.greater, "<": np.less, ">=": np.greater_equal, "<=": np.less_equal}
    mask = np.zeros(len(facts), dtype=bool)
    for x, _ in thresholds:
        mask |= ops[cmp](vals, x)
    how = ", ".join(sorted(kinds - {"number"})) or "numbers"
    ctx.notes.append(
        f"values of {_rel_name(ctx, rel)!r} compared as {how}"
        + (
            f"; {int(np.isnan(vals).sum())} value(s) could not be read"
            if np.isnan(vals).any()
            else ""
        )
    )
    keep = facts[mask]
    return _group(g, g.heads_of(keep), keep)


def _thresholds(ctx: Context, value: object) -> list[float] | None:
    g = ctx.graph
    if isinstance(value, Text):
        x = parse_number(value.value)
        return None if x is None else [x]
    if isinstance(value, Bound):
        xs = [g.numeric(i) for i in value.ids]
        return None if not xs or None in xs else [x for x in xs if x is not None]
    source = resolve_set(ctx, value)
    xs = [numeric(g, e) for e in source.distinct().elems]
    if not xs or None in xs:
        return None
    return [x for x in xs if x is not None]


def _llm_compare(ctx: Context, rel: int, cmp: str, value: object) -> Result:
    g = ctx.graph
    shown = value.text if isinstance(value, Bound) else str(value)
    if ctx.fallback is None:
        raise ctx.fail(
            f"cannot compare {_rel_name(ctx, rel)!r} {cmp} {shown!r}: not a number "
            "(an LLM fallback could judge it, but none is configured)"
        )
    tails = g.relation_tails(rel)
    labels = [g.label(t) for t in tails]
    req = FallbackRequest(
        "compare",
        ctx.step,
        ctx.call_text,
        ctx.description,
        {"relation": [_rel_name(ctx, rel)]},
        labels,
        ctx.question,
        cmp,
        shown,
    )
    answer = ctx.fallback(req)
    ctx.fallback_notes.append(answer.note or "LLM-inferred comparison, not verified")
    if answer.values is None:
        raise ctx.fail(
            f"the LLM fallback could not compare {_rel_name(ctx, rel)!r} {cmp} {shown!r}"
        )
    chosen = np.array(
        [t for t, lab in zip(tails, labels, strict=True) if lab in set(answer.values)],
        dtype=np.int64,
    )
    facts = g.facts_rel_tails(rel, chosen)
    return _group(g, g.heads_of(facts), facts)


def op_select_frequent(ctx: Context, op: Op) -> Result:
    """Heads whose ``relation`` value is the most (or least) frequent value of that relation."""
    g, rel = ctx.graph, _relation(ctx, op.param("relation"))
    facts = np.sort(g.facts_rel(rel))
    if len(facts) == 0:
        return Result.empty()
    values, counts = np.unique(g.tails_of(facts), return_counts=True)
    best = counts.max() if op.param("which") == "most" else counts.min()
    chosen = values[counts == best]
    keep = facts[np.isin(g.tails_of(facts), chosen)]
    ctx.notes.append(
        f"{op.param('which')} frequent value(s) of {_rel_name(ctx, rel)!r}: "
        + ", ".join(repr(g.label(v)) for v in chosen[:5])
        + f" ({int(best)} times)"
    )
    return _group(g, g.heads_of(keep), keep)


def op_select_extreme(ctx: Context, op: Op) -> Result:
    """Heads whose ``relation`` value is the largest (``max``) or smallest (``min``) number.

    Values are read loosely (units, durations, dates) through the graph's cached quantity
    index; when most values are plain numbers, only plain numbers take part.
    """
    g, rel, which = ctx.graph, _relation(ctx, op.param("relation")), op.param("which")
    facts, vals, how = g.quantity_index(rel)
    kinds = set(how.tolist()) - {""}
    if not kinds:
        raise ctx.fail(f"no value of {_rel_name(ctx, rel)!r} is a number, so none is the {which}")
    if len(kinds) > 1 and (how == "number").sum() * 2 > len(how):
        vals = np.where(how == "number", vals, np.nan)
        kinds = {"number"}
    best = np.nanmax(vals) if which == "max" else np.nanmin(vals)
    keep = facts[vals == best]
    ctx.notes.append(
        f"the {which} of {_rel_name(ctx, rel)!r} is {g.label(g.tails_of(keep[0]))!r}"
        + (f" (read as {', '.join(sorted(kinds))})" if kinds != {"number"} else "")
    )
    return _group(g, g.heads_of(keep), keep)


def op_filter_heads(ctx: Context, op: Op) -> Result:
    """The given heads that also satisfy ``relation <cmp> value``."""
    heads = resolve_set(ctx, op.param("heads"))
    selected = op_select(
        ctx,
        Op("select", (("relation", op.param("relation")), ("value", op.param("value"))), op.cmp),
    )
    return _intersect([heads.distinct(), selected])


# ------------------------------------------------------------- projections
def op_project(ctx: Context, op: Op) -> Result:
    """Values of ``relation`` for the given heads (a bag: one element per fact)."""
    rel = _relation(ctx, op.param("relation"))
    return _project(ctx, rel, resolve_set(ctx, op.param("heads")))


def _project(ctx: Context, rel: int, heads: Result) -> Result:
    g = ctx.graph
    base = _node_witness_map(heads)
    nodes = list(dict.fromkeys(_as_nodes(ctx, heads)))
    direct = [n for n in nodes if len(g.facts_head_rel(n, rel))]
    others = [n for n in nodes if n not in set(direct)]
    expanded: list[int] = []
    for n in others:  # a value given where a head was expected: use the heads that have it
        facts = g.facts_rel_tail(rel, n)
        how = f"same {_rel_name(ctx, rel)!r}"
        if len(facts) == 0:
            facts, how = g.facts_tail(n), "that value in any column/relation"
        found = np.unique(g.heads_of(facts)).tolist()
        expanded.extend(found)
        for h in found:
            base.setdefault(h, base.get(n, ()))
        if found:
            ctx.notes.append(
                f"{g.label(n)!r} is not a subject of {_rel_name(ctx, rel)!r}: used the "
                f"{len(found)} subject(s) with {how}"
            )
    heads_arr = np.asarray(list(dict.fromkeys(direct + expanded)), dtype=np.int64)
    facts = g.facts_heads_rel(heads_arr, rel)
    facts = np.sort(facts) if len(facts) > 1 else facts
    return Result.from_facts(
        g.tails_of(facts), facts, [base.get(int(h), ()) for h in g.heads_of(facts)]
    )


def _as_nodes(ctx: Context, r: Result) -> list[int]:
    out = []
    for e in r.elems:
        if isinstance(e, Scalar):
            node = ctx.graph.entity(e.text)
            if node is not None:
                out.append(node)
        else:
            out.append(int(e))
    return out


def op_values(ctx: Context, op: Op) -> Result:
    """Every value of ``relation`` (a bag, in source order)."""
    g, rel = ctx.graph, _relation(ctx, op.param("relation"))
    facts = np.sort(g.facts_rel(rel))
    return Result.from_facts(g.tails_of(facts), facts)


def op_relations_of(ctx: Context, op: Op) -> Result:
    """Names of the relations the given heads have."""
    g = ctx.graph
    heads = np.asarray(_as_nodes(ctx, resolve_set(ctx, op.param("heads"))), dtype=np.int64)
    facts = g.facts_heads(heads)
    names = [Scalar(g.relation_names[r], g.relation_names[r]) for r in g.rels_of(facts).tolist()]
    return Result.of(names, [(f,) for f in facts.tolist()]).distinct()


def op_intersect(ctx: Context, op: Op) -> Result:
    keys = op.param("sets")
    assert isinstance(keys, tuple)
    return _intersect([ctx.local[k] for k in keys])


def _union(parts: list[Result]) -> Result:
    return Result(
        tuple(e for p in parts for e in p.elems), tuple(w for p in parts for w in p.witnesses)
    ).distinct()


def _intersect(parts: list[Result]) -> Result:
    if not parts:
        return Result.empty()
    common = set.intersection(*(p.keys() for p in parts))
    merged = _union(parts)
    keep = [i for i, e in enumerate(merged.elems) if elem_key(e) in common]
    return Result(tuple(merged.elems[i] for i in keep), tuple(merged.witnesses[i] for i in keep))


# ------------------------------------------------------------------- time
def _candidate_facts(ctx: Context, op: Op) -> np.ndarray:
    g = ctx.graph
    rel = _relation(ctx, op.param("relation")) if op.param("relation") is not None else None
    heads = op.param("head")
    tails = op.param("tail")
    head_nodes = _as_nodes(ctx, resolve_set(ctx, heads)) if heads is not None else None
    tail_nodes = _as_nodes(ctx, resolve_set(ctx, tails)) if tails is not None else None
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
    return np.sort(facts)


def _key(op: Op) -> str:
    key = op.param("key")
    return key.labels[0] if isinstance(key, Bound) else str(key)


def op_fact_times(ctx: Context, op: Op) -> Result:
    """Times of the matching facts: ``time`` -> the interval, ``start_time``/``end_time`` ->
    a year."""
    g, key = ctx.graph, _key(op)
    elems, wits, missing = [], [], 0
    for f in _candidate_facts(ctx, op).tolist():
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
        wits.append((f,))
    if missing:
        ctx.notes.append(f"{missing} matching fact(s) have no known {key}")
    return Result.of(elems, wits)


def op_select_at_time(ctx: Context, op: Op) -> Result:
    """Tails (given a head) or heads (given a tail) of facts valid at the given time."""
    g, key = ctx.graph, _key(op)
    spans = _time_values(ctx, op.param("time"))
    keep = [
        f for f in _candidate_facts(ctx, op).tolist() if _time_ok(g.interval(f), key, op.cmp, spans)
    ]
    facts = np.asarray(keep, dtype=np.int64)
    nodes = g.tails_of(facts) if op.param("head") is not None else g.heads_of(facts)
    return _group(g, nodes, facts)


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


GRAPH_OPS: dict[str, Callable[[Context, Op], Result]] = {
    "select": op_select,
    "select_frequent": op_select_frequent,
    "select_extreme": op_select_extreme,
    "filter_heads": op_filter_heads,
    "project": op_project,
    "values": op_values,
    "relations_of": op_relations_of,
    "intersect": op_intersect,
    "fact_times": op_fact_times,
    "select_at_time": op_select_at_time,
}
