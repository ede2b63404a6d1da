"""Executor ceilings for every benchmark that has gold programs (WikiSQL dev, MetaQA dev
1/2/3-hop): gold programs run through parse -> map -> rewrite -> execute, no LLM.

    python scripts/ceilings_all.py [--out reports] [--limit N] [--no-progress]

Prints one block per benchmark (the numbers in docs/RESULTS.md) and writes each run's
Markdown / HTML / JSON report plus ``<out>/ceilings_all.json``. Per-question results are
cached under ``<out>/cache/``: a rerun with unchanged code only re-reads them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.evaluate.report import percent  # noqa: E402
from trustuqa_core.evaluate.runner import build_evaluation, run_evaluation  # noqa: E402

BENCHMARKS = ("wikisql", "metaqa-1hop", "metaqa-2hop", "metaqa-3hop")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("reports"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args()
    combined = {}
    for name in BENCHMARKS:
        result = run_evaluation(build_evaluation(name, "ceiling"), limit=args.limit,
                                out_dir=args.out, progress=not args.no_progress,
                                command=f"python scripts/ceilings_all.py --out {args.out}")
        s = result.summary
        combined[name] = {"run": result.run, "summary": s}
        print(f"\n== {name} ({result.run['split']}) ceiling: {s['correct']} / {s['n']} "
              f"= {percent(s['accuracy'])}")
        print("   failures: " + ", ".join(f"{k} {v}" for k, v in s["failures"].items()))
        if s["scores"]:
            print("   scores: " + ", ".join(f"{k} {percent(v)}" for k, v in s["scores"].items()))
        for flag, part in s["flags"].items():
            scores = ", ".join(f"{k} {percent(v)}" for k, v in part["scores"].items())
            print(f"   {flag}: n={part['n']} accuracy {percent(part['accuracy'])} ({scores})")
        for category, examples in s["examples"].items():
            e = examples[0]
            print(f"   e.g. {category}: {e['id']} {e['question']!r} -> {e['answer']} "
                  f"(gold {e['gold']}) {e['detail'][:200]}")
    path = args.out / "ceilings_all.json"
    path.write_text(json.dumps(combined, indent=2, default=str), encoding="utf-8")
    print(f"\nwritten: {path}")


if __name__ == "__main__":
    main()
