"""UniOQA measured on MetaQA dev without an LLM: GRAG retrieval coverage, and the offline
translator (Cypher + ERR) beside TrustUQA's offline answer, with what the merge would do.

* :func:`grag_coverage`: for each question, the one-hop triples :func:`~trustuqa_core.unioqa.
  grag.retrieve` keeps (bracketed topic linked by the mapper, no translator hint) — does some
  kept triple name a gold answer? Counted over the questions whose gold answer *is* in the
  topic's one-hop neighbourhood in the KB ("answerable"), with the p50 / p90 of triples kept.
* :func:`translator_slice`: :func:`~trustuqa_core.unioqa.unioqa_answer` offline (demos from
  :func:`~.demo_pools.benchmark_pool`, every demo of the scored split excluded), strict Hits@1
  of the ERR-chosen Cypher answer and of TrustUQA's offline answer, how often ERR replaced a
  name, and how often the label-free merge would consult a searcher (execution empty, or names
  replaced and the verdict not ``verified``). The searcher's own accuracy, the oracle DDA and
  the BNA rule need the searcher's answers, i.e. an LLM: not measured here.

The retrieval budget (60) and ranking were fixed before measuring, not tuned on dev.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..mapping.dense import HashingEncoder
from ..text import normalize
from ..unioqa.grag import question_entities, retrieve
from ..unioqa.system import unioqa_answer
from .ceilings import metaqa_scores
from .datasets import load_metaqa
from .demo_pools import benchmark_pool
from .graphs import source_graph

__all__ = ["CoverageReport", "TranslatorReport", "grag_coverage", "translator_slice"]


@dataclass
class CoverageReport:
    """GRAG retrieval over a MetaQA split (see the module docstring)."""

    n: int = 0
    answerable: int = 0
    covered: int = 0
    kept: list[int] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    capped: int = 0
    capped_covered: int = 0

    def summary(self) -> dict[str, Any]:
        kept = sorted(self.kept) or [0]
        return {"questions": self.n, "answerable": self.answerable, "covered": self.covered,
                "coverage": self.covered / self.answerable if self.answerable else None,
                "p50_triples": statistics.median(kept),
                "p90_triples": kept[int(0.9 * (len(kept) - 1))], "max_triples": kept[-1],
                "over_budget": self.capped, "over_budget_covered": self.capped_covered,
                "first_misses": self.misses[:10]}


def grag_coverage(hops: int = 1, split: str = "dev", limit: int | None = None,
                  budget: int = 60, root: Path | str | None = None) -> CoverageReport:
    """Retrieval coverage of gold answers (see the module docstring)."""
    report = CoverageReport()
    for e in load_metaqa(hops, split, limit, root=root):
        graph, mapper = source_graph(e.sources[0])
        report.n += 1
        gold = {normalize(a) for a in e.answers}
        near: set[str] = set()
        for node in question_entities(e.question, mapper):
            for facts in (graph.facts_head(node), graph.facts_tail(node)):
                for fact in facts.tolist():
                    head, _, tail = graph.fact_text(fact)
                    near.update((normalize(head), normalize(tail)))
        if not gold & near:
            continue
        report.answerable += 1
        r = retrieve(e.question, graph, mapper, budget=budget)
        report.kept.append(len(r.triples))
        named = {normalize(x) for t in r.triples for x in (t.head, t.tail)}
        hit = bool(gold & named)
        report.covered += hit
        if r.candidates > budget:  # only here does the ranking decide what is seen
            report.capped += 1
            report.capped_covered += hit
        if not hit:
            report.misses.append(e.id)
    return report


@dataclass
class TranslatorReport:
    """The offline translator on a MetaQA slice (see the module docstring)."""

    n: int = 0
    cypher_hits: int = 0
    trustuqa_hits: int = 0
    same_answer: int = 0
    err_ran: int = 0
    replaced: int = 0
    empty: int = 0
    would_consult: int = 0
    seconds: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        n = self.n or 1
        return {"questions": self.n, "hits1_cypher_err": self.cypher_hits / n,
                "hits1_trustuqa_offline": self.trustuqa_hits / n,
                "same_answer": self.same_answer, "err_ran": self.err_ran,
                "err_replaced_a_name": self.replaced, "translator_empty": self.empty,
                "merge_would_consult_searcher": self.would_consult,
                "p50_seconds": statistics.median(self.seconds) if self.seconds else None}


def translator_slice(hops: int, split: str = "dev", limit: int = 100, step: int = 1,
                     root: Path | str | None = None) -> TranslatorReport:
    """Every ``step``-th of the first ``limit`` questions through the offline translator."""
    pool, exclude_for = benchmark_pool(f"metaqa-{hops}hop", split, HashingEncoder(), root=root)
    report = TranslatorReport()
    for e in load_metaqa(hops, split, limit, root=root)[::step]:
        graph, mapper = source_graph(e.sources[0])
        a = unioqa_answer(e.question, graph, "offline", mapper=mapper, demos=pool,
                          exclude_origins=exclude_for(e), privacy=False)
        tr = a.translator
        report.n += 1
        gold = list(e.answers)
        report.cypher_hits += int(bool(metaqa_scores(tr.answer, gold)["hits1"]))
        ours = tr.trustuqa.answer if tr.trustuqa else []
        report.trustuqa_hits += int(bool(metaqa_scores(ours, gold)["hits1"]))
        report.same_answer += int(sorted(set(ours)) == sorted(set(tr.answer)))
        report.err_ran += int(tr.err is not None)
        report.replaced += int(tr.replaced)
        report.empty += int(not tr.answer)
        report.would_consult += int(not tr.answer or (tr.replaced and tr.verdict != "verified"))
        if tr.err is not None:
            report.seconds.append(sum(v.seconds for v in tr.err.variants))
    return report
