"""Schema linking for tables, the offline writer's heuristic: question words -> a table plan.

Cell values found in the question become conditions (``get_information(relation=<column>,
tail_entity='<cell>')``), comparison cues (``more than 12 wins``) become ``>``/``<``
conditions, the column the question asks about becomes the selected column, and cue words
(``how many``, ``average``, ``highest``...) the aggregate. No network, no model.

The reading is an ordered tuple of named rules (:data:`LINK_RULES`, the selected column by
:data:`.asking.SELECT_RULES`; :func:`link_rules` lists them), each shown by a case in
``tests/fixtures/linking.txt``; the English words they look for are lists of ``lexicon.txt``.
The rules share a :class:`.link_state.LinkState` and live by kind of reading:
:mod:`.conditions` and :mod:`.partial_values` (what the question names), :mod:`.asking` (the
column asked for), :mod:`.aggregates`, :mod:`.superlatives`, :mod:`.order` (first / last /
top, next / previous row), :mod:`.comparisons` (choices between rows, computed readings),
:mod:`.no_value` (*no <column>*), :mod:`.same_as` (*the same <column> as*),
:mod:`.per_group` (*how many X does each Y have*) and :mod:`.group_sizes` (*how many Y have
more than 2 X*, *the total X of each Y*).
This module runs them and keeps the plan; :mod:`.table_program` writes the plan as a query
program.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Player,No.,School\\nAnn Lee,21,Duke\\nBo Ray,3,Iowa\\n"])
>>> plan = link_table("What school did player number 21 play for?", g)
>>> plan.select, plan.agg, [(c.column, c.cmp, c.value) for c in plan.conds]
('School', '', [('No.', '=', '21')])
>>> plan.rules
('conditions', 'select/named_at_focus', 'select')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..store import GraphStore
from .aggregates import rule_aggregate, rule_count_reads_column, rule_exists, rule_summary_row
from .asking import SELECT_RULES, rule_select
from .comparisons import (
    rule_choice,
    rule_computed,
    rule_count_choice,
    rule_frequent_month,
    rule_streak,
)
from .computed import Computed
from .conditions import rule_conditions, rule_negation, rule_place_bounds, rule_property_words
from .group_sizes import rule_groups_of_size, rule_sum_each
from .link_state import LinkRule, LinkState, link_rule
from .linking import HAS, SAME, Cond, read_table
from .no_value import rule_no_value
from .order import rule_finished_place, rule_neighbour, rule_row_order
from .partial_values import rule_partial_values
from .per_group import rule_count_each
from .same_as import rule_same_as
from .superlatives import rule_ranking, rule_relative_superlative, rule_row_of_extreme

__all__ = ["TablePlan", "LINK_RULES", "link_rules", "link_table"]


@dataclass
class TablePlan:
    """What the linker understood, with the reasons (shown as the writer's explanation)."""

    select: str | None
    agg: str
    conds: list[Cond]
    source: str
    why: list[str] = field(default_factory=list)
    #: ("extreme", column) -- the rows whose column is highest/lowest (``agg``), then
    #: ``select`` of them; ("frequent", column) -- the rows holding the most/least frequent
    #: value of ``select``. None: ``agg`` applies to the selected values.
    ranking: tuple[str, str] | None = None
    #: (column, cell) of a summary row ("Total") left out of aggregates and rankings
    exclude: tuple[str, str] | None = None
    #: "next_row" / "previous_row": the row after/before the one the conditions find
    neighbour: str = ""
    #: a difference / yes-no comparison / duration of the rows' values (writers/computed.py)
    computed: Computed | None = None
    #: names of the linking rules that changed the plan, in order (:func:`link_rules`)
    rules: tuple[str, ...] = ()

    def explain(self) -> str:
        """The reasons as one line (the offline writer's note)."""
        return "; ".join(self.why)


def link_table(question: str, graph: GraphStore, source: int | None = None) -> TablePlan:
    """The best plan over the graph's table sources (or the given one)."""
    indices = [source] if source is not None else [
        i for i, s in enumerate(graph.sources) if s.kind == "table"]
    plans = [_link_one(question, graph, i) for i in indices]
    if not plans:
        return TablePlan(None, "", [], "", ["no table among the sources"])
    return max(plans, key=lambda p: (len(p.conds), p.select is not None))


def _link_one(question: str, graph: GraphStore, index: int) -> TablePlan:
    state = LinkState.start(question, read_table(graph, index))
    for rule in LINK_RULES:
        if rule.apply(state):
            state.fired.append(rule.name)
    plan = TablePlan(state.select, state.agg, state.conds, state.table.name, [],
                     state.ranking, state.exclude, state.neighbour, state.computed)
    plan.why = _reasons(plan)
    plan.rules = tuple(state.fired)
    return plan


#: the rules of table linking, in the order they run (each sees what the earlier ones found)
LINK_RULES: tuple[LinkRule, ...] = tuple(link_rule(f) for f in (
    rule_conditions, rule_property_words, rule_partial_values, rule_negation, rule_no_value,
    rule_same_as, rule_place_bounds,
    rule_aggregate, rule_select, rule_count_reads_column, rule_relative_superlative,
    rule_ranking, rule_row_of_extreme, rule_choice, rule_neighbour, rule_finished_place,
    rule_row_order, rule_summary_row, rule_exists, rule_computed, rule_count_choice,
    rule_frequent_month, rule_streak, rule_groups_of_size, rule_sum_each, rule_count_each))


def link_rules() -> list[tuple[str, str]]:
    """(rule name, what it does) in the order the rules run, for documentation; the ways of
    choosing the selected column follow ``select`` as ``select/<name>``.

    >>> [name for name, _ in link_rules()][:6]
    ['conditions', 'property_words', 'partial_values', 'negation', 'no_value', 'same_as']
    """
    out = []
    for r in LINK_RULES:
        out.append((r.name, r.doc))
        if r.name == "select":
            out += [(f"select/{name}", doc) for name, doc, _ in SELECT_RULES]
    return out


def _reasons(plan: TablePlan) -> list[str]:
    """What the linker understood, in words (the offline writer's note)."""
    why = [f"table {plan.source}"]
    why += [_cond_reason(c) for c in plan.conds]
    why.append(f"selected column {plan.select!r}" + (f", aggregate {plan.agg}" if plan.agg
                                                     else ""))
    if plan.ranking is not None and plan.ranking[0] == "extreme":
        why.append(f"the rows with the {plan.agg} {plan.ranking[1]!r}")
    elif plan.ranking is not None:
        why.append(f"the {'most' if plan.agg == 'max' else 'least'} frequent {plan.select!r}")
    if plan.exclude is not None:
        why.append(f"leaving out the summary row {plan.exclude[0]} = {plan.exclude[1]!r}")
    if plan.neighbour:
        why.append(f"then the {'next' if plan.neighbour == 'next_row' else 'previous'} row")
    if plan.computed is not None:
        why.append(f"computed: {plan.computed.kind}, {plan.computed.why}")
    return why


def _cond_reason(c: Cond) -> str:
    """One condition in words (the offline writer's note).

    >>> _cond_reason(Cond("Notes", HAS, "", (4, 5), negated=True))
    'condition: a blank Notes cell (question words 4-5)'
    """
    words = f"(question words {c.span[0]}-{c.span[1]})"
    if c.cmp == HAS:
        return f"condition: a blank {c.column} cell {words}"
    if c.cmp == SAME:
        return f"condition: the same {c.column} as {c.value!r}, that row left out {words}"
    return f"condition {c.column} {c.cmp} {c.value!r} {words}"
