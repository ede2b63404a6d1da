"""Prompts for the query writer: what the LLM is told, built from data files in ``prompts/``.

The prompt text lives in ``trustuqa_core/prompts/*.md`` (``string.Template`` placeholders,
``$name``), never in Python literals. This module only chooses and fills them:

- :func:`describe_schema` says what the LLM may know about a graph: table columns with one
  example value each (the first non-empty cell), or, when data values must not be shared, the
  format of their values and how many rows leave them blank (:mod:`.shapes`); KG and TKG
  relations each with its direction, ``relation: head kind -> tail kind`` (plus one example
  triple when values may be shared), chosen from the question's entities outward when there
  are too many (:mod:`.relations`); TKG time keys; or every source of a mixed graph.
- :func:`build_messages` puts instructions, retrieved demonstrations and the question together.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> g = build_graph([load_source(b"Nation,Gold\\nItaly,4\\nSpain,0\\n", "table", "t.csv")])
>>> print(describe_schema(g).text)
Table t.csv. Columns (name: example value): Nation: Italy | Gold: 4 | row_number: 1
>>> print(describe_schema(g, examples=False).text)
Table t.csv. Columns (name: format of values): Nation: text | Gold: number | row_number: number
"""

from __future__ import annotations

import re
import string
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

import numpy as np

from ..mapping.dense import EmbeddingIndex, Encoder
from ..mapping.mapper import Mapper
from ..store import GraphStore
from .budget import estimate_tokens
from .relations import choose_within, linked_entities
from .shapes import column_profile, example_triple, relation_signature

__all__ = [
    "MAX_RELATIONS",
    "RELATION_TOKENS",
    "PromptKind",
    "Schema",
    "PromptDemo",
    "load_text",
    "render",
    "graph_kind",
    "describe_schema",
    "system_prompt",
    "user_message",
    "build_messages",
]

PromptKind = Literal["table", "kg", "tkg", "mixed"]
#: at most this many relations of one source are listed, whatever the token budget
MAX_RELATIONS = 100
#: token budget of one source's relation lines (llm/budget.py estimate); a graph whose lines
#: fit is listed whole, a bigger one gets the lines of the relations chosen within it. 900 is
#: about what the 40 relations shown before the budget cost on WebQSP (845 tokens on average);
#: chosen on the WebQSP dev tune half (docs/LLM_RESULTS.md, section 1d)
RELATION_TOKENS = 900
_MAX_EXAMPLE = 60
_MESSAGE_TOKENS = 3  # what estimate_tokens adds per message, less a newline
_TIME_KEYS = "time, start_time, end_time"
_ROW_NUMBER = "row_number"


@lru_cache(maxsize=64)
def load_text(name: str) -> str:
    """The text of ``trustuqa_core/prompts/<name>`` (read once, with importlib.resources)."""
    if not re.fullmatch(r"[a-z_]+\.(md|json)", name):
        raise ValueError(f"invalid prompt file name {name!r}")
    return resources.files("trustuqa_core").joinpath("prompts", name).read_text(encoding="utf-8")


def render(name: str, **values: object) -> str:
    """Fill the ``$placeholders`` of a prompt file (every placeholder must be given).

    >>> render("question.md", schema="Relations: a", question="q?")
    'Relations: a\\nQuestion: q?'
    """
    return string.Template(load_text(name)).substitute(values).strip()


@dataclass(frozen=True)
class Schema:
    """What the writer may tell the LLM about a graph.

    Attributes:
        kind: ``table``, ``kg``, ``tkg`` or ``mixed``.
        text: the schema block of the prompt.
        relations: relation names shown (all of them unless the graph has too many).
        total_relations: how many relations the graph has.
        examples: True when one data value per table column is included.
    """

    kind: PromptKind
    text: str
    relations: tuple[str, ...]
    total_relations: int
    examples: bool


@dataclass(frozen=True)
class PromptDemo:
    """A demonstration as shown in a prompt: its question, its query and (tables) its schema."""

    question: str
    query: str
    schema: str | None = None


def graph_kind(graph: GraphStore) -> PromptKind:
    """``mixed`` when the sources are of different kinds, else the kind they share."""
    kinds = {s.kind for s in graph.sources}
    return "mixed" if len(kinds) != 1 else kinds.pop()


