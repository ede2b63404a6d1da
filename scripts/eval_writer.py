"""Measure the offline writer end to end (answer() with writer="offline") on dev splits.

Evaluation hygiene: demonstrations never come from the split being scored. Demo questions that
also occur (after normalisation) in the scored split are relabelled with the scored split's
origin and excluded, and answer() always drops a demo whose question equals the question asked.

- MetaQA k-hop dev, strict Hits@1 (first answer) on kb_partial; demos: TrustUQA's recorded
  train queries for the same hop count.
- WikiSQL dev, denotation accuracy. There is no train split here, so dev is split by table id
  into two halves (sha1 of the table id, even/odd); each half is answered with demos from the
  other half only. The 657 questions whose gold answer is SQL NULL (an aggregate over no
  rows) are not scored: an empty answer would match them whatever went wrong.
- WTQ random-split-1-dev, denotation accuracy; demos: TrustUQA's recorded WTQ train queries
  minus every question of random-split-1-dev.

Usage:
    python scripts/eval_writer.py metaqa-1hop [--limit N] [--encoder minilm|hashing] [--json]
    python scripts/eval_writer.py wikisql
    python scripts/eval_writer.py wtq
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trustuqa_core.answer import answer  # noqa: E402
from trustuqa_core.answer_match import denotation_match  # noqa: E402
from trustuqa_core.evaluate.datasets import load  # noqa: E402
from trustuqa_core.evaluate.demo_pools import benchmark_pool, demo_half  # noqa: E402
from trustuqa_core.evaluate.graphs import sources_graph  # noqa: E402
from trustuqa_core.evaluate.metrics import hits_at_1, hits_at_1_any  # noqa: E402
from trustuqa_core.evaluate.wikisql_gold import wikisql_match  # noqa: E402
from trustuqa_core.mapping import HashingEncoder, default_encoder  # noqa: E402

SPLITS = {"wikisql": "dev", "wtq": "random-split-1-dev", "metaqa-1hop": "dev",
          "metaqa-2hop": "dev", "metaqa-3hop": "dev"}


def examples_for(benchmark: str, limit: int | None, seed: int) -> list:
    every = load(benchmark, SPLITS[benchmark])
    if benchmark == "wikisql":
        every = [e for e in every if e.answers]  # SQL NULL gold: not scored (see above)
    if limit is None or limit >= len(every):
        return every
    return random.Random(seed).sample(every, limit)


def score(example, result) -> dict[str, bool]:  # noqa: ANN001
    """The primary metric first, then secondary ones."""
    pred, gold = result.answer, list(example.answers)
    if example.benchmark.startswith("metaqa"):
        return {"hits@1": hits_at_1(pred, gold), "hits@1_any": hits_at_1_any(pred, gold)}
    out = {"denotation": denotation_match(pred, gold)}
    if example.benchmark == "wikisql":
        out["wikisql_match"] = wikisql_match(pred, example.metadata["raw_answers"])
        out[f"half_{demo_half(example.metadata['table_id'])}"] = out["denotation"]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("benchmark")
    p.add_argument("--limit", type=int, default=None, help="random sample of this many")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--encoder", choices=["minilm", "hashing"], default="minilm")
    p.add_argument("--n", type=int, default=5)
    p.add_argument("--threads", type=int, default=1, help="torch threads for the encoder")
    p.add_argument("--json", action="store_true")
    p.add_argument("--show-errors", type=int, default=0)
    args = p.parse_args(argv)
    encoder = HashingEncoder()
    if args.encoder == "minilm":
        import torch

        torch.set_num_threads(args.threads)  # parallel runs must not oversubscribe the cores
        encoder = default_encoder()
    t0 = time.perf_counter()
    pool, exclude_for = benchmark_pool(args.benchmark, SPLITS[args.benchmark], encoder)
    examples = examples_for(args.benchmark, args.limit, args.seed)
    setup = time.perf_counter() - t0
    hits: Counter[str] = Counter()
    counted: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    errors, per_question = [], []
    for ex in examples:
        graph, mapper = sources_graph(ex.sources)
        t = time.perf_counter()
        result = answer(ex.question, graph, writer="offline", mapper=mapper, demos=pool,
                        n=args.n, exclude_origins=exclude_for(ex))
        per_question.append(time.perf_counter() - t)
        scores = score(ex, result)
        for name, ok in scores.items():
            hits[name] += ok
            counted[name] += 1
        statuses["answered" if result.answer else "no answer"] += 1
        if len(per_question) % 500 == 0:
            main_metric = next(iter(counted))
            sys.stderr.write(f"{len(per_question)}/{len(examples)} {main_metric} "
                             f"{hits[main_metric] / counted[main_metric]:.4f}\n")
        if not next(iter(scores.values())) and len(errors) < args.show_errors:
            errors.append((ex.question, result.answer[:3], list(ex.answers)[:3],
                           result.error, result.trace.query_text if result.trace else ""))
    per_question.sort()
    report = {
        "benchmark": args.benchmark, "split": SPLITS[args.benchmark],
        "questions": len(examples),
        **{name: f"{hits[name] / counted[name]:.4f} ({hits[name]}/{counted[name]})"
           for name in counted},
        "statuses": dict(statuses), "demo_pool": len(pool), "encoder": encoder.name,
        "n": args.n, "limit": args.limit, "seed": args.seed,
        "setup_seconds": round(setup, 1), "seconds": round(time.perf_counter() - t0, 1),
        "median_ms_per_question": round(1000 * per_question[len(per_question) // 2], 1)
        if per_question else None,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:24s} {value}")
    for q, got, gold, err, text in errors:
        print(f"\nQ: {q}\n  got {got} gold {gold} error {err}\n  {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
