"""Row-order readings of the offline linker: *first* / *last* / *top*, the next or previous row.

A free-standing *first* or *last* with nothing else to rank by is the table's row order
(:func:`rule_row_order`; by the column of years when the question dates the rows: *the first
film released*). *Who is at the top of the list?*, *which constituency is listed on top?*,
*who was the top finisher from Poland?*: *top* with nothing to rank by (no number or time
column named, and the column asked for is text, whose largest value means nothing) is the
table's first row among the rows the question names, as *first* is. *The next single after X*
and *the album listed before X* are the row after / before the one named
(:func:`rule_neighbour`).

>>> from trustuqa_core.writers.linking import tokens
>>> top_is_first_row(tokens("who is at the top of the list?"), set())
True
>>> top_is_first_row(tokens("who were the top ten?"), set())
False
"""

from __future__ import annotations

import re

from ..lexicon import word_set, words
from ..numbers import ordinal_text, parse_number
from .asking import asks_for, focus_at, holds_years, rank_like
from .computed import column_kind, year_column
from .link_state import LinkState
from .linking import Cond, Table, number_words, tokens
from .places import numbers_ranking, place_columns
from .superlatives import asks_row, name_column

__all__ = ["top_is_first_row", "ordinal_column", "rule_row_order", "rule_neighbour", "FIRST",
           "LAST", "rule_finished_place"]

#: words after *top* that make it a bound or a name rather than the first row
_NOT_AFTER_TOP = frozenset({"speed", "ten", "three", "five", "scorer", "scorers", "half",
                            "level", "division", "flight", "tier", "seed", "seeds", "number",
                            "amount", "total"})
#: superlatives that rank by a value (then *top* is not the row order)
_OTHER_SUPERLATIVES = frozenset({"most", "least", "highest", "lowest", "largest", "smallest",
                                 "greatest", "fewest", "longest", "shortest", "best", "worst",
                                 "fastest", "slowest", "biggest", "oldest", "youngest"})


def top_is_first_row(q: list[str], covered: set[int]) -> bool:
    """*top* stands free (not inside a value or a column name, not *top ten*, *top speed*)
    and no other superlative ranks by a value."""
    if _OTHER_SUPERLATIVES & set(q):
        return False
    for i, word in enumerate(q):
        if word != "top" or i in covered:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        return not (nxt.isdigit() or nxt in number_words() or nxt in _NOT_AFTER_TOP)
    return False


_ORDINAL = re.compile(r"^\s*(?:t-?)?\d+\s*(?:st|nd|rd|th)\b", re.IGNORECASE)


def ordinal_column(table: Table, column: str) -> bool:
    """Most of the column's cells are places (``5th``, ``1st``, ``T-3rd``): its *top* is the
    least place, not the first row.

    >>> t = Table("t", ["Year", "Position"], {("5th",): [("Position", "5th")],
    ...           ("10th",): [("Position", "10th")], ("1995",): [("Year", "1995")]}, {}, 1, {})
    >>> ordinal_column(t, "Position"), ordinal_column(t, "Year")
    (True, False)
    """
    labels = [label for options in table.cells.values() for c, label in options if c == column]
    return bool(labels) and sum(bool(_ORDINAL.match(x)) for x in labels) >= 0.5 * len(labels)


