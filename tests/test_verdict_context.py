"""The context features of the calibrated verdict (table size, question length, cue kinds,
query shape), each computed from a trace built here, and the per-band threshold of
:class:`Thresholds`."""

from __future__ import annotations

import dataclasses
import math

from trustuqa_core import load_graph, run_query
from trustuqa_core.verdict import THRESHOLDS, judge
from trustuqa_core.verdict import decide as verdict_module
from trustuqa_core.verdict.calibration import NUMERIC, Model, features, load_models
from trustuqa_core.verdict.context import (
    CONTEXT,
    context_features,
    cue_kinds,
    shape,
    table_size,
)

SMALL = b"Nation,Gold\nItaly,4\nSpain,0\n"
#: 30 rows, 4 columns
LARGE = b"Nation,Gold,Silver,Rank\n" + b"".join(
    f"Land{i},{i % 7},{i % 5},{i + 1}\n".encode() for i in range(30))
GOLD_4 = "Query1: \"get_information(relation='Gold', tail_entity='4')\""
MAX_GOLD = "Query1: \"get_information(relation='Gold')\"\nQuery2: \"max(set1='output_of_query1')\""


def test_rows_and_columns_are_the_table_the_answer_read() -> None:
    small = run_query(GOLD_4, load_graph(tables=[SMALL]), question="who won 4 gold?")
    large = run_query(GOLD_4, load_graph(tables=[LARGE]), question="who won 4 gold?")
    assert table_size(small) == (2, 2) and table_size(large) == (30, 4)
    xs, xl = context_features(small), context_features(large)
    assert xs["rows"] == round(math.log1p(2), 4) and xl["rows"] == round(math.log1p(30), 4)
    assert xs["columns"] == round(math.log1p(2), 4) and xl["columns"] == round(math.log1p(4), 4)


def test_two_tables_take_the_one_the_run_read() -> None:
    g = load_graph(tables=[SMALL, b"City,Mayor\n" + b"".join(
        f"C{i},M{i}\n".encode() for i in range(12))])
    t = run_query(GOLD_4, g, question="who won 4 gold?")
    assert t.routing is not None and len(t.routing.used) == 1
    assert table_size(t) == (2, 2)  # not the larger table of mayors it never read


def test_question_words_count_every_word() -> None:
    t = run_query(GOLD_4, load_graph(tables=[SMALL]))
    short = context_features(t, "who won 4 gold?")["words"]
    long = context_features(t, "which nation of the games won exactly 4 gold medals?")["words"]
    assert short == round(math.log1p(4), 4) and long == round(math.log1p(10), 4)


def test_cue_kinds_are_counted_once_each() -> None:
    assert cue_kinds("who won the most gold?") == ["superlative"]
    assert cue_kinds("who won the most gold and the most silver?") == ["superlative"]
    assert cue_kinds("how many nations won more than 3 gold before 1990?") == [
        "comparison", "count", "order"]
    assert cue_kinds("what is the average gold of nations with the highest rank?") == [
        "superlative", "total"]
    t = run_query(GOLD_4, load_graph(tables=[SMALL]))
    assert context_features(t, "who is the coach?").get("cue_kinds") is None
    assert context_features(t, "how many won more than 3 gold?")["cue_kinds"] == 2.0


def test_query_shape_is_read_from_the_program() -> None:
    g = load_graph(tables=[LARGE])
    lookup = run_query(GOLD_4, g, question="who won 4 gold?")
    top = run_query(MAX_GOLD, g, question="what is the most gold?")
    count = run_query("Query1: \"get_information(relation='Gold', tail_entity='4')\"\n"
                      "Query2: \"count(set1='output_of_query1')\"", g,
                      question="how many won 4 gold?")
    assert (shape(lookup.program), shape(top.program), shape(count.program)) == (
        "lookup", "superlative", "count")
    assert not any(k.startswith("shape:") for k in context_features(lookup))
    assert context_features(top)["shape:superlative"] == 1.0
    assert context_features(count)["shape:count"] == 1.0


def test_the_calibration_features_include_the_context_and_name_them() -> None:
    t = run_query(MAX_GOLD, load_graph(tables=[LARGE]), question="what is the most gold?")
    x = features(t, judge(t, t.question).reasons)
    assert x["rows"] == round(math.log1p(30), 4) and x["shape:superlative"] == 1.0
    assert set(CONTEXT) <= set(NUMERIC)


def test_the_packaged_weights_load_and_name_only_computed_features() -> None:
    models = load_models()
    assert set(models) == {"offline", "llm"}
    for m in models.values():
        assert all(n.startswith("code:") or n in NUMERIC for n in m.weights)


def test_a_band_threshold_is_read_from_thresholds(monkeypatch) -> None:  # noqa: ANN001
    # a toy model whose estimate is 0.8 whatever the answer: a band at 0.75 for tables of
    # at most 5 rows verifies the small table's answer; the larger table needs 0.85
    monkeypatch.setattr(verdict_module, "model_for",
                        lambda writer: Model("offline", math.log(4.0), {}, 0.5))
    th = dataclasses.replace(THRESHOLDS, min_estimate=0.85, estimate_bands=((5, 0.75),))
    query = "## Target type: {Nation}\n" + GOLD_4
    small = run_query(query, load_graph(tables=[SMALL]), question="which nation won 4 gold?")
    large = run_query(query, load_graph(tables=[LARGE]), question="which nation won 4 gold?")
    assert judge(small, small.question, thresholds=th).label == "verified"
    v = judge(large, large.question, thresholds=th)
    assert v.label == "check" and "low_estimate" in v.blocking
    assert th.needed("offline", 2) == 0.75 and th.needed("offline", 30) == 0.85
    assert th.needed("llm", 2) == THRESHOLDS.min_estimate_llm
    assert THRESHOLDS.needed("offline", 2) == next(
        (t for most, t in THRESHOLDS.estimate_bands if most >= 2), THRESHOLDS.min_estimate)


def test_context_features_are_computed_only_for_a_model_that_weighs_them() -> None:
    t = run_query(GOLD_4, load_graph(tables=[SMALL]))
    assert "rows" in features(t, [], question="who won 4 gold?")
    assert "rows" not in features(t, [], question="who won 4 gold?", context=False)
    assert not any(m.weighs_context for m in load_models().values())  # packaged: none
    assert Model("offline", 1.0, {"rows": -0.1}, 0.5).weighs_context
    assert not Model("offline", 1.0, {"code:count_of_one": -1.0}, 0.5).weighs_context
