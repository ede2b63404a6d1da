"""``bench run --benchmark mixed --window LO:HI``: the mixed answer benchmark on a tune window
(questions LO..HI-1 of each benchmark), the check half (0:100) staying the default."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core.cli import build_parser
from trustuqa_core.cli.bench import _command
from trustuqa_core.evaluate.mixed import MixedEvaluation, mixed_examples, mixed_window, parse_window
from trustuqa_core.evaluate.outcome import Unavailable
from trustuqa_core.evaluate.runner import build_evaluation


@pytest.mark.parametrize("text", ["100", "a:b", "200:100", "5:5", ":3", "-1:4"])
def test_parse_window_rejects_what_is_no_window(text: str) -> None:
    with pytest.raises(ValueError, match="LO:HI"):
        parse_window(text)


def test_cli_parses_the_window_and_the_command_repeats_it() -> None:
    args = build_parser().parse_args(["bench", "run", "--benchmark", "mixed", "--mode",
                                      "answer", "--setting", "unmix-known", "--window",
                                      "200:300"])
    assert args.window == (200, 300)
    assert "--setting unmix-known --window 200:300" in _command(args)
    plain = build_parser().parse_args(["bench", "run", "--benchmark", "mixed", "--mode",
                                       "answer"])
    assert plain.window is None and "--window" not in _command(plain)


def test_cli_rejects_a_bad_window() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["bench", "run", "--benchmark", "mixed", "--window", "3:1"])


def test_window_is_only_for_the_mixed_answer_run() -> None:
    with pytest.raises(Unavailable, match="--window"):
        build_evaluation("wtq", "answer", window=(100, 200))
    with pytest.raises(Unavailable, match="--window"):
        build_evaluation("mixed", "ceiling", window=(100, 200))


def test_a_window_gets_its_own_split_the_check_half_keeps_its_name() -> None:
    """The run cache and report are keyed by the split: a tune window must not resume from a
    check-half run (or the reverse)."""
    tune = build_evaluation("mixed", "answer", setting="unmix-known", window=(100, 200))
    assert isinstance(tune, MixedEvaluation)
    assert tune.split == "unmix-known-100-200"
    assert build_evaluation("mixed", "answer", setting="unmix-known").split == "unmix-known"
    check = build_evaluation("mixed", "answer", setting="mix-unknown", window=(0, 100))
    assert check.split == "mix-unknown"


@pytest.mark.data
def test_a_window_asks_that_windows_questions(data_dir: Path) -> None:
    ev = MixedEvaluation("mix-unknown", root=data_dir, encoder="hashing", window=(2, 4))
    assert [e.id for e in ev.examples()] == [e.id for e in mixed_window(2, 4, root=data_dir)]
    first = {e.id for e in mixed_examples(2, root=data_dir)}
    assert first.isdisjoint(e.id for e in ev.examples())
