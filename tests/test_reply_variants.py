"""Reply variants (issue #16): replies written the way other model families write them must
parse to the same program as the recorded original."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from trustuqa_core.evaluate.datasets import load_recorded_queries
from trustuqa_core.evaluate.reply_variants import (
    TRANSFORMS,
    make_variants,
    variant_agreement,
)
from trustuqa_core.query import parse

REPLIES = [
    "## Target type: {Nation}\n## Query:\nStep1: Find the entity named Italy\n"
    "Query1: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
    "Step2: Count output_of_query1\nQuery2: \"count(set='output_of_query1')\"",
    "## Target type: {Title}\nStep1: Find Some Mother's Son\n"
    "Query1: \"get_information(relation='Title', tail_entity='Some Mother's Son')\"\n"
    "Step2: Find the year of output_of_query1\n"
    "Query2: \"get_information(relation='Year', head_entity='output_of_query1', "
    "tail_entity>='1,000')\"\nStep3: Keep the larger ones\n"
    "Query3: \"keep(set='output_of_query2', value>'output_of_query1')\"",
    "Step1: Find Italy\nQuery1: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
    "Step2: Find Spain\nQuery2: \"get_information(relation='Nation', tail_entity='Spain')\"\n"
    "Step3: Compare\nQuery3: \"output_of_query1 > output_of_query2\"",
]


@pytest.mark.parametrize("name", sorted(TRANSFORMS))
@pytest.mark.parametrize("reply", REPLIES)
def test_each_transform_changes_the_form_but_not_the_program(name: str, reply: str) -> None:
    for seed in range(6):
        variant = TRANSFORMS[name](reply, random.Random(seed))
        assert variant != reply
        assert parse(variant) == parse(reply), variant


def test_agreement_counts_and_reports_positioned_failures() -> None:
    variants = make_variants([("a", REPLIES[0]), ("bad", "no query here")], seed=3, combos=2)
    assert {v.key for v in variants} == {"a"}  # unparsable originals are skipped
    broken = variants[0].__class__("a", ("broken",), REPLIES[0], 'Query1: "count(set=\'a\''
                                   "\nQuery2: \"count(set='output_of_query1')\"")
    report = variant_agreement([*variants, broken])
    assert report.total == len(variants) + 1
    assert report.same == len(variants)
    assert report.by_transform["broken"] == (0, 1)
    assert report.failures[0][1].startswith("line 1, column ")


@pytest.mark.data
def test_recorded_replies_in_other_models_forms(data_dir: Path) -> None:
    """>= 2,000 variants of the recorded GPT-3.5 WTQ replies; >= 99% give the same program."""
    recorded = sorted(load_recorded_queries("wtq", root=data_dir).items())
    sample = random.Random(11).sample(recorded, 250)
    variants = make_variants(sample, seed=5)
    assert len(variants) >= 2000
    report = variant_agreement(variants)
    assert report.rate >= 0.99, report.failures[:5]
    for name, (same, total) in report.by_transform.items():
        assert total >= 150 and same / total >= 0.97, name
    for _variant, why in report.failures:
        assert why == "parsed to a different program" or why.startswith("line ")
