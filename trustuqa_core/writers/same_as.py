"""*Which nation won the same number of gold medals as Hungary?*: the other rows whose cell in
a column equals the named row's (offline linker).

The question names one row (a condition, usually after *as*) and, between *the same* and
*as*, a column Y. The rows asked about are those whose Y equals the named row's Y, the named
row itself left out; the question's column is read of them, or they are counted (*how many
other models are the same length as the M1898?*). Written as: the named row, its Y, the rows
with that Y, those minus the named row (:func:`same_as_steps`).

Not read this way: a yes/no question (*was A the same as B?*), no column named between
*same* and *as*, or no single named row.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Rank,Nation,Gold\\n1,Hungary,6\\n2,Bulgaria,6\\n3,Peru,2\\n"])
>>> plan = link_table("which nation won the same number of gold medals as hungary?", g)
>>> [(c.column, c.cmp) for c in plan.conds]
[('Nation', '='), ('Gold', 'same')]
>>> from trustuqa_core.writers.table_program import plan_program
>>> plan_program(plan).queries[-1].call.args[0].value.value
'Nation'
"""

from __future__ import annotations

from ..query.ast import Call
from ..query.build import call, get_information, ref
from .cond_steps import condition_step
from .link_state import LinkState
from .linking import SAME, Cond, header_mentions, tokens

__all__ = ["rule_same_as", "same_as_steps"]

_YES_NO = frozenset({"is", "was", "were", "are", "did", "does", "do", "has", "have", "had"})


def rule_same_as(s: LinkState) -> bool:
    """*the same Y as <named row>*: a condition on Y (:data:`.linking.SAME`) that keeps the
    other rows sharing the named row's Y (:mod:`.same_as`)."""
    q = s.q
    if not q or q[0] in _YES_NO or "same" not in q:
        return False
    at = q.index("same")
    upto = next((j for j in range(at + 1, min(len(q), at + 8)) if q[j] == "as"), -1)
    if upto < 0:
        return False
    used = {i for c in s.conds for i in range(*c.span)}
    if used & set(range(at + 1, upto)):
        return False
    found = header_mentions(q[at + 1:upto], s.table.columns)
    named = sorted(((m[0], col, m) for col, m in found.items() if m[0] >= 0.5), reverse=True)
    if not named or len(named) > 1 and named[0][0] == named[1][0]:
        return False
    _, column, (_, start, end) = named[0]
    plain = [c for c in s.conds if c.cmp == "=" and not c.negated and c.column != column]
    after = [c for c in plain if c.span[0] > upto]
    row = after[0] if len(after) == 1 else plain[0] if len(plain) == 1 else None
    if row is None or any(c.column == column for c in s.conds):
        return False
    s.conds.append(Cond(column, SAME, row.value, (at + 1 + start, at + 1 + end)))
    s.covered |= set(range(at, upto + 1))
    return True


def same_as_steps(conds: list[Cond], select: str | None,
                  count: bool) -> tuple[str, list[tuple[str, Call]]] | None:
    """(target type, steps) of a plan with a :data:`.linking.SAME` condition: the named row
    (the plain condition whose value the SAME one carries), its Y, the rows with that Y
    but the named row (kept by the other conditions too), then ``select`` of them (None, or a
    column whose name holds the named row's column name, *Co-Driver* for *Driver*: the named
    row's column, *which nation ... as Hungary*) or their count; None when the conditions
    are not of that form."""
    same = [c for c in conds if c.cmp == SAME]
    if len(same) != 1:
        return None
    y = same[0]
    named = next((c for c in conds if c.cmp == "=" and not c.negated and c.value == y.value
                  and c.column != y.column), None)
    if named is None:
        return None
    others = [c for c in conds if c is not named and c is not y]
    if any(c.negated or c.cmp not in ("=", "<", ">", "<=", ">=") for c in others):
        return None
    steps: list[tuple[str, Call]] = [condition_step(named)]
    steps.append((f"Get the {y.column} of output_of_query1",
                  get_information(relation=y.column, head_entity=ref(1))))
    steps.append((f"Find the rows with that {y.column}",
                  get_information(relation=y.column, tail_entity=ref(2))))
    steps.append((f"Leave out the row of {named.value} itself",
                  call("set_difference", set1=ref(3), set2=ref(1))))
    rows = len(steps)
    for c in others:
        steps.append(condition_step(c))
        steps.append(("Keep the rows found by every condition",
                      call("set_intersection", set1=ref(rows), set2=ref(len(steps)))))
        rows = len(steps)
    if select is not None and set(tokens(named.column)) < set(tokens(select)):
        select = None  # "which driver ... as X": Driver, not Co-Driver (the named one's column)
    if count:
        steps.append((f"Count output_of_query{rows}", call("count", set=ref(rows))))
        return f"number of {select or named.column}", steps
    read = select or named.column
    steps.append((f"Get the {read} of the rows",
                  get_information(relation=read, head_entity=ref(rows))))
    return read, steps
