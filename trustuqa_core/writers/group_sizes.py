"""Two per-group readings beside :mod:`.per_group`'s count (offline linker):

* **groups by size**: *how many nations have more than 2 skiers?*, *which nations had at
  least 3 skiers?*, *how many nations have only one skier?*, *how many teams appear more than
  once?* -- a column Y named right after the question word (some value of it in two rows or
  more), a bound on a number of rows (*more than 2 skiers*: the counted noun names no column)
  -> the rows (the other conditions, else every Y), ``groups_of_size(set, key=Y, size>N)``
  and, for *how many*, their ``count``.
* **a sum per group**: *what is the total of points for each nation?*, *how many points did
  each nation score?*, *sum of bib per nation* -- a numeric column V and a column Y named
  right after *each* / *every* / *per* (some value of it in two rows or more) -> the rows,
  ``sum_each(set, key=Y, value=V)``: one sum per group, the largest first.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Name,Nation,Points\\nAnn,Italy,3\\nBo,France,1\\nCy,Italy,2\\n"])
>>> c = link_table("how many nations have more than 1 skier?", g).computed
>>> c.kind, c.column, c.op, c.size
('count_groups_of_size', 'Nation', '>', '1')
>>> c = link_table("how many points did each nation score?", g).computed
>>> c.kind, c.column, c.end_column
('sum_each', 'Nation', 'Points')
"""

from __future__ import annotations

import re

from ..lexicon import word_set
from ..query.ast import Call
from ..query.build import arg, call, ref
from .aggregates import numbers_rows
from .computed import Computed
from .cond_steps import as_cmp
from .link_state import LinkState
from .linking import Cond, Mentions, Table, number_words
from .per_group import each_key, group_rows

__all__ = ["rule_groups_of_size", "rule_sum_each", "link_groups_of_size", "link_sum_each",
           "group_steps", "GROUP_KINDS"]

GROUP_KINDS = frozenset({"groups_of_size", "count_groups_of_size", "sum_each"})

#: a bound on a number of rows: (cue, comparison); the number and the counted noun follow
_SIZE_CUES = (("more than", ">"), ("greater than", ">"), ("over", ">"), ("at least", ">="),
              ("no fewer than", ">="), ("no less than", ">="), ("fewer than", "<"),
              ("less than", "<"), ("at most", "<="), ("no more than", "<="),
              ("exactly", "="), ("only", "="), ("just", "="))
_NUMBER = r"(\d+|" + "|".join(sorted(number_words(), key=len, reverse=True)) + r")"
_ALONE = r"(?<![\w,.\-])"  # a number standing alone: not the end of 5,000 or -10
_SIZE = re.compile(r"(?<!\bthe )\b(?P<cue>" + "|".join(c for c, _ in _SIZE_CUES) + r")\s+"
                   + _ALONE + _NUMBER
                   + r"\s+(?P<noun>[a-z]+)\b|" + _ALONE + _NUMBER.replace("(", "(?P<n2>", 1)
                   + r"\s+or\s+(?P<more>more|fewer|less)\s+(?P<noun2>[a-z]+)\b")
#: *appear more than once*, *listed twice*: a bound on how often a value is in the rows
_TIMES = re.compile(r"\b(?P<cue>more than|at least|only|exactly|just)?\s*(?P<n>once|twice|"
                    r"(?:\d+|" + "|".join(number_words()) + r") times)\b")
_ASKS = re.compile(r"^(?:how many|what is the number of|what was the number of|the number of|"
                   r"which|what)\s+")
_OR_CMP = {"more": ">=", "fewer": "<=", "less": "<="}
_TIMES_N = {"once": 1, "twice": 2}
_TOTAL = re.compile(r"\b(?:total|sum|combined|altogether|how many|how much)\b")


