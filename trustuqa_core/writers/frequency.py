"""*Which month had the most games?*: the month occurring in the most rows (offline linker).

A table of games or events dated ``June 3`` / ``3 June 2011`` has no column of months; the
question asks for the month most of the rows (those meeting its other conditions) fall in.
The query reads the date column, takes each date's month (``extract_month``) and the most
frequent of them (``most_frequent``, ties: all), so the trace shows the count per month.
Only *most*: a least frequent month would also have to count the months no row falls in.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Date,Opponent\\nJune 3,Reds\\nJune 10,Cubs\\nJuly 1,Mets\\n"])
>>> c = link_table("which month had the most games?", g).computed
>>> c.kind, c.column
('frequent_month', 'Date')
"""

from __future__ import annotations

from ..query.ast import Call
from ..query.build import call, get_information, ref
from .computed import Computed
from .cond_steps import condition_step
from .linking import Cond, Table, tokens

__all__ = ["link_frequent_month", "frequent_month_steps", "date_columns"]

_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_MONTH_WORDS = frozenset(_MONTHS) | frozenset(m[:3] for m in _MONTHS) | {"sept"}


def link_frequent_month(q: list[str], conds: list[Cond], table: Table) -> Computed | None:
    """The frequent-month question ``q`` (tokens) asks over ``table``, or None (module doc).

    >>> t = Table("t", ["Date", "Month"], {}, {}, 1, {})
    >>> link_frequent_month(tokens("which month had the most games?"), [], t) is None
    True
    """
    asked = any(w in ("month", "months") and i and q[i - 1] in ("which", "what")
                for i, w in enumerate(q))
    if not asked or "most" not in q or {"least", "fewest"} & set(q):
        return None
    if any({"month", "months"} & set(tokens(c)) for c in table.columns):
        return None  # a column of months: its most frequent value is read as any column's
    if any(c.negated for c in conds) or len({c.column for c in conds}) < len(conds):
        return None  # "not in June", "A or B": not the rows of one plain condition each
    dates = date_columns(table)
    if not dates:
        return None
    named = [c for c in dates if "date" in tokens(c)]
    column = (named or dates)[0]
    return Computed("frequent_month", tuple(conds), column,
                    why=f"'which month ... most': the month of {column!r} found in the most "
                        "rows")


def date_columns(table: Table) -> list[str]:
    """Columns most of whose cells name a month (``June 3``, ``3 Jun 2011``), in table order.

    >>> t = Table("t", ["Date", "Team"], {("june", "3"): [("Date", "June 3")],
    ...           ("jul", "1"): [("Date", "Jul 1")], ("reds",): [("Team", "Reds")]}, {}, 1, {})
    >>> date_columns(t)
    ['Date']
    """
    found: dict[str, list[bool]] = {}
    for key, options in table.cells.items():
        hit = bool(_MONTH_WORDS & set(key))
        for column, _ in options:
            found.setdefault(column, []).append(hit)
    return [c for c in table.columns if c in found and sum(found[c]) >= 2
            and sum(found[c]) >= 0.5 * len(found[c])]


def frequent_month_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps): the rows meeting the conditions, their dates, each date's month,
    the most frequent month."""
    steps: list[tuple[str, Call]] = []
    for row in c.rows:
        steps.append(condition_step(row))
    if len(c.rows) > 1:
        steps.append(("Keep the rows found by every condition", call("set_intersection", **{
            f"set{k}": ref(k) for k in range(1, len(c.rows) + 1)})))
    rows = len(steps)
    steps.append((f"Get the {c.column} of the rows" if rows else f"Get every {c.column}",
                  get_information(relation=c.column, head_entity=ref(rows)) if rows
                  else get_information(relation=c.column)))
    steps.append(("Take the month of each", call("extract_month", set=ref(len(steps)))))
    steps.append(("The month found most often", call("most_frequent", set=ref(len(steps)))))
    return "month", steps
