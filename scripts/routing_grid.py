"""Grid search of the routing weights on the *tune* half of the mixed benchmark only.

Each ``--set NAME=v1,v2,...`` names a weight of ``trustuqa_core.routing.WEIGHTS`` (or
``ratio`` for ``UNSURE_RATIO``, ``when_extreme`` 0/1 for ``WHEN_EXTREME``) and the values
to try; every combination is scored on questions 100-199 of each benchmark (``--half pool``:
the larger tune pool, questions 100-499 as four graphs; never on the check half, questions
0-99), best first.

    python scripts/routing_grid.py --set anchor=0,1,2 --set central=0,2,4 --top 5
    python scripts/routing_grid.py --as-answer --set demo=0.5,2,4   # with demo similarities

``--as-answer`` scores the decision ``answer()`` makes in the *mix-unknown* setting (per-kind
demo similarities from the union of the five demo pools, as ``routing_accuracy.py`` does by
default) instead of ``route()`` alone; each row gives per benchmark ``exact`` and ``kind``
(``right_kind``), ranked by the smallest ``kind`` then the total ``exact``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trustuqa_core.routing as routing  # noqa: E402
from trustuqa_core.evaluate.mixed import (  # noqa: E402
    TUNE_POOL,
    MixedEvaluation,
    build_mixed_graph,
    mixed_window,
    own_sources,
    right_kind,
    topic_entities,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=[], metavar="NAME=V1,V2")
    ap.add_argument("--half", choices=("tune", "pool"), default="tune")
    ap.add_argument("--benchmarks", nargs="+", default=None,
                    help="score only these benchmarks' questions (the graphs hold all)")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--as-answer", action="store_true",
                    help="score answer()'s decision (with demo similarities), exact and kind")
    args = ap.parse_args()
    grid = {}
    for item in args.set:
        name, _, values = item.partition("=")
        grid[name] = [float(v) for v in values.split(",")]
    windows = TUNE_POOL if args.half == "pool" else TUNE_POOL[:1]
    graphs = [(chosen, build_mixed_graph(chosen))
              for chosen in (mixed_window(lo, hi) for lo, hi in windows)]
    base = dict(routing.WEIGHTS)
    flags = {"when_extreme": ("WHEN_EXTREME", True, False)}
    product = MixedEvaluation("mix-unknown", encoder="hashing") if args.as_answer else None
    rows = []
    for combo in itertools.product(*grid.values()):
        setting = dict(zip(grid, combo, strict=True))
        routing.WEIGHTS = {**base, **{k: v for k, v in setting.items()
                                      if k != "ratio" and k not in flags}}
        routing.UNSURE_RATIO = setting.get("ratio", 0.9)
        for key, (name, on, off) in flags.items():
            setattr(routing, name, on if setting.get(key, 1.0) else off)
        exact: dict[str, int] = {}
        kind: dict[str, int] = {}
        for chosen, graph in graphs:
            for e in chosen:
                if args.benchmarks and e.benchmark not in args.benchmarks:
                    continue
                d = (product.route(e, graph) if product is not None
                     else routing.route(e.question, graph, entities=topic_entities(e)))
                own = own_sources(e)
                exact[e.benchmark] = exact.get(e.benchmark, 0) + (set(d.sources) == set(own))
                kind[e.benchmark] = kind.get(e.benchmark, 0) + right_kind(graph, d.sources, own)
        rows.append((sum(exact.values()), min(kind.values()), setting, exact, kind))
        print(*rows[-1], flush=True)
    rows.sort(key=lambda r: (-r[1], -r[0]) if args.as_answer else (-r[0], -r[1]))
    for total, worst, setting, exact, kind in rows[:args.top]:
        print(total, worst, setting, "exact", exact, "kind", kind)

if __name__ == "__main__":
    main()
