"""The DuckDB build's SQL label path (normal form and number) agrees with
``text.normalize`` / ``numbers.parse_number`` for the labels it takes, and sends the rest
through Python; the native triple reader numbers facts like the loader on odd files."""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pytest

from trustuqa_core.duckstore import open_files, open_sources, store_dir
from trustuqa_core.evaluate.graphs import clear_graph_cache, compare_runs, use_engine
from trustuqa_core.evaluate.runner import build_evaluation, run_evaluation
from trustuqa_core.graph import build_graph
from trustuqa_core.numbers import parse_number
from trustuqa_core.sources import SourceFacts
from trustuqa_core.text import normalize
from trustuqa_core.translate import load_sources

TRICKY = [
    "Rock 'n' Roll", "a\\nb", "A\\Nb", "snake_case_Name", "x.y.z", "`tick`", "Abc  def  ",
    "Abc-def/ghi", "ABC!!", "O'Neil’s", "Zz~{}|", "Tom Hanks 1956", "A1,000", "Ab (c) [d]",
    "007", "0", "123456789012345", "1234567890123456", "1,000", "12%", "$5", " 42", "-3",
    "+7", ".5", "3.25", "Café Crème", "ÉLAN", "a\tb", "x\x1fy", "1st", "12 km", "1e5",
    "Straße", "İstanbul", "n\\n", "'quoted'", "a`b", "__", "A", "z",
]


def _norms(path: Path) -> dict[str, tuple[str | None, float | None]]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return {t: (n, u) for t, n, u in con.sql("SELECT text, norm, num FROM nodes").fetchall()}
    finally:
        con.close()


def test_sql_label_forms_equal_python(tmp_path: Path) -> None:
    heads = [f"h{i}" for i in range(len(TRICKY))]
    src = SourceFacts("kg", "kg", heads, ["r"] * len(TRICKY), TRICKY, list(range(1, len(TRICKY) + 1)))
    store = open_sources([src], cache_dir=tmp_path)
    got = _norms(store.path)
    assert set(TRICKY) <= set(got)
    for label, (norm, num) in got.items():
        assert norm == normalize(label), label
        assert num == parse_number(label), label
    assert store.content_hash() == build_graph([src]).content_hash()


def test_the_check_can_fail(tmp_path: Path) -> None:
    """A wrong SQL form would be seen: lower() alone is not normalize() on these labels."""
    assert any(label.lower() != normalize(label) for label in TRICKY if label[:1].isalpha())


@pytest.mark.parametrize("text", [
    "a|r|b\n\nheader|x|y\nc|r|d|e\n", "head|relation|tail\na|r|b\n|r|x\nb|r|\nc|r|a\n",
    "a\tr\tb\n\n\nb\tr\tc\nc\t \ta\n",
])
def test_native_reader_ids_lines_and_warnings(tmp_path: Path, text: str) -> None:
    path = tmp_path / "kb.txt"
    path.write_text(text)
    duck = open_files([path], "kg", cache_dir=tmp_path)
    mem = build_graph(load_sources(str(path), "kg"))
    assert duck.n_facts == mem.n_facts and duck.n_nodes == mem.n_nodes
    assert [duck.label(i) for i in range(duck.n_nodes)] == [mem.label(i) for i in range(mem.n_nodes)]
    assert duck.sources[0].warnings == mem.sources[0].warnings
    facts = list(range(mem.n_facts))
    assert duck.fact_rows(facts) == mem.fact_rows(facts)


@pytest.mark.parametrize("gaps", [True, False])
def test_native_reader_keeps_file_order_across_row_groups(tmp_path: Path, gaps: bool) -> None:
    """300k lines span several DuckDB row groups and reading threads: fact ids, lines and
    node ids must still follow the file, as the memory store numbers them (a filtered
    parallel scan was seen to put the second batch first). With gaps: blank lines in the
    middle; without: one run of lines after a header."""
    lines = []
    for i in range(300_000):
        head = f"e{(i * 7919) % 50_000}"
        tail = f"v{i % 1_000}" if i % 3 else f" {i}|x"  # some tails take a further pipe
        lines.append(f"{head}|r{i % 13}|{tail}\n" if i % 10_007 or not gaps else "\n")
    lines.insert(0, "head|relation|tail\n")
    path = tmp_path / "big.txt"
    path.write_text("".join(lines))
    duck = open_files([path], "kg", cache_dir=tmp_path)
    mem = build_graph(load_sources(str(path), "kg"))
    assert duck.n_facts == mem.n_facts and duck.content_hash() == mem.content_hash()
    facts = np.arange(mem.n_facts)
    assert duck.heads_of(facts).tolist() == mem.heads_of(facts).tolist()
    assert duck.tails_of(facts).tolist() == mem.tails_of(facts).tolist()
    rows = duck.fact_rows(facts[::997])
    assert rows == mem.fact_rows(facts[::997])


def test_native_reader_numbers_several_files_as_the_loader(tmp_path: Path) -> None:
    """Two files, one with gaps (blank and empty-field lines: sorted by line) and one run of
    lines (numbered from its line numbers): fact and node ids continue across the files."""
    gappy = tmp_path / "a.txt"
    gappy.write_text("x|r|y\n\ny|s|\ny|s|z\n" + "".join(f"n{i}|r|m{i % 7}\n"
                                                          for i in range(2_000)))
    plain = tmp_path / "b.txt"
    plain.write_text("head|relation|tail\n" + "".join(f"m{i % 7}|t|n{i}\n" for i in range(900)))
    duck = open_files([gappy, plain], "kg", cache_dir=tmp_path)
    mem = build_graph(load_sources(str(gappy), "kg") + load_sources(str(plain), "kg"))
    assert duck.n_facts == mem.n_facts == 2_002 + 900
    assert duck.content_hash() == mem.content_hash()
    facts = np.arange(mem.n_facts)
    assert duck.fact_rows(facts) == mem.fact_rows(facts)
    assert [s.warnings for s in duck.sources] == [s.warnings for s in mem.sources]


@pytest.mark.data
@pytest.mark.parametrize("benchmark", ["metaqa-1hop", "wikisql"])
def test_bench_run_on_duckdb_answers_as_memory(benchmark: str, data_dir: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench run --engine duckdb`` on a slice: per question, the same answers as memory."""
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    runs = {}
    try:
        for engine in ("executor", "duckdb"):
            evaluation = build_evaluation(benchmark, "ceiling", engine=engine)
            result = run_evaluation(evaluation, limit=25, out_dir=tmp_path, progress=False,
                                    report=False)
            runs[engine] = {o.id: o for o in result.outcomes}
            assert result.run["mode"] == ("ceiling" if engine == "executor"
                                          else "ceiling-duckdb")
    finally:
        use_engine("memory")
        clear_graph_cache()
    report = compare_runs(runs["executor"], runs["duckdb"])
    assert report["compared"] == 25 and report["disagree"] == []
    assert list(store_dir(tmp_path).glob("*.duckdb"))  # the stores were really built
