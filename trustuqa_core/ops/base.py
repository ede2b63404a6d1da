"""Shared pieces of the operations: the per-execution :class:`Context`, element helpers
(text, numbers), resolving set parameters, and set arithmetic on bags."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import ExecutionError
from ..fallback import Fallback
from ..numbers import parse_number, parse_quantity
from ..query.ast import Bound, ListValue, Ref, Text
from ..results import MAX_WITNESSES, Elem, Result, Scalar, elem_key
from ..store import GraphStore


@dataclass
class Context:
    """Per-execution state (never stored on the graph)."""

    graph: GraphStore
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
    names: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Per step, the named entities its result is about (the literals of its query chain)."""
    verdicts: dict[int, bool] = field(default_factory=dict)
    """Per step, the truth value of a comparison (read by ``if_then_else``)."""
    ordered: set[int] = field(default_factory=set)
    """Steps whose result is a sorted list (``sort``): one value read from it is its first."""
    counted: dict[int, Result] = field(default_factory=dict)
    """Per ``count`` step, the set it counted (a comparison of two counts of one cell each
    reads the cells)."""
    literals: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Per reasoning step, the literal operands it was given (``contains(..., value='Dallas')``
    is about Dallas)."""
    grouped: set[int] = field(default_factory=set)
    """Steps whose result is a grouping (``group_by``): its max/min is the largest/smallest
    group."""
    placeholders: dict[int, dict[str, int]] = field(default_factory=dict)
    """Per comparison step, the made-up operand names (``set1``) it bound to earlier steps
    (a conditional whose branch is the same name reads the same step)."""
    frequent: dict[int, int] = field(default_factory=dict)
    """Per step whose rows were chosen as those holding the most / least frequent value of a
    column (``tail_entity>='most'``), that column (a loosely matched target type reads it)."""
    by_count: set[int] = field(default_factory=set)
    """Steps whose values were chosen as the group with the most / fewest rows (a max/min of
    a grouping); a lookup of those values records its column in ``frequent``."""
    groupings: dict[int, Result] = field(default_factory=dict)
    """Per ``count(set, key=column)`` step (a number), the grouping it counted: the key
    column's value of each row; a max/min/most_frequent of that step reads the groups."""

    def fail(self, message: str) -> ExecutionError:
        return ExecutionError(message, self.step)


# ------------------------------------------------------------------ helpers
def elem_text(g: GraphStore, e: Elem) -> str:
    """Display text of an element."""
    return e.text if isinstance(e, Scalar) else g.label(e)


def numeric(g: GraphStore, e: Elem) -> float | None:
    """Numeric value of an element (intervals: their start)."""
    if isinstance(e, Scalar):
        return e.value if isinstance(e.value, float) else parse_number(e.value)
    return g.numeric(e)


def quantity(g: GraphStore, e: Elem) -> tuple[float, str] | None:
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


def relation_param(ctx: Context, value: object) -> int:
    if isinstance(value, Bound) and value.role == "relation" and value.ids:
        return value.ids[0]
    shown = value.text if isinstance(value, Bound) else str(value)
    raise ctx.fail(f"relation {shown!r} matched no relation of the data")


def rel_name(ctx: Context, rel: int) -> str:
    return ctx.graph.relation_names[rel]


