"""The DuckDB store against the memory store: every GraphStore / LabelPool call gives the same
answer (ids, labels and order) on the sample data and small hand-made graphs (table rows,
KG, TKG intervals, ``restrict``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from trustuqa_core.duckstore import DuckStore, StoreFileError, open_files, open_sources
from trustuqa_core.graph import ConditionGraph, build_graph
from trustuqa_core.sources import SourceFacts
from trustuqa_core.store import GraphStore
from trustuqa_core.translate import load_sources

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"


def _sources() -> dict[str, list[SourceFacts]]:
    table = SourceFacts("t.csv", "table", [1, 1, 2, 2, 3], ["Name", "Year", "Name", "Year", "Name"],
                        ["Ann", "1,999", "Bob", "2001", "ann"], [1, 1, 2, 2, 3],
                        columns=("Name", "Year"), n_rows=3)
    kg = SourceFacts("kb.txt", "kg", ["Ann", "Bob", "Ann", "Cy"], ["knows", "knows", "born", "born"],
                     ["Bob", "Cy", "1999", "2001.0"], [1, 2, 3, 5])
    tkg = SourceFacts("t.tsv", "tkg", ["Ann", "Bob", "Ann"], ["member", "member", "member"],
                      ["Club A", "Club A", "Club B"], [1, 2, 3], starts=[1990, None, 2001],
                      ends=[1995, 2000, None])
    return {
        "hand": [table, kg, tkg],
        "kg": load_sources(str(SAMPLES / "movies_kg.txt"), "kg"),
        "tkg": load_sources(str(SAMPLES / "cron_tkg.tsv"), "tkg"),
        "tables": [s for f in ("comedy_ranking.csv", "giant_slalom.csv")
                   for s in load_sources(str(SAMPLES / f), "table")],
    }


SOURCES = _sources()


@pytest.fixture(scope="module", params=sorted(SOURCES))
def pair(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
         ) -> tuple[ConditionGraph, DuckStore]:
    sources = SOURCES[request.param]
    return build_graph(sources), open_sources(sources, tmp_path_factory.mktemp("cache"))


def same(a: Any, b: Any) -> None:
    """Equal values, arrays compared element-wise with their order (NaN equal to NaN)."""
    if isinstance(a, tuple) and a and isinstance(a[0], np.ndarray):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
        return
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray)
        if a.dtype.kind == "f":
            np.testing.assert_array_equal(a, b)
        else:
            assert a.tolist() == b.tolist()
        return
    assert a == b


def each(g: GraphStore) -> dict[str, Callable[[GraphStore], Any]]:
    """One probe per API call, over every relation / node / fact of the graph."""
    nodes = np.arange(g.n_nodes, dtype=np.int64)
    facts = np.arange(g.n_facts, dtype=np.int64)
    rels = range(len(g.relation_names))
    shuffled = np.random.default_rng(0).permutation(nodes)
    return {
        "meta": lambda s: (s.sources, s.relation_names, s.is_temporal, s.n_nodes, s.n_facts,
                           s.content_hash()),
        "entity": lambda s: [s.entity(t) for t in [*g.labels(nodes), "nope", "ann"]],
        "relation": lambda s: [s.relation(r) for r in [*g.relation_names, "nope"]],
        "label": lambda s: [s.label(n) for n in nodes],
        "labels": lambda s: s.labels(shuffled),
        "is_row": lambda s: [s.is_row(n) for n in nodes],
        "row_position": lambda s: [s.row_position(n) for n in nodes],
        "row_node": lambda s: [s.row_node(i, r) for i in range(len(g.sources)) for r in (1, 2, 99)],
        "numeric": lambda s: [s.numeric(n) for n in nodes],
        "facts_head_rel": lambda s: [s.facts_head_rel(h, r).tolist() for h in nodes for r in rels],
        "facts_heads_rel": lambda s: [s.facts_heads_rel(shuffled[:7].repeat(2), r).tolist()
                                      for r in rels],
        "facts_rel_tail": lambda s: [s.facts_rel_tail(r, t).tolist() for t in nodes for r in rels],
        "facts_rel_tails": lambda s: [s.facts_rel_tails(r, shuffled).tolist() for r in rels],
        "facts_rel": lambda s: [s.facts_rel(r).tolist() for r in rels],
        "facts_head": lambda s: [s.facts_head(h).tolist() for h in nodes],
        "facts_heads": lambda s: s.facts_heads(shuffled[::-1]).tolist(),
        "facts_tail": lambda s: [s.facts_tail(t).tolist() for t in nodes],
        "facts_rel_cmp": lambda s: [s.facts_rel_cmp(r, c, v).tolist() for r in rels
                                    for c in (">", "<", ">=", "<=", "=") for v in (0, 1999, 2001)],
        "facts_of_source": lambda s: [s.facts_of_source(i).tolist() for i in range(len(g.sources))],
        "numeric_fact_count": lambda s: [s.numeric_fact_count(r) for r in rels],
        "quantity_index": lambda s: [s.quantity_index(r) for r in rels],
        "relation_tails": lambda s: [s.relation_tails(r).tolist() for r in rels],
        "tail_counts": lambda s: [s.tail_counts(r) for r in rels],
        "relations_of_heads": lambda s: s.relations_of_heads(shuffled[:9]).tolist(),
        "relations_of_source": lambda s: [s.relations_of_source(i).tolist()
                                          for i in range(len(g.sources))],
        "relation_nodes": lambda s: [s.relation_nodes(r, side, i).tolist() for r in rels
                                     for side in ("head", "tail")
                                     for i in (None, *range(len(g.sources)))],
        "first_facts_of_rel": lambda s: [s.first_facts_of_rel(r, n, i).tolist() for r in rels
                                         for n in (0, 1, 3)
                                         for i in (None, *range(len(g.sources)))],
        "node_relations": lambda s: [[x.tolist() for x in s.node_relations(shuffled[:k], side)]
                                     for k in (0, 1, 9) for side in ("head", "tail")],
        "heads_of_source": lambda s: [s.heads_of_source(i).tolist() for i in range(len(g.sources))],
        "fact_fields": lambda s: (s.heads_of(facts[::-1]), s.tails_of(facts), s.rels_of(facts),
                                  s.sources_of(facts), *s.intervals_of(facts)),
        "one_fact": lambda s: [(s.head_of(f), s.tail_of(f), s.interval(f), s.provenance(f),
                                s.fact_text(f)) for f in facts],
        "fact_rows": lambda s: s.fact_rows(facts[::-1]),
    }


PROBES = sorted(each(build_graph(SOURCES["hand"])))


@pytest.mark.parametrize("probe", PROBES)
def test_every_api_call_agrees(pair: tuple[ConditionGraph, DuckStore], probe: str) -> None:
    memory, duck = pair
    fn = each(memory)[probe]
    a, b = fn(memory), fn(duck)
    if isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
    else:
        same(a, b)


def test_the_probes_can_fail(pair: tuple[ConditionGraph, DuckStore]) -> None:
    memory, _ = pair
    fn = each(memory)["facts_head"]
    other = build_graph([SourceFacts("x", "kg", ["q"], ["r"], ["z"], [1])])
    with pytest.raises(AssertionError):
        same(np.array(sum(fn(memory), [])), np.array(sum(fn(other), [])))


def pools(g: GraphStore) -> list[Any]:
    return [g.entity_pool()] + [g.value_pool(r) for r in range(len(g.relation_names))]


@pytest.mark.parametrize("call", ["len", "ids", "labels", "exact", "normalized", "containing",
                                  "fuzzy", "numeric_equal", "positions"])
def test_label_pools_agree(pair: tuple[ConditionGraph, DuckStore], call: str) -> None:
    memory, duck = pair
    words = [*memory.labels(memory.entity_pool().ids[:40]), "ann", "1999", "Mel", "club",
             "the", "xx", "brooks mel"]
    for a, b in zip(pools(memory), pools(duck), strict=True):
        if call == "len":
            assert len(a) == len(b)
        elif call == "ids":
            same(a.ids, b.ids)
        elif call == "labels":
            assert a.labels == b.labels
        elif call == "positions":
            same(a.positions(a.ids[::-1]), b.positions(a.ids[::-1]))
        elif call == "numeric_equal":
            for x in (1999, 2001, 0, 1.5):
                assert a.numeric_equal(x) == b.numeric_equal(x)
        else:
            for w in words:
                assert getattr(a, call)(w) == getattr(b, call)(w), w


def test_restrict_agrees(tmp_path: Path) -> None:
    sources = SOURCES["hand"]
    memory, duck = build_graph(sources), open_sources(sources, tmp_path)
    for keep in ([0], [2], [0, 2], [1, 2]):
        m, d = memory.restrict(keep), duck.restrict(keep)
        assert d.engine == "duckdb"
        for probe, fn in each(m).items():
            a, b = fn(m), fn(d)
            if isinstance(a, list):
                for x, y in zip(a, b, strict=True):
                    same(x, y)
            else:
                same(a, b)
            assert probe


def test_restrict_on_a_store_in_a_read_only_folder(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """An operator's store folder may be read-only: the restricted store goes to the cache."""
    sources = SOURCES["hand"]
    duck = open_sources(sources, tmp_path / "ro")
    folder = duck.path.parent
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path / "cache"))
    folder.chmod(0o555)
    try:
        part = duck.restrict([0])
    finally:
        folder.chmod(0o755)
    assert part.path.parent == tmp_path / "cache" / "duckdb"
    assert part.sources == build_graph(sources).restrict([0]).sources


