"""*How many skiers does each nation have?*: one count per group (offline linker).

A count asked *per* value of a column (*how many X does each Y have*, *the number of X per
Y*, *how many X in each Y*, *for every Y*) is not one number: the query reads the rows (those
meeting the question's other conditions, else every row) and counts them by the named
column with ``count_each(set=..., key=Y)``, whose answer is one ``'<value>: <count>'`` per
group, the largest first, each witnessed by its rows' cells.

Not read this way: a count whose counted noun is itself a numeric column (*how many points
did each team score?* reads the points of each row), a key column a condition already fixes
(*how many medals did each of Italy and France win?*), a key column no value of which is in
two rows, or a negated condition.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\nBo,France\\nCy,Italy\\n"])
>>> c = link_table("how many skiers does each nation have?", g).computed
>>> c.kind, c.column
('count_each', 'Nation')
"""

from __future__ import annotations

from ..query.ast import Call
from ..query.build import call, get_information, ref
from .aggregates import numbers_rows
from .computed import Computed
from .cond_steps import condition_step
from .link_state import LinkState
from .linking import Cond, Mentions, Table

__all__ = ["link_count_each", "count_each_steps", "rule_count_each", "each_key", "group_rows"]

#: the word right before the grouping column: *each nation*, *every team*, *per country*
_EACH = frozenset({"each", "every", "per"})


def rule_count_each(s: LinkState) -> bool:
    """*How many X does each Y have?*, *number of X per Y*: one count per value of the
    column Y (:mod:`.per_group`), instead of one count of every row."""
    if s.computed is not None:
        return False
    return s.take_computed(link_count_each(s.q, s.conds, s.mentions, s.table))


def link_count_each(q: list[str], conds: list[Cond], mentions: Mentions,
                    table: Table) -> Computed | None:
    """The per-group count ``q`` (tokens) asks over ``table``, or None (module doc).

    >>> from trustuqa_core.writers.linking import header_mentions, tokens
    >>> t = Table("t", ["Name", "Nation"], {}, {}, 1, {},
    ...           repeated={"Nation": frozenset({"Italy"})})
    >>> q = tokens("what is the number of skiers per nation?")
    >>> link_count_each(q, [], header_mentions(q, t.columns), t).column
    'Nation'
    >>> q = tokens("how many skiers are from each of the nations?")
    >>> link_count_each(q, [], header_mentions(q, t.columns), t) is None
    True
    """
    text = " " + " ".join(q) + " "
    if " how many " not in text and " number of " not in text:
        return None
    if any(c.negated for c in conds):
        return None
    key = each_key(q, conds, mentions, table)
    if key is None:
        return None
    used = {c.column for c in conds}
    start = mentions[key][1]
    if any(col != key and m[0] >= 1.0 and table.numeric.get(col) and col not in used
           and not numbers_rows(col) for col, m in mentions.items()):
        return None  # "how many points did each team score?": a number read per row
    return Computed("count_each", tuple(conds), key,
                    why=f"'... each {q[start]}': the rows counted per {key!r}")


def each_key(q: list[str], conds: list[Cond], mentions: Mentions, table: Table) -> str | None:
    """The column ``q`` (tokens) groups by: the one column named in full right after *each* /
    *every* / *per* that no condition reads, some value of which is in two rows, and whose
    words are no condition's value; else None.

    >>> from trustuqa_core.writers.linking import header_mentions, tokens
    >>> t = Table("t", ["Name", "Nation"], {}, {}, 1, {},
    ...           repeated={"Nation": frozenset({"Italy"})})
    >>> q = tokens("how many skiers does each nation have?")
    >>> each_key(q, [], header_mentions(q, t.columns), t)
    'Nation'
    >>> t.repeated.clear()  # each group would be one row
    >>> each_key(q, [], header_mentions(q, t.columns), t) is None
    True
    """
    used = {c.column for c in conds}
    keys = [col for col, (score, start, _) in mentions.items()
            if score >= 1.0 and start > 0 and q[start - 1] in _EACH and col not in used]
    if len(keys) != 1 or not table.repeated.get(keys[0]):
        return None
    key = keys[0]
    start, end = mentions[key][1], mentions[key][2]
    if any(c.span[0] < end and start < c.span[1] for c in conds):
        return None  # the key's words are a condition's value
    return key


def count_each_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps): :func:`group_rows`, counted per value of the key column. The
    target type is the key column (each answer names a value of it)."""
    steps = group_rows(c)
    steps.append((f"Count the rows of each {c.column}",
                  call("count_each", set=ref(len(steps)), key=c.column)))
    return c.column, steps


def group_rows(c: Computed) -> list[tuple[str, Call]]:
    """The steps finding the rows a per-group reading groups: the rows meeting the conditions
    (either value of one column, ``set_union``; several columns, ``set_intersection``), else
    every row's value of the key column; the last step holds them."""
    steps: list[tuple[str, Call]] = []
    groups: dict[str, list[int]] = {}
    for row in c.rows:
        steps.append(condition_step(row))
        tag = f"either {row.either}" if row.either else f"{row.column} =" if row.cmp == "=" \
            else f"{row.column} {len(steps)}"
        groups.setdefault(tag, []).append(len(steps))
    parts = []
    for numbers in groups.values():
        if len(numbers) > 1:
            steps.append(("Keep the rows meeting any of these conditions", call(
                "set_union", **{f"set{j}": ref(n) for j, n in enumerate(numbers, 1)})))
        parts.append(len(steps) if len(numbers) > 1 else numbers[0])
    if len(parts) > 1:
        steps.append(("Keep the rows found by every condition", call(
            "set_intersection", **{f"set{j}": ref(n) for j, n in enumerate(parts, 1)})))
    if not steps:
        steps.append((f"Get every {c.column}", get_information(relation=c.column)))
    return steps
