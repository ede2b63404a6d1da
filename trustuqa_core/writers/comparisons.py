"""Comparisons and computed readings of a table question, which replace the plain read.

:func:`rule_choice` answers a choice between two named rows (*who scored more points, A or
B?*: the row with the most ``Points``; *which finished higher?* over a column of ranks, the
least; *who was faster?* over a column of times, the least). The other rules hand the question
to the modules that compute an answer from the rows: differences, yes/no comparisons and
durations (:mod:`.computed`), a choice decided by counting rows (:mod:`.choices`), the month of
the most rows (:mod:`.frequency`) and streaks (:mod:`.streaks`).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.linking import read_table
>>> g = load_graph(tables=[b"Player,Points\\nLarry Johnson,645\\nCharlie Ward,320\\n"])
>>> s = LinkState.start("who scored more points, larry johnson or charlie ward?",
...                     read_table(g, 0))
>>> s.conds = [Cond("Player", "=", "Larry Johnson", (5, 7)),
...            Cond("Player", "=", "Charlie Ward", (8, 10))]
>>> rule_choice(s), s.select, s.agg, s.ranking
(True, 'Player', 'max', ('extreme', 'Points'))
"""

from __future__ import annotations

from collections import Counter

from ..lexicon import word_set
from ..reasoning.cues import RANK_RELATION, RANK_WORDS
from .asking import best_named, holds_years, time_column
from .choices import link_count_choice
from .computed import Computed, column_kind, link_computed
from .frequency import link_frequent_month
from .link_state import LinkState
from .linking import Cond, Mentions, Table
from .order import FIRST, LAST
from .streaks import link_streak

__all__ = ["rule_choice", "rule_computed", "rule_count_choice", "rule_frequent_month",
           "rule_streak"]


def rule_choice(s: LinkState) -> bool:
    """A choice between two named rows (X or Y) with a comparative: the row whose compared
    column is higher / lower; asked yes or no (*was X faster than Y?*, *did X rank higher
    than Y?*), a yes/no comparison of the two rows' times or ranks (:mod:`.computed`)."""
    if s.agg in ("count", "sum", "mean"):
        return False
    choice = _choice(s.q, s.mentions, [c for c in s.conds if not (c.negated or c.part)],
                     s.table)
    if not choice:
        return False
    if (asked := _yes_no_than(s, choice)) is not None:
        return s.take_computed(asked)
    s.select, s.agg, compared = choice
    s.ranking = ("extreme", compared)
    return True


def _yes_no_than(s: LinkState, choice: tuple[str, str, str]) -> Computed | None:
    """*was A faster than B?*: a question asked yes or no, whose two named rows stand on each
    side of *than*, compared by the time or rank column :func:`_choice` chose (faster,
    higher: the smaller value; ``compare`` of A's value with B's).

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.writers.linking import read_table, tokens
    >>> t = read_table(load_graph(tables=[b"Name,Total\\nAnn,2:20.54\\nBea,2:21.02\\n"]), 0)
    >>> s = LinkState.start("was bea slower than ann?", t)
    >>> s.conds = [Cond("Name", "=", "Bea", (1, 2)), Cond("Name", "=", "Ann", (4, 5))]
    >>> found = _yes_no_than(s, ("Name", "max", "Total"))
    >>> found.kind, found.column, found.op, [c.value for c in found.rows]
    ('compare', 'Total', '>', ['Bea', 'Ann'])
    """
    named, agg, compared = choice
    if not s.q or s.q[0] not in _YES_NO_START or "than" not in s.q or compared == "row_number" \
            or not (column_kind(s.table, compared) == "time" or RANK_RELATION.match(compared)):
        return None
    rows = sorted((c for c in s.conds if c.column == named and not (c.negated or c.part)),
                  key=lambda c: c.span)
    than = s.q.index("than")
    if len(rows) != 2 or not rows[0].span[1] <= than < rows[1].span[0]:
        return None
    op = "<" if agg == "min" else ">"
    return Computed("compare", (rows[0], rows[1]), compared, op=op,
                    why=f"a yes/no comparison of {compared!r} of two named rows "
                        f"({'smaller' if op == '<' else 'larger'} is the question's word)")


_YES_NO_START = frozenset({"did", "does", "do", "was", "were", "is", "are", "has", "have",
                           "had"})
_MORE = word_set("more_words")
_LESS = word_set("less_words")
_TIME_CHOICE = word_set("time_choice_words")