def rule_row_order(s: LinkState) -> bool:
    """A free-standing first / last with nothing else to rank by: the table's row order (by the
    column of years the question reads when it asks for a row: *what was the first game
    released?*); so is *top* (*who is at the top of the list?*) when the column asked for is
    text (:func:`top_is_first_row`)."""
    if s.ranking is not None or s.neighbour or s.select is None:
        return False
    named = s.named(0.5)
    if s.agg == "max" and not column_kind(s.table, s.select) and not rank_like(s.select) \
            and not ordinal_column(s.table, s.select) and top_is_first_row(s.q, s.covered | named):
        s.agg, s.ranking = "min", ("extreme", "row_number")
        return True
    if s.agg:
        return False
    order = _order_word(s.q, s.covered)
    if not order:
        return False
    s.agg, s.ranking = order, ("extreme", "row_number")
    if _by_place(s, order):
        return True
    focus = focus_at(s.q)
    if s.q[0] in ("what", "which") and 0 <= focus < len(s.q) and s.q[focus] in _PLACING \
            and rank_like(s.select) and (name := name_column(s, s.select)):
        s.select = name  # "what is ranked first?": the row itself, by its name, not its place
        return True
    if _LISTED & set(s.q):
        return True
    if not holds_years(s.table.ranges.get(s.select)):
        years = year_column(s.table, {c.column for c in s.conds} | {s.select}, s.mentions)
        if _TIME_VERBS & set(s.q) and years is not None:
            s.ranking = ("extreme", years)  # "the first film released": by its year
        return True
    if 0 <= focus < len(s.q) and s.q[focus] in _TIME_NOUNS:
        s.ranking = None  # "what year was the first game released?": the earliest year
    elif asks_row(s.q, s.mentions, s.covered) and (name := name_column(s, s.select)):
        # "what was the first game released?": by the year column the question reads
        s.ranking, s.select = ("extreme", s.select), name
    return True


def _by_place(s: LinkState, order: str) -> bool:
    """*what year is ranked first?*: a verb of placing right before *first* / *last* (not
    *listed*: the table's order), no condition, asking for a column other than the table's
    column of places: the row placed first is the one holding place 1, the last the one
    holding the largest place (not the earliest / latest year). The table's order stands, as
    before, when no cell holds 1 (medallists' places blank) or the largest place is shared.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.writers.linking import read_table
    >>> rows = "".join(f"{r},{y}\\n" for r, y in [(2, 1950), (1, 1960), (3, 1940), (4, 1930),
    ...                                             (5, 1920)])
    >>> t = read_table(load_graph(tables=[("Rank,Year\\n" + rows).encode()]), 0)
    >>> s = LinkState.start("what year is ranked first?", t)
    >>> s.select = "Year"
    >>> _by_place(s, "min"), [(c.column, c.value) for c in s.conds], s.agg, s.ranking
    (True, [('Rank', '1')], '', None)
    >>> s = LinkState.start("what year is ranked last?", t)
    >>> s.select = "Year"
    >>> _by_place(s, "max"), s.agg, s.ranking
    (True, 'max', ('extreme', 'Rank'))
    >>> s = LinkState.start("what year is listed first?", t)
    >>> s.select = "Year"
    >>> _by_place(s, "min")
    False
    """
    at = next((i for i, w in enumerate(s.q) if w in (FIRST, LAST) and i not in s.covered), -1)
    if at < 1 or s.q[at - 1] not in _PLACED or s.select is None or s.conds:
        return False
    columns = place_columns(s.table)
    if not columns or s.select in columns or rank_like(s.select):
        return False
    column = columns[0]
    if order == "min":
        held = [label for label in ("1", ordinal_text(1))
                if any(c == column for c, _ in s.table.cells.get(tuple(tokens(label)), []))]
        if not held:
            return False
        s.agg, s.ranking = "", None
        s.conds.append(Cond(column, "=", held[0], (at, at + 1)))
    else:
        span = s.table.ranges.get(column)
        if span is None or any(parse_number(c) == span[1]
                               for c in s.table.repeated.get(column, ())):
            return False  # a tie for the last place: which row is last is the table's order
        s.agg, s.ranking = order, ("extreme", column)
    s.covered |= {at - 1, at}
    return True


#: verbs of placing after *what / which* (*what is ranked first?*, *what came first?*)
_PLACING = frozenset({"ranked", "rated", "came", "come", "comes", "finished", "placed",
                      "listed"})
#: words saying the order asked is the table's (*the first single listed*)
_LISTED = frozenset({"listed", "list", "table", "chart", "shown"})
#: verbs dating a row (*the first film released*): first / last by the year column
_TIME_VERBS = frozenset({"released", "founded", "established", "built", "aired", "published",
                         "completed", "opened", "formed", "created", "constructed",
                         "launched", "introduced", "premiered", "debuted", "issued"})
