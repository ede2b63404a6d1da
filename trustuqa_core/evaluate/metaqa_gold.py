"""MetaQA question types -> gold programs; reachability of gold answers in ``kb_partial``;
question templates (to give TrustUQA's recorded train questions a type).

A qtype such as ``movie_to_director_to_movie_to_language`` is a path. A ``movie_to_X`` hop
reads ``X`` of the movies (``head_entity``), an ``X_to_movie`` hop finds the movies with that
``X`` (``tail_entity``). MetaQA never answers with the topic entity itself, so a set of the
topic's kind (movies for a movie, people for a person) gets the topic removed with
``set_difference``, as TrustUQA's recorded queries do:

>>> from trustuqa_core.query.render import render_program
>>> print(render_program(qtype_program("movie_to_director_to_movie", "Kismet"), with_steps=False))
Query1: "get_information(relation='directed_by', head_entity='Kismet')"
Query2: "get_information(relation='directed_by', tail_entity='output_of_query1')"
Query3: "set_difference(set1='output_of_query2', set2='Kismet')"
>>> question_template("what films did [Tom Hanks] act in")
('what films did [E] act in', 'Tom Hanks')
"""

from __future__ import annotations

import gzip
import re
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from ..query.ast import Arg, Call, Program, Query, Ref, Text

__all__ = [
    "QTYPE_RELATIONS",
    "qtype_program",
    "qtype_hops",
    "question_template",
    "MetaQAKB",
]

QTYPE_RELATIONS = {
    "director": "directed_by",
    "writer": "written_by",
    "actor": "starred_actors",
    "year": "release_year",
    "language": "in_language",
    "tag": "has_tags",
    "tags": "has_tags",
    "genre": "has_genre",
    "imdbvotes": "has_imdb_votes",
    "imdbrating": "has_imdb_rating",
}
_PERSON = {"director", "writer", "actor"}
_TOPIC = re.compile(r"\[([^\]]+)\]")


def _kind(word: str) -> str:
    return "person" if word in _PERSON else "tag" if word == "tags" else word


def qtype_hops(qtype: str) -> list[tuple[str, str]]:
    """The (from, to) hops of a qtype; one side of each hop is ``movie``.

    >>> qtype_hops("actor_to_movie_to_year")
    [('actor', 'movie'), ('movie', 'year')]
    """
    words = qtype.split("_to_")
    hops = list(zip(words, words[1:], strict=False))
    for a, b in hops:
        other = b if a == "movie" else a
        if "movie" not in (a, b) or other not in QTYPE_RELATIONS:
            raise ValueError(f"unknown MetaQA question type {qtype!r}")
    if not hops:
        raise ValueError(f"unknown MetaQA question type {qtype!r}")
    return hops


def qtype_program(qtype: str, topic: str) -> Program:
    """The gold program of ``qtype`` for the topic entity ``topic`` (see the module doc)."""
    queries: list[Query] = []
    current: Ref | Text = Text(topic)
    topic_kind = _kind(qtype_hops(qtype)[0][0])

    def add(call: Call, description: str) -> Ref:
        queries.append(Query(len(queries) + 1, call, description))
        return Ref(len(queries))

    for a, b in qtype_hops(qtype):
        if a == "movie":
            current = add(Call("get_information", (Arg("relation", Text(QTYPE_RELATIONS[b])),
                                                   Arg("head_entity", current))),
                          f"the {b} of {current}")
        else:
            current = add(Call("get_information", (Arg("relation", Text(QTYPE_RELATIONS[a])),
                                                   Arg("tail_entity", current))),
                          f"the movies with {a} {current}")
        if len(queries) > 1 and _kind(b) == topic_kind:
            current = add(Call("set_difference", (Arg("set1", current), Arg("set2", Text(topic)))),
                          f"{current} without {topic}")
    return Program(tuple(queries))


def question_template(question: str) -> tuple[str, str | None]:
    """The question with its ``[topic]`` replaced by ``[E]``, and the topic (or None)."""
    found = _TOPIC.search(question)
    if found is None:
        return question.strip(), None
    return (question[: found.start()] + "[E]" + question[found.end() :]).strip(), found[1]


class MetaQAKB:
    """Adjacency of the MetaQA KB for reachability checks (plain dicts, built once).

    >>> kb = MetaQAKB.from_lines(["Kismet|directed_by|William Dieterle",
    ...                           "Juarez|directed_by|William Dieterle",
    ...                           "Juarez|release_year|1939"])
    >>> sorted(kb.path_answers("movie_to_director_to_movie_to_year", "Kismet"))
    ['1939']
    >>> kb.within_hops("Kismet", ["1939"], 2), kb.within_hops("Kismet", ["1939"], 3)
    (False, True)
    """

    def __init__(self) -> None:
        self.out: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.inv: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.neighbours: dict[str, set[str]] = defaultdict(set)

    @staticmethod
    def from_lines(lines: Iterable[str]) -> MetaQAKB:
        kb = MetaQAKB()
        for line in lines:
            parts = line.rstrip("\r\n").split("|", 2)
            if len(parts) != 3:
                continue
            h, r, t = parts
            kb.out[(h, r)].add(t)
            kb.inv[(r, t)].add(h)
            kb.neighbours[h].add(t)
            kb.neighbours[t].add(h)
        return kb

    @staticmethod
    def from_file(path: Path | str) -> MetaQAKB:
        """Read ``head|relation|tail`` lines (``.gz`` allowed)."""
        path = Path(path)
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as lines:
            return MetaQAKB.from_lines(lines)

    def path_answers(self, qtype: str, topic: str, exclude_topic: bool = True) -> set[str]:
        """Entities at the end of the qtype's path from ``topic``; with ``exclude_topic`` the
        topic is removed from later sets of its kind, as :func:`qtype_program` does."""
        current = {topic}
        hops = qtype_hops(qtype)
        topic_kind = _kind(hops[0][0])
        for i, (a, b) in enumerate(hops):
            nxt: set[str] = set()
            for e in current:
                if a == "movie":
                    nxt |= self.out.get((e, QTYPE_RELATIONS[b]), set())
                else:
                    nxt |= self.inv.get((QTYPE_RELATIONS[a], e), set())
            if exclude_topic and i > 0 and _kind(b) == topic_kind:
                nxt.discard(topic)
            current = nxt
        return current

    def within_hops(self, topic: str, answers: Iterable[str], hops: int) -> bool:
        """True when every answer is at most ``hops`` edges from ``topic`` (any relation,
        either direction): the MANIFEST's definition of reachable.

        An answer ``a`` is within ``k`` hops when it is in the topic's ``k-1`` ball or one of
        its neighbours is; the ball is built once per call (hub values make the ``k`` ball
        of a movie most of the graph, the ``k-1`` ball stays small enough).
        """
        ball, frontier = {topic}, {topic}
        for _ in range(hops - 1):
            frontier = {n for e in frontier for n in self.neighbours.get(e, ())} - ball
            ball |= frontier
        return all(a in ball or not ball.isdisjoint(self.neighbours.get(a, ()))
                   for a in answers)
