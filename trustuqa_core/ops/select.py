"""Selections: heads whose relation value matches, compares, or is the most frequent / extreme."""

from __future__ import annotations

import re

import numpy as np

from ..fallback import FallbackRequest
from ..numbers import parse_month_day, parse_number, parse_quantity, read_score
from ..query.ast import Bound, Ref, Text
from ..reasoning.cues import RANK_RELATION, rank_direction
from ..results import Elem, Result, Scalar
from ..rewrite import Op
from ..store import EMPTY
from ..text import normalize
from .base import (
    Context,
    block_repeats,
    distinct_heads,
    elem_text,
    intersect,
    is_summary_row,
    numeric,
    quantity,
    rel_name,
    relation_param,
    repeated_columns,
    resolve_set,
    union,
    witness_map,
)
from .project import project


def op_select(ctx: Context, op: Op) -> Result:
    """Heads whose ``relation`` value matches (``=``) or compares (``< > <= >=``) with ``value``.

    An equality that finds nothing in a column whose header repeats (``Performer`` and
    ``Performer (2)``) is looked up in the repeats too (:func:`_in_repeated_columns`)."""
    result = _op_select(ctx, op)
    if op.cmp != "!=" and block_repeats(ctx.graph, relation_param(ctx, op.param("relation"))):
        return _in_every_block(ctx, op, result)
    if result or op.cmp != "=":
        return result
    return _in_repeated_columns(ctx, op) or result


def _in_every_block(ctx: Context, op: Op, first: Result) -> Result:
    """A table laid out as one block of columns repeated side by side: the lookup reads the
    column's copy in every block (each row holds one record per block), noted when a later
    block adds rows. A row matching in two blocks counts once."""
    g, rel, value = ctx.graph, relation_param(ctx, op.param("relation")), op.param("value")
    if isinstance(value, Ref):
        return first
    found = _in_columns(ctx, op, block_repeats(g, rel))
    if found is None:
        return first
    more, used = found
    added = len(more.keys() - first.keys())
    if added:
        ctx.notes.append(
            f"the table repeats its columns in {len(used) + 1} blocks side by side: "
            f"{', '.join(repr(u) for u in used)} read as {rel_name(ctx, rel)!r} too "
            f"({added} more row(s))"
        )
    return union([first, more])


def _in_columns(ctx: Context, op: Op, others: list[int]) -> tuple[Result, list[str]] | None:
    """The lookup ``op`` in each of the columns ``others`` (the notes of the ones that find
    something kept): their union and the names of those columns, or None if none finds."""
    value = op.param("value")
    if isinstance(value, Bound) and not value.ids:
        value = Text(value.text)
    notes = list(ctx.notes)
    found, used, kept = [], [], []
    for other in others:
        bound = Bound(rel_name(ctx, other), (other,), (rel_name(ctx, other),), "relation")
        params = tuple((k, bound if k == "relation" else value if k == "value" else v)
                       for k, v in op.params)
        before = len(ctx.notes)
        part = _op_select(ctx, Op(op.name, params, op.cmp, op.out))
        if part:
            found.append(part)
            used.append(rel_name(ctx, other))
            kept.extend(ctx.notes[before:])  # how the repeat was read (a span, a month, ...)
    ctx.notes[:] = notes + kept
    return (union(found), used) if found else None


def _in_repeated_columns(ctx: Context, op: Op) -> Result | None:
    """The rows holding the value in the other columns of the same header, with a note;
    None when the header does not repeat or they find nothing either (notes unchanged)."""
    g, rel, value = ctx.graph, relation_param(ctx, op.param("relation")), op.param("value")
    others = repeated_columns(g, rel)
    if not others or isinstance(value, Ref):
        return None
    found = _in_columns(ctx, op, others)
    if found is None:
        return None
    result, used = found
    shown = value.text if isinstance(value, Bound) else str(value)
    ctx.notes.append(
        f"{shown!r} is in no cell of {rel_name(ctx, rel)!r}; the table repeats that header, "
        f"and {', '.join(repr(u) for u in used)} hold(s) it: those rows are read"
    )
    return result


