"""The calibrated verdict (stop 16): hard reasons block alone, soft ones are combined into an
estimate fitted on tune halves; the packaged weights load, the estimate only falls with more
doubt, and the fit script recovers an obvious weight from a tiny synthetic cache."""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import sys
from pathlib import Path

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.verdict import REASON_CODES, THRESHOLDS, judge
from trustuqa_core.verdict import decide as verdict_module
from trustuqa_core.verdict.calibration import (
    NUMERIC,
    WEIGHTS_FILE,
    Model,
    features,
    load_models,
    model_for,
    nonpositive,
)

MEDALS = b"Nation,Gold,Total\nItaly,4,10\nSpain,0,3\nAustria,2,5\n"
SKIERS = (b"Name,Nation,Rank\nTina Maze,Slovenia,1\nMarlies Schild,Austria,2\n"
          b"Julia Mancuso,United States,3\n")
GOLD_4 = "## Target type: {Nation}\nQuery1: \"get_information(relation='Gold', tail_entity='4')\""
#: a toy model: one unexplained word passes, three (or a count of one row) do not
TOY = Model("offline", 3.0, {"code:unexplained_words": -0.5, "unexplained": -0.6,
                             "code:count_of_one": -2.5}, 0.5)


def _script():  # noqa: ANN202
    path = Path(__file__).resolve().parents[1] / "scripts" / "verdict_calibrate.py"
    spec = importlib.util.spec_from_file_location("verdict_calibrate", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["verdict_calibrate"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def medals():  # noqa: ANN201
    return load_graph(tables=[MEDALS])


@pytest.fixture
def toy(monkeypatch):  # noqa: ANN001, ANN201
    monkeypatch.setattr(verdict_module, "model_for", lambda writer: TOY)
    return dataclasses.replace(THRESHOLDS, min_estimate=0.75, estimate_bands=())


# ------------------------------------------------------------------------ the packaged weights
def test_weights_load_for_both_writers_with_provenance() -> None:
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    assert data["provenance"]["halves"] == ["tune"] and data["provenance"]["inputs"]
    models = load_models()
    assert set(models) == {"offline", "llm"}
    assert model_for(None) == models["offline"] and model_for("llm") == models["llm"]
    for kind, m in models.items():
        assert m.soft_codes and not m.soft_codes & THRESHOLDS.hard
        if kind == "llm":
            assert m.threshold == THRESHOLDS.min_estimate_llm  # the fit's choice
        else:  # stop 21: the bands by table size only raise the fit's threshold
            needs = [t for _, t in THRESHOLDS.estimate_bands] + [THRESHOLDS.min_estimate]
            assert len(needs) > 1 and min(needs) >= m.threshold
    assert "low_estimate" in REASON_CODES


def test_the_packaged_weights_name_only_features_the_code_computes() -> None:
    # a weight on a feature that features() never returns (a candidate measured and not
    # adopted, a renamed code) would silently weigh nothing
    for m in load_models().values():
        for name in m.weights:
            if name.startswith("code:"):
                assert name[5:] in REASON_CODES, name
            else:
                assert name in NUMERIC, name
        assert all(m.weights[n] <= 0 for n in m.weights if nonpositive(n))


def test_the_estimate_only_falls_with_more_doubt() -> None:
    for m in load_models().values():
        doubts = [n for n in m.weights if nonpositive(n)]
        assert doubts and all(m.weights[n] <= 0 for n in doubts)
        base = {"answers": 0.7, "aggregate": 1.0}
        for a, b in itertools.combinations(doubts, 2):
            one = {**base, a: 1.0}
            assert m.estimate({**one, b: 1.0}) <= m.estimate(one) <= m.estimate(base)
        for k in range(5):
            assert m.estimate({"unexplained": k + 1.0}) <= m.estimate({"unexplained": float(k)})


def test_a_clean_answer_passes_the_packaged_estimate(medals) -> None:  # noqa: ANN001
    t = run_query(GOLD_4, medals, question="which nation won 4 gold?")
    assert judge(t, t.question).label == "verified"
    assert judge(t, t.question, writer="llm").label == "verified"


# ------------------------------------------------------------------------ hard and soft paths
def test_a_hard_reason_blocks_whatever_the_estimate(toy) -> None:  # noqa: ANN001
    g = load_graph(tables=[SKIERS])
    t = run_query("Query1: \"get_information(relation='Nation', tail_entity='USA')\"", g,
                  question="which skiers are from USA?")
    v = judge(t, t.question, thresholds=dataclasses.replace(toy, min_estimate=0.0))
    assert v.label == "check" and "weak_mapping" in v.blocking
    assert "low_estimate" not in v.codes


def test_one_soft_reason_alone_passes(medals, toy) -> None:  # noqa: ANN001
    t = run_query(GOLD_4, medals, question="which nation with 4 gold has snowy peaks?")
    rules = judge(t, t.question, thresholds=dataclasses.replace(toy, calibrated=False))
    assert rules.label == "check" and "unexplained_words" in rules.blocking  # 2 words
    v = judge(t, t.question, thresholds=toy)
    assert v.label == "verified" and "unexplained_words" in v.codes
    assert "low_estimate" not in v.codes


def test_several_soft_reasons_block_with_one_reason_that_says_why(medals, toy) -> None:  # noqa: ANN001
    t = run_query(GOLD_4, medals, question="which nation with 4 gold has snowy mountain peaks "
                  "and rivers?")
    v = judge(t, t.question, thresholds=toy)
    assert v.label == "check" and v.blocking[:2] == ("low_estimate", "unexplained_words")
    low = next(r for r in v.reasons if r.code == "low_estimate")
    assert "'snowy'" in low.message and "right about" in low.message and "75%" in low.message
    assert "rivers" in (low.arg or "")  # points at what lowered it most
    assert "unexplained_words" in v.codes  # every individual reason is still listed


def test_the_estimate_falls_with_each_unexplained_word(medals) -> None:  # noqa: ANN001
    est = []
    for extra in ("", " snowy", " snowy peaks", " snowy peaks rivers"):
        t = run_query(GOLD_4, medals, question=f"which nation won 4 gold{extra}?")
        est.append(TOY.estimate(features(t, judge(t, t.question).reasons)))
    assert est == sorted(est, reverse=True) and est[0] > est[-1]


def test_no_model_keeps_the_rules(medals, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(verdict_module, "model_for", lambda writer: None)
    t = run_query(GOLD_4, medals, question="which nation with 4 gold has snowy peaks?")
    assert judge(t, t.question).blocking == ("unexplained_words",)


def test_features_are_label_free_and_named(medals) -> None:  # noqa: ANN001
    t = run_query("Query1: \"get_information(relation='Gold')\"\n"
                  "Query2: \"max(set1='output_of_query1')\"", medals, question="most gold?")
    x = features(t, judge(t, t.question).reasons)
    assert x["no_condition"] == 1.0 and x["aggregate"] == 1.0
    assert {k for k in x if not k.startswith("code:")} <= set(NUMERIC)


# ------------------------------------------------------------------------ the fit script
def _row(i: int, half: str, right: bool, codes: list[str], blocking: list[str]) -> dict:
    return {"id": str(i), "category": "correct" if right else "wrong", "correct": right,
            "groups": {"half": half, "verdict": "check" if blocking else "verified"},
            "flags": {}, "scores": {}, "writer_kind": "offline", "blocking": blocking,
            "calib": {f"code:{c}": 1.0 for c in codes}}


def test_the_fit_recovers_an_obvious_weight_from_tune_rows_only(tmp_path) -> None:  # noqa: ANN001
    rows = []
    for i in range(400):  # 'bad' answers 10% right, 'meh' ones as right as the rest
        bad, meh = i % 4 == 0, i % 4 == 1
        right = (i % 10 == 0) if bad else (i % 25 != 0)
        codes = ["bad"] * bad + ["meh"] * meh
        rows.append(_row(i, "tune", right, codes, codes))
    rows += [_row(1000 + i, "tune", False, ["weak_mapping"], ["weak_mapping"])
             for i in range(40)]  # a hard code: never weighed
    check = [_row(2000 + i, "check", True, ["bad"], ["bad"]) for i in range(300)]
    path = tmp_path / "synthetic.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows + check), encoding="utf-8")
    cal = _script()
    data = cal.read(path)
    m = cal.fit(data, "offline", l2=1.0, min_support=20, precision=0.9, max_wrong=0.05)
    assert m.weights["code:bad"] < -2 and abs(m.weights["code:meh"]) < 0.5
    assert "code:weak_mapping" not in m.weights and m.tune["answers"] == 400
    only_tune = cal.fit([r for r in data if r["groups"]["half"] == "tune"], "offline", l2=1.0,
                        min_support=20, precision=0.9, max_wrong=0.05)
    assert only_tune == m  # the check half changes nothing
    assert m.estimate({"code:bad": 1.0}) < m.threshold <= m.estimate({"code:meh": 1.0})


def test_precision_at_equal_coverage_ranks_by_the_estimate() -> None:
    cal = _script()
    rows = [_row(0, "tune", True, [], []), _row(1, "tune", True, [], []),
            _row(2, "tune", False, ["a"], ["a"]), _row(3, "tune", True, ["a"], ["a"]),
            _row(4, "tune", False, ["weak_mapping"], ["weak_mapping"])]  # hard: never verified
    model = Model("offline", 2.0, {"code:a": -3.0}, 0.5)
    assert cal.precision_at(rows, model, 60) == 100.0  # the two clean answers first
    assert cal.precision_at(rows, model, 100) == 75.0  # then the doubtful pair
    assert cal.precision_at(rows, None, 50) is None
    weaker = Model("offline", 2.0, {"code:a": -0.1}, 0.5)  # a wrong answer still ranks last
    assert cal.precision_at(rows, weaker, 100) == 75.0
