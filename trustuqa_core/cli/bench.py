"""``python -m trustuqa_core bench``: ``perf`` (speed figures), ``scale`` (a store at a size,
see :mod:`trustuqa_core.bench.scale`) and ``run`` (benchmark
evaluation through :mod:`trustuqa_core.evaluate.runner`, see its docstring for the modes).

>>> import argparse
>>> _command(argparse.Namespace(benchmark="wtq", mode="replay", split=None, writer="offline",
...                             limit=300, out=None))
'python -m trustuqa_core bench run --benchmark wtq --mode replay --limit 300'
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..bench.perf import run_perf
from ..bench.scale import FIELDS, ScaleArgs, run_scale
from ..bench.spark_batch import run_spark_batch
from ..errors import TrustUQAError
from ..evaluate.datasets import DatasetError
from ..evaluate.engine_differential import metaqa_engines, wikisql_engines
from ..evaluate.outcome import Unavailable
from ..evaluate.report import percent
from ..evaluate.runner import build_evaluation, run_evaluation
from ..evaluate.spark_differential import spark_differential
from ..llm import load_settings
from .common import print_line

__all__ = ["cmd_perf", "cmd_scale", "cmd_bench_run", "run_cli", "cmd_spark_batch"]


def cmd_perf(args: argparse.Namespace) -> int:
    """``bench perf``: speed figures (JSON with ``--json``)."""
    figures = run_perf(repeat=args.repeat)
    if args.json:
        print_line(json.dumps(figures, indent=2))
    else:
        for key, value in figures.items():
            print_line(f"{key:28s} {value}")
    return 0


def cmd_scale(args: argparse.Namespace) -> int:
    """``bench scale``: one store's load time, memory and per-question speed (exit 2 when the
    engine is unavailable or the data unreadable)."""
    scale = ScaleArgs(facts=args.facts, engine=args.engine, kb=args.kb,
                      replicate=args.replicate, repeat=args.repeat, table_rows=args.table_rows)
    try:
        figures = run_scale(scale, table=not args.no_table)
    except TrustUQAError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    if args.json:
        print_line(json.dumps(figures, default=str))
    else:
        for key in (*FIELDS, *(k for k in figures if k not in FIELDS)):
            print_line(f"{key:24s} {figures.get(key)}")
    return 0


def cmd_bench_run(args: argparse.Namespace) -> int:
    """``bench run``: see :func:`run_cli`."""
    return run_cli(args)


def _settings(writer: str) -> tuple[Any, str]:
    if writer != "openai":
        return None, ""
    settings = load_settings()
    if not settings.configured:
        raise Unavailable("--writer openai needs an LLM: set OPENAI_BASE_URL / TRUSTUQA_MODEL / "
                          "OPENAI_API_KEY (or .streamlit/secrets.toml)")
    return settings, settings.model


def run_cli(args: argparse.Namespace) -> int:
    """Run ``bench run`` from parsed CLI arguments; returns the exit status (0 done, 2 the
    combination is unavailable, misconfigured or its data unreadable, 130 interrupted)."""
    out = sys.stdout
    split = args.split
    if args.limit is not None and args.limit < 0:
        sys.stderr.write("error: --limit must be >= 0\n")
        return 2
    try:
        settings, model = _settings(args.writer) if args.mode == "answer" else (None, "")
        evaluation = build_evaluation(
            args.benchmark, args.mode, split, args.writer, settings,
            encoder=getattr(args, "encoder", "minilm"), setting=getattr(args, "setting", None),
            engine=getattr(args, "engine", "executor"),
            spark_master=getattr(args, "spark_master", None),
            window=getattr(args, "window", None))
    except (Unavailable, DatasetError) as exc:
        if args.json:
            out.write(json.dumps({"benchmark": args.benchmark, "split": split,
                                  "mode": args.mode, "n": 0, "accuracy": None, "failures": {},
                                  "unavailable": str(exc)}) + "\n")
        else:
            sys.stderr.write(f"error: {exc}\n")
        return 2
    command = _command(args)
    result = run_evaluation(evaluation, limit=args.limit, out_dir=args.out or Path("reports"),
                            progress=not args.no_progress, writer=args.writer, model=model,
                            command=command)
    payload = {**{k: result.run[k] for k in ("benchmark", "split", "mode", "writer")},
               **result.summary, "resumed": result.resumed, "interrupted": result.interrupted,
               "code_version": result.run["code_version"],
               "files": {k: str(v) for k, v in result.paths.items()}}
    if args.json:
        out.write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")
    else:
        out.write(_text_summary(payload) + "\n")
    return 130 if result.interrupted else 0


def _command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run (without --json / --no-progress)."""
    parts = ["python -m trustuqa_core bench run", f"--benchmark {args.benchmark}",
             f"--mode {args.mode}"]
    parts += [f"--split {args.split}"] if args.split else []
    setting = getattr(args, "setting", None)
    parts += [f"--setting {setting}"] if setting else []
    window = getattr(args, "window", None)
    parts += [f"--window {window[0]}:{window[1]}"] if window else []
    parts += [f"--writer {args.writer}"] if args.mode == "answer" else []
    encoder = getattr(args, "encoder", "minilm")
    uses_encoder = args.mode == "answer" or args.benchmark == "mixed"  # mixed: routing demos
    parts += [f"--encoder {encoder}"] if uses_encoder and encoder != "minilm" else []
    engine = getattr(args, "engine", "executor")
    parts += [f"--engine {engine}"] if engine != "executor" else []
    master = getattr(args, "spark_master", None)
    parts += [f"--spark-master {master}"] if engine == "spark" and master else []
    parts += [f"--limit {args.limit}"] if args.limit is not None else []
    parts += [f"--out {args.out}"] if args.out else []
    return " ".join(parts)


