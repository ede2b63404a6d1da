"""What a question names, and whether a query binds it (label-free evidence for the verdict).

A *mention* is a span of the question that names something specific: a bracketed or quoted
entity (``[Mel Brooks]``, ``"Duke"``), a capitalised name inside the sentence (``USA``,
``A.C. Milan``), a number or a year. :func:`unbound_mentions` lists those that no literal of
a query (as written or as mapped) covers: a query that ignores what the question names
cannot be the checked answer to it. :func:`expected_type` reads the answer type a question
asks for (``who`` -> entity, ``when`` -> time, ``how many`` -> number).

>>> [(m.text, m.kind) for m in find_mentions("Which skiers are from USA in 2014?")]
[('USA', 'entity'), ('2014', 'date')]
>>> unbound_mentions(find_mentions("Which skiers are from USA?"), ["Nation", "Austria"])
[Mention(text='USA', kind='entity')]
>>> expected_type("How many points did Cid score?"), expected_type("who wrote Dune?")
('number', 'entity')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .mapping.lexical import normalize
from .numbers import parse_number

__all__ = ["Mention", "find_mentions", "unbound_mentions", "is_bound", "expected_type",
           "answer_type", "type_consistent", "MentionKind", "AnswerType"]

MentionKind = Literal["entity", "number", "date"]
AnswerType = Literal["number", "time", "entity", "any"]

_BRACKET = re.compile(r"\[([^\]]+)\]")
_QUOTED = re.compile(r"[\"“]([^\"”]{1,80})[\"”]|(?<![\w])'([^']{2,80})'(?![\w])")
_TOKEN = re.compile(r"[\w][\w.&'’\-]*[\w.]|[\w]", re.UNICODE)
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?(?![\w])")
# capitalised words that are not names when they appear inside a question
_NOT_NAMES = {
    "i", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "the", "a",
    "an", "is", "are", "was", "were", "did", "do", "does", "name", "list", "tell", "give",
    "show", "in", "of", "on", "at", "for", "and", "or", "to", "total", "number", "average",
}
_JOINERS = {"of", "de", "the", "and", "&", "von", "van", "da", "del", "la", "le", "y"}
_WH_NUMBER = re.compile(r"\b(how (many|much)|what (is|was) the (number|total|count|sum|"
                        r"average)|number of|count of|total (number|amount))\b")
_WH_TIME = re.compile(r"^\s*(when\b|what (year|date|day|month|time)|in (what|which) year|"
                      r"which (year|date))")
_WH_ENTITY = re.compile(r"^\s*(who|whom|whose)\b")


@dataclass(frozen=True)
class Mention:
    """A span of the question naming a specific entity, value, number or date."""

    text: str
    kind: MentionKind


def _names(question: str) -> list[str]:
    """Capitalised word runs after the first word (``USA``, ``A.C. Milan``, ``Mel Brooks``)."""
    tokens = [(m.group(0), m.start()) for m in _TOKEN.finditer(question)]
    found: list[str] = []
    run: list[str] = []

    def close() -> None:
        while run and run[-1].lower() in _JOINERS:
            run.pop()
        if run:
            found.append(" ".join(run))
        run.clear()

    for i, (tok, _) in enumerate(tokens):
        word = tok.rstrip(".")
        capital = word[:1].isupper() and word.lower() not in _NOT_NAMES
        if i > 0 and capital and parse_number(word) is None:
            run.append(tok if tok.count(".") > 1 else word)
        elif run and tok.lower() in _JOINERS:
            run.append(tok)
        else:
            close()
    close()
    return found


def find_mentions(question: str) -> list[Mention]:
    """Bracketed, quoted and capitalised names, numbers and years named in ``question``.

    >>> [m.text for m in find_mentions("what films did [Mel Brooks] direct")]
    ['Mel Brooks']
    >>> [m.text for m in find_mentions('total Amount of orders in Berlin')]
    ['Amount', 'Berlin']
    """
    out: list[Mention] = []
    seen: set[str] = set()

    def add(text: str, kind: MentionKind) -> None:
        key = normalize(text)
        if key and key not in seen:
            seen.add(key)
            out.append(Mention(text.strip(), kind))

    rest = question
    for rx in (_BRACKET, _QUOTED):
        for m in rx.finditer(rest):
            add(next(g for g in m.groups() if g), "entity")
        rest = rx.sub(" ", rest)
    for name in _names(rest):
        add(name, "entity")
    for m in _NUMBER.finditer(rest):
        x = parse_number(m.group(0))
        if x is None:
            continue
        whole = x == int(x)
        add(m.group(0), "date" if whole and 1000 <= x <= 2100 and "," not in m.group(0)
            else "number")
    return out


def is_bound(mention: Mention, literals: Iterable[str]) -> bool:
    """True when some literal covers the mention (same text or number, one containing the
    other as whole words, or most of the mention's words).

    >>> is_bound(Mention("A.C. Milan", "entity"), ["AC Milan"])
    True
    >>> is_bound(Mention("12", "number"), ["12.0"]), is_bound(Mention("Cid", "entity"), ["Rank"])
    (True, False)
    """
    want = normalize(mention.text)
    if not want:
        return True
    value = parse_number(mention.text)
    words = set(want.split())
    squashed = want.replace(" ", "")
    for lit in literals:
        have = normalize(str(lit))
        if not have:
            continue
        if have == want or have.replace(" ", "") == squashed:
            return True
        if value is not None and any(parse_number(w) == value for w in have.split()):
            return True
        if value is None and (f" {want} " in f" {have} " or f" {have} " in f" {want} "):
            return True
        if value is None and len(words) > 1:
            shared = words & set(have.split())
            if len(shared) * 2 > len(words):
                return True
    return False


def unbound_mentions(mentions: Sequence[Mention], literals: Iterable[str]) -> list[Mention]:
    """The mentions no literal covers (see :func:`is_bound`)."""
    lits = [str(x) for x in literals]
    return [m for m in mentions if not is_bound(m, lits)]


def expected_type(question: str) -> AnswerType:
    """The answer type the question asks for: ``number``, ``time``, ``entity`` or ``any``."""
    q = question.lower()
    if _WH_NUMBER.search(q):
        return "number"
    if _WH_TIME.search(q):
        return "time"
    if _WH_ENTITY.search(q):
        return "entity"
    return "any"


def answer_type(answers: Sequence[str]) -> AnswerType:
    """``number`` when every answer reads as a number (a year is also a time), else
    ``entity``; ``any`` for no answer.

    >>> answer_type(["16"]), answer_type(["Tina Maze", "3"]), answer_type([])
    ('number', 'entity', 'any')
    """
    if not answers:
        return "any"
    return "number" if all(parse_number(a) is not None for a in answers) else "entity"


_TIME_TEXT = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|"
                        r"oct|nov|dec)[a-z]*\b|\d{1,2}[/.-]\d{1,2}", re.IGNORECASE)


def type_consistent(question: str, answers: Sequence[str]) -> bool:
    """False when the answer cannot be what the question asks for: ``how many`` answered by
    names, ``when`` answered by something with no date in it, ``who`` answered by bare
    numbers.

    >>> type_consistent("how many points did Ann score?", ["Ann"])
    False
    >>> type_consistent("when did it open?", ["1999"]), type_consistent("who won?", ["16"])
    (True, False)
    """
    want, have = expected_type(question), answer_type(answers)
    if want == "any" or have == "any":
        return True
    if want == "number":
        return have == "number"
    if want == "time":
        return all(_TIME_TEXT.search(a) or parse_number(a) is not None for a in answers)
    return have != "number"
