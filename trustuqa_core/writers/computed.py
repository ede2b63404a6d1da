"""The offline linker's computed questions: differences, yes/no comparisons, durations.

Cue phrases (data, below) say which reasoning function a table question needs; the rows come
from the cell values the linker found in the question, the column from the header it names.

* "how many more medals did Italy win than Japan?", "the difference in points between A and
  B" -> two rows of one column, the named numeric column of each, ``difference``;
* "did Italy win more medals than Japan?" -> the same values, ``compare(..., op='>')``;
* "how long did Ann serve?" -> one row, a start and an end column (``Took office`` /
  ``Left office``, ``From`` / ``To``, ``Opened`` / ``Closed``), ``duration``;
* "how long was it between the releases of A and B?" -> two rows of one column, the year column
  (the one named, else the table's only column of years), ``duration`` from one to the other.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Nation,Gold\\nItaly,10\\nJapan,4\\n"])
>>> link_table("how many more gold medals did italy win than japan?", g).computed.kind
'difference'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lexicon import pairs, word_set
from ..query.ast import Call
from ..query.build import call, get_information, ref
from .linking import Cond, Table, tokens

__all__ = ["Computed", "link_computed", "computed_steps"]

_DIFFERENCE = re.compile(
    r"\bhow (?:many|much) (?:\w+ ){0,3}?(?:more|less|fewer|higher|lower|longer|shorter|bigger|"
    r"larger|smaller|greater|taller|older|younger)\b.*\bthan\b|\bdifference\b|\bhow far apart\b"
)
_YES_NO_MORE = re.compile(
    r"^(?:did|does|do|was|were|is|are|has|have|had)\b.*\b(more|less|fewer|higher|lower|longer|"
    r"shorter|bigger|larger|smaller|greater|taller)\b.*\bthan\b"
)
_HOW_LONG = re.compile(r"\bhow long\b|\bhow many years\b")
_LESS = word_set("less_comparatives")
_SPAN_COLUMNS = pairs("span_columns")


@dataclass(frozen=True)
class Computed:
    """A computed answer: ``kind`` (difference / compare / duration), the rows' conditions,
    the column(s) read, the comparison for ``compare``, and the reason shown to the user."""

    kind: str
    rows: tuple[Cond, ...]
    column: str
    end_column: str = ""
    op: str = ">"
    why: str = ""


def link_computed(question: str, conds: list[Cond], mentions: dict[str, tuple[float, int, int]],
                  table: Table) -> Computed | None:
    """The computed question ``question`` asks, or ``None`` (see the module doc)."""
    text = question.lower()
    equal = [c for c in conds if c.cmp == "=" and c.column != "row_number"]
    if _HOW_LONG.search(text) and len(equal) == 1:
        span = _span_columns(table)
        if span is not None:
            return Computed("duration", (equal[0],), span[0], span[1],
                            why=f"'how long': years from {span[0]!r} to {span[1]!r}")
    if len(equal) != 2 or equal[0].column != equal[1].column:
        return None
    named = {c.column for c in equal}
    if "how long" in text and (year := _year_column(table, named, mentions)) is not None:
        return Computed("duration", tuple(sorted(equal, key=lambda c: c.span)), year,
                        why=f"'how long' between two rows: years from one {year!r} to the "
                            "other")
    numeric = [c for c, m in mentions.items()
               if c not in named and table.numeric.get(c) and m[0] >= 0.5]
    if not numeric:
        return None
    column = max(numeric, key=lambda c: (mentions[c][0], -mentions[c][1]))
    rows = tuple(sorted(equal, key=lambda c: c.span))
    if _DIFFERENCE.search(text):
        return Computed("difference", rows, column,
                        why=f"'how many more' / 'difference': {column!r} of the two rows")
    if m := _YES_NO_MORE.search(text):
        op = "<" if m.group(1) in _LESS else ">"
        return Computed("compare", rows, column, op=op,
                        why=f"a yes/no comparison of {column!r} ({m.group(1)!r} -> {op})")
    return None


def _year_column(table: Table, named: set[str],
                 mentions: dict[str, tuple[float, int, int]]) -> str | None:
    """The column of years two rows are compared by: the year column the question names, else
    the table's only column whose numbers all lie in 1000-2100."""
    years = [c for c in table.columns if c not in named and table.numeric.get(c)
             and 1000 <= table.ranges.get(c, (0, 0))[0] <= table.ranges[c][1] <= 2100]
    said = [c for c in years if mentions.get(c, (0.0,))[0] >= 0.5]
    if said:
        return said[0]
    return years[0] if len(years) == 1 else None


def _span_columns(table: Table) -> tuple[str, str] | None:
    lowered = {" ".join(tokens(c)): c for c in table.columns}
    for start, end in _SPAN_COLUMNS:
        if start in lowered and end in lowered:
            return lowered[start], lowered[end]
    return None


def computed_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps) of a computed plan."""
    steps: list[tuple[str, Call]] = []
    values = []
    for row in c.rows:
        value = row.value.replace("\n", " ")
        steps.append((f"Find the row whose {row.column} is {value}",
                      get_information(relation=row.column, tail_entity=value)))
        anchor = len(steps)
        for column in (c.column, c.end_column) if c.end_column else (c.column,):
            steps.append((f"Get the {column} of output_of_query{anchor}",
                          get_information(relation=column, head_entity=ref(anchor))))
            values.append(len(steps))
    a, b = values[0], values[1]
    if c.kind == "difference":
        steps.append((f"The difference between output_of_query{a} and output_of_query{b}",
                      call("difference", set1=ref(a), set2=ref(b))))
        return "number", steps
    if c.kind == "compare":
        steps.append((f"Check whether output_of_query{a} {c.op} output_of_query{b}",
                      call("compare", set1=ref(a), set2=ref(b), op=c.op)))
        return "yes or no", steps
    steps.append((f"The years from output_of_query{a} to output_of_query{b}",
                  call("duration", set1=ref(a), set2=ref(b))))
    return "duration", steps