def _text_summary(p: dict[str, Any]) -> str:
    lines = [f"{p['benchmark']} {p['split']} {p['mode']}: {p['correct']} / {p['n_evaluated']} "
             f"correct ({percent(p['accuracy'])})" + (f", {p['resumed']} from the cache"
                                                      if p["resumed"] else "")]
    if p["failures"]:
        lines.append("failures: " + ", ".join(f"{k} {v}" for k, v in p["failures"].items()))
    for flag, part in p["flags"].items():
        lines.append(f"  {flag}: {part['correct']} / {part['n']} ({percent(part['accuracy'])})")
    if p.get("verdicts"):
        v = p["verdicts"]
        lines.append(f"verdicts: verified {v['verified']['correct']} / {v['verified']['n']} "
                     f"correct, check {v['check']['correct']} / {v['check']['n']}, no answer "
                     f"{v['none']['n']}; precision of verified "
                     f"{percent(p['precision_verified'])}, coverage {percent(p['coverage'])}, "
                     f"wrong and verified {percent(p['wrong_verified'])} of all questions")
    routing = p.get("routing_accuracy")
    if routing:
        lines += _routing_lines(routing)
    for name, part in p.get("groups", {}).get("source", {}).items():
        lines.append(f"  {name}: {part['correct']} / {part['n']} correct")
    if p["interrupted"]:
        lines.append("interrupted: rerun the same command to resume")
    for kind, path in p["files"].items():
        lines.append(f"{kind}: {path}")
    return "\n".join(lines)


def _routing_lines(routing: dict[str, Any]) -> list[str]:
    """The mixed benchmark's routing in words: ``exact`` (the question's decision is exactly
    its own sources), beside ``kind`` (the routed sources are of the right kind) and ``kept``
    (its own are among the routed), overall and per source; then the same after answering
    where recorded (``final``, ``final_kind``, ``final_kept``). Counts a run recorded before
    a figure existed lacks are left out.

    >>> part = {"n": 4, "exact": 2, "kind": 3, "kept": 4}
    >>> print("\\n".join(_routing_lines({"all": part, "source": {"wtq": part}})))
    ... # doctest: +NORMALIZE_WHITESPACE
    routing: 2 / 4 to exactly the question's source (wtq 2 / 4); of the right kind (table /
    KG / TKG) 3 / 4 (wtq 3 / 4); keeping the question's source among the routed 4 / 4
    (wtq 4 / 4)
    """
    alls, per = routing["all"], routing["source"]

    def figure(key: str, of: str = "n") -> str:
        return f"{alls[key]} / {alls[of]}"

    def each(key: str, of: str = "n") -> str:
        parts = ", ".join(f"{k} {part[key]} / {part[of]}" for k, part in per.items()
                          if key in part)
        return f" ({parts})" if parts else ""

    line = f"routing: {figure('exact')} to exactly the question's source{each('exact')}"
    if "kind" in alls:
        line += f"; of the right kind (table / KG / TKG) {figure('kind')}{each('kind')}"
    if "kept" in alls:
        line += (f"; keeping the question's source among the routed "
                 f"{figure('kept')}{each('kept')}")
    lines = [line]
    if "final" in alls and "final_or_decided" in alls:
        after = (f"routing after answering: {alls['final']} answered over exactly the "
                 f"question's source; {alls['final_or_decided']} counting the decision where "
                 f"no query ran{each('final', 'final_or_decided')}")
        if "final_kind" in alls:
            after += f"; of the right kind {figure('final_kind')}{each('final_kind')}"
        if "final_kept" in alls:
            after += (f"; keeping the question's source "
                      f"{figure('final_kept')}{each('final_kept')}")
        lines.append(after)
    return lines


