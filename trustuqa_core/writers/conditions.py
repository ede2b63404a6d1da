"""Conditions from what a table question names: cells, comparisons, decades, negations.

:func:`rule_conditions` turns comparisons (``more than 12 wins`` -> ``Wins > 12``), decades
(*in the 1970s* -> ``Year >= 1970``, ``Year <= 1979``), cell values and ``top N`` into
conditions without overlaps; :func:`rule_negation` negates the ones after *not*, *other
than*, *besides*...; :func:`rule_place_bounds` reads *5th or better* on a column of places
(:mod:`.places`) and :func:`rule_property_words` adds the columns named by what they measure
(:mod:`.properties`). The words a question leaves over may still name parts of cells
(:mod:`.partial_values`).

>>> from trustuqa_core.writers.linking import Table
>>> t = Table("t", ["Team", "Wins"], {("iowa",): [("Team", "Iowa")]},
...           {"Team": False, "Wins": True}, 1, {"Wins": (0.0, 14.0)})
>>> s = LinkState.start("which teams other than iowa had more than 12 wins?", t)
>>> rule_conditions(s), rule_negation(s)
(True, True)
>>> [(c.column, c.cmp, c.value, c.negated) for c in s.conds]
[('Wins', '>', '12', False), ('Team', '=', 'Iowa', True)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..lexicon import words
from .link_state import LinkState
from .linking import (
    Cond,
    Mentions,
    Table,
    comparison_column,
    comparison_fallback,
    find_comparisons,
    find_top_n,
    find_values,
    is_clock,
    spans,
)
from .places import place_bounds
from .properties import property_mentions

__all__ = ["rule_conditions", "rule_property_words", "rule_negation", "rule_place_bounds",
           "cue_before"]


def rule_conditions(s: LinkState) -> bool:
    """Cell values, comparisons (more than 12) and top N in the question become conditions."""
    s.conds = _conditions(s.q, s.question, s.table, s.mentions)
    s.covered = spans(s.conds)
    s.covered |= s.named(1.0)
    return bool(s.conds)


def _conditions(q: list[str], question: str, table: Table, mentions: Mentions) -> list[Cond]:
    """Comparisons (``more than 12 wins``), cell values, and ``top N``, without overlaps."""
    conds: list[Cond] = []
    for cmp, number, pos, cue in find_comparisons(q, question):
        clock = is_clock(q[pos])  # "faster than 2:21": a column of times
        col = comparison_column(pos, cue, mentions, table, number, clock=clock)
        if col is None and not clock:
            col = comparison_fallback(number, " ".join(q[cue:pos]), table, mentions)
        if col is not None:
            conds.append(Cond(col, cmp, q[pos], (pos, pos + 1)))
    taken = spans(conds)
    conds += [c for c in _decades(q, table, mentions) if c.span[0] not in taken]
    conds += find_values(q, table, spans(conds), mentions)
    top = find_top_n(q)  # unless the words are themselves a cell value (an episode title)
    if top is not None:
        # *the top 3 skiers*: the number alone read as a cell (``Bib = 3``) is the bound's
        conds = [c for c in conds if c.span != (top.span[1] - 1, top.span[1]) or c.cmp != "="]
        if not spans(conds) & set(range(*top.span)):
            conds.append(top)
    return conds


def _decades(q: list[str], table: Table, mentions: Mentions) -> list[Cond]:
    """"in the 1970s" -> the year column from 1970 to 1979 (two inclusive conditions; "the
    1800s" from 1800 to 1899): the numeric column named just before, else the table's year
    column.

    >>> from trustuqa_core.writers.linking import tokens
    >>> t = Table("t", ["Film", "Year"], {}, {"Film": False, "Year": True}, 1,
    ...           {"Year": (1933.0, 1982.0)})
    >>> [(c.column, c.cmp, c.value) for c in _decades(tokens("films of the 1970s"), t, {})]
    [('Year', '>=', '1970'), ('Year', '<=', '1979')]
    >>> [(c.cmp, c.value) for c in _decades(tokens("films made before the 1970s"), t, {})]
    [('<', '1970')]
    >>> [(c.cmp, c.value) for c in _decades(tokens("films made after the 1970s"), t, {})]
    [('>', '1979')]
    """
    out: list[Cond] = []
    for i in range(len(q) - 1):
        w = q[i]
        if q[i + 1] != "s" or len(w) != 4 or not w.isdigit() or w[3] != "0":
            continue
        start = int(w)
        span = 99 if w.endswith("00") else 9  # "the 1800s" is the century
        col = comparison_column(i, i, mentions, table, start) or comparison_fallback(
            start, "since", table, mentions)
        if col is None:
            continue
        cue = cue_before(q, i, _DECADE_CUES, 4)
        if cue == "since":  # "since the 1970s": from its start on
            out.append(Cond(col, ">=", w, (i, i + 2)))
        elif cue in _LATER:  # "after the 1970s": past its end
            out.append(Cond(col, ">", str(start + span), (i, i + 2)))
        elif cue:  # "before the 1970s": ahead of its start
            out.append(Cond(col, "<", w, (i, i + 2)))
        else:
            out += [Cond(col, ">=", w, (i, i + 1)),
                    Cond(col, "<=", str(start + span), (i + 1, i + 2))]
    return out


_LATER = words("greater_cues")
#: comparison cues before a decade, longest first ("later than the 1970s", "before the 1800s")
_DECADE_CUES = sorted(set(_LATER) | set(words("less_cues")), key=lambda c: -len(c))


def cue_before(q: list[str], i: int, cues: Sequence[str], window: int) -> str:
    """The first of ``cues`` that ends right before position ``i`` (within ``window`` words,
    *the* left out), else "".

    >>> from trustuqa_core.writers.linking import tokens
    >>> cue_before(tokens("films made before the 1970s"), 4, ["after", "before"], 4)
    'before'
    >>> cue_before(tokens("films of the 1970s"), 3, ["after", "before"], 4)
    ''
    """
    before = " " + " ".join(w for w in q[max(0, i - window):i] if w != "the")
    return next((c for c in cues if before.endswith(" " + c)), "")


def rule_property_words(s: LinkState) -> bool:
    """Words naming a column by what it measures (*the shortest song* -> ``Length``, *the
    most residents* -> ``Population``) mention it partly (:mod:`.properties`); added after the
    conditions, so they steer what is ranked or compared, not which column a number bounds."""
    found = property_mentions(s.q, s.table, s.mentions)
    s.mentions = {**s.mentions, **found}
    return bool(found)


def rule_negation(s: LinkState) -> bool:
    """A condition right after *not*, *other than*, *besides*, *except*, *excluding*,
    *aside from* / *apart from* (at most three words between: *not from the United
    Kingdom*, *did not have a top ten*) is negated: the rows that do not meet it."""
    cues = _negation_cues(s.q, s.covered)
    if not cues:
        return False
    changed = False
    for end in cues:
        after = [c for c in s.conds if not c.negated and end <= c.span[0] <= end + 3]
        if not after:
            continue
        first = min(after, key=lambda c: c.span[0])
        between = set(range(end, first.span[0]))
        if any(between & set(range(*c.span)) for c in s.conds):
            continue
        group = [first]  # "besides Wimbledon and the US Open": both left out
        for c in sorted(s.conds, key=lambda c: c.span[0]):
            gap = s.q[group[-1].span[1]:c.span[0]]
            if c.span[0] >= group[-1].span[1] and c.column == first.column and not c.negated \
                    and gap and set(gap) <= _LIST_JOINERS:
                group.append(c)
        s.conds = [replace(c, negated=True) if c in group else c for c in s.conds]
        changed = True
    return changed


_LIST_JOINERS = frozenset({"and", "or", "nor", "the", "a", "an"})
#: words saying the rows meeting what follows are left out
_NEGATION_CUES = (("other", "than"), ("aside", "from"), ("apart", "from"), ("not",),
                  ("besides",), ("except",), ("excluding",), ("excepting",))
_CONTRACTED = frozenset({"didn", "doesn", "don", "wasn", "weren", "isn", "aren", "hasn",
                         "haven", "hadn", "won", "couldn", "wouldn"})


def _negation_cues(q: list[str], covered: set[int]) -> list[int]:
    """The positions right after each negation cue not inside a condition (``didn't`` is
    tokenized ``didn``, ``t``).

    >>> from trustuqa_core.writers.linking import tokens
    >>> _negation_cues(tokens("how many athletes were from a country other than cyprus?"), set())
    [9]
    >>> _negation_cues(tokens("which team didn't win?"), set())
    [4]
    """
    out = []
    for i in range(len(q)):
        if i in covered:
            continue
        if q[i] == "t" and i and q[i - 1] in _CONTRACTED:
            out.append(i + 1)
            continue
        for cue in _NEGATION_CUES:
            if tuple(q[i:i + len(cue)]) == cue and not covered & set(range(i, i + len(cue))):
                out.append(i + len(cue))
                break
    return out


def rule_place_bounds(s: LinkState) -> bool:
    """*5th or better*, *at least 12th*, *below 10th*, *the top 10* bound a column of places
    (``Position <= 5``), not one place or the first rows (:mod:`.places`)."""
    found = place_bounds(s.q, s.conds, s.table)
    if found is None:
        return False
    s.conds = found
    s.covered |= spans(found)
    return True