def describe_schema(
    graph: GraphStore,
    question: str = "",
    *,
    examples: bool = True,
    encoder: Encoder | None = None,
    max_relations: int = MAX_RELATIONS,
    relation_tokens: int = RELATION_TOKENS,
    mapper: Mapper | None = None,
    entities: Sequence[str] = (),
    first: Sequence[str] = (),
) -> Schema:
    """The schema block for ``graph`` (see the module docstring).

    Args:
        question: ranks relations when a KG has more of them than fit (below).
        examples: include one example value per table column and one example triple per
            KG/TKG relation (data values!); when False only formats, kinds and blank counts.
        max_relations, relation_tokens: a KG source lists at most ``max_relations``
            relations, whose lines together cost at most ``relation_tokens`` tokens.
        encoder: ranks relations by cosine similarity to the question; without it, by word
            overlap.
        mapper: links the question to graph entities, whose 1- and 2-hop relations are shown
            first when the graph has too many (see :mod:`~trustuqa_core.llm.relations`).
        entities: entity texts known to be in the question (e.g. a benchmark's topic entity).
        first: names of sources described first (the sources a question was routed to).
    """
    kind = graph_kind(graph)
    parts: list[str] = []
    shown: list[str] = []
    anchors: list[int] | None = None
    order = sorted(range(len(graph.sources)),
                   key=lambda i: (graph.sources[i].name not in first, i))
    for index in order:
        source = graph.sources[index]
        rels = _source_relations(graph, index)
        if source.kind == "table":
            cols = [c for c in source.columns if c in rels] + [c for c in rels if c not in
                                                                source.columns]
            parts.append(_table_block(graph, index, cols, examples))
            shown += cols
            continue
        def cost(name: str, index: int = index) -> int:
            return _line_tokens(graph, index, name, examples)

        fits = len(rels) <= max_relations and sum(map(cost, rels)) <= relation_tokens
        if not fits and anchors is None:
            anchors = linked_entities(question, mapper, entities) if mapper is not None else []
        picked = rels if fits else _rank(graph, rels, question, encoder, (
            max_relations, relation_tokens, cost), anchors or [])
        shown += picked
        more = ""
        if len(picked) < len(rels):
            more = f"the {len(picked)} most relevant of {len(rels)}, "
        head = f"Relations ({more}each as relation: head kind -> tail kind):"
        lines = [_relation_line(graph, index, name, examples) for name in picked]
        block = head + "\n" + "\n".join(lines)
        if source.kind == "tkg":
            block += f"\nTime keys: {_TIME_KEYS}"
        parts.append(block if kind != "mixed" else f"Source {source.name} ({source.kind}). {block}")
    total = len(graph.relation_names)
    return Schema(kind, "\n".join(parts), tuple(dict.fromkeys(shown)), total, examples)


def _relation_line(graph: GraphStore, index: int, name: str, examples: bool) -> str:
    """``- name: head kind -> tail kind`` (+ one example triple with privacy off), cached."""
    cache = _per_graph(graph)
    key = ("sig", index, name, examples)
    if key not in cache:
        rel = graph.relation(name)
        if rel is None:
            cache[key] = f"- {name}"
        else:
            line = f"- {relation_signature(graph, rel, index)}"
            if examples and (triple := example_triple(graph, rel, index)):
                line += f"; e.g. {triple}"
            cache[key] = line
    return str(cache[key])


def _line_tokens(graph: GraphStore, index: int, name: str, examples: bool) -> int:
    """Estimated tokens of one relation line (its newline included)."""
    return estimate_tokens(_relation_line(graph, index, name, examples)) - _MESSAGE_TOKENS


def _table_block(graph: GraphStore, index: int, columns: Sequence[str], examples: bool) -> str:
    """One table's schema line (cached per graph: it does not depend on the question)."""
    cache = _per_graph(graph)
    key = ("table", index, examples)
    if key not in cache:
        cache[key] = _table_text(graph, index, columns, examples)
    return str(cache[key])


def _table_text(graph: GraphStore, index: int, columns: Sequence[str], examples: bool) -> str:
    name = graph.sources[index].name
    what = "example value" if examples else "format of values"
    cells = []
    for col in columns:
        rel = graph.relation(col)
        value = _example(graph, index, rel) if examples else column_profile(graph, index, col)
        cells.append(f"{col}: {value}")
    return f"Table {name}. Columns (name: {what}): " + " | ".join(cells)


