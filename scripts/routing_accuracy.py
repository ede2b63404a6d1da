"""Routing accuracy of ``route()`` on the mixed benchmark's graph, per source, by half.

The *tune* half is questions 100-199 of each benchmark over a mixed graph of their data; the
*check* half is questions 0-99 over theirs (the numbers docs/ROUTING.md reports). Routing
constants are chosen on tune only; check is scored, not studied.

By default the decision is the one ``answer()`` makes in the *mix-unknown* setting
(:func:`~trustuqa_core.evaluate.mixed.product_route`: per-kind demo similarities from the
union of the five benchmark demo pools, each question's own split excluded, and the widening
to every source when the question chains across sources); ``--route-only`` scores ``route()``
without demo similarities, as this script did before.

    python scripts/routing_accuracy.py --half tune --missed   # study half, with the misses
    python scripts/routing_accuracy.py --half check           # held out
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trustuqa_core.evaluate.mixed import (  # noqa: E402
    MIXED_BENCHMARKS,
    MixedEvaluation,
    build_mixed_graph,
    mixed_examples,
    own_sources,
    topic_entities,
)
from trustuqa_core.routing import route  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("tune", "check"), default="tune")
    ap.add_argument("--per", type=int, default=100, help="questions per benchmark")
    ap.add_argument("--missed", action="store_true", help="print each miss with its scores")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--encoder", choices=("hashing", "minilm"), default="hashing",
                    help="question encoder of the demo pools (default: hashing)")
    ap.add_argument("--route-only", action="store_true",
                    help="route() alone, without demo similarities or the chain widening")
    args = ap.parse_args()
    examples = mixed_examples(2 * args.per)
    n_b = len(MIXED_BENCHMARKS)
    lo, hi = (args.per, 2 * args.per) if args.half == "tune" else (0, args.per)
    chosen = examples[lo * n_b:hi * n_b]
    graph = build_mixed_graph(chosen)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    product = MixedEvaluation("mix-unknown", encoder=args.encoder)
    for e in chosen:
        d = (route(e.question, graph, entities=topic_entities(e)) if args.route_only
             else product.route(e, graph))
        own = set(own_sources(e))
        exact = set(d.sources) == own
        kept = own <= set(d.sources)
        c = counts[e.benchmark]
        c[0] += 1
        c[1] += exact
        c[2] += kept
        if args.missed and not exact:
            top = sorted(d.scores.items(), key=lambda kv: -kv[1])[:4]
            own_scores = [round(d.scores.get(s, 0), 2) for s in sorted(own)]
            print(f"MISS {e.benchmark} {e.id}: {e.question!r}\n  own {sorted(own)} "
                  f"{own_scores}\n  how {d.how}\n  top {top}")
    out = {b: {"n": c[0], "exact": c[1], "kept": c[2]} for b, c in counts.items()}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    how = "route() only" if args.route_only else f"as answer() routes ({args.encoder} demos)"
    print(f"half {args.half}: {len(chosen)} questions, {len(graph.sources)} sources, {how}")
    for b, row in out.items():
        print(f"  {b:14s} exact {row['exact']:3d}/{row['n']}  kept {row['kept']:3d}/{row['n']}")


if __name__ == "__main__":
    main()
