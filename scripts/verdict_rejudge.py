"""Re-judge the recorded queries of a ``bench run`` cache with the current verdict code.

The verdict is a function of the trace, and the trace is a function of the recorded query, the
question and the data; so a new reason code can be measured in minutes by re-running each
recorded query (no writer, no demonstrations) and judging it again, instead of re-running the
whole benchmark. What the trace does not hold is carried over from the recorded flags: the
vote (``single_query``, ``vote_tie``, ``low_agreement``) and how the query was made
(``similar_template``, ``user_demo``, ``confirmed_example``).

    python scripts/verdict_rejudge.py --benchmark wtq --writer offline CACHE.jsonl --out NEW.jsonl
    python scripts/verdict_signals.py --half tune NEW.jsonl

It prints how many recorded verdicts the re-judging reproduces or changes (a check of the
method: with unchanged code every verdict should be reproduced) and precision / coverage /
wrong-and-verified per half. Only the ``tune`` half may be used to choose a rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.evaluate.answer_eval import DEFAULT_ANSWER_SPLITS  # noqa: E402
from trustuqa_core.evaluate.datasets import load  # noqa: E402
from trustuqa_core.evaluate.graphs import sources_graph  # noqa: E402
from trustuqa_core.evaluate.selective import verdict_fields  # noqa: E402
from trustuqa_core.recovery import run_with_recovery  # noqa: E402
from trustuqa_core.verdict import THRESHOLDS, Thresholds, VoteEvidence, judge  # noqa: E402
from trustuqa_core.verdict.calibration import features  # noqa: E402

#: codes the trace cannot reproduce: they come from the vote or from how the query was made
_CARRIED = ("single_query", "vote_tie", "low_agreement", "similar_template", "user_demo",
            "confirmed_example")


def codes_of(row: dict[str, Any]) -> set[str]:
    """The reason codes recorded on a cached outcome."""
    return {f.split(":", 1)[1] for f in row["flags"] if f.startswith(("why:", "info:"))}


def _vote(codes: set[str]) -> VoteEvidence | None:
    if "single_query" in codes:
        return VoteEvidence(1.0, 1)
    if "vote_tie" in codes:
        return VoteEvidence(0.5, 2, tie=True)
    if "low_agreement" in codes:
        return VoteEvidence(0.3, 3)
    return VoteEvidence(1.0, 2)


def rejudge(row: dict[str, Any], examples: dict[str, Any], writer: str,
            thresholds: Thresholds = THRESHOLDS) -> dict[str, Any]:
    """``row`` with its verdict and reason flags judged again from its recorded query, and
    the calibration's features of the answer (``calib``) with the codes that block
    (``blocking``)."""
    if row["groups"].get("verdict") == "no answer" or not row.get("query") \
            or row["id"] not in examples:
        return row
    e = examples[row["id"]]
    graph, mapper = sources_graph(e.sources)
    old = codes_of(row)
    trace = run_with_recovery(row["query"], graph, mapper, question=e.question,
                              writer="offline" if writer == "offline" else "llm:recorded")
    note = "a demonstration whose template is similar" if "similar_template" in old else ""
    if "user_demo" in old:
        note += " (user"
    verdict = judge(trace, e.question, vote=_vote(old), note=note, graph=graph,
                    writer="llm" if writer == "llm" else "offline",
                    confirmed_example="(recorded)" if "confirmed_example" in old else None,
                    thresholds=thresholds)
    groups, flags = verdict_fields(verdict)
    if verdict.label == "no answer":  # the recorded run answered: keep its answer's verdict
        return row
    kept = {k: v for k, v in row["flags"].items()
            if not k.startswith(("why:", "info:", "count:unexplained_words:"))}
    return {**row, "groups": {**row["groups"], **groups}, "flags": {**kept, **flags},
            "reasons": [[r.code, r.arg or "", r.message] for r in verdict.reasons],
            "calib": features(trace, verdict.reasons, question=e.question),
            "blocking": list(verdict.blocking),
            "writer_kind": writer}


def figures(rows: list[dict[str, Any]]) -> str:
    """Precision of verified, coverage and wrong-and-verified share of ``rows``."""
    verified = [r for r in rows if r["groups"].get("verdict") == "verified"]
    ok_v = sum(r["correct"] for r in verified)
    ok = sum(r["correct"] for r in rows)
    p = f"{ok_v / len(verified):.2%}" if verified else "n/a"
    c = f"{ok_v / ok:.2%}" if ok else "n/a"
    w = f"{(len(verified) - ok_v) / len(rows):.2%}" if rows else "n/a"
    return f"n={len(rows)} verified={len(verified)} precision {p} coverage {c} wrong-verified {w}"


def print_codes(rows: list[dict[str, Any]]) -> None:
    """Per blocking code: answers carrying it (right / all) and answers it alone blocks."""
    n: Counter[str] = Counter()
    ok: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    alone_ok: Counter[str] = Counter()
    for r in rows:
        why = {f.split(":", 1)[1] for f in r["flags"] if f.startswith("why:")}
        if r["groups"].get("verdict") == "no answer":
            continue
        for code in why:
            n[code] += 1
            ok[code] += r["correct"]
            if len(why) == 1:
                alone[code] += 1
                alone_ok[code] += r["correct"]
    for code, count in n.most_common():
        print(f"  {code:26s} right {ok[code]:5d} / {count:5d}   alone: right {alone_ok[code]:4d}"
              f" / {alone[code]:4d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cache", type=Path)
    parser.add_argument("--benchmark", required=True)
    parser.add_argument("--split", default=None)
    parser.add_argument("--writer", choices=["offline", "llm"], default="offline")
    parser.add_argument("--metric", default="", help="per-question score counted as correct")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--rules", action="store_true", help="judge with the rules alone "
                        "(no calibrated estimate): the verdict before stop 16, and the input "
                        "of scripts/verdict_calibrate.py")
    parser.add_argument("--limit", type=int, default=0, help="only the first N outcomes")
    parser.add_argument("--halves", default="tune,check,all",
                        help="which halves' figures to print (while choosing a rule: tune)")
    parser.add_argument("--codes", choices=["tune", "check"], default=None,
                        help="per blocking code, right/wrong answers of that half carrying it, "
                        "and carrying it as the only blocking code")
    args = parser.parse_args()
    split = args.split or DEFAULT_ANSWER_SPLITS[args.benchmark]
    examples = {e.id: e for e in load(args.benchmark, split)}
    rows = [json.loads(x) for x in args.cache.read_text(encoding="utf-8").splitlines() if x]
    rows = [r for r in rows if r["category"] != "not_evaluable"]
    if args.limit:
        rows = rows[: args.limit]
    th = replace(THRESHOLDS, calibrated=not args.rules)
    new = [rejudge(r, examples, args.writer, th) for r in rows]
    if args.metric:
        for r in new:
            r["correct"] = bool(r["scores"].get(args.metric, r["correct"]))
    moves = Counter((a["groups"].get("verdict"), b["groups"].get("verdict"))
                    for a, b in zip(rows, new, strict=True))
    if args.halves == "tune":  # the check half's verdicts stay unseen while choosing
        moves = Counter((a["groups"].get("verdict"), b["groups"].get("verdict"))
                        for a, b in zip(rows, new, strict=True)
                        if a["groups"].get("half") == "tune")
    print("recorded -> re-judged:", dict(moves))
    for half in args.halves.split(","):
        part = [r for r in new if half == "all" or r["groups"].get("half") == half]
        print(f"  {half}: {figures(part)}")
    if args.codes:
        print_codes([r for r in new if r["groups"].get("half") == args.codes])
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in new), encoding="utf-8")


if __name__ == "__main__":
    main()
