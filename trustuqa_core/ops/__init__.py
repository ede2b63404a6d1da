"""Execution-plan operations: pure functions over the graph's read API.

Each operation takes a :class:`Context` and an :class:`~trustuqa_core.rewrite.Op` and returns a
:class:`~trustuqa_core.results.Result`. Operations never print and never store anything on
the graph; notes for the user (a reinterpretation, values skipped) go to ``ctx.notes``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..results import Result
from ..rewrite import Op
from .base import (
    Context,
    as_nodes,
    elem_text,
    intersect,
    numeric,
    quantity,
    resolve_set,
    union,
)
from .project import op_intersect, op_project, op_relations_of, op_values, project
from .select import (
    op_filter_heads,
    op_select,
    op_select_extreme,
    op_select_frequent,
    op_select_row_end,
)
from .time import op_fact_times, op_select_at_time

__all__ = [
    "Context",
    "GRAPH_OPS",
    "resolve_set",
    "numeric",
    "quantity",
    "elem_text",
    "project",
    "union",
    "intersect",
    "as_nodes",
]

GRAPH_OPS: dict[str, Callable[[Context, Op], Result]] = {
    "select": op_select,
    "select_frequent": op_select_frequent,
    "select_extreme": op_select_extreme,
    "select_row_end": op_select_row_end,
    "filter_heads": op_filter_heads,
    "project": op_project,
    "values": op_values,
    "relations_of": op_relations_of,
    "intersect": op_intersect,
    "fact_times": op_fact_times,
    "select_at_time": op_select_at_time,
}