def test_native_triple_reader_matches_the_loader(tmp_path: Path) -> None:
    text = ("head|relation|tail\nA|r|B\n\nB|r|C|with|pipes\nC| |D\n  \nD|s|1,000\nA|s|2\n")
    (tmp_path / "kb.txt").write_text(text)
    (tmp_path / "kb2.tsv").write_text("x\ty\tz\nA\tr\tx\n")
    files = [tmp_path / "kb.txt", tmp_path / "kb2.tsv"]
    memory = build_graph([s for f in files for s in load_sources(str(f), "kg")])
    duck = open_files(files, "kg", cache_dir=tmp_path / "cache")
    assert duck.sources == memory.sources
    for probe, fn in each(memory).items():
        a, b = fn(memory), fn(duck)
        if isinstance(a, list):
            for x, y in zip(a, b, strict=True):
                same(x, y)
        else:
            same(a, b)
        assert probe


def test_reopening_reuses_the_file_and_a_changed_file_rebuilds(tmp_path: Path) -> None:
    kb = tmp_path / "kb.txt"
    kb.write_text("A|r|B\n")
    first = open_files([kb], "kg", cache_dir=tmp_path)
    again = open_files([kb], "kg", cache_dir=tmp_path)
    assert first.path == again.path
    kb.write_text("A|r|C\n")
    changed = open_files([kb], "kg", cache_dir=tmp_path)
    assert changed.path != first.path and changed.labels([1]) == ["C"]
    assert not list(tmp_path.glob("duckdb/*.tmp")), "a temporary file was left behind"


