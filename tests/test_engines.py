"""Choosing a store: engines.open_store / open_files / open_store_file, the CLI's --engine,
--store and import command, and the engine differential on a MetaQA / WikiSQL slice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core import engines
from trustuqa_core.cli import main
from trustuqa_core.duckstore import DuckStore
from trustuqa_core.errors import TrustUQAError
from trustuqa_core.evaluate.datasets import load_metaqa
from trustuqa_core.evaluate.engine_differential import metaqa_engines, wikisql_engines
from trustuqa_core.graph import ConditionGraph
from trustuqa_core.sources import SourceFacts

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
FACTS = [SourceFacts("kg", "kg", ["Dune", "Dune"], ["written_by", "release_year"],
                     ["Frank Herbert", "1965"], [1, 2])]
QUERY = "Query1: \"get_information(relation='written_by', head_entity='Dune')\""


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_each_engine_gives_its_store() -> None:
    assert isinstance(engines.open_store(FACTS, "memory"), ConditionGraph)
    duck = engines.open_store(FACTS, "duckdb")
    assert isinstance(duck, DuckStore) and duck.engine == "duckdb" and duck.n_facts == 2


def test_auto_switches_at_the_threshold(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert engines.open_store(FACTS, "auto").engine == "memory"
    monkeypatch.setattr(engines, "AUTO_THRESHOLD", 1)
    assert engines.open_store(FACTS, "auto").engine == "duckdb"
    kb = tmp_path / "kb.txt"
    kb.write_text("a|r|b\nb|r|c\n")
    assert engines.open_files([kb], "kg", "auto").engine == "duckdb"
    monkeypatch.setattr(engines, "AUTO_THRESHOLD", 10)
    assert engines.open_files([kb], "kg", "auto").engine == "memory"


def test_unknown_engine_and_bad_store_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(TrustUQAError, match="unknown engine 'spark'"):
        engines.open_store(FACTS, "spark")
    with pytest.raises(TrustUQAError, match="unknown engine"):
        engines.open_files([SAMPLES / "movies_kg.txt"], "kg", "sql")
    with pytest.raises(TrustUQAError, match="no DuckDB store"):
        engines.open_store_file(tmp_path / "missing.duckdb")
    junk = tmp_path / "junk.duckdb"
    junk.write_text("not a database")
    with pytest.raises(TrustUQAError, match="not a readable"):
        engines.open_store_file(junk)


def test_open_files_on_duckdb_reads_tables_and_tkgs_too() -> None:
    for name, kind in (("comedy_ranking.csv", "table"), ("cron_tkg.tsv", "tkg")):
        memory = engines.open_files([SAMPLES / name], kind, "memory")
        duck = engines.open_files([SAMPLES / name], kind, "duckdb")
        assert (duck.engine, duck.n_facts, duck.sources) == ("duckdb", memory.n_facts,
                                                            memory.sources)


def test_import_then_query_the_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("Dune|written_by|Frank Herbert\nDune|release_year|1965\n")
    assert main(["import", str(kb), "--kind", "kg", "--name", "dune", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["facts"] == 2 and Path(info["path"]).name == "dune.duckdb"
    assert main(["query", "--store", info["path"], "--query", QUERY, "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)
    assert trace["answer"] == ["Frank Herbert"]
    assert main(["query", "--kg", str(kb), "--engine", "duckdb", "--query", QUERY, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == ["Frank Herbert"]


def test_cli_errors_for_missing_store_and_both_inputs(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["query", "--store", str(tmp_path / "x.duckdb"), "--query", QUERY]) == 2
    assert "no DuckDB store" in capsys.readouterr().err
    kb = tmp_path / "kb.txt"
    kb.write_text("a|r|b\n")
    assert main(["query", "--store", "s.duckdb", "--kg", str(kb), "--query", QUERY]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["import", str(kb), "--name", "../evil"]) == 2


@pytest.mark.data
def test_the_differential_agrees_on_a_slice(data_dir: Path) -> None:
    assert load_metaqa(2, "dev", 1, root=data_dir)
    for report in (metaqa_engines(2, "dev", 30, root=data_dir),
                   wikisql_engines("dev", 30, root=data_dir)):
        assert len(report.rows) >= 25
        assert sum(not r.memory[0].startswith("error") for r in report.rows if r.memory) >= 20
        assert [(r.id, r.memory, r.duckdb) for r in report.rows if not r.agree] == []
