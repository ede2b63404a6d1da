"""Executor ceilings: gold programs (no LLM) run through parse -> map -> rewrite -> execute.

* WikiSQL: each gold SQL becomes a program (:mod:`.wikisql_gold`), answers are compared the
  WikiSQL way (:func:`~.wikisql_gold.wikisql_match`); failures are explained with an SQLite
  re-creation of the original database (:mod:`.wikisql_sqlite`).
* MetaQA: each question type becomes a program over ``kb_partial`` (:mod:`.metaqa_gold`);
  the score is strict Hits@1, with set metrics and reachability flags alongside.

The ceiling is what the non-LLM pipeline can reach when the LLM writes the perfect query.
"""

from __future__ import annotations

import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..execute import run_query
from ..mapping.mapper import override_key
from ..query.ast import Program, Text
from ..query.render import render_program
from ..trace import Trace
from .datasets import Example, Source, load_metaqa, load_wikisql
from .graphs import source_graph
from .metaqa_gold import MetaQAKB, qtype_program
from .metrics import hits_at_1, hits_at_1_any, light_normalize, prf1, set_equal
from .outcome import Outcome, classify_trace
from .wikisql_gold import AGG_NAMES, TableInfo, inexact_conditions, sql_to_program, wikisql_match
from .wikisql_sqlite import explain_failure

__all__ = [
    "WikiSQLCeiling",
    "MetaQACeiling",
    "wikisql_outcome",
    "metaqa_outcome",
    "metaqa_kb",
    "metaqa_scores",
    "empty_input",
]


def empty_input(trace: Trace) -> bool:
    """True when the answer is empty because a step the answer needs found nothing
    (``sum`` of nothing is 0, ``max`` of nothing an error: SQL gives NULL for both)."""
    if trace.error is not None:
        return "of an empty set" in trace.error.message
    return trace.empty_step is not None


@lru_cache(maxsize=256)
def _table_info(path: str) -> TableInfo:
    return TableInfo.from_graph(source_graph(Source(Path(path), "table"))[0])


def wikisql_outcome(example: Example) -> Outcome:
    """Run the gold program of one WikiSQL question and judge it (see the module doc)."""
    source = example.sources[0]
    graph, mapper = source_graph(source)
    sql: Any = example.metadata["sql"]
    table = _table_info(str(source.path))
    text = render_program(sql_to_program(sql, table))
    t0 = time.perf_counter()
    trace = run_query(text, graph, mapper, question=example.question)
    seconds = time.perf_counter() - t0
    gold: Any = example.metadata["raw_answers"]
    errored = trace.error is not None and not empty_input(trace)
    correct = not errored and wikisql_match(trace.answer, gold, empty_input(trace))
    category, detail = ("correct", "") if correct else classify_trace(trace)
    if not correct:
        inexact = inexact_conditions(sql, table)
        named, why = explain_failure(source.path, sql, gold, trace.answer, inexact)
        category = named or category
        detail = "; ".join(x for x in (detail, why) if x)
    return Outcome(example.id, "wikisql", example.question, correct, category, trace.answer,
                   [str(g) for g in gold], seconds,
                   groups={"agg": AGG_NAMES[int(sql["agg"])] or "none",
                           "conditions": str(len(sql["conds"]))},
                   detail=detail, query=text)


class WikiSQLCeiling:
    """WikiSQL gold SQL -> program -> answer, for every question of a split."""

    benchmark, mode, concurrent = "wikisql", "ceiling", False

    def __init__(self, split: str = "dev", root: Path | str | None = None) -> None:
        self.split, self.root = split, root

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        return [(e.id, e) for e in load_wikisql(self.split, limit, root=self.root)]

    def evaluate(self, item: Example) -> Outcome:
        return wikisql_outcome(item)


_kb_lock = threading.Lock()


@lru_cache(maxsize=2)
def _kb(path: str) -> MetaQAKB:
    return MetaQAKB.from_file(path)


def metaqa_kb(path: Path | str) -> MetaQAKB:
    """The reachability index of a MetaQA KB file, read once per process."""
    with _kb_lock:
        return _kb(str(path))


def metaqa_scores(pred: list[str], gold: list[str]) -> dict[str, float]:
    """Strict Hits@1, lenient Hits@1 (any answer), answer-set equality and F1."""
    return {"hits1": float(hits_at_1(pred, gold)), "hits1_any": float(hits_at_1_any(pred, gold)),
            "set_equal": float(set_equal(pred, gold)), "f1": prf1(pred, gold)[2]}


def topic_overrides(program: Program, topic: str) -> dict[str, str]:
    """Pin every literal equal to ``topic`` to the node with exactly that text."""
    out = {}
    for q in program.queries:
        for a in q.call.args:
            if isinstance(a.value, Text) and a.value.value == topic and a.name:
                out[override_key(q.number, a.name)] = topic
    return out


def metaqa_outcome(example: Example) -> Outcome:
    """Run the gold program of one MetaQA question over ``kb_partial`` and judge it."""
    source = example.sources[0]
    graph, mapper = source_graph(source)
    kb = metaqa_kb(source.path)
    meta: Any = example.metadata
    qtype, topic, hops = meta["qtype"], meta["topic_entity"], int(meta["hops"])
    gold = list(example.answers)
    program = qtype_program(qtype, topic)
    text = render_program(program)
    flags = {"reachable": set(gold) <= kb.path_answers(qtype, topic),
             "reachable_k_hops": kb.within_hops(topic, gold, hops),
             "topic_in_kb": graph.entity(topic) is not None}
    t0 = time.perf_counter()
    if flags["topic_in_kb"]:
        trace = run_query(text, graph, mapper, overrides=topic_overrides(program, topic),
                          question=example.question)
        answer = trace.answer
    else:
        trace, answer = None, []
    seconds = time.perf_counter() - t0
    scores = metaqa_scores(answer, gold)
    correct = bool(scores["hits1"])
    if correct:
        category, detail = "correct", ""
    elif trace is None:
        category, detail = "unreachable", f"the topic entity {topic!r} is not in kb_partial"
    elif not flags["reachable"]:
        category, detail = "unreachable", "some gold answers are not on the question's path"
    elif _covers(answer, gold):
        category, detail = "extra_answers", f"{len(answer)} answers for {len(gold)} gold"
    else:
        category, detail = classify_trace(trace)
    return Outcome(example.id, example.benchmark, example.question, correct, category, answer,
                   gold, seconds, groups={"qtype": qtype}, flags=flags, scores=scores,
                   detail=detail, query=text)


def _covers(pred: list[str], gold: list[str]) -> bool:
    return bool(gold) and {light_normalize(g) for g in gold} <= {light_normalize(p) for p in pred}


class MetaQACeiling:
    """MetaQA question type -> gold program -> answers over ``kb_partial``."""

    mode, concurrent = "ceiling", False

    def __init__(self, hops: int, split: str = "dev", root: Path | str | None = None) -> None:
        self.hops, self.split, self.root = hops, split, root
        self.benchmark = f"metaqa-{hops}hop"

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        return [(e.id, e) for e in load_metaqa(self.hops, self.split, limit, root=self.root)]

    def evaluate(self, item: Example) -> Outcome:
        return metaqa_outcome(item)
