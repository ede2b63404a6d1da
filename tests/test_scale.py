"""``bench scale`` (issue #18): generated data, the figures, the CLI; and the memory store's
scale paths give the same answers as before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from trustuqa_core.bench import scale
from trustuqa_core.bench.scale import ScaleArgs, generate_kg, generate_table, measure
from trustuqa_core.cli import main
from trustuqa_core.engines import open_files
from trustuqa_core.graph import build_graph
from trustuqa_core.ops.base import intersect
from trustuqa_core.results import MAX_WITNESSES, Result, Scalar, elem_key
from trustuqa_core.sources import SourceFacts


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    return tmp_path


def test_generated_kg_is_deterministic_reused_and_shaped(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = generate_kg(2000, seed=3, folder=tmp_path / "a")
    b = generate_kg(2000, seed=3, folder=tmp_path / "b")
    assert a.read_text() == b.read_text()
    stamp = a.stat().st_mtime_ns
    assert generate_kg(2000, seed=3, folder=tmp_path / "a") == a and a.stat().st_mtime_ns == stamp
    triples = [line.split("|") for line in a.read_text().splitlines()]
    assert len(triples) == 2000 and all(len(t) == 3 for t in triples)
    rels = {r for _, r, _ in triples}
    assert len(rels) == scale.N_RELATIONS
    heads = {h for h, _, _ in triples}
    assert len(heads) == 400 and all(" " in h for h in heads)
    years = [int(t) for _, r, t in triples if r == "founded_year"]
    assert years and all(1800 <= y < 2025 for y in years)
    assert not list(tmp_path.glob("*/*.tmp*"))  # written through a temporary file


def test_generated_table_has_seven_columns(tmp_path: Path) -> None:
    path = generate_table(50, folder=tmp_path)
    lines = path.read_text().splitlines()
    assert lines[0].split(",") == list(scale.TABLE_COLUMNS) and len(lines) == 51
    assert all(len(x.split(",")) == 7 for x in lines)


def test_measure_reports_every_figure(cache: Path) -> None:
    args = ScaleArgs(facts=3000, repeat=5, table_rows=400)
    kg = measure("kg", args)
    assert kg["facts"] == 3000 and kg["three_hop_questions"] == 5
    for key in ("load_s", "reopen_s", "peak_rss_mb", "three_hop_ms", "range_ms",
                "map_entity_ms", "map_entity_typo_ms"):
        assert kg[key] > 0, key
    table = measure("table", args)
    assert table["table_facts"] == 400 * 8 and table["table_answer"]  # 7 cells + row_number
    assert 0 < table["table_execute_s"] <= table["table_question_s"]


def test_cli_json_memory_and_duckdb(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "scale", "--facts", "2000", "--repeat", "3", "--table-rows", "300",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(scale.FIELDS) <= set(out) and out["engine"] == "memory"
    assert out["facts"] == 2000 and out["table_question_s"] > 0 and out["peak_rss_mb"] > 10
    assert main(["bench", "scale", "--facts", "2000", "--engine", "duckdb", "--no-table",
                 "--repeat", "3", "--json"]) == 0
    duck = json.loads(capsys.readouterr().out)
    assert duck["engine"] == "duckdb" and duck["facts"] == 2000
    assert duck["three_hop_questions"] == out["three_hop_questions"]
    assert duck["reopen_s"] < duck["load_s"]


def test_metaqa_replicated_names_are_suffixed(cache: Path) -> None:
    path = scale.replicate_metaqa(2)
    lines = path.read_text().splitlines()
    half = len(lines) // 2
    h, r, t = lines[half].split("|")
    assert h.endswith(" #1") and lines[0].split("|")[1] == r
    assert not lines[0].split("|")[0].endswith("#0")


# ------------------------------------------------ the memory store's scale paths


def _slow_intersect(parts: list[Result]) -> Result:
    """The old definition: merge everything, then keep the common elements."""
    common = set.intersection(*(p.keys() for p in parts))
    merged = Result(tuple(e for p in parts for e in p.elems),
                    tuple(w for p in parts for w in p.witnesses))
    index: dict[object, int] = {}
    elems: list = []
    wits: list[list[int]] = []
    for e, w in zip(merged.elems, merged.witnesses, strict=True):
        k = elem_key(e)
        if k not in index:
            index[k] = len(elems)
            elems.append(e)
            wits.append(list(w))
        elif len(wits[index[k]]) < MAX_WITNESSES:
            wits[index[k]].extend(x for x in w if x not in wits[index[k]])
    keep = [i for i, e in enumerate(elems) if elem_key(e) in common]
    return Result(tuple(elems[i] for i in keep),
                  tuple(tuple(wits[i][:MAX_WITNESSES]) for i in keep))


@pytest.mark.parametrize("seed", range(6))
def test_intersect_matches_merging_everything(seed: int) -> None:
    rng = random.Random(seed)

    def part() -> Result:
        elems: list = [rng.randrange(30) for _ in range(rng.randrange(1, 40))]
        if seed % 2:
            elems.append(Scalar(float(rng.randrange(5)), "x"))
        wits = [tuple(rng.sample(range(200), rng.randrange(0, 4))) for _ in elems]
        return Result(tuple(elems), tuple(wits))

    parts = [part() for _ in range(rng.randrange(2, 4))]
    assert intersect(parts) == _slow_intersect(parts)


def test_distinct_fast_path_keeps_witness_cap() -> None:
    r = Result((1, 2), (tuple(range(100)), (7,)))
    d = r.distinct()
    assert d.elems == (1, 2) and len(d.witnesses[0]) == MAX_WITNESSES and d.witnesses[1] == (7,)
    assert Result((1, 1), ((3,), (3, 4))).distinct() == Result((1,), ((3, 4),))


def test_store_numbers_and_sources_after_the_rewrite() -> None:
    kg = SourceFacts("kg", "kg", ["a", "b", "c"], ["n", "n", "n"], ["1,000", "x", "1000.0"],
                     [1, 2, 3])
    table = SourceFacts("t", "table", [1, 1, 2], ["City", "Pop", "Pop"], ["Oslo", "7", "12"],
                        [1, 1, 2], n_rows=2, columns=["City", "Pop"])
    g = build_graph([table, kg])
    rel = g.relation("n")
    assert rel is not None
    heads = [g.label(h) for h in g.heads_of(g.facts_rel_cmp(rel, "=", 1000))]
    assert heads == ["a", "c"] and g.numeric_fact_count(rel) == 2
    assert g.numeric(g.entity("1,000")) == 1000.0 and g.numeric(g.entity("x")) is None
    row = g.row_node(0, 1)
    assert row is not None and g.numeric(row) is None and g.is_row(row)
    assert g.entity(g.label(row)) is None  # a row is not an entity
    assert g.facts_of_source(1).tolist() == [3, 4, 5]
    assert g.facts_of_source(0).tolist() == [0, 1, 2]
    assert np.array_equal(g.restrict([1]).facts_of_source(0), np.arange(3))


def test_opened_kg_file_matches_its_lines(cache: Path) -> None:
    path = generate_kg(1000, seed=1)
    g = open_files([path], "kg")
    first = path.read_text().splitlines()[0].split("|")
    f = g.facts_head_rel(g.entity(first[0]), g.relation(first[1]))
    assert first[2] in [g.label(t) for t in g.tails_of(f)]
