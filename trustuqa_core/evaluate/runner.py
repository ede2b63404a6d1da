"""``python -m trustuqa_core bench run``: evaluate a benchmark in one mode and write a report.

Modes: ``ceiling`` (gold programs, no LLM: WikiSQL, MetaQA), ``replay`` (TrustUQA's recorded
GPT-3.5 queries: WTQ, MetaQA, WebQSP) and ``answer`` (the whole pipeline through
:func:`trustuqa_core.answer.answer`, offline or LLM writer, in a thread pool).

Per-question outcomes go to a resumable JSONL cache (``<out>/cache/``), keyed by benchmark,
split, mode, writer and code version: an interrupted run resumes where it stopped. The report
(``<out>/<benchmark>-<split>-<mode>[-<writer>].md`` / ``.html`` / ``.json``) is rewritten at
the end of each run. Combinations the data cannot support (e.g. ``wtq --mode ceiling``: WTQ
has no gold programs) stop with a message saying why and exit status 2.

>>> build_evaluation("wtq", "ceiling")
Traceback (most recent call last):
...
trustuqa_core.evaluate.outcome.Unavailable: wtq has no gold programs (its annotations are \
answers only): use --mode replay (recorded queries) or --mode answer
"""

from __future__ import annotations

import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import TrustUQAError
from .across import AcrossEvaluation
from .answer_eval import AnswerEvaluation
from .ceilings import MetaQACeiling, WikiSQLCeiling
from .cypher_engine import ENGINES, CypherEngine
from .datasets import BENCHMARKS
from .graphs import StoreEngine
from .mixed import MixedEvaluation, routing_summary
from .mixed_ceiling import MixedCeiling
from .outcome import EVALUATOR_ERRORS, Evaluation, Outcome, Unavailable, summarise
from .replay import MetaQAReplay, WTQReplay
from .replay_webqsp import WebQSPReplay
from .report import write_report
from .run_cache import RunCache, cache_file, code_version
from .selective import verdict_summary
from .spark_engine import SparkEngine

__all__ = ["build_evaluation", "run_evaluation", "RunResult", "DEFAULT_WORKERS"]

DEFAULT_WORKERS = 4
_CAUGHT: tuple[type[BaseException], ...] = (TrustUQAError, *EVALUATOR_ERRORS)
_NO_CEILING = {
    "wtq": "wtq has no gold programs (its annotations are answers only): use --mode replay "
           "(recorded queries) or --mode answer",
    "webqsp": "webqsp's gold SPARQL is not converted to the query language: use --mode replay "
              "or --mode answer",
    "cronquestions": "cronquestions has no gold programs, and its answers are Wikidata ids with "
                     "no id-to-name map in the data: only --mode answer runs (time answers are "
                     "scored, entity answers are reported as not evaluable)",
}
_NO_REPLAY = {
    "wikisql": "TrustUQA's recorded WikiSQL queries (wikisql_train_candidate_demo.json, >= 4 MiB) "
               "are not in the shared data folder: use --mode ceiling or --mode answer",
    "cronquestions": "TrustUQA's recorded CronQuestions queries (cronquestion_train_candidate_"
                     "demo.json, >= 4 MiB) are not in the shared data folder: use --mode answer",
}


