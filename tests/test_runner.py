"""The benchmark runner: resumable cache, thread pool, reports, ``run_cli`` and the answer-mode
plug-in (with fake answer functions: no LLM, no network)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from trustuqa_core.cli import build_parser, main
from trustuqa_core.cli.bench import run_cli
from trustuqa_core.evaluate.answer_eval import AnswerEvaluation
from trustuqa_core.evaluate.outcome import Outcome, Unavailable
from trustuqa_core.evaluate.run_cache import RunCache, cache_file, code_version
from trustuqa_core.evaluate.runner import build_evaluation, run_evaluation
from trustuqa_core.llm import LLMUnreachable
from trustuqa_core.llm.settings import ENV_NAMES


class FakeEvaluation:
    """Ten questions; question ``i`` is correct when ``i`` is even. Optionally interrupts
    (as Ctrl-C would) before evaluating ``stop_at``, or fails on ``broken``."""

    benchmark, split, mode = "fake", "dev", "replay"

    def __init__(self, concurrent: bool = False, stop_at: int | None = None,
                 broken: int | None = None) -> None:
        self.concurrent, self.stop_at, self.broken = concurrent, stop_at, broken
        self.calls: list[int] = []
        self._lock = threading.Lock()

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        return [(f"q{i}", i) for i in range(10)][:limit]

    def evaluate(self, i: int) -> Outcome:
        if i == self.stop_at:
            raise KeyboardInterrupt
        if i == self.broken:
            raise ValueError("evaluator bug")
        with self._lock:
            self.calls.append(i)
        ok = i % 2 == 0
        return Outcome(f"q{i}", "fake", f"question {i}?", ok, "correct" if ok else "wrong",
                       [str(i)], ["0"], 0.001 * i, groups={"parity": "even" if ok else "odd"})


def test_interrupted_run_resumes_where_it_stopped(tmp_path: Path):
    first = FakeEvaluation(stop_at=6)
    result = run_evaluation(first, out_dir=tmp_path, progress=False)
    assert result.interrupted and first.calls == [0, 1, 2, 3, 4, 5]
    assert not (tmp_path / "fake-dev-replay.md").exists()  # no report for a partial run
    second = FakeEvaluation()
    result = run_evaluation(second, out_dir=tmp_path, progress=False)
    assert not result.interrupted and result.resumed == 6
    assert second.calls == [6, 7, 8, 9]  # only what was left
    assert [o.id for o in result.outcomes] == [f"q{i}" for i in range(10)]
    assert result.summary["n"] == 10 and result.summary["accuracy"] == 0.5
    third = FakeEvaluation()
    assert run_evaluation(third, out_dir=tmp_path, progress=False).resumed == 10
    assert third.calls == []


def test_limit_reuses_the_cache_of_a_longer_run(tmp_path: Path):
    run_evaluation(FakeEvaluation(), out_dir=tmp_path, progress=False, limit=4, report=False)
    again = FakeEvaluation()
    result = run_evaluation(again, out_dir=tmp_path, progress=False, report=False)
    assert sorted(again.calls) == [4, 5, 6, 7, 8, 9] and result.summary["n"] == 10


def test_thread_pool_runs_every_question_once(tmp_path: Path):
    evaluation = FakeEvaluation(concurrent=True)
    result = run_evaluation(evaluation, out_dir=tmp_path, progress=False, workers=4,
                            report=False)
    assert sorted(evaluation.calls) == list(range(10))
    assert [o.id for o in result.outcomes] == [f"q{i}" for i in range(10)]
    lines = result.paths["cache"].read_text().splitlines()
    assert len(lines) == 10 and all(json.loads(line)["id"] for line in lines)


def test_evaluator_failure_becomes_an_error_outcome(tmp_path: Path):
    result = run_evaluation(FakeEvaluation(broken=3), out_dir=tmp_path, progress=False,
                            report=False)
    broken = result.outcomes[3]
    assert broken.category == "error" and "evaluator bug" in broken.detail
    assert result.summary["failures"]["error"] == 1


def test_cache_skips_a_truncated_line_and_keeps_appending(tmp_path: Path):
    path = tmp_path / "c.jsonl"
    cache = RunCache(path)
    cache.append(Outcome("a", "fake", "?", True, "correct", [], [], 0.0))
    with path.open("a") as handle:
        handle.write('{"id": "b", "bench')  # killed mid-write
    again = RunCache(path)
    assert list(again.load()) == ["a"] and again.skipped == 1
    again.append(Outcome("c", "fake", "?", False, "wrong", [], [], 0.0))
    assert sorted(RunCache(path).load()) == ["a", "c"]


def test_cache_file_is_keyed_by_run_and_code_version(tmp_path: Path):
    version = code_version()
    assert len(version) == 12 and version == code_version()
    a = cache_file(tmp_path, "wtq", "dev", "answer", "openai", "gpt/4", version)
    b = cache_file(tmp_path, "wtq", "dev", "answer", "offline", "", version)
    assert a != b and version in a.name and "/" not in a.name


def test_report_files(tmp_path: Path):
    result = run_evaluation(FakeEvaluation(), out_dir=tmp_path, progress=False)
    markdown = result.paths["markdown"].read_text()
    assert markdown.startswith("# fake (dev, replay): 5 / 10 correct (50.0%)")
    assert "| wrong | 5 |" in markdown and "## Accuracy by parity" in markdown
    html = result.paths["html"].read_text()
    assert "plotly.min.js" in html and (tmp_path / "plotly.min.js").is_file()
    assert json.loads(result.paths["json"].read_text())["summary"]["correct"] == 5


def _args(*argv: str):
    return build_parser().parse_args(["bench", "run", *argv])


@pytest.mark.parametrize(("benchmark", "mode"), [("wtq", "ceiling"), ("wikisql", "replay"),
                                                 ("cronquestions", "ceiling"),
                                                 ("squad", "replay")])
def test_unavailable_combinations_exit_2_with_a_reason(capsys, tmp_path, benchmark, mode):
    code = run_cli(_args("--benchmark", benchmark, "--mode", mode, "--json",
                         "--out", str(tmp_path)))
    payload = json.loads(capsys.readouterr().out)
    assert code == 2 and payload["accuracy"] is None and payload["unavailable"]


def test_openai_writer_without_settings_is_refused(capsys, monkeypatch, tmp_path):
    for name in ENV_NAMES.values():
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here
    code = run_cli(_args("--benchmark", "wtq", "--mode", "answer", "--writer", "openai"))
    assert code == 2 and "needs an LLM" in capsys.readouterr().err


@pytest.mark.data
def test_run_cli_json_shape_and_resume(capsys, monkeypatch, tmp_path, data_dir):
    monkeypatch.setenv("TRUSTUQA_DATA", str(data_dir))
    argv = ["bench", "run", "--benchmark", "wikisql", "--mode", "ceiling", "--limit", "8",
            "--json", "--no-progress", "--out", str(tmp_path)]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)  # exactly one JSON object
    assert payload["benchmark"] == "wikisql" and payload["n"] == 8
    assert 0 <= payload["accuracy"] <= 1 and isinstance(payload["failures"], dict)
    assert payload["resumed"] == 0 and Path(payload["files"]["markdown"]).is_file()
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["resumed"] == 8


class _Answer:
    def __init__(self, answer: list[str]) -> None:
        self.answer, self.trace, self.error = answer, None, None


@pytest.mark.data
def test_answer_mode_plugs_in_any_answer_function(data_dir, tmp_path):
    seen: list[tuple[str, dict]] = []

    def oracle(question, graph, **kwargs):  # answers with the gold: the harness scores 100%
        seen.append((question, kwargs))
        gold = {e.question: e.answers for e in examples}
        return _Answer(list(gold[question]))

    evaluation = AnswerEvaluation("metaqa-1hop", "dev", "offline", root=data_dir,
                                  answer_fn=oracle)
    examples = [e for _, e in evaluation.items(6)]
    result = run_evaluation(evaluation, limit=6, out_dir=tmp_path, progress=False, workers=3,
                            writer="offline", report=False)
    assert result.summary["accuracy"] == 1.0 and len(seen) == 6
    assert all(k["writer"] == "offline" for _, k in seen)

    def failing(question, graph, **kwargs):
        raise LLMUnreachable("connection refused", base_url="http://localhost:9")

    evaluation = AnswerEvaluation("metaqa-1hop", "dev", "openai", root=data_dir,
                                  answer_fn=failing)
    outcome = evaluation.evaluate(examples[0])
    assert outcome.category == "llm_error" and "connection refused" in outcome.detail


@pytest.mark.data
def test_cronquestions_entity_answers_are_not_scored(data_dir):
    def never(question, graph, **kwargs):
        return _Answer(["1918"])

    evaluation = AnswerEvaluation("cronquestions", "valid", root=data_dir, answer_fn=never)
    outcomes = [evaluation.evaluate(e) for _, e in evaluation.items(12)]
    entity = [o for o in outcomes if o.flags.get("evaluable") is False]
    assert entity and all(o.category == "not_evaluable" for o in entity)
    assert all("evaluable" in o.flags for o in outcomes)


@pytest.mark.data
def test_build_evaluation_defaults(data_dir):
    assert build_evaluation("wtq", "replay", root=data_dir).split == "train"
    assert build_evaluation("metaqa-2hop", "ceiling", root=data_dir).split == "dev"
    assert build_evaluation("webqsp", "replay", root=data_dir).split == "dev"
    with pytest.raises(Unavailable, match="train"):
        build_evaluation("wtq", "replay", "dev", root=data_dir)


@pytest.mark.data
def test_answer_mode_never_uses_demos_from_the_scored_split(data_dir):
    seen: list[dict] = []

    def record(question, graph, demos=None, exclude_origins=(), **kwargs):
        seen.append({"demos": demos, "exclude_origins": exclude_origins})
        return _Answer([])

    evaluation = AnswerEvaluation("metaqa-1hop", "dev", "offline", root=data_dir,
                                  answer_fn=record, encoder="hashing")
    examples = [e for _, e in evaluation.items(3)]
    for e in examples:
        evaluation.evaluate(e)
    pool = seen[0]["demos"]
    assert all(k["demos"] is pool for k in seen)  # built once
    assert all(tuple(k["exclude_origins"]) == ("metaqa-1hop:dev",) for k in seen)
    relabelled = {d.question for d in pool.demos if d.origin == "metaqa-1hop:dev"}
    assert relabelled, "recorded train demos that occur in dev must carry the dev origin"
    with pytest.raises(Unavailable, match="encoder"):
        AnswerEvaluation("metaqa-1hop", "dev", root=data_dir, answer_fn=record, encoder="bert")
