"""Re-binding a user-confirmed demo to a question of the same template.

A confirmed demo carries more than the entity literals :mod:`.templates` swaps: the column it
ranks and the direction of the ranking are named in its question too. Here a confirmed
question gets three kinds of slot:

- *entity* — a literal of the query found in the question (as in :mod:`.templates`);
- *column* — a relation/column argument named in the question; the new text must name one
  column of the graph (``number of projects`` names ``Projects``);
- *direction* — a superlative (``highest`` / ``lowest``, ``most`` / ``fewest``); a new word
  of the other direction swaps ``max`` and ``min`` (and ``'most'`` and ``'least'``).

>>> from trustuqa_core.query import parse, render_program
>>> demo = parse("Query1: \\"get_information(relation='Salary')\\"\\n"
...              "Query2: \\"max(set='output_of_query1')\\"\\n"
...              "Query3: \\"get_information(relation='Salary', "
...              "tail_entity='output_of_query2')\\"\\n"
...              "Query4: \\"get_information(relation='Name', head_entity='output_of_query3')\\"")
>>> got = rebind_confirmed("Who has the highest salary?", demo,
...                        "who has the lowest number of projects",
...                        ["Name", "Salary", "Projects"], None)
>>> print(render_program(got.program, with_steps=False))
Query1: "get_information(relation='Projects')"
Query2: "min(set='output_of_query1')"
Query3: "get_information(relation='Projects', tail_entity='output_of_query2')"
Query4: "get_information(relation='Name', head_entity='output_of_query3')"
>>> got.swaps
(('Salary', 'Projects'), ('highest', 'lowest'))
>>> rebind_confirmed("Who has the highest salary?", demo, "who is the oldest",
...                  ["Name", "Salary"], None) is None
True

A candidate made this way carries a note (:func:`confirmed_note`) that names the confirmed
question; :func:`confirmed_question` reads it back, so the verdict can say which example shaped
the answer ("shaped by your confirmed example: ...").
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..numbers import parse_number
from ..query.ast import Call, ListValue, Program, Query, Text, Value
from ..rewrite import MAX_WORDS, MIN_WORDS
from ..store import LabelPool
from ..text import normalize, question_key
from .linking import header_mentions, tokens
from .templates import _literals

__all__ = ["Rebound", "rebind_confirmed", "column_named", "UP_WORDS", "DOWN_WORDS",
           "CONFIRMED_NOTE", "confirmed_note", "confirmed_question"]

#: how the note of a candidate re-bound from a user-confirmed demo starts
CONFIRMED_NOTE = "re-bound your confirmed example"
_NOTE_QUESTION = re.compile(re.escape(CONFIRMED_NOTE) + r' (?P<q>"(?:[^"\\]|\\.)*") ')

#: one-word superlatives by direction (the ranking words of :mod:`..rewrite`, plus counts)
UP_WORDS = frozenset(w for w in MAX_WORDS if " " not in w) | {"most", "more"}
DOWN_WORDS = frozenset(w for w in MIN_WORDS if " " not in w) | {"least", "fewest", "less"}
_FLIP_FUNCS = {"max": "min", "min": "max", "argmax": "argmin", "argmin": "argmax"}
_FLIP_VALUES = {"most": "least", "least": "most"}
#: words a column mention may carry besides the column's own name
_FILLER = frozenset({"number", "of", "the", "a", "an", "amount", "value", "count"})
_COLUMN_ARGS = ("relation", "key")


@dataclass(frozen=True)
class Rebound:
    """A confirmed demo's program re-bound to a new question, and what was swapped."""

    program: Program
    swaps: tuple[tuple[str, str], ...]


