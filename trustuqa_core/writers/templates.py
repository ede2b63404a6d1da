"""Template re-binding: a demo with the same question template, its literal swapped.

A demo ``"what movies did [Tom Hanks] act in" -> get_information(..., tail_entity='Tom Hanks')``
has the template ``what movies did [{}] act in`` (the query's literals found in the question
become slots). A new question matching the template gets the demo's query with the slot's new
text in place of the old literal. Brackets are optional on both sides.

>>> from trustuqa_core.query import parse
>>> t = make_template("who directed [Kismet]?", parse(
...     "Query1: \\"get_information(relation='directed_by', head_entity='Kismet')\\""))
>>> t.key, t.match("Who directed Juarez?")
('who directed {}', ('Juarez',))
>>> from trustuqa_core.query import render_program
>>> print(render_program(rebind(t, ("Juarez",))))
Query1: "get_information(relation='directed_by', head_entity='Juarez')"
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..demos import DemoPool
from ..errors import ParseError
from ..mapping.dense import EmbeddingIndex
from ..query.ast import Arg, Call, ListValue, Program, Query, Text, Value
from ..query.parse import parse
from ..rewrite import MAX_WORDS, MIN_WORDS
from ..store import LabelPool
from ..text import question_key

__all__ = ["Template", "make_template", "rebind",
           "TemplateIndex",
           "template_index", "mention_keys", "mentions"]

_LITERAL_ARGS = {"head_entity", "tail_entity", "value"}
_SPECIAL = {"most", "least"} | MAX_WORDS | MIN_WORDS
_SLOT = "\x00{}\x00"


@dataclass(frozen=True)
class Template:
    """A demo question with slots, its program, and the literal each slot stands for."""

    key: str
    pattern: re.Pattern[str]
    literals: tuple[str, ...]
    program: Program
    order: tuple[int, ...] = ()

    @property
    def slots(self) -> int:
        return len(self.literals)

    def in_order(self, values: Sequence[str]) -> tuple[str, ...]:
        """Slot texts given in order of appearance -> in literal order."""
        out = [""] * len(self.literals)
        for value, slot in zip(values, self.order, strict=False):
            out[slot] = value
        return tuple(out)

    def match(self, question: str) -> tuple[str, ...] | None:
        """The slot texts when ``question`` fits the template (original case kept)."""
        m = self.pattern.fullmatch(" ".join(question.replace("[", " ").replace("]", " ")
                                            .split()).rstrip(" ?.!"))
        if m is None:
            return None
        values = tuple(m.group(f"s{i}").strip(" ,'\"") for i in range(len(self.literals)))
        return values if all(values) else None


def _literals(program: Program) -> list[str]:
    out: list[str] = []

    def visit(value: Value, name: str | None) -> None:
        if isinstance(value, Text) and (name in _LITERAL_ARGS or name is None or
                                        name.startswith("set")):
            text = value.value.strip()
            if text and text.casefold() not in _SPECIAL and text not in out:
                out.append(text)
        elif isinstance(value, ListValue):
            for item in value.items:
                visit(item, name)

    for q in program.queries:
        for a in q.call.args:
            visit(a.value, a.name)
    return out


def make_template(question: str, program: Program) -> Template | None:
    """The template of a demo, or None when none of its literals occurs in its question."""
    text = question_key(question)
    found: list[str] = []
    for lit in sorted(_literals(program), key=len, reverse=True):
        needle = question_key(lit)
        if not needle:
            continue
        pat = re.compile(r"(?<!\w)" + re.escape(needle) + r"(?!\w)")
        if pat.search(text) and "\x00" not in needle:
            text = pat.sub(f"\x00{len(found)}\x00", text)
            found.append(lit)
    if not found:
        return None
    parts = re.split(r"\x00(\d+)\x00", text)
    regex, seen, key, order = [], set(), [], []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            regex.append(r"\s+".join(re.escape(w) for w in part.split(" ")) if part else "")
            key.append(part)
            continue
        slot = int(part)
        regex.append(f"(?P=s{slot})" if slot in seen else f"(?P<s{slot}>.+?)")
        if slot not in seen:
            order.append(slot)
        seen.add(slot)
        key.append("{}")
    if re.search(r"\(\?P[<=]s\d+>?[^)]*\)\(\?P", "".join(regex)):
        return None  # two slots side by side: ambiguous
    pattern = re.compile("".join(regex), re.IGNORECASE)
    return Template("".join(key), pattern, tuple(found), program, tuple(order))


def _swap(text: str, old: Sequence[str], new: Sequence[str]) -> str:
    for a, b in zip(old, new, strict=True):
        text = re.sub(re.escape(a), b.replace("\\", r"\\"), text, flags=re.IGNORECASE)
    return text


def _swap_value(value: Value, mapping: dict[str, str]) -> Value:
    if isinstance(value, Text) and value.value.strip() in mapping:
        return Text(mapping[value.value.strip()], value.quoted)
    if isinstance(value, ListValue):
        return ListValue(tuple(_swap_value(v, mapping) for v in value.items))  # type: ignore[misc]
    return value


def rebind(template: Template, values: Sequence[str]) -> Program:
    """The template's program with each literal replaced by the matching new text."""
    mapping = dict(zip(template.literals, values, strict=True))
    queries = []
    for q in template.program.queries:
        args = tuple(replace(a, value=_swap_value(a.value, mapping)) for a in q.call.args)
        queries.append(Query(q.number, Call(q.call.func, args),
                             _swap(q.description, template.literals, values)))
    target = template.program.target_type
    target = _swap(target, template.literals, values) if target else target
    return Program(tuple(queries), target)


