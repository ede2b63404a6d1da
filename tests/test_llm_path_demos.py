"""Issue 16, item 5: demonstration pools for real use."""

from __future__ import annotations

import json
import re

import pytest

from trustuqa_core.demos import Demo, DemoSource, ExecutionVerifier, initial_demos
from trustuqa_core.evaluate.demo_pools import benchmark_pool, cronquestions_demos
from trustuqa_core.functions import FUNCTIONS
from trustuqa_core.llm.prompts import load_text
from trustuqa_core.mapping import HashingEncoder

MORE = json.loads(load_text("demos_more.json"))


def test_the_richer_pool_is_loaded_beside_the_initial_one() -> None:
    questions = {d.question for d in initial_demos()}
    assert {d["question"] for d in MORE["demos"]} <= questions
    assert all(d.origin == "initial" for d in initial_demos())


@pytest.mark.parametrize("item", MORE["demos"], ids=[d["question"][:40] for d in MORE["demos"]])
def test_every_new_demo_reexecutes_to_its_answer(item: dict) -> None:
    demo = next(d for d in initial_demos() if d.question == item["question"])
    assert demo.answer and ExecutionVerifier()(demo) is True


def test_the_bundled_demos_cover_every_function_pattern_and_kind() -> None:
    demos = initial_demos()
    text = "\n".join(d.query for d in demos)
    used = set(re.findall(r'"(\w+)\(', text))
    assert set(FUNCTIONS) <= used | {"get_information"}, set(FUNCTIONS) - used
    for pattern in ("tail_entity='most'", "tail_entity='least'", "key='end_time'",
                    "key='start_time'", "value<'", "value>'", "tail_entity<'", "tail_entity>'",
                    "tail_entity<='", "tail_entity>='", "set3="):
        assert pattern in text, pattern
    assert {d.kind for d in demos} == {"table", "kg", "tkg", "mixed"}
    assert any(len(d.sources) == 3 for d in demos)  # table + KG + TKG together


def test_demos_without_answers_must_run_and_be_nonempty_on_their_data() -> None:
    kb = (DemoSource("kg", "kb.txt", text="Dune|written_by|Frank Herbert\n"),)
    good = Demo("who wrote [Dune]?",
                "Query1: \"get_information(relation='written_by', head_entity='Dune')\"",
                (), "kg", "recorded", kb)
    empty = Demo("what did [Dune] write?",
                 "Query1: \"get_information(relation='written_by', tail_entity='Dune')\"",
                 (), "kg", "recorded", kb)
    broken = Demo("?", "Query1: \"count(set='output_of_query4')\"", (), "kg", "recorded", kb)
    verify = ExecutionVerifier()
    assert (verify(good), verify(empty), verify(broken)) == (True, False, False)
    assert verify(Demo("q", "Query1: \"x()\"", (), "kg", "recorded")) is None  # no data


def test_cronquestions_gets_a_recorded_pool(data_dir) -> None:  # noqa: ANN001
    demos = cronquestions_demos(root=data_dir)
    assert len(demos) >= 8 and all(d.kind == "tkg" for d in demos)
    assert all("get_information" in d.query for d in demos)
    pool, exclude = benchmark_pool("cronquestions", "valid", HashingEncoder(), root=data_dir)
    assert any(d.origin == "cronquestions:prompt" for d in pool.demos)
