"""Aggregates of a table question: the cue (*how many*, *average*, *highest*), counts that
read a column, yes/no existence, and the summary row left out.

:func:`rule_aggregate` takes the first aggregate cue (``lexicon.txt``'s *aggregate_cues*)
outside the conditions; :func:`rule_count_reads_column` reads *how many runs did X score?*
from the column *Runs* rather than counting rows; :func:`rule_summary_row` leaves a *Total*
row out of aggregates and rankings; :func:`rule_exists` answers a yes/no question whose
conditions are the whole claim.

>>> from trustuqa_core.writers.linking import tokens
>>> _aggregate(tokens("what is the highest number of points?"))
'max'
>>> _aggregate(tokens("how many teams had the highest score?"))
'count'
"""

from __future__ import annotations

from ..lexicon import pairs
from .asking import focus_at, holds_years
from .link_state import LinkState
from .linking import Cond, Table, tokens

__all__ = ["AGG_CUES", "AGG_WORDS", "bound_word", "numbers_rows", "rule_aggregate",
           "rule_count_reads_column", "rule_summary_row", "rule_exists"]

#: (cue, aggregate) pairs, in the order ``lexicon.txt`` lists them
AGG_CUES = pairs("aggregate_cues")
#: every word of an aggregate cue
AGG_WORDS = frozenset(w for cue, _ in AGG_CUES for w in cue.split())


def rule_aggregate(s: LinkState) -> bool:
    """The first aggregate cue not inside a condition or a column name (how many, highest);
    *at least* / *at most* bound a number (*at least 100 people*, *at least twice*), they
    ask for no least or most."""
    s.agg = _aggregate([t if i not in s.covered and not bound_word(s.q, i) else "_"
                        for i, t in enumerate(s.q)])
    return bool(s.agg)


def _aggregate(q: list[str]) -> str:
    """The aggregate of the first cue in the question (``the highest number of`` -> max,
    ``how many ... highest`` -> count); at one position the longer cue wins."""
    text = " " + " ".join(q) + " "
    found = [(text.find(f" {cue} "), -len(cue), agg) for cue, agg in AGG_CUES
             if f" {cue} " in text]
    return min(found)[2] if found else ""


def bound_word(q: list[str], i: int) -> bool:
    """*least* / *most* in *at least* / *at most*.

    >>> bound_word(tokens("which nations won at least 6 medals?"), 4)
    True
    """
    return q[i] in ("least", "most") and i > 0 and q[i - 1] == "at"


def rule_count_reads_column(s: LinkState) -> bool:
    """A count of a numeric column named where the counted noun stands (*how many runs did
    X score?*, *what is the number of silver medals of X?*, *the total number of seats at
    X?*), with equality conditions only, reads the number from that column instead of
    counting rows; two values of one column named with *and* (*X and Y*) add up. Not over a
    column that numbers the rows (*Game*, *No.*, *Rank*, years): *the number of games in May*
    counts."""
    select = s.select
    if (s.agg == "count" and select is not None and s.table.numeric.get(select) and s.conds
            and not holds_years(s.table.ranges.get(select)) and not numbers_rows(select)
            and all(c.cmp == "=" and c.column != "row_number" and not c.negated
                    for c in s.conds)
            and select in s.mentions and s.mentions[select][1] in _counted_at(s.q)):
        s.agg = "sum" if _joined_by_and(s.q, s.conds) else ""
        return True
    return False


def _joined_by_and(q: list[str], conds: list[Cond]) -> bool:
    """Two values of one column named with *and* between them (*Argentina and Chile*: their
    numbers add up); with *or* each is asked for (*how many points did A or B score?*).

    >>> c = [Cond("Nation", "=", "Peru", (4, 5)), Cond("Nation", "=", "Chile", (6, 7))]
    >>> _joined_by_and(tokens("how many medals did peru and chile win?"), c)
    True
    >>> _joined_by_and(tokens("how many medals did peru or chile win?"), c)
    False
    """
    for a in conds:
        for b in conds:
            if a.column == b.column and a.span[1] <= b.span[0]:
                between = set(q[a.span[1]:b.span[0]])
                if "and" in between and "or" not in between:
                    return True
    return False


