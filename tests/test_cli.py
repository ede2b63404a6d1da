"""The command line: query output shapes, exit codes, bench perf figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from trustuqa_core.cli import main

QUERY = (
    "Query1: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
    "Query2: \"get_information(relation='Gold', head_entity='output_of_query1')\""
)


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "medals.csv"
    path.write_text("Rank,Nation,Gold\n1,China,10\n2,Italy,4\n", encoding="utf-8")
    return path


def test_query_json_shape(table, capsys) -> None:
    assert main(["query", "--table", str(table), "--query", QUERY, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["answer"] == ["4"]
    assert [s["call"] for s in out["steps"]] == [
        "get_information(relation='Nation', tail_entity='Italy')",
        "get_information(relation='Gold', head_entity='output_of_query1')",
    ]
    assert out["steps"][1]["output"] == ["4"]
    assert out["steps"][1]["evidence"][0]["source"] == "medals.csv"


def test_query_text_output_and_override(table, capsys) -> None:
    assert (
        main(
            ["query", "--table", str(table), "--query", QUERY, "--override", "Q1.tail_entity=China"]
        )
        == 0
    )
    assert capsys.readouterr().out.strip().endswith("answer: 10")


def test_query_from_file_and_failure_exit_code(table, tmp_path, capsys) -> None:
    bad = tmp_path / "q.txt"
    bad.write_text(
        "Query1: \"get_information(relation='Nation', tail_entity='Italy'", encoding="utf-8"
    )
    assert main(["query", "--table", str(table), "--query", f"@{bad}"]) == 1
    assert "error in parse" in capsys.readouterr().out


def test_bad_source_exit_code(tmp_path, capsys) -> None:
    bad = tmp_path / "kg.tsv"
    bad.write_text("a\tb\n", encoding="utf-8")
    assert main(["query", "--kg", str(bad), "--query", QUERY]) == 2
    assert "kg.tsv, line 1: expected 3 columns" in capsys.readouterr().err


def test_module_entry_point(table) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "trustuqa_core",
            "query",
            "--table",
            str(table),
            "--query",
            QUERY,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["answer"] == ["4"]


@pytest.mark.data
def test_bench_perf_figures_on_kb_partial(data_dir) -> None:
    from trustuqa_core.bench.perf import run_perf

    figures = run_perf(repeat=3, with_dense=False)
    assert figures["facts"] == 129_413
    assert figures["three_hop_answer"] == "English | Norwegian"
    for key in ("build_s", "three_hop_ms", "range_ms"):
        assert figures[key] > 0


def test_ask_offline_with_a_single_query_claims_no_confidence(tmp_path, capsys) -> None:
    table = tmp_path / "staff.csv"
    table.write_text("Name,Salary\nAnn,100\nBob,200\n", encoding="utf-8")
    code = main(["ask", "--table", str(table), "--question", "what is the salary of Bob?",
                 "--writer", "offline"])
    out = capsys.readouterr().out
    assert code == 0 and "writer: offline" in out and "answer: 200" in out
    assert "no vote, no confidence" in out and "confidence 1.00" not in out


@pytest.mark.parametrize("args", [["query", "--query", "@\x00"],
                                  ["ask", "--sql", "x.sqlite", "t", "@a\x00b", "--question", "q"]])
def test_an_at_file_name_with_a_nul_byte_is_a_usage_error(args, capsys) -> None:
    """Found by the command-line fuzz test: ``@`` + NUL was an internal error."""
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "NUL byte" in err and "internal error" not in err


def test_ask_over_one_source_settles_source_unsure(tmp_path, capsys) -> None:
    """Two rosters of one schema: asked over both, the count merges them and the verdict says
    source_unsure; --over answers over the one named, with no such reason."""
    a, b = tmp_path / "roster_2022.csv", tmp_path / "roster_2023.csv"
    a.write_text("Name,Team,Season\nAnn,Reds,2022\nCid,Blues,2022\n", encoding="utf-8")
    b.write_text("Name,Team,Season\nBob,Reds,2023\nDee,Reds,2023\n", encoding="utf-8")
    ask = ["ask", "--table", str(a), "--table", str(b), "--writer", "offline",
           "--question", "how many players do the Reds have?"]
    assert main(ask) == 0
    out = capsys.readouterr().out
    assert "answer: 3" in out and "source_unsure" in out and "verdict: check" in out
    assert main([*ask, "--over", "roster_2023.csv"]) == 0
    out = capsys.readouterr().out
    assert "answer: 2" in out and "source_unsure" not in out


def test_ask_over_one_source_names_it_for_a_value_not_found(tmp_path, capsys) -> None:
    """Asked over one source, a value the other source holds is "not a value of" the source
    asked over, not of "the loaded data" (which holds it)."""
    skiers, films = tmp_path / "skiers.csv", tmp_path / "films.csv"
    skiers.write_text("Skier,Nation,Rank\nAnn Roy,Italy,1\nBo Li,France,2\n", encoding="utf-8")
    films.write_text("Film,Year,Director\nDuck Soup,1933,Leo McCarey\n", encoding="utf-8")
    ask = ["ask", "--table", str(skiers), "--table", str(films), "--writer", "offline",
           "--question", "who directed Ann Roy?", "--over", "films.csv"]
    assert main(ask) == 1
    out = capsys.readouterr().out.splitlines()
    line = next(x for x in out if "unlinked_mention" in x)
    assert "'Ann Roy' is not a value of films.csv (the source you asked over)" in line
    line = next(x for x in out if "- no_query" in x)
    assert "any value of films.csv (the source you asked over)" in line


def test_ask_over_a_source_not_loaded_is_a_usage_error(tmp_path, capsys) -> None:
    table = tmp_path / "staff.csv"
    table.write_text("Name,Salary\nAnn,100\n", encoding="utf-8")
    code = main(["ask", "--table", str(table), "--question", "who?", "--over", "gone.csv"])
    err = capsys.readouterr().err
    assert code == 2 and "--over: no loaded source named 'gone.csv'" in err
    assert "staff.csv" in err