def distinct_heads(
    g: GraphStore,
    nodes: np.ndarray,
    facts: np.ndarray,
    base: dict[int, tuple[int, ...]] | None = None,
) -> Result:
    """Distinct nodes (in fact order), each witnessed by its facts (after ``base`` witnesses).

    Grouping is done with numpy, so large selections cost one pass, not a Python loop per fact.
    """
    order = np.argsort(facts, kind="stable")
    nodes, facts = nodes[order], facts[order]
    uniq, first, inverse, counts = np.unique(
        nodes, return_index=True, return_inverse=True, return_counts=True
    )
    groups = np.argsort(first, kind="stable")  # first-seen order
    elems = uniq[groups].tolist()
    if len(uniq) == len(nodes) and not base:  # each node once, no earlier witnesses
        return Result(tuple(elems), tuple((f,) for f in facts[first[groups]].tolist()))
    grouped = facts[np.argsort(inverse, kind="stable")].tolist()
    bounds = np.concatenate(([0], np.cumsum(counts))).tolist()
    order_list = groups.tolist()
    if base:
        wits = [
            (*base.get(n, ()), *grouped[bounds[i] : bounds[i + 1]])[:MAX_WITNESSES]
            for n, i in zip(elems, order_list, strict=True)
        ]
    else:
        wits = [tuple(grouped[bounds[i] : bounds[i + 1]][:MAX_WITNESSES]) for i in order_list]
    return Result(tuple(elems), tuple(wits))


def witness_map(r: Result) -> dict[int, tuple[int, ...]]:
    out: dict[int, tuple[int, ...]] = {}
    for e, w in zip(r.elems, r.witnesses, strict=True):
        if not isinstance(e, Scalar) and int(e) not in out:
            out[int(e)] = w
    return out


# ------------------------------------------------------------- selections


def as_nodes(ctx: Context, r: Result) -> list[int]:
    out = []
    for e in r.elems:
        if isinstance(e, Scalar):
            node = ctx.graph.entity(e.text)
            if node is not None:
                out.append(node)
        else:
            out.append(int(e))
    return out


def union(parts: list[Result]) -> Result:
    return Result(
        tuple(e for p in parts for e in p.elems), tuple(w for p in parts for w in p.witnesses)
    ).distinct()


def intersect(parts: list[Result]) -> Result:
    if not parts:
        return Result.empty()
    # only elements common to all parts survive, and each one's witnesses come from its own
    # copies, so the parts are cut down to the common elements before they are merged
    if all(p.all_nodes() for p in parts):
        common_nodes = set(parts[0].elems).intersection(*(p.elems for p in parts[1:]))
        return union([_keep(p, [e in common_nodes for e in p.elems]) for p in parts])
    common = set.intersection(*(p.keys() for p in parts))
    return union([_keep(p, [elem_key(e) in common for e in p.elems]) for p in parts])


def _keep(r: Result, mask: list[bool]) -> Result:
    """The elements of ``r`` (with their witnesses) where ``mask`` is true."""
    return Result(tuple(e for e, k in zip(r.elems, mask, strict=True) if k),
                  tuple(w for w, k in zip(r.witnesses, mask, strict=True) if k))


# ------------------------------------------------------------------- time


# the cell that marks a table's summary row
SUMMARY_CELLS = frozenset({"total", "totals", "total:", "grand total", "overall total",
                           # a player's yearly record table sums its rows in 'Win–Loss'
                           "win–loss", "win-loss"})


def is_summary_row(graph: GraphStore, node: int) -> bool:
    """True for a table row holding a cell ``Total`` (a summary row, not an entity of the
    table).

    >>> "total" in SUMMARY_CELLS
    True
    """
    if not graph.is_row(node):
        return False
    cells = graph.labels(graph.tails_of(graph.facts_heads(np.asarray([node], dtype=np.int64))))
    return any(c.strip().casefold() in SUMMARY_CELLS for c in cells)


def summary_rows_left_out(ctx: Context, witnesses: Sequence[tuple[int, ...]],
                          what: str) -> list[bool] | None:
    """Per value (its ``witnesses``, the last fact naming its row), whether its row is a
    summary row (:func:`is_summary_row`) to leave out of ``what`` (``max()``), noted; None
    when none or every one is (then all are kept)."""
    g = ctx.graph
    summary = [bool(w) and is_summary_row(g, g.head_of(w[-1])) for w in witnesses]
    if not any(summary) or all(summary):
        return None
    ctx.notes.append(f"{what}: {sum(summary)} value(s) of a summary row (a 'Total' cell) "
                     "left out")
    return summary


