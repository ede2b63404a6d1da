"""Differential check on a small MetaQA dev slice: our executor and Ladybug give identical
answer sets for the gold programs (including the known reinterpretation cases, dev-79 and
dev-314 of 3-hop, where a movie with no value of the asked relation stands for the subjects
that have it as a value)."""

from __future__ import annotations

import pytest

from trustuqa_core.evaluate.cypher_differential import compare_examples
from trustuqa_core.evaluate.datasets import load_metaqa


@pytest.mark.data
@pytest.mark.parametrize("hops", [1, 2, 3])
def test_metaqa_slice_agrees(data_dir, hops: int) -> None:
    examples = load_metaqa(hops, "dev", 400, root=data_dir)[::10]  # 40 spread questions
    report = compare_examples(examples, f"metaqa-{hops}hop")
    assert len(report.rows) >= 35
    assert sum(bool(r.ours) for r in report.rows) >= 30  # real answers, not empty sets
    disagreements = [(r.id, r.ours, r.cypher, r.error) for r in report.rows if not r.agree]
    assert disagreements == []


@pytest.mark.data
def test_metaqa_reinterpretation_cases_agree(data_dir) -> None:
    wanted = {"dev-79", "dev-314"}
    examples = [e for e in load_metaqa(3, "dev", 400, root=data_dir) if e.id in wanted]
    report = compare_examples(examples, "metaqa-3hop reinterpretation")
    assert {r.id for r in report.rows} == wanted
    for row in report.rows:
        assert row.agree, (row.id, sorted(set(row.ours) ^ set(row.cypher)))
    zulu = next(r for r in report.rows if r.id == "dev-79")
    assert "1979" in zulu.cypher  # only reachable through the reinterpretation