def _op_select(ctx: Context, op: Op) -> Result:
    g, rel, value = ctx.graph, relation_param(ctx, op.param("relation")), op.param("value")
    if op.cmp == "!=":
        equal = _op_select(ctx, Op("select", op.params, "="))
        facts = np.sort(g.facts_rel(rel))
        drop = equal.keys()
        if equal and not any(_is_row_elem(ctx, e) for e in equal.elems):
            # the equality read an earlier result of rows as their values of ``rel``
            # (``tail_entity!='output_of_query1'`` over the Honda rows): leave out the rows
            # holding those values, not the values themselves
            keep = facts[[("n", int(t)) not in drop for t in g.tails_of(facts).tolist()]]
            ctx.notes.append(f"'!=' leaves out the rows whose {rel_name(ctx, rel)!r} is one of "
                             f"those {len(equal.distinct())} value(s)")
        else:
            keep = facts[[("n", int(h)) not in drop for h in g.heads_of(facts).tolist()]]
        keep = _without_placeholders(ctx, rel, keep, value)
        return distinct_heads(g, g.heads_of(keep), keep)
    if op.cmp != "=":
        return _select_cmp(ctx, rel, op.cmp, value)
    if isinstance(value, Bound | Text):
        text = value.text if isinstance(value, Bound) else value.value
        liked = _select_like(ctx, rel, text)
        if liked is not None:
            return liked
        holding = _rows_holding_value(ctx, rel, text)
        if holding is not None:
            return holding
        if not (isinstance(value, Bound) and value.ids):
            blank = _select_no_value(ctx, rel, text)
            if blank is not None:
                return blank
        in_month = _select_month_of_dates(ctx, rel, value)
        if in_month is not None:
            return in_month
    if isinstance(value, Bound):
        if value.ids and _other_place(ctx, value):
            ranked = _select_ordinal_word(ctx, rel, value.text, value.labels[0])
            if ranked:
                return ranked
        if not value.ids:
            ranked = _select_ordinal_word(ctx, rel, value.text)
            if ranked is not None:
                return ranked
            spanned = _select_span(ctx, rel, value.text)
            if spanned is not None:
                return spanned
            ctx.notes.append(
                f"{value.text!r} matched no value of {rel_name(ctx, rel)!r} closely enough"
            )
        coded = _select_leading_code(ctx, rel, value)
        if coded is not None:
            return coded
        dated = _select_year_of_dates(ctx, rel, value)
        if dated is not None:
            return dated
        return _select_nodes(ctx, rel, np.asarray(value.ids, dtype=np.int64), {})
    if isinstance(value, Text):
        node = g.entity(value.value)
        number = parse_number(value.value)
        facts = g.facts_rel_tail(rel, node) if node is not None else EMPTY
        if number is not None:
            facts = np.union1d(facts, g.facts_rel_cmp(rel, "=", number))
        if not len(facts):
            spanned = _select_span(ctx, rel, value.value)
            if spanned is not None:
                return spanned
        return distinct_heads(g, g.heads_of(facts), facts)
    if isinstance(value, Ref) and value.step in ctx.by_count:
        ctx.frequent[ctx.step] = rel  # the rows of the group with the most / fewest rows
    source = _first_if_sorted(ctx, value, resolve_set(ctx, value))
    rows = [e for e in source.elems if not isinstance(e, Scalar) and g.is_row(e)]
    if rows and len(rows) == len(source):
        ctx.notes.append(
            f"the earlier result holds rows, not values of {rel_name(ctx, rel)!r}: "
            f"read {rel_name(ctx, rel)!r} of those rows instead"
        )
        return project(ctx, rel, source)
    nodes = np.asarray(source.nodes(), dtype=np.int64)
    result = _select_nodes(ctx, rel, nodes, witness_map(source))
    numbers = {
        x for e in source.elems if isinstance(e, Scalar) and (x := numeric(g, e)) is not None
    }
    if numbers:
        facts = np.concatenate([g.facts_rel_cmp(rel, "=", x) for x in numbers])
        extra = distinct_heads(g, g.heads_of(facts), facts)
        result = union([result, extra])
    if not result:
        back = _computed_from(ctx, rel, source)
        if back is not None:
            return back
    return result


def _without_placeholders(ctx: Context, rel: int, facts: np.ndarray, value: object
                          ) -> np.ndarray:
    """``facts`` without the cells that hold no value (``Unknown``, ``N/A``, ``—``): a
    capacity "other than 600" is a capacity known to differ, noted; unchanged when the
    compared literal itself means no value, or no cell is a placeholder."""
    g = ctx.graph
    text = value.text if isinstance(value, Bound) else value.value if isinstance(value, Text) \
        else None
    if text is not None and _is_no_value(text):
        return facts
    blank = np.array([_is_no_value(t) for t in g.labels(g.tails_of(facts))], dtype=bool)
    if not blank.any():
        return facts
    ctx.notes.append(f"'!=' leaves out the {int(blank.sum())} cell(s) of {rel_name(ctx, rel)!r}"
                     " that hold no value ("
                     + ", ".join(sorted({repr(t) for t in g.labels(g.tails_of(facts[blank]))})[:3])
                     + ")")
    return facts[~blank]


_SPAN = re.compile(r"^\s*(1\d{3}|20\d{2})\s*[-–—/]\s*(\d{4}|\d{2})\s*$")


def year_span(text: str) -> tuple[int, int] | None:
    """``(first, last)`` year of a span written ``2006-2007``, ``2006–07`` or ``1996/97``;
    ``None`` for anything else.

    >>> year_span("2006-2007"), year_span("2006–07"), year_span("1999/00"), year_span("2006")
    ((2006, 2007), (2006, 2007), (1999, 2000), None)
    """
    m = _SPAN.match(text)
    if m is None:
        return None
    first, end = int(m.group(1)), m.group(2)
    last = int(end) if len(end) == 4 else first // 100 * 100 + int(end)
    if last < first:
        last += 100
    return (first, last) if last - first <= 100 else None


def _select_span(ctx: Context, rel: int, text: str) -> Result | None:
    """A span of years (``'2006-2007'``) that is no value of the column: the rows whose value
    writes the same span another way (``2006-07``, ``2006–07``), noted; ``None`` when the
    literal is no span or no value writes it."""
    wanted = year_span(text)
    if wanted is None:
        return None
    g = ctx.graph
    facts = np.sort(g.facts_rel(rel))
    hit = np.array([year_span(t) == wanted for t in g.labels(g.tails_of(facts))], dtype=bool)
    if not hit.any():
        return None
    keep = facts[hit]
    ctx.notes.append(f"{text.strip()!r} is the span {wanted[0]}–{wanted[1]}: matched "
                     f"{g.label(g.tail_of(keep[0]))!r}, the same span written another way")
    return distinct_heads(g, g.heads_of(keep), keep)


def _is_row_elem(ctx: Context, e: Elem) -> bool:
    return not isinstance(e, Scalar) and ctx.graph.is_row(int(e))


