"""Replays of recorded queries: failure categories on hand-made cases, WebQSP name -> MID
overrides, and accuracy thresholds on samples of the real recordings."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.evaluate.datasets import Example, Source
from trustuqa_core.evaluate.outcome import ProbeFallback, classify_trace
from trustuqa_core.evaluate.replay import MetaQAReplay, WTQReplay, needs_llm, table_half
from trustuqa_core.evaluate.replay_webqsp import WebQSPReplay, entity_overrides, topic_mid
from trustuqa_core.query import parse

MEDALS = "Rank\tNation\tGold\tNote\n1\tChina\t10\tgood\n2\tItaly\t4\tbad\n3\tJapan\t4\tfair\n"


def _example(path: Path, answers: tuple[str, ...], ident: str = "nt-1") -> Example:
    return Example(ident, "wtq", "train", "q?", answers, (Source(path, "table"),),
                   {"context": f"csv/{path.name}"})


def _q(*calls: str) -> str:
    return "\n".join(f'Query{i}: "{c}"' for i, c in enumerate(calls, 1))


@pytest.fixture
def medals_file(tmp_path: Path) -> Path:
    path = tmp_path / "medals.csv"
    path.write_text(MEDALS, encoding="utf-8")
    return path


@pytest.mark.parametrize(("query", "answers", "category"), [
    (_q("get_information(relation='Nation', tail_entity='Italy')",
        "get_information(relation='Gold', head_entity='output_of_query1')"), ("4",), "correct"),
    (_q("get_information(relation='Nation', tail_entity='Italy')",
        "get_information(relation='Gold', head_entity='output_of_query1')"), ("5",), "wrong"),
    (_q("get_information(relation='Gold', tail_entity>'50')"), ("x",), "empty"),
    ('Query1: "get_information(relation=\'Nation\', tail_entity=\'Italy\'"', ("4",), "parse"),
    (_q("get_information(relation='Nation', tail_entity='Italy')",
        "lucky_streak_of(set1='output_of_query1', set2='output_of_query1')",
        "count(set='output_of_query2')"), ("0",), "llm_function"),       # depends on one
    (_q("get_information(relation='Note', tail_entity>'bad')"), ("China",), "llm_function"),
    (_q("get_information(relation='Nation', key='Gold', value='4', year='2000')"), ("x",),
     "rewrite"),
])
def test_wtq_replay_categories(medals_file, query, answers, category):
    outcome = WTQReplay().evaluate(("q?", query, [_example(medals_file, answers)]))
    assert outcome.category == category, outcome.detail
    assert outcome.correct is (category == "correct")
    assert outcome.flags["no_llm_step"] is (category != "llm_function")
    assert outcome.groups["half"] == table_half(f"csv/{medals_file.name}")


def test_wtq_replay_question_asked_of_two_tables(tmp_path, medals_file):
    other = tmp_path / "other.csv"
    other.write_text("Nation\tGold\nItaly\t7\n", encoding="utf-8")
    query = _q("get_information(relation='Nation', tail_entity='Italy')",
               "get_information(relation='Gold', head_entity='output_of_query1')")
    item = ("q?", query, [_example(other, ("4",), "nt-1"), _example(medals_file, ("4",), "nt-2")])
    outcome = WTQReplay().evaluate(item)
    assert outcome.correct and outcome.id == "nt-2" and outcome.flags["ambiguous_question"]


def test_probe_fallback_detects_llm_steps_without_calling_anything():
    graph = load_graph(tables=[MEDALS.replace("\t", ",").encode()])
    probe = ProbeFallback()
    trace = run_query(_q("get_information(relation='Note', tail_entity>'bad')"), graph,
                      fallback=probe)
    assert needs_llm(trace, probe) and probe.requests[0].kind == "compare"
    assert classify_trace(trace, probe)[0] == "llm_function"
    plain = ProbeFallback()
    trace = run_query(_q("get_information(relation='Gold', tail_entity>'5')"), graph,
                      fallback=plain)
    assert not needs_llm(trace, plain) and trace.answer


def test_table_halves_are_stable_and_balanced():
    contexts = [f"csv/20{i % 5}-csv/{i}.csv" for i in range(400)]
    halves = [table_half(c) for c in contexts]
    assert halves == [table_half(c) for c in contexts]
    assert 150 < halves.count("tune") < 250


def test_webqsp_topic_names_map_to_mids():
    topics = [("Peru", "m.016wzw"), ("Martin Luther King, Jr.", "m.051cc")]
    assert topic_mid("PERU", topics) == "m.016wzw"
    assert topic_mid("Martin Luther King Jr", topics) == "m.051cc"
    assert topic_mid("Lima", topics) is None
    program = parse(_q("get_information(relation='r', head_entity='Peru')",
                       "get_information(relation='s', tail_entity='Lima')",
                       "set_union(set1='output_of_query1', set2='Peru')"))
    overrides, unmapped = entity_overrides(program, topics, lambda t: t.startswith("m."))
    assert overrides == {"Q1.head_entity": "m.016wzw", "Q3.set2": "m.016wzw"}
    assert unmapped == ["Lima"]


# ------------------------------------------------------------------ data samples

# Floors on these fixed slices, a few points under what they measured on 2026-11-23
# (code 4a39435): a real regression fails, run-to-run noise cannot (the slices are fixed and
# the pipeline is deterministic). Raise them when the measured value rises for good.
#   WTQ train [::30]: 161/204 = 78.9% (no LLM-inferred step: 161/176 = 91.5%)
#   MetaQA train, 30 spread questions, over expected_nonempty: 29/29, 29/30, 30/30
#   WebQSP dev (all 219 recorded): 214/219 = 97.7%
FLOOR_WTQ, FLOOR_WTQ_NO_LLM = 0.76, 0.88
FLOOR_METAQA = {1: 0.96, 2: 0.93, 3: 0.96}  # one more miss than today at most
FLOOR_WEBQSP = 0.95


@pytest.mark.data
def test_wtq_replay_sample_reaches_the_full_run_accuracy(data_dir):
    evaluation = WTQReplay("train", root=data_dir)
    items = evaluation.items()[::30]  # 204 recorded queries spread over all 6,118
    outcomes = [evaluation.evaluate(item) for _, item in items]
    accuracy = sum(o.correct for o in outcomes) / len(outcomes)
    assert accuracy >= FLOOR_WTQ
    plain = [o for o in outcomes if o.flags["no_llm_step"]]
    assert sum(o.correct for o in plain) / len(plain) >= FLOOR_WTQ_NO_LLM
    assert {o.groups["half"] for o in outcomes} == {"tune", "check"}
    assert all(o.category != "error" for o in outcomes)


@pytest.mark.data
@pytest.mark.parametrize("hops", [1, 2, 3])
def test_metaqa_replay_sample(data_dir, hops):
    evaluation = MetaQAReplay(hops, "train", root=data_dir)
    items = evaluation.items()
    items = items[:: len(items) // 30][:30]
    outcomes = [evaluation.evaluate(item) for _, item in items]
    assert all(o.groups.get("qtype") for o in outcomes)  # every template got a type
    scored = [o for o in outcomes if o.flags["expected_nonempty"]]
    accuracy = sum(o.correct for o in scored) / len(scored)
    assert accuracy >= FLOOR_METAQA[hops]


@pytest.mark.data
def test_webqsp_replay(data_dir):
    evaluation = WebQSPReplay("dev", root=data_dir)
    outcomes = [evaluation.evaluate(item) for _, item in evaluation.items()]
    assert len(outcomes) == 219
    accuracy = sum(o.correct for o in outcomes) / len(outcomes)
    assert accuracy >= FLOOR_WEBQSP
