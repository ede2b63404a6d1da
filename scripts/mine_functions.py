"""Catalogue the functions the recorded GPT-3.5 WTQ queries call that the paper's language lacks.

    python scripts/mine_functions.py [--top 60]

Reads ``trustuqa_prompts/wtq_train_candidate_demo.json`` (entries whose value is not "None"),
parses each with our parser, and counts every call outside the paper's functions by name and
by argument shape (``compare(set1=REF, set2=REF, operator=TEXT)``), saying for each name which
closed function it now maps to (``trustuqa_core.function_names``) or that it is still
undefined. Queries that do not parse are counted apart (the parser's business). Prints
Markdown tables (the catalogue in docs/FUNCTIONS.md).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.errors import ParseError  # noqa: E402
from trustuqa_core.evaluate.datasets import load_recorded_queries  # noqa: E402
from trustuqa_core.function_names import CORE_FUNCTIONS, canonical_function  # noqa: E402
from trustuqa_core.query.ast import Call, ListValue, Ref  # noqa: E402
from trustuqa_core.query.parse import parse  # noqa: E402


def shape(call: Call) -> str:
    """``name(arg=REF, arg2>TEXT, _=LIST)``: a call's argument shape."""
    parts = []
    for a in call.args:
        kind = "REF" if isinstance(a.value, Ref) else "TEXT"
        kind = "LIST" if isinstance(a.value, ListValue) else kind
        parts.append(f"{a.name or '_'}{a.cmp}{kind}")
    return f"{call.func}({', '.join(parts)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--top", type=int, default=60)
    args = parser.parse_args()
    recorded = load_recorded_queries("wtq")
    names: Counter[str] = Counter()
    shapes: Counter[str] = Counter()
    entries_with: Counter[str] = Counter()
    failures = 0
    for text in recorded.values():
        try:
            program = parse(text)
        except ParseError:
            failures += 1
            continue
        seen = set()
        for q in program.queries:
            if q.call.func.lower() in CORE_FUNCTIONS:
                continue
            names[q.call.func] += 1
            shapes[shape(q.call)] += 1
            seen.add(q.call.func)
        for name in seen:
            entries_with[name] += 1
    total = sum(names.values())
    mapped = sum(n for f, n in names.items() if canonical_function(f))
    print(f"{len(recorded)} entries; {failures} do not parse; {total} calls outside the paper's "
          f"functions in {sum(1 for _ in entries_with)} names; {mapped} of those calls "
          f"({mapped / max(total, 1):.1%}) now map to a closed function\n")
    print("| name | calls | entries | closed function |\n|---|---:|---:|---|")
    for name, n in names.most_common(args.top):
        target = canonical_function(name) or "— (LLM fallback)"
        print(f"| `{name}` | {n} | {entries_with[name]} | {target} |")
    print("\n| argument shape | calls |\n|---|---:|")
    for s, n in shapes.most_common(args.top):
        print(f"| `{s}` | {n} |")


if __name__ == "__main__":
    main()
