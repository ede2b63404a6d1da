"""Self-consistency: what counts as a vote, confidence, ties, retries, failures kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from trustuqa_core import load_graph
from trustuqa_core.vote import answer_key, run, self_consistency

G = load_graph(tables=[b"Name,Gold,Member\nAnn,0,no\nBob,0,no\nCid,3,yes\n"])
SUM_TEXT = "Query1: \"get_information(relation='Name')\"\n" \
           "Query2: \"sum(set='output_of_query1')\""
COUNT_NONE = ("Query1: \"get_information(relation='Gold', tail_entity>'5')\"\n"
              "Query2: \"count(set='output_of_query1')\"")  # a genuine 0
MEMBER = ("## Target type: {Member}\nQuery1: \"get_information(relation='Name', "
          "tail_entity='Ann')\"")  # 'no'
THREE = "Query1: \"get_information(relation='Gold', tail_entity='3')\"\n" \
        "Query2: \"count(set='output_of_query1')\""  # 1
EMPTY = "Query1: \"get_information(relation='Gold', tail_entity>'5')\""
BROKEN = "Query1: \"get_information(relation='Gold', tail_entity='0'"
UNMAPPED = "Query1: \"get_information(relation='Gold', tail_entity='Zebra')\""


def execute(text: str):  # noqa: ANN201
    return run(text, G)


def writer(*rounds: list[str]) -> Callable[[int, int], list[str]]:
    calls: list[int] = []

    def write(attempt: int, n: int) -> list[str]:
        calls.append(attempt)
        return rounds[min(attempt, len(rounds) - 1)]

    write.calls = calls  # type: ignore[attr-defined]
    return write


def test_zero_and_no_are_votes_like_any_other() -> None:
    result = self_consistency(writer([COUNT_NONE, COUNT_NONE, THREE]), execute, n=3)
    assert result.answer == ["0"] and result.confidence == pytest.approx(2 / 3)
    result = self_consistency(writer([MEMBER, THREE, MEMBER]), execute, n=3)
    assert result.answer == ["no"]


def test_empty_answers_and_failures_are_not_votes_but_are_kept() -> None:
    result = self_consistency(writer([EMPTY, BROKEN, UNMAPPED, SUM_TEXT, THREE]), execute, n=5)
    statuses = [s.status for s in result.samples]
    assert statuses[:2] == ["empty", "parse_error"] and statuses[3] == "execute_error"
    assert statuses[2] in ("empty", "unmapped")  # the mapper binds nothing, or weakly
    assert "Zebra" in (result.samples[2].error or "")
    assert "sum needs numbers" in (result.samples[3].error or "")
    assert result.answer == ["1"] and result.confidence == pytest.approx(1 / 5)
    assert all(s.error for s in result.samples[:4])
    assert [s.votes for s in result.samples] == [0, 0, 0, 0, 1]


def test_a_sample_with_a_literal_that_matched_nothing_is_not_a_vote() -> None:
    trace = execute(THREE)
    weak = replace(trace.mapped.mappings[1], method="fuzzy", score=0.45)
    trace.mapped = replace(trace.mapped, mappings=(trace.mapped.mappings[0], weak))
    result = self_consistency(writer([THREE, MEMBER]), lambda t: trace if t == THREE
                              else execute(t), n=2)
    assert [s.status for s in result.samples] == ["unmapped", "answered"]
    assert result.answer == ["no"] and "matches nothing in the data" in (
        result.samples[0].error or "")


def test_vote_is_on_normalised_answer_sets() -> None:
    assert answer_key(["Italy", "4"]) == answer_key(["4.0", " italy"])
    assert answer_key(["0"]) != answer_key(["no"])
    a = "## Target type: {Name}\nQuery1: \"get_information(relation='Gold', tail_entity='0')\""
    b = ("## Target type: {Name}\nQuery1: \"get_information(relation='Member', "
         "tail_entity='no')\"")  # same rows, found another way
    result = self_consistency(writer([a, b, THREE]), execute, n=3)
    assert sorted(result.answer) == ["Ann", "Bob"] and result.confidence == pytest.approx(2 / 3)


def test_tie_goes_to_the_answer_produced_first() -> None:
    result = self_consistency(writer([THREE, MEMBER]), execute, n=2)
    assert result.tie and result.answer == ["1"] and result.confidence == 0.5


def test_retries_when_nothing_executes_then_stops() -> None:
    write = writer([BROKEN, EMPTY], [EMPTY, THREE])
    result = self_consistency(write, execute, n=2, retries=3)
    assert write.calls == [0, 1] and result.rounds == 2
    assert result.answer == ["1"] and result.confidence == 0.5
    assert [s.round for s in result.samples] == [0, 0, 1, 1]

    never = writer([BROKEN])
    result = self_consistency(never, execute, n=1, retries=3)
    assert never.calls == [0, 1, 2, 3] and result.answer == [] and result.confidence == 0.0
    assert result.winner is None and len(result.samples) == 4


def test_writer_errors_end_the_rounds_and_are_recorded() -> None:
    def write(attempt: int, n: int) -> list[str]:
        if attempt:
            raise ConnectionError("server went away")
        return [BROKEN]

    result = self_consistency(write, execute, n=1, retries=3, catch=(ConnectionError,))
    assert [s.status for s in result.samples] == ["parse_error", "writer_error"]
    assert "went away" in (result.samples[-1].error or "")
    with pytest.raises(ConnectionError):
        self_consistency(write, execute, n=1, retries=3)


def test_an_empty_round_stops_at_once() -> None:
    write = writer([])
    result = self_consistency(write, execute, n=3, retries=3)
    assert write.calls == [0] and result.samples == []


def test_n_must_be_positive() -> None:
    with pytest.raises(ValueError):
        self_consistency(writer([THREE]), execute, n=0)
