"""The WikiSQL gold audit: the gold SQL re-executed with numbers compared by value."""

from __future__ import annotations

from pathlib import Path

from trustuqa_core.evaluate.datasets import Example, Source
from trustuqa_core.evaluate.wikisql_audit import audit_figures, typed_gold, typed_match
from trustuqa_core.evaluate.wikisql_gold import wikisql_match


def _example(tmp_path: Path, sql: dict[str, object], raw: list[object]) -> Example:
    table = tmp_path / "t.csv"
    table.write_text("Home team,Crowd\nCarlton,19475\nGeelong,30000\nEssendon,9000\n",
                     encoding="utf-8")
    return Example("dev-1", "wikisql", "dev", "q", tuple(str(a) for a in raw),
                   (Source(table, "table"),), {"sql": sql, "raw_answers": raw})


def test_text_compared_gold_is_not_the_typed_answer(tmp_path: Path) -> None:
    # crowd > '24,000' compared as text in WikiSQL's database keeps 19,475 (the gold below)
    sql = {"sel": 0, "agg": 0, "conds": [[1, 1, "24,000"]]}
    e = _example(tmp_path, sql, ["carlton", "geelong"])
    typed = typed_gold(e)
    assert typed == ["Geelong"]
    assert typed_match(["Geelong"], typed)
    assert not wikisql_match(["Geelong"], e.metadata["raw_answers"])  # type: ignore[arg-type]
    assert not typed_match(["Carlton", "Geelong"], typed)


def test_aggregate_typed(tmp_path: Path) -> None:
    sql = {"sel": 1, "agg": 5, "conds": [[0, 0, "geelong"]]}  # AVG(crowd) where team = geelong
    typed = typed_gold(_example(tmp_path, sql, [30.0]))
    assert typed is not None and typed_match(["30000"], typed) and not typed_match(["30"], typed)


def test_figures_keep_both_references() -> None:
    rows = [{"correct": False, "typed_correct": True, "groups": {"verdict": "verified"}},
            {"correct": False, "typed_correct": False, "groups": {"verdict": "verified"}},
            {"correct": True, "typed_correct": True, "groups": {"verdict": "verified"}},
            {"correct": True, "typed_correct": False, "groups": {"verdict": "check"}}]
    f = audit_figures(rows)
    assert (f.n, f.verified, f.right_official, f.right_typed, f.artefacts) == (4, 3, 1, 2, 1)
    assert "official: precision 33.33%" in f.text()
    assert "typed re-execution: precision 66.67%" in f.text()
