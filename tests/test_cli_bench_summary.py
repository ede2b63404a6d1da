"""The text summary of `bench run` shows the mixed benchmark's routing after answering."""

from __future__ import annotations

from trustuqa_core.cli.bench import _text_summary


def _payload(routing: dict) -> dict:
    return {"benchmark": "mixed", "split": "check", "mode": "answer", "correct": 3,
            "n_evaluated": 4, "accuracy": 0.75, "resumed": 0, "failures": {}, "flags": {},
            "routing_accuracy": routing, "interrupted": False, "files": {}}


def test_final_routing_is_printed_beside_the_question_only_routing() -> None:
    part = {"n": 2, "exact": 2, "kept": 2, "final": 1, "final_or_decided": 2, "no_query": 1}
    text = _text_summary(_payload({"all": {**part, "n": 4, "exact": 3, "final": 2,
                                           "final_or_decided": 3},
                                   "source": {"wtq": part, "webqsp": part}}))
    assert "routing: 3 / 4 to exactly the question's source" in text
    assert ("routing after answering: 2 answered over exactly the question's source; 3 "
            "counting the decision where no query ran (wtq 1 / 2, webqsp 1 / 2)") in text


def test_a_ceiling_run_without_final_routing_prints_none() -> None:
    part = {"n": 2, "exact": 2, "kept": 2}
    text = _text_summary(_payload({"all": part, "source": {"wtq": part}}))
    assert "routing: 2 / 2" in text and "after answering" not in text