def cmd_bench_differential(args: argparse.Namespace) -> int:
    """``bench differential --engine duckdb``: gold programs of MetaQA dev 1/2/3-hop and
    WikiSQL dev on the memory and the DuckDB store; prints agreement and every disagreement.
    Exit 0 when agreement reaches ``--target`` on every set, else 1."""
    if getattr(args, "engine", "duckdb") == "spark":
        return _spark_differential(args)
    ok = True
    for name in args.sets:
        if name.startswith("metaqa-"):
            report = metaqa_engines(int(name[7]), args.split, args.limit)
        else:
            report = wikisql_engines(args.split, args.limit)
        summary = report.summary()
        ok = ok and summary["agreement"] >= args.target
        if args.json:
            print_line(json.dumps(summary, ensure_ascii=False, default=str))
            continue
        print_line(f"{summary['name']}: {summary['agree']}/{summary['compared']} agree "
                   f"({percent(summary['agreement'])}), "
                   f"skipped {summary['skipped_topic_not_in_kb']}"
                   f"; p50 memory {summary['memory_p50_ms']} ms, duckdb "
                   f"{summary['duckdb_p50_ms']} ms")
        for row in summary["disagreements"]:
            print_line(f"  {row['id']}: memory {row['memory'][:5]} vs duckdb {row['duckdb'][:5]}")
        sys.stdout.flush()
    return 0 if ok else 1


def _spark_differential(args: argparse.Namespace) -> int:
    """``bench differential --engine spark``: each set's gold programs as one Spark batch
    against the memory executor; prints agreement, what was not compiled (counted and
    listed) and every disagreement. Exit 0 when agreement reaches ``--target`` on every set,
    1 when not, 2 when Spark cannot start."""
    try:
        reports = spark_differential(args.sets, args.split, args.limit,
                                     master=args.spark_master,
                                     progress=None if args.json else print_line)
    except TrustUQAError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    ok = True
    for report in reports:
        summary = report.summary()
        ok = ok and summary["agreement"] >= args.target
        if args.json:
            print_line(json.dumps(summary, ensure_ascii=False, default=str))
            continue
        print_line(f"{summary['name']}: {summary['agree']}/{summary['compared']} agree "
                   f"({percent(summary['agreement'])}), not compiled "
                   f"{summary['not_compiled']}, not mapped {summary['not_mapped']}, skipped "
                   f"{summary['skipped_topic_not_in_kb']}; memory "
                   f"{summary['memory_questions_per_s']} questions/s, Spark batch "
                   f"{summary['spark_seconds']} s ({summary['spark_questions_per_s']} "
                   "questions/s)")
        for qid, why in summary["not_compiled_questions"].items():
            print_line(f"  not compiled {qid}: {why}")
        for row in summary["disagreements"]:
            print_line(f"  {row['id']}: memory {row['memory'][:5]} vs spark {row['spark'][:5]}")
        sys.stdout.flush()
    return 0 if ok else 1


def cmd_spark_batch(args: argparse.Namespace) -> int:
    """``bench spark``: questions/s of each engine on the same 3-hop programs over a
    generated KG (exit 2 when an engine cannot start)."""
    try:
        figures = run_spark_batch(args.facts, args.questions, tuple(args.engines),
                                  budget_s=args.budget, master=args.spark_master,
                                  progress=None if args.json else print_line)
    except TrustUQAError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    if args.json:
        print_line(json.dumps(figures))
    else:
        for key, value in figures.items():
            print_line(f"{key:24s} {value}")
    return 0
