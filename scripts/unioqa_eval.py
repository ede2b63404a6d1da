"""UniOQA on MetaQA dev without an LLM: GRAG retrieval coverage and the offline translator.

    nice -n 10 python scripts/unioqa_eval.py [--coverage-limit N] [--slice 100] [--json OUT]

See trustuqa_core/evaluate/unioqa_eval.py for what is measured and what is not.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.evaluate.unioqa_eval import grag_coverage, translator_slice  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--coverage-limit", type=int, default=None, help="1-hop dev questions")
    parser.add_argument("--budget", type=int, default=60)
    parser.add_argument("--slice", type=int, default=100, help="questions per hop (translator)")
    parser.add_argument("--step", type=int, default=1, help="every step-th question")
    parser.add_argument("--hops", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--root", type=Path, default=DATA)
    args = parser.parse_args()
    out: dict = {}
    if args.coverage_limit != 0:
        cov = grag_coverage(1, "dev", args.coverage_limit, args.budget, root=args.root)
        out["grag_coverage_1hop"] = cov.summary()
        print("GRAG 1-hop:", json.dumps(out["grag_coverage_1hop"]), flush=True)
    for hops in args.hops if args.slice else []:
        rep = translator_slice(hops, "dev", args.slice * args.step, args.step, root=args.root)
        out[f"translator_{hops}hop"] = rep.summary()
        print(f"translator {hops}-hop:", json.dumps(out[f"translator_{hops}hop"]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
