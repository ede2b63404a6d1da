"""Gold-relation recall of the relations a prompt shows (issue 16, item 4).

Prints, for WebQSP dev (one KG merged from every dev subgraph) and CronQuestions valid (the
5k-fact TKG sample), the share of questions whose gold relations are all among the
relations the prompt shows (within ``--tokens``, at most ``--limit``; see
``trustuqa_core/evaluate/relation_recall.py``).

``--half tune`` also scores a grid of slot shares (``GRID``) on the WebQSP tune half and
prints it; the shares in ``trustuqa_core/llm/relations.py`` are that grid's best. ``--half
check`` / ``all`` score the prompt as built (the shares in relations.py) on the other half /
every question. CronQuestions is never used for choosing, so its halves are all held out.

Usage:
    python scripts/relation_recall.py [--benchmark webqsp|cronquestions|both]
        [--half tune|check|all] [--encoder none|hashing|minilm] [--limit 100] [--tokens 900]
        [--grid-limit 40] [--questions N] [--missed]

``--missed`` prints each gold relation not shown and why: not in graph (unreachable), no
entity linked, beyond 3 hops, or ranked below the cut (with its tier and place).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from trustuqa_core.evaluate.relation_recall import (  # noqa: E402
    cron_cases,
    cron_graph,
    in_half,
    merged_webqsp_graph,
    rankings,
    recall_of,
    relation_recall,
    share_grid,
    webqsp_cases,
    why_missed,
)
from trustuqa_core.llm import relations  # noqa: E402
from trustuqa_core.llm.prompts import MAX_RELATIONS, RELATION_TOKENS  # noqa: E402
from trustuqa_core.llm.relations import SHARES  # noqa: E402
from trustuqa_core.mapping import HashingEncoder, default_encoder  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--benchmark", choices=["webqsp", "cronquestions", "both"], default="both")
    ap.add_argument("--half", choices=["tune", "check", "all"], default="all",
                    help="questions scored (a fixed hash split of question ids)")
    ap.add_argument("--encoder", choices=["none", "hashing", "minilm"], default="minilm")
    ap.add_argument("--limit", type=int, default=MAX_RELATIONS,
                    help="at most this many relations shown per prompt")
    ap.add_argument("--tokens", type=int, default=RELATION_TOKENS,
                    help="token budget of the relation lines (llm/prompts.py)")
    ap.add_argument("--grid-limit", type=int, default=40,
                    help="relations shown per prompt in the --half tune share grid")
    ap.add_argument("--questions", type=int, default=None, help="first N questions only")
    ap.add_argument("--missed", action="store_true", help="list the questions missed")
    ap.add_argument("--size-weight", type=float, default=None,
                    help="weight of relation size in the ranking (default: SIZE_WEIGHT)")
    args = ap.parse_args()
    if args.size_weight is not None:
        relations.SIZE_WEIGHT = args.size_weight
    encoder = {"none": None, "hashing": HashingEncoder(),
               "minilm": default_encoder() if args.encoder == "minilm" else None}[args.encoder]
    runs = []
    if args.benchmark in ("webqsp", "both"):
        runs.append(("webqsp dev (merged subgraphs)", webqsp_cases(limit=args.questions),
                     merged_webqsp_graph))
    if args.benchmark in ("cronquestions", "both"):
        runs.append(("cronquestions valid", cron_cases(limit=args.questions), cron_graph))
    for name, every, graph_of in runs:
        t0 = time.perf_counter()
        cases = in_half(every, args.half)
        graph = graph_of()
        label = f"{name}, {args.half} half" if args.half != "all" else name
        if args.half == "tune":
            ranked = rankings(cases, graph, encoder)
            print(f"{label}: grid of slot shares (1-hop, 2-hop, largest), best first")
            for shares, hits in share_grid(ranked, limit=args.grid_limit):
                mark = "  <- relations.py" if shares == SHARES else ""
                print(f"  {shares.one_hop:.2f} {shares.two_hop:.2f} {shares.size:.2f}: "
                      f"{hits}/{len(ranked)} = {100 * hits / len(ranked):.1f}%{mark}")
            hits, n = recall_of(ranked, SHARES, args.grid_limit)
            print(f"  relations.py shares {tuple(SHARES)}: {hits}/{n}")
        r = relation_recall(label, cases, graph, encoder, args.limit, args.tokens)
        print(f"{label}: {r.hits}/{r.n} questions with every gold relation shown = "
              f"{100 * r.recall:.1f}% (at most {r.shown} of {r.relations} relations shown within "
              f"{args.tokens} tokens, shares "
              f"{tuple(SHARES)}, encoder {args.encoder}, {time.perf_counter() - t0:.1f} s)")
        print(f"  gold relations in the graph that were shown: {r.gold_shown}/{r.gold_in_graph}"
              f" = {100 * r.relation_level:.1f}%")
        print(f"  schema block: {r.mean_tokens:.0f} tokens on average, at most "
              f"{max(r.schema_tokens, default=0)} (llm/budget.py estimate)")
        if r.n_in_graph < r.n:
            print(f"  unreachable (a gold relation not in the graph): {r.n - r.n_in_graph}; over "
                  f"the others: {r.hits_in_graph}/{r.n_in_graph} = {100 * r.recall_in_graph:.1f}%")
        if r.n_in_data < r.n:
            print(f"  questions whose gold relations all occur in their own data: "
                  f"{r.hits_in_data}/{r.n_in_data} = {100 * r.recall_in_data:.1f}%")
        if args.half == "all":
            for half in ("tune", "check"):
                part = in_half(cases, half)
                ok = sum(c.id not in r.missed for c in part)
                print(f"  {half} half: {ok}/{len(part)} = {100 * ok / max(len(part), 1):.1f}%")
        if args.missed:
            text = {c.id: c.question for c in cases}
            for miss in why_missed(rankings([c for c in cases if c.id in r.missed], graph,
                                            encoder), SHARES, r.counts or args.limit):
                where = f" (tier {miss.tier}, {miss.rank} places in)" if miss.tier is not None \
                    else ""
                print(f"  missed {miss.case} {text[miss.case]!r}: {miss.relation}: "
                      f"{miss.reason}{where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