def _facts(graph: GraphStore, index: int, rel: int | None) -> np.ndarray:
    if rel is None:
        return np.zeros(0, dtype=np.int64)
    facts = np.sort(graph.facts_rel(rel))
    return facts[graph.sources_of(facts) == index]


def _example(graph: GraphStore, index: int, rel: int | None) -> str:
    """The first non-empty value of a column, in row order (deterministic)."""
    for fact in _facts(graph, index, rel)[:1000]:
        text = " ".join(graph.label(graph.tail_of(fact)).split())
        if text:
            return text if len(text) <= _MAX_EXAMPLE else text[: _MAX_EXAMPLE - 3] + "..."
    return "(empty)"


_REL_CACHE: weakref.WeakKeyDictionary[GraphStore, dict[object, object]] = (
    weakref.WeakKeyDictionary())
_REL_LOCK = threading.Lock()


def _per_graph(graph: GraphStore) -> dict[object, object]:
    with _REL_LOCK:
        return _REL_CACHE.setdefault(graph, {})


def _source_relations(graph: GraphStore, index: int) -> list[str]:
    """Relation names used by one source, in first-use order (cached per graph)."""
    cache = _per_graph(graph)
    key = ("rels", index)
    if key not in cache:
        names = [graph.relation_names[r] for r in graph.relations_of_source(index).tolist()]
        cache[key] = [n for n in names if n != _ROW_NUMBER] + (
            [_ROW_NUMBER] if _ROW_NUMBER in names else [])
    return list(cache[key])  # type: ignore[call-overload]


def _rank(graph: GraphStore, rels: list[str], question: str, encoder: Encoder | None,
          limit: tuple[int, int, Callable[[str], int]], anchors: Sequence[int]) -> list[str]:
    """The relations chosen by :func:`~trustuqa_core.llm.relations.choose_within` within
    ``limit`` = (most relations, token budget, tokens of one relation's line)."""
    cap, budget, cost = limit
    index: EmbeddingIndex | None = None
    if encoder is not None and question:
        cache = _per_graph(graph)
        key = ("index", encoder.name, tuple(rels))
        cached = cache.get(key)
        if isinstance(cached, EmbeddingIndex):
            index = cached
        else:
            index = EmbeddingIndex([re.sub(r"[._]+", " ", r) for r in rels], encoder)
            cache[key] = index
    return choose_within(graph, rels, question, cost, budget, cap, anchors=anchors,
                         encoder=encoder, index=index)


def system_prompt(kind: PromptKind, privacy: bool | None = None) -> str:
    """Instructions for one source kind (``instructions.md`` + ``kind_<kind>.md``), then what
    privacy means for the program (``privacy_on.md`` / ``privacy_off.md``) when it is given."""
    text = render("instructions.md", kind_notes=load_text(f"kind_{kind}.md").strip())
    if privacy is None:
        return text
    return text + "\n\n" + load_text("privacy_on.md" if privacy else "privacy_off.md").strip()


def user_message(question: str, schema: str | None) -> str:
    """The user turn for one question (with its schema when there is one)."""
    if not schema:
        return f"Question: {question.strip()}"
    return render("question.md", schema=schema, question=question.strip())


def build_messages(
    question: str,
    schema: Schema,
    demos: Sequence[PromptDemo] = (),
    *,
    note: str = "",
) -> list[dict[str, str]]:
    """Chat messages: system instructions, one user/assistant pair per demo, the question.

    >>> from trustuqa_core.graph import build_graph
    >>> from trustuqa_core.sources import SourceFacts
    >>> g = build_graph([SourceFacts("kb", "kg", ["A"], ["directed_by"], ["B"], [1])])
    >>> msgs = build_messages("who directed [A]?", describe_schema(g),
    ...                       [PromptDemo("who wrote [X]?", 'Query1: "get_information(...)"')])
    >>> [m["role"] for m in msgs]
    ['system', 'user', 'assistant', 'user']
    >>> print(msgs[-1]["content"])
    Relations (each as relation: head kind -> tail kind):
    - directed_by: entity -> its directed_by; e.g. (A, directed_by, B)
    Question: who directed [A]?
    """
    messages = [{"role": "system", "content": system_prompt(schema.kind, not schema.examples)}]
    for demo in demos:
        messages.append({"role": "user", "content": user_message(demo.question, demo.schema)})
        messages.append({"role": "assistant", "content": demo.query.strip()})
    last = user_message(question, schema.text)
    messages.append({"role": "user", "content": f"{last}\n\n{note}" if note else last})
    return messages
