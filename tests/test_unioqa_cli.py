"""``ask --system unioqa`` and ``bench run --engine cypher`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core.cli import main
from trustuqa_core.evaluate.cypher_engine import CypherEngine
from trustuqa_core.evaluate.outcome import Unavailable
from trustuqa_core.evaluate.runner import build_evaluation

KG = Path(__file__).resolve().parents[1] / "sample_data" / "movies_kg.txt"


def test_ask_system_unioqa_offline_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "--kg", str(KG), "--question", "who directed [High Anxiety]",
                 "--system", "unioqa", "--writer", "offline", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["system"] == "unioqa" and out["answer"] == ["Mel Brooks"]
    assert out["reason"] == "no_searcher" and out["searcher"] is None
    err = out["translator"]["err"]
    assert "High Anxiety" in err["rebuilt"] and err["variants"][err["chosen"]]["answer"]


def test_ask_system_unioqa_text_shows_cypher_and_decision(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "--kg", str(KG), "--question", "who directed [High Anxiety]",
                 "--system", "unioqa", "--writer", "offline"])
    out = capsys.readouterr().out
    assert code == 0 and "MATCH" in out and "ERR:" in out and "decision: translator" in out
    assert out.rstrip().endswith("answer: Mel Brooks")


def test_engine_cypher_only_for_metaqa_ceiling_and_replay() -> None:
    with pytest.raises(Unavailable, match="MetaQA ceiling and replay only"):
        build_evaluation("wikisql", "ceiling", engine="cypher")
    with pytest.raises(Unavailable, match="unknown engine"):
        build_evaluation("metaqa-1hop", "ceiling", engine="neo4j")
    assert main(["bench", "run", "--benchmark", "wikisql", "--mode", "ceiling",
                 "--engine", "cypher", "--no-progress"]) == 2


@pytest.mark.data
def test_bench_ceiling_through_cypher_agrees(data_dir: Path) -> None:
    ev = build_evaluation("metaqa-2hop", "ceiling", engine="cypher", root=data_dir)
    assert isinstance(ev, CypherEngine) and ev.mode == "ceiling-cypher"
    outcomes = [ev.evaluate(item) for _, item in ev.items(12)]
    assert all(o.flags["engine_agrees"] for o in outcomes)
    assert sum(o.correct for o in outcomes) >= 10
    assert all(o.query.startswith("// Query1") for o in outcomes if o.answer)


@pytest.mark.data
def test_grag_coverage_and_offline_translator_on_a_metaqa_slice(data_dir: Path) -> None:
    from trustuqa_core.evaluate.unioqa_eval import grag_coverage

    cov = grag_coverage(1, "dev", 40, root=data_dir).summary()
    assert cov["answerable"] >= 35 and cov["covered"] == cov["answerable"]
    assert cov["p50_triples"] <= 60 and cov["max_triples"] <= 60
    small = grag_coverage(1, "dev", 40, budget=1, root=data_dir)
    assert max(small.kept) == 1  # the budget caps what is kept
