"""Differential check of the Cypher engine: our executor vs Ladybug on MetaQA gold programs.

    nice -n 10 python scripts/cypher_differential.py [--hops 1 2 3] [--limit N] [--json OUT]

Prints, per hop count, how many answer sets agree, every disagreement, the p50 execution time
of both engines, and the time to bulk-load the MetaQA KB into a fresh Ladybug database.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.evaluate.cypher_differential import (  # noqa: E402
    fresh_load_seconds,
    metaqa_differential,
    replay_differential,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hops", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--split", default="dev")
    parser.add_argument("--limit", type=int, default=None, help="first N questions per hop")
    parser.add_argument("--root", type=Path, default=DATA)
    parser.add_argument("--json", type=Path, default=None, help="write the full report here")
    parser.add_argument("--replays", type=int, default=0, metavar="N",
                        help="also the first N recorded TrustUQA MetaQA queries per hop")
    args = parser.parse_args()
    kb = args.root / "metaqa" / "kb_partial" / "kb_partial.txt.gz"
    load, n_facts = fresh_load_seconds(kb)
    print(f"Ladybug bulk load of the MetaQA KB ({n_facts:,} facts): {load:.2f} s")
    out = {"load_seconds": round(load, 3), "n_facts": n_facts, "hops": []}
    reports = [lambda h=h: metaqa_differential(h, args.split, args.limit, args.root)
               for h in args.hops]
    if args.replays:
        reports += [lambda h=h: replay_differential(h, args.replays, args.root)
                    for h in args.hops]
    for make in reports:
        s = make().summary()
        out["hops"].append(s)
        print(f"\n== {s['name']}: {s['agree']} / {s['compared']} agree "
              f"({100 * s['agreement']:.2f}%), {s['skipped_topic_not_in_kb']} skipped "
              f"(topic not in kb_partial); p50 ours {s['ours_p50_ms']} ms, "
              f"Ladybug {s['cypher_p50_ms']} ms")
        if s["left_out"]:
            print(f"  left out: {s['left_out']}")
        for d in s["disagreements"]:
            ours_only = sorted(set(d["ours"]) - set(d["cypher"]))
            cypher_only = sorted(set(d["cypher"]) - set(d["ours"]))
            print(f"  {d['id']} {d['qtype']} [{d['topic']}] {d['error']} "
                  f"ours-only={ours_only[:5]} cypher-only={cypher_only[:5]}")
    if args.json:
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
