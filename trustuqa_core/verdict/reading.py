"""Readings of the trace and the question that several reason families share: cue
patterns, the literals a program binds, the texts and relation a step read, whether an
answer is a computed yes / no or a chosen option.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ..lexicon import word_set
from ..mapping.mapper import Mapping
from ..mentions import (
    expected_type,
)
from ..query.ast import Bound, ListValue, Program, Query, Text, Value
from ..reasoning.cues import PAIR_WORDS
from ..results import Scalar
from ..store import GraphStore
from ..text import normalize
from ..trace import Trace

COUNTED = re.compile(r"\b(?:how many|number of)\s+(?:the\s+)?([a-z][a-z0-9]*)", re.IGNORECASE)
ASKS_COUNT = re.compile(r"\bhow many\b|\b(?:total|the) number of\b", re.IGNORECASE)
#: functions (besides a comparison inside get_information) that compare with a bound
COMPARING = {"compare", "keep", "if_then_else", "if", "calculate"}
STRONG_METHODS = ("exact", "normalized", "numeric", "override", "time_key")


def names_column(graph: GraphStore, label: str) -> bool:
    """True when the column (relation) ``label`` exists and mostly holds non-numbers."""
    rel = graph.relation(label)
    if rel is None:
        return False
    facts = len(graph.facts_rel(rel))
    return bool(facts) and graph.numeric_fact_count(rel) * 2 <= facts


def chosen_literal(trace: Trace) -> bool:
    """The answer is one of the two options the question offers ("which run was faster,
    run 1 or run 2?"), chosen by an ``if_then_else`` between exactly those literals: the
    target type read no column for it. Not for two comparatives ("more or less than 3?",
    "before or after X?"), whose literal is the comparison's wording, not a named option."""
    program = trace.program
    if program is None or not program.queries or trace.final is None:
        return False
    last = program.queries[-1].call
    if last.func != "if_then_else" or not all(isinstance(e, Scalar) for e in trace.final.elems):
        return False
    options = [normalize(a.value.value) for a in last.args
               if a.name in ("then", "else") and isinstance(a.value, Text)]
    asked = f" {normalize(trace.question or '')} "
    if len(options) != 2 or not all(options) or PAIR_WORDS & set(options):
        return False
    return any(f" {x} or {y} " in asked for x, y in (options, options[::-1]))


def computed_yes_no(trace: Trace) -> bool:
    """The answer is a computed ``yes`` / ``no`` (``exists``, ``compare``): no column was
    read for it, so the target type (``yes or no``) shaped nothing."""
    final = trace.final
    return (final is not None and bool(final.elems)
            and all(isinstance(e, Scalar) and str(e.value).strip().lower() in YES_NO_ANSWERS
                    for e in final.elems))


def literals(program: Program | None, mappings: Iterable[Mapping] = ()) -> list[str]:
    """Every literal of a program as written, plus what its mappings chose."""
    out: list[str] = []
    if program is None:
        return out
    if program.target_type:
        out.append(program.target_type)

    def walk(v: Value) -> None:
        if isinstance(v, Text):
            out.append(v.value)
        elif isinstance(v, Bound):
            out.extend([v.text, *v.labels])
        elif isinstance(v, ListValue):
            for item in v.items:
                walk(item)

    for q in program.queries:
        for a in q.call.args:
            walk(a.value)
    for m in mappings:
        out += [m.text, *m.labels]
    return out


CHOICE_OR = re.compile(r"\bor\b(?!\s+(?:more|less|fewer|greater|higher|lower|above|below|"
                        r"later|earlier|older|newer|not|after|before|over|under)\b)", re.IGNORECASE)
_AROUND_OR = re.compile(r"([\w'-]+)\s+or\s+([\w'-]+)", re.IGNORECASE)
YES_NO_ANSWERS = {"yes", "no", "true", "false"}


def offers_choice(question: str, lits: Sequence[str]) -> bool:
    """True when the question offers options joined by 'or' that the query looks up one by
    one ("who was eliminated first, nikki dinki or viet pham?"): not a number question, and
    no single literal holds the 'or' (a column 'Borough or Census Area', a title)."""
    if CHOICE_OR.search(question) is None or expected_type(question) == "number":
        return False
    words = [{t for t in normalize(str(x)).split()} for x in lits]
    for m in _AROUND_OR.finditer(question):
        left, right = normalize(m.group(1)), normalize(m.group(2))
        if any(left in w and right in w for w in words):
            continue
        if any(left in w for w in words) and any(right in w for w in words):
            return True
    return False


def step_texts(trace: Trace, step: int) -> list[str]:
    """The values a step produced, as text."""
    found = next((s for s in trace.steps if s.number == step), None)
    if found is None:
        return []
    elems = found.output.elems
    nodes = [e for e in elems if not isinstance(e, Scalar)]
    names = dict(zip(nodes, trace.graph.labels(nodes), strict=True)) if nodes else {}
    return [e.text if isinstance(e, Scalar) else names[e] for e in elems]


LIST_SPLIT = re.compile(r"\s*(?:[,;/]|\\n|\n|\band\b|&)\s*")


def identifies_rows(graph: GraphStore, rel: int) -> bool:
    """True when the column ``rel`` numbers its rows: every row has a different value, or the
    numbers rise with the table's order, starting again at most once (a season's games, then
    its play-offs' 1, 2 ...), and (nearly: 90%) never repeat ('Game'; not 'Laps', sorted
    from the most down and repeated, nor 'Caps')."""
    facts = graph.facts_rel(rel)
    tails = graph.tails_of(facts).tolist()
    if len(set(tails)) == len(tails):
        return True
    placed = sorted((pos, graph.numeric(t)) for h, t in zip(graph.heads_of(facts).tolist(), tails,
                                                             strict=True)
                    if (pos := graph.row_position(h)) is not None)
    values = [v for _, v in placed if v is not None]
    falls = sum(b < a for a, b in zip(values, values[1:], strict=False))
    return len(values) > 1 and len(set(values)) >= 0.9 * len(values) and falls <= 1


MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
#: a calendar date with its day: "may 8th, 1993", "8 May 1993", "April 1"
CALENDAR = re.compile(r"\b(?:(?P<m1>" + MONTH + r")\.?\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?"
                       r"(?:,?\s+(?P<y1>\d{4}))?|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                       r"(?P<m2>" + MONTH + r")\.?(?:,?\s+(?P<y2>\d{4}))?)\b", re.IGNORECASE)
NEIGHBOURS = {"next_row", "previous_row"}
TIME_HEADER = re.compile(r"\b(?:year|years|date|dates|season|seasons)\b", re.IGNORECASE)
YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def relation_text(q: Query | None) -> str:
    arg = q.call.arg("relation") if q is not None else None
    return arg.value.value if arg is not None and isinstance(arg.value, Text) else ""


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


FUNCTION_WORDS = word_set("function_words")
YEAR_VALUE = re.compile(r"^\s*(1[5-9]\d\d|20[0-4]\d)\s*$")
