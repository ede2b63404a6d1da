"""Projections: values of a relation for given heads, all values, relation names."""

from __future__ import annotations

import numpy as np

from ..query.ast import Text
from ..results import Result, Scalar
from ..rewrite import Op
from ..store import GraphStore
from .base import (
    Context,
    as_nodes,
    block_copies,
    intersect,
    rel_name,
    relation_param,
    resolve_set,
    witness_map,
)


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
    copies = block_copies(g, rel)
    if len(copies) > 1:
        facts = _in_blocks_found(ctx, copies, heads_arr, base, facts)
    facts = np.sort(facts) if len(facts) > 1 else facts
    return Result.from_facts(
        g.tails_of(facts), facts, [base.get(int(h), ()) for h in g.heads_of(facts)]
    )


def _in_blocks_found(ctx: Context, copies: list[int], heads: np.ndarray,
                     base: dict[int, tuple[int, ...]], facts: np.ndarray) -> np.ndarray:
    """In a table of side-by-side blocks, a row found through block k's column (its witness)
    reads block k's copy of the relation (noted); other rows read ``facts`` as given."""
    g, out, moved = ctx.graph, [], 0
    for h in heads.tolist():
        blocks = _blocks_of(g, base.get(h, ()))
        if not blocks or blocks == {0}:
            out.append(facts[g.heads_of(facts) == h])
            continue
        for k in sorted(blocks):
            out.append(g.facts_heads_rel(np.asarray([h], dtype=np.int64), copies[k]))
        moved += 1
    if moved:
        ctx.notes.append(f"{moved} row(s) were found in a later block of the table's repeated "
                         f"columns: {rel_name(ctx, copies[0])!r} read from the same block")
    return np.concatenate(out) if out else facts


def _blocks_of(g: GraphStore, witnesses: tuple[int, ...]) -> set[int]:
    """The blocks (0 = the first) of the witness facts that lie in a column of a table of
    side-by-side blocks."""
    if not witnesses:
        return set()
    out = set()
    for r in g.rels_of(np.asarray(witnesses, dtype=np.int64)).tolist():
        copies = block_copies(g, int(r))
        if len(copies) > 1:
            out.add(copies.index(int(r)))
    return out


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
    parts = [resolve_set(ctx, k) for k in keys]
    common = intersect(parts)
    if common or len(parts) != 2:
        return common
    return _values_of_common_rows(ctx, parts[0], parts[1]) or common


def _values_of_common_rows(ctx: Context, a: Result, b: Result) -> Result | None:
    """Rows and values read off rows (``Constructor`` of the Prost rows) share nothing as
    elements; the values of the rows in both are meant (the Prost rows of 1988: McLaren).
    None unless one part is all rows and the other all values projected from rows."""
    g = ctx.graph
    for rows, values in ((a, b), (b, a)):
        if not rows or not values or not rows.all_nodes() or not values.all_nodes():
            continue
        if not all(g.is_row(e) for e in rows.nodes()):
            continue
        heads = _projected_from(ctx, values)
        if heads is None:
            continue
        wanted = set(rows.nodes())
        keep = [h in wanted for h in heads]
        if not any(keep):
            return None
        ctx.notes.append(
            f"the intersection of {len(wanted)} row(s) with values read off rows keeps the "
            f"values of the rows in both ({sum(keep)} of {len(keep)})"
        )
        return Result(tuple(e for e, k in zip(values.elems, keep, strict=True) if k),
                      tuple(w for w, k in zip(values.witnesses, keep, strict=True) if k))
    return None


def _projected_from(ctx: Context, values: Result) -> list[int] | None:
    """The row each value was read off (its last witness: a fact row -> value), or None when
    some value is a row or was not read off a row (``values`` holds nodes only)."""
    g, heads = ctx.graph, []
    for e, w in zip(values.nodes(), values.witnesses, strict=True):
        if g.is_row(e) or not w:
            return None
        fact = np.asarray([w[-1]], dtype=np.int64)
        head, tail = int(g.heads_of(fact)[0]), int(g.tails_of(fact)[0])
        if tail != e or not g.is_row(head):
            return None
        heads.append(head)
    return heads