def without_summary_rows(ctx: Context, r: Result, what: str) -> Result:
    """``r`` without the values of summary rows (:func:`summary_rows_left_out`: the total of a
    medal table is no sport's count), noted; all of it when none or every one is."""
    drop = summary_rows_left_out(ctx, r.witnesses, what)
    if drop is None:
        return r
    keep = [i for i, dropped in enumerate(drop) if not dropped]
    return Result(tuple(r.elems[i] for i in keep), tuple(r.witnesses[i] for i in keep))


# ------------------------------------------------------------------ repeated headers
# A table naming one header twice (``Performer`` of the song and of the album) or laid out in
# blocks side by side (``Sheriff | Start of term | Sheriff | …``): the graph names the repeats
# ``Sheriff (2)``, ``Sheriff (3)``; a query naming ``Sheriff`` means all of them.
_REPEAT = re.compile(r"^(.*) \((\d+)\)$")


def repeated_columns(g: GraphStore, rel: int) -> list[int]:
    """The other relations with the same header as ``rel``: ``Sheriff (2)``, ``Sheriff (3)``
    for ``Sheriff`` (and ``Sheriff`` and ``Sheriff (3)`` for ``Sheriff (2)``), in header order;
    empty when the header does not repeat.

    >>> from types import SimpleNamespace
    >>> g = SimpleNamespace(relation_names=("Sheriff", "Year", "Sheriff (2)", "Year (2)",
    ...                                     "Sheriff (3)", "Score (1)"))
    >>> repeated_columns(g, 0), repeated_columns(g, 2), repeated_columns(g, 5)
    ([2, 4], [0, 4], [])
    """
    names = g.relation_names
    base = _base(names[rel])
    out = [i for i, name in enumerate(names) if i != rel and _base(name) == base]
    if not any(_REPEAT.match(names[i]) for i in [rel, *out]) or not out:
        return []
    return out if any(names[i] == base for i in [rel, *out]) else []


def block_repeats(g: GraphStore, rel: int) -> list[int]:
    """The repeats of ``rel`` when the whole table is one block of columns laid out side by
    side (``Year | Medalist | Position | Year (2) | Medalist (2) | Position (2)``): each row
    then holds one record per block, and a column means all its copies. Empty for any other
    table, even one that repeats some headers (``Performer`` of the song and the album).

    >>> from types import SimpleNamespace
    >>> g = SimpleNamespace(relation_names=("Year", "Position", "Year (2)", "Position (2)",
    ...                                     "row_number"))
    >>> block_repeats(g, 1), block_repeats(g, 2), block_repeats(g, 4)
    ([3], [0], [])
    >>> g = SimpleNamespace(relation_names=("Week", "Performer", "Album", "Performer (2)"))
    >>> block_repeats(g, 1)
    []
    """
    names = [n for n in g.relation_names if n != "row_number"]
    width = next((i for i, n in enumerate(names) if _REPEAT.match(n) and _base(n) != n), 0)
    if width < 2 or len(names) % width:
        return []
    block = names[:width]
    for k in range(1, len(names) // width):
        if names[k * width:(k + 1) * width] != [f"{n} ({k + 1})" for n in block]:
            return []
    return repeated_columns(g, rel) if g.relation_names[rel] != "row_number" else []


def block_copies(g: GraphStore, rel: int) -> list[int]:
    """``rel`` and its copies in block order (block 1 first) in a table of side-by-side
    blocks (:func:`block_repeats`); ``[rel]`` for any other table.

    >>> from types import SimpleNamespace
    >>> g = SimpleNamespace(relation_names=("Year", "Position", "Year (2)", "Position (2)"))
    >>> block_copies(g, 3), block_copies(g, 0)
    ([1, 3], [0, 2])
    """
    return sorted([rel, *block_repeats(g, rel)])


def _base(name: str) -> str:
    m = _REPEAT.match(name)
    return m.group(1) if m and int(m.group(2)) >= 2 else name
