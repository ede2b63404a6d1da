"""Routing accuracy of ``route()`` on the mixed benchmark's graph, per source, by half.

The *tune* half is questions 100-199 of each benchmark over a mixed graph of their data; the
*check* half is questions 0-99 over theirs (the numbers docs/ROUTING.md reports); the *pool*
is the larger tune pool, questions 100-499 of each benchmark as four windows of 100, each over
a mixed graph of its own questions' data (``mixed.TUNE_POOL``; WebQSP dev has 307). Routing
constants are chosen on tune only; check is scored, not studied.

By default the decision is the one ``answer()`` makes in the *mix-unknown* setting
(:func:`~trustuqa_core.evaluate.mixed.product_route`: per-kind demo similarities from the
union of the five benchmark demo pools, each question's own split excluded, and the widening
to every source when the question chains across sources); ``--route-only`` scores ``route()``
without demo similarities, as this script did before.

    python scripts/routing_accuracy.py --half tune --missed   # study half, with the misses
    python scripts/routing_accuracy.py --half pool            # questions 100-499, 4 graphs
    python scripts/routing_accuracy.py --half check           # held out
    python scripts/routing_accuracy.py --half check --demos   # and the paper's proxy

Per benchmark: ``exact`` (the decision is exactly the question's own source(s): the figure
the >= 95% target is judged on), ``kind`` (every routed source is of the kind of its own
source, table / KG / TKG, and each such kind is routed to) and ``kept`` (its own source is
among the routed ones).

``--demos`` also scores the paper's proxy for routing (TrustUQA's Table 8 "retrieval
accuracy"): of the ``k`` demonstrations retrieved for a question from the union of the five
benchmark pools, the share that come from the question's own benchmark (the bundled initial
demos, which belong to none, are left out of the share). It is reported twice: retrieved the
way ``answer()`` retrieves them after routing (only demos of the routed sources' kinds), and
from the whole union pool with no routing (the paper's setting).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trustuqa_core.demos import KINDS_FOR, DemoPool  # noqa: E402
from trustuqa_core.evaluate.datasets import Example  # noqa: E402
from trustuqa_core.evaluate.mixed import (  # noqa: E402
    TUNE_POOL,
    MixedEvaluation,
    build_mixed_graph,
    mixed_window,
    own_sources,
    right_kind,
    topic_entities,
)
from trustuqa_core.llm.prompts import graph_kind  # noqa: E402
from trustuqa_core.routing import route  # noqa: E402
from trustuqa_core.store import GraphStore  # noqa: E402
from trustuqa_core.subgraph import restrict, source_indices  # noqa: E402


def own_demo_share(pool: DemoPool, question: str, benchmark: str, exclude: list[str],
                   kinds: tuple[str, ...] | None, k: int = 8) -> tuple[int, int]:
    """(demos of ``benchmark`` among the ``k`` retrieved, demos counted): the initial demos
    belong to no benchmark and are not counted."""
    found = pool.similar(question, k, kinds=kinds, exclude_origins=exclude)
    origins = [pool.demos[i].origin for i, _ in found if pool.demos[i].origin != "initial"]
    return sum(o.split(":", 1)[0] == benchmark for o in origins), len(origins)


def routed_kinds(graph: GraphStore, sources: tuple[str, ...]) -> tuple[str, ...]:
    """The demo kinds ``answer()`` retrieves from when a question is routed to ``sources``."""
    return tuple(KINDS_FOR[graph_kind(restrict(graph, source_indices(graph, sources)))])


def _score(e: Example, graph: GraphStore, product: MixedEvaluation, args: argparse.Namespace,
           counts: dict[str, list[int]], shares: dict[str, list[int]]) -> None:
    """Route ``e`` over ``graph`` and count it (and its demo shares with ``--demos``)."""
    d = (route(e.question, graph, entities=topic_entities(e)) if args.route_only
         else product.route(e, graph))
    own = set(own_sources(e))
    exact = set(d.sources) == own
    kept = own <= set(d.sources)
    c = counts[e.benchmark]
    c[0] += 1
    c[1] += exact
    c[2] += kept
    c[3] += right_kind(graph, d.sources, tuple(own))
    if args.demos:
        pool, exclude_for = product.pool(e.benchmark)
        union, exclude = product.union_pool(), list(exclude_for(e))
        routed = own_demo_share(union, e.question, e.benchmark, exclude,
                                routed_kinds(graph, tuple(d.sources)))
        unrouted = own_demo_share(union, e.question, e.benchmark, exclude, None)
        sh = shares[e.benchmark]
        for i, v in enumerate((*routed, *unrouted)):
            sh[i] += v
    if args.missed and not exact:
        top = sorted(d.scores.items(), key=lambda kv: -kv[1])[:4]
        own_scores = [round(d.scores.get(s, 0), 2) for s in sorted(own)]
        print(f"MISS {e.benchmark} {e.id}: {e.question!r}\n  own {sorted(own)} "
              f"{own_scores}\n  how {d.how}\n  top {top}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", choices=("tune", "check", "pool"), default="tune")
    ap.add_argument("--missed", action="store_true", help="print each miss with its scores")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--encoder", choices=("hashing", "minilm"), default="hashing",
                    help="question encoder of the demo pools (default: hashing)")
    ap.add_argument("--route-only", action="store_true",
                    help="route() alone, without demo similarities or the chain widening")
    ap.add_argument("--demos", action="store_true",
                    help="also the paper's proxy: the share of the 8 retrieved demos taken from "
                         "the question's own benchmark, after routing and with no routing")
    args = ap.parse_args()
    windows = {"tune": TUNE_POOL[:1], "check": ((0, 100),), "pool": TUNE_POOL}[args.half]
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    shares: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    product = MixedEvaluation("mix-unknown", encoder=args.encoder)
    n_q, n_s = 0, 0
    for lo, hi in windows:
        chosen = mixed_window(lo, hi)
        graph = build_mixed_graph(chosen)
        n_q, n_s = n_q + len(chosen), n_s + len(graph.sources)
        for e in chosen:
            _score(e, graph, product, args, counts, shares)
    out: dict[str, dict[str, object]] = {
        b: {"n": c[0], "exact": c[1], "kind": c[3], "kept": c[2]} for b, c in counts.items()}
    for b, sh in shares.items():
        out[b]["own_demos_routed"] = round(sh[0] / sh[1], 4) if sh[1] else None
        out[b]["own_demos_unrouted"] = round(sh[2] / sh[3], 4) if sh[3] else None
    if args.json:
        print(json.dumps(out, indent=1))
        return
    how = "route() only" if args.route_only else f"as answer() routes ({args.encoder} demos)"
    print(f"half {args.half}: {n_q} questions, {n_s} sources in {len(windows)} graph(s), {how}")
    for b, row in out.items():
        demos = ""
        if "own_demos_routed" in row:
            demos = (f"  own-benchmark demos: routed {_pct(row['own_demos_routed'])}, "
                     f"unrouted {_pct(row['own_demos_unrouted'])}")
        print(f"  {b:14s} exact {row['exact']:3d}/{row['n']}  kind {row['kind']:3d}/{row['n']}"
              f"  kept {row['kept']:3d}/{row['n']}"
              + demos)


def _pct(x: object) -> str:
    return "n/a" if not isinstance(x, float) else f"{100 * x:.1f}%"


if __name__ == "__main__":
    main()