def rule_groups_of_size(s: LinkState) -> bool:
    """*How many nations have more than 2 skiers?*, *which nations appear more than once?*:
    the groups of a column's values whose number of rows meets the bound (:mod:`.group_sizes`),
    not a condition on a number cell."""
    if s.computed is not None:
        return False
    found = link_groups_of_size(s.q, s.conds, s.mentions, s.table)
    if found is None:
        return False
    s.computed, s.agg, s.ranking, s.exclude, s.neighbour = found, "", None, None, ""
    s.conds = list(found.rows)
    return True


def rule_sum_each(s: LinkState) -> bool:
    """*What is the total of points for each nation?*, *how many points did each nation
    score?*: one sum of a numeric column per value of the column named after *each* / *every*
    / *per* (:mod:`.group_sizes`)."""
    if s.computed is not None:
        return False
    return s.take_computed(link_sum_each(s.q, s.conds, s.mentions, s.table))


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else number_words().get(word)


def _position(q: list[str], char: int) -> int:
    """The token index of a character offset of ``' '.join(q)``."""
    return len(" ".join(q)[:char].split())


def link_groups_of_size(q: list[str], conds: list[Cond], mentions: Mentions,
                        table: Table) -> Computed | None:
    """The groups-by-size reading of ``q`` (tokens) over ``table``, or None (module doc).

    >>> from trustuqa_core.writers.linking import header_mentions, tokens
    >>> t = Table("t", ["Name", "Nation"], {}, {}, 1, {},
    ...           repeated={"Nation": frozenset({"Italy"})})
    >>> q = tokens("which nations appear more than once?")
    >>> c = link_groups_of_size(q, [], header_mentions(q, t.columns), t)
    >>> c.kind, c.op, c.size
    ('groups_of_size', '>', '1')
    >>> t.numeric["Name"] = True
    >>> q = tokens("which nations have more than 2 names?")  # the noun names a number column
    >>> link_groups_of_size(q, [], header_mentions(q, t.columns), t) is None
    True
    """
    text = " ".join(q)
    asks = _ASKS.match(text)
    if asks is None or any(c.negated for c in conds):
        return None
    head = len(asks.group(0).split())
    keys = [col for col, (score, start, _) in mentions.items()
            if score >= 1.0 and start == head and table.repeated.get(col)]
    if len(keys) != 1:
        return None
    key = keys[0]
    bound = _size_bound(text, q, {c: m for c, m in mentions.items() if table.numeric.get(c)})
    if bound is None:
        return None
    cmp, size, span = bound
    if span[0] <= mentions[key][2]:
        return None
    kept = [c for c in conds if not (c.span[0] < span[1] and span[0] < c.span[1])]
    if len({c.column for c in kept}) < len(kept) or any(c.either for c in kept):
        return None  # either of two values: not written here
    if any(c.column == key or c.span[0] < mentions[key][2] and mentions[key][1] < c.span[1]
           for c in kept):
        return None  # a condition fixes the key ("how many italians ...")
    counted = "count_" if head and q[0] in ("how", "the") or "number" in q[:head] else ""
    return Computed(f"{counted}groups_of_size", tuple(kept), key, op=cmp, size=str(size),
                    why=f"the {key!r} groups with {cmp} {size} row(s)")


def _size_bound(text: str, q: list[str], mentions: Mentions
                ) -> tuple[str, int, tuple[int, int]] | None:
    """(comparison, number of rows, token span) of a bound on a number of rows: *more than 2
    skiers* (the noun names none of the numeric columns ``mentions``), *3 or more players*,
    *more than once*, *twice*."""
    named = {i for score, start, end in mentions.values() if score > 0 for i in range(start, end)}
    m = _SIZE.search(text)
    if m is not None:
        if m.group("cue") is not None:
            cmp = dict(_SIZE_CUES)[m.group("cue")]
            n, noun_at = _number(m.group(2)), m.start("noun")
        else:
            cmp, n, noun_at = _OR_CMP[m.group("more")], _number(m.group("n2")), m.start("noun2")
        at = _position(q, noun_at)
        if n is not None and at not in named and q[at] not in _NOT_NOUNS \
                and not (at + 1 < len(q) and q[at + 1] in _NOT_NOUNS):
            return cmp, n, (_position(q, m.start()), at + 1)
    t = _TIMES.search(text)
    if t is None:
        return None
    word = t.group("n").split()[0]
    n = _TIMES_N.get(word) if word in _TIMES_N else _number(word)
    if n is None:
        return None
    cue = t.group("cue")
    cmp = dict(_SIZE_CUES).get(cue, "=") if cue else "="
    return cmp, n, (_position(q, t.start()), _position(q, t.end()))


