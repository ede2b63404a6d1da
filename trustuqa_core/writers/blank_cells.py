"""Rows a yes/no comparison names whose compared cell is blank.

*did Tessa Worley rank higher than Lara Gut?* over a race whose medallists' ``Rank`` cells
are blank: the comparison has nothing to read for her, so the offline writer says so
instead of writing a query that stops at an empty step (or guessing an order from the rows).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.computed import Computed
>>> from trustuqa_core.writers.linking import Cond
>>> g = load_graph(tables=[b"Rank,Name\\n,Ann\\n2,Bo\\n3,Cy\\n"])
>>> rows = (Cond("Name", "=", "Ann", (1, 2)), Cond("Name", "=", "Cy", (4, 5)))
>>> blank_rows(g, Computed("compare", rows, "Rank"))
['Ann']
>>> blank_rows(g, Computed("compare", rows[1:], "Rank"))
[]
"""

from __future__ import annotations

from ..store import GraphStore
from .computed import Computed

__all__ = ["blank_rows", "blank_note"]


def blank_rows(graph: GraphStore, computed: Computed | None) -> list[str]:
    """The values naming rows of a ``compare`` whose every row lacks a ``computed.column``
    cell (rows not found, or columns not in the graph, are left to the query)."""
    if computed is None or computed.kind != "compare":
        return []
    rel = graph.relation(computed.column)
    if rel is None:
        return []
    out: list[str] = []
    for cond in computed.rows:
        by, node = graph.relation(cond.column), graph.entity(cond.value)
        if cond.cmp != "=" or by is None or node is None:
            continue
        rows = [graph.head_of(int(f)) for f in graph.facts_rel_tail(by, node)]
        if rows and not any(len(graph.facts_head_rel(r, rel)) for r in rows):
            out.append(cond.value)
    return out


def blank_note(column: str, blank: list[str], source: str) -> str:
    """The writer's note when ``blank`` rows have no ``column`` cell to compare.

    >>> blank_note("Rank", ["Ann"], "t.csv")  # doctest: +ELLIPSIS
    "could not compare on 'Rank': the 'Rank' cell of 'Ann' is blank in t.csv; ..."
    """
    names = ", ".join(repr(b) for b in blank)
    return (f"could not compare on {column!r}: the {column!r} cell of {names} is blank in "
            f"{source}; the offline writer does not guess an order from another column or the "
            "rows' order: write the query, or configure an LLM")
