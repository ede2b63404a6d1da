"""Schema linking for tables, the offline writer's heuristic: question words -> a table program.

Cell values found in the question become conditions (``get_information(relation=<column>,
tail_entity='<cell>')``), comparison cues (``more than 12 wins``) become ``>``/``<``
conditions, the column the question asks about becomes the selected column, and cue words
(``how many``, ``average``, ``highest``...) the aggregate. No network, no model.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Player,No.,School\\nAnn Lee,21,Duke\\nBo Ray,3,Iowa\\n"])
>>> plan = link_table("What school did player number 21 play for?", g)
>>> plan.select, plan.agg, [(c.column, c.cmp, c.value) for c in plan.conds]
('School', '', [('No.', '=', '21')])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..graph import ConditionGraph
from ..lexicon import pairs, word_map, word_set, words
from ..numbers import parse_number
from ..query.ast import CMPS, Arg, Call, Cmp, Program
from ..query.build import arg, call, get_information, program, ref
from ..text import stem
from .computed import Computed, computed_steps, link_computed
from .linking import (
    Cond,
    Table,
    comparison_column,
    comparison_fallback,
    find_comparisons,
    find_top_n,
    find_values,
    header_mentions,
    number_words,
    read_table,
    tokens,
)

__all__ = ["Cond", "TablePlan", "link_table", "plan_program", "tokens"]

_AGG_CUES = pairs("aggregate_cues")


@dataclass
class TablePlan:
    """What the linker understood, with the reasons (shown as the writer's explanation)."""

    select: str | None
    agg: str
    conds: list[Cond]
    source: str
    why: list[str] = field(default_factory=list)
    #: ("extreme", column) -- the rows whose column is highest/lowest (``agg``), then
    #: ``select`` of them; ("frequent", column) -- the rows holding the most/least frequent
    #: value of ``select``. None: ``agg`` applies to the selected values.
    ranking: tuple[str, str] | None = None
    #: (column, cell) of a summary row ("Total") left out of aggregates and rankings
    exclude: tuple[str, str] | None = None
    #: "next_row" / "previous_row": the row after/before the one the conditions find
    neighbour: str = ""
    #: a difference / yes-no comparison / duration of the rows' values (writers/computed.py)
    computed: Computed | None = None

    def explain(self) -> str:
        return "; ".join(self.why)




def link_table(question: str, graph: ConditionGraph, source: int | None = None) -> TablePlan:
    """The best plan over the graph's table sources (or the given one)."""
    indices = [source] if source is not None else [
        i for i, s in enumerate(graph.sources) if s.kind == "table"]
    plans = [_link_one(question, graph, i) for i in indices]
    if not plans:
        return TablePlan(None, "", [], "", ["no table among the sources"])
    return max(plans, key=lambda p: (len(p.conds), p.select is not None))


def _link_one(question: str, graph: ConditionGraph, index: int) -> TablePlan:
    table = read_table(graph, index)
    q = tokens(question)
    mentions = header_mentions(q, table.columns)
    conds = _conditions(q, question, table, mentions)
    covered = {i for c in conds for i in range(*c.span)}
    covered |= {i for m in mentions.values() if m[0] >= 1.0 for i in range(m[1], m[2])}
    agg = _aggregate([t if i not in covered else "_" for i, t in enumerate(q)])
    select = _select(q, mentions, conds, table, agg)
    if (agg == "count" and select is not None and table.numeric.get(select) and conds
            and not _years(table.ranges.get(select))
            and all(c.cmp == "=" and c.column != "row_number" for c in conds)
            and select in mentions and mentions[select][1] == _focus(q)):
        agg = ""  # "how many runs did Ted Tyler score": the number is in the Runs column
    ranking = _ranking(q, mentions, conds, table, select, agg)
    if agg not in ("count", "sum", "mean") and (choice := _choice(q, mentions, conds, table)):
        select, agg, compared = choice  # "who scored more points, X or Y?"
        ranking = ("extreme", compared)
    named = {i for m in mentions.values() for i in range(m[1], m[2])}  # "profit before tax"
    neighbour, cue = ("", "") if agg or ranking else _neighbour(q, conds, covered | named)
    if neighbour:
        anchor = conds[0].column
        if _asks_for(q, anchor, mentions) or select is None:
            select = anchor  # "what was the next single after X" reads the Single column
        elif cue not in ("next", "previous"):
            neighbour = ""  # "the record after the game against X" is that game's record
    if ranking is None and not neighbour and not agg and select is not None and (
            order := _order_word(q, covered)):
        agg, ranking = order, ("extreme", "row_number")  # "who won the first ..." -> row order
    exclude = _summary_row(table, conds) if (agg or ranking) else None
    computed = link_computed(question, conds, mentions, table)
    if computed is not None:
        agg, ranking, exclude, neighbour = "", None, None, ""
    plan = TablePlan(select, agg, conds, table.name, [], ranking, exclude, neighbour, computed)
    plan.why = _reasons(plan)
    return plan


def _conditions(q: list[str], question: str, table: Table,
                mentions: dict[str, tuple[float, int, int]]) -> list[Cond]:
    """Comparisons (``more than 12 wins``), cell values, and ``top N``, without overlaps."""
    conds: list[Cond] = []
    for cmp, number, pos, cue in find_comparisons(q, question):
        col = comparison_column(pos, cue, mentions, table, number)
        if col is None:
            col = comparison_fallback(number, " ".join(q[cue:pos]), table, mentions)
        if col is not None:
            conds.append(Cond(col, cmp, q[pos], (pos, pos + 1)))
    blocked = {c.span[0] for c in conds}
    conds += find_values(q, table, blocked, mentions)
    top = find_top_n(q)  # unless "top 3" is itself a cell value (an episode, a chart name)
    if top is not None and not ({i for c in conds for i in range(*c.span)}
                                & set(range(*top.span))):
        conds.append(top)
    return conds


def _asks_for(q: list[str], column: str, mentions: dict[str, tuple[float, int, int]],
              who_needs_people: bool = True) -> bool:
    """The question asks for this column: named where the question word points, or a
    synonym of it there, or a "who" question (about a column of people, unless
    ``who_needs_people`` is False)."""
    focus = _focus(q)
    at = q[focus] if 0 <= focus < len(q) else ""
    return (column in mentions and mentions[column][1] == focus) or bool(
        _FOCUS_SYNONYMS.get(at, set()) & set(tokens(column))) or (
        bool(q) and q[0] == "who" and (not who_needs_people
                                        or _hinted(column, _WH_HINTS["who"])))


def _reasons(plan: TablePlan) -> list[str]:
    """What the linker understood, in words (the offline writer's note)."""
    why = [f"table {plan.source}"]
    why += [f"condition {c.column} {c.cmp} {c.value!r} (question words {c.span[0]}-{c.span[1]})"
            for c in plan.conds]
    why.append(f"selected column {plan.select!r}" + (f", aggregate {plan.agg}" if plan.agg
                                                     else ""))
    if plan.ranking is not None and plan.ranking[0] == "extreme":
        why.append(f"the rows with the {plan.agg} {plan.ranking[1]!r}")
    elif plan.ranking is not None:
        why.append(f"the {'most' if plan.agg == 'max' else 'least'} frequent {plan.select!r}")
    if plan.exclude is not None:
        why.append(f"leaving out the summary row {plan.exclude[0]} = {plan.exclude[1]!r}")
    if plan.neighbour:
        why.append(f"then the {'next' if plan.neighbour == 'next_row' else 'previous'} row")
    if plan.computed is not None:
        why.append(f"computed: {plan.computed.kind}, {plan.computed.why}")
    return why


_NEXT = word_set("next_words")
_PREVIOUS = word_set("previous_words")


def _neighbour(q: list[str], conds: list[Cond], covered: set[int]) -> tuple[str, str]:
    """("next_row", cue) for "the next single after X" (one row named, no number after the
    cue), ("previous_row", cue) for "the album listed before X", else ("", "")."""
    if len(conds) != 1 or conds[0].cmp != "=":
        return "", ""
    for i, word in enumerate(q):
        if i in covered or word not in _NEXT | _PREVIOUS:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        if nxt and parse_number(nxt) is not None and (i + 1) not in covered:
            continue  # "after 2005" is a comparison
        return ("next_row" if word in _NEXT else "previous_row"), word
    return "", ""


_MORE = word_set("more_words")
_LESS = word_set("less_words")
_TIME_CHOICE = word_set("time_choice_words")


def _choice(q: list[str], mentions: dict[str, tuple[float, int, int]], conds: list[Cond],
            table: Table) -> tuple[str, str, str] | None:
    """A choice between named rows: (column naming them, max|min, column compared).

    ``who scored more points, Larry Johnson or Charlie Ward?`` -> ("Player", "max", "Points");
    ``which album was released later, A or B?`` compares a year column (or the row order).
    """
    if any(c.cmp != "=" for c in conds):
        return None
    counts = Counter(c.column for c in conds)
    named = next((c for c, n in counts.items() if n >= 2), None)
    words = set(q)
    agg = "max" if words & _MORE else "min" if words & _LESS else ""
    if named is None or not agg:
        return None
    compared = [c for c, m in mentions.items() if c not in counts and table.numeric.get(c)
                and m[0] >= 0.5]
    if compared:
        return named, agg, max(compared, key=lambda c: (mentions[c][0], -mentions[c][1]))
    if words & _TIME_CHOICE:
        years = [c for c in table.columns if c not in counts and _years(table.ranges.get(c))]
        return named, agg, years[0] if years else "row_number"
    return None


def _summary_row(table: Table, conds: list[Cond]) -> tuple[str, str] | None:
    """A "Total" row of the table (not one the question itself asks about)."""
    asked = {c.value for c in conds}
    for key in (("total",), ("totals",)):
        for column, label in table.cells.get(key, []):
            if label not in asked:
                return column, label
    return None


_FREQUENCY_WORDS = word_set("frequency_words")
_FIRST, _LAST = words("order_words")
_ORDER_NOUNS = word_set("order_nouns")


def _order_word(q: list[str], covered: set[int]) -> str:
    """"min" for a free-standing *first*, "max" for *last* (the table's row order), else "".

    >>> _order_word(tokens("who won the first championship?"), set())
    'min'
    >>> _order_word(tokens("what is his last name?"), set()), _order_word(["first", "5"], set())
    ('', '')
    """
    for i, word in enumerate(q):
        if word not in (_FIRST, _LAST) or i in covered:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        if nxt in _ORDER_NOUNS or nxt.isdigit() or nxt in number_words():
            continue
        return "min" if word == _FIRST else "max"
    return ""


def _ranking(q: list[str], mentions: dict[str, tuple[float, int, int]], conds: list[Cond],
             table: Table, select: str | None, agg: str) -> tuple[str, str] | None:
    """Does the question ask *which row* ranks first rather than for the extreme value?

    ``which nation won the most silver medals`` -> ("extreme", "Silver"): the asked-for column
    (Nation) is named where the question word points, and another, numeric, column is named.
    ``which nation has the most athletes`` (no such column) -> ("frequent", "Nation").
    """
    if agg not in ("max", "min") or select is None:
        return None
    if not _asks_for(q, select, mentions, who_needs_people=False):
        return None
    cond_cols = {c.column for c in conds}
    compared = [c for c, m in mentions.items() if c != select and c not in cond_cols
                and table.numeric.get(c) and m[0] >= 0.5]
    if compared:
        return "extreme", max(compared, key=lambda c: (mentions[c][0], -mentions[c][1]))
    if _FREQUENCY_WORDS & set(q) and not table.numeric.get(select):
        return "frequent", select
    return None


def _years(span: tuple[float, float] | None) -> bool:
    """A column of years ("how many years ..." counts them, it does not read one)."""
    return span is not None and span[0] >= 1000 and span[1] <= 2100


def _aggregate(q: list[str]) -> str:
    """The aggregate of the first cue in the question (``the highest number of`` -> max,
    ``how many ... highest`` -> count); at one position the longer cue wins."""
    text = " " + " ".join(q) + " "
    found = [(text.find(f" {cue} "), -len(cue), agg) for cue, agg in _AGG_CUES
             if f" {cue} " in text]
    return min(found)[2] if found else ""


_WH_HINTS = {wh: word_set(f"{wh}_columns") for wh in ("who", "when", "where")}
_WH_VERBS = word_map("wh_verbs")


def _select(q: list[str], mentions: dict[str, tuple[float, int, int]], conds: list[Cond],
            table: Table, agg: str) -> str | None:
    """The column asked for: a named column not used by a condition, else a column fitting
    the question word (who / when / where), else the first free column."""
    cond_cols = {c.column for c in conds}
    free = {c: m for c, m in mentions.items() if c not in cond_cols}
    focus, written = _focus(q), _focus(q, skip_modifiers=False)  # "first leg" is a column
    at_focus = {c: m for c, m in free.items() if m[1] == written} or {
        c: m for c, m in free.items() if m[1] == focus}
    if at_focus:
        return max(at_focus, key=lambda c: at_focus[c][0])
    if 0 <= focus < len(q) and q[focus] in _FOCUS_SYNONYMS:
        words = _FOCUS_SYNONYMS[q[focus]]
        named = [c for c in table.columns if c not in cond_cols and words & set(tokens(c))]
        if named:
            return named[0]
    full = {c: m for c, m in free.items() if m[0] >= 1.0}
    rest = [c for c in table.columns if c not in cond_cols]
    if full:
        plain = {c: m for c, m in full.items() if not set(tokens(c)) <= _CUE_WORDS}
        full = plain or full
        return max(full, key=lambda c: (full[c][0], -full[c][1]))
    hinted = _wh_column(q, rest)
    if hinted is not None:
        return hinted
    if free:
        return max(free, key=lambda c: (free[c][0], -free[c][1]))
    return rest[0] if rest else (table.columns[0] if table.columns else None)


#: the word a question asks for -> column-name words meaning the same thing
_FOCUS_SYNONYMS = {word: set(same.split()) for word, same in pairs("focus_synonyms")}

_CUE_WORDS = word_set("aggregate_column_words")


def _hinted(column: str, hints: frozenset[str]) -> bool:
    words = set(tokens(column))
    return bool(hints & (words | {stem(w) for w in words}))


_SKIP = word_set("focus_skip")
_MODIFIERS = word_set("focus_modifiers")
_FOCUS_WORDS = words("focus_words")


def _focus(q: list[str], skip_modifiers: bool = True) -> int:
    """Position of the word the question asks for (``what school ...`` -> ``school``)."""
    for i, w in enumerate(q[:3]):
        if w in _FOCUS_WORDS:
            j = i + 1
            while j < len(q) and (q[j] in _SKIP or skip_modifiers and q[j] in _MODIFIERS):
                j += 1
            return j
        if w == "how" and i + 1 < len(q) and q[i + 1] == "many":
            return i + 2
    return -1


def _wh_column(q: list[str], columns: Sequence[str]) -> str | None:
    words = set(q)
    verbs = {_WH_VERBS[w] for w in words if w in _WH_VERBS}
    for col in columns:
        if verbs & set(tokens(col)):
            return col
    for wh in ("who", "when", "where"):
        if wh in words:
            hints = _WH_HINTS[wh]
            for col in columns:
                if _hinted(col, hints):
                    return col
    return None


def plan_program(plan: TablePlan) -> Program | None:
    """The query program of a plan (None without a selected column)."""
    if plan.computed is not None:
        target, computed = computed_steps(plan.computed)
        return program(target, computed)
    if plan.select is None:
        return None
    steps: list[tuple[str, Call]] = []
    groups: dict[tuple[str, str], list[int]] = {}  # a row has one value per column: "=" on
    parts = []
    if plan.exclude is not None:
        column, label = plan.exclude
        steps += [(f"Find the summary row ({column} = {label})",
                   get_information(relation=column, tail_entity=label)),
                  ("Take every other row", call("set_negation", set=ref(1)))]
        parts.append(2)
    for c in plan.conds:                            # one column twice means either of them
        value = c.value.replace("\n", " ")
        steps.append((f"Find the rows whose {c.column} {c.cmp} {value}",
                      get_information(relation=c.column, tail_entity=value, cmp=_cmp(c.cmp))))
        key = (c.column, "=") if c.cmp == "=" else (c.column, f"{c.cmp}{len(steps)}")
        groups.setdefault(key, []).append(len(steps))
    for (column, _), numbers in groups.items():
        if len(numbers) > 1:
            steps.append((f"Keep the rows having any of these {column} values",
                          call("set_union", *_sets(numbers))))
            parts.append(len(steps))
        else:
            parts.append(numbers[0])
    if len(parts) > 1:
        steps.append(("Keep the rows found by every condition",
                      call("set_intersection", *_sets(parts))))
    if plan.neighbour and steps:
        which = "next" if plan.neighbour == "next_row" else "previous"
        steps.append((f"Take the {which} row", call(plan.neighbour, set=ref(len(steps)))))
    sel, rows = plan.select, len(steps)
    if plan.ranking is not None:
        return program(sel, steps + _ranking_steps(plan, rows))
    if plan.agg == "count" and rows:
        steps.append((f"Count output_of_query{rows}", call("count", set=ref(rows))))
        return program(f"number of {sel}", steps)
    read = (get_information(relation=sel, head_entity=ref(rows)) if rows
            else get_information(relation=sel))
    steps.append((f"Get the {sel} of the rows" if rows else f"Get every {sel}", read))
    if plan.agg:
        last = len(steps)
        steps.append((f"Apply {plan.agg} to output_of_query{last}",
                      call(plan.agg, set=ref(last))))
    return program(sel, steps)


def _sets(steps: Sequence[int]) -> list[Arg]:
    """``set1='output_of_query<a>', set2=...`` for the given steps."""
    return [arg(f"set{j}", ref(n)) for j, n in enumerate(steps, 1)]


def _cmp(text: str) -> Cmp:
    """A condition's comparison as the query language's :data:`Cmp`."""
    if text not in CMPS:
        raise ValueError(f"unknown comparison {text!r}")
    return text  # type: ignore[return-value]


def _ranking_steps(plan: TablePlan, rows: int) -> list[tuple[str, Call]]:
    """Steps after the condition steps (``rows`` of them) that pick the top-ranked rows and
    read the selected column of them."""
    kind, col = plan.ranking or ("", "")
    sel, word = plan.select or "", "highest" if plan.agg == "max" else "lowest"
    steps: list[tuple[str, Call]] = []
    if kind == "frequent":
        which = "most" if plan.agg == "max" else "least"
        steps.append((f"Find the rows holding the {which} frequent {sel}",
                      get_information(relation=sel, tail_entity=which)))
    elif not rows:
        cmp: Cmp = ">=" if plan.agg == "max" else "<="
        steps.append((f"Find the rows with the {word} {col}",
                      get_information(relation=col, tail_entity=word, cmp=cmp)))
    else:
        n = rows
        steps += [
            (f"Get the {col} of those rows", get_information(relation=col, head_entity=ref(n))),
            (f"Take the {word} of them", call(plan.agg, set=ref(n + 1))),
            (f"Find the rows with that {col}",
             get_information(relation=col, tail_entity=ref(n + 2))),
            ("Keep those among the rows found by the conditions",
             call("set_intersection", set1=ref(n), set2=ref(n + 3))),
        ]
    last = rows + len(steps)
    steps.append((f"Get the {sel} of those rows",
                  get_information(relation=sel, head_entity=ref(last))))
    return steps
