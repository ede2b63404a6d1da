"""Superlatives of a table question: which column is ranked, in which direction, and whether
the question asks for the extreme value or for the row holding it.

:func:`rule_relative_superlative` reads *fastest*, *oldest*, *best* by the column (the fastest
time is the least, the fastest speed the most); :func:`rule_ranking` turns *which nation won
the most silver medals?* into the rows with the most ``Silver`` (or *which nation has the
most athletes?* into the most frequent ``Nation``); :func:`rule_row_of_extreme` reads *who had
the lowest total?* in the column naming the rows (:func:`name_column`).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.linking import read_table
>>> g = load_graph(tables=[b"Nation,Silver\\nItaly,3\\nJapan,5\\n"])
>>> s = LinkState.start("which nation won the most silver medals?", read_table(g, 0))
>>> s.select, s.agg = "Nation", "max"
>>> rule_ranking(s), s.ranking
(True, ('extreme', 'Silver'))
"""

from __future__ import annotations

from ..lexicon import word_set
from .aggregates import AGG_CUES, AGG_WORDS, bound_word
from .asking import WH_HINTS, asks_for, best_named, focus_at, hinted, holds_years, rank_like
from .computed import column_kind, year_column
from .link_state import LinkState
from .linking import STOP, Cond, Mentions, Table, tokens

__all__ = ["rule_relative_superlative", "rule_row_of_extreme", "rule_ranking", "asks_row",
           "name_column"]


def rule_relative_superlative(s: LinkState) -> bool:
    """*fastest* / *slowest*, *oldest* / *newest* / *youngest* and *best* / *worst* / *top*
    name a direction that depends on the column: over clock times the fastest is the smallest,
    over a speed the largest; over years the oldest is the earliest, over ages the largest;
    over times and ranks the best is the smallest (over other numbers *best* is left alone)."""
    if s.computed is not None:
        return False
    cue = next((w for i, w in enumerate(s.q) if w in _RELATIVE and i not in s.covered), None)
    if cue is None or s.agg and (cue != "top" or s.agg != "max"):
        return False  # "top" is also an aggregate cue (max): over times and ranks, the least
    used = {c.column for c in s.conds}
    ordered = [c for c, m in s.mentions.items() if c not in used and m[0] >= 0.5
               and column_kind(s.table, c)]
    column = s.select if s.select is not None and column_kind(s.table, s.select) and (
        s.select in s.mentions or s.select in s.table.durations) else None
    if column is None and ordered:  # "which driver had the fastest speed?"
        column = best_named(ordered, s.mentions)
    if cue in _AGE and column is not None and rank_like(column):
        # "the oldest film in the ranking": an age is read from years or ages, not ranks
        column = year_column(s.table, used, {}) or _age_column(s.table, used) or column
    if column is None and cue in _AGE:  # "which film is the oldest?", "who is the oldest?"
        column = year_column(s.table, used, {}) or _age_column(s.table, used)
    if column is None:
        return False
    if cue in _QUALITY and not (column in s.table.durations or rank_like(column)):
        return False  # the best points are the most, the best time the least: unknown here
    by_time = column in s.table.durations or holds_years(s.table.ranges.get(column)) \
        or rank_like(column)
    s.agg = _RELATIVE[cue] if by_time else ("max" if _RELATIVE[cue] == "min" else "min")
    if column != s.select:
        s.ranking = ("extreme", column)
    return True


#: superlatives whose direction is by time or place (flipped over plain numbers such as
#: speeds and ages); *best* / *worst* / *top* only over times and ranks
_RELATIVE = {"fastest": "min", "quickest": "min", "slowest": "max", "oldest": "min",
             "newest": "max", "youngest": "max", "best": "min", "worst": "max", "top": "min"}
_AGE = frozenset({"oldest", "newest", "youngest"})
_QUALITY = frozenset({"best", "worst", "top"})


def _age_column(table: Table, used: set[str]) -> str | None:
    """The table's one numeric column called *Age*."""
    ages = [c for c in table.columns if c not in used and table.numeric.get(c)
            and "age" in tokens(c)]
    return ages[0] if len(ages) == 1 else None


def rule_row_of_extreme(s: LinkState) -> bool:
    """"who had the lowest total?", "which skier had the fastest first run?": the question
    asks for a row (*who*, or *which* / *what* with a word that names no column), and the
    superlative's column is the one it names: the rows holding the extreme, read in the
    column naming them (a column of people for *who*, else the first column of text)."""
    sel = s.select
    if s.ranking is not None or s.agg not in ("max", "min") or sel is None \
            or s.computed is not None or not column_kind(s.table, sel) \
            or s.mentions.get(sel, (0.0,))[0] < 0.5 and sel not in s.table.durations:
        return False
    if not asks_row(s.q, s.mentions, s.covered):
        return False
    name = name_column(s, sel)
    if name is None:
        return False
    s.ranking, s.select = ("extreme", sel), name
    return True