class TemplateIndex:
    """Templates of every demo of a pool, by key (built once per pool)."""

    def __init__(self, pool: DemoPool) -> None:
        self.templates: dict[int, Template] = {}
        self.by_key: dict[str, list[int]] = {}
        for pos, demo in enumerate(pool.demos):
            try:
                program = parse(demo.query)
            except ParseError:
                continue
            t = make_template(demo.question, program)
            if t is not None:
                self.templates[pos] = t
                self.by_key.setdefault(t.key, []).append(pos)
        self.keys = list(self.by_key)
        self._pool = pool
        self._dense: EmbeddingIndex | None = None

    def similar_keys(self, key: str, slots: int, k: int = 5) -> list[tuple[str, float]]:
        """The ``k`` template keys most similar to ``key`` with as many slots (by the pool's
        encoder, over keys with ``{}`` read as ``X``)."""
        if not self.keys:
            return []
        if self._dense is None:
            self._dense = EmbeddingIndex([x.replace("{}", "X") for x in self.keys],
                                         self._pool.encoder, self._pool.cache_dir)
        found = self._dense.search_positions(key.replace("{}", "X"), k=min(len(self.keys),
                                                                           8 * k))
        out = [(self.keys[i], s) for i, s in found if self.keys[i].count("{}") == slots]
        return out[:k]


_INDEXES: weakref.WeakKeyDictionary[DemoPool, TemplateIndex] = weakref.WeakKeyDictionary()


def template_index(pool: DemoPool) -> TemplateIndex:
    """The (cached) template index of a pool."""
    index = _INDEXES.get(pool)
    if index is None:
        index = TemplateIndex(pool)
        _INDEXES[pool] = index
    return index


def mentions(question: str, entities: LabelPool | None,
             max_words: int = 8) -> list[tuple[str, tuple[str, ...]]]:
    """Possible ``(template key, slot texts in order)`` of a question: its bracketed spans,
    else the graph entities it names (each alone, then all together).

    >>> mentions("what films did [Bette Davis] star in", None)
    [('what films did {} star in', ('Bette Davis',))]
    """
    spans = [(m.start(1), m.group(1)) for m in re.finditer(r"\[([^\]]+)\]", question)]
    if not spans and entities is not None:
        words = question_key(question).split()
        taken: set[int] = set()
        for n in range(min(max_words, len(words)), 0, -1):
            for i in range(len(words) - n + 1):
                if taken & set(range(i, i + n)):
                    continue
                text = " ".join(words[i:i + n])
                if (n > 1 or len(text) > 3) and entities.normalized(text):
                    spans.append((i, text))
                    taken |= set(range(i, i + n))
    spans.sort()
    out: list[tuple[str, tuple[str, ...]]] = []
    for _, span in spans:
        out.append((_slotted(question_key(question), [span]), (span,)))
    if len(spans) > 1:
        texts = [t for _, t in spans]
        out.append((_slotted(question_key(question), texts), tuple(texts)))
    return list(dict.fromkeys(out))


def _slotted(key: str, spans: Sequence[str]) -> str:
    for span in spans:
        pat = re.compile(r"(?<!\w)" + re.escape(question_key(span)) + r"(?!\w)")
        key = pat.sub("{}", key, count=1)
    return key


def mention_keys(question: str, entities: LabelPool | None) -> list[str]:
    """Just the keys of :func:`mentions`."""
    return [k for k, _ in mentions(question, entities)]


def literal_args(program: Program) -> list[Arg]:
    """The arguments of a program holding literals (for checks)."""
    return [a for q in program.queries for a in q.call.args if isinstance(a.value, Text)]