def build_evaluation(benchmark: str, mode: str, split: str | None = None,
                     writer: str = "offline", settings: Any = None,
                     root: Path | str | None = None, encoder: str = "minilm",
                     setting: str | None = None, engine: str = "executor",
                     spark_master: str | None = None,
                     window: tuple[int, int] | None = None) -> Evaluation:
    """The evaluation of ``benchmark`` in ``mode``; :class:`Unavailable` says why not.

    ``benchmark="across"`` (generated table → KB → TKG questions, :mod:`.across`) runs in
    ``ceiling`` or ``answer`` mode. ``benchmark="mixed"`` (five benchmarks over one graph,
    :mod:`.mixed`) runs in ``answer`` mode, in one of :data:`~.mixed.SETTINGS`, or in
    ``ceiling`` mode (:class:`~.mixed_ceiling.MixedCeiling`, the executor only), in one of
    :data:`~.mixed_ceiling.CEILING_SETTINGS` (default ``mix-unknown``). ``engine="cypher"``
    runs a MetaQA ceiling / replay through Ladybug (:class:`CypherEngine`); ``"spark"`` a
    MetaQA / WikiSQL ceiling as one Spark batch (:class:`SparkEngine`, on ``spark_master``).
    ``window=(lo, hi)`` (mixed answer runs only) asks questions lo..hi-1 of each benchmark
    over a mixed graph of their data (:func:`~.mixed.mixed_window`; default the check half,
    questions 0-99; the tune pool is 100-499).
    """
    if window is not None and not (benchmark == "mixed" and mode == "answer"):
        raise Unavailable("--window is for --benchmark mixed --mode answer only")
    if benchmark == "mixed" and mode == "ceiling" and engine != "executor":
        raise Unavailable("the mixed ceiling runs on the executor only (--engine executor)")
    if engine == "duckdb":
        return StoreEngine(build_evaluation(benchmark, mode, split, writer, settings, root,
                                            encoder, setting=setting))
    if engine == "spark":
        return SparkEngine(build_evaluation(benchmark, mode, split, writer, settings, root,
                                            encoder, setting=setting), spark_master)
    if engine not in ENGINES:
        raise Unavailable(f"unknown engine {engine!r}; valid: {', '.join(ENGINES)}, duckdb, "
                          "spark")
    if engine == "cypher":
        return CypherEngine(build_evaluation(benchmark, mode, split, writer, settings, root,
                                             encoder, setting=setting))
    if benchmark == "across":
        if setting is not None:
            raise Unavailable("--setting is for --benchmark mixed only")
        if writer != "offline" and mode == "answer":
            raise Unavailable("across --mode answer runs the offline writer only")
        return AcrossEvaluation(mode, root)
    if benchmark == "mixed":
        if mode == "ceiling":
            return MixedCeiling(setting or "mix-unknown", root, encoder)
        if mode != "answer":
            raise Unavailable("mixed runs with --mode ceiling or --mode answer")
        return MixedEvaluation(setting or "mix-unknown", writer, settings, root, encoder,
                               window=window)
    if setting is not None:
        raise Unavailable("--setting is for --benchmark mixed only")
    if benchmark not in BENCHMARKS:
        raise Unavailable(f"unknown benchmark {benchmark!r}; valid: {', '.join(BENCHMARKS)}")
    hops = int(benchmark[7]) if benchmark.startswith("metaqa-") else 0
    if mode == "ceiling":
        if benchmark == "wikisql":
            return WikiSQLCeiling(split or "dev", root)
        if hops:
            return MetaQACeiling(hops, split or "dev", root)
        raise Unavailable(_NO_CEILING[benchmark])
    if mode == "replay":
        if benchmark == "wtq":
            return WTQReplay(split or "train", root)
        if hops:
            return MetaQAReplay(hops, split or "train", root)
        if benchmark == "webqsp":
            return WebQSPReplay(split or "dev", root)
        raise Unavailable(_NO_REPLAY[benchmark])
    if mode == "answer":
        return AnswerEvaluation(benchmark, split, writer, settings, root, encoder=encoder)
    raise Unavailable(f"unknown mode {mode!r}; valid: ceiling, replay, answer")


@dataclass
class RunResult:
    """One run: what was run, the summary, every outcome, the files written."""

    run: dict[str, Any]
    summary: dict[str, Any]
    outcomes: list[Outcome]
    paths: dict[str, Path] = field(default_factory=dict)
    resumed: int = 0
    interrupted: bool = False


def _question(item: Any) -> str:
    found = getattr(item, "question", None)
    if found is None and isinstance(item, tuple) and item and isinstance(item[0], str):
        found = item[0]
    return str(found or "")


