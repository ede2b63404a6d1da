"""Ambiguity by execution: another reading of the question, nearly as good, answers otherwise.

The verdict's other reasons look at the question and the query one at a time. A table answer
can carry no doubt at all and still be wrong because the question fits a second reading just
as well: "what did carlton score while away?" read from *Home team score* when *Away team
score* names more of the question; "their record when they were at Pittsburgh" found under
*Visitor* while *Home* holds Pittsburgh too; "Team is @ Memphis" bound to the row *Memphis*.
Here such runner-up readings are built from the data the trace already holds (the rows a step
found, the columns of the same table, the cells equal to a condition's value) and run with
the graph's read API alone (no writer, at most :data:`MAX_ALTERNATIVES` readings of each kind
per answer). An answer is flagged when a runner-up reading finds a non-empty answer that
differs from it.

Reasons (the calibrated estimate weighs ``answer_column_ambiguous``, carried by enough tune
answers to be fitted; the rarer three block on their own; all four only inform for LLM
queries but ``condition_value_narrower``; docs/RESULTS.md "Stop 17"):

* ``answer_column_ambiguous``: another column of the same table that no condition uses fits
  the question better than the column the answer is read from — a sibling whose own words
  the question says while it says none of the answer column's own (*Away team score* for
  "... score while away"), a longer sibling whose extra words the question says and no
  condition explains (*Vote %* for *Votes*), the column the asked-for noun names when it
  names nothing of the answer's ("what week ..."), a place column for a question opening
  with "where", a date column for "what day / date" — and reading it from the same rows
  gives another answer;
* ``condition_column_ambiguous``: the value of an equality condition is also a cell of
  another column, nothing the question says prefers the condition's own column, and the
  condition put on that column finds another answer;
* ``condition_value_narrower``: the question writes a longer cell of the condition's column
  (``@ Memphis``) than the value the condition holds (``Memphis``), and that cell finds
  another answer;
* ``step_unused``: a condition step of the query is used by no later step the answer depends
  on (a ranking over the whole table that forgot the rows the question names).

>>> from trustuqa_core import load_graph, run_query
>>> g = load_graph(tables=[b"Home team,Home team score,Away team,Away team score\\n"
...                        b"Geelong,10.9 (69),Carlton,11.13 (79)\\n"])
>>> t = run_query("Query1: \\"get_information(relation='Away team', tail_entity='Carlton')\\"\\n"
...               "Query2: \\"get_information(relation='Home team score', "
...               "head_entity='output_of_query1')\\"", g)
>>> [r.code for r in ambiguity_reasons(t, "what did carlton score while away?")]
['answer_column_ambiguous']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..lexicon import word_set
from ..mentions import is_placeholder
from ..query.ast import Bound, Query, Ref
from ..results import Scalar
from ..store import GraphStore
from ..text import fold, normalize, table_words
from ..trace import Trace
from ..translate.table import ROW_NUMBER
from ..verdict_record import Reason

__all__ = ["MAX_ALTERNATIVES", "ambiguity_reasons", "named_words"]

#: at most this many runner-up readings of each kind are run per answer
MAX_ALTERNATIVES = 3
#: aggregates over the column read: another column's cells give another result
_AGGREGATES = frozenset({"max", "min", "sum", "mean", "average", "avg"})
#: units a question spells out and a column abbreviates ("length in feet": Length ( ft ))
_UNITS = {"feet": "ft", "foot": "ft", "metres": "m", "meters": "m", "metre": "m", "meter": "m",
          "kilometres": "km", "kilometers": "km", "miles": "mi", "mile": "mi", "pounds": "lb",
          "kilograms": "kg", "inches": "in", "percent": "%", "percentage": "%"}
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5",
             "sixth": "6", "seventh": "7", "eighth": "8", "ninth": "9", "tenth": "10"}
#: column words too common to tell columns apart
_WEAK_WORDS = frozenset({"number", "of", "the", "a", "in", "for", "and", "or", "s", "no"})
_PERCENT = re.compile(r"%")
#: superlatives pick a row, they name no column
_RANKING_WORDS = word_set("superlative_max") | word_set("superlative_min") | {"most", "least"}
#: words of a question that name no column (its own form)
_QUESTION_WORDS = frozenset({"what", "which", "who", "whom", "whose", "where", "when", "how",
                             "is", "are", "was", "were", "be", "did", "does", "do", "has", "have",
                             "had", "the", "a", "an", "of", "in", "on", "at", "to", "for",
                             "with", "by", "and", "or", "that", "this", "it", "its", "their",
                             "they", "there", "name", "tell", "me", "give"})
#: "what week did ...", "which team ...": the noun asked for and the two words after it
_HEAD = re.compile(r"^\s*(?:which|what)\s+([a-z][\w'#.-]*(?:\s+[a-z#][\w'#.-]*){0,2})",
                   re.IGNORECASE)
#: what a question asks for by its question word, and the column words of that kind: a
#: question opening with "where" a place, "what / which day / date" a date
_ASKS_KIND = (
    (re.compile(r"^\s*where\b", re.IGNORECASE),  # not "the plaza where the toll is ..."
     frozenset({"venue", "location", "site", "city", "ground", "stadium", "arena", "town",
                "country"})),
    (re.compile(r"\b(?:what|which)\s+(?:day|date)\b", re.IGNORECASE),
     frozenset({"date", "day", "dates"})),
)
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


@dataclass(frozen=True)
class _Shape:
    """The plain table read the checks understand: equality / comparison conditions whose
    rows are intersected, then one column read from those rows (the answer)."""

    read: Query  # get_information(relation=T, head_entity=output_of_queryK)
    target: int  # the relation id T
    rows_step: int  # K
    conditions: tuple[Query, ...]  # the condition steps the rows are the intersection of
    aggregate: str | None = None  # max / min / sum / mean taken over the column read


def named_words(question: str, column: str) -> frozenset[str]:
    """The words of ``column`` that the question names (the first three or four letters
    agree, a unit or an ordinal spelled out, a number written, ``%``).

    >>> sorted(named_words("what is the length in feet?", "Length ( ft )"))
    ['ft', 'length']
    >>> sorted(named_words("which team was the second semi finalist?", "Semi-Finalist #2"))
    ['2', 'finalist', 'semi']
    >>> sorted(named_words("what is the conference record?", "Conf. record"))
    ['conf', 'record']
    """
    return _named(_words(column), _said(question))


def _words(column: str) -> frozenset[str]:
    """The words of a column name that tell it apart (``%`` kept, ``number`` and the like
    dropped)."""
    tokens = {t for t in table_words(column) if t not in _WEAK_WORDS}
    if _PERCENT.search(column):
        tokens.add("%")
    return frozenset(tokens)


def _said(question: str) -> frozenset[str]:
    asked = [w for w in table_words(question) if w not in _QUESTION_WORDS
             and w not in _RANKING_WORDS]  # "the highest game" names no High assists
    said = set(asked) | {_UNITS[w] for w in asked if w in _UNITS} \
        | {_ORDINALS[w] for w in asked if w in _ORDINALS} | set(_NUMBER.findall(question))
    if _PERCENT.search(question):
        said.add("%")
    return frozenset(said)


def _named(tokens: frozenset[str], said: frozenset[str]) -> frozenset[str]:
    """The column words ``tokens`` that agree with a word the question says."""
    return frozenset(t for t in tokens if t in said
                     or (len(t) >= 3 and any(_agree(w, t) for w in said)))


def _extra(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    """The words of ``a`` that agree with no word of ``b``.

    >>> sorted(_extra(frozenset({"votes"}), frozenset({"vote", "%"})))
    []
    """
    return frozenset(t for t in a if not any(t == u or (min(len(t), len(u)) >= 3
                                                        and _agree(t, u)) for u in b))


def _agree(word: str, token: str) -> bool:
    """The first three or four letters agree ("conf" / "conference", "vote" / "votes")."""
    n = min(4, len(word), len(token))
    return n >= 3 and word[:n] == token[:n]


def _shape(trace: Trace) -> _Shape | None:
    """The trace's plain table read, or None for any other shape."""
    mapped = trace.mapped
    if mapped is None or not mapped.program.queries:
        return None
    queries = {q.number: q for q in mapped.program.queries}
    read = mapped.program.queries[-1]
    aggregate = None
    if read.call.func in _AGGREGATES and len(read.call.refs()) == 1 \
            and read.call.refs()[0] in queries:  # "the most vote %": max over the read
        aggregate, read = read.call.func, queries[read.call.refs()[0]]
    rel, head = read.call.arg("relation"), read.call.arg("head_entity")
    if read.call.func != "get_information" or rel is None or head is None \
            or read.call.arg("tail_entity") is not None or not isinstance(rel.value, Bound) \
            or len(rel.value.ids) != 1 or not isinstance(head.value, Ref):
        return None
    k = head.value.step
    rows_query = queries.get(k)
    if rows_query is None:
        return None
    if rows_query.call.func == "set_intersection":
        refs = rows_query.call.refs()
        conds = tuple(queries[r] for r in refs if r in queries)
        if len(conds) != len(refs):
            return None
    else:
        conds = (rows_query,)
    if not all(_condition(q) is not None for q in conds):
        return None
    return _Shape(read, rel.value.ids[0], k, conds, aggregate)