def _computed_from(ctx: Context, rel: int, source: Result) -> Result | None:
    """Values computed each from one cell of ``rel`` (``duration`` of ``Career`` =
    ``1965–76`` gives ``11 years``), matched against that column, where no value equals them:
    the rows of the cells they were computed from (their witnesses), noted; ``None`` when a
    computed value has no witness in the column, or was computed from several of its cells
    (a mean)."""
    g = ctx.graph
    own: list[int] = []
    for e, w in zip(source.elems, source.witnesses, strict=True):
        if not isinstance(e, Scalar) or not w:
            return None
        arr = np.asarray(w, dtype=np.int64)
        in_rel = arr[g.rels_of(arr) == rel]
        if len(in_rel) != 1:  # none, or an aggregate of several cells
            return None
        own.append(int(in_rel[0]))
    if not own:
        return None
    keep = np.asarray(sorted(set(own)), dtype=np.int64)
    shown = ", ".join(repr(t) for t in g.labels(g.tails_of(keep[:3])))
    ctx.notes.append(f"the earlier result holds values computed from {rel_name(ctx, rel)!r} "
                     f"cells, not values of it: matched the {len(keep)} cell(s) they were "
                     f"computed from ({shown})")
    return distinct_heads(g, g.heads_of(keep), keep)


# a code of one or two letters leading a value: ``W`` in ``W 13–7``, ``L`` in ``L 8-21 OT``
_LEADING_CODE = re.compile(r"^([a-z]{1,2})(?=[\s\d(–-])")


def _select_leading_code(ctx: Context, rel: int, value: Bound) -> Result | None:
    """A literal of one or two letters (``tail_entity='W'``) that is no value of the column
    but leads the value it was matched to (``W 13–7``) stands for every value it leads; the
    mapper's single closest value would be one of them. ``None`` when that does not apply."""
    code = value.text.strip().casefold()
    code = code[:-1] if code.endswith("%") else code  # 'W%': a LIKE pattern of the code
    if not value.ids or not re.fullmatch(r"[a-z]{1,2}", code):
        return None
    g = ctx.graph
    labels = [g.label(i).strip().casefold() for i in value.ids]
    if code in labels or not all((m := _LEADING_CODE.match(t)) and m.group(1) == code
                                 for t in labels):
        return None
    facts = np.sort(g.facts_rel(rel))
    tails = [g.label(t).strip().casefold() for t in g.tails_of(facts)]
    hits = np.array([bool((m := _LEADING_CODE.match(t)) and m.group(1) == code) for t in tails],
                    dtype=bool)
    keep = facts[hits]
    ctx.notes.append(f"{value.text!r} is a code leading values of {rel_name(ctx, rel)!r} "
                     f"(such as {g.label(value.ids[0])!r}): matched the {int(hits.sum())} "
                     "value(s) it leads")
    return distinct_heads(g, g.heads_of(keep), keep)


def like_pattern(text: str) -> tuple[str, str] | None:
    """A SQL LIKE pattern written as a value: ``('contains', 'duke')`` for ``'%Duke%'``,
    ``('starts', ...)`` for ``'Duke%'``, ``('ends', ...)`` for ``'%Duke'``; ``None`` for a
    value without a ``%`` at an end, a number (``'60%'``), or a code of one or two letters
    with a ``%`` after it (``'W%'``: the leading-code rule reads those).

    >>> like_pattern("%Duke%"), like_pattern("60%"), like_pattern("W%")
    (('contains', 'duke'), None, None)
    """
    t = text.strip()
    if len(t) < 2 or "%" not in (t[0], t[-1]) or parse_quantity(t) is not None:
        return None
    core = normalize(t.strip("%"))
    if not core or not any(ch.isalnum() for ch in core):
        return None
    if t[0] == "%" and t[-1] == "%":
        return "contains", core
    if t[-1] == "%":
        return None if re.fullmatch(r"[a-z]{1,2}", core) else ("starts", core)
    return "ends", core


def _select_like(ctx: Context, rel: int, text: str) -> Result | None:
    """Rows whose value matches a LIKE pattern (:func:`like_pattern`; the parser writes
    ``tail_entity~='Duke'`` as ``'%Duke%'``), compared once normalised, noted; ``None`` when
    the value is no pattern or nothing matches it."""
    pattern = like_pattern(text)
    if pattern is None:
        return None
    how, core = pattern
    test = {"contains": lambda v: core in v, "starts": lambda v: v.startswith(core),
            "ends": lambda v: v.endswith(core)}[how]
    g = ctx.graph
    facts = np.sort(g.facts_rel(rel))
    hits = np.array([test(normalize(t)) for t in g.labels(g.tails_of(facts))], dtype=bool)
    if not hits.any():
        return None
    keep = facts[hits]
    word = {"contains": "containing", "starts": "starting with", "ends": "ending with"}[how]
    ctx.notes.append(f"{text.strip()!r} is a pattern: the {len(keep)} value(s) of "
                     f"{rel_name(ctx, rel)!r} {word} {core!r}")
    return distinct_heads(g, g.heads_of(keep), keep)


def _rows_holding_value(ctx: Context, rel: int, text: str) -> Result | None:
    """``get_information(relation='row_number', tail_entity='Belgium')``: a row number
    written as a value that is no number asks for the row number(s) of the rows holding that
    value in any column (equal once normalised), witnessed by the cell, noted; ``None`` for
    other relations, numbers, or a value no row holds."""
    g = ctx.graph
    if normalize(g.relation_names[rel]) != "row number" or parse_quantity(text) is not None \
            or text.strip().lower() in _ORDINAL_WORDS:  # '1st', 'first': a place, not a value
        return None
    nodes = g.entity_pool().normalized(text)
    if not nodes:
        return None
    facts = np.concatenate([g.facts_tail(int(n)) for n in nodes])
    heads = g.heads_of(facts)
    rows = np.array([g.is_row(int(h)) for h in heads.tolist()], dtype=bool)
    if not rows.any():
        return None
    held = distinct_heads(g, heads[rows], facts[rows])
    ctx.notes.append(f"{text!r} is no row number: read as the row number(s) of the "
                     f"{len(held)} row(s) holding {text!r}")
    return project(ctx, rel, held)


# literals that say "no value": ``tail_entity='n/a'``, ``'none'``, ``'-'``
_NO_VALUE_WORDS = frozenset({"n/a", "na", "n a", "none", "null", "nil", "empty", "blank",
                             "no value", "not listed", "unknown"})
