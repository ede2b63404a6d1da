"""Readings the question asks for explicitly and the query must perform: a comparison or
difference, a choice among named options, a position (above / below), a duration rather than
a date, a count of the target's value, a year bound read from another column, a top *n*
read as an equality (read off WTQ train's tune half, stop 16).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexicon import word_set, words
from ..mentions import (
    bounds,
    expected_type,
    is_filler,
)
from ..numbers import parse_number, parse_quantity
from ..query.ast import Bound, Program, Text
from ..results import Scalar
from ..store import LabelPool
from ..text import normalize
from ..trace import Trace
from ..translate.table import ROW_NUMBER
from ..verdict_record import Reason
from .ranking import extreme_from_bound, ranked_backwards
from .reading import (
    ASKS_COUNT,
    CALENDAR,
    CHOICE_OR,
    COMPARING,
    FUNCTION_WORDS,
    LIST_SPLIT,
    MONTH,
    NEIGHBOURS,
    TIME_HEADER,
    YEAR,
    YEAR_VALUE,
    YES_NO_ANSWERS,
    clip,
    identifies_rows,
)

_NUMBER_WORD_VALUES = {w: str(i) for i, w in enumerate(words("number_words"))}
_HOW_LONG = re.compile(r"\bhow\s+(?:long|old)\b", re.IGNORECASE)
#: "how long has it been since ...", "how long has X been ...": a span up to now
_SINCE = re.compile(r"\bsince\b|\bago\b|\b(?:has|have)\b.*\bbeen\b", re.IGNORECASE)


#: a span of years written as its ends ("1996–99", "2001-2005", "2010–present")
_YEAR_SPAN = re.compile(r"^\s*\d{4}\s*[-–—]\s*(?:\d{2}|\d{4}|present)\s*$", re.IGNORECASE)


def _duration_as_date(question: str, answer: Sequence[str]) -> list[Reason]:
    """'How long' / 'how old' answered by a date ("how long was Charlton in administration?"
    → *February 1984*) or, when the question counts up to now ("how long has it been since
    ...", "how long has X been ..."), by a bare year: the answer is when it started, not
    how long it lasted.

    >>> [r.code for r in _duration_as_date("how long has it been since it was founded?",
    ...                                    ["1912"])]
    ['duration_as_date']
    >>> _duration_as_date("how long is the bridge?", ["1912"])
    []
    >>> [r.code for r in _duration_as_date("how long was his career?", ["1996–99"])]
    ['duration_as_date']
    """
    if not answer or _HOW_LONG.search(question) is None:
        return []
    dated = all(CALENDAR.search(a) or (YEAR.search(a) and re.search(MONTH, a, re.IGNORECASE))
                for a in answer)
    yearly = all(YEAR_VALUE.match(a) for a in answer) and _SINCE.search(question) is not None
    spans = all(_YEAR_SPAN.match(a) for a in answer)  # "how long was his career?" 1996–99
    if not (dated or yearly or spans):
        return []
    return [Reason("duration_as_date", f"the question asks how long, and the answer "
                   f"({clip(', '.join(answer), 40)}) is a date: when it began, not how long "
                   "it lasted")]


#: "larger than Kilifi", "more votes than Bush": a comparison with a named row, not a number
_THAN = re.compile(r"\b(?!(?:other|rather|whether|further)\b)([a-z]+er|more|less|fewer)\s+"
                   r"(?:[a-z]+\s+){0,2}?than\s+(?:the\s+|a\s+|an\s+)?(?P<next>[\w$£€-]+)",
                   re.IGNORECASE)
_DIFFERENCE = re.compile(r"\bhow\s+(?:much|many)\s+(?:more|less|fewer|higher|lower|longer|"
                         r"shorter|bigger|smaller|older|younger|greater|larger|further|"
                         r"farther|later|earlier)\b|\bdifference\b", re.IGNORECASE)
#: functions that compare or compute between values (a comparison inside get_information
#: counts too)
_BETWEEN = COMPARING | {"subtract", "difference", "add", "max", "min", "argmax", "argmin",
                         "compare", "duration"}
#: functions that compute a difference (a max or a comparison picks, it does not subtract)
_COMPUTING = {"subtract", "difference", "add", "calculate", "duration"}


def called_functions(program: Program | None) -> set[str]:
    """The functions a program calls, plus ``compare`` when a ``get_information`` compares
    (``tail_entity>'1879'``).

    >>> from trustuqa_core.query.parse import parse
    >>> p = parse("Query1: \\"get_information(relation='Year', tail_entity>'1879')\\"")
    >>> sorted(called_functions(p))
    ['compare', 'get_information']
    """
    funcs = {q.call.func for q in program.queries} if program is not None else set()
    if program is not None and any(a.cmp != "=" for q in program.queries for a in q.call.args):
        funcs.add("compare")
    return funcs


def _comparison_unread(trace: Trace, question: str) -> list[Reason]:
    """The question compares with a named row ("name all the counties with an area larger
    than Kilifi") or asks for a difference ("how much higher was the attendance in week 15
    than in week 14?") and no step subtracts: it reads the named row's own value, or picks
    one row instead of computing how far apart they are.

    >>> _THAN.search("an area larger than kilifi")["next"], _THAN.search("other than x")
    ('kilifi', None)
    """
    funcs = called_functions(trace.program)
    than = next((m for m in _THAN.finditer(question)
                 if parse_number(m["next"]) is None and not m["next"].isdigit()), None)
    if than is not None and not funcs & _BETWEEN:
        return [Reason("comparison_unread", f"the question compares ({than[0]!r}), and no "
                       "step of the query compares or computes: it reads a value, not what "
                       "the comparison selects", None, than[0])]
    diff = _DIFFERENCE.search(question)
    columns = " ".join(normalize(r) for r in trace.graph.relation_names).split()
    if diff is not None and not set(normalize(diff[0]).split()) & set(columns) \
            and not funcs & _COMPUTING:  # 'Goal difference' is a column, not a subtraction
        return [Reason("comparison_unread", f"the question asks {diff[0]!r}, and no step of "
                       "the query subtracts", None, diff[0])]
    return []


_AROUND = 3  # words each side of an "or" that name the options


def _holds_value(pool: LabelPool, words: Sequence[str]) -> bool:
    """True when one to three consecutive ``words`` are, as a whole, a value of the data
    (not a function word alone)."""
    for n in (3, 2, 1):
        for i in range(len(words) - n + 1):
            phrase = words[i:i + n]
            if all(w in FUNCTION_WORDS for w in phrase):
                continue
            if pool.normalized(" ".join(phrase)):
                return True
    return False


def _choice_not_among(trace: Trace, question: str,
                      answer: Sequence[str]) -> list[Reason]:
    """The question offers options joined by *or*, each a value of the data ("routh or lake
    george is a lower yazoo phase?", "the benchmark symbol or the factory symbol?"), and the
    answer shares no word with the words around the *or*: it answers something else. Not for
    number questions, yes / no answers, comparative pairs (*more or less*), nor words joined
    by *or* that the data does not hold as values ("observed or predicted")."""
    if not answer or CHOICE_OR.search(question) is None or expected_type(question) == "number":
        return []
    if {normalize(a) for a in answer} <= YES_NO_ANSWERS:
        return []
    tokens = normalize(question).split()
    near: set[str] = set()
    pool = trace.graph.entity_pool()
    for i, t in enumerate(tokens):
        left, right = tokens[max(0, i - _AROUND):i], tokens[i + 1:i + _AROUND + 1]
        if t == "or" and _holds_value(pool, left) and _holds_value(pool, right):
            near |= {w for w in left + right if not is_filler(w) and w not in FUNCTION_WORDS}
    said = {w for a in answer for w in normalize(a).split()}
    if not near or said & near:
        return []
    return [Reason("choice_not_among", f"the question offers options joined by 'or', and "
                   f"the answer ({clip(', '.join(answer), 40)}) is none of them", None, None)]


#: "listed above X", "the one below X": a place in the list, unless a number follows
_ABOVE_BELOW = re.compile(r"\b(above|below)\b(?!\s+(?:the\s+)?[-+−]?[\d.,]*\d)", re.IGNORECASE)


def _position_unread(trace: Trace, question: str) -> list[Reason]:
    """The question places a row above or below another ("which surname is listed above the
    duke of albuquerque?") and no step moves to a neighbouring row or compares: the query
    reads the named row itself."""
    found = _ABOVE_BELOW.search(question)
    if found is None or called_functions(trace.program) & (NEIGHBOURS | _BETWEEN):
        return []
    return [Reason("position_unread", f"the question says {found[1]!r} (a place relative to "
                   "another row), and no step of the query moves to a neighbouring row or "
                   "compares", None, found[1])]


def _count_of_target_value(trace: Trace, question: str,
                           answer: Sequence[str]) -> list[Reason]:
    """'How many' answered 1 by counting one row, while the column the query itself names as
    its target (``## Target type: {number of Years won}``) holds, in that row, a number other
    than 1 or a list of three values or more: the question likely asks for that value, or
    for the length of that list ("how many total times has liverpool won?" → 1, while
    Liverpool's 'Years won' lists eight years). The sibling of ``count_of_named_value``,
    for a target the question's counted noun does not name. Left alone: a question bounding
    a number (it counts the rows within the bound) and a cell holding a year or a date."""
    program, target = trace.program, trace.target
    if program is None or not program.queries or target is None or target.role != "relation" \
            or len(target.ids) != 1 or list(answer) != ["1"] \
            or not ASKS_COUNT.search(question) or bounds(question):
        return []  # "how many years had more than 500 deaths?" counts the rows in the bound
    last = program.queries[-1]
    if last.call.func != "count" or not last.call.refs():
        return []
    rows_step = next((s for s in trace.steps if s.number == last.call.refs()[0]), None)
    graph = trace.graph
    rows = [e for e in (rows_step.output.elems if rows_step else ())
            if not isinstance(e, Scalar) and graph.is_row(e)]
    rel = target.ids[0]
    if len(rows) != 1 or graph.relation_names[rel] == ROW_NUMBER:
        return []
    cells = graph.labels(graph.tails_of(graph.facts_head_rel(rows[0], rel)))
    if len(cells) != 1:
        return []
    items = [x for x in LIST_SPLIT.split(cells[0]) if x.strip()]
    reading = parse_quantity(cells[0])
    if YEAR_VALUE.match(cells[0]) or (reading is not None and reading[1] == "date"):
        return []  # a year or a date says when, not how many
    number = parse_number(cells[0]) if reading is None else reading[0]
    if parse_number(cells[0]) is None and len(items) >= 3:  # '1981, 1982, 1983', not '1,500'
        what = f"lists {len(items)} values"
    elif number is not None and number != 1 and not identifies_rows(graph, rel):
        what = f"holds {cells[0]}"
    else:
        return []
    return [Reason("count_of_target_value", f"Query{last.number} counts one row, and that "
                   f"row's {target.labels[0]!r} (the query's own target) {what}: the question "
                   "may ask for that, not for the number of rows", last.number, target.key)]


_TIME_BOUND = re.compile(r"\b(?:before|after|since|until|till|prior\s+to|earlier\s+than|"
                         r"later\s+than)\s+(?:the\s+(?:year\s+)?|year\s+)?(\d{4})\b",
                         re.IGNORECASE)


def _year_bound_elsewhere(trace: Trace, question: str) -> list[Reason]:
    """The question bounds a year in time ("after 1879", "before 2008") and the query
    compares that number with a column holding no years ("Prize (£) > 1879"): the bound is
    read as an amount, not as a date."""
    years = {m[1] for m in _TIME_BOUND.finditer(question)}
    if not years or trace.program is None:
        return []
    graph = trace.graph
    steps = {s.number: s for s in trace.steps}
    for q in trace.program.queries:
        for a in q.call.args:
            text = a.value.text if isinstance(a.value, Bound) else (
                a.value.value if isinstance(a.value, Text) else "")
            if a.cmp == "=" or text.strip() not in years:
                continue
            step = steps.get(q.number)
            rels = [m for m in (step.mappings if step else ()) if m.arg == "relation"
                    and len(m.ids) == 1]
            if len(rels) != 1:
                continue
            name = rels[0].labels[0]
            cells = graph.labels(graph.tails_of(graph.facts_rel(rels[0].ids[0])))
            dated = sum(YEAR_VALUE.match(c) is not None or re.search(MONTH, c, re.IGNORECASE)
                        is not None and YEAR.search(c) is not None for c in cells)
            if cells and dated * 2 < len(cells) and TIME_HEADER.search(name) is None:
                return [Reason("year_bound_elsewhere", f"the question bounds the year "
                               f"{text.strip()}, and Query{q.number} compares it with "
                               f"{name!r}, which holds no years", q.number, name)]
    return []


_TOP_N = re.compile(r"\b(?:top|first|best|leading)\s+(\d+|" + "|".join(
    w for w in word_set("number_words") if w not in ("zero", "one")) + r")\b", re.IGNORECASE)


def _top_n_as_equal(trace: Trace, question: str) -> list[Reason]:
    """"The top 5 teams" (every row up to the fifth) read as the one row whose rank *equals*
    5: a condition holds the question's N with ``=`` and no step compares (WTQ nt-1226
    "list the top 5 teams ..." → the fifth team alone). "The last ... in the top 10" is the
    tenth row, and is left alone."""
    found = _TOP_N.search(question)
    if found is None or trace.program is None or called_functions(trace.program) & COMPARING \
            or re.search(r"\blast\b", question, re.IGNORECASE):  # the last of the top 10: 10
        return []
    n = found[1].lower()
    want = {n, _NUMBER_WORD_VALUES.get(n, n)}
    for q in trace.program.queries:
        tail = q.call.arg("tail_entity")
        if q.call.func == "get_information" and tail is not None and tail.cmp == "=" \
                and isinstance(tail.value, Text) and tail.value.value.strip().lower() in want:
            return [Reason("top_n_as_equal", f"the question says {found[0]!r} (every row up to "
                           f"{n}), and Query{q.number} keeps only the rows equal to "
                           f"{tail.value.value!r}", q.number, found[0])]
    return []


def asked_reasons(trace: Trace, question: str, answer: Sequence[str]) -> list[Reason]:
    """The reasons of stop 16 (docs/RESULTS.md, "Stop 16")."""
    out = extreme_from_bound(trace, question)
    out += _comparison_unread(trace, question)
    out += _choice_not_among(trace, question, answer)
    out += _position_unread(trace, question)
    out += _count_of_target_value(trace, question, answer)
    out += _year_bound_elsewhere(trace, question)
    out += _top_n_as_equal(trace, question)
    out += ranked_backwards(trace, question)
    out += _duration_as_date(question, answer)
    return out
