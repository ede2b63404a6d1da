"""Streaks: *how many consecutive games did they win?* (offline linker).

A question asking for the length of a run (*how many consecutive*, *the longest winning
streak*, *the most wins in a row*) is not a count of rows: the rows it names have to stand next
to each other in the table. The query says so with the closed function ``consecutive``
(:mod:`trustuqa_core.reasoning.sorting`), whose notes give the run's length and whose witnesses
are the rows of the run:

- **a run of game results**: the question counts wins or losses (*wins*, *winning*, *losses*,
  *losing streak*) and the table has a column of results (``W 24–6``, ``Lost 1–3``): that
  column is read, in table order, for the rows of the question's other conditions (or every
  row), and ``consecutive(set=..., value='win')`` measures the longest run of wins;
- **a run of rows**: otherwise the rows the question's conditions find (*games played in
  Dublin*, *years Rosenborg won gold*, *attendance above 20,000*) and
  ``consecutive(set=...)``: the longest run of those rows next to each other.

Only a question asking for a number (*how many*, *how long*, *the most / longest / largest
number of*), not one asking which row had the run (*which team had the most consecutive
wins?*), and not under a negation (*no wins*, *did not have a single*).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Week,Opponent,Result\\n1,Reds,W 24-6\\n2,Cubs,L 1-3\\n"
...                        b"3,Mets,W 3-1\\n4,Reds,W 5-1\\n"])
>>> c = link_table("what was the most consecutive wins?", g).computed
>>> c.kind, c.column, c.options
('streak', 'Result', ('win', ''))
"""

from __future__ import annotations

import re

from ..query.ast import Call
from ..query.build import call, get_information, ref
from .computed import Computed
from .cond_steps import condition_step
from .linking import Cond, Table

__all__ = ["link_streak", "streak_steps", "STREAK_KINDS", "result_column"]

#: the :class:`Computed` kind this module writes
STREAK_KINDS = frozenset({"streak"})

_RUN_WORDS = frozenset({"consecutive", "consecutively", "streak", "streaks"})
_NUMBER_WORDS = frozenset({"most", "longest", "largest", "maximum", "biggest", "greatest",
                           "highest", "number"})
_ROW_ASKING = frozenset({"which", "who", "whom", "name", "where", "when", "list", "are", "is",
                         "were", "was", "did", "does", "do"})
_NEGATIONS = frozenset({"no", "not", "without", "never", "winless", "nor"})
_WIN_WORDS = frozenset({"win", "wins", "won", "winning", "victory", "victories"})
_LOSS_WORDS = frozenset({"loss", "losses", "lost", "losing", "lose", "defeat", "defeats"})
#: first words of a game-result cell (``W 24–6``, ``Lost 1–3``, ``D``)
_RESULT_STARTS = frozenset({"w", "l", "d", "t", "won", "lost", "win", "loss", "draw", "drew",
                            "tie", "tied", "lose", "defeat", "victory"})


def link_streak(question: str, q: list[str], conds: list[Cond],
                table: Table) -> Computed | None:
    """The run the question ``q`` (tokens) asks the length of, or None (module doc).

    >>> from trustuqa_core.writers.linking import tokens
    >>> t = Table("t", ["Year", "Venue"], {}, {"Year": True}, 1, {})
    >>> c = [Cond("Venue", "=", "Dublin", (6, 7))]
    >>> q = "how many consecutive games were played in dublin?"
    >>> link_streak(q, tokens(q), c, t).why
    "'consecutive': the longest run of rows next to each other meeting the conditions"
    >>> q = "which team had the most consecutive wins?"
    >>> link_streak(q, tokens(q), c, t) is None
    True
    >>> q = "how many consecutive games were there no wins?"  # tokens read *no* as a number
    >>> link_streak(q, tokens(q), c, t) is None
    True
    """
    said = set(re.findall(r"[a-z]+", question.lower()))
    if not _asks_run_length(q) or _NEGATIONS & said or any(c.negated for c in conds):
        return None
    words = set(q)
    result = "win" if _WIN_WORDS & words else "loss" if _LOSS_WORDS & words else ""
    column = result_column(table) if result else None
    if column is not None:
        kept = tuple(c for c in conds if c.column != column)
        return Computed("streak", kept, column, options=(result, ""),
                        why=f"'consecutive': the longest run of {result}s in {column!r}, "
                            "in table order")
    if not conds:
        return None
    return Computed("streak", tuple(conds), "",
                    why="'consecutive': the longest run of rows next to each other meeting "
                        "the conditions")