# cells that hold no value: dashes (``----``, ``—``), ``n/a``, ``none``, nothing
_PLACEHOLDER = re.compile(r"^[\s\-–—−_.?]*$")


def _is_no_value(text: str) -> bool:
    t = text.strip().casefold()
    return t in _NO_VALUE_WORDS or bool(_PLACEHOLDER.match(t))


def _select_no_value(ctx: Context, rel: int, text: str) -> Result | None:
    """A literal meaning "no value" (``'n/a'``, ``'none'``, ``'-'``) that matched no value:
    the rows whose cell in the column is a placeholder (``----``, ``—``, ``n/a``), noted;
    ``None`` for other literals or when no cell is a placeholder."""
    if not _is_no_value(text):
        return None
    g = ctx.graph
    facts = np.sort(g.facts_rel(rel))
    hits = np.array([_is_no_value(t) for t in g.labels(g.tails_of(facts))], dtype=bool)
    if not hits.any():
        return None
    keep = facts[hits]
    shown = ", ".join(sorted({repr(t) for t in g.labels(g.tails_of(keep))})[:3])
    ctx.notes.append(f"{text.strip()!r} means no value: the {len(keep)} cell(s) of "
                     f"{rel_name(ctx, rel)!r} that hold none ({shown})")
    return distinct_heads(g, g.heads_of(keep), keep)


def _select_year_of_dates(ctx: Context, rel: int, value: Bound) -> Result | None:
    """A bare year (``tail_entity='1917'``) that is no value of a column of dates stands for
    every value holding that year (``14 June 1917``, ``7 November 1917 circa 1615 hours``);
    the mapper's closest value would be one of them. Noted; ``None`` unless the literal is a
    year, the value it was matched to holds it, and most values of the column hold a year."""
    text = value.text.strip()
    if not re.fullmatch(r"1\d{3}|20\d{2}", text) or not value.ids:
        return None
    g = ctx.graph
    year = re.compile(rf"(?<!\d){text}(?!\d)")
    mapped = [g.label(i) for i in value.ids]
    if any(normalize(t) == text for t in mapped) or not all(year.search(t) for t in mapped):
        return None
    facts = np.sort(g.facts_rel(rel))
    labels = g.labels(g.tails_of(facts))
    if not _mostly(sum(bool(_ANY_YEAR.search(t)) for t in labels), len(labels)):
        return None
    keep = facts[np.array([bool(year.search(t)) for t in labels], dtype=bool)]
    ctx.notes.append(f"{text!r} is a year and the values of {rel_name(ctx, rel)!r} are dated: "
                     f"matched the {len(keep)} value(s) in {text}")
    return distinct_heads(g, g.heads_of(keep), keep)


_ANY_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")
_MONTH_YEAR = re.compile(r"^\s*(?P<month>[A-Za-z]{3,9})\.?,?\s+(?P<year>1\d{3}|20\d{2})\s*$")


def month_literal(text: str) -> tuple[int, int | None] | None:
    """``(month, year)`` of a literal naming a month (``'July'``, ``'March 1982'``), the year
    ``None`` when not given; ``None`` for anything else (a day, a word that is no month).

    >>> month_literal("July"), month_literal("march 1982"), month_literal("Sept. 2001")
    ((7, None), (3, 1982), (9, 2001))
    >>> month_literal("July 6") is None, month_literal("Mayor 1982") is None
    (True, True)
    """
    m = _MONTH_YEAR.match(text)
    if m is not None:
        month = parse_month_day(m.group("month"))
        return (month[0], int(m.group("year"))) if month and month[1] is None else None
    month_day = parse_month_day(text)
    return (month_day[0], None) if month_day and month_day[1] is None else None