def _evaluate_one(evaluation: Evaluation, key: str, item: Any) -> Outcome:
    """Evaluate one item; an evaluator failure becomes an ``error`` outcome, not a crash."""
    t0 = time.perf_counter()
    try:
        outcome = evaluation.evaluate(item)
    except _CAUGHT as exc:
        gold = [str(a) for a in getattr(item, "answers", ())]
        outcome = Outcome(key, evaluation.benchmark, _question(item), False, "error", [], gold,
                          time.perf_counter() - t0, detail=f"{type(exc).__name__}: {exc}")
    outcome.id = key
    return outcome


def _progress(total: int, desc: str, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, file=sys.stderr, disable=not enabled, unit="q",
                dynamic_ncols=True)


def run_evaluation(evaluation: Evaluation, *, limit: int | None = None,
                   out_dir: Path = Path("reports"), progress: bool = True,
                   workers: int | None = None, writer: str = "", model: str = "",
                   report: bool = True, command: str = "") -> RunResult:
    """Evaluate every item not already in the cache, then summarise and write the report.

    ``KeyboardInterrupt`` stops the run cleanly: finished questions are in the cache, and the
    next run with the same arguments continues from there (``interrupted`` is set; no report).
    """
    writer = writer if evaluation.mode == "answer" else ""
    items = evaluation.items(limit)
    keys = [k for k, _ in items]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{evaluation.benchmark}: question ids are not unique")
    version = code_version()
    encoder = str(getattr(evaluation, "encoder", "")) if writer else ""
    cache = RunCache(cache_file(out_dir / "cache", evaluation.benchmark, evaluation.split,
                                   evaluation.mode, writer, model, encoder, version))
    done = {k: o for k, o in cache.load().items() if k in set(keys)}
    todo = [(k, it) for k, it in items if k not in done]
    resumed, interrupted = len(done), False
    bar = _progress(len(items), f"{evaluation.benchmark} {evaluation.mode}", progress)
    bar.update(resumed)
    workers = workers or int(os.environ.get("TRUSTUQA_BENCH_WORKERS", DEFAULT_WORKERS))
    try:
        if evaluation.concurrent and workers > 1:
            interrupted = _run_pool(evaluation, todo, workers, cache, done, bar)
        else:
            for key, item in todo:
                outcome = _evaluate_one(evaluation, key, item)
                cache.append(outcome)
                done[key] = outcome
                bar.update(1)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    outcomes = [done[k] for k in keys if k in done]
    run = {"benchmark": evaluation.benchmark, "split": evaluation.split,
           "mode": evaluation.mode, "writer": writer,
           "model": model, "encoder": encoder, "limit": limit, "code_version": version,
           "command": command,
           "finished": time.strftime("%Y-%m-%d %H:%M:%S"), "cache": str(cache.path)}
    summary = summarise(outcomes)
    summary.update(verdict_summary(outcomes))
    if evaluation.benchmark == "mixed":
        summary["routing_accuracy"] = routing_summary(outcomes)
    result = RunResult(run, summary, outcomes, {"cache": cache.path}, resumed, interrupted)
    if report and not interrupted:
        parts = (evaluation.benchmark, evaluation.split, evaluation.mode, writer,
                 encoder if encoder != "minilm" else "", f"limit{limit}" if limit else "")
        stem = "-".join(p for p in parts if p)
        result.paths.update(write_report(summary, outcomes, run, out_dir, stem))
        summary_path = out_dir / f"{stem}.json"
        summary_path.write_text(json.dumps({"run": run, "summary": summary}, indent=2,
                                           ensure_ascii=False, default=str), encoding="utf-8")
        result.paths["json"] = summary_path
    return result


def _run_pool(evaluation: Evaluation, todo: list[tuple[str, Any]], workers: int,
              cache: RunCache, done: dict[str, Outcome], bar: Any) -> bool:
    """Evaluate in a thread pool; True when interrupted (pending questions are cancelled)."""
    pool = ThreadPoolExecutor(max_workers=workers)
    futures = [pool.submit(_evaluate_one, evaluation, key, item) for key, item in todo]
    try:
        for future in as_completed(futures):
            outcome = future.result()
            cache.append(outcome)
            done[outcome.id] = outcome
            bar.update(1)
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        return True
    pool.shutdown(wait=True)
    return False