def test_missing_and_corrupt_store_files_say_so(tmp_path: Path) -> None:
    with pytest.raises(StoreFileError, match="no DuckDB store"):
        DuckStore.open(tmp_path / "none.duckdb")
    bad = tmp_path / "bad.duckdb"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreFileError, match="not a readable TrustUQA DuckDB store"):
        DuckStore.open(bad)


def test_a_failed_build_leaves_nothing(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("a|b\n")
    with pytest.raises(Exception, match="column"):
        open_files([tmp_path / "empty.txt"], "kg", cache_dir=tmp_path)
    assert list((tmp_path / "duckdb").glob("*")) == []


def test_labels_of_more_nodes_than_the_cache_holds(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from trustuqa_core.duckstore import store as store_module

    facts = SourceFacts("kg", "kg", [f"h{i}" for i in range(6)], ["r"] * 6,
                        [f"t{i}" for i in range(6)], list(range(1, 7)))
    memory = build_graph([facts])
    duck = DuckStore.build([facts], cache_dir=tmp_path)
    monkeypatch.setattr(store_module, "_LABEL_CACHE", 2)
    nodes = memory.heads_of(memory.facts_of_source(0)).tolist() + \
        memory.tails_of(memory.facts_of_source(0)).tolist()
    assert duck.labels(nodes) == memory.labels(nodes)  # 12 labels through a cache of 2
    assert duck.labels(nodes[::-1]) == memory.labels(nodes[::-1])
