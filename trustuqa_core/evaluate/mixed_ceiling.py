"""The ceiling of the *mixed* benchmark (issue 13): each question's gold or recorded query run
with its source unknown, against the mixed graph of the five benchmarks' data, routed as
``answer()`` routes; compared with the same query over the question's own data.

Queries (no LLM): WikiSQL's gold SQL as a program (:mod:`.wikisql_gold`), MetaQA's gold
program of the question type (:mod:`.metaqa_gold`, the topic entity pinned), and TrustUQA's
recorded GPT-3.5 queries for WTQ and WebQSP (the ones ``--mode replay`` runs; only some
questions have one). CronQuestions has neither gold programs nor recorded queries here, so
its questions are left out (``items`` lists only questions with a query).

Settings (``--setting``):

- ``mix-unknown``: the mixed graph; the question is routed by
  :func:`~.mixed.product_route` (demo similarities of the union pool, the topic entities),
  then re-routed by the query itself (:func:`~trustuqa_core.routing_by_query.route_by_query`:
  where its arguments map exactly and it runs to an answer; the query stands in for a perfect
  writer and never sees the question's source), and the query runs over the routed sources;
  when that gives no answer, over every source (as ``answer()`` falls back);
- ``mix-known``: the mixed graph restricted to the question's own sources;
- ``unmix-known``: the question's own data alone (for MetaQA all of ``kb_partial``, as the
  MetaQA ceiling runs), the reference the mixed ceiling is compared with.

Scoring is each benchmark's own: WikiSQL's answer match, MetaQA strict Hits@1, WTQ
denotation accuracy, WebQSP Hits@1 on MIDs or answer texts. Outcomes carry the routing
decision over the mixed graph in every setting (``flags.routed`` / ``routed_kept``, so the
summary's ``routing_accuracy`` is the same whatever the setting; with ``by_query`` it is the
decision after the query's re-routing, ``flags.routed_by_question`` the one before) and, in the
*mix* settings, ``flags.fell_back``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..answer_match import denotation_match
from ..errors import ParseError
from ..execute import run_program
from ..mapping.mapper import Mapper
from ..query.ast import Program
from ..query.parse import parse
from ..query.render import render_program
from ..routing_by_query import route_by_query
from ..store import GraphStore
from ..subgraph import restrict, source_indices
from ..trace import Trace
from .ceilings import _table_info, empty_input, topic_overrides
from .datasets import Example, load_recorded_queries
from .graphs import source_graph
from .metaqa_gold import qtype_program
from .mixed import MixedEvaluation, own_sources
from .outcome import Outcome, ProbeFallback, Unavailable, classify_trace
from .replay_webqsp import entity_overrides, gold_keys, pred_key
from .wikisql_gold import sql_to_program, wikisql_match

__all__ = ["CEILING_SETTINGS", "MixedCeiling", "gold_query"]

CEILING_SETTINGS = ("mix-unknown", "mix-known", "unmix-known")

#: how a benchmark's answer is judged: (answer, trace, example) -> correct
Judge = Callable[[list[str], Trace, Example], bool]
#: the literal -> node pins a query needs on a graph: (program, graph) -> overrides
Pins = Callable[[Program, GraphStore], dict[str, str]]


def _no_pins(program: Program, graph: GraphStore) -> dict[str, str]:
    return {}


def _wikisql_judge(answer: list[str], trace: Trace, e: Example) -> bool:
    empty = empty_input(trace)
    if trace.error is not None and not empty:
        return False
    return wikisql_match(answer, e.metadata["raw_answers"], empty)  # type: ignore[arg-type]


def _metaqa_judge(answer: list[str], trace: Trace, e: Example) -> bool:
    return bool(answer) and answer[0] in set(e.answers)


def _wtq_judge(answer: list[str], trace: Trace, e: Example) -> bool:
    return denotation_match(answer, e.answers)


def _webqsp_judge(answer: list[str], trace: Trace, e: Example) -> bool:
    return bool(answer) and pred_key(answer[0]) in gold_keys(e)


def _webqsp_pins(e: Example) -> Pins:
    topics = [(str(n), str(m)) for n, m in e.metadata["topic_entities"]]  # type: ignore[attr-defined]

    def pins(program: Program, graph: GraphStore) -> dict[str, str]:
        return entity_overrides(program, topics, lambda t: graph.entity(t) is not None)[0]
    return pins


def gold_query(e: Example, recorded: dict[str, dict[str, str]]) -> tuple[str, Pins, Judge] | None:
    """The query text of ``e`` (gold program or recorded query), the pins it needs and its
    judge; None when the benchmark has no query for the question. ``recorded`` maps a
    recorded-query file key (``wtq``, ``webqsp-name``, ``webqsp-unname``) to its queries."""
    if e.benchmark == "wikisql":
        from_sql = sql_to_program(e.metadata["sql"], _table_info(str(e.sources[0].path)))  # type: ignore[arg-type]
        return render_program(from_sql), _no_pins, _wikisql_judge
    if e.benchmark == "metaqa-1hop":
        topic = str(e.metadata["topic_entity"])
        gold = qtype_program(str(e.metadata["qtype"]), topic)
        return (render_program(gold), lambda p, g: topic_overrides(p, topic), _metaqa_judge)
    if e.benchmark == "wtq" and e.question in recorded["wtq"]:
        return recorded["wtq"][e.question], _no_pins, _wtq_judge
    if e.benchmark == "webqsp":
        text = recorded[f"webqsp-{e.metadata.get('kind', 'name')}"].get(e.question)
        return (text, _webqsp_pins(e), _webqsp_judge) if text is not None else None
    return None


class MixedCeiling:
    """Gold / recorded queries of the mixed benchmark in one ceiling setting (see the module
    docstring); ``benchmark`` is ``mixed`` so the runner adds ``routing_accuracy``."""

    mode, concurrent = "ceiling", False

    def __init__(self, setting: str = "mix-unknown", root: Path | str | None = None,
                 encoder: str = "minilm", per: int = 100, by_query: bool = True,
                 examples: list[Example] | None = None) -> None:
        if setting not in CEILING_SETTINGS:
            raise Unavailable(f"the mixed ceiling runs in {', '.join(CEILING_SETTINGS)}, not "
                              f"{setting!r}")
        self.setting, self.root = setting, root
        self.benchmark, self.split = "mixed", setting
        self._mixed = MixedEvaluation("mix-unknown", root=root, encoder=encoder, per=per,
                                      examples=examples)
        self.by_query = by_query
        self._recorded: dict[str, dict[str, str]] | None = None
        self._mappers: dict[tuple[str, ...], tuple[GraphStore, Mapper]] = {}
        self._lock = threading.Lock()

    def recorded(self) -> dict[str, dict[str, str]]:
        with self._lock:
            if self._recorded is None:
                self._recorded = {k: load_recorded_queries(k, root=self.root)
                                  for k in ("wtq", "webqsp-name", "webqsp-unname")}
            return self._recorded

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        """The mixed benchmark's questions that have a query (``limit`` counts questions of
        the benchmark, as ``--mode answer`` does, before those without one are left out)."""
        recorded = self.recorded()
        chosen = self._mixed.examples()
        chosen = chosen[:limit] if limit is not None else chosen
        return [(f"{e.benchmark}:{e.id}", e) for e in chosen
                if gold_query(e, recorded) is not None]

    def _over(self, sources: tuple[str, ...]) -> tuple[GraphStore, Mapper]:
        """The mixed graph restricted to ``sources``, with its mapper (kept for reuse)."""
        graph, mapper = self._mixed.graph()
        if len(sources) == len(graph.sources):
            return graph, mapper
        with self._lock:
            found = self._mappers.get(sources)
        if found is None:
            sub = restrict(graph, source_indices(graph, sources))
            found = (sub, Mapper(sub, None))
            with self._lock:
                self._mappers[sources] = found
        return found

    def evaluate(self, e: Example) -> Outcome:
        query = gold_query(e, self.recorded())
        assert query is not None  # items() keeps only questions with a query
        text, pins, judge = query
        base: dict[str, Any] = {"id": f"{e.benchmark}:{e.id}", "benchmark": "mixed",
                                "question": e.question, "gold": [str(g) for g in e.answers],
                                "query": text}
        try:
            program = parse(text)
        except ParseError as exc:
            return Outcome(**base, correct=False, category="parse", answer=[], seconds=0.0,
                           groups={"source": e.benchmark}, detail=str(exc).splitlines()[0])
        mixed, _ = self._mixed.graph()
        own = own_sources(e)
        asked = self._mixed.route(e, mixed)  # recorded in every setting, used in one
        decision = (route_by_query(program, mixed, asked, pins=pins, question=e.question)
                    if self.by_query else asked)
        flags = {"routed": set(decision.sources) == set(own),
                 "routed_kept": set(own) <= set(decision.sources),
                 "routed_by_question": set(asked.sources) == set(own)}
        t0 = time.perf_counter()
        if self.setting == "unmix-known":
            graph, mapper = source_graph(e.sources[0])
            trace = self._run(program, graph, mapper, pins, e)
        else:
            routed = decision.sources if self.setting == "mix-unknown" else own
            trace = self._run(program, *self._over(tuple(routed)), pins, e)
            flags["fell_back"] = False
            if not trace.answer and self.setting == "mix-unknown" and len(routed) < len(
                    mixed.sources):
                trace = self._run(program, *self._over(tuple(s.name for s in mixed.sources)),
                                  pins, e)
                flags["fell_back"] = True
        seconds = time.perf_counter() - t0
        correct = judge(trace.answer, trace, e)
        category, detail = ("correct", "") if correct else classify_trace(trace)
        return Outcome(**base, correct=correct, category=category, answer=trace.answer,
                       seconds=seconds, groups={"source": e.benchmark}, flags=flags,
                       detail=detail)

    @staticmethod
    def _run(program: Program, graph: GraphStore, mapper: Mapper, pins: Pins,
             e: Example) -> Trace:
        return run_program(program, graph, mapper, overrides=pins(program, graph),
                           fallback=ProbeFallback(), question=e.question)