def _asks_run_length(q: list[str]) -> bool:
    """A run word (*consecutive*, *streak*, *in a row*) in a question asking for a number.

    >>> from trustuqa_core.writers.linking import tokens
    >>> _asks_run_length(tokens("how long was their longest winning streak?"))
    True
    >>> _asks_run_length(tokens("are the years in consecutive order?"))
    False
    """
    if not q:
        return False
    in_a_row = any(q[i:i + 3] == ["in", "a", "row"] for i in range(len(q)))
    if not (_RUN_WORDS & set(q) or in_a_row):
        return False
    pairs = {(a, b) for a, b in zip(q, q[1:], strict=False)}
    if ("how", "many") in pairs or ("how", "long") in pairs:
        return True
    return q[0] not in _ROW_ASKING and bool(_NUMBER_WORDS & set(q))


def result_column(table: Table) -> str | None:
    """The table's column of game results: most of its cells start with a result word or its
    letter (``W 24–6``, ``L``, ``Won 3–1``); the first such column.

    >>> t = Table("t", ["Opponent", "Result"], {("w", "24", "6"): [("Result", "W 24-6")],
    ...           ("l", "1", "3"): [("Result", "L 1-3")], ("reds",): [("Opponent", "Reds")]},
    ...           {}, 1, {})
    >>> result_column(t)
    'Result'
    """
    found: dict[str, list[bool]] = {}
    for key, options in table.cells.items():
        hit = bool(key) and key[0] in _RESULT_STARTS
        for column, _ in options:
            found.setdefault(column, []).append(hit)
    good = [c for c in table.columns if c in found and sum(found[c]) >= 2
            and sum(found[c]) >= 0.6 * len(found[c])]
    return good[0] if good else None


def streak_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps): the rows meeting the conditions, then ``consecutive`` over them,
    or over their game results when ``c.column`` names the results."""
    steps: list[tuple[str, Call]] = []
    groups: dict[str, list[int]] = {}
    for row in c.rows:
        steps.append(condition_step(row))
        key = row.column if row.cmp == "=" else f"{row.column}{row.cmp}{len(steps)}"
        groups.setdefault(key, []).append(len(steps))
    parts = []
    for column, numbers in groups.items():
        if len(numbers) > 1:  # one column named twice: either value
            steps.append((f"Keep the rows having any of these {column} values",
                          call("set_union", **{f"set{k}": ref(n)
                                               for k, n in enumerate(numbers, 1)})))
            parts.append(len(steps))
        else:
            parts.append(numbers[0])
    if len(parts) > 1:
        steps.append(("Keep the rows found by every condition", call("set_intersection", **{
            f"set{k}": ref(n) for k, n in enumerate(parts, 1)})))
    rows = len(steps)
    if not c.column:
        steps.append(("The longest run of these rows next to each other in the table",
                      call("consecutive", set=ref(rows))))
        return "number", steps
    result = c.options[0]
    steps.append((f"Get the {c.column} of the rows, in table order" if rows
                  else f"Get every {c.column}, in table order",
                  get_information(relation=c.column, head_entity=ref(rows)) if rows
                  else get_information(relation=c.column)))
    steps.append((f"The longest run of {result}s among them",
                  call("consecutive", set=ref(len(steps)), value=result)))
    return "number", steps