def _condition(q: Query) -> tuple[int, Bound, str] | None:
    """``(column id, value, comparison)`` of a condition step ``get_information(relation=C,
    tail_entity<op>V)``, None for another step."""
    rel, tail = q.call.arg("relation"), q.call.arg("tail_entity")
    if q.call.func != "get_information" or rel is None or tail is None \
            or q.call.arg("head_entity") is not None or not isinstance(rel.value, Bound) \
            or len(rel.value.ids) != 1 or not isinstance(tail.value, Bound):
        return None
    return rel.value.ids[0], tail.value, tail.cmp


def _rows(trace: Trace, step: int) -> set[int]:
    s = next((s for s in trace.steps if s.number == step), None)
    if s is None:
        return set()
    return {e for e in s.output.elems if not isinstance(e, Scalar) and trace.graph.is_row(e)}


def _read(graph: GraphStore, rows: Sequence[int], rel: int) -> list[str]:
    """The cells of column ``rel`` in ``rows`` (as text, in row order, distinct)."""
    if not rows:
        return []
    facts = graph.facts_heads_rel(np.asarray(sorted(rows), dtype=np.int64), rel)
    return list(dict.fromkeys(graph.labels(graph.tails_of(facts))))


def _differs(answer: Sequence[str], other: Sequence[str]) -> bool:
    """``other`` is an answer (not empty, not only placeholders) that is not ``answer``."""
    if not other or all(is_placeholder(x) for x in other):
        return False
    return {normalize(x) for x in other} != {normalize(x) for x in answer}


