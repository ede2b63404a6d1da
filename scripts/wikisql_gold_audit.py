"""Audit WikiSQL's gold answers for the verified answers of a ``bench run`` cache.

Each verified answer of the cache is compared with the typed re-execution of its question's
gold SQL (the ceiling's gold program run by our executor, numbers compared by value;
``trustuqa_core/evaluate/wikisql_audit.py``). The official
figures (the dataset's gold) are printed first and never replaced; the typed column is
measurement, not a score.

    python scripts/wikisql_gold_audit.py CACHE.jsonl --halves tune [--out AUDIT.jsonl]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.evaluate.datasets import load  # noqa: E402
from trustuqa_core.evaluate.wikisql_audit import audit_figures, typed_gold, typed_match  # noqa: E402
from trustuqa_core.evaluate.wikisql_gold import AGG_NAMES  # noqa: E402

#: words asking for a count; a gold COUNT without one is likely WikiSQL's annotation slip
_COUNTING = re.compile(r"\bhow many\b|\bnumber\b|\bcount\b|\btotal\b|\bhow much\b",
                       re.IGNORECASE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cache", type=Path)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--halves", default="tune",
                        help="comma-separated halves to print (tune, check, all)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the rows of the printed halves with typed_correct added")
    args = parser.parse_args()
    halves = args.halves.split(",")
    examples = {e.id: e for e in load("wikisql", args.split)}
    rows = [json.loads(x) for x in args.cache.read_text(encoding="utf-8").splitlines() if x]
    rows = [r for r in rows if "all" in halves or r["groups"].get("half") in halves]
    for r in rows:
        e = examples[r["id"]]
        sql: Any = e.metadata["sql"]
        verified = r["groups"].get("verdict") == "verified"  # precision needs only these
        r["typed_correct"] = verified and typed_match([str(a) for a in r["answer"]],
                                                      typed_gold(e))
        r["gold_agg"] = AGG_NAMES[int(sql["agg"])] or "none"
    for half in halves:
        part = [r for r in rows if half == "all" or r["groups"].get("half") == half]
        print(f"{half}: {audit_figures(part).text()}")
        wrong = [r for r in part if r["groups"].get("verdict") == "verified" and not r["correct"]]
        by_agg = Counter((r["gold_agg"], r["typed_correct"]) for r in wrong)
        print("  wrong-verified by gold aggregate (agg, matches typed gold): "
              + ", ".join(f"{a}/{t}: {n}" for (a, t), n in sorted(by_agg.items())))
        uncounted = [r for r in wrong if r["gold_agg"] == "COUNT" and not r["typed_correct"]
                     and not _COUNTING.search(r["question"])]
        print(f"  of those, a gold COUNT for a question with no counting word: {len(uncounted)}")
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


if __name__ == "__main__":
    main()
