"""Choices between two named values decided by counting their rows (offline linker).

*Are there more players from Sweden or Canada?*, *which country had more competitions,
Germany or Greece?*, *who won more races in 2013, A or B?*: the two options are values of
one column, no number column is named to compare, and at least one option fills several
rows. The rows holding each option (and meeting the question's other conditions) are
counted, the counts compared, and the option with more (or fewer) rows is the answer. *Did
A win more or less than B?* answers *more* / *less* from the same two counts.

The query states the reading: two ``count`` steps, a ``compare`` and an ``if_then_else``
between the options as the table writes them, so the trace shows both counts.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.tables import link_table
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Sweden\\nBo,Canada\\nCy,Sweden\\n"])
>>> c = link_table("are there more players from sweden or canada?", g).computed
>>> c.kind, [r.value for r in c.rows], c.op
('count_choice', ['Sweden', 'Canada'], '>')
"""

from __future__ import annotations

from ..query.ast import CMPS, Call, Cmp
from ..query.build import call, get_information, ref
from .computed import Computed, column_kind
from .linking import Cond, Mentions, Table

__all__ = ["link_count_choice", "count_choice_steps", "COUNT_KINDS"]

#: the :class:`Computed` kinds this module writes
COUNT_KINDS = frozenset({"count_choice"})

_MORE = frozenset({"more", "most"})
_FEWER = frozenset({"fewer", "fewest", "less", "least"})
#: words right after *more* that make it a quality, not a number of rows (*more successful*)
_QUALITY_ENDINGS = ("ful", "ous", "ive", "able", "ible", "ular", "ent", "ant", "er", "est")
#: words saying an amount is compared (a column's numbers), not a number of rows
_QUANTITY_WORDS = frozenset({"average", "mean", "total", "sum", "combined", "time", "times",
                             "money", "weigh", "weight", "score", "scored", "points"})
_JOINERS = frozenset({"or", "the", "a", "an", "by", "in", "from", "with", "of", "at", "for"})


def link_count_choice(q: list[str], conds: list[Cond], mentions: Mentions,
                      table: Table) -> Computed | None:
    """The count choice the question ``q`` (tokens) asks, or None (module doc).

    >>> t = Table("t", ["Name", "Nation", "Points"], {}, {"Points": True}, 1, {},
    ...           repeated={"Nation": frozenset({"Sweden"})})
    >>> c = [Cond("Nation", "=", "Sweden", (5, 6)), Cond("Nation", "=", "Canada", (7, 8))]
    >>> link_count_choice("are there more players from sweden or canada".split(), c, {},
    ...                   t).why
    "a choice between 'Sweden' and 'Canada': the one with more rows"
    >>> link_count_choice("who scored more points , sweden or canada".split(), c,
    ...                   {"Points": (1.0, 3, 4)}, t) is None  # a column to compare is named
    True
    """
    if any(c.negated for c in conds):
        return None
    pair = _options(q, conds)
    if pair is None:
        return None
    a, b = pair
    if not ({a.value, b.value} & table.repeated.get(a.column, frozenset())):
        return None  # one row each: nothing to count
    cue = next((i for i, w in enumerate(q) if w in _MORE | _FEWER), None)
    if cue is None or _quality(q, cue) or _QUANTITY_WORDS & set(q):
        return None  # "more total votes", "weigh more on average": amounts, not rows
    named = [c for c, m in mentions.items() if c != a.column and m[0] >= 0.5
             and column_kind(table, c) and not _inside(m, (a, b))]
    if named:
        return None  # "who scored more points, A or B?": the points are compared
    filters = tuple(c for c in conds if c not in (a, b))
    if any(c.column == a.column for c in filters):
        return None
    op = ">" if q[cue] in _MORE else "<"
    text = " ".join(q)
    if "more or less" in text or "more or fewer" in text:
        return Computed("count_choice", (a, b), a.column, op=">", filters=filters,
                        options=("more", "less"),
                        why=f"'more or less': the rows of {a.value!r} counted against those "
                            f"of {b.value!r}")
    which = "more" if op == ">" else "fewer"
    return Computed("count_choice", (a, b), a.column, op=op, filters=filters,
                    options=(a.value, b.value),
                    why=f"a choice between {a.value!r} and {b.value!r}: the one with {which} "
                        "rows")


def _options(q: list[str], conds: list[Cond]) -> tuple[Cond, Cond] | None:
    """Two whole cells of one column joined by *or* (*Sweden or Canada*), or on either side of
    *than* after *more or less* (*did A win more or less than B?*)."""
    equal = sorted((c for c in conds if c.cmp == "=" and not c.part
                    and c.column != "row_number"), key=lambda c: c.span)
    for i, a in enumerate(equal):
        for b in equal[i + 1:]:
            if a.column != b.column or a.value == b.value:
                continue
            between = q[a.span[1]:b.span[0]]
            if "or" in between and len(between) <= 3 and set(between) <= _JOINERS:
                return a, b
            if "than" in between and "more" in between and "or" in between:
                return a, b
    return None


def _quality(q: list[str], cue: int) -> bool:
    """*more successful*, *more popular*, *higher*: a quality of the rows, not their number.

    >>> _quality("which season was more successful".split(), 3)
    True
    >>> _quality("are there more players".split(), 2)
    False
    """
    nxt = q[cue + 1] if cue + 1 < len(q) else ""
    return len(nxt) > 4 and nxt.endswith(_QUALITY_ENDINGS) and nxt not in ("players",
                                                                           "winners")


def _inside(mention: tuple[float, int, int], options: tuple[Cond, ...]) -> bool:
    """A column name mentioned only inside an option's own words."""
    return any(o.span[0] <= mention[1] and mention[2] <= o.span[1] for o in options)


def count_choice_steps(c: Computed) -> tuple[str, list[tuple[str, Call]]]:
    """(target type, steps): each option's rows (meeting the filters) counted and the counts
    compared by ``compare``, which answers the chosen option (both options on a tie)."""
    steps: list[tuple[str, Call]] = []
    shared: list[int] = []
    for f in c.filters:
        value = f.value.replace("\n", " ")
        steps.append((f"Find the rows whose {f.column} {f.cmp} {value}",
                      get_information(relation=f.column, tail_entity=value, cmp=_cmp(f.cmp))))
        shared.append(len(steps))
    counts = []
    for row in c.rows:
        value = row.value.replace("\n", " ")
        steps.append((f"Find the rows whose {row.column} is {value}",
                      get_information(relation=row.column, tail_entity=value)))
        rows = len(steps)
        if shared:
            steps.append(("Keep those meeting the other conditions",
                          call("set_intersection", set1=ref(rows),
                               **{f"set{k + 2}": ref(n) for k, n in enumerate(shared)})))
            rows = len(steps)
        steps.append((f"Count the rows of {value}", call("count", set=ref(rows))))
        counts.append(len(steps))
    a, b = counts
    # compare() answers the choice the question asks (the option with the larger count, or
    # more / less), and both options when the counts are equal: a tie is shown, not decided
    first, second = (x.replace("\n", " ") for x in c.options)
    steps.append((f"{first} if output_of_query{a} {c.op} output_of_query{b}, else {second}",
                  call("compare", set1=ref(a), set2=ref(b), op=c.op)))
    return ("more or less" if c.options == ("more", "less") else c.column), steps


def _cmp(text: str) -> Cmp:
    """A condition's comparison as the query language's :data:`Cmp`."""
    if text not in CMPS:
        raise ValueError(f"unknown comparison {text!r}")
    return text  # type: ignore[return-value]
