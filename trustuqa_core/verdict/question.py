"""Reasons from the question: what it names or asks that the query leaves unexplained or
unbound (mentions, cue words, dates, a range, a phrase the answer ignores, the answer's type).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..mentions import (
    CUES,
    Mention,
    asks_for_one,
    bounds,
    expected_type,
    focus_word,
    is_filler,
    names_any,
    selection_cues,
    type_consistent,
    unbound_mentions,
    unexplained_words,
)
from ..numbers import is_duration, parse_number
from ..query.ast import Bound, ListValue, Ref, Text
from ..reasoning.cues import TIME_ASKED
from ..results import Scalar
from ..text import normalize, table_words
from ..trace import Trace
from ..verdict_record import Reason
from .asked import asked_reasons
from .asked_noun import answer_read, asked_noun_reasons
from .near_values import count_near_values
from .ranking import ranking_explains, ranks
from .reading import (
    CALENDAR,
    COMPARING,
    FUNCTION_WORDS,
    NEIGHBOURS,
    YES_NO_ANSWERS,
    chosen_literal,
    clip,
    computed_yes_no,
    literals,
    offers_choice,
    target_used,
)
from .shape import relation_word, shape_reasons, unused_columns
from .thresholds import Thresholds

_HOW_MANY = re.compile(r"\bhow many\b", re.IGNORECASE)
#: the words a question asking how long something took uses for it
_TIME_WORDS = ["how long", "take", "took", "taken", "time"]


def _asks_time_of(question: str, answer: Sequence[str]) -> bool:
    """The question asks how long / what time and every answer value is a clock time or a
    duration (``2:20.54``): the answer's column need not be named (*Total*, *Run 2*), and
    *how long ... take* is what it answers.

    >>> _asks_time_of("how long did it take Ann to finish?", ["2:20.54"])
    True
    >>> _asks_time_of("how long is the bridge?", ["1,310"])
    False
    """
    if not answer or TIME_ASKED.search(question) is None:
        return False
    return all(is_duration(a) for a in answer)


def question_reasons(trace: Trace, question: str, mentions: Sequence[Mention],
                      answer: Sequence[str], th: Thresholds) -> list[Reason]:
    out: list[Reason] = []
    mappings = list(trace.mapped.mappings) if trace.mapped is not None else []
    lits = literals(trace.program, mappings)
    lits += [r.chosen for r in trace.recovery]
    unbound = unbound_mentions(mentions, lits)
    for m in unbound:
        out.append(Reason("unbound_mention", f"the question names {m.text!r} ({m.kind}), but "
                          "the query does not use it", None, m.text))
    out += _date_unbound(question, lits)
    out += _answer_unused_phrase(trace, question, answer, lits)
    conditions = [m for m in mappings if m.role in ("value", "entity")]
    if unbound and not conditions:
        out.append(Reason("no_condition", "the query reads whole columns / relations with no "
                          "condition, although the question names "
                          + ", ".join(repr(m.text) for m in unbound), None, None))
    funcs = {q.call.func for q in trace.program.queries} if trace.program else set()
    if trace.program is not None and any(a.cmp != "=" for q in trace.program.queries
                                         for a in q.call.args):
        funcs.add("compare")
    sources = [x.name.rsplit(".", 1)[0] for x in trace.graph.sources]
    timed = _asks_time_of(question, answer)
    ranked = ranking_explains(trace) if ranks(trace.program) else []
    loose = unexplained_words(question, lits + sources + (_TIME_WORDS if timed else []) + ranked,
                              funcs)
    said = _said_by_form(question, funcs, lits)
    shown = [w for w in loose if not is_filler(w) and w not in said]  # a count still reads
    # every loose word
    if shown:
        out.append(Reason("unexplained_words", "no part of the query accounts for "
                          + ", ".join(repr(w) for w in shown), None, ", ".join(shown)))
    for cue in dict.fromkeys(w for w in selection_cues(question) if w in loose):
        out.append(Reason("unexplained_cue", f"the question says {cue!r}, and no step of the "
                          "query picks, ranks or compares to account for it", None, cue))
    compares = bool(funcs & COMPARING)  # "prior to 1998" with a comparison: explained
    neighbour = next((w for w in loose if w in _NEIGHBOUR_CUES
                      and not (compares and w not in ("next", "previous"))), None)
    if neighbour is not None and not funcs & NEIGHBOURS:
        out.append(Reason("unexplained_neighbour", f"the question says {neighbour!r} (the row "
                          "before or after another), and no step of the query moves to a "
                          "neighbouring row or compares", None, neighbour))
    focus = focus_word(question)
    if focus is not None and focus in loose:
        out.append(Reason("focus_unexplained", f"the question asks for {focus!r}, and no part "
                          "of the query (no column, relation or function) accounts for it",
                          trace.target_step.number if trace.target_step else None, focus))
        cells = trace.final is not None and bool(trace.final.elems) and not any(
            isinstance(e, Scalar) for e in trace.final.elems)  # a count reads no column
        cells = cells and not re.search(rf"\b{re.escape(focus)}\s+(?:number|amount|count)\s+of\b",
                                        question, re.IGNORECASE)  # 'total number of medals'
        for r in unused_columns(trace, [focus] if cells else []):  # 'meanings' not from Flag
            kind = relation_word(trace.graph, str(r.arg))
            out.append(Reason("focus_column_unused", f"the question asks for {focus!r}, which "
                              f"names the {kind} {r.arg!r}, and the answer is read from "
                              f"another {kind}", trace.target_step.number if trace.target_step
                              else None, r.arg))
    distinct = list(dict.fromkeys(answer))
    one = asks_for_one(question)
    in_names = {t for x in lits if len(str(x).split()) > 1 for t in normalize(str(x)).split()}
    if one is not None and one not in in_names and len(distinct) > 1:  # not "The Last Run"
        out.append(Reason("many_for_one", f"the question asks for the {one} one, and the "
                          f"answer holds {len(distinct)} values "
                          f"({clip(', '.join(distinct[:3]), 60)})",
                          trace.target_step.number if trace.target_step else None, one))
    target = trace.target
    asks_who = re.match(r"\s*(who|whom|whose)\b", question, re.IGNORECASE) is not None
    if (target is not None and target.role == "relation" and target.labels and not asks_who
            and "count" not in funcs and not computed_yes_no(trace)
            and not chosen_literal(trace) and not timed and _answer_read_from_target(trace)
            and not any(names_any(question, x) for x in target.labels)):
        out.append(Reason("target_unnamed", f"the answer is read from {target.labels[0]!r}, "
                          "and the question names no word of it", None, target.key))
    sibling = _sibling_column(trace, question, lits)
    if sibling is not None and target is not None and target.labels:
        out.append(Reason("target_sibling", f"the question names the column {sibling!r}, and "
                          f"the answer is read from {target.labels[0]!r}, which only contains "
                          "that name", None, target.key))
    if _HOW_MANY.search(question) and not funcs & {"count", "sum", *PER_GROUP, "groups_of_size"}:
        out.append(Reason("count_unclear", "the question asks 'how many', and the query reads "
                          "a value instead of counting: check which was meant"))
    span = _number_range(question, lits)
    if span is not None and not funcs & COMPARING:
        out.append(Reason("range_unread", f"the question names the range {span!r}, and no "
                          "step of the query compares: the values between its ends are "
                          "missed", None, span))
    cues = bounds(question)
    if cues and not funcs & COMPARING:
        out.append(Reason("comparison_unbound", f"the question says {cues[0]!r} before a "
                          "number, and no step of the query compares with it", None, cues[0]))
    elif cues:
        out += _bound_as_equal(trace, question, cues)
    if len(distinct) > 1 and trace.graph.sources \
            and all(x.kind == "table" for x in trace.graph.sources):
        out.append(Reason("several_rows", f"the answer holds {len(distinct)} values "
                          f"({clip(', '.join(distinct[:3]), 60)}): check that the question "
                          "asks for all of them",
                          trace.target_step.number if trace.target_step else None, None))
    out += shape_reasons(trace, question, answer, loose)
    named = {normalize(m.text) for m in mentions if m.kind == "entity"}
    echoed = [a for a in answer if normalize(a) in named]
    if echoed and not offers_choice(question, lits) \
            and not _echo_read_elsewhere(trace, echoed[0]):  # "A or B?" is answered by a name
        out.append(Reason("echoes_question", f"the answer includes {echoed[0]!r}, which the "
                          "question itself names", None, echoed[0]))
    out += asked_reasons(trace, question, answer)
    out += asked_noun_reasons(trace, question, answer)
    out += count_near_values(trace)
    per_group = trace.program is not None and bool(trace.program.queries) \
        and trace.program.queries[-1].call.func in PER_GROUP  # 'France: 4' is a number
    if not type_consistent(question, answer) and not _head_names_target(trace, question) \
            and not _reads_as_time(question, answer) and not per_group:
        want = expected_type(question)
        out.append(Reason("type_mismatch", f"the question asks for {_WANTED.get(want, want)} "
                          f"and the answer ({clip(', '.join(answer[:3]), 60)}) is not one",
                          None, None))
    elif _WHO.match(question) and all(CALENDAR.search(a) for a in answer):
        out.append(Reason("type_mismatch", "the question asks who, and the answer "
                          f"({clip(', '.join(answer[:3]), 60)}) is a date", None, None))
    return out


#: functions answering one number per group (``France: 4``): a count or sum, not a name
PER_GROUP = frozenset({"count_each", "sum_each"})


def _answer_read_from_target(trace: Trace) -> bool:
    """The answer was read from the target type's column: the target projected the rows, or
    the last step reads that very column (a writer naming its answer column twice). False
    when the target shaped nothing and the last step read another relation ("which films did
    Mel Brooks direct?" reads ``directed_by`` whatever ``{film}`` was mapped to)."""
    target = trace.target
    if target is None or not target.labels or target_used(trace) or not trace.steps:
        return True
    read = [label for m in trace.steps[-1].mappings if m.arg == "relation" for label in m.labels]
    return not read or target.labels[0] in read


def _bound_as_equal(trace: Trace, question: str, cues: Sequence[str]) -> list[Reason]:
    """``comparison_unbound`` read per bound (stop 17): a query that compares somewhere can
    still test another bounded number for equality ("game more than 6 and before october
    28" as ``Game > 6`` and ``October = 28``). The bound's number held by an equality and
    by no comparison of the query is unbound.

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Game,October,Score\\n7,28,6-2\\n8,20,2-1\\n"])
    >>> t = run_query("Query1: \\"get_information(relation='Game', tail_entity>'6')\\"\\n"
    ...               "Query2: \\"get_information(relation='October', tail_entity='28')\\"", g)
    >>> [r.arg for r in _bound_as_equal(t, "game more than 6 and before october 28",
    ...                                 ["more than", "before"])]
    ['before']
    """
    program = trace.program
    if program is None:
        return []
    equal: set[str] = set()
    compared: set[str] = set()
    for q in program.queries:
        for a in q.call.args:
            if isinstance(a.value, Text):
                (equal if a.cmp == "=" else compared).add(normalize(a.value.value))
    for cue in dict.fromkeys(cues):
        pattern = rf"\b{re.escape(cue)}\s+(?:[a-z]+\s+){{0,2}}?[$£€]?([\d][\d.,]*\d|\d)"
        for m in re.finditer(pattern, question, re.IGNORECASE):
            number = normalize(m[1])
            if number in equal and number not in compared:
                return [Reason("comparison_unbound", f"the question says {cue!r} before "
                               f"{m[1]}, and the query tests {m[1]} for equality instead of "
                               "comparing with it", None, cue)]
    return []


#: words of a question's form that name nothing a query must read, each with the reading
#: that accounts for it (stop 17, chosen on WikiSQL's tune half): "I want the D 40 ...",
#: "what is the value of the item 'Lost' ...", "how many different outcomes ..." (a count),
#: "... that won exactly 10" (an equality with that number)
_WANT = re.compile(r"^\s*i\s+want\b", re.IGNORECASE)
_GENERIC = frozenset({"value", "values", "item", "items"})
_EXACTLY = re.compile(r"\bexactly\s+([-+−]?[\d.,]*\d)", re.IGNORECASE)
_DIFFERENT = re.compile(r"\bhow\s+many\s+different\b", re.IGNORECASE)


def _said_by_form(question: str, funcs: set[str], lits: Sequence[str]) -> set[str]:
    """The question words its form accounts for (see ``_WANT`` ...), left out of
    ``unexplained_words``.

    >>> sorted(_said_by_form("How many different outcomes won exactly 10?", {"count"}, ["10"]))
    ['different', 'exactly', 'item', 'items', 'value', 'values']
    >>> sorted(_said_by_form("How many different outcomes won exactly 10?", set(), []))
    ['item', 'items', 'value', 'values']
    """
    out = set(_GENERIC)
    if _WANT.match(question):
        out.add("want")
    if _DIFFERENT.search(question) and "count" in funcs:
        out.add("different")
    held = {normalize(str(x)) for x in lits}
    if any(normalize(m[1]) in held for m in _EXACTLY.finditer(question)):
        out.add("exactly")
    return out


#: times the type check does not read: a clock time (8:30am), a year BC / AD, a date
#: written without spaces (14November2010)
_CLOCK_OR_ERA = re.compile(r"\b\d{1,2}:\d{2}|\b\d{1,4}\s*(?:BC|AD|BCE|CE)\b|\d(?:jan|feb|mar|"
                           r"apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\d", re.IGNORECASE)


def _reads_as_time(question: str, answer: Sequence[str]) -> bool:
    """True when the question asks for a time and every answer value holds one that the
    type check does not read (stop 17: a precise reading of ``type_mismatch``).

    >>> _reads_as_time("What Time has a Show Name of news?", ["8:30am–12:00pm"])
    True
    >>> _reads_as_time("When did Demetrios III begin to hold power?", ["100 BC"])
    True
    >>> _reads_as_time("When was Gala released?", ["Worldwide"])
    False
    """
    return expected_type(question) == "time" and bool(answer) \
        and all(_CLOCK_OR_ERA.search(a) for a in answer)


#: "which rd took place ...", "what daft pick number ...": the head and the two words after it
_WHICH_HEAD = re.compile(r"^\s*(?:which|what)\s+([a-z][\w'#.-]*(?:\s+[a-z#][\w'#.-]*){0,2})",
                         re.IGNORECASE)


def _head_names_target(trace: Trace, question: str) -> bool:
    """True when a "which / what <noun>" question, which asks for a thing rather than a
    number, names with that noun the very column its answer is read from ("which Rd took
    place at the Indianapolis 500?" read from ``Rd``, "what selection was ...?" from
    ``Selection``): a number read from the column the question asks for is of the type
    asked (stop 17: a precise reading of ``type_mismatch``, which held such answers back).
    The same for a max / min / mean over that column ("which Game is the highest one ...").
    Left alone: who / whom / whose (no "which" head), and counts.

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Rd,Race\\n1,Monaco\\n2,Indy\\n"])
    >>> t = run_query("Query1: \\"get_information(relation='Race', tail_entity='Indy')\\"\\n"
    ...               "Query2: \\"get_information(relation='Rd', "
    ...               "head_entity='output_of_query1')\\"", g)
    >>> _head_names_target(t, "Which Rd took place at the Indy?")
    True
    >>> _head_names_target(t, "Which driver won at the Indy?")
    False
    """
    head = _WHICH_HEAD.match(question)
    read = answer_read(trace)  # "which game is the highest one ...": the Game lookup
    if head is None or read is None:
        return False
    rel = read.arg("relation")
    if read.func != "get_information" or read.arg("head_entity") is None or rel is None \
            or not isinstance(rel.value, Bound) or len(rel.value.labels) != 1:
        return False
    tokens = set(table_words(rel.value.labels[0]))
    return any(w in tokens or any(min(4, len(w), len(t)) >= 3
                                  and w[:min(4, len(w), len(t))] == t[:min(4, len(w), len(t))]
                                  for t in tokens)
               for w in table_words(head[1]) if w not in FUNCTION_WORDS)


def _echo_read_elsewhere(trace: Trace, echoed: str) -> bool:
    """True when a table answer that repeats a name of the question was read from another
    column than the conditions holding that name: the found row holds the same text in the
    column asked for ('What is Tournament, when Career SR is "ATP Masters Series"?' on a row
    spanning the table: every cell 'ATP Masters Series'), so the answer is what the data says.
    Reading the condition's own column back ("who had the pole, Paul Tracy's race?" ->
    'Paul Tracy') still echoes."""
    program = trace.program
    if program is None or not program.queries or not trace.graph.sources or any(
            x.kind != "table" for x in trace.graph.sources):
        return False
    last = program.queries[-1].call
    read, head = last.arg("relation"), last.arg("head_entity")
    if last.func != "get_information" or read is None or not isinstance(read.value, Text) \
            or head is None or not isinstance(head.value, Ref):
        return False
    key = normalize(echoed)
    holding: set[str] = set()
    for q in program.queries:
        rel, tail = q.call.arg("relation"), q.call.arg("tail_entity")
        if q.call.func != "get_information" or rel is None or tail is None \
                or not isinstance(rel.value, Text):
            continue
        items = tail.value.items if isinstance(tail.value, ListValue) else (tail.value,)
        if any(isinstance(v, Text) and normalize(v.value) == key for v in items):
            holding.add(normalize(rel.value.value))
    return bool(holding) and normalize(read.value.value) not in holding


#: a question offering options ("was he from vic or wa?"): its answer is one of its words
_OR = re.compile(r"\bor\b", re.IGNORECASE)
#: a question asking for a person: "who was ...", "whom ..."
_WHO = re.compile(r"^\s*(?:who|whom)\b", re.IGNORECASE)
#: how ``type_mismatch`` words each expected answer type (with its article)
_WANTED = {"entity": "a name (an entity)", "number": "a number", "quantity": "a quantity",
           "time": "a date or time", "any": "a value"}
_RANGE = re.compile(r"(?<![\w.])(\d{1,4})\s*(?:-|–|—|\bto\b|\bthrough\b|\buntil\b)\s*(\d{1,4})"
                    r"(?!\w|\.\d)|\bbetween\s+(\d{1,4})\s+and\s+(\d{1,4})\b", re.IGNORECASE)


def _number_range(question: str, lits: Sequence[str]) -> str | None:
    """The first range of numbers the question names ("from 1941-1949", "between 3 and 7")
    whose two ends no single literal of the query holds (a cell '1993-2000' is a value)."""
    for m in _RANGE.finditer(question):
        low, high = (g for g in m.groups() if g is not None)
        if int(low) >= int(high):
            continue
        if any(low in str(x) and high in str(x) for x in lits):
            continue
        return m.group(0)
    return None


def _date_unbound(question: str, lits: Sequence[str]) -> list[Reason]:
    """Calendar dates of the question that the literals do not hold: the date is bound when
    some literal has its month (by its first three letters), some its day as a number and,
    when the question gives one, some its year ("may 8th, 1993" is bound by 'May 8, 1993',
    '8 May 1993', or a column 'November' with the value '21' for "november 21"; not by
    'Southampton')."""
    out: list[Reason] = []
    words = {w for x in lits for w in normalize(str(x)).split()}
    for m in CALENDAR.finditer(question):
        month = (m["m1"] or m["m2"]).lower()[:3]
        day = str(int(m["d1"] or m["d2"]))
        year = m["y1"] or m["y2"]

        if not (any(w[:3] == month for w in words)
                and any(re.sub(r"(st|nd|rd|th)$", "", w).lstrip("0") == day for w in words)
                and (year is None or year in words)):
            out.append(Reason("date_unbound", f"the question names the date {m[0]!r}, and no "
                              "literal of the query holds it", None, m[0]))
    return out


def _answer_unused_phrase(trace: Trace, question: str, answer: Sequence[str],
                          lits: Sequence[str]) -> list[Reason]:
    """Table answers every one of which is a phrase of the question that the query does not
    use ("the womens singles had no competition ..., what were the womens doubles" answered
    'no competition'): the question states that value, so it is unlikely to be what it asks.
    An answer inside a literal (the condition 'anna university ... kanchipuram' answered
    'Kanchipuram'), numbers, single letters, yes / no and the options of an A-or-B question
    are left out."""
    program = trace.program
    if program is None or not answer or not trace.graph.sources or any(
            x.kind != "table" for x in trace.graph.sources):
        return []
    asked = f" {normalize(question)} "
    bound = [f" {normalize(str(x))} " for x in lits]
    for a in answer:
        key = normalize(a)
        if len(key) < 2 or parse_number(a) is not None or key in YES_NO_ANSWERS \
                or f" {key} " not in asked or any(f" {key} " in b for b in bound):
            return []
    if offers_choice(question, lits) or _OR.search(question):  # "was it A or B?"
        return []
    return [Reason("answer_unused_phrase", f"the answer ({clip(', '.join(answer), 40)}) is "
                   "said in the question, and no literal of the query uses it: the question "
                   "likely states it as a condition",
                   trace.target_step.number if trace.target_step else None)]


#: words asking for the row before or after ("who is listed before Don Randall?")
_NEIGHBOUR_CUES = CUES["next_row"] | CUES["previous_row"]


def _sibling_column(trace: Trace, question: str, lits: Sequence[str]) -> str | None:
    """A column the question names word for word (``away team``) that the query does not
    use, whose name is part of the answer's column (``Away team score``), while the question
    does not name the answer's column: the answer was likely read from the wrong one."""
    target = trace.target
    if target is None or target.role != "relation" or len(target.labels) != 1:
        return None
    asked, read = f" {normalize(question)} ", normalize(target.labels[0])
    if f" {read} " in asked:
        return None
    used = {normalize(x) for x in lits}
    for name in trace.graph.relation_names:
        col = normalize(name)
        if col and col != read and col not in used and f" {col} " in f" {read} " \
                and f" {col} " in asked:
            return name
    return None
