"""``--mode answer``: the whole pipeline, writer included, on benchmark questions.

Each question goes to :func:`trustuqa_core.answer.answer` over the question's graph (cached per
source file), and the answer is scored with the benchmark's own metric:

=============== ====================================================================
wikisql         :func:`~.wikisql_gold.wikisql_match` against the executed gold answers
wtq             WTQ denotation accuracy (:func:`~trustuqa_core.answer_match.denotation_match`)
metaqa-*        strict Hits@1 (set equality and F1 alongside)
webqsp          Hits@1 against the answer MIDs and literal answers
cronquestions   Hits@1 for time answers (years); entity answers are Wikidata ids with no
                name map, so they are ``not_evaluable`` and left out of the accuracy
=============== ====================================================================

Demonstrations come from :func:`~.demo_pools.benchmark_pool` (built once, on first
use): recorded TrustUQA queries and gold programs of the benchmark, with every demo from the
split being scored excluded for each question (WikiSQL: dev split by table, each half answered
with demos from the other half). ``encoder`` picks the retrieval encoder: ``"minilm"`` (the
app's) or ``"hashing"`` (no model to load; template matching barely depends on it).

Privacy is set explicitly (``privacy``, default False): benchmark data is public, and the
paper's prompts show example values, so the LLM sees one example value per column / triple per
relation and the fallback may send values. Pass ``privacy=True`` to measure the private setting
(formats and kinds only).

LLM calls wait on the network, so the runner evaluates these in a thread pool.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..answer import answer
from ..answer_match import denotation_match
from ..errors import SourceError, TrustUQAError
from ..llm.client import LLMError
from ..mapping import HashingEncoder, default_encoder
from ..trace import Trace
from ..verdict import Verdict, judge
from .ceilings import empty_input, metaqa_scores
from .datasets import Example, Source, load
from .demo_pools import benchmark_pool
from .graphs import sources_graph
from .metrics import hits_at_1
from .outcome import Outcome, Unavailable, classify_trace
from .replay import table_half
from .replay_webqsp import gold_keys, pred_key
from .selective import verdict_fields
from .wikisql_gold import AGG_NAMES, wikisql_match

__all__ = ["AnswerEvaluation", "answer_texts", "DEFAULT_ANSWER_SPLITS",
           "ENCODERS"]

ENCODERS = ("minilm", "hashing")

_MAX_DROPPED = 100
DEFAULT_ANSWER_SPLITS = {"wikisql": "dev", "wtq": "random-split-1-dev", "metaqa-1hop": "dev",
                         "metaqa-2hop": "dev", "metaqa-3hop": "dev", "webqsp": "dev",
                         "cronquestions": "valid"}


def answer_texts(result: Any) -> tuple[list[str], Trace | None, str]:
    """(answers, winning trace or None, error text) from whatever ``answer()`` returns: an
    object with ``answer``/``trace``/``error`` attributes, a :class:`Trace`, or a list.

    >>> answer_texts(["a", "b"]), answer_texts("x")
    ((['a', 'b'], None, ''), (['x'], None, ''))
    """
    if isinstance(result, Trace):
        return result.answer, result, ""
    if isinstance(result, list | tuple):
        return [str(x) for x in result], None, ""
    if isinstance(result, str):
        return [result], None, ""
    found = getattr(result, "answer", None)
    texts = [found] if isinstance(found, str) else [str(x) for x in found or []]
    trace = getattr(result, "trace", None)
    return texts, trace if isinstance(trace, Trace) else None, str(getattr(result, "error", "")
                                                                  or "")


def _score(e: Example, pred: list[str], trace: Trace | None) -> tuple[bool, dict[str, Any]]:
    """(correct, extra Outcome fields) under the benchmark's metric."""
    meta: Any = e.metadata
    if e.benchmark == "wikisql":
        ok = wikisql_match(pred, meta["raw_answers"], bool(trace and empty_input(trace)))
        return ok, {"groups": {"agg": AGG_NAMES[int(meta["sql"]["agg"])] or "none",
                               "half": table_half(str(meta["table_id"]))}}
    if e.benchmark == "wtq":
        return denotation_match(pred, e.answers), {
            "groups": {"half": table_half(str(meta["context"]))}}
    if e.benchmark.startswith("metaqa"):
        scores = metaqa_scores(pred, list(e.answers))
        return bool(scores["hits1"]), {"groups": {"qtype": meta["qtype"],
                                                  "half": table_half(e.id)}, "scores": scores}
    if e.benchmark == "webqsp":
        keys, gold = [pred_key(p) for p in pred], gold_keys(e)
        return bool(keys) and keys[0] in gold, {"groups": {"kind": meta["kind"]}}
    if e.benchmark == "cronquestions":
        evaluable = meta["answer_format"] != "wikidata_id"
        extra = {"groups": {"type": meta["question_type"]}, "flags": {"evaluable": evaluable}}
        return evaluable and hits_at_1(pred, e.answers), extra
    raise ValueError(f"no metric for benchmark {e.benchmark!r}")


