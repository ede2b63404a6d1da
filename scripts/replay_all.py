"""Replay TrustUQA's recorded GPT-3.5 queries (WTQ train, MetaQA train 1/2/3-hop, WebQSP dev)
through our parser, mapper and executor, with no LLM call.

    python scripts/replay_all.py [--out reports] [--limit N] [--no-progress]

Prints per benchmark: executed, correct, failure categories with one example each, and for
WTQ the accuracy over all entries, over entries needing no LLM-inferred step, and on the
``tune`` / ``check`` halves (split by table id hash). Writes each run's reports and
``<out>/replay_all.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.evaluate.report import percent  # noqa: E402
from trustuqa_core.evaluate.runner import build_evaluation, run_evaluation  # noqa: E402

BENCHMARKS = ("wtq", "metaqa-1hop", "metaqa-2hop", "metaqa-3hop", "webqsp")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("reports"))
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args()
    combined = {}
    for name in BENCHMARKS:
        result = run_evaluation(build_evaluation(name, "replay"), limit=args.limit,
                                out_dir=args.out, progress=not args.no_progress,
                                command=f"python scripts/replay_all.py --out {args.out}")
        s = result.summary
        combined[name] = {"run": result.run, "summary": s}
        print(f"\n== {name} ({result.run['split']}) replay: executed {s['n']}, correct "
              f"{s['correct']} = {percent(s['accuracy'])}")
        for category, count in s["failures"].items():
            e = s["examples"][category][0]
            print(f"   {category}: {count} ({percent(count / s['n'])}); e.g. {e['id']} "
                  f"{e['question']!r} -> {e['answer'][:3]} (gold {e['gold'][:3]}) "
                  f"{e['detail'][:160]}")
        if s["scores"]:
            print("   scores: " + ", ".join(f"{k} {percent(v)}" for k, v in s["scores"].items()))
        for flag, part in s["flags"].items():
            scores = ", ".join(f"{k} {percent(v)}" for k, v in part["scores"].items())
            print(f"   {flag}: n={part['n']} correct {part['correct']} "
                  f"accuracy {percent(part['accuracy'])} ({scores})")
        for value, part in s["groups"].get("half", {}).items():
            print(f"   half {value}: n={part['n']} accuracy {percent(part['accuracy'])}")
        for value, part in s["groups"].get("kind", {}).items():
            print(f"   kind {value}: n={part['n']} accuracy {percent(part['accuracy'])}")
    path = args.out / "replay_all.json"
    path.write_text(json.dumps(combined, indent=2, default=str), encoding="utf-8")
    print(f"\nwritten: {path}")


if __name__ == "__main__":
    main()
