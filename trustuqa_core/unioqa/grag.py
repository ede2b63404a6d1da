"""UniOQA's searcher (GRAG): one-hop triples of the question's entities, verbalised, read by
an LLM. Its answers are *LLM-read, not executed*: shown as unverified, each linked to the
retrieved triples that contain it.

Retrieval (:func:`retrieve`): the entities are linked by our mapper (bracketed names such as
MetaQA's ``[Kismet]`` and the names the translator bound), every fact with one of them as head
or tail is a candidate (at most ``max_scan`` per entity), ranked by how well its relation fits
the question — a relation the translator used first, then shared word stems between the
relation name and the question — and the first ``budget`` are kept. Each triple is verbalised
as ``The <relation> of <head> is <tail>.`` (paper, section GRAG).

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> from trustuqa_core.mapping import Mapper
>>> g = build_graph([load_source(b"Kismet|directed_by|William Dieterle\\n"
...                              b"Kismet|release_year|1944\\n", "kg", "kg.txt")])
>>> r = retrieve("who directed [Kismet]", g, Mapper(g))
>>> [t.sentence for t in r.triples]
['The directed by of Kismet is William Dieterle.', 'The release year of Kismet is 1944.']
>>> supported(["william dieterle", "Orson Welles"], r.triples)
{'william dieterle': [0], 'Orson Welles': []}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..llm.client import LLMClient
from ..llm.prompts import render
from ..mapping.mapper import Mapper
from ..store import GraphStore
from ..text import normalize, stem

__all__ = ["Triple", "Retrieval", "SearcherAnswer", "retrieve", "search", "supported",
           "parse_reply", "question_entities"]

_BRACKET = re.compile(r"\[([^\[\]]{1,200})\]")
_WORDS = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Triple:
    """A retrieved fact (``fact`` is our fact id), its texts and its sentence."""

    fact: int
    head: str
    relation: str
    tail: str

    @property
    def sentence(self) -> str:
        return f"The {self.relation.replace('_', ' ')} of {self.head} is {self.tail}."


@dataclass(frozen=True)
class Retrieval:
    """The linked entities, the kept triples (best first) and how many were candidates."""

    entities: tuple[str, ...]
    triples: tuple[Triple, ...]
    candidates: int


@dataclass
class SearcherAnswer:
    """What the searcher answered (``unverified`` always True) and the triples behind it."""

    answer: list[str]
    retrieval: Retrieval
    support: dict[str, list[int]] = field(default_factory=dict)
    prompt: list[dict[str, str]] = field(default_factory=list)
    error: str | None = None
    unverified: bool = True

    @property
    def grounded(self) -> bool:
        """True when every answer appears in some retrieved triple."""
        return bool(self.answer) and all(self.support.get(a) for a in self.answer)

    def to_dict(self) -> dict[str, Any]:
        return {"answer": self.answer, "unverified": True, "label": "LLM-read, not executed",
                "support": self.support, "error": self.error,
                "entities": list(self.retrieval.entities),
                "triples": [t.sentence for t in self.retrieval.triples]}


def question_entities(question: str, mapper: Mapper, extra: Iterable[str] = ()) -> list[int]:
    """Node ids of the question's entities: bracketed names and ``extra`` names (e.g. those
    the translator bound), each linked by the mapper (its bound nodes only)."""
    ids: list[int] = []
    for text in [*_BRACKET.findall(question), *extra]:
        for node in mapper.map_entity(text).ids:
            if node not in ids:
                ids.append(node)
    return ids


def _stems(text: str) -> set[str]:
    return {stem(w) for w in _WORDS.findall(normalize(text).replace("_", " "))}


def retrieve(question: str, graph: GraphStore, mapper: Mapper, *,
             extra_entities: Iterable[str] = (), relations: Sequence[str] = (),
             budget: int = 60, max_scan: int = 5_000) -> Retrieval:
    """The one-hop triples of the question's entities, ranked, at most ``budget``."""
    nodes = question_entities(question, mapper, extra_entities)
    q_stems = _stems(question)
    hinted = set(relations)
    scored: list[tuple[float, int, int]] = []
    seen: set[int] = set()
    for node in nodes:
        for facts in (graph.facts_head(node), graph.facts_tail(node)):
            for fact in facts[:max_scan].tolist():
                if fact in seen:
                    continue
                seen.add(fact)
                rel = graph.fact_text(fact)[1]
                score = (2.0 if rel in hinted else 0.0) + len(_stems(rel) & q_stems)
                scored.append((-score, len(scored), fact))
    scored.sort()
    kept = []
    for _, _, fact in scored[:budget]:
        head, rel, tail = graph.fact_text(fact)
        kept.append(Triple(fact, head, rel, tail))
    return Retrieval(tuple(graph.label(n) for n in nodes), tuple(kept), len(scored))


def supported(answers: Iterable[str], triples: Sequence[Triple]) -> dict[str, list[int]]:
    """For each answer, the positions of the triples whose head or tail it names."""
    norm = [(normalize(t.head), normalize(t.tail)) for t in triples]
    return {a: [i for i, (h, t) in enumerate(norm) if normalize(a) in (h, t)] for a in answers}


def parse_reply(reply: str) -> list[str]:
    """Answer names from the model's reply: one per line (or ``|``-separated), bullets and
    numbering stripped; ``NONE`` means no answer.

    >>> parse_reply("- Drama\\n2. Music | Comedy\\nNONE")
    ['Drama', 'Music', 'Comedy']
    """
    out: list[str] = []
    for line in reply.replace("|", "\n").splitlines():
        text = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip().strip("\"'").strip()
        if text and text.upper() != "NONE" and text not in out:
            out.append(text)
    return out[:50]


def search(question: str, retrieval: Retrieval, client: LLMClient) -> SearcherAnswer:
    """Ask the model to answer from the retrieved triples (prompt ``prompts/unioqa_grag.md``)."""
    facts = "\n".join(f"{i + 1}. {t.sentence}" for i, t in enumerate(retrieval.triples))
    messages = [{"role": "user", "content": render("unioqa_grag.md", facts=facts or "(none)",
                                                   question=question)}]
    if not retrieval.triples:
        return SearcherAnswer([], retrieval, {}, messages, "no triples retrieved")
    reply = client.complete(messages, n=1)
    answers = parse_reply(reply[0] if reply and reply[0] else "")
    return SearcherAnswer(answers, retrieval, supported(answers, retrieval.triples), messages)