def column_named(text: str, columns: Sequence[str]) -> str | None:
    """The one column ``text`` names, if any: by its normalised name, else by its words with
    only filler words (``number of``) left over.

    >>> column_named("number of projects", ["Name", "Projects"])
    'Projects'
    >>> column_named("run 1 rank", ["Run 1", "Run 1 rank"])
    'Run 1 rank'
    >>> column_named("shoe size", ["Name", "Projects"]) is None
    True
    """
    key = normalize(text)
    exact = [c for c in columns if normalize(c) == key]
    if exact:
        return exact[0] if len(exact) == 1 else None
    words = tokens(text)
    found = header_mentions(words, columns)
    full = sorted(((s, c, a, b) for c, (s, a, b) in found.items() if s >= 1.0), reverse=True)
    if not full or (len(full) > 1 and full[1][0] == full[0][0]):
        return None
    _, col, start, end = full[0]
    rest = words[:start] + words[end:]
    return col if all(w in _FILLER for w in rest) else None


def confirmed_note(question: str, similarity: float, swaps: Sequence[tuple[str, str]]) -> str:
    """The writer's note for a candidate re-bound from the confirmed ``question`` (the
    question JSON-quoted, so :func:`confirmed_question` reads it back exactly).

    >>> print(confirmed_note("Who won?", 0.634, [("highest", "lowest")]))
    re-bound your confirmed example "Who won?" (similarity 0.63): 'highest' -> 'lowest'
    >>> confirmed_question(confirmed_note('Who said "hi"?', 0.5, []))
    'Who said "hi"?'
    """
    done = ", ".join(f"{a!r} -> {b!r}" for a, b in swaps) or "nothing to swap"
    quoted = json.dumps(question, ensure_ascii=False)
    return f"{CONFIRMED_NOTE} {quoted} (similarity {similarity:.2f}): {done}"


def confirmed_question(note: str) -> str | None:
    """The confirmed question a writer's note says its candidate was re-bound from; None for
    any other note (a note is text, only ever read as JSON, never evaluated).

    >>> confirmed_question(confirmed_note("Who has the highest salary?", 0.7, []))
    'Who has the highest salary?'
    >>> confirmed_question("schema linking: table t.csv") is None
    True
    """
    m = _NOTE_QUESTION.match(note)
    if m is None:
        return None
    try:
        value = json.loads(m["q"])
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _direction(word: str) -> str | None:
    return "up" if word in UP_WORDS else "down" if word in DOWN_WORDS else None


def _slot_pattern(demo_question: str, program: Program,
                  columns: Sequence[str]) -> tuple[re.Pattern[str], list[tuple[str, str]]] | None:
    """The demo question as a regex with one group per slot, and each slot's
    ``(kind, literal)``; None when the question names none of the query's literals."""
    text = question_key(demo_question)
    col_keys = {normalize(c) for c in columns}
    lits = [("entity", x) for x in _literals(program)]
    lits += [("column", a.value.value) for q in program.queries for a in q.call.args
             if a.name in _COLUMN_ARGS and isinstance(a.value, Text)
             and normalize(a.value.value) in col_keys]
    slots: list[tuple[str, str]] = []
    for kind, lit in sorted(dict.fromkeys(lits), key=lambda x: -len(x[1])):
        needle = question_key(lit)
        pat = re.compile(r"(?<!\w)" + re.escape(needle) + r"(?!\w)")
        if needle and "\x00" not in needle and pat.search(text):
            text = pat.sub(f"\x00{len(slots)}\x00", text, count=1)
            slots.append((kind, lit))
    for m in re.finditer(r"\w+", text):
        if _direction(m.group()):
            text = text[:m.start()] + f"\x00{len(slots)}\x00" + text[m.end():]
            slots.append(("direction", m.group()))
            break
    if not slots:
        return None
    regex = []
    for i, part in enumerate(re.split(r"\x00(\d+)\x00", text)):
        if i % 2 == 0:
            regex.append(_loose(part))
        elif slots[int(part)][0] == "direction":
            words = sorted(UP_WORDS | DOWN_WORDS, key=len, reverse=True)
            regex.append(f"(?P<s{part}>" + "|".join(map(re.escape, words)) + ")")
        else:
            regex.append(f"(?P<s{part}>.+?)")
    return re.compile("".join(regex), re.IGNORECASE), slots


