"""Replay of TrustUQA's recorded WebQSP queries over the questions' Freebase subgraphs.

The recorded queries (GPT-3.5, train questions) name entities (``head_entity='Peru'``); the
subgraphs (``WebQTrn-*.P0.txt``) know only MIDs, and no MID -> name map is available. What
*is* known per question: the topic entities' names and MIDs, and the answers' MIDs. So:

* a literal equal to a topic entity's name (after normalisation; failing that, one name
  containing the other as whole words) is mapped to that topic's MID (a mapping override);
* any other entity literal cannot be mapped: the question is counted as a ``mapping``
  failure and not executed (a fuzzy match against MIDs would be noise);
* predictions (MIDs, or literals such as ``"1913"``) are compared with the answer MIDs and
  the literal answers; the score is Hits@1 (the first answer is a gold one).

Only recorded questions that are also TrustUQA dev questions with a subgraph file can be
replayed (59 ``name`` + 160 ``unname``).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ..errors import ParseError
from ..execute import run_program
from ..mapping.mapper import override_key
from ..query.ast import Program, Text
from ..query.parse import parse
from ..text import normalize
from .datasets import Example, load_recorded_queries, load_webqsp
from .graphs import source_graph
from .outcome import Outcome, ProbeFallback, Unavailable, classify_trace

__all__ = ["WebQSPReplay", "topic_mid", "entity_overrides", "gold_keys", "pred_key"]

_ENTITY_ARGS = {"head_entity", "tail_entity"}


def topic_mid(literal: str, topics: list[tuple[str, str]]) -> str | None:
    """The MID of the topic entity that ``literal`` names, or None.

    >>> topics = [("Peru", "m.016wzw"), ("Charles R. Drew", "m.01vb")]
    >>> topic_mid("peru", topics), topic_mid("Charles R Drew", topics), topic_mid("Lima", topics)
    ('m.016wzw', 'm.01vb', None)
    >>> topic_mid("Clearwater Florida", [("Clearwater", "m.0rkkv")])
    'm.0rkkv'
    """
    text = normalize(literal)
    for name, mid in topics:
        if normalize(name) == text:
            return mid
    for name, mid in topics:
        a, b = f" {normalize(name)} ", f" {text} "
        if len(a.strip()) > 2 and (a in b or b in a):
            return mid
    return None


def entity_overrides(
    program: Program, topics: list[tuple[str, str]], known: Any
) -> tuple[dict[str, str], list[str]]:
    """(overrides pinning topic-name literals to MIDs, literals that cannot be mapped).

    ``known(text)`` says whether the graph has a node with exactly that text.
    """
    overrides: dict[str, str] = {}
    unmapped: list[str] = []
    for q in program.queries:
        seen: dict[str, int] = {}
        for i, a in enumerate(q.call.args):
            name = a.name or f"arg{i + 1}"
            seen[name] = seen.get(name, 0) + 1
            if not isinstance(a.value, Text) or a.cmp != "=":
                continue
            is_entity = a.name in _ENTITY_ARGS or (
                q.call.func != "get_information" and name.startswith("set"))
            if not is_entity:
                continue
            mid = topic_mid(a.value.value, topics)
            if mid is not None and known(mid):
                overrides[override_key(q.number, name, seen[name])] = mid
            elif not known(a.value.value):
                unmapped.append(a.value.value)
    return overrides, unmapped


def gold_keys(example: Example) -> set[str]:
    """Answer MIDs, and every answer text normalised (literal answers such as years are
    only known by their text; names of MID answers never equal a predicted MID)."""
    mids = {str(m) for m in example.metadata["answer_mids"]}  # type: ignore[attr-defined]
    return mids | {normalize(x) for x in example.answers}


def pred_key(text: str) -> str:
    stripped = text.strip()
    if stripped.startswith('"') and stripped.endswith('"') and len(stripped) > 1:
        return normalize(stripped[1:-1])
    return stripped if stripped.startswith(("m.", "g.")) else normalize(stripped)


class WebQSPReplay:
    """Recorded ``name`` and ``unname`` WebQSP queries that have a dev subgraph."""

    benchmark, mode, concurrent = "webqsp", "replay", False

    def __init__(self, split: str = "dev", root: Path | str | None = None) -> None:
        if split != "dev":
            raise Unavailable("recorded WebQSP queries can be replayed only on TrustUQA's dev "
                              "questions (the only ones with both a recording and a subgraph)")
        self.split, self.root = split, root

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        out = []
        for kind in ("name", "unname"):
            recorded = load_recorded_queries(f"webqsp-{kind}", root=self.root)
            for e in load_webqsp(kind, "dev", root=self.root):
                if e.question in recorded and e.sources:
                    out.append((f"{kind}:{e.id}", (kind, e, recorded[e.question])))
        return out[:limit]

    def evaluate(self, item: tuple[str, Example, str]) -> Outcome:
        kind, e, text = item
        gold = gold_keys(e)
        shown = list(e.answers) + [str(m) for m in e.metadata["answer_mids"]]  # type: ignore[attr-defined]
        base: dict[str, Any] = {"id": f"{kind}:{e.id}", "benchmark": "webqsp",
                                "question": e.question, "gold": shown,
                                "groups": {"kind": kind}, "query": text}
        try:
            program = parse(text)
        except ParseError as exc:
            return Outcome(**base, correct=False, category="parse", answer=[], seconds=0.0,
                           detail=str(exc).splitlines()[0])
        graph, mapper = source_graph(e.sources[0])
        topics = [(str(n), str(m)) for n, m in e.metadata["topic_entities"]]  # type: ignore[attr-defined]
        overrides, unmapped = entity_overrides(program, topics,
                                               lambda t: graph.entity(t) is not None)
        if unmapped:
            return Outcome(**base, correct=False, category="mapping", answer=[], seconds=0.0,
                           detail=f"entity name(s) {unmapped} have no MID in the subgraph (only "
                                  "the topic entities' MIDs are known)")
        probe = ProbeFallback()
        t0 = time.perf_counter()
        trace = run_program(program, graph, mapper, overrides=overrides, fallback=probe,
                            question=e.question)
        seconds = time.perf_counter() - t0
        answer = trace.answer
        keys = [pred_key(a) for a in answer]
        correct = bool(keys) and keys[0] in gold
        category, detail = ("correct", "") if correct else classify_trace(trace, probe)
        return Outcome(**base, correct=correct, category=category, answer=answer,
                       seconds=seconds, scores={"hits1_any": float(bool(set(keys) & gold))},
                       detail=detail)