_COUNT_NOUNS = frozenset({"number", "amount", "total", "count"})
_COUNT_FILLERS = frozenset({"the", "total", "combined", "overall"})


def _counted_at(q: list[str]) -> set[int]:
    """Positions of the counted noun: where the question word points (*how many runs*), and
    after *number of* / *amount of* / *total* (the fillers *the*, *total* skipped).

    >>> sorted(_counted_at(tokens("what is the total number of silver medals of chile?")))
    [3, 6]
    >>> sorted(_counted_at(tokens("how many runs did ted score?")))
    [2]
    """
    found = {focus_at(q)}
    for i, w in enumerate(q):
        if w not in _COUNT_NOUNS:
            continue
        j = i + 1
        if w != "total":
            if j >= len(q) or q[j] != "of":
                continue
            j += 1
        while j < len(q) and q[j] in _COUNT_FILLERS | {"number", "of"}:
            j += 1
        found.add(j)
    return found


def numbers_rows(column: str) -> bool:
    """A column whose numbers name the rows rather than measure them: its name is made of
    such words only (*No.*, *#*, *Game*, *Week*, *Pick*, *Rank*, *Pos.*; not *No. of
    employees*, *Weeks* nor *Second place(s)*).

    >>> numbers_rows("Pos."), numbers_rows("Second place(s)"), numbers_rows("#")
    (True, False, True)
    """
    return set(tokens(column)) <= _ROW_NUMBERING  # "#" has no word: numbers the rows


_ROW_NUMBERING = frozenset({"number", "no", "game", "week", "pick", "episode", "ep", "season",
                            "year", "seed", "heat", "lane", "id", "match", "race", "stage",
                            "order", "overall", "rank", "ranking", "pos", "position", "place",
                            "s"})


def rule_summary_row(s: LinkState) -> bool:
    """An aggregate or a ranking leaves out a summary row (Total) the question does not name."""
    s.exclude = _summary_row(s.table, s.conds) if (s.agg or s.ranking) else None
    return s.exclude is not None


def _summary_row(table: Table, conds: list[Cond]) -> tuple[str, str] | None:
    """A "Total" row of the table (not one the question itself asks about)."""
    asked = {c.value for c in conds}
    for key in (("total",), ("totals",)):
        for column, label in table.cells.get(key, []):
            if label not in asked:
                return column, label
    return None


def _asks_any(q: list[str]) -> bool:
    """*did any clubs ...?*, *were there any ...?*: whether some row exists, even when the
    question names the rows' column (*clubs*).

    >>> _asks_any(tokens("did any clubs have no losses?")), _asks_any(tokens("did ann win?"))
    (True, False)
    """
    return q[1:2] == ["any"] or q[1:3] == ["there", "any"]


_YES_NO_START = frozenset({"did", "does", "do", "was", "were", "is", "are", "has", "have",
                           "had"})


def rule_exists(s: LinkState) -> bool:
    """A yes/no question whose conditions are the whole claim ("did an austrian finish in the
    top five?", "was Tina Maze from Slovenia?"): is there a row meeting them all? Not when it
    also names a column to read (unless it asks *did any ...*), aggregates or ranks (a computed
    comparison comes next)."""
    if not s.q or s.q[0] not in _YES_NO_START or not s.conds or s.agg or s.ranking \
            or s.neighbour:
        return False
    used = {c.column for c in s.conds}
    if not _asks_any(s.q) and any(c not in used and m[0] >= 1.0 for c, m in s.mentions.items()):
        return False  # "was Ann's total more than ..." reads a column: not a plain existence
    s.agg = "exists"
    return True
