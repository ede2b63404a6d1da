"""A query an LLM wrote is judged as the LLM's when its trace is judged alone (a re-run, a
recorded GPT-3.5 query opened from the Evaluate page), as the benchmarks judge it."""

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.answer import Answer
from trustuqa_core.verdict import judge, judge_alone

ROWS = "\n".join(f"P{i},{i * 3},Club{i % 7}" for i in range(1, 41))
QUESTION = "how many goals did P7 score?"
QUERY = "Query1: \"get_information(relation='Goals', head_entity='P7')\""


def _trace(writer: str):
    g = load_graph(tables=[("Player,Goals,Club\n" + ROWS + "\n").encode()])
    return run_query(QUERY, g, question=QUESTION, writer=writer)


def test_the_case_separates_the_two_writers():
    # the premise: on this 40-row table the offline threshold keeps the answer amber and
    # the LLM's does not, so the tests below can tell which one judge_alone used
    t = _trace("offline")
    assert judge(t, QUESTION, writer="offline").label == "check"
    assert judge(t, QUESTION, writer="llm").label == "verified"


@pytest.mark.parametrize("writer", ["recorded", "llm:gpt-3.5-turbo"])
def test_an_llm_query_judged_alone_is_judged_as_the_llm(writer):
    t = _trace(writer)
    assert t.answer == ["21"]
    assert judge_alone(t).label == judge(t, QUESTION, writer="llm").label == "verified"


@pytest.mark.parametrize("writer", ["offline", "hand-written", "gold"])
def test_other_queries_keep_the_offline_thresholds(writer):
    assert judge_alone(_trace(writer)).label == "check"


@pytest.mark.parametrize(("writer", "label"), [("llm:gpt-3.5-turbo", "verified"),
                                               ("offline", "check")])
def test_an_answer_without_a_verdict_is_judged_as_its_writer(writer, label):
    # Answer.judged(): to_dict(), suggestions and the unrouted-source rule judge an answer
    # answer() did not judge with the same writer reading as judge_alone
    t = _trace(writer)
    a = Answer(QUESTION, t.answer, 1.0, t, "", [], writer, [])
    assert a.verdict is None
    assert a.judged().label == label
    assert a.to_dict()["verdict"] == label