def _columns(graph: GraphStore, rows: set[int]) -> list[int]:
    """The columns of the table the rows belong to (the row-number column left out)."""
    if not rows:
        return []
    rels = graph.relations_of_heads(np.asarray(sorted(rows), dtype=np.int64))
    return [int(r) for r in dict.fromkeys(rels.tolist())
            if graph.relation_names[int(r)] != ROW_NUMBER]


def _answer_column(trace: Trace, question: str, shape: _Shape, answer: Sequence[str],
                   rows: set[int], used: set[int]) -> list[Reason]:
    graph = trace.graph
    names = graph.relation_names
    said = _said(question)
    own = _words(names[shape.target])
    rivals = []
    for rel in _columns(graph, rows):
        if rel == shape.target or rel in used:
            continue
        words = _words(names[rel])
        theirs, mine = _extra(words, own), _extra(own, words)
        # a sibling (a word in common) whose own words the question says, while it says
        # none of the answer column's own words: "Away team score" for "... score while away"
        if len(words) > len(theirs) and theirs and mine and _named(theirs, said) == theirs \
                and not _named(mine, said):
            rivals.append((len(theirs), rel))
    named_by_conditions = frozenset().union(
        *(_words(names[c[0]]) | _words(" ".join(c[1].labels)) for q in shape.conditions
          if (c := _condition(q)) is not None))
    head = _HEAD.match(question)
    asked = _said(head[1]) if head is not None else frozenset()
    for rel in _columns(graph, rows):
        if rel == shape.target or rel in used:
            continue
        words = _words(names[rel])
        theirs = _extra(words, own)
        if not _extra(own, words) and theirs and len(words) > len(theirs) and _extra(
                _named(theirs, said), named_by_conditions):
            # a longer sibling whose own words the question says and no condition (column or
            # value) explains:
            # "the vote % for seats of 9" read from Votes, not from Vote %
            rivals.append((len(theirs), rel))
        elif asked and _named(words, asked) and not _named(own, asked):
            # the noun asked for names it, and names nothing of the answer's column: "what
            # week did the member ... arrive?" read from Member, not Week Arrived
            rivals.append((0, rel))
    kind = next((words for asks, words in _ASKS_KIND if asks.search(question)), None)
    if kind is not None and not own & kind:
        # "where did the home team score 10.9 (69)?" read from Home team, not from Venue
        rivals += [(0, rel) for rel in _columns(graph, rows) if rel != shape.target
                   and rel not in used and _words(names[rel]) & kind]
    for _, rel in sorted(rivals, reverse=True)[:MAX_ALTERNATIVES]:
        other = _read(graph, sorted(rows), rel)
        if _differs(answer, other):
            return [Reason("answer_column_ambiguous", f"the question names {names[rel]!r} "
                           f"better than {names[shape.target]!r}, the column the answer is "
                           f"read from; read from {names[rel]!r}, the same rows give "
                           f"{_clip(', '.join(other[:3]))}", shape.read.number, names[rel])]
    return []


def _condition_rows(trace: Trace, shape: _Shape, skip: Query) -> set[int] | None:
    """The rows every condition but ``skip`` keeps (None when ``skip`` is the only one)."""
    out: set[int] | None = None
    for q in shape.conditions:
        if q.number != skip.number:
            rows = _rows(trace, q.number)
            out = rows if out is None else out & rows
    return out


def _with_value(graph: GraphStore, rel: int, value: int) -> set[int]:
    return {int(h) for h in graph.heads_of(graph.facts_rel_tail(rel, value))
            if graph.is_row(int(h))}


