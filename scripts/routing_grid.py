"""Grid search of the routing weights on the *tune* half of the mixed benchmark only.

Each ``--set NAME=v1,v2,...`` names a weight of ``trustuqa_core.routing.WEIGHTS`` (or
``ratio`` for ``UNSURE_RATIO``) and the values to try; every combination is scored on
questions 100-199 of each benchmark (never on the check half, questions 0-99), best first.

    python scripts/routing_grid.py --set anchor=0,1,2 --set central=0,2,4 --top 5
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trustuqa_core.routing as routing  # noqa: E402
from trustuqa_core.evaluate.mixed import (  # noqa: E402
    MIXED_BENCHMARKS,
    build_mixed_graph,
    mixed_examples,
    own_sources,
    topic_entities,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=[], metavar="NAME=V1,V2")
    ap.add_argument("--per", type=int, default=100)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    grid = {}
    for item in args.set:
        name, _, values = item.partition("=")
        grid[name] = [float(v) for v in values.split(",")]
    examples = mixed_examples(2 * args.per)
    chosen = examples[args.per * len(MIXED_BENCHMARKS):]
    graph = build_mixed_graph(chosen)
    base = dict(routing.WEIGHTS)
    rows = []
    for combo in itertools.product(*grid.values()):
        setting = dict(zip(grid, combo, strict=True))
        routing.WEIGHTS = {**base, **{k: v for k, v in setting.items() if k != "ratio"}}
        routing.UNSURE_RATIO = setting.get("ratio", 0.9)
        per: dict[str, int] = {}
        for e in chosen:
            d = routing.route(e.question, graph, entities=topic_entities(e))
            per[e.benchmark] = per.get(e.benchmark, 0) + (set(d.sources) == set(own_sources(e)))
        rows.append((sum(per.values()), min(per.values()), setting, per))
    rows.sort(key=lambda r: (-r[0], -r[1]))
    for total, _, setting, per in rows[:args.top]:
        print(total, setting, per)


if __name__ == "__main__":
    main()
