"""Places bounded by the question: *5th or better*, *at least 12th*, *below 10th*, *the top 10*
(offline linker).

A table of results (``Year, Competition, Venue, Position``) lists places as ``1st``,
``12th`` or ``3``; a question that bounds a place asks for every row within the bound, not the
row holding that one place:

- *Nth or better / higher / above* and *at least Nth* -> ``Position <= N``; *Nth or worse /
  lower / below* -> ``Position >= N``; *below / lower than / worse than Nth* -> ``Position > N``;
  *above / higher than / better than Nth* -> ``Position < N``;
- *the top N* read as the rows holding place N (``Pos. = 10``) -> ``Pos. <= 10``; and *placed /
  finished in the top N* read as the first N rows of the table (``row_number <= N``) -> the
  table's column of places ``<= N`` when it has one that does not number a ranking (a table
  of one athlete's results is in time order, not in order of places); in a ranking (its
  places numbered nearly without gaps, the rows in their order) *the top N* is the first N
  rows (blank places of medallists included) or a place of N or better (a row tied at Nth
  after the Nth row): the two conditions joined (:attr:`.linking.Cond.either`, a
  ``set_union``).

Only columns named as places (*Rank*, *Pos.*, *Position*, *Place*, *Finish*) whose cells are
mostly places or whole numbers; the executor reads ``12th`` as 12 when it compares.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Year,Competition,Position\\n2001,Cup,1st\\n2002,Open,12th\\n"
...                        b"2003,Games,3rd\\n"])
>>> [(c.column, c.cmp, c.value) for c in link_table("how many times did they place at "
...                                                 "least 12th?", g).conds]
[('Position', '<=', '12th')]
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..reasoning.cues import RANK_RELATION
from .linking import Cond, Table, spans, tokens

__all__ = ["place_bounds", "place_columns", "numbers_ranking"]

_PLACE = re.compile(r"^\d+(?:st|nd|rd|th)?\.?$")
#: the tag joining *the top N* rows by position and by place (:attr:`Cond.either`)
_TOP = "top"
_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
#: words between a place and *or better* (*3rd position or higher*)
_PLACE_NOUNS = frozenset({"place", "position", "spot", "places", "positions", "spots"})
#: (words before the place, comparison)
_BEFORE = ((("at", "least"), "<="), (("no", "worse", "than"), "<="),
           (("no", "lower", "than"), "<="), (("at", "most"), ">="),
           (("no", "better", "than"), ">="), (("no", "higher", "than"), ">="),
           (("lower", "than"), ">"), (("worse", "than"), ">"), (("below",), ">"),
           (("higher", "than"), "<"), (("better", "than"), "<"), (("above",), "<"),
           (("top",), "<="))
#: (words after the place, comparison)
_AFTER = ((("or", "better"), "<="), (("or", "higher"), "<="), (("or", "above"), "<="),
          (("or", "worse"), ">="), (("or", "lower"), ">="), (("or", "below"), ">="))
#: verbs and nouns saying rows were placed (*placed in the top 10*, *top 10 finishes*)
_PLACED = frozenset({"place", "placed", "placing", "finish", "finished", "finishes",
                     "finishing", "finishers", "finisher", "ranked", "came", "come", "position",
                     "positions", "spot", "spots"})


def place_columns(table: Table) -> list[str]:
    """Columns named as places whose cells are mostly places or whole numbers, in table order.

    >>> t = Table("t", ["Year", "Pos."], {("1", "st"): [("Pos.", "1st")],
    ...           ("dnf",): [("Pos.", "DNF")], ("12", "th"): [("Pos.", "12th")]}, {}, 1, {})
    >>> place_columns(t)
    ['Pos.']
    """
    found: dict[str, list[bool]] = {}
    for key, options in table.cells.items():
        hit = bool(_PLACE.match("".join(key)))
        for column, _ in options:
            found.setdefault(column, []).append(hit)
    return [c for c in table.columns if c in found and _place_name(c)
            and sum(found[c]) >= 2 and sum(found[c]) >= 0.5 * len(found[c])]


def numbers_ranking(table: Table, column: str) -> bool:
    """True when ``column`` numbers the rows of a ranking (nearly every place from its
    smallest to its largest appears): the first N rows are then its top N, and a place left
    blank (medallists shown by a medal, ``Rank`` empty) is still among them.

    >>> cells = {(str(n),): [("Rank", str(n))] for n in range(4, 12)}
    >>> numbers_ranking(Table("t", ["Rank"], cells, {}, 1, {}), "Rank")
    True
    >>> cells = {(n, "th"): [("Pos", n + "th")] for n in ("4", "9", "12", "20", "31")}
    >>> numbers_ranking(Table("t", ["Pos"], cells, {}, 1, {}), "Pos")
    False
    """
    places = {int(m.group(1)) for key, options in table.cells.items()
              if any(col == column for col, _ in options)
              and (m := re.match(r"^(\d+)", "".join(key))) and _PLACE.match("".join(key))}
    if len(places) < 5:
        return False
    return len(places) >= 0.7 * (max(places) - min(places) + 1)


def _place_name(column: str) -> bool:
    name = " ".join(tokens(column))
    return bool(RANK_RELATION.match(name)) or any(RANK_RELATION.match(t) for t in tokens(column))


def place_bounds(q: list[str], conds: list[Cond], table: Table) -> list[Cond] | None:
    """``conds`` with the places the question ``q`` (tokens) bounds read as bounds (module
    doc), or None when nothing changes.

    >>> t = Table("t", ["Year", "Place"], {("5", "th"): [("Place", "5th")],
    ...           ("1", "st"): [("Place", "1st")]}, {}, 1, {})
    >>> q = tokens("how many times did he finish 5th or better?")
    >>> [(c.column, c.cmp) for c in place_bounds(q, [Cond("Place", "=", "5th", (6, 8))], t)]
    [('Place', '<=')]
    >>> place_bounds(tokens("who finished 5th?"), [Cond("Place", "=", "5th", (2, 4))], t)
    """
    places = place_columns(table)
    if not places:
        return None
    used = {c.column for c in conds}
    out, changed = [], False
    for c in conds:
        new = c
        if c.negated:
            pass
        elif c.column in places and c.cmp == "=" and _PLACE.match(c.value.replace(" ", "")):
            cmp = _bound(q, c.span)
            if cmp == "<=" and _ranking(table, c.column) and _top(q, c.span):
                # "the top 4" of a ranking: its first 4 rows, blank places included, or a
                # place of 4 or better (a tie at 4th in the 5th row)
                n = str(_number(c.value))
                new = replace(c, column="row_number", cmp="<=", value=n, either=_TOP)
                out.append(replace(c, cmp="<=", value=n, either=_TOP))
            elif cmp is not None:
                new = replace(c, cmp=cmp)
        elif c.column == "row_number" and c.cmp == "<=" and c.either is None \
                and places[0] not in used:
            first = places[0]  # the table's own places (not "Run 1 rank" after "Rank")
            if not numbers_ranking(table, first) and _PLACED & set(q):
                new = replace(c, column=first)  # "placed in the top 10": by the places
            elif _ranking(table, first):
                # "in the top 10" of a ranking: the first 10 rows or a place of 10 or better
                # (two rows tied at 10th: the 11th row is in the top ten too)
                new = replace(c, either=_TOP)
                out.append(replace(c, column=first, either=_TOP))
        changed |= new != c
        out.append(new)
    free = [p for p in places if p not in used]
    if len(free) == 1:  # "below 10th" where no cell says 10th: a bound all the same
        taken = spans(conds)
        for i in range(len(q) - 1):
            if q[i].isdigit() and q[i + 1] in _SUFFIXES and not {i, i + 1} & taken \
                    and (cmp := _bound(q, (i, i + 2))) is not None:
                out.append(Cond(free[0], cmp, q[i] + q[i + 1], (i, i + 2)))
                changed = True
    return out if changed else None


def _ranking(table: Table, column: str) -> bool:
    """``column`` numbers the rows of a ranking and the rows are in its order (not one
    athlete's results in time order, whose places merely cover 1 to N)."""
    return numbers_ranking(table, column) and column in table.in_order


def _top(q: list[str], span: tuple[int, int]) -> bool:
    """*top* right before the place at ``span`` (*the top 4*)."""
    before = [w for w in q[max(0, span[0] - 2):span[0]] if w != "the"]
    return bool(before) and before[-1] == "top"


def _number(value: str) -> int:
    """The whole number a place cell starts with (``12th`` -> 12)."""
    m = re.match(r"\d+", value.replace(" ", ""))
    return int(m.group(0)) if m else 0


def _bound(q: list[str], span: tuple[int, int]) -> str | None:
    """The comparison the words around a place at ``span`` make of it, or None."""
    start, end = span
    before = [w for w in q[max(0, start - 4):start] if w != "the"]
    for words, cmp in _BEFORE:
        if tuple(before[-len(words):]) == words:
            return cmp
    after = q[end:end + 3]
    if after and after[0] in _PLACE_NOUNS:
        after = after[1:]
    for words, cmp in _AFTER:
        if tuple(after[:len(words)]) == words:
            return cmp
    return None