def _loose(part: str) -> str:
    """A literal part of a template as a regex: its words in order, any run of spaces and
    punctuation between them (``the *highest*`` also fits ``the highest``)."""
    return "".join(re.escape(p) if re.fullmatch(r"\w+", p) else r"\W+"
                   for p in re.split(r"(\w+)", part) if p)


def rebind_confirmed(demo_question: str, program: Program, question: str,
                     columns: Sequence[str], entities: LabelPool | None) -> Rebound | None:
    """``program`` (confirmed for ``demo_question``) re-bound to ``question``, or None when
    the question does not fit the demo's template or a new slot text names nothing of the
    data (an entity not in ``entities`` and not a number, a column not in ``columns``)."""
    made = _slot_pattern(demo_question, program, columns)
    if made is None:
        return None
    pattern, slots = made
    m = pattern.fullmatch(question_key(question))
    if m is None:
        return None
    values: dict[str, str] = {}
    columns_to: dict[str, str] = {}
    flip = False
    swaps: list[tuple[str, str]] = []
    text_swaps: list[tuple[str, str]] = []
    for i, (kind, lit) in enumerate(slots):
        new = m.group(f"s{i}").strip(" ,'\"*_")
        if kind == "column":
            col = column_named(new, columns)
            if col is None:
                return None
            columns_to[lit] = col
            new = col
        elif kind == "direction":
            flip = _direction(new.casefold()) != _direction(lit)
        else:
            if not new or not (parse_number(new) is not None or entities is None
                               or entities.normalized(new)):
                return None
            values[lit] = new
        if normalize(new) != normalize(lit):
            swaps.append((lit, new))
            if kind != "direction":  # descriptions: ranking words are turned by _flip_words
                text_swaps.append((lit, new))
    queries = []
    for q in program.queries:
        args = []
        for a in q.call.args:
            value = a.value
            if a.name in _COLUMN_ARGS and isinstance(value, Text) and value.value in columns_to:
                value = Text(columns_to[value.value], value.quoted)
            else:
                value = _swap(value, values, flip)
            args.append(replace(a, value=value))
        func = _FLIP_FUNCS.get(q.call.func, q.call.func) if flip else q.call.func
        text = _words(q.description, text_swaps)
        queries.append(Query(q.number, Call(func, tuple(args)), _flip_words(text) if flip
                             else text))
    target = program.target_type
    return Rebound(Program(tuple(queries), _words(target, text_swaps) if target else target),
                   tuple(swaps))


_OPPOSITES = {"largest": "smallest", "smallest": "largest", "highest": "lowest",
              "lowest": "highest", "maximum": "minimum", "minimum": "maximum", "max": "min",
              "min": "max", "most": "least", "least": "most", "biggest": "smallest",
              "greatest": "smallest"}


def _flip_words(text: str) -> str:
    """A step description with its ranking words turned the other way.

    >>> _flip_words("Find the largest Bib, the most often")
    'Find the smallest Bib, the least often'
    """
    return re.sub(r"\b(" + "|".join(_OPPOSITES) + r")\b",
                  lambda m: _OPPOSITES[m.group().casefold()] if m.group().islower()
                  else _OPPOSITES[m.group().casefold()].capitalize(), text, flags=re.IGNORECASE)


def _words(text: str, swaps: Sequence[tuple[str, str]]) -> str:
    """A step description with the swapped words swapped too (whole words, any case)."""
    for old, new in swaps:
        text = re.sub(r"(?<!\w)" + re.escape(old) + r"(?!\w)", new.replace("\\", r"\\"),
                      text, flags=re.IGNORECASE)
    return text


def _swap(value: Value, values: dict[str, str], flip: bool) -> Value:
    if isinstance(value, Text):
        text = value.value.strip()
        if text in values:
            return Text(values[text], value.quoted)
        if flip and text.casefold() in _FLIP_VALUES:
            return Text(_FLIP_VALUES[text.casefold()], value.quoted)
        return value
    if isinstance(value, ListValue):
        return ListValue(tuple(_swap(v, values, flip) for v in value.items))  # type: ignore[misc]
    return value
