"""The mixed ceiling (mix-unknown) on one half, with and without routing by the query.

The *tune* half is questions 100-199 of each benchmark over a mixed graph of their data, the
*check* half questions 0-99 (what ``bench run --benchmark mixed --mode ceiling`` runs). Rules
and constants of :mod:`trustuqa_core.routing_by_query` are chosen on tune only.

    python scripts/routing_by_query_ceiling.py --half tune [--no-query] [--missed]
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trustuqa_core.evaluate import mixed_ceiling  # noqa: E402
from trustuqa_core.evaluate.mixed import MIXED_BENCHMARKS, mixed_examples  # noqa: E402
from trustuqa_core.evaluate.mixed_ceiling import MixedCeiling  # noqa: E402
from trustuqa_core.routing_by_query import (  # noqa: E402
    MAX_CANDIDATES,
    MAX_RUNS,
    route_by_query,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("tune", "check"), default="tune")
    ap.add_argument("--setting", default="mix-unknown")
    ap.add_argument("--no-query", action="store_true", help="route by the question only")
    ap.add_argument("--missed", action="store_true", help="print each wrong routing")
    ap.add_argument("--k", type=int, default=MAX_CANDIDATES, help="sources mapped")
    ap.add_argument("--runs", type=int, default=MAX_RUNS, help="sources executed on a tie")
    args = ap.parse_args()
    spent: list[float] = []
    chosen_rule = functools.partial(route_by_query, k=args.k, max_runs=args.runs)

    def timed(*a: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return chosen_rule(*a, **kw)
        finally:
            spent.append(time.perf_counter() - t)
    mixed_ceiling.route_by_query = timed
    per = 100
    examples = mixed_examples(2 * per)
    n_b = len(MIXED_BENCHMARKS)
    lo, hi = (per, 2 * per) if args.half == "tune" else (0, per)
    chosen = examples[lo * n_b:hi * n_b]
    ceiling = MixedCeiling(args.setting, encoder="hashing", by_query=not args.no_query,
                           examples=chosen)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    t0 = time.perf_counter()
    for _, e in ceiling.items():
        o = ceiling.evaluate(e)
        c = counts[e.benchmark]
        c[0] += 1
        c[1] += o.correct
        c[2] += bool(o.flags.get("routed"))
        c[3] += bool(o.flags.get("routed_by_question"))
        if args.missed and not o.flags.get("routed"):
            lost = " (the question alone routed it right)" if o.flags.get(
                "routed_by_question") else ""
            print(f"MISS {o.id} correct={o.correct} {e.question!r}{lost}")
    print(f"half {args.half}, {args.setting}, by query: {not args.no_query} (k {args.k}, "
          f"runs {args.runs}), "
          f"{time.perf_counter() - t0:.0f} s")
    if spent:
        ordered = sorted(spent)
        print(f"  routing by the query: {len(spent)} calls, mean {sum(spent) / len(spent):.3f} s,"
              f" median {ordered[len(ordered) // 2]:.3f} s, max {ordered[-1]:.3f} s")
    for b, (n, ok, routed, asked) in counts.items():
        print(f"  {b:12s} correct {ok:3d}/{n}  routed exactly {routed:3d}/{n} "
              f"(by the question {asked:3d}/{n})")


if __name__ == "__main__":
    main()
