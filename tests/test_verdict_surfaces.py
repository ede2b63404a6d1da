"""Where the verdict shows: the CLI (text and --json), exports, bench run's summary and
report, and the Ask card's three states (AppTest)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from trustuqa_core import load_graph, run_query
from trustuqa_core.cli import main
from trustuqa_core.evaluate.outcome import Outcome
from trustuqa_core.evaluate.report import render_markdown
from trustuqa_core.evaluate.runner import run_evaluation
from trustuqa_core.export import build_record, to_markdown

SKIERS = ("Name,Nation,Rank\nTina Maze,Slovenia,1\nMarlies Schild,Austria,2\n"
          "Julia Mancuso,United States,3\n")
USA = "Query1: \"get_information(relation='Nation', tail_entity='USA')\""


def _table(tmp_path: Path) -> Path:
    path = tmp_path / "skiers.csv"
    path.write_text(SKIERS, encoding="utf-8")
    return path


def test_cli_query_json_carries_verdict_and_reasons(tmp_path, capsys) -> None:  # noqa: ANN001
    text = ("## Target type: {Name}\n"
            "Query1: \"get_information(relation='Nation')\"")
    code = main(["query", "--table", str(_table(tmp_path)), "--query", text, "--question",
                 "which skiers are from Slovenia?", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verdict"] == "check"
    assert {r["code"] for r in out["reasons"]} >= {"unbound_mention", "no_condition"}
    assert all(set(r) == {"code", "message", "step", "arg"} for r in out["reasons"])


def test_cli_query_text_prints_the_verdict(tmp_path, capsys) -> None:  # noqa: ANN001
    text = ("## Target type: {Name}\n"
            "Query1: \"get_information(relation='Nation', tail_entity='Slovenia')\"")
    main(["query", "--table", str(_table(tmp_path)), "--query", text, "--question",
          "what is the name of the skier from Slovenia?"])
    out = capsys.readouterr().out
    assert "answer: Tina Maze" in out and "verdict: verified" in out


def test_cli_ask_json_and_text(tmp_path, capsys) -> None:  # noqa: ANN001
    table = str(_table(tmp_path))
    # (a country the table lacks: *USA* finds its cell *United States* since stop 20)
    code = main(["ask", "--table", table, "--question", "which skiers are from Japan?",
                 "--writer", "offline", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["verdict"] == "no answer"
    assert any(r["code"] == "unlinked_mention" and r["arg"] == "Japan" for r in out["reasons"])
    main(["ask", "--table", table, "--question", "which skiers are from Japan?",
          "--writer", "offline"])
    text = capsys.readouterr().out
    assert "verdict: no answer" in text and "unlinked_mention [Japan]" in text


def test_exports_carry_the_verdict() -> None:
    g = load_graph(tables=[SKIERS.encode()])
    t = run_query("## Target type: {Name}\n" + USA, g, question="which skiers are from USA?")
    record = build_record(t.to_dict(), question="which skiers are from USA?", sources=[])
    assert record["verdict"] == "check"
    assert record["reasons"][0]["code"] == "weak_mapping"
    md = to_markdown(record)
    assert "**Verdict:** check" in md and "reason `weak_mapping`" in md
    assert "Q1.tail\\_entity" in md


class _Stub:
    """Four questions, one per verdict outcome."""

    benchmark, split, mode, concurrent = "stub", "dev", "replay", False

    def items(self, limit: int | None = None) -> list[tuple[str, object]]:
        rows = [("1", True, "verified", ()), ("2", False, "verified", ()),
                ("3", True, "check", ("weak_mapping",)), ("4", False, "no answer", ())]
        return [(r[0], r) for r in rows][:limit]

    def evaluate(self, item) -> Outcome:  # noqa: ANN001
        key, ok, label, why = item
        return Outcome(key, "stub", "?", ok, "correct" if ok else "wrong", ["a"], ["a"], 0.0,
                       groups={"verdict": label, "half": "tune" if key in "12" else "check"},
                       flags={f"why:{c}": True for c in why})


def test_bench_summary_reports_verdicts_precision_coverage(tmp_path) -> None:  # noqa: ANN001
    result = run_evaluation(_Stub(), out_dir=tmp_path, progress=False)
    s = result.summary
    assert s["verdicts"] == {"verified": {"n": 2, "correct": 1},
                             "check": {"n": 1, "correct": 1}, "none": {"n": 1}}
    assert s["precision_verified"] == 0.5 and s["coverage"] == 0.5
    assert s["wrong_verified"] == 0.25
    assert [p["label"] for p in s["risk_coverage"]] == ["verified", "check <= 1 reason"]
    assert s["by_half"]["tune"]["verdicts"]["verified"]["n"] == 2
    md = render_markdown(s, result.run)
    assert "## Trust verdict" in md and "precision of `verified`: 50.0%" in md
    saved = json.loads(result.paths["json"].read_text(encoding="utf-8"))
    assert saved["summary"]["verdicts"]["none"]["n"] == 1


def test_any_answer_figures_for_metaqa() -> None:
    from trustuqa_core.evaluate.selective import verdict_summary

    def o(key: str, strict: bool, lenient: float, gold: list[str]) -> Outcome:
        return Outcome(key, "metaqa-1hop", "?", strict, "correct" if strict else "wrong",
                       ["a", "b"], gold, 0.0, groups={"verdict": "verified"},
                       scores={"hits1": float(strict), "hits1_any": lenient})

    s = verdict_summary([o("1", True, 1.0, ["a"]), o("2", False, 1.0, ["b"]),
                         o("3", False, 1.0, [])])  # an empty gold never counts as correct
    assert s["precision_verified"] == 1 / 3
    assert s["any_answer"]["precision_verified"] == 2 / 3


# ------------------------------------------------------------------------ the Ask card
def _card(kind: str) -> None:
    import streamlit as st

    from trustuqa_app.views import answer_card
    from trustuqa_core import load_graph
    from trustuqa_core.app_services.runs import execute_text

    g = load_graph(tables=[b"Name,Nation,Rank\nTina Maze,Slovenia,1\n"
                           b"Marlies Schild,Austria,2\nJulia Mancuso,United States,3\n"])
    cases = {
        "verified": ("## Target type: {Name}\n"
                     "Query1: \"get_information(relation='Nation', tail_entity='Slovenia')\"",
                     "what is the name of the skier from Slovenia?"),
        "check": ("## Target type: {Name}\n"
                  "Query1: \"get_information(relation='Nation', tail_entity='USA')\"",
                  "which skiers are from USA?"),
        "none": ("## Target type: {Name}\n"
                 "Query1: \"get_information(relation='Rank', tail_entity>'5')\"",
                 "which skiers ranked below 5?"),
    }
    text, question = cases[kind]
    run = execute_text(text, g, None, origin="hand-written", question=question)
    run.rid = "card"  # the app keeps one Run across reruns; so does this script
    answer_card(run, lambda o: st.session_state.__setitem__("override", o),
                lambda view, step: st.session_state.__setitem__("goto", (view, step)))


def test_card_verified_is_green() -> None:
    at = AppTest.from_function(_card, args=("verified",)).run()
    assert not at.exception
    assert "**Tina Maze**" in at.success[0].value
    assert any("Verified" in c.value for c in at.caption)


def test_card_check_is_amber_with_reasons_and_a_runner_up_button() -> None:
    at = AppTest.from_function(_card, args=("check",)).run()
    assert not at.exception
    assert not at.success
    box = at.warning[0].value
    assert "Check before use" in box and "weak_mapping" in box and "Q1.tail" in box
    button = next(b for b in at.button if "United States" in b.label)
    button.click().run()
    assert at.session_state["override"] == {"Q1.tail_entity": "United States"}
    next(b for b in at.button if b.label == "Open the mappings").click().run()
    assert at.session_state["goto"] == ("Mappings", None)


def test_card_no_answer_is_grey_with_what_to_try() -> None:
    at = AppTest.from_function(_card, args=("none",)).run()
    assert not at.exception
    assert not at.success
    assert any("No answer" in m.value for m in at.markdown)
    assert any("What to try" in c.value for c in at.caption)


def test_ask_page_check_card_links_to_the_mapping(monkeypatch) -> None:  # noqa: ANN001
    """On the Ask page, a hand query with a weak mapping gets an amber card whose link opens
    the Mappings view."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)
    app = str(Path(__file__).resolve().parents[1] / "app.py")
    at = AppTest.from_file(app, default_timeout=60).run()
    at.button(key="tq_sample_slalom").click().run()
    at.switch_page("pages/2_Ask.py").run()
    at.text_area(key="tq_hand").set_value(USA).run()
    at.button(key="tq_hand_go").click().run()
    assert not at.exception
    assert not at.success and "weak_mapping" in at.warning[0].value
    next(b for b in at.button if b.label == "Open the mappings").click().run()
    assert not at.exception
    assert at.button_group(key="tq_view").value == "Mappings"
