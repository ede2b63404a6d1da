"""The offline linker's computed questions: differences, yes/no comparisons, durations.

Cue phrases (data, below) say which reasoning function a table question needs; the rows come
from the cell values the linker found in the question, the column from the header it names.

* "how many more medals did Italy win than Japan?", "the difference in points between A and
  B" -> two rows of one column, the named numeric column of each, ``difference``;
* "did Italy win more medals than Japan?" -> the same values, ``compare(..., op='>')``;
* "how long did Ann serve?" -> one row, a start and an end column (``Took office`` /
  ``Left office``, ``From`` / ``To``, ``Opened`` / ``Closed``), ``duration``;
* "how long was it between the releases of A and B?" -> two rows of one column, the year column
  (the one named, else the table's only column of years), ``duration`` from one to the other;
* stop 19: "what was the difference in score in week 7?", "the point difference of the
  october 10th game" -> one row, its score (``24–21``, ``W 45–28``: the score column named, else
  the table's only column of scores), ``difference`` of the score's two numbers
  (``score_margin``);
* stop 19: "how long did it take jim chapin to finish?" -> one row, its time (the column
  named, else the table's only column of times: named *Time*, or holding clock times), read
  (``time_read``);
* stop 19: "how long was w.b. kingsmill club president?" -> one row whose cell is a span of
  years (``1920–1922``: the column named, else the table's only column of spans),
  ``duration`` of the span (``span_length``).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Nation,Gold\\nItaly,10\\nJapan,4\\n"])
>>> link_table("how many more gold medals did italy win than japan?", g).computed.kind
'difference'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..lexicon import pairs, word_set
from ..numbers import SCORE
from ..query.ast import Call
from ..query.build import call, get_information, ref
from ..reasoning.cues import (
    RANK_RELATION,
    SPEED_WORDS,
    TIME_RELATION,
    question_form,
    rank_direction,
)
from .cond_steps import condition_step
from .linking import Cond, Table, tokens

__all__ = ["Computed", "link_computed", "computed_steps", "column_kind", "year_column"]

_DIFFERENCE = re.compile(
    r"\bhow (?:many|much) (?:\w+ ){0,3}?(?:more|less|fewer|higher|lower|longer|shorter|bigger|"
    r"larger|smaller|greater|taller|older|younger)\b.*\bthan\b|\bdifference\b|\bhow far apart\b"
)
_YES_NO_MORE = re.compile(
    r"^(?:did|does|do|was|were|is|are|has|have|had)\b.*\b(more|less|fewer|higher|lower|longer|"
    r"shorter|bigger|larger|smaller|greater|taller)\b.*\bthan\b"
)
_HOW_LONG = re.compile(r"\bhow long\b|\bhow many years\b")
#: "how many years after / before / between": the years from one named row to the other
_HOW_MANY_YEARS = re.compile(r"\bhow many years (?:after|before|between|apart|later|earlier|"
                             r"passed|separate|were there)\b")
#: "how many places higher ... than": the difference of two columns of one row
_HOW_MANY_MORE = re.compile(
    r"\bhow (?:many|much) (?:\w+ ){0,3}?(?:more|less|fewer|higher|lower|longer|shorter|bigger|"
    r"larger|smaller|greater|faster|slower)\b")
#: one row's score asked as a difference ("the difference in score in week 7", "the point
#: difference", "the goal difference on ..."), not a difference between two rows
_MARGIN = re.compile(r"\b(?:score|point|points|goal|goals|run|runs)\s+difference\b|"
                     r"\bdifference\s+(?:in|of)\s+(?:the\s+)?(?:score|scores|points|goals|runs)\b")
#: "how long did it take X to finish?", "how long did X take to complete ...?"
_TOOK = re.compile(r"\bhow long did (?:it take\b|.*\btake\b)")
#: "how long was X coach / president / in office?", "how long was X's career?"
_HOW_LONG_WAS = re.compile(r"\bhow long (?:was|were|did)\b")
#: a span of years in one cell: 1920–1922, 1996–99, 1965–76
_YEAR_SPAN = re.compile(r"^\s*(1[5-9]\d\d|20\d\d)\s*[–—\-−]\s*(\d{2}|\d{4})\s*$")
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
    #: for ``column_choice``, the two answers as the question names them (``Run 1``)
    options: tuple[str, str] = ("", "")
    #: conditions every counted row meets besides its option (``count_choice``: *in 2013*)
    filters: tuple[Cond, ...] = ()
    #: for ``groups_of_size``: the number of rows a group is compared with (by ``op``)
    size: str = ""


def link_computed(question: str, conds: list[Cond], mentions: dict[str, tuple[float, int, int]],
                  table: Table) -> Computed | None:
    """The computed question ``question`` asks, or ``None`` (see the module doc)."""
    text = question.lower()
    equal = [c for c in conds if c.cmp == "=" and c.column != "row_number"]
    one_row = _one_row_reading(text, conds, equal, mentions, table)
    if one_row is not None:
        return one_row
    if _HOW_LONG.search(text) and len(equal) == 1:
        span = _span_columns(table)
        if span is not None:
            return Computed("duration", (equal[0],), span[0], span[1],
                            why=f"'how long': years from {span[0]!r} to {span[1]!r}")
    if _HOW_LONG.search(text) and len(equal) == 2 == len(conds) \
            and equal[0].column != equal[1].column:
        span = _span_columns(table)
        if span is not None and not {c.column for c in equal} & set(span):
            # "how long did bottka paul serve?": the row both conditions find
            return Computed("row_duration", tuple(equal), span[0], span[1],
                            why=f"'how long': years from {span[0]!r} to {span[1]!r} of the "
                                "row meeting both conditions")
    if len(equal) == 1 and len(conds) == 1 and _time_spent(tokens(question), equal[0]) \
            and equal[0].value in table.repeated.get(equal[0].column, frozenset()) \
            and (year := year_column(table, {equal[0].column}, mentions)) is not None:
        # "how long did james leach hold his seat?": his rows' earliest year to their latest
        return Computed("year_span", (equal[0],), year,
                        why=f"'how long' over the rows of {equal[0].value!r}: years from the "
                            f"earliest {year!r} to the latest")
    if len(equal) == 1 and len(conds) == 1 and (pair := _two_columns(
            question, mentions, table, {equal[0].column})) is not None:
        a, b, joint = pair
        if joint == "than" and _HOW_MANY_MORE.search(text):
            return Computed("difference", (equal[0],), a, b,
                            why=f"'how many more ... than': {a!r} and {b!r} of one row")
        if joint == "or":
            op = _column_choice_op(text, a, timed=column_kind(table, a) == "time")
            if op is not None:
                return Computed("column_choice", (equal[0],), a, b, op=op,
                                why=f"a choice between the columns {a!r} and {b!r} of one "
                                    f"row ({op!r} wins)",
                                options=(_as_said(question, mentions, a, left=True),
                                         _as_said(question, mentions, b, left=False)))
    if len(equal) != 2 or equal[0].column != equal[1].column:
        return None
    named = {c.column for c in equal}
    if (_HOW_MANY_YEARS.search(text) or "how long" in text) \
            and (year := year_column(table, named, mentions)) is not None:
        # "how many years after duck soup was tootsie released?": the years between the two
        return Computed("duration", tuple(sorted(equal, key=lambda c: c.span)), year,
                        why=f"'how long' between two rows: years from one {year!r} to the "
                            "other")
    numeric = [c for c, m in mentions.items() if c not in named and m[0] >= 0.5
               and column_kind(table, c)]
    cue = [i for i, w in enumerate(tokens(question)) if w == "difference"]
    if len(numeric) > 1 and cue:  # "the difference between the totals": not a Difference column
        numeric = [c for c in numeric if not mentions[c][1] <= cue[0] < mentions[c][2]] \
            or numeric
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


def _one_row_reading(text: str, conds: list[Cond], equal: list[Cond],
                     mentions: dict[str, tuple[float, int, int]], table: Table
                     ) -> Computed | None:
    """Stop 19: a question about one row (its conditions all equalities, on different
    columns) asking the margin of its score, the time it took, or the length of its span of
    years (module doc); ``None`` otherwise."""
    if not equal or len(equal) != len(conds) or len({c.column for c in equal}) != len(equal) \
            or any(c.part for c in equal):
        return None  # a word inside several cells ('january') is no one row
    used = {c.column for c in equal}
    if _MARGIN.search(text):
        column = _only_or_named(_columns_where(table, _is_score, used), mentions)
        if column is not None:
            return Computed("score_margin", tuple(equal), column,
                            why=f"the difference of one row's score: the two numbers of its "
                                f"{column!r}")
    if _TOOK.search(text):
        timed = [c for c in table.columns if c not in used
                 and (c in table.durations or TIME_RELATION.search(c))]
        column = _only_or_named(timed, mentions)
        if any(c not in used and c != column and m[0] >= 1.0 and column_kind(table, c)
               for c, m in mentions.items()):
            column = None  # "to complete run 2": the column the question names is read
        if column is not None:
            return Computed("time_read", tuple(equal), column,
                            why=f"'how long did it take': the {column!r} of the row")
    if _HOW_LONG_WAS.search(text) and len(equal) == 1:
        column = _only_or_named(_columns_where(table, _YEAR_SPAN.match, used), mentions)
        if column is not None:
            return Computed("span_length", tuple(equal), column,
                            why=f"'how long was': the years of the row's span in {column!r}")
    return None


def _is_score(text: str) -> bool:
    """A score of two numbers (``24–21``, ``W 45–28``), not a date or a span of years."""
    m = SCORE.match(text)
    return m is not None and not _YEAR_SPAN.match(text)


def _columns_where(table: Table, test: Callable[[str], object], used: set[str]) -> list[str]:
    """The columns (other than ``used``) most (≥ 60%) of whose distinct cells pass ``test``."""
    cells: dict[str, set[str]] = {}
    for found in table.cells.values():
        for column, label in found:
            cells.setdefault(column, set()).add(label)
    return [c for c in table.columns if c not in used and cells.get(c)
            and sum(bool(test(x)) for x in cells[c]) >= 0.6 * len(cells[c])]


def _only_or_named(columns: list[str], mentions: dict[str, tuple[float, int, int]]
                   ) -> str | None:
    """The one of ``columns`` the question names, else the only one, else ``None``."""
    named = [c for c in columns if mentions.get(c, (0.0,))[0] >= 0.5]
    if len(named) == 1:
        return named[0]
    return columns[0] if len(columns) == 1 and not named else None


def _two_columns(question: str, mentions: dict[str, tuple[float, int, int]], table: Table,
                 used: set[str]) -> tuple[str, str, str] | None:
    """Two columns of one kind named on either side of *than* or *or* ("rank in run 2 than
    in run 1", "run 1 or run 2"), and that word; a column named on one side is matched by its
    sibling on the other (``Run 2 rank`` ... *run 1* -> ``Run 1 rank``).

    >>> t = Table("t", ["Name", "Run 1", "Run 2"], {}, {}, 1, {}, frozenset({"Run 1", "Run 2"}))
    >>> q = "which run was faster for ann, run 1 or run 2?"
    >>> _two_columns(q, {"Run 1": (1.02, 6, 8), "Run 2": (1.02, 9, 11)}, t, {"Name"})
    ('Run 1', 'Run 2', 'or')
    """
    words = tokens(question)
    for joint in ("than", "or"):
        if joint not in words:
            continue
        at = len(words) - 1 - words[::-1].index(joint)
        kind = {c: k for c in mentions if c not in used and (k := column_kind(table, c))}
        left = [c for c in kind if mentions[c][2] <= at and mentions[c][0] >= 1.0]
        right = [c for c in kind if mentions[c][1] > at and mentions[c][0] >= 1.0]
        if not left or not right:
            continue
        a = max(left, key=lambda c: (mentions[c][0], mentions[c][2]))
        b = max(right, key=lambda c: (mentions[c][0], -mentions[c][1]))
        # the two options stand right around the word ("run 1 or run 2"; "in run 2 than
        # in run 1"), not anywhere in a question that happens to hold an "or"
        if mentions[a][2] < at - 2 or mentions[b][1] > at + 3 or (
                joint == "or" and (mentions[a][2] != at or mentions[b][1] != at + 1)):
            continue
        a, b = _sibling(table, b, a), _sibling(table, a, b)
        if a != b and kind.get(a) is not None and kind.get(a) == kind.get(b):
            return a, b, joint
    return None


def _as_said(question: str, mentions: dict[str, tuple[float, int, int]], column: str,
             left: bool) -> str:
    """The column the question's own words name exactly on the option's side of *or*
    (``run 1`` -> ``Run 1`` though ``Run 1 rank`` is read; the longest), else ``column``."""
    words = tokens(question)
    at = len(words) - 1 - words[::-1].index("or")
    said = [named for named, (_, start, end) in mentions.items()
            if tokens(named) == words[start:end] and set(tokens(named)) <= set(tokens(column))
            and (end <= at if left else start > at)]
    return max(said, key=lambda c: len(tokens(c))) if said else column


def column_kind(table: Table, column: str) -> str | None:
    """``number`` or ``time`` for a column two rows' values can be compared in, else None."""
    if table.numeric.get(column):
        return "number"
    return "time" if column in table.durations else None


def _sibling(table: Table, model: str, other: str) -> str:
    """The column shaped like ``model`` but with ``other``'s distinguishing word (``Run 2
    rank`` and ``Run 1`` -> ``Run 1 rank``); ``other`` itself when there is none."""
    shape, words = tokens(model), set(tokens(other))
    if len(tokens(other)) >= len(shape):
        return other
    for c in table.columns:
        mine = tokens(c)
        if len(mine) != len(shape) or c == model:
            continue
        diff = [i for i, (x, y) in enumerate(zip(mine, shape, strict=True)) if x != y]
        if len(diff) == 1 and mine[diff[0]] in words:
            return c
    return other


def _column_choice_op(text: str, a: str, timed: bool) -> str | None:
    """The comparison that makes the first of two columns win: over ranks *higher* / *better*
    is the smaller number; over times *faster* / *better* the smaller time; else the
    question's comparative (*better* is then no direction: over points it is the larger)."""
    if RANK_RELATION.search(a.split()[-1]) and (rank := rank_direction(text)) is not None:
        return rank[1]
    speed = next((SPEED_WORDS[w] for w in tokens(text) if w in SPEED_WORDS), None)
    return speed if timed and speed else question_form(text).direction


def year_column(table: Table, named: set[str],
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


def _one_row_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps) of a one-row reading: the row, its cell, the computation."""
    steps: list[tuple[str, Call]] = []
    for row in c.rows:
        value = row.value.replace("\n", " ")
        steps.append((f"Find the row whose {row.column} is {value}",
                      get_information(relation=row.column, tail_entity=value)))
    if len(c.rows) > 1:
        steps.append(("The rows meeting every condition",
                      call("set_intersection", **{f"set{i + 1}": ref(i + 1)
                                                  for i in range(len(c.rows))})))
    rows = len(steps)
    steps.append((f"Get the {c.column} of output_of_query{rows}",
                  get_information(relation=c.column, head_entity=ref(rows))))
    cell = len(steps)
    if c.kind == "score_margin":
        steps.append((f"The difference of the two numbers of output_of_query{cell}",
                      call("difference", set=ref(cell))))
        return "number", steps
    if c.kind == "span_length":
        steps.append((f"The years of the span output_of_query{cell}",
                      call("duration", set=ref(cell))))
        return "duration", steps
    return c.column, steps


#: the :class:`Computed` kinds of one row (stop 19)
ONE_ROW_KINDS = frozenset({"score_margin", "time_read", "span_length"})


def computed_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps) of a computed plan."""
    if c.kind in ONE_ROW_KINDS:
        return _one_row_steps(c)
    if c.kind == "row_duration":
        return _row_duration_steps(c)
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
    if c.kind == "year_span":
        years = values[0]
        steps += [("The earliest of them", call("min", set=ref(years))),
                  ("The latest of them", call("max", set=ref(years))),
                  ("The years from the earliest to the latest",
                   call("duration", set1=ref(years + 1), set2=ref(years + 2)))]
        return "duration", steps
    a, b = values[0], values[1]
    if c.kind == "difference":
        steps.append((f"The difference between output_of_query{a} and output_of_query{b}",
                      call("difference", set1=ref(a), set2=ref(b))))
        return "number", steps
    if c.kind == "compare":
        steps.append((f"Check whether output_of_query{a} {c.op} output_of_query{b}",
                      call("compare", set1=ref(a), set2=ref(b), op=c.op)))
        return "yes or no", steps
    if c.kind == "column_choice":
        steps.append((f"Check whether output_of_query{a} {c.op} output_of_query{b}",
                      call("compare", set1=ref(a), set2=ref(b), op=c.op)))
        first, second = (x or y for x, y in zip(c.options, (c.column, c.end_column),
                                                strict=True))
        steps.append((f"{first} if so, else {second}",
                      call("if_then_else", condition=ref(len(steps)), then=first,
                           **{"else": second})))
        return "column", steps
    steps.append((f"The years from output_of_query{a} to output_of_query{b}",
                  call("duration", set1=ref(a), set2=ref(b))))
    return "duration", steps


def _row_duration_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps) of ``row_duration``: the row meeting both conditions, its start
    and end, the years between them."""
    steps = [condition_step(row) for row in c.rows]
    steps.append(("Keep the rows found by both conditions",
                  call("set_intersection", set1=ref(1), set2=ref(2))))
    steps += [(f"Get the {c.column} of output_of_query3",
               get_information(relation=c.column, head_entity=ref(3))),
              (f"Get the {c.end_column} of output_of_query3",
               get_information(relation=c.end_column, head_entity=ref(3))),
              ("The years from output_of_query4 to output_of_query5",
               call("duration", set1=ref(4), set2=ref(5)))]
    return "duration", steps


def _time_spent(q: list[str], named: Cond) -> bool:
    """*How long did / has X ...*, *how long was X in office*: a time the named rows spent
    (not *how long was the race*, a distance).

    >>> c = Cond("Member", "=", "Ann Bo", (3, 5))
    >>> _time_spent("how long was ann bo in office".split(), c)
    True
    >>> _time_spent("how long was the race of ann bo".split(),
    ...             Cond("Member", "=", "Ann Bo", (6, 8)))
    False
    """
    at = next((i for i in range(1, len(q) - 1) if q[i - 1] == "how" and q[i] == "long"), None)
    if at is None:
        return False
    return q[at + 1] in ("did", "has", "have", "had") or (
        q[at + 1] in ("was", "were", "is", "are") and named.span[0] == at + 2)
