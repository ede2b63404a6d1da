"""Projections: values of a relation for given heads, all values, relation names."""

from __future__ import annotations

import numpy as np

from ..query.ast import Text
from ..results import Result, Scalar
from ..rewrite import Op
from .base import Context, as_nodes, intersect, rel_name, relation_param, resolve_set, witness_map


def op_project(ctx: Context, op: Op) -> Result:
    """Values of ``relation`` for the given heads (a bag: one element per fact)."""
    rel = relation_param(ctx, op.param("relation"))
    return project(ctx, rel, resolve_set(ctx, op.param("heads")))


def project(ctx: Context, rel: int, heads: Result) -> Result:
    g = ctx.graph
    base = witness_map(heads)
    nodes = list(dict.fromkeys(as_nodes(ctx, heads)))
    found = g.facts_heads_rel(np.asarray(nodes, dtype=np.int64), rel) if nodes else None
    have = set(g.heads_of(found).tolist()) if found is not None else set()
    direct = [n for n in nodes if n in have]  # one batch lookup, not one per node
    others = [n for n in nodes if n not in set(direct)]
    expanded: list[int] = []
    for n in others:  # a value given where a head was expected: use the heads that have it
        facts = g.facts_rel_tail(rel, n)
        how = f"same {rel_name(ctx, rel)!r}"
        if len(facts) == 0:
            facts, how = g.facts_tail(n), "that value in any column/relation"
        found = np.unique(g.heads_of(facts)).tolist()
        expanded.extend(found)
        for h in found:
            base.setdefault(h, base.get(n, ()))
        if found:
            ctx.notes.append(
                f"{g.label(n)!r} is not a subject of {rel_name(ctx, rel)!r}: used the "
                f"{len(found)} subject(s) with {how}"
            )
    heads_arr = np.asarray(list(dict.fromkeys(direct + expanded)), dtype=np.int64)
    facts = g.facts_heads_rel(heads_arr, rel)
    facts = np.sort(facts) if len(facts) > 1 else facts
    return Result.from_facts(
        g.tails_of(facts), facts, [base.get(int(h), ()) for h in g.heads_of(facts)]
    )


def op_values(ctx: Context, op: Op) -> Result:
    """Every value of ``relation`` (a bag, in source order)."""
    g, rel = ctx.graph, relation_param(ctx, op.param("relation"))
    facts = np.sort(g.facts_rel(rel))
    return Result.from_facts(g.tails_of(facts), facts)


def op_relations_of(ctx: Context, op: Op) -> Result:
    """Names of the relations the given heads have."""
    g = ctx.graph
    heads = np.asarray(as_nodes(ctx, resolve_set(ctx, op.param("heads"))), dtype=np.int64)
    facts = g.facts_heads(heads)
    names = [Scalar(g.relation_names[r], g.relation_names[r]) for r in g.rels_of(facts).tolist()]
    return Result.of(names, [(f,) for f in facts.tolist()]).distinct()


def op_intersect(ctx: Context, op: Op) -> Result:
    keys = op.param("sets")
    assert isinstance(keys, tuple)
    reading = op.param("reading")
    if isinstance(reading, Text):
        ctx.notes.append(reading.value)
    return intersect([resolve_set(ctx, k) for k in keys])
