"""A table plan (what :mod:`.tables` linked) as a query program.

Conditions become ``get_information(relation=<column>, tail_entity<cmp><value>)`` steps (one
column named twice: either value, ``set_union``; several columns: ``set_intersection``), then
the selected column is read, counted or aggregated; a ranking picks the top rows first.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.query import render_call
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Player,No.,School\\nAnn Lee,21,Duke\\nBo Ray,3,Iowa\\n"])
>>> built = plan_program(link_table("What school did player number 21 play for?", g))
>>> [render_call(q.call) for q in built.queries]  # doctest: +NORMALIZE_WHITESPACE
["get_information(relation='No.', tail_entity='21')",
 "get_information(relation='School', head_entity='output_of_query1')"]
"""

from __future__ import annotations

from collections.abc import Sequence

from ..query.ast import Arg, Call, Cmp, Program
from ..query.build import arg, call, get_information, program, ref
from .choices import COUNT_KINDS, count_choice_steps
from .computed import computed_steps
from .cond_steps import condition_step
from .frequency import frequent_month_steps
from .group_sizes import GROUP_KINDS, group_steps
from .linking import HAS, SAME
from .per_group import count_each_steps
from .same_as import same_as_steps
from .streaks import STREAK_KINDS, streak_steps
from .tables import TablePlan

__all__ = ["plan_program"]


def plan_program(plan: TablePlan) -> Program | None:
    """The query program of a plan (None without a selected column)."""
    if plan.computed is not None:
        kind = plan.computed.kind
        write = count_choice_steps if kind in COUNT_KINDS else frequent_month_steps \
            if kind == "frequent_month" else streak_steps if kind in STREAK_KINDS \
            else count_each_steps if kind == "count_each" else group_steps \
            if kind in GROUP_KINDS else computed_steps
        target, computed = write(plan.computed)
        return program(target, computed)
    if any(c.cmp == SAME for c in plan.conds):
        asked = plan.select if {"select/named_at_focus", "select/focus_synonym"} & set(
            plan.rules) else None  # else the named row's column: "which nation ... as X"
        same = same_as_steps(plan.conds, asked, plan.agg == "count")
        return program(*same) if same is not None else None
    if plan.select is None:
        return None
    steps: list[tuple[str, Call]] = []
    groups: dict[tuple[str, str], list[int]] = {}  # a row has one value per column: "=" on
    parts = []
    if plan.exclude is not None:
        column, label = plan.exclude
        steps += [(f"Find the summary row ({column} = {label})",
                   get_information(relation=column, tail_entity=label)),
                  ("Take every other row", call("set_negation", set=ref(1)))]
        parts.append(2)
    negated: list[int] = []
    for c in plan.conds:                            # one column twice means either of them
        if c.cmp == HAS:                            # the rows having any value of the column
            steps.append((f"Get every {c.column}", get_information(relation=c.column)))
            steps.append((f"Find the rows having a {c.column}", get_information(
                relation=c.column, tail_entity=ref(len(steps)))))
        else:
            steps.append(condition_step(c))
        if c.negated:
            negated.append(len(steps))
            continue
        key = ("", f"either {c.either}") if c.either else (c.column, "=") if c.cmp == "=" \
            else (c.column, f"{c.cmp}{len(steps)}")
        groups.setdefault(key, []).append(len(steps))
    for (column, _), numbers in groups.items():
        if len(numbers) > 1:
            said = (f"Keep the rows having any of these {column} values" if column
                    else "Keep the rows meeting any of these conditions")
            steps.append((said, call("set_union", *_sets(numbers))))
            parts.append(len(steps))
        else:
            parts.append(numbers[0])
    if len(parts) > 1:
        steps.append(("Keep the rows found by every condition",
                      call("set_intersection", *_sets(parts))))
    base = len(steps) if len(parts) > 1 else parts[0] if parts else 0
    for n in negated:                               # "other than X": the rows that are not
        if base:
            steps.append((f"Leave out the rows of output_of_query{n}",
                          call("set_difference", set1=ref(base), set2=ref(n))))
        else:
            steps.append((f"Take every row not in output_of_query{n}",
                          call("set_negation", set=ref(n))))
        base = len(steps)
    if plan.neighbour and steps:
        which = "next" if plan.neighbour == "next_row" else "previous"
        named = len(steps)
        steps.append((f"Take the {which} row", call(plan.neighbour, set=ref(named))))
        if plan.select in {c.column for c in plan.conds if not c.negated}:
            # the next act after X is another act: a row holding X again is not the answer
            steps.append((f"Leave out the rows of output_of_query{named} themselves",
                          call("set_difference", set1=ref(len(steps)), set2=ref(named))))
    sel, rows = plan.select, len(steps)
    if plan.ranking is not None:
        return program(sel, steps + _ranking_steps(plan, rows))
    if plan.agg == "exists" and rows:
        steps.append((f"Is there a row in output_of_query{rows}?",
                      call("exists", set=ref(rows))))
        return program("yes or no", steps)
    if plan.agg == "count" and rows:
        steps.append((f"Count output_of_query{rows}", call("count", set=ref(rows))))
        return program(f"number of {sel}", steps)
    read = (get_information(relation=sel, head_entity=ref(rows)) if rows
            else get_information(relation=sel))
    steps.append((f"Get the {sel} of the rows" if rows else f"Get every {sel}", read))
    if plan.agg:
        last = len(steps)
        steps.append((f"Apply {plan.agg} to output_of_query{last}",
                      call(plan.agg, set=ref(last))))
    return program(sel, steps)


def _sets(steps: Sequence[int]) -> list[Arg]:
    """``set1='output_of_query<a>', set2=...`` for the given steps."""
    return [arg(f"set{j}", ref(n)) for j, n in enumerate(steps, 1)]


def _ranking_steps(plan: TablePlan, rows: int) -> list[tuple[str, Call]]:
    """Steps after the condition steps (``rows`` of them) that pick the top-ranked rows and
    read the selected column of them."""
    kind, col = plan.ranking or ("", "")
    sel, word = plan.select or "", "highest" if plan.agg == "max" else "lowest"
    steps: list[tuple[str, Call]] = []
    if kind == "frequent":
        which = "most" if plan.agg == "max" else "least"
        steps.append((f"Find the rows holding the {which} frequent {sel}",
                      get_information(relation=sel, tail_entity=which)))
    elif not rows:
        cmp: Cmp = ">=" if plan.agg == "max" else "<="
        steps.append((f"Find the rows with the {word} {col}",
                      get_information(relation=col, tail_entity=word, cmp=cmp)))
    else:
        n = rows
        steps += [
            (f"Get the {col} of those rows", get_information(relation=col, head_entity=ref(n))),
            (f"Take the {word} of them", call(plan.agg, set=ref(n + 1))),
            (f"Find the rows with that {col}",
             get_information(relation=col, tail_entity=ref(n + 2))),
            ("Keep those among the rows found by the conditions",
             call("set_intersection", set1=ref(n), set2=ref(n + 3))),
        ]
    last = rows + len(steps)
    steps.append((f"Get the {sel} of those rows",
                  get_information(relation=sel, head_entity=ref(last))))
    return steps