#: question words asking for a time, not a row (*what year was the last school founded?*)
_TIME_NOUNS = frozenset({"year", "years", "date", "season", "day", "month", "time"})


#: the words *first* and *last*
FIRST, LAST = words("order_words")
_ORDER_NOUNS = word_set("order_nouns")


def _order_word(q: list[str], covered: set[int]) -> str:
    """"min" for a free-standing *first*, "max" for *last* (the table's row order), else "".

    >>> from trustuqa_core.writers.linking import tokens
    >>> _order_word(tokens("who won the first championship?"), set())
    'min'
    >>> _order_word(tokens("what is his last name?"), set()), _order_word(["first", "5"], set())
    ('', '')
    """
    for i, word in enumerate(q):
        if word not in (FIRST, LAST) or i in covered:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        if nxt in _ORDER_NOUNS or nxt.isdigit() or nxt in number_words():
            continue
        return "min" if word == FIRST else "max"
    return ""


def rule_neighbour(s: LinkState) -> bool:
    """One row named (by one value, or by several meeting in it: *the world junior
    championships 2002*) and a next / previous cue (not inside a column name, not before a
    number): the row after / before it."""
    if s.agg or s.ranking:
        return False
    named = s.named()
    if any(c.negated for c in s.conds):
        return False
    neighbour, cue = _neighbour(s.q, s.conds, s.covered | named)
    if neighbour:
        asked = [c.column for c in s.conds if asks_for(s.q, c.column, s.mentions)]
        anchor = asked[0] if asked else s.conds[0].column
        if asks_for(s.q, anchor, s.mentions) or s.select is None or (
                s.mentions.get(s.select, (0.0,))[0] < 0.5 and s.q[0] in _ASKS_NAME
                and not column_kind(s.table, anchor) and not _possessive(s.q, s.conds)):
            # the neighbour's value in the named row's column (also when the column read
            # was only guessed: "who came next after venezuela?" names another nation)
            s.select = anchor
        elif cue not in ("next", "previous"):
            neighbour = ""  # "after" a named row, asking another column: that row's value
    s.neighbour = neighbour
    return bool(neighbour)


def _possessive(q: list[str], conds: list[Cond]) -> bool:
    """A named value followed by *'s* (*who was Catherine Long's previous representative?*):
    the question asks for a relation of that row (its predecessor in some role), which the
    row before it need not hold.

    >>> from trustuqa_core.writers.linking import tokens
    >>> _possessive(tokens("who was ann long's previous representative?"),
    ...             [Cond("Name", "=", "Ann Long", (2, 4))])
    True
    """
    return any(c.span[1] < len(q) and q[c.span[1]] == "s" for c in conds)


#: question words asking for a name: a neighbour's answer is the named row's kind
_ASKS_NAME = frozenset({"who", "which", "what", "whom"})
_NEXT = word_set("next_words")
_PREVIOUS = word_set("previous_words")


def _neighbour(q: list[str], conds: list[Cond], covered: set[int]) -> tuple[str, str]:
    """("next_row", cue) for "the next single after X" (one row named, no number after the
    cue), ("previous_row", cue) for "the album listed before X", else ("", "").

    >>> from trustuqa_core.writers.linking import tokens
    >>> c = [Cond("Event", "=", "Worlds", (4, 5)), Cond("Year", "=", "2002", (5, 6))]
    >>> _neighbour(tokens("what competition came after worlds 2002?"), c, {4, 5})
    ('next_row', 'after')
    """
    if not conds or any(c.cmp != "=" for c in conds) or len({c.column for c in conds}) \
            < len(conds):
        return "", ""  # one row: equalities on different columns
    for i, word in enumerate(q):
        if i in covered or word not in _NEXT | _PREVIOUS:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        if nxt and parse_number(nxt) is not None and (i + 1) not in covered:
            continue  # a cue before a number is a comparison
        return ("next_row" if word in _NEXT else "previous_row"), word
    return "", ""