def _select_month_of_dates(ctx: Context, rel: int, value: Bound | Text) -> Result | None:
    """A month (``tail_entity='July'``, ``'March 1982'``) that is no value of a column of
    dates (``July 6``, ``March 21, 1982``) stands for every date in that month (of that year,
    when given); the mapper's closest value would be one of them. Noted; ``None`` unless the
    literal is a month, no value of the column is written as it, most values are dates and
    some fall in the month."""
    text = value.text if isinstance(value, Bound) else value.value
    wanted = month_literal(text)
    if wanted is None:
        return None
    g = ctx.graph
    facts, vals, how = g.quantity_index(rel)
    labels = g.labels(g.tails_of(facts))
    if any(normalize(t) == normalize(text) for t in labels):
        return None
    month, year = wanted
    # (month, year) of each value: a date, or a day of a month without a year (``June 2``)
    read = [(int(v // 100) % 100, int(v // 10000)) if h == "date"
            else ((md[0], None) if (md := parse_month_day(t)) is not None else None)
            for t, v, h in zip(labels, vals.tolist(), how.tolist(), strict=True)]
    if not len(facts) or not _mostly(sum(r is not None for r in read), len(facts)):
        return None
    hit = np.array([r is not None and r[0] == month and (year is None or r[1] == year)
                    for r in read], dtype=bool)
    if not hit.any():
        return None
    keep = facts[hit]
    ctx.notes.append(f"{text.strip()!r} is a month and the values of {rel_name(ctx, rel)!r} "
                     f"are dates: matched the {len(keep)} date(s) in {text.strip()}")
    return distinct_heads(g, g.heads_of(keep), keep)


# a place written as a word (``tail_entity='first'`` on a Rank column of 1, 2, 3 or 1st, 2nd)
_ORDINAL_WORDS = {"first": 1, "top": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
                  "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10}


def _other_place(ctx: Context, value: Bound) -> bool:
    """An ordinal word (``'third'``) the mapper matched to cells that are another place
    (``6th``): a near spelling, not the same place."""
    n = _ORDINAL_WORDS.get(value.text.strip().lower())
    if n is None:
        return False
    places = [parse_quantity(label) for label in value.labels]
    return all(p is not None and p[1] in ("ordinal", "number") and p[0] != n for p in places)


def _select_ordinal_word(ctx: Context, rel: int, text: str, other: str = "") -> Result | None:
    """Rows whose value is place n, for a literal ordinal word that matched no value (or
    only another place, :func:`_other_place`), when the column's values are mostly places
    (numbers or ordinals); else ``None``."""
    n = _ORDINAL_WORDS.get(text.strip().lower())
    if n is None:
        return None
    g = ctx.graph
    facts, vals, how = g.quantity_index(rel)
    places = (how == "number") | (how == "ordinal")
    if not len(facts) or places.sum() < 0.9 * len(facts):
        return None
    keep = facts[places & (vals == n)]
    matched = f"only {other!r}, another place," if other else "no value"
    ctx.notes.append(f"{text!r} matched {matched} of {rel_name(ctx, rel)!r}: read as place {n}")
    return distinct_heads(g, g.heads_of(keep), keep)


def _first_if_sorted(ctx: Context, value: object, source: Result) -> Result:
    """A sorted result (``sort``) used as the value to match: its first element, noted."""
    if not isinstance(value, Ref) or value.step not in ctx.ordered or len(source) < 2:
        return source
    ctx.notes.append(
        f"output_of_query{value.step} is a sorted list used as the value to match: its first "
        f"element, {elem_text(ctx.graph, source.elems[0])!r}"
    )
    return Result((source.elems[0],), (source.witnesses[0],))


def _select_nodes(
    ctx: Context, rel: int, nodes: np.ndarray, base: dict[int, tuple[int, ...]]
) -> Result:
    g = ctx.graph
    facts = g.facts_rel_tails(rel, nodes)
    numbers = {x for n in nodes.tolist() if (x := g.numeric(n)) is not None}
    if numbers:  # "1" also matches "1.0" and "01"
        extra = [g.facts_rel_cmp(rel, "=", x) for x in numbers]
        facts = np.union1d(facts, np.concatenate(extra)) if extra else facts
    tails = g.tails_of(facts)
    wit: dict[int, tuple[int, ...]] = {}
    if base:
        heads = g.heads_of(facts).tolist()  # one batch read, not one per fact
        for t, h in zip(tails.tolist(), heads, strict=True):
            wit.setdefault(h, base.get(t, ()))
    return distinct_heads(g, g.heads_of(facts), facts, wit or None)


def _select_cmp(ctx: Context, rel: int, cmp: str, value: object) -> Result:
    """Numeric comparison through the sorted index; values that are not plain numbers are read
    loosely (units, durations, dates) when that reads more of them, with a note."""
    g = ctx.graph
    thresholds = _thresholds(ctx, value)
    n_numeric, n_all = g.numeric_fact_count(rel), len(g.facts_rel(rel))
    if thresholds is not None and n_numeric >= 0.9 * n_all:
        facts = np.concatenate([g.facts_rel_cmp(rel, cmp, x) for x in thresholds] or [EMPTY])
        if n_numeric < n_all:
            ctx.notes.append(
                f"{n_all - n_numeric} non-numeric value(s) of "
                f"{rel_name(ctx, rel)!r} were not compared"
            )
        facts = np.unique(facts)  # heads and facts aligned (each head its own fact)
        return distinct_heads(g, g.heads_of(facts), facts)
    loose = _loose_thresholds(ctx, value)
    if loose is not None and thresholds is not None and len(thresholds) == 1 \
            and not _mostly_quantities(ctx, rel):
        scored = _select_scores(ctx, rel, cmp, thresholds[0])  # '36–8 (N/A)': not a quantity
        if scored is not None:
            return scored
    if loose is not None:
        result = _select_cmp_loose(ctx, rel, cmp, loose, n_numeric)
        if result is not None:
            return result
    if thresholds is not None and n_numeric:
        facts = np.concatenate([g.facts_rel_cmp(rel, cmp, x) for x in thresholds] or [EMPTY])
        ctx.notes.append(
            f"{n_all - n_numeric} non-numeric value(s) of {rel_name(ctx, rel)!r} were not compared"
        )
        facts = np.unique(facts)  # heads and facts aligned (each head its own fact)
        return distinct_heads(g, g.heads_of(facts), facts)
    if thresholds is not None and len(thresholds) == 1:
        scored = _select_scores(ctx, rel, cmp, thresholds[0])
        if scored is not None:
            return scored
    if isinstance(value, Text) and (month_day := parse_month_day(value.value)) is not None:
        dated = _select_yearless(ctx, rel, cmp, month_day)
        if dated is not None:
            return dated
    matched = _select_text_match(ctx, rel, cmp, value, n_numeric, n_all)
    if matched is not None:
        return matched
    return _llm_compare(ctx, rel, cmp, value)


def _word_pattern(text: str) -> re.Pattern[str] | None:
    """``text`` (normalised) as a whole-word pattern, or ``None`` when it has no word."""
    words = normalize(text)
    return re.compile(rf"(?<!\w){re.escape(words)}(?!\w)") if words else None


def _select_text_match(
    ctx: Context, rel: int, cmp: str, value: object, n_numeric: int, n_all: int
) -> Result | None:
    """A word compared with a column of words (``tail_entity>='Mexico City'``,
    ``tail_entity>'SWAT'``, ``tail_entity>='W'`` over ``W 13–7``): text has no order, so the
    comparison reads as a match -- the values holding the literal as a whole word -- noted;
    ``None`` when the literal reads as a quantity, the column is mostly numbers, a strict
    ``>`` / ``<`` has a literal that is itself a value (``Note > 'bad'`` orders the values),
    or no value holds it (the LLM fallback judges those)."""
    text = value.text if isinstance(value, Bound) else value.value if isinstance(value, Text) \
        else None
    if text is None or parse_quantity(text) is not None or 2 * n_numeric >= n_all:
        return None
    pattern = _word_pattern(text)
    if pattern is None:
        return None
    g = ctx.graph
    facts = np.sort(g.facts_rel(rel))
    labels = g.labels(g.tails_of(facts))
    folded = [normalize(t) for t in labels]
    if cmp in (">", "<") and normalize(text) in folded:  # '> bad' orders values: the fallback
        return None
    hits = np.array([bool(pattern.search(t)) for t in folded], dtype=bool)
    if not hits.any():
        return None
    keep = facts[hits]
    ctx.notes.append(
        f"{text!r} is not a number and the values of {rel_name(ctx, rel)!r} are words: "
        f"'{cmp}' read as a match, the values holding {text!r} as a word "
        f"({int(hits.sum())} value(s))"
    )
    return distinct_heads(g, g.heads_of(keep), keep)


_OPS = {">": np.greater, "<": np.less, ">=": np.greater_equal, "<=": np.less_equal}


def _mostly(part: int, whole: int) -> bool:
    """At least 90% of the values (the share the numeric comparison asks for, too)."""
    return whole > 0 and part >= 0.9 * whole


def _mostly_quantities(ctx: Context, rel: int) -> bool:
    """True when most values of ``rel`` read as quantities (numbers, dates, times, ...)."""
    _, vals, _ = ctx.graph.quantity_index(rel)
    return _mostly(int((~np.isnan(vals)).sum()), len(vals))


def _select_scores(ctx: Context, rel: int, cmp: str, threshold: float) -> Result | None:
    """A number compared with a column of scores (``7–1``): each score reads as the one
    number the question asks for (:func:`~trustuqa_core.numbers.read_score`); ``None`` when
    the column is not made of scores."""
    g = ctx.graph
    facts = np.sort(g.facts_rel(rel))
    labels = g.labels(g.tails_of(facts))
    reads = [read_score(t, ctx.question) for t in labels]
    n_read = sum(r is not None for r in reads)
    if not _mostly(n_read, len(reads)):
        return None
    vals = np.array([np.nan if r is None else r[0] for r in reads])
    keep = facts[_OPS[cmp](vals, threshold)]
    how = next(r[1] for r in reads if r is not None)
    ctx.notes.append(
        f"values of {rel_name(ctx, rel)!r} are scores, each read as {how}"
        + (f"; {len(reads) - n_read} value(s) are not scores" if n_read < len(reads) else "")
    )
    return distinct_heads(g, g.heads_of(keep), keep)


def _select_yearless(
    ctx: Context, rel: int, cmp: str, month_day: tuple[int, int | None]
) -> Result | None:
    """A date without a year (``'September 6'``) or a month (``'September'``) compared with a
    column of dates: by month and day (or month) alone; ``None`` when the column is not dates."""
    g = ctx.graph
    facts, vals, how = g.quantity_index(rel)
    dates = how == "date"
    if not _mostly(int(dates.sum()), len(facts)):
        return None
    month, day = month_day
    ymd = np.where(dates, vals, np.nan)
    if day is None:
        key, threshold, what = (ymd // 100) % 100, float(month), "month"
    else:
        key, threshold, what = ymd % 10000, float(month * 100 + day), "month and day"
    keep = facts[_OPS[cmp](key, threshold)]
    ctx.notes.append(
        f"the value has no year: dates of {rel_name(ctx, rel)!r} compared by {what} only"
        + (f"; {int((~dates).sum())} value(s) are not dates" if not dates.all() else "")
    )
    return distinct_heads(g, g.heads_of(keep), keep)


def _loose_thresholds(ctx: Context, value: object) -> list[tuple[float, str]] | None:
    g = ctx.graph
    if isinstance(value, Text):
        q = parse_quantity(value.value)
        return None if q is None else [q]
    elems = (
        Result.of(value.ids).elems
        if isinstance(value, Bound)
        else (resolve_set(ctx, value).distinct().elems)
    )
    qs = [quantity(g, e) for e in elems]
    return None if not qs or None in qs else [q for q in qs if q is not None]


def _select_cmp_loose(
    ctx: Context, rel: int, cmp: str, thresholds: list[tuple[float, str]], n_numeric: int
) -> Result | None:
    """Compare values read loosely (units, durations, dates); None when that reads no more
    values than the plain numbers or mixes kinds of reading."""
    g = ctx.graph
    facts, vals, how_read = g.quantity_index(rel)
    kinds = set(how_read.tolist()) - {""} | {h for _, h in thresholds}
    n_read = int((~np.isnan(vals)).sum())
    if n_read <= n_numeric and thresholds[0][1] == "number" or len(kinds - {"number"}) > 1:
        return None
    ops = {">": np.greater, "<": np.less, ">=": np.greater_equal, "<=": np.less_equal}
    if "date" in kinds:
        thresholds = [_year_as_date(ctx, x, k, cmp) for x, k in thresholds]
    if kinds == {"duration"}:
        thresholds = [_hours_minutes(ctx, rel, facts, x, k) for x, k in thresholds]
    mask = np.zeros(len(facts), dtype=bool)
    for x, _ in thresholds:
        mask |= ops[cmp](vals, x)
    how = ", ".join(sorted(kinds - {"number"})) or "numbers"
    ctx.notes.append(
        f"values of {rel_name(ctx, rel)!r} compared as {how}"
        + (
            f"; {int(np.isnan(vals).sum())} value(s) could not be read"
            if np.isnan(vals).any()
            else ""
        )
    )
    keep = facts[mask]
    return distinct_heads(g, g.heads_of(keep), keep)


_HMS = re.compile(r"^\s*\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\s*$")


def _hours_minutes(ctx: Context, rel: int, facts: np.ndarray, x: float, kind: str
                   ) -> tuple[float, str]:
    """A clock literal of two parts (``'2:20'``, read as 2 min 20 s) compared with a column
    whose times all have three (``2:14:25``, hours first): read as hours and minutes
    (2 h 20 min), noted; anything else unchanged."""
    if kind != "duration" or not len(facts):
        return x, kind
    labels = ctx.graph.labels(ctx.graph.tails_of(facts))
    if not all(_HMS.match(t) for t in labels if parse_quantity(t) is not None):
        return x, kind
    minutes, seconds = divmod(x, 60)
    if seconds != int(seconds) or x >= 3600:
        return x, kind
    hours = minutes * 3600 + seconds * 60
    ctx.notes.append(f"the times of {rel_name(ctx, rel)!r} are written hours:minutes:seconds: "
                     f"the literal {int(minutes)}:{int(seconds):02d} is read as "
                     f"{int(minutes)} h {int(seconds):02d} min")
    return float(hours), kind


def _year_as_date(ctx: Context, x: float, kind: str, cmp: str) -> tuple[float, str]:
    """A bare year compared with dates (read as yyyymmdd): its first day for ``<``/``>=``,
    its last day for ``>``/``<=`` (``before 1989`` is before 1 January 1989), noted."""
    if kind != "number" or not 1000 <= x <= 3000 or x != int(x):
        return x, kind
    day = int(x) * 10000 + (101 if cmp in ("<", ">=") else 1231)
    edge = "1 January" if cmp in ("<", ">=") else "31 December"
    ctx.notes.append(f"{int(x)} is a year: dates compared with {edge} {int(x)}")
    return float(day), "date"


def _thresholds(ctx: Context, value: object) -> list[float] | None:
    g = ctx.graph
    if isinstance(value, Text):
        x = parse_number(value.value)
        return None if x is None else [x]
    if isinstance(value, Bound):
        xs = [g.numeric(i) for i in value.ids]
        return None if not xs or None in xs else [x for x in xs if x is not None]
    source = resolve_set(ctx, value)
    xs = [numeric(g, e) for e in source.distinct().elems]
    if not xs or None in xs:
        return None
    return [x for x in xs if x is not None]


def _llm_compare(ctx: Context, rel: int, cmp: str, value: object) -> Result:
    g = ctx.graph
    shown = value.text if isinstance(value, Bound) else str(value)
    if ctx.fallback is None:
        raise ctx.fail(
            f"cannot compare {rel_name(ctx, rel)!r} {cmp} {shown!r}: not a number "
            "(an LLM fallback could judge it, but none is configured)"
        )
    tails = g.relation_tails(rel)
    labels = [g.label(t) for t in tails]
    req = FallbackRequest(
        "compare",
        ctx.step,
        ctx.call_text,
        ctx.description,
        {"relation": [rel_name(ctx, rel)]},
        labels,
        ctx.question,
        cmp,
        shown,
    )
    answer = ctx.fallback(req)
    ctx.fallback_notes.append(answer.note or "LLM-inferred comparison, not verified")
    if answer.values is None:
        raise ctx.fail(f"the LLM fallback could not compare {rel_name(ctx, rel)!r} {cmp} {shown!r}")
    chosen = np.array(
        [t for t, lab in zip(tails, labels, strict=True) if lab in set(answer.values)],
        dtype=np.int64,
    )
    facts = g.facts_rel_tails(rel, chosen)
    return distinct_heads(g, g.heads_of(facts), facts)


def op_select_frequent(ctx: Context, op: Op) -> Result:
    """Heads whose ``relation`` value is the most (or least) frequent value of that relation."""
    g, rel = ctx.graph, relation_param(ctx, op.param("relation"))
    values, counts = g.tail_counts(rel)
    if len(values) == 0:
        return Result.empty()
    best = counts.max() if op.param("which") == "most" else counts.min()
    chosen = values[counts == best]
    keep = np.sort(g.facts_rel_tails(rel, chosen))
    ctx.frequent[ctx.step] = rel
    ctx.notes.append(
        f"{op.param('which')} frequent value(s) of {rel_name(ctx, rel)!r}: "
        + ", ".join(repr(g.label(v)) for v in chosen[:5])
        + f" ({int(best)} times)"
    )
    return distinct_heads(g, g.heads_of(keep), keep)


def op_select_extreme(ctx: Context, op: Op) -> Result:
    """Heads whose ``relation`` value is the largest (``max``) or smallest (``min``) number.

    Values are read loosely (units, durations, dates) through the graph's cached quantity
    index; when most values are plain numbers, only plain numbers take part.
    """
    g, rel, which = ctx.graph, relation_param(ctx, op.param("relation")), op.param("which")
    facts, vals, how = g.quantity_index(rel)
    kinds = set(how.tolist()) - {""}
    if not kinds:
        raise ctx.fail(f"no value of {rel_name(ctx, rel)!r} is a number, so none is the {which}")
    if len(kinds) > 1 and (how == "number").sum() * 2 > len(how):
        vals = np.where(how == "number", vals, np.nan)
        kinds = {"number"}
    which = _rank_reading(ctx, rel, kinds, _quality(ctx, rel, kinds, which))
    vals = _without_summary_rows(ctx, rel, facts, vals)
    rank = op.param("rank", 1)
    distinct = np.unique(vals[~np.isnan(vals)])
    if not isinstance(rank, int) or rank > len(distinct):
        raise ctx.fail(f"{rel_name(ctx, rel)!r} has only {len(distinct)} distinct number(s)")
    best = distinct[-rank] if which == "max" else distinct[rank - 1]
    keep = facts[vals == best]
    place = "" if rank == 1 else f"number {rank} by distinct value: "
    ctx.notes.append(
        f"the {which} of {rel_name(ctx, rel)!r} is {place}{g.label(g.tail_of(keep[0]))!r}"
        + (f" (read as {', '.join(sorted(kinds))})" if kinds != {"number"} else "")
    )
    return distinct_heads(g, g.heads_of(keep), keep)


def op_select_row_end(ctx: Context, op: Op) -> Result:
    """The row that comes last (``which='last'``) or first in table order among the rows with
    a value of ``relation`` (``tail_entity>='last season'``), summary rows (a ``Total``
    cell) left out, noted. Not for places or ranks (a column named Rank, Place, Pos, ...)
    nor for a column of plain numbers, where "the last city for population" is the
    smallest value, not the last row: those stay with the comparison (and its LLM
    fallback) as before."""
    g, rel, which = ctx.graph, relation_param(ctx, op.param("relation")), op.param("which")
    name = rel_name(ctx, rel)
    facts = g.facts_rel(rel)
    plain = sum(parse_number(g.label(t)) is not None for t in g.tails_of(facts).tolist())
    if RANK_RELATION.match(name) or plain * 2 > len(facts):
        return op_select(ctx, Op("select", (("relation", op.param("relation")),
                                            ("value", op.param("value"))), op.cmp))
    heads = g.heads_of(facts).tolist()
    placed = [(pos, f, h) for f, h in zip(facts.tolist(), heads, strict=True)
              if g.is_row(h) and not is_summary_row(g, h)
              and (pos := g.row_position(h)) is not None]
    if not placed or len({p[0] for p, _, _ in placed}) != 1:
        raise ctx.fail(f"{which!r} of {name!r} needs the rows of one table")
    pos, fact, head = (max if which == "last" else min)(placed)
    ctx.notes.append(f"{which!r} over {name!r}: the {which} row in table order with a value, "
                     f"row {pos[1]} ({g.label(g.tail_of(fact))!r})")
    return distinct_heads(g, np.asarray([head], dtype=np.int64),
                          np.asarray([fact], dtype=np.int64))


def _without_summary_rows(ctx: Context, rel: int, facts: np.ndarray, vals: np.ndarray
                          ) -> np.ndarray:
    """``vals`` with the values of summary rows (a row holding a cell ``Total``) left out
    of an extreme (the largest number of silver medals is a nation's, not the total's),
    noted; unchanged when no row is one, or every row is."""
    g = ctx.graph
    summary = np.array([is_summary_row(g, int(h)) for h in g.heads_of(facts).tolist()],
                       dtype=bool)
    if not summary.any() or summary.all() or np.isnan(vals[~summary]).all():
        return vals
    ctx.notes.append(f"{int(summary.sum())} summary row(s) (a 'Total' cell) left out of the "
                     f"extreme of {rel_name(ctx, rel)!r}")
    return np.where(summary, np.nan, vals)


def _quality(ctx: Context, rel: int, kinds: set[str], which: object) -> object:
    """``best`` / ``worst`` (``tail_entity>='best'``): over places, ranks or times the best is
    the smallest number, over other numbers the largest (noted); other values unchanged."""
    if which not in ("best", "worst"):
        return which
    small = kinds <= {"ordinal", "duration"} or bool(RANK_RELATION.match(rel_name(ctx, rel)))
    best = "min" if small else "max"
    chosen = best if which == "best" else ("max" if best == "min" else "min")
    ctx.notes.append(f"{which!r} over {rel_name(ctx, rel)!r} "
                     f"({'places, ranks or times' if small else 'numbers'}): the "
                     f"{'smallest' if chosen == 'min' else 'largest'} value")
    return chosen


def _rank_reading(ctx: Context, rel: int, kinds: set[str], which: object) -> object:
    """Over places or ranks (values that are ordinals, or a column named Rank, Place, Pos,
    ...), the question's rank word decides the extreme: "highest" / "best" / "top" place is
    the smallest number, "lowest" / "last" the largest (noted when it overrides the query's
    literal); elsewhere ``which`` unchanged."""
    word = rank_direction(ctx.question)
    if word is None or which not in ("max", "min") or not (
            kinds == {"ordinal"} or RANK_RELATION.match(rel_name(ctx, rel))):
        return which
    wanted = "min" if word[1] == "<" else "max"
    if wanted != which:
        ctx.notes.append(f"the values of {rel_name(ctx, rel)!r} are places or ranks: "
                         f"{word[0]!r} asks for the {'smallest' if wanted == 'min' else 'largest'}"
                         f" number, not the {which}")
    return wanted


def op_filter_heads(ctx: Context, op: Op) -> Result:
    """The given heads that also satisfy ``relation <cmp> value``."""
    heads = _cells_as_rows(ctx, resolve_set(ctx, op.param("heads")))
    selected = op_select(
        ctx,
        Op("select", (("relation", op.param("relation")), ("value", op.param("value"))), op.cmp),
    )
    return intersect([heads.distinct(), selected])


def _cells_as_rows(ctx: Context, heads: Result) -> Result:
    """Table cells given as heads (``head_entity='Robert Manzon'`` names a Driver cell, maybe a
    multi-value one) stand for the rows that hold them; rows and KG entities stay as they are."""
    g = ctx.graph
    elems: list = []
    wits: list[tuple[int, ...]] = []
    changed = 0
    for e, w in zip(heads.elems, heads.witnesses, strict=True):
        if isinstance(e, Scalar) or g.is_row(e) or len(g.facts_heads(np.asarray([e]))):
            elems.append(e)
            wits.append(w)
            continue
        for f in g.facts_tail(int(e)).tolist():
            row = g.head_of(f)
            if g.is_row(row):
                elems.append(row)
                wits.append((*w, f))
                changed += 1
    if changed:
        ctx.notes.append(f"the heads are table cells: read as the {changed} row(s) holding them")
    return Result(tuple(elems), tuple(wits)).distinct()


# ------------------------------------------------------------- projections