def _answer_if(graph: GraphStore, rel: int, value: int, others: set[int] | None,
               target: int) -> list[str]:
    """The cells of ``target`` in the rows whose ``rel`` is ``value`` (and that meet the
    query's other conditions, ``others``; None: there are none): the answer of the reading
    with that condition instead."""
    rows = _with_value(graph, rel, value)
    if others is not None:
        rows &= others
    return _read(graph, sorted(rows), target)


def _condition_columns(trace: Trace, question: str, shape: _Shape, answer: Sequence[str],
                       used: set[int]) -> list[Reason]:
    graph = trace.graph
    names = graph.relation_names
    for q in shape.conditions:
        cond = _condition(q)
        if cond is None or cond[2] != "=" or len(cond[1].ids) != 1:
            continue
        rel, value, _ = cond
        node = value.ids[0]
        said = _said(question)
        own = _words(names[rel])
        others = _condition_rows(trace, shape, q)
        rivals = []
        for other_rel in dict.fromkeys(graph.rels_of(graph.facts_tail(node)).tolist()):
            other_rel = int(other_rel)
            if other_rel in used or other_rel == shape.target \
                    or names[other_rel] == ROW_NUMBER:
                continue
            words = _words(names[other_rel])
            # nothing the question says prefers the condition's column to the other one
            if not _named(_extra(own, words), said):
                rivals.append((len(_named(words, said)), other_rel))
        for _, other_rel in sorted(rivals, reverse=True)[:MAX_ALTERNATIVES]:
            other = _answer_if(graph, other_rel, node, others, shape.target)
            if _differs(answer, other):
                return [Reason("condition_column_ambiguous", f"{value.labels[0]!r} is also a "
                               f"{names[other_rel]!r}, which the question names as well as "
                               f"{names[rel]!r}; with that condition the answer is "
                               f"{_clip(', '.join(other[:3]))}", q.number, names[other_rel])]
    return []


def _condition_values(trace: Trace, question: str, shape: _Shape,
                      answer: Sequence[str]) -> list[Reason]:
    graph = trace.graph
    said = fold(question)
    for q in shape.conditions:
        cond = _condition(q)
        if cond is None or cond[2] != "=" or len(cond[1].ids) != 1:
            continue
        rel, value, _ = cond
        short = fold(value.labels[0]).strip()
        if not short:
            continue
        pool = graph.value_pool(rel)
        longer = [i for i in pool.containing(value.labels[0], limit=50)
                  if i != value.ids[0]]
        texts = [(i, fold(graph.label(i)).strip()) for i in longer]
        named = [(i, t) for i, t in texts if len(t) > len(short) and short in t and t in said]
        named.sort(key=lambda it: -len(it[1]))
        others = _condition_rows(trace, shape, q)
        for i, _ in named[:MAX_ALTERNATIVES]:
            other = _answer_if(graph, rel, i, others, shape.target)
            if _differs(answer, other):
                return [Reason("condition_value_narrower", f"the question says "
                               f"{graph.label(i)!r}, a cell of {graph.relation_names[rel]!r}; "
                               f"the condition holds only {value.labels[0]!r}, and with the "
                               f"whole cell the answer is {_clip(', '.join(other[:3]))}",
                               q.number, graph.label(i))]
    return []


def _unused_steps(trace: Trace) -> list[Reason]:
    """Condition steps that no step the answer depends on uses."""
    mapped = trace.mapped
    if mapped is None or len(mapped.program.queries) < 2:
        return []
    needed = trace.needed_steps()
    for q in mapped.program.queries:
        if q.number not in needed and _condition(q) is not None:
            return [Reason("step_unused", f"Query{q.number} finds rows that no later step "
                           "the answer depends on uses: the answer ignores that condition",
                           q.number, None)]
    return []


def _clip(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def ambiguity_reasons(trace: Trace, question: str) -> list[Reason]:
    """The reasons of this module for a table answer (none for KG / TKG data, for answers
    that are computed values, or for query shapes other than a plain read of the rows the
    conditions find, besides ``step_unused``)."""
    graph = trace.graph
    if not question or not graph.sources or any(x.kind != "table" for x in graph.sources):
        return []
    out = _unused_steps(trace)
    answer = trace.answer
    shape = _shape(trace)
    if shape is None or not answer:
        return out
    rows = _rows(trace, shape.rows_step)
    if not rows:
        return out
    used = {c[0] for q in shape.conditions if (c := _condition(q)) is not None}
    if shape.aggregate is not None:  # compare the cells the aggregate is taken over
        answer = _read(graph, sorted(rows), shape.target)
    out += _answer_column(trace, question, shape, answer, rows, used)
    out += _condition_columns(trace, question, shape, answer, used)
    out += _condition_values(trace, question, shape, answer)
    return out