def rule_finished_place(s: LinkState) -> bool:
    """*who finished second?*, *which skier placed fourth?*: a finishing verb and an ordinal
    (second to tenth; *first* is :func:`rule_row_order`'s), no other condition, and a table
    with a column of places: the row holding that place; when no row holds it and the column
    numbers a ranking (its top places blank: medallists shown by a medal), the row at that
    position in the table's order, as the ranking lists them.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.writers.linking import read_table
    >>> rows = "".join(f"{r},P{n}\\n" for n, r in enumerate(["", "", ""] + list(range(4, 9))))
    >>> t = read_table(load_graph(tables=[("Rank,Name\\n" + rows).encode()]), 0)
    >>> s = LinkState.start("who finished second?", t)
    >>> s.select = "Name"
    >>> rule_finished_place(s), [(c.column, c.cmp, c.value) for c in s.conds]
    (True, [('row_number', '=', '2')])
    >>> s = LinkState.start("who finished fifth?", t)
    >>> s.select = "Name"
    >>> rule_finished_place(s), [(c.column, c.cmp, c.value) for c in s.conds]
    (True, [('Rank', '=', '5')])
    """
    if s.agg or s.ranking is not None or s.neighbour or s.computed is not None \
            or s.select is None or not s.q:
        return False
    found = _finished_place(s.q)
    if found is None:
        return False
    place, at = found
    # the place's own number may have been read as a value (*2nd* as ``Bib = 2``): no other
    if any(c.span != (at, at + 1) for c in s.conds):
        return False
    columns = place_columns(s.table)
    if not columns or not (s.q[0] == "who" or asks_row(s.q, s.mentions, s.covered)):
        return False
    column = columns[0]
    held = [label for label in (str(place), ordinal_text(place))
            if any(c == column for c, _ in s.table.cells.get(tuple(tokens(label)), []))]
    if held:
        cond = Cond(column, "=", held[0], (at, at + 1))
    elif numbers_ranking(s.table, column):
        cond = Cond("row_number", "=", str(place), (at, at + 1))
    else:
        return False
    if s.select == column or column_kind(s.table, s.select):
        name = name_column(s, column)
        if name is None:
            return False
        s.select = name
    s.conds = [cond]
    s.covered |= {at}
    return True


_ORDINALS = words("ordinal_words")
#: verbs of finishing a race or a ranking in a place
_FINISH_VERBS = frozenset({"finished", "finish", "finishes", "placed", "place", "came",
                           "come", "ranked", "rank", "ended"})
#: verbs placing a row in a ranking before *first* / *last* (:func:`_by_place`)
_PLACED = (_PLACING | _FINISH_VERBS) - _LISTED


def _finished_place(q: list[str]) -> tuple[int, int] | None:
    """(place, position of the ordinal) for *finished / placed / came (in) Nth*, N from 2 to
    10 written as a word.

    >>> from trustuqa_core.writers.linking import tokens
    >>> _finished_place(tokens("who finished second?")), _finished_place(tokens("who came in "
    ...                                                                          "third place?"))
    ((2, 2), (3, 3))
    >>> _finished_place(tokens("who came in 2nd place?")), _finished_place(tokens("who "
    ...                                                                "finished 12th?"))
    ((2, 3), (12, 2))
    >>> _finished_place(tokens("who won the second race?")) is None
    True
    """
    for i, word in enumerate(q):
        if word not in _FINISH_VERBS:
            continue
        j = i + 1
        while j < len(q) and q[j] in ("in", "the", "up"):
            j += 1
        if j < len(q) and q[j] in _ORDINALS and 2 <= _ORDINALS.index(q[j]) <= 10:
            return _ORDINALS.index(q[j]), j
        if j + 1 < len(q) and q[j].isdigit() and 2 <= int(q[j]) <= 999 and \
                ordinal_text(int(q[j])) == q[j] + q[j + 1]:
            return int(q[j]), j  # *2nd*, *23rd* (tokenized ``2``, ``nd``)
    return None

