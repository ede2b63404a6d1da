"""Which verdict signals matter: per reason code, how accurate the answers carrying it are,
and what each ``max_unexplained`` setting would give — on one half of the tables only.

    python scripts/verdict_signals.py --half tune reports/cache/wikisql-dev-answer-*.jsonl ...
    python scripts/verdict_signals.py --half all --metric hits1_any reports/cache/metaqa-*.jsonl

Reads the per-question cache files ``bench run`` writes (each outcome carries its verdict in
``groups.verdict`` and one flag per reason). Thresholds are chosen on ``--half tune`` and
reported on ``--half check`` (docs/RESULTS.md, "Trust verdict"). To try a new reason code on
the recorded queries without re-running a benchmark, re-judge the cache first with
``scripts/verdict_rejudge.py --out NEW.jsonl`` and read ``NEW.jsonl`` here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.verdict import THRESHOLDS  # noqa: E402


def load(path: Path, half: str | None, metric: str = "") -> list[dict]:
    """Evaluable outcomes of one cache file, of one half when ``half`` is given; with
    ``metric`` (e.g. ``hits1_any``), correct means that per-question score is 1."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    rows = [r for r in rows if r["category"] != "not_evaluable"
            and (half is None or r["groups"].get("half") == half)]
    if metric:
        for r in rows:
            r["correct"] = bool(r["scores"].get(metric, r["correct"]))
    return rows


def codes_of(row: dict) -> set[str]:
    return {f.split(":", 1)[1] for f in row["flags"] if f.startswith(("why:", "info:"))}


def unexplained(row: dict) -> int:
    counts = [int(f.rsplit(":", 1)[1]) for f in row["flags"]
              if f.startswith("count:unexplained_words:")]
    return max(counts or [0])


def simulate(rows: list[dict], k: int) -> tuple[float | None, float | None, float]:
    """(precision of verified, coverage, wrong-and-verified share) with ``max_unexplained=k``
    and the blocking codes of :data:`THRESHOLDS`."""
    verified = correct_verified = 0
    correct = sum(r["correct"] for r in rows)
    for r in rows:
        if r["groups"].get("verdict") == "no answer":
            continue
        blocking = (codes_of(r) & THRESHOLDS.blocking) - {"unexplained_words"}
        if blocking or unexplained(r) >= k:
            continue
        verified += 1
        correct_verified += r["correct"]
    return (correct_verified / verified if verified else None,
            correct_verified / correct if correct else None,
            (verified - correct_verified) / len(rows) if rows else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--half", choices=["tune", "check", "all"], default="tune")
    parser.add_argument("--metric", default="", help="a per-question score to count as "
                        "correct instead of the benchmark's metric (MetaQA: hits1_any)")
    args = parser.parse_args()
    for path in args.files:
        rows = load(path, None if args.half == "all" else args.half, args.metric)
        answered = [r for r in rows if r["groups"].get("verdict") != "no answer"]
        print(f"{path.name} ({args.half} half): {len(rows)} questions, {len(answered)} answered")
        n, ok = Counter(), Counter()
        for r in answered:
            for code in codes_of(r) or {"(no reason)"}:
                n[code] += 1
                ok[code] += r["correct"]
        for code, count in n.most_common():
            print(f"  {code:24s} n={count:6d}  accuracy {ok[code] / count:6.1%}")
        for k in (1, 2, 3, 4):
            p, c, w = simulate(rows, k)
            shown = " ".join(f"{name} {'n/a' if x is None else f'{x:.1%}'}"
                             for name, x in (("precision", p), ("coverage", c)))
            print(f"  max_unexplained={k}: {shown} wrong-and-verified {w:.1%}")


if __name__ == "__main__":
    main()
