"""Per-question answers of the mixed benchmark on one half (offline writer, hashing encoder),
for comparing two settings question by question.

``--window LO:HI`` (default 100:200, the tune half) is questions LO..HI-1 of each benchmark
over a mixed graph of their data (``docs/ROUTING.md``; the tune pool is 100-499); study tune
windows only, the check half (0:100) is scored with ``bench run``.

    python scripts/mixed_tune.py --setting mix-unknown --benchmarks wtq wikisql --out a.jsonl
    python scripts/mixed_tune.py --setting unmix-known --benchmarks wtq wikisql --out b.jsonl
    python scripts/mixed_tune.py --compare b.jsonl a.jsonl   # right in b, wrong in a
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from trustuqa_core.answer import answer
from trustuqa_core.evaluate.mixed import MixedEvaluation, mixed_window, parse_window


def run(setting: str, benchmarks: list[str], window: tuple[int, int], out: Path) -> None:
    """Answer every question of ``benchmarks`` in ``window`` (questions lo..hi-1 of each
    benchmark, over a mixed graph of their data) in ``setting``; one JSON line each."""
    lo, hi = window
    chosen = mixed_window(lo, hi)
    answered: dict[str, Any] = {}

    def keep(question: str, graph: Any, **kw: Any) -> Any:
        a = answer(question, graph, **kw)
        answered["last"] = a
        return a
    ev = MixedEvaluation(setting, writer="offline", encoder="hashing", examples=chosen,
                         answer_fn=keep)
    t0 = time.perf_counter()
    counts: dict[str, list[int]] = {}
    with out.open("w", encoding="utf-8") as f:
        for key, e in ev.items():
            if e.benchmark not in benchmarks:
                continue
            answered.clear()
            o = ev.evaluate(e)
            a = answered.get("last")
            trace = getattr(a, "trace", None)
            routing = getattr(trace, "routing", None)
            c = counts.setdefault(e.benchmark, [0, 0])
            c[0] += 1
            c[1] += o.correct
            f.write(json.dumps({
                "id": key, "correct": o.correct, "answer": o.answer, "gold": o.gold,
                "question": e.question, "query": o.query,
                "verdict": getattr(getattr(a, "verdict", None), "label", None),
                "how": getattr(routing, "how", None),
                "sources": list(getattr(routing, "sources", ()) or ()),
                "used": list(getattr(routing, "used", ()) or ()),
                "warnings": list(getattr(a, "warnings", ()) or ()),
                "reasons": [r.code for r in getattr(getattr(a, "verdict", None), "reasons", ())],
                "routed": list(getattr(getattr(a, "routing", None), "sources", ()) or ()),
                "fallback": _fell_back(a),
                "flags": o.flags}) + "\n")
    print(f"{setting} {lo}:{hi}: {time.perf_counter() - t0:.0f} s")
    for b, (n, ok) in counts.items():
        print(f"  {b:12s} {ok}/{n}")


def _fell_back(a: Any) -> bool:
    """True when the routed attempt gave no answer and ``answer()`` tried every source."""
    return any(str(w).startswith("the routed attempt over")
               for w in getattr(a, "warnings", ()) or ())


def compare(right: Path, wrong: Path) -> None:
    """The questions right in ``right`` and wrong in ``wrong`` (and the reverse)."""
    a = {r["id"]: r for r in map(json.loads, right.open(encoding="utf-8"))}
    b = {r["id"]: r for r in map(json.loads, wrong.open(encoding="utf-8"))}
    for label, x, y in (("LOST", a, b), ("GAINED", b, a)):
        for k in x:
            if k in y and x[k]["correct"] and not y[k]["correct"]:
                r = b[k]
                print(f"{label} {k} {r['question']!r}\n   answer {r['answer']} gold {r['gold']}"
                      f"\n   how {r['how']}\n   used {r['used']}\n   query {r['query']!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setting", default="mix-unknown")
    ap.add_argument("--window", type=parse_window, default=(100, 200),
                    help="LO:HI, questions LO..HI-1 of each benchmark (default 100:200, the "
                         "tune half; windows of the tune pool: 200:300, 300:400, 400:500)")
    ap.add_argument("--benchmarks", nargs="+", default=["wtq", "wikisql"])
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("RIGHT", "WRONG"))
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        run(args.setting, args.benchmarks, args.window, args.out)


if __name__ == "__main__":
    main()