def cronquestions_graph(source: Source) -> tuple[Any, Any]:
    """The CronQuestions TKG sample without the lines the TKG reader rejects.

    ``kg_test.txt`` has a few malformed facts (an empty tail, a start after the end) and the
    reader rejects the whole file for any of them; the benchmark blanks each rejected line
    (keeping line numbers) and tries again.
    """
    lines = source.path.read_text(encoding="utf-8").splitlines(keepends=True)
    for _ in range(_MAX_DROPPED):
        try:
            return sources_graph([source], ["".join(lines).encode("utf-8")])
        except SourceError as exc:
            if exc.line is None or not 0 < exc.line <= len(lines) or not lines[exc.line - 1]:
                raise
            lines[exc.line - 1] = "\n"
    raise SourceError(source.path.name, f"more than {_MAX_DROPPED} malformed lines")


class AnswerEvaluation:
    """Benchmark questions answered by :func:`trustuqa_core.answer.answer`."""

    mode, concurrent = "answer", True

    def __init__(self, benchmark: str, split: str | None = None, writer: str = "offline",
                 settings: Any = None, root: Path | str | None = None,
                 answer_fn: Callable[..., Any] | None = None, encoder: str = "minilm",
                 privacy: bool = False) -> None:
        if encoder not in ENCODERS:
            raise Unavailable(f"unknown encoder {encoder!r}; valid: {', '.join(ENCODERS)}")
        self.benchmark, self.writer, self.settings, self.root = benchmark, writer, settings, root
        self.split = split or DEFAULT_ANSWER_SPLITS[benchmark]
        self.encoder, self.privacy = encoder, privacy
        self.answer_fn = answer_fn or answer
        params = inspect.signature(self.answer_fn).parameters
        self._takes_mapper = "mapper" in params
        self._takes_demos = "demos" in params and "exclude_origins" in params
        self._takes_privacy = "privacy" in params
        self._pool: tuple[Any, Callable[[Example], Any]] | None = None
        self._pool_lock = threading.Lock()

    def demo_pool(self) -> tuple[Any, Callable[[Example], Any]]:
        """(pool, origins to exclude for an example), built once (thread-safe)."""
        with self._pool_lock:
            if self._pool is None:
                enc = HashingEncoder() if self.encoder == "hashing" else default_encoder()
                self._pool = benchmark_pool(self.benchmark, self.split, enc, root=self.root)
            return self._pool

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        return [(e.id, e) for e in load(self.benchmark, self.split, limit, root=self.root)]

    def evaluate(self, e: Example) -> Outcome:
        base: dict[str, Any] = {"id": e.id, "benchmark": e.benchmark, "question": e.question,
                                "gold": list(e.answers)}
        if not e.sources:
            return Outcome(**base, correct=False, category="not_evaluable", answer=[],
                           seconds=0.0, detail="the question's data file is missing")
        if e.metadata.get("answer_format") == "wikidata_id":  # no LLM call for what can't score
            return Outcome(**base, correct=False, category="not_evaluable", answer=[],
                           seconds=0.0, groups={"type": str(e.metadata["question_type"])},
                           flags={"evaluable": False},
                           detail="gold answers are Wikidata ids and no id-to-name map exists")
        graph, mapper = (cronquestions_graph(e.sources[0]) if e.benchmark == "cronquestions"
                         else sources_graph(e.sources))
        kwargs: dict[str, Any] = {"writer": self.writer, "settings": self.settings}
        if self._takes_mapper:
            kwargs["mapper"] = mapper
        if self._takes_privacy:
            kwargs["privacy"] = self.privacy
        if self._takes_demos:
            pool, exclude_for = self.demo_pool()
            kwargs.update(demos=pool, exclude_origins=exclude_for(e))
        t0 = time.perf_counter()
        try:
            result = self.answer_fn(e.question, graph, **kwargs)
        except TrustUQAError as exc:
            category = "llm_error" if isinstance(exc, LLMError) else "error"
            return Outcome(**base, correct=False, category=category, answer=[],
                           seconds=time.perf_counter() - t0, detail=f"{type(exc).__name__}: {exc}")
        seconds = time.perf_counter() - t0
        pred, trace, error = answer_texts(result)
        correct, extra = _score(e, pred, trace)
        verdict = getattr(result, "verdict", None)
        if not isinstance(verdict, Verdict):
            verdict = judge(trace, e.question, error=error or None, graph=graph)
        if not pred and verdict.label != "no answer":
            verdict = judge(None, e.question, error=error or "no answer", graph=graph)
        groups, why = verdict_fields(verdict)
        flags = {**extra.get("flags", {}), **why}
        extra["groups"] = {**extra.get("groups", {}), **groups}
        if correct:
            category, detail = "correct", ""
        elif flags.get("evaluable") is False:
            category, detail = "not_evaluable", "gold answers are Wikidata ids (no name map)"
        elif trace is not None:
            category, detail = classify_trace(trace)
            detail = "; ".join(x for x in (detail, error) if x)
        else:
            category, detail = ("empty" if not pred else "wrong"), error
        return Outcome(**base, correct=correct, category=category, answer=pred, seconds=seconds,
                       groups=extra.get("groups", {}), flags=flags,
                       scores=extra.get("scores", {}), detail=detail,
                       query=trace.query_text if trace is not None else "")
