"""The noun a *which / what* question asks for, against the answer's value and column: a
number answering "which team ...", "what is the only ship ...", or the column ``Name`` read
for "Name the maidens ..." (stop 23, read off the tune halves' wrong answers shown verified).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from ..lexicon import word_set
from ..query.ast import Bound, Call
from ..text import table_words
from ..trace import Trace
from ..verdict_record import Reason
from .reading import YEAR, clip

#: "which team ...", "what is the only ship ...", "which is the smallest prison ...": the noun
#: asked for (group 1) and the word after it (group 2)
_HEAD = re.compile(r"^\s*(?:which|what)\s+(?:(?:is|was|are|were)\s+the\s+)?"
                   r"(?:(?:only|first|last|[a-z]+est)\s+)?([a-z]+)(?:\s+([a-z#.]+))?",
                   re.IGNORECASE)
#: nouns whose answer may well be a bare number (the lexicon's numeric heads and a few more)
_NUMERIC = word_set("numeric_heads") | frozenset({
    "number", "numbers", "total", "amount", "sum", "average", "mean", "median", "percentage",
    "rate", "ratio", "difference", "many", "much", "long", "old", "far", "tall", "high"})
#: words in the noun's place that are no noun: verbs, articles, pronouns, aggregate adjectives
_NOT_NOUN = frozenset({
    "is", "was", "are", "were", "the", "a", "an", "of", "in", "on", "did", "does", "do", "has",
    "had", "kind", "type", "one", "ones", "minimum", "maximum", "most", "least", "top", "low",
    "high", "lowest", "highest", "average", "total", "all", "listed", "that", "other", "entry",
    "entries", "smallest", "largest", "biggest", "fewest", "greatest", "overall", "negative",
    "positive"})
#: "which tie no ...", "what race number ...": the noun names a number
_NUMBER_AFTER = frozenset({"no", "no.", "number", "numbers", "#", "count"})
#: a column holding a count of the noun ("# of prisoners designed for") does not name it
_COUNT_COLUMN = re.compile(r"^\s*(?:#|no\.?|number|num\.?)\s+of\b", re.IGNORECASE)
#: an answer that is a bare number (no word in it)
_NUMBER = re.compile(r"^\s*[-+−]?[\d.,]*\d[\d.,]*\s*%?\s*$")
#: "Name the maidens where ...": the imperative, not a column
_NAME_THE = re.compile(r"^\s*name\s+the\s+([a-z#]+)", re.IGNORECASE)
#: "what is the only year ...", "which year ...": a year is asked
_YEAR_ASKED = re.compile(r"^\s*(?:which|what)\s+(?:(?:is|was)\s+the\s+)?(?:(?:only|first|last)\s+)?"
                         r"year\b", re.IGNORECASE)
#: "who was appointed ...", "who was the only person to be inducted ...": a passive question
_WHO_PASSIVE = re.compile(r"^\s*(?:who|whom)\s+(?:was|were|is|are|has been|had been)\b",
                          re.IGNORECASE)
_BY = re.compile(r"\bby\b", re.IGNORECASE)
#: "Appointed by", "Inducted by": a column naming who did it (group 1: the participle's words)
_BY_COLUMN = re.compile(r"^(.*\S)\s+by\s*$", re.IGNORECASE)
#: aggregates that give one of the column's values or a value of its kind (not a count)
_PICKS = frozenset({"max", "min", "mean", "average", "avg", "sum"})


def asked_noun(question: str) -> str | None:
    """The noun a *which / what* question asks for, when it is not one a bare number
    answers.

    >>> asked_noun("which team has had the most cup premierships?")
    'team'
    >>> asked_noun("what is the only ship in this yard built as a lightvessel?")
    'ship'
    >>> asked_noun("which is the smallest prison on the list?")
    'prison'
    >>> [asked_noun(q) for q in ("what year did it open?", "which tie no had the least?",
    ...                          "what is the maximum points?", "how many ships?")]
    [None, None, None, None]
    """
    m = _HEAD.match(question)
    if m is None:
        return None
    noun, after = m.group(1).lower(), (m.group(2) or "").lower()
    if noun in _NUMERIC or noun in _NOT_NOUN or after in _NUMBER_AFTER:
        return None
    return noun


def _names(noun: str, column: str) -> bool:
    """True when ``noun`` names ``column`` (a word of it, or its first 3-4 letters), unless
    the column holds a count of something ("# of prisoners").

    >>> _names("pick", "Pick #"), _names("prison", "# of prisoners"), _names("team", "Year")
    (True, False, False)
    """
    if _COUNT_COLUMN.match(column):
        return False
    tokens = set(table_words(column))
    return noun in tokens or any(min(4, len(noun), len(t)) >= 3
                                 and noun[:min(4, len(noun), len(t))] == t[:min(4, len(noun),
                                                                                len(t))]
                                 for t in tokens)


def answer_read(trace: Trace) -> Call | None:
    """The mapped call the final answer is read by: the last step, or the step a max / min /
    mean / sum in the last step reads ("which game is the highest one ...": the ``Game``
    lookup under a max); None when nothing was mapped."""
    if trace.mapped is None or not trace.mapped.program.queries:
        return None
    queries = {q.number: q.call for q in trace.mapped.program.queries}
    read = trace.mapped.program.queries[-1].call
    if read.func in _PICKS and len(read.refs()) == 1 and read.refs()[0] in queries:
        read = queries[read.refs()[0]]
    return read


def read_columns(trace: Trace) -> list[str] | None:
    """The column(s) the final answer is read from: the relation of the last step, through a
    max / min / mean / sum over it; ``[]`` for a count (it reads no column); None when the
    last step is of another kind."""
    read = answer_read(trace)
    if read is None:
        return None
    if read.func == "count":
        return []
    rel = read.arg("relation")
    if read.func != "get_information" or rel is None or not isinstance(rel.value, Bound):
        return None
    return list(rel.value.labels)


def _number_for_noun(trace: Trace, question: str, answer: Sequence[str]) -> list[Reason]:
    """A number answering a question that asks for a thing ("which team ...?" → *2005*),
    read from a column the noun does not name (or counted)."""
    noun = asked_noun(question)
    if noun is None or not answer or not all(_NUMBER.match(a) for a in answer):
        return []
    columns = read_columns(trace)
    if columns is None or any(_names(noun, c) for c in columns):
        return []
    where = f"read from {columns[0]!r}" if columns else "a count"
    return [Reason("number_for_noun", f"the question asks which {noun}, and the answer "
                   f"({clip(', '.join(answer[:3]), 40)}) is a number ({where}), not a "
                   f"{noun}: check that the query reads the {noun} itself", None, noun)]


def names_other_column(word: str, columns: Sequence[str]) -> bool:
    """True when ``word`` is a word of one of ``columns`` or a near spelling of one (a
    typo such as *maaidens* for ``Maidens``).

    >>> names_other_column("maaidens", ["Name", "Maidens"]), names_other_column("to", ["To"])
    (True, True)
    >>> names_other_column("tallest", ["Name", "Height"])
    False
    """
    word = word.lower()
    tokens = {t for c in columns for t in table_words(c)}
    return word in tokens or any(len(t) >= 4 and SequenceMatcher(None, word, t).ratio() >= 0.9
                                 for t in tokens)


def _name_read_as_column(trace: Trace, question: str) -> list[Reason]:
    """"Name the maidens where ..." answered from the column ``Name``, while *maidens* names
    another column of the table: the imperative *name* was read as the column, and the
    column the question asks for was left out ("name the tallest building" read from
    ``Name`` is left alone)."""
    m = _NAME_THE.match(question)
    columns = read_columns(trace)
    if m is None or m.group(1).lower() in ("name", "names") or not columns \
            or not all(" ".join(table_words(c)) in ("name", "names") for c in columns):
        return []
    others = [c for c in trace.graph.relation_names if c not in columns]
    if not names_other_column(m.group(1), others):
        return []
    return [Reason("name_read_as_column", f"the question says 'name the {m.group(1)}', and "
                   f"the answer is read from the column {columns[0]!r}: 'name' asks for the "
                   f"{m.group(1)}, it does not name that column", None, m.group(1))]


def _year_not_year(question: str, answer: Sequence[str]) -> list[Reason]:
    """"what is the only year that had 460 live births?" answered *12.0*: a year is asked,
    and no answer value holds one.

    >>> [r.code for r in _year_not_year("what is the only year that had 460 births?", ["12.0"])]
    ['year_not_year']
    >>> _year_not_year("which year had 460 births?", ["1998"])
    []
    """
    if not answer or _YEAR_ASKED.match(question) is None \
            or all(YEAR.search(a) for a in answer):
        return []
    return [Reason("year_not_year", f"the question asks which year, and the answer "
                   f"({clip(', '.join(answer[:3]), 40)}) holds no year: check the column it "
                   "is read from", None, None)]


def _by_column_for_passive(trace: Trace, question: str) -> list[Reason]:
    """"who was the only associate justice appointed in 2010?" answered from ``Appointed
    by``: the passive question asks who was appointed, the column holds who appointed."""
    columns = read_columns(trace)
    if not columns or _WHO_PASSIVE.match(question) is None or _BY.search(question):
        return []
    for column in columns:
        m = _BY_COLUMN.match(column)
        verb = m.group(1).lower().split()[-1] if m else ""
        if verb and re.search(rf"\b{re.escape(verb)}\b", question, re.IGNORECASE):
            return [Reason("by_column_for_passive", f"the question asks who was {verb}, and "
                           f"the answer is read from {column!r}, which holds who did it",
                           None, column)]
    return []


def tables_only(trace: Trace) -> bool:
    """True when every source the run read is a table: the readings of stop 23 are about
    columns (a KG's relation answering "what year ..." is left to the KG's own reasons)."""
    return bool(trace.graph.sources) and all(x.kind == "table" for x in trace.graph.sources)


def asked_noun_reasons(trace: Trace, question: str, answer: Sequence[str]) -> list[Reason]:
    """The reasons of stop 23 on the noun the question asks for (tables only)."""
    if not tables_only(trace):
        return []
    return (_number_for_noun(trace, question, answer) + _name_read_as_column(trace, question)
            + _year_not_year(question, answer) + _by_column_for_passive(trace, question))