#: words that are not the counted noun of *more than 2 skiers* (nor the word after it: *at
#: least 25 or more points*, *2 times*, *10th*); nouns of a value in each row (*more than 10
#: points*) are not either
_NOT_NOUNS = frozenset({"times", "time", "once", "twice", "or", "and", "of", "per", "th", "st",
                        "nd", "rd"}) | word_set("stop_words") | word_set("value_cues")


def link_sum_each(q: list[str], conds: list[Cond], mentions: Mentions,
                  table: Table) -> Computed | None:
    """The per-group sum ``q`` (tokens) asks over ``table``, or None (module doc).

    >>> from trustuqa_core.writers.linking import header_mentions, tokens
    >>> t = Table("t", ["Name", "Nation", "Points"], {}, {"Points": True}, 1, {},
    ...           repeated={"Nation": frozenset({"Italy"})})
    >>> q = tokens("what is the total of points for each nation?")
    >>> link_sum_each(q, [], header_mentions(q, t.columns), t).end_column
    'Points'
    >>> q = tokens("what is the points of each nation?")  # no total asked
    >>> link_sum_each(q, [], header_mentions(q, t.columns), t) is None
    True
    """
    text = " ".join(q)
    cue = _TOTAL.search(text)
    if cue is None or any(c.negated for c in conds):
        return None
    counted = cue.group(0) in ("how many", "how much") and _TOTAL.search(text, cue.end()) is None
    key = each_key(q, conds, mentions, table)
    if key is None:
        return None
    used = {c.column for c in conds}
    start = mentions[key][1]
    full = [(s, e) for score, s, e in mentions.values() if score >= 1.0]
    values = [col for col, (score, s, e) in mentions.items()
              if score >= 1.0 and col != key and col not in used and table.numeric.get(col)
              and not numbers_rows(col)
              and not any(c.span[0] < e and s < c.span[1] for c in conds)
              and not any(a <= s and e <= b and b - a > e - s for a, b in full)]
    if len(values) != 1 or len(used) < len(conds) or any(c.either for c in conds):
        return None
    if counted and (mentions[values[0]][1] != len(text[:cue.end()].split())
                    or q[start - 1] == "per"):
        return None  # "how many bishops per adherent": a ratio, not a sum per group
    return Computed("sum_each", tuple(conds), key, end_column=values[0],
                    why=f"'... each {q[start]}': {values[0]!r} summed per {key!r}")


def group_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps) of a group reading: the rows meeting the conditions (else every
    key value: :func:`.per_group.group_rows`), then ``groups_of_size`` (and its ``count``) or
    ``sum_each``."""
    steps = group_rows(c)
    rows = ref(len(steps))
    if c.kind == "sum_each":
        steps.append((f"Sum the {c.end_column} of each {c.column}", call(
            "sum_each", set=rows, key=c.column, value=c.end_column)))
        return c.column, steps
    steps.append((f"The {c.column} values found in {c.op} {c.size} row(s)", call(
        "groups_of_size", arg("set", rows), arg("key", c.column),
        arg("size", c.size, as_cmp(c.op)))))
    if c.kind == "count_groups_of_size":
        steps.append(("Count them", call("count", set=ref(len(steps)))))
        return f"number of {c.column}", steps
    return c.column, steps
