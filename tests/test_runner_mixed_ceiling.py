"""The runner builds the mixed ceiling (issue 13): ``build_evaluation("mixed", "ceiling")`` is
the one path, shared by the CLI, to :class:`~trustuqa_core.evaluate.mixed_ceiling.MixedCeiling`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core.cli import main
from trustuqa_core.evaluate.mixed import MixedEvaluation
from trustuqa_core.evaluate.mixed_ceiling import MixedCeiling
from trustuqa_core.evaluate.outcome import Unavailable
from trustuqa_core.evaluate.runner import build_evaluation


@pytest.mark.parametrize("setting", ["mix-unknown", "mix-known", "unmix-known"])
def test_runner_builds_the_mixed_ceiling(setting: str, tmp_path: Path) -> None:
    built = build_evaluation("mixed", "ceiling", setting=setting, root=tmp_path,
                             encoder="hashing")
    assert isinstance(built, MixedCeiling)
    assert (built.benchmark, built.mode, built.split) == ("mixed", "ceiling", setting)
    assert built.root == tmp_path


def test_default_setting_and_answer_mode_unchanged() -> None:
    assert build_evaluation("mixed", "ceiling").split == "mix-unknown"  # type: ignore[attr-defined]
    assert isinstance(build_evaluation("mixed", "answer", encoder="hashing"), MixedEvaluation)


def test_runner_refuses_what_the_ceiling_cannot_run() -> None:
    with pytest.raises(Unavailable, match="unmix-known"):
        build_evaluation("mixed", "ceiling", setting="unmix-unknown")
    with pytest.raises(Unavailable, match="executor only"):
        build_evaluation("mixed", "ceiling", engine="duckdb")
    with pytest.raises(Unavailable, match="--mode ceiling or --mode answer"):
        build_evaluation("mixed", "replay")


def test_cli_goes_through_the_runner(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "run", "--benchmark", "mixed", "--mode", "ceiling", "--engine",
                 "duckdb", "--json"])
    assert code == 2
    assert "executor only" in json.loads(capsys.readouterr().out)["unavailable"]
