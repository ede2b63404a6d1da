"""Replay of the TrustUQA authors' recorded GPT-3.5 queries through our parser, mapper and
executor (no LLM call): the best offline check of the whole non-LLM pipeline.

* WTQ: recorded queries for train questions, scored with WTQ denotation accuracy against
  ``training.tsv``; each entry is also put in a ``tune`` or ``check`` half by a hash of its
  table id, so a design choice tuned on one half can be checked on the other.
* MetaQA: the recorded questions are train questions, whose answers are not in the data.
  Their type comes from matching the question template against the dev questions (whose
  qtype files give the type); the expected answer is the gold program of that type run for
  the question's topic entity over ``kb_partial``. Correct means strict Hits@1 (the first
  replayed answer is an expected one); answer-set equality and F1 are reported alongside.
* WebQSP: see :mod:`.replay_webqsp`.

Each query runs with a :class:`~.outcome.ProbeFallback`, so a query that needs an
LLM-inferred step is recognised (category ``llm_function``) without calling an LLM.
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..answer_match import denotation_match
from ..execute import run_query
from ..query.render import render_program
from ..verdict import judge
from .ceilings import metaqa_scores, topic_overrides
from .datasets import Example, load_metaqa, load_recorded_queries, load_wtq
from .graphs import source_graph
from .metaqa_gold import qtype_program, question_template
from .outcome import Outcome, ProbeFallback, Unavailable, classify_trace
from .selective import verdict_fields

__all__ = ["WTQReplay", "MetaQAReplay", "table_half", "needs_llm"]


def table_half(context: str) -> str:
    """``"tune"`` or ``"check"``: a fixed split of WTQ tables by a hash of their id.

    >>> table_half("csv/203-csv/733.csv") in ("tune", "check")
    True
    """
    return "tune" if hashlib.sha256(context.encode("utf-8")).digest()[0] % 2 == 0 else "check"


def needs_llm(trace: Any, probe: ProbeFallback) -> bool:
    """True when running the query asked for an LLM-inferred step (or left one unanswered)."""
    return bool(probe.requests) or any(s.status == "unanswered" for s in trace.steps)


class WTQReplay:
    """TrustUQA's recorded WTQ train queries against ``training.tsv``'s answers."""

    benchmark, mode, concurrent = "wtq", "replay", False

    def __init__(self, split: str = "train", root: Path | str | None = None) -> None:
        if split != "train":
            raise Unavailable("the recorded WTQ queries are for train questions: use --split train")
        self.split, self.root = split, root

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        by_question: dict[str, list[Example]] = defaultdict(list)
        for e in load_wtq("train", root=self.root):
            by_question[e.question].append(e)
        out = []
        for question, text in load_recorded_queries("wtq", root=self.root).items():
            examples = by_question.get(question, [])
            key = examples[0].id if examples else f"unmatched:{question}"
            out.append((key, (question, text, examples)))
        return out[:limit]

    def evaluate(self, item: tuple[str, str, list[Example]]) -> Outcome:
        question, text, examples = item
        if not examples:
            return Outcome(f"unmatched:{question}", "wtq", question, False, "no_program", [], [],
                           0.0, detail="the question is not in training.tsv", query=text)
        runs = []
        for e in examples:  # one, except for questions asked of several tables
            graph, mapper = source_graph(e.sources[0])
            probe = ProbeFallback()
            t0 = time.perf_counter()
            trace = run_query(text, graph, mapper, fallback=probe, question=question)
            seconds = time.perf_counter() - t0
            ok = denotation_match(trace.answer, e.answers)
            runs.append((ok, e, trace, probe, seconds))
            if ok:
                break
        ok, e, trace, probe, seconds = next((r for r in runs if r[0]), runs[0])
        category, detail = ("correct", "") if ok else classify_trace(trace, probe)
        strict = denotation_match(trace.answer, e.answers, infer_canon=False)
        context = str(e.metadata["context"])
        groups, why = verdict_fields(judge(trace, question, writer="llm"))
        return Outcome(e.id, "wtq", question, ok, category, trace.answer, list(e.answers),
                       seconds, groups={"half": table_half(context), **groups},
                       flags={"no_llm_step": not needs_llm(trace, probe),
                              "ambiguous_question": len(examples) > 1, **why},
                       scores={"denotation_no_canon": float(strict)}, detail=detail, query=text)


class MetaQAReplay:
    """TrustUQA's recorded MetaQA train queries against the gold program's answers."""

    mode, concurrent = "replay", False

    def __init__(self, hops: int, split: str = "train", root: Path | str | None = None) -> None:
        if split != "train":
            raise Unavailable("the recorded MetaQA queries are for train questions: "
                              "use --split train")
        self.hops, self.split, self.root = hops, split, root
        self.benchmark = f"metaqa-{hops}hop"
        self._types: dict[str, str] = {}
        self._source: Any = None

    def _prepare(self) -> None:
        """Question templates of the dev split -> their (unambiguous) qtype."""
        if self._source is not None:
            return
        dev = load_metaqa(self.hops, "dev", root=self.root)
        types: dict[str, set[str]] = defaultdict(set)
        for e in dev:
            types[question_template(e.question)[0]].add(str(e.metadata["qtype"]))
        self._types = {t: next(iter(q)) for t, q in types.items() if len(q) == 1}
        self._source = dev[0].sources[0]

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        self._prepare()
        recorded = load_recorded_queries(f"metaqa-{self.hops}hop", root=self.root)
        return [(q, (q, text)) for q, text in recorded.items()][:limit]

    def evaluate(self, item: tuple[str, str]) -> Outcome:
        question, text = item
        self._prepare()
        template, topic = question_template(question)
        qtype = self._types.get(template)
        graph, mapper = source_graph(self._source)
        probe = ProbeFallback()
        t0 = time.perf_counter()
        trace = run_query(text, graph, mapper, fallback=probe, question=question)
        seconds = time.perf_counter() - t0
        answer = trace.answer
        if qtype is None or topic is None:
            return Outcome(question, self.benchmark, question, False, "no_program", answer, [],
                           seconds, detail=f"no dev question has the template {template!r}",
                           query=text)
        expected: list[str] = []
        if graph.entity(topic) is not None:
            program = qtype_program(qtype, topic)
            expected = run_query(render_program(program), graph, mapper,
                                 overrides=topic_overrides(program, topic)).answer
        scores = metaqa_scores(answer, expected)
        correct = bool(expected) and bool(scores["hits1"])
        if correct:
            category, detail = "correct", ""
        elif not expected:
            category, detail = "unreachable", "the gold program finds nothing in kb_partial"
        else:
            category, detail = classify_trace(trace, probe)
        groups, why = verdict_fields(judge(trace, question, writer="llm"))
        return Outcome(question, self.benchmark, question, correct, category, answer, expected,
                       seconds, groups={"qtype": qtype, "half": table_half(question), **groups},
                       flags={"expected_nonempty": bool(expected),
                              "no_llm_step": not needs_llm(trace, probe), **why},
                       scores=scores, detail=detail, query=text)
