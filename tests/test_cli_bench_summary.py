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


def test_routing_kind_and_kept_are_printed_beside_exact() -> None:
    part = {"n": 2, "exact": 1, "kind": 2, "kept": 2}
    other = {"n": 2, "exact": 0, "kind": 1, "kept": 1}
    text = _text_summary(_payload({"all": {"n": 4, "exact": 1, "kind": 3, "kept": 3},
                                   "source": {"wtq": part, "webqsp": other}}))
    assert ("routing: 1 / 4 to exactly the question's source (wtq 1 / 2, webqsp 0 / 2); "
            "of the right kind (table / KG / TKG) 3 / 4 (wtq 2 / 2, webqsp 1 / 2); keeping "
            "the question's source among the routed 3 / 4 (wtq 2 / 2, webqsp 1 / 2)") in text


def test_final_kind_and_kept_follow_the_routing_after_answering() -> None:
    part = {"n": 2, "exact": 2, "kept": 2, "final": 1, "final_or_decided": 2, "no_query": 0,
            "final_kind": 2, "final_kept": 1}
    text = _text_summary(_payload({"all": part, "source": {"wtq": part}}))
    after = next(line for line in text.splitlines() if line.startswith("routing after"))
    assert after.endswith("; of the right kind 2 / 2 (wtq 2 / 2); keeping the question's "
                          "source 1 / 2 (wtq 1 / 2)")


def test_a_run_recorded_before_kind_existed_prints_no_kind() -> None:
    part = {"n": 2, "exact": 2, "kept": 1}
    text = _text_summary(_payload({"all": part, "source": {"wtq": part}}))
    assert "right kind" not in text and "among the routed 1 / 2 (wtq 1 / 2)" in text
