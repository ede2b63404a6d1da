"""Parser measurements: hostile-line timings, parse failures of the recorded replies, and
agreement on reply variants.

    python scripts/parser_report.py [--hostile] [--recorded] [--variants] [--data DIR]

With no section flag all three run. ``--hostile`` times the parser on 10,000-character hostile
lines (the issue #9 budget is 50 ms each, parsed or rejected); ``--recorded`` parses all
recorded GPT-3.5 WTQ replies and lists what still fails; ``--variants`` rewrites every recorded
reply in the forms other model families write and counts identical programs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.errors import ParseError  # noqa: E402
from trustuqa_core.evaluate.datasets import load_recorded_queries  # noqa: E402
from trustuqa_core.evaluate.reply_variants import make_variants, variant_agreement  # noqa: E402
from trustuqa_core.query import parse  # noqa: E402

LINE = 10_000
BUDGET_MS = 50.0


def _fill(head: str, unit: str, tail: str = "") -> str:
    """``head`` + ``unit`` repeated + ``tail``, exactly LINE characters long."""
    room = LINE - len(head) - len(tail)
    return head + (unit * (room // len(unit) + 1))[:room] + tail


def hostile_lines() -> dict[str, str]:
    """Hostile single lines of exactly 10,000 characters."""
    q = 'Query1: "'
    return {
        "spaces then x": _fill("", " ", "x"),
        "valid query then spaces": _fill("Query1: \"count(set='a')\"", " "),
        "bullets and bold": _fill("", "- ** ", "Query1: \"count(set='a')\""),
        "stars": _fill("", "*"),
        "numbering": _fill("", "1. "),
        "Query labels": _fill("Step1: ", "Query1:"),
        "target braces": _fill("Target type: ", "{"),
        "nested brackets": _fill(q + "f(", "["),
        "nested parens": _fill(q, "("),
        "nested calls": _fill(q, "abs("),
        "nested ifs": _fill(q, "if 1 then 2 else "),
        "quotes": _fill(q + "f(a='", "'"),
        "quote then spaces": _fill(q + "f(a='", "' "),
        "glued args": _fill(q + "f(a=x", " y"),
        "long bare value": _fill(q + "f(a=x", " ", "y)\""),
        "plus chain": _fill(q, "1+", '1"'),
        "spaced plus chain": _fill(q + "output_of_query1", " + 1", '"'),
        "closed in list": _fill(q + "a in [", "1, ", '1]"'),
        "and chain": _fill(q + "output_of_query1 > 1", " and output_of_query1 > 1", '"'),
        "comparison chain": _fill(q, "1<", '1"'),
        "or chain": _fill(q, "get_information(relation='a') or ", "x\""),
        "digit groups": _fill(q + "output_of_query1 > ", "1,000"),
        "in list": _fill(q + "a in [", "1,"),
        "words": _fill(q + "if ", "a "),
        "in words": _fill(q + "x ", "in "),
        "dotted name": _fill(q, "a."),
        "output_of_query words": _fill(q + "f(", "output_of_query "),
        "huge number": _fill("Query", "9", ": x"),
        "huge ref": _fill(q + "count(set=output_of_query", "9", ")\""),
        "commas": _fill(q + "f(", ","),
        "br tags": _fill("Query1: \"count(set='a')\"", "<br"),
    }


def run_hostile(repeat: int = 3) -> bool:
    print(f"== hostile lines ({LINE:,} characters each; budget {BUDGET_MS:.0f} ms)")
    worst = 0.0
    for name, line in hostile_lines().items():
        assert len(line) == LINE, name
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            try:
                parse(line)
                outcome = "parsed"
            except ParseError as exc:
                outcome = f"rejected at {exc.line}:{exc.column}: {exc.message[:60]}"
            best = min(best, (time.perf_counter() - t0) * 1000)
        worst = max(worst, best)
        print(f"  {best:7.2f} ms  {name:24s} {outcome}")
    ok = worst <= BUDGET_MS
    print(f"  worst {worst:.2f} ms: {'within' if ok else 'OVER'} the budget")
    return ok


def run_recorded(data: Path | None) -> None:
    replies = load_recorded_queries("wtq", root=data)
    failures: list[tuple[str, ParseError]] = []
    for question, text in replies.items():
        try:
            parse(text)
        except ParseError as exc:
            failures.append((question, exc))
    n = len(replies)
    print(f"\n== recorded WTQ replies: {n:,}; parse failures {len(failures)} "
          f"({len(failures) / n:.2%})")
    kinds = Counter(exc.message.split(" (")[0][:60] for _, exc in failures)
    for message, count in kinds.most_common():
        print(f"  {count:3d}  {message}")
    for question, exc in failures:
        line = exc.text.strip()
        print(f"  - line {exc.line}, col {exc.column}: {line[:110]}")
        del question


def run_variants(data: Path | None, sample: int | None) -> None:
    replies = sorted(load_recorded_queries("wtq", root=data).items())
    if sample:
        replies = random.Random(11).sample(replies, sample)
    t0 = time.perf_counter()
    variants = make_variants(replies, seed=5)
    report = variant_agreement(variants)
    seconds = time.perf_counter() - t0
    print(f"\n== reply variants of {len(replies):,} recorded replies: {report.total:,} variants, "
          f"{report.same:,} same program = {report.rate:.2%} ({seconds:.1f} s)")
    for name, (same, total) in sorted(report.by_transform.items()):
        print(f"  {name:12s} {same:6,} / {total:6,} = {same / total:.2%}")
    shown: set[tuple[str, ...]] = set()
    for variant, why in report.failures:
        if variant.transforms in shown:
            continue
        shown.add(variant.transforms)
        print(f"  failed {'+'.join(variant.transforms)}: {why}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hostile", action="store_true")
    parser.add_argument("--recorded", action="store_true")
    parser.add_argument("--variants", action="store_true")
    parser.add_argument("--sample", type=int, default=None,
                        help="variants of this many recorded replies (default: all)")
    parser.add_argument("--data", type=Path, default=None, help="benchmark data folder")
    args = parser.parse_args()
    every = not (args.hostile or args.recorded or args.variants)
    ok = True
    if args.hostile or every:
        ok = run_hostile()
    if args.recorded or every:
        run_recorded(args.data)
    if args.variants or every:
        run_variants(args.data, args.sample)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