def _choice(q: list[str], mentions: Mentions, conds: list[Cond],
            table: Table) -> tuple[str, str, str] | None:
    """A choice between named rows: (column naming them, max|min, column compared).

    ``who scored more points, Larry Johnson or Charlie Ward?`` -> ("Player", "max", "Points");
    ``which album was released later, A or B?`` compares a year column (or the row order).
    """
    if any(c.cmp != "=" for c in conds):
        return None
    counts = Counter(c.column for c in conds)
    named = next((c for c, n in counts.items() if n >= 2), None)
    if named is None:
        return None
    words = set(q)
    compared = [c for c, m in mentions.items() if c not in counts and column_kind(table, c)
                and m[0] >= 0.5]
    best = best_named(compared, mentions) if compared else None
    by_rank = _rank_choice(q, table, set(counts), best)
    if by_rank is not None:
        return named, *by_rank
    by_time = _speed_choice(words, table, set(counts), mentions)
    if by_time is not None and (best is None or mentions.get(by_time[1], (0.0,))[0]
                                >= mentions[best][0]):
        return named, *by_time
    agg = "max" if words & _MORE else "min" if words & _LESS else ""
    order = "" if agg else "min" if FIRST in words else "max" if LAST in words else ""
    if not (agg or order):
        return None
    if best is not None and not order:
        return named, agg, best
    if order:  # "which came first, A or B?": by their year, else by the table's order
        agg = order
    if order or words & _TIME_CHOICE:
        years = [c for c in table.columns
                 if c not in counts and holds_years(table.ranges.get(c))]
        return named, agg, years[0] if years else "row_number"
    return None


_RANK_CHOICE = frozenset({"higher", "lower", "better", "worse", "above", "below", "ahead",
                          "behind"})
_SPEED = {**dict.fromkeys(("faster", "quicker", "fastest", "quickest"), "min"),
          **dict.fromkeys(("slower", "slowest"), "max")}


def _rank_choice(q: list[str], table: Table, used: set[str],
                 compared: str | None) -> tuple[str, str] | None:
    """(min|max, rank column) for "which finished higher, A or B?": over a rank column
    (``Rank``, ``Position``, ``Place``) the better row has the *smaller* number, so *higher*,
    *better*, *above*, *ahead* ask for the minimum. The rank column is the compared column the
    question names, else the table's one rank column of numbers.

    >>> from trustuqa_core.writers.linking import tokens
    >>> t = Table("t", ["Rank", "Nation"], {}, {"Rank": True}, 1, {})
    >>> _rank_choice(tokens("which ranked higher, italy or japan?"), t, {"Nation"}, "Rank")
    ('min', 'Rank')
    >>> _rank_choice(tokens("which won more, italy or japan?"), t, {"Nation"}, "Rank") is None
    True
    """
    word = next((w for w in q if w in _RANK_CHOICE), None)
    if word is None:
        return None
    if compared is None:
        ranks = [c for c in table.columns if c not in used and table.numeric.get(c)
                 and RANK_RELATION.match(c)]
        if len(ranks) != 1:
            return None
        compared = ranks[0]
    if not RANK_RELATION.match(compared):
        return None
    return ("min" if RANK_WORDS[word] == "<" else "max"), compared


def _speed_choice(words: set[str], table: Table, used: set[str],
                  mentions: Mentions) -> tuple[str, str] | None:
    """(min|max, time column) for "who was faster, A or B?": the faster row has the smaller
    time. The time column is one of clock times / durations: the one the question names, else
    one called *Total* or *Time*, else the table's only one.

    >>> t = Table("t", ["Name", "Run 1", "Total"], {}, {}, 1, {}, frozenset({"Run 1", "Total"}))
    >>> _speed_choice({"who", "was", "faster"}, t, {"Name"}, {})
    ('min', 'Total')
    """
    word = next((w for w in words if w in _SPEED), None)
    if word is None:
        return None
    column = time_column(table, used, mentions)
    return (_SPEED[word], column) if column is not None else None


def rule_computed(s: LinkState) -> bool:
    """A difference, a yes/no comparison or a duration of named rows replaces the plain read
    (:mod:`.computed`)."""
    if any(c.negated for c in s.conds):
        return False  # "how many more ... besides X": not the difference of two named rows
    return s.take_computed(link_computed(s.question, s.conds, s.mentions, s.table))


def rule_count_choice(s: LinkState) -> bool:
    """Two values of one column offered with *or* and *more* / *fewer* but no column to
    compare (*are there more players from Sweden or Canada?*): the option filling more (fewer)
    rows, counted (:mod:`.choices`)."""
    if s.computed is not None or s.ranking is not None or s.neighbour:
        return False
    # (no ranking and no neighbour row here: what take_computed clears of them is unset)
    return s.take_computed(link_count_choice(s.q, s.conds, s.mentions, s.table))


def rule_frequent_month(s: LinkState) -> bool:
    """*Which month had the most games?* with no column of months: the month of the date
    column found in the most rows (:mod:`.frequency`)."""
    if s.computed is not None:
        return False
    return s.take_computed(link_frequent_month(s.q, s.conds, s.table))


def rule_streak(s: LinkState) -> bool:
    """*How many consecutive games ...*, *the longest winning streak*: the longest run of
    rows next to each other, or of wins / losses in a column of results (:mod:`.streaks`)."""
    return s.take_computed(link_streak(s.question, s.q, s.conds, s.table))