def name_column(s: LinkState, ranked: str) -> str | None:
    """The column naming the rows a question asks for: a column of people for *who*, else
    the first column of text no condition uses (not ``ranked``)."""
    used = {c.column for c in s.conds} | {ranked}
    text = [c for c in s.table.columns if c not in used and not s.table.numeric.get(c)
            and c not in s.table.durations]
    people = [c for c in text if hinted(c, WH_HINTS["who"])] if s.q[0] == "who" else []
    return (people or text)[0] if people or text else None


def asks_row(q: list[str], mentions: Mentions, covered: set[int]) -> bool:
    """*who ...*, or *which* / *what* followed by a word no column name or condition uses
    (*which skier*; not *what was Ann Lee's earliest round*)."""
    if not q:
        return False
    if q[0] == "who":
        return True
    focus = focus_at(q)
    if 0 <= focus < len(q) - 1 and q[focus] in _SUPERLATIVES and q[focus - 1] == "the" \
            and q[focus + 1] not in _SUPERLATIVE_FILLERS | _VALUE_NOUNS \
            and (q[0] == "which" or focus + 2 == len(q)):
        # "which is the longest song?", "what is the longest song?": the noun after the
        # superlative (not "what is the least value for week?" nor a longer "what" question)
        focus += 1
    if q[0] == "which" and 0 <= focus < len(q) and focus in covered \
            and not any(start <= focus < end for _, start, end in mentions.values()):
        focus = _noun_after_condition(q, focus, covered)  # a condition's value, no column
    if q[0] not in ("which", "what") or not 0 <= focus < len(q) or focus in covered \
            or q[focus] in _PRONOUNS:  # "what was her lowest score?" asks her score
        return False
    return not any(start <= focus < end for _, start, end in mentions.values()) \
        and q[focus] not in AGG_WORDS and q[focus] not in _RELATIVE


def _noun_after_condition(q: list[str], focus: int, covered: set[int]) -> int:
    """*which italian skier*: the question word's focus is a condition (*italian*, read as
    ``Nation = Italy``); the word right after it, when no stop word, is what is asked for.

    >>> q = tokens("which italian skier had the best total?")
    >>> _noun_after_condition(q, 1, {1}), _noun_after_condition(q, 1, {1, 2})
    (2, 1)
    >>> _noun_after_condition(tokens("which italy had the best total?"), 1, {1})
    1
    """
    after = focus
    while after in covered:
        after += 1
    if after < len(q) and q[after].isalpha() and q[after] not in STOP:
        return after
    return focus


_PRONOUNS = frozenset({"her", "his", "their", "its", "my", "our", "your", "the"})
#: nouns after a superlative that ask for a value, not a row (*the least value for week*)
_VALUE_NOUNS = frozenset({"value", "values", "entry", "number", "amount", "figure", "year",
                          "years", "date", "score", "total", "current", "recent"})


def rule_ranking(s: LinkState) -> bool:
    """A highest / lowest question asking which row: the extreme of another named numeric
    column, or the most / least frequent value of the asked column."""
    if s.ranking is not None:
        return False
    s.ranking = _ranking(s.q, s.mentions, s.conds, s.table, s.select, s.agg)
    return s.ranking is not None


def _ranking(q: list[str], mentions: Mentions, conds: list[Cond],
             table: Table, select: str | None, agg: str) -> tuple[str, str] | None:
    """Does the question ask *which row* ranks first rather than for the extreme value?

    ``which nation won the most silver medals`` -> ("extreme", "Silver"): the asked-for column
    (Nation) is named where the question word points, and another, numeric, column is named.
    ``which nation has the most athletes`` (no such column) -> ("frequent", "Nation").
    """
    if agg not in ("max", "min") or select is None:
        return None
    if not asks_for(q, select, mentions, who_needs_people=False):
        return None
    cond_cols = {c.column for c in conds}
    at = mentions.get(select)
    after = _after_superlative(q)
    compared = [c for c, m in mentions.items() if c != select and c not in cond_cols
                and column_kind(table, c) and (m[0] >= 0.5 or m[1] in after)
                and (at is None or m[2] <= at[1] or m[1] >= at[2])]  # not inside its name
    if compared:
        return "extreme", best_named(compared, mentions)
    if _FREQUENCY_WORDS & set(q) and (not table.numeric.get(select) or (
            table.repeated.get(select) and at is not None and at[1] == focus_at(q))):
        return "frequent", select  # "which year had the most films?": years repeat
    return None


_FREQUENCY_WORDS = word_set("frequency_words")
#: one-word superlatives (*most*, *highest*, *least*...)
_SUPERLATIVES = frozenset(cue for cue, agg in AGG_CUES if agg in ("max", "min")
                          and " " not in cue)
_SUPERLATIVE_FILLERS = frozenset({"the", "number", "of", "amount", "total"})


def _after_superlative(q: list[str]) -> set[int]:
    """Positions of the word a superlative is about (*the least density* -> *density*), even
    when it names a column only partly (``Density (/km²)``; *at least* is no superlative).

    >>> sorted(_after_superlative(tokens("which city has the least amount of density?")))
    [7]
    """
    out = set()
    for i, w in enumerate(q):
        if w in _SUPERLATIVES and not bound_word(q, i):
            j = i + 1
            while j < len(q) and q[j] in _SUPERLATIVE_FILLERS:
                j += 1
            out.add(j)
    return out
