"""Hostile input on the reading side (issue #9, items 4, 7, 10-13): bombs, huge or deep files,
mapping cost, broken headers, bad command lines. Each test reproduces one reported failure."""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import openpyxl
import pytest

from trustuqa_core import build_graph, load_source
from trustuqa_core.answer import default_pool
from trustuqa_core.app_services.data import Upload, load_all
from trustuqa_core.errors import LimitError, SourceError, SourceLimitError
from trustuqa_core.export import ExportError, load_record
from trustuqa_core.limits import current_limits, env_name
from trustuqa_core.mapping import HashingEncoder, Mapper
from trustuqa_core.query import parse
from trustuqa_core.translate.cells import unique_header
from trustuqa_core.translate.table import read_table

SetLimits = Callable[..., None]


@pytest.fixture
def set_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[SetLimits]:
    """Lower limits through their TRUSTUQA_LIMIT_* variables, as an operator would."""

    def apply(**values: int) -> None:
        for field, value in values.items():
            monkeypatch.setenv(env_name(field), str(value))
        current_limits.cache_clear()

    yield apply
    current_limits.cache_clear()


def _sheet_xml(rows: int, cols: int = 5) -> bytes:
    """Rows of constant numbers without cell references (both are optional in the format)."""
    return _sheet(("<row>" + "<c><v>7</v></c>" * cols + "</row>") * rows)


def _sheet(body: str, head: str = "") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f"{head}<sheetData>{body}</sheetData></worksheet>"
    ).encode()


def _xlsx(rows: int, sheet: bytes | None = None) -> bytes:
    """A real workbook whose first sheet holds ``rows`` rows x 5 numbers (highly compressible),
    or the given sheet XML."""
    wb = openpyxl.Workbook()
    wb.active.append([1, 2, 3, 4, 5])
    small = io.BytesIO()
    wb.save(small)
    out = io.BytesIO()
    with zipfile.ZipFile(small) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = sheet or _sheet_xml(rows)
            zout.writestr(item.filename, data)
    return out.getvalue()


# ------------------------------------------------------------------ item 4: bombs and sizes
def test_xlsx_zip_bomb_is_refused_before_parsing(set_limits, monkeypatch) -> None:
    bomb = _xlsx(40_000)
    unzipped = sum(i.file_size for i in zipfile.ZipFile(io.BytesIO(bomb)).infolist())
    assert len(bomb) < 100_000 < 3_000_000 < unzipped  # a small file that inflates a lot
    set_limits(unzipped_bytes=1_000_000)

    def parse_called(*_a: object, **_k: object) -> None:
        raise AssertionError("the workbook was parsed before its size was checked")

    monkeypatch.setattr(openpyxl, "load_workbook", parse_called)
    with pytest.raises(SourceLimitError) as info:
        load_source(bomb, "table", name="bomb.xlsx")
    message = str(info.value)
    assert message.startswith("bomb.xlsx: ")
    assert "TRUSTUQA_LIMIT_UNZIPPED_BYTES" in message and "1.0 MB" in message


def test_xlsx_rows_are_capped_while_reading(set_limits) -> None:
    set_limits(table_rows=100)
    assert load_source(_xlsx(101), "table", name="ok.xlsx").n_rows == 100  # header + 100 rows
    with pytest.raises(SourceLimitError, match="TRUSTUQA_LIMIT_TABLE_ROWS") as info:
        load_source(_xlsx(300), "table", name="rows.xlsx")
    assert info.value.source == "rows.xlsx"


def test_xlsx_row_bomb_within_the_unzipped_limit_is_refused_before_parsing(
        set_limits, monkeypatch) -> None:
    bomb = _xlsx(50_000)  # ~4 MB of sheet XML: within the unzipped limit
    set_limits(table_rows=10_000)

    def parse_called(*_a: object, **_k: object) -> None:
        raise AssertionError("the workbook was opened before its rows were counted")

    # opening a workbook already parses a sheet that declares no dimension (as this one)
    monkeypatch.setattr(openpyxl, "load_workbook", parse_called)
    with pytest.raises(SourceLimitError, match="sheet1.xml holds 50,000 rows"):
        load_source(bomb, "table", name="rows.xlsx")
    set_limits(table_rows=100_000, facts=100_000)  # 50,000 rows x 5 cells + row numbers
    with pytest.raises(SourceLimitError, match="250,000 cells in 50,000 rows"):
        load_source(bomb, "table", name="cells.xlsx")


def test_sheet_counts_are_exact_across_chunk_boundaries() -> None:
    from trustuqa_core.translate.xlsx import count_sheet

    parts = []
    for i in range(60_000):  # ~3 MB: several 1 MB chunks, tags of varying length and offset
        p = "x:" if i % 3 == 0 else ""
        formula = f"<{p}c><f>A{i}</f></{p}c>" * (i % 2)
        parts.append(f'<{p}row r="{i}"><{p}c r="A{i}"><{p}v>{"9" * (i % 7)}</{p}v></{p}c>'
                     f"{formula}</{p}row>")
    xml = "".join(parts).encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("sheet.xml", xml)
    counts = count_sheet(zipfile.ZipFile(buf), "sheet.xml")
    assert len(xml) > 3_000_000
    assert (counts.rows, counts.cells, counts.formulas) == (60_000, 90_000, 30_000)


def test_formula_free_workbook_is_parsed_once(monkeypatch) -> None:
    calls: list[bool] = []
    real = openpyxl.load_workbook

    def counting(*a: object, **k: object):  # noqa: ANN202
        calls.append(bool(k.get("data_only")))
        return real(*a, **k)

    monkeypatch.setattr(openpyxl, "load_workbook", counting)
    assert load_source(_xlsx(20), "table", name="plain.xlsx").n_rows == 19
    assert calls == [True]


@pytest.mark.timeout(60)
def test_xlsx_declared_dimension_is_not_trusted(set_limits) -> None:
    # 2 kB claiming 1,048,576 rows x 16,384 columns: padding rows to it never ends
    sheet = _sheet('<row r="1"><c r="A1"><v>1</v></c></row>'
                   '<row r="1048576"><c r="XFD1048576"><v>2</v></c></row>',
                   '<dimension ref="A1:XFD1048576"/>')
    set_limits(table_rows=1000)
    with pytest.raises(SourceLimitError, match="more than 1,000 rows"):
        load_source(_xlsx(0, sheet), "table", name="dim.xlsx")


@pytest.mark.timeout(60)
def test_xlsx_wide_rows_are_bounded(set_limits) -> None:
    rows = "".join(f'<row r="{i}"><c r="A{i}"><v>1</v></c><c r="XFD{i}"><v>2</v></c></row>'
                   for i in range(1, 51))
    sheet = _sheet(rows)
    set_limits(facts=100_000)
    with pytest.raises(SourceLimitError, match="cells.*TRUSTUQA_LIMIT_FACTS"):
        load_source(_xlsx(0, sheet), "table", name="wide.xlsx")


@pytest.mark.parametrize(("body", "problem"), [
    ('<row><c t="s"><v>99</v></c></row>', "IndexError"),  # a shared string that does not exist
    ('<row><c t="d"><v>notadate</v></c></row>', "datetime"),
    ("<row><c><v>abc</v></c></row>", "ValueError"),
    ('<row><c r="ZZZZZ1"><v>1</v></c></row>', "column name"),
])
def test_malformed_sheet_is_a_source_error(body: str, problem: str) -> None:
    with pytest.raises(SourceError, match="the first sheet cannot be read") as info:
        load_source(_xlsx(0, _sheet(body)), "table", name="m.xlsx")
    assert info.value.source == "m.xlsx" and problem in str(info.value)


def test_damaged_xlsx_zip_is_a_source_error() -> None:
    good = _xlsx(3)
    with pytest.raises(SourceError, match="not a readable .xlsx"):
        load_source(good[: len(good) // 2], "table", name="cut.xlsx")


def test_gzip_bomb_is_cut_at_the_unzipped_limit(set_limits) -> None:
    bomb = gzip.compress(b"A\tr\tB\n" * 500_000)  # 3 MB of triples in ~10 kB
    assert len(load_source(bomb, "kg", name="kb.gz")) == 500_000  # default limits: fine
    set_limits(unzipped_bytes=1_000_000)
    with pytest.raises(SourceLimitError) as info:
        load_source(bomb, "kg", name="kb.gz")
    assert info.value.source == "kb.gz"
    assert "TRUSTUQA_LIMIT_UNZIPPED_BYTES" in str(info.value)


def test_file_size_limit_comes_from_the_limits(set_limits, tmp_path) -> None:
    path = tmp_path / "big.tsv"
    path.write_bytes(b"A\tr\tB\n" * 1000)
    set_limits(upload_bytes=1000)
    with pytest.raises(SourceLimitError, match="TRUSTUQA_LIMIT_UPLOAD_BYTES"):
        load_source(path, "kg")


@pytest.mark.parametrize("data", [b"Name,Year\n" + b"Ann,1999\n" * 300,
                                  b"Name\tYear\n" + b"Ann\t1999\n" * 300,
                                  b'[{"Name": "Ann"}' + b', {"Name": "Bob"}' * 300 + b"]"])
def test_table_rows_are_capped(set_limits, data: bytes) -> None:
    name = "t.json" if data.startswith(b"[") else "t.csv"
    assert load_source(data, "table", name=name).n_rows > 100
    set_limits(table_rows=100)
    with pytest.raises(SourceLimitError, match="more than 100 rows.*TRUSTUQA_LIMIT_TABLE_ROWS"):
        load_source(data, "table", name=name)


@pytest.mark.parametrize(("kind", "line"), [("kg", "A\tr\tB{}\n"), ("tkg", "A\tr\tB{}\t1990\t1991\n"),
                                            ("kg", "A|r|B{}\n"), ("kg", '"A, {}",r,B\n')])
def test_facts_are_capped_per_source(set_limits, kind: str, line: str) -> None:
    data = "".join(line.replace("{}", str(i)) for i in range(300)).encode()
    assert len(load_source(data, kind, name="f.tsv")) == 300
    set_limits(facts=100)
    with pytest.raises(SourceLimitError, match="more than 100 facts.*TRUSTUQA_LIMIT_FACTS"):
        load_source(data, kind, name="f.tsv")


@pytest.mark.timeout(20)
def test_wide_json_records_load_in_linear_time(set_limits) -> None:
    import json

    record = {f"k{i}": i for i in range(20_000)}  # the old reader scanned every key per cell
    facts = load_source(json.dumps([record, record]).encode(), "table", name="wide.json")
    assert facts.n_rows == 2 and len(facts.columns) == 20_000
    set_limits(facts=30_000)  # 2 records x 20,000 columns = 40,000 cells
    with pytest.raises(SourceLimitError, match="40,000 cells.*TRUSTUQA_LIMIT_FACTS"):
        load_source(json.dumps([record, record]).encode(), "table", name="wide.json")


def test_table_facts_are_capped(set_limits) -> None:
    data = b"A,B,C\n" + b"1,2,3\n" * 50  # 50 rows x (3 cells + row_number) = 200 facts
    assert len(load_source(data, "table", name="t.csv")) == 200
    set_limits(facts=100)
    with pytest.raises(SourceLimitError, match="TRUSTUQA_LIMIT_FACTS"):
        load_source(data, "table", name="t.csv")


def test_graph_facts_are_capped_over_all_sources(set_limits) -> None:
    kg = b"".join(f"A\tr\tB{i}\n".encode() for i in range(80))
    set_limits(facts=100)
    one = load_source(kg, "kg", name="one.tsv")
    two = load_source(kg, "kg", name="two.tsv")
    assert build_graph([one]).n_facts == 80
    with pytest.raises(LimitError, match="160 facts.*TRUSTUQA_LIMIT_FACTS"):
        build_graph([one, two])


def test_upload_limit_comes_from_the_limits_and_spares_the_other_files(set_limits) -> None:
    set_limits(upload_bytes=1000)
    report = load_all([Upload("big.csv", "table", b"a,b\n" + b"1,2\n" * 500),
                       Upload("good.csv", "table", b"Name\nAnn\n")])
    assert [f.name for f in report.facts] == ["good.csv"]
    assert len(report.errors) == 1
    assert str(report.errors[0]).startswith("big.csv: ")
    assert "TRUSTUQA_LIMIT_UPLOAD_BYTES" in str(report.errors[0])


def test_batch_over_the_facts_limit_keeps_the_files_that_fit(set_limits) -> None:
    kg = b"".join(f"A\tr\tB{i}\n".encode() for i in range(80))
    set_limits(facts=100)
    report = load_all([Upload("one.tsv", "kg", kg), Upload("two.tsv", "kg", kg),
                       Upload("small.tsv", "kg", b"X\tr\tY\n")])
    assert [f.name for f in report.facts] == ["one.tsv", "small.tsv"]
    assert report.graph.n_facts == 81
    assert [e.source for e in report.errors] == ["two.tsv"]
    assert "TRUSTUQA_LIMIT_FACTS" in str(report.errors[0])


# ------------------------------------------------------------- item 7: the dense stage's cost
class CountingEncoder:
    """A hashing encoder that records how many texts each call embeds."""

    name = "counting-hash"

    def __init__(self) -> None:
        self.calls: list[int] = []
        self._inner = HashingEncoder(dim=64)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return self._inner.encode(texts)


def _big_table(rows: int) -> bytes:
    lines = ["Name,Score"] + [f"person {i},{i % 5}" for i in range(rows)]
    return ("\n".join(lines) + "\n").encode()


def _mapped(graph, encoder: CountingEncoder, query: str, tmp_path: Path):  # noqa: ANN202
    return Mapper(graph, encoder, cache_dir=tmp_path).map_program(parse(query)).mappings[-1]


def test_row_number_never_reaches_the_encoder(tmp_path) -> None:
    enc = CountingEncoder()
    graph = build_graph([load_source(_big_table(20), "table", "t.csv")])
    m = _mapped(graph, enc, "Query1: \"get_information(relation='row_number', "
                            "tail_entity='the seventh')\"", tmp_path)
    assert m.method in ("none", "fuzzy") and enc.calls == []


def test_large_label_sets_stay_lexical(set_limits, tmp_path) -> None:
    set_limits(dense_labels=500)
    graph = build_graph([load_source(_big_table(600), "table", "t.csv")])
    enc = CountingEncoder()
    _mapped(graph, enc, "Query1: \"get_information(relation='Name', tail_entity='zq xw')\"",
            tmp_path)
    _mapped(graph, enc, "Query1: \"get_information(head_entity='zq xw', relation='Name')\"",
            tmp_path)
    assert enc.calls == []  # 600 names and 1,200+ entities: more than 500 labels
    # a small relation of the same graph still gets the dense stage, over its own values only
    m = _mapped(graph, enc, "Query1: \"get_information(relation='Score', tail_entity='zq xw')\"",
                tmp_path)
    assert enc.calls and max(enc.calls) <= 500
    assert m.candidates and all(c.label in {"0", "1", "2", "3", "4"} for c in m.candidates)


def test_big_kg_relation_stays_lexical(set_limits, tmp_path) -> None:
    set_limits(dense_labels=100)
    kg = "".join(f"film {i}\tdirected_by\tdirector {i}\n" for i in range(300))
    graph = build_graph([load_source(kg.encode(), "kg", "kb.tsv")])
    enc = CountingEncoder()
    _mapped(graph, enc, "Query1: \"get_information(relation='directed_by', "
                        "tail_entity='qqq zzz')\"", tmp_path)
    assert enc.calls == []


def test_small_graph_keeps_its_dense_stage(tmp_path) -> None:
    graph = build_graph([load_source(_big_table(20), "table", "t.csv")])
    enc = CountingEncoder()
    _mapped(graph, enc, "Query1: \"get_information(relation='Name', tail_entity='zq xw')\"",
            tmp_path)
    assert enc.calls  # the guard only removes the dense stage for large label sets


# ---------------------------------------------------------------- item 10: duplicate headers
@pytest.mark.parametrize("header", [["a", "a", "a (2)"], ["a", "a (2)", "a"],
                                    ["a (2)", "a", "a"], ["", "column 1", ""]])
def test_unique_header_makes_unique_names(header: list[str]) -> None:
    out = unique_header(header)
    assert len(set(out)) == len(out) == len(header)
    assert out[0] == (header[0] or "column 1")


@pytest.mark.parametrize("header", [b"a,a,a (2)", b"a,a (2),a"])
def test_tables_with_clashing_headers_load(header: bytes) -> None:
    facts = load_source(header + b"\n1,2,3\n", "table", "h.csv")
    assert len(set(facts.columns)) == 3
    assert sorted(t for r, t in zip(facts.relations, facts.tails, strict=True)
                  if r != "row_number") == ["1", "2", "3"]


def test_one_unreadable_file_does_not_lose_the_batch(monkeypatch) -> None:
    import trustuqa_core.app_services.data as data

    real = data.load_sources

    def flaky(source, kind, name=None, **kw):  # noqa: ANN001, ANN202
        if name == "bad.csv":
            raise AttributeError("'DataFrame' object has no attribute 'tolist'")
        return real(source, kind, name=name, **kw)

    monkeypatch.setattr(data, "load_sources", flaky)
    report = load_all([Upload("a.csv", "table", b"X\n1\n"), Upload("bad.csv", "table", b"Y\n2\n"),
                       Upload("c.csv", "table", b"Z\n3\n")])
    assert [f.name for f in report.facts] == ["a.csv", "c.csv"]
    assert [e.source for e in report.errors] == ["bad.csv"]
    assert "could not be read" in str(report.errors[0])


def test_clashing_headers_batch_loads_every_file() -> None:
    report = load_all([Upload("dup.csv", "table", b"a,a,a (2)\n1,2,3\n"),
                       Upload("good.csv", "table", b"Name\nAnn\n")])
    assert [f.name for f in report.facts] == ["dup.csv", "good.csv"] and not report.errors


# ------------------------------------------------------------------------- item 11: deep JSON
def _nested(depth: int) -> bytes:
    return b'[{"a": ' + b"[" * depth + b"1" + b"]" * depth + b"}]"


@pytest.mark.parametrize("data", [b"[" * 100_000, b'{"a":' * 100_000, _nested(100)])
def test_deep_json_table_is_a_clear_error(data: bytes) -> None:
    with pytest.raises(SourceLimitError, match="nested.*TRUSTUQA_LIMIT_JSON_DEPTH") as info:
        load_source(data, "table", name="deep.json")
    assert info.value.source == "deep.json"


def test_json_depth_within_the_limit_loads(set_limits) -> None:
    assert read_table(_nested(20), "ok.json").iloc[0, 0].startswith("[[[")
    set_limits(json_depth=10)
    with pytest.raises(SourceLimitError, match="deeper than 10"):
        read_table(_nested(20), "ok.json")


@pytest.mark.parametrize("data", [b"[" * 100_000, "[" * 100_000])
def test_deep_json_run_export_is_a_clear_error(data: bytes | str) -> None:
    with pytest.raises(ExportError, match="nested deeper than"):
        load_record(data)


def test_deep_field_in_an_exported_run_is_refused() -> None:
    record = (b'{"format": "trustuqa-run", "version": 1, "query": "Query1: x", "extra": '
              + b"[" * 200 + b"]" * 200 + b"}")
    with pytest.raises(ExportError, match="nested deeper than 64"):
        load_record(record)
    assert load_record(record.replace(b"[" * 200 + b"]" * 200, b"[[]]"))["query"] == "Query1: x"


# ------------------------------------------------------------------- item 13: empty tables
@pytest.mark.parametrize(("data", "name"), [(b"Name,Year\n", "h.csv"), (b"Name\tYear\n", "h.tsv")])
def test_header_only_table_loads_with_a_warning(data: bytes, name: str) -> None:
    facts = load_source(data, "table", name=name)
    assert len(facts) == 0 and facts.columns == ("Name", "Year")
    assert any("0 rows" in w and name in w for w in facts.warnings)


def test_header_only_xlsx_warns() -> None:
    wb = openpyxl.Workbook()
    wb.active.append(["Name", "Year"])
    buf = io.BytesIO()
    wb.save(buf)
    facts = load_source(buf.getvalue(), "table", name="h.xlsx")
    assert any("0 rows" in w for w in facts.warnings)


# --------------------------------------------------------- items 12, 13: the command line
@pytest.fixture
def no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's dense encoder is the hashing one: these tests never load the sentence model."""
    for command in ("query", "ask"):  # where the CLI's subcommands take it from
        monkeypatch.setattr(f"trustuqa_core.cli.{command}.default_encoder",
                            lambda: HashingEncoder(dim=64))


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """Well-formed and hostile input files, by name -> path."""
    contents = {
        "good.csv": b"Name,Year\nAnn,1999\nBob,2001\n",
        "header.csv": b"Name,Year\n",
        "binary.csv": bytes(range(256)) * 4,
        "latin1.tsv": "Caf\xe9\tr\tB\n".encode("latin-1"),
        "empty.tsv": b"",
        "deep.json": b"[" * 100_000,
        "dupes.csv": b"a,a,a (2)\n1,2,3\n",
        "ragged.csv": b"a,b\n1,2,3\n",
        "notzip.xlsx": b"PK\x03\x04garbage",
        "q_latin1.txt": "Query1: \"get_information(relation='Caf\xe9')\"".encode("latin-1"),
        "q_ok.txt": b"Query1: \"get_information(relation='Year', head_entity='Ann')\"",
        "q_bignum.txt": ("Query1: \"get_information(relation='Year', tail_entity>'"
                         + "9" * 5000 + "')\"").encode(),
        "q_empty.txt": b"",
    }
    for name, data in contents.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "folder").mkdir()
    return {name: str(tmp_path / name) for name in [*contents, "folder"]} | {
        "missing": str(tmp_path / "missing.csv")
    }


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from trustuqa_core.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def _expand(argv: list[str], files: dict[str, str]) -> list[str]:
    out = []
    for a in argv:
        if a.startswith("@") and a[1:] in files:
            out.append("@" + files[a[1:]])
        else:
            out.append(files.get(a, a))
    return out


Q = "Query1: \"get_information(relation='Year', head_entity='Ann')\""


def test_non_utf8_query_file_is_bad_input(files, capsys, no_model) -> None:
    code, _, err = _run(["query", "--table", files["good.csv"], "--query",
                         "@" + files["q_latin1.txt"]], capsys)
    assert code == 2 and "Traceback" not in err
    assert "q_latin1.txt" in err and "not UTF-8" in err and "0xe9" in err


@pytest.mark.parametrize(("argv", "needle"), [
    (["query", "--query", Q], "give at least one --table"),
    (["ask", "--question", "who?"], "give at least one --table"),
    (["query", "--table", "good.csv", "--query", Q, "--override", "garbage"], "ARG=LABEL"),
    (["query", "--table", "good.csv", "--query", Q, "--override", "=Ann"], "ARG=LABEL"),
    (["ask", "--table", "good.csv", "--question", ""], "empty question"),
    (["ask", "--table", "good.csv", "--question", "  \t "], "empty question"),
    (["query", "--table", "missing", "--query", Q], "no such file"),
    (["query", "--table", "good.csv", "--query", "@missing"], "No such file"),
    (["query", "--table", "good.csv", "--query", "@folder"], "query file"),
    (["query", "--table", "deep.json", "--query", Q], "TRUSTUQA_LIMIT_JSON_DEPTH"),
    (["query", "--table", "binary.csv", "--query", Q], "binary.csv"),
    (["query", "--kg", "latin1.tsv", "--query", Q], "not UTF-8"),
    (["query", "--kg", "empty.tsv", "--query", Q], "file is empty"),
    (["query", "--table", "notzip.xlsx", "--query", Q], "not a readable .xlsx"),
    (["query", "--table", "folder", "--query", Q], "no such file"),
])
def test_bad_input_exits_2_with_a_message(argv, needle, files, capsys, no_model) -> None:
    code, _, err = _run(_expand(argv, files), capsys)
    assert code == 2, err
    assert needle in err and "Traceback" not in err and "internal error" not in err


def test_empty_question_is_refused_before_loading(files, capsys, no_model, monkeypatch) -> None:
    monkeypatch.setattr("trustuqa_core.cli.common.load_graph",
                        lambda *a: pytest.fail("data was loaded"))
    code, _, err = _run(["ask", "--table", files["good.csv"], "--question", " "], capsys)
    assert code == 2 and "empty question" in err


def test_header_only_table_warns_on_the_command_line(files, capsys, no_model) -> None:
    code, _, err = _run(["query", "--table", files["header.csv"], "--query", Q], capsys)
    assert code in (0, 1)
    assert "warning: header.csv: the table has a header but 0 rows" in err


def test_limit_variables_are_checked(files, capsys, no_model, set_limits) -> None:
    set_limits(table_rows=1)
    code, _, err = _run(["query", "--table", files["good.csv"], "--query", Q], capsys)
    assert code == 2 and "TRUSTUQA_LIMIT_TABLE_ROWS" in err
    set_limits(table_rows=0)  # not a positive number
    code, _, err = _run(["query", "--table", files["good.csv"], "--query", Q], capsys)
    assert code == 2 and "TRUSTUQA_LIMIT_TABLE_ROWS must be a positive number" in err


def test_a_failed_query_exits_1_and_a_good_one_0(files, capsys, no_model) -> None:
    good = ["query", "--table", files["good.csv"]]
    assert _run([*good, "--query", "@" + files["q_ok.txt"]], capsys)[0] == 0
    code, out, _ = _run([*good, "--query", "count(set='x'"], capsys)
    assert code == 1 and "error in parse" in out
    code, out, _ = _run([*good, "--query", Q, "--override", "Q9.tail_entity=Ann"], capsys)
    assert code == 1 and "does not exist" in out


def test_unexpected_errors_are_one_line_not_a_traceback(files, capsys, monkeypatch) -> None:
    def broken(*_a: object, **_k: object) -> None:
        raise KeyError("surprise")

    monkeypatch.setattr("trustuqa_core.cli.query.run_with_recovery", broken)  # what `query` calls
    code, _, err = _run(["query", "--table", files["good.csv"], "--query", Q], capsys)
    assert code == 1 and "internal error (KeyError" in err and "Traceback" not in err


_FILES = ["good.csv", "header.csv", "binary.csv", "latin1.tsv", "empty.tsv", "deep.json",
          "dupes.csv", "ragged.csv", "notzip.xlsx", "folder", "missing"]
_QUERIES = ["@q_latin1.txt", "@q_ok.txt", "@q_bignum.txt", "@q_empty.txt", "@missing", "@folder",
            "", " ", Q, "get_information(", "count(set='output_of_query7')", "\u202e", "x" * 3000,
            "Query1: \"keep(set='output_of_query1', value>'-1e999')\""]
_OVERRIDES = ["garbage", "Q1.relation=Year", "Q1.head_entity=Nobody", "=", "Q1.relation=", "a=b"]


def _check_no_traceback(argv: list[str], capsys: pytest.CaptureFixture[str],
                        internal_ok: bool = False) -> None:
    code, out, err = _run(argv, capsys)
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err and "Traceback" not in out, argv
    assert internal_ok or "internal error" not in err, (argv, err)
    if code:
        assert (err + out).strip(), argv  # a failure always says why


@pytest.mark.parametrize("argv", [
    ["query", "--table", "good.csv", "--query", "@q_bignum.txt"],
    ["query", "--table", "good.csv", "--query", "@q_empty.txt"],
    ["query", "--table", "dupes.csv", "--table", "ragged.csv", "--query", Q],
    ["query", "--table", "good.csv", "--table", "good.csv", "--query", Q, "--json"],
    ["query", "--table", "good.csv", "--query", "\u202e\x00" * 100],
    ["ask", "--table", "good.csv", "--question", "?" * 2000, "--writer", "offline"],
    ["ask", "--table", "dupes.csv", "--question", "what is a?", "--writer", "offline", "--json"],
    ["bench", "run", "--benchmark", "nope"],
    ["bench", "run", "--benchmark", "wikisql", "--limit", "-1"],
    ["bench", "perf", "--repeat", "-5"],
    ["bench", "perf", "--repeat", "x"],
    ["query", "--tkg", "good.csv", "--query", Q],
    [],
    ["query"],
    ["--help"],
])
def test_hostile_command_lines(argv, files, capsys, no_model) -> None:
    _check_no_traceback(_expand(argv, files), capsys)


def test_deeply_nested_query_is_not_a_traceback(files, capsys, no_model) -> None:
    # the parser's own depth limit (issue #9 item 8) turns this into a ParseError: exit 1,
    # with the limit named, never the "internal error" fallback
    query = "Query1: \"count(set=" + "[" * 600 + "]" * 600 + ")\""
    argv = ["query", "--table", files["good.csv"], "--query", query]
    _check_no_traceback(argv, capsys)
    code, out, err = _run(argv, capsys)
    assert code == 1 and "TRUSTUQA_LIMIT_PARSE_DEPTH" in out + err


def test_random_command_lines_never_trace(files, capsys, no_model) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    sources = st.lists(st.tuples(st.sampled_from(["--table", "--kg", "--tkg"]),
                                 st.sampled_from(_FILES)), max_size=2)
    text = st.text(max_size=40)
    query = st.tuples(st.just("--query"), st.sampled_from(_QUERIES) | text)
    overrides = st.lists(st.tuples(st.just("--override"), st.sampled_from(_OVERRIDES) | text),
                         max_size=2)
    question = st.tuples(st.just("--question"), st.sampled_from(["", "  ", "who?"]) | text)

    @settings(max_examples=80, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.sampled_from(["query", "ask"]), sources, query, overrides, question, st.booleans())
    def check(command, srcs, q, overs, quest, as_json) -> None:  # noqa: ANN001
        argv = [command, *(x for pair in srcs for x in pair)]
        if command == "query":
            argv += [*q, *(x for pair in overs for x in pair)]
        else:
            argv += [*quest, "--writer", "offline"]
        _check_no_traceback(_expand(argv + ["--json"] * as_json, files), capsys)

    check()


# ------------------------------------------------------------ the app's upload batch (items 10, 13)
def test_app_upload_batch_keeps_every_file_and_shows_the_0_rows_warning(monkeypatch) -> None:
    from streamlit.testing.v1 import AppTest

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"),
                           default_timeout=60)
    at.run()
    batch = [("dupes.csv", b"a,a,a (2)\n1,2,3\n", "text/csv"),
             ("header.csv", b"Name,Year\n", "text/csv"),
             ("deep.json", b"[" * 100_000, "application/json"),
             ("good.csv", b"Name,Year\nAnn,1999\n", "text/csv")]
    at.file_uploader(key="tq_upload").set_value(batch).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception
    assert [u.name for u in at.session_state["tq_sources"]] == ["dupes.csv", "header.csv",
                                                                "good.csv"]
    assert any("deep.json" in e.value and "nested deeper than 64" in e.value for e in at.error)
    assert any("header.csv" in w.value and "0 rows" in w.value for w in at.warning)


def test_non_utf8_standard_input_in_a_real_process(files) -> None:
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "trustuqa_core", "query", "--table", files["good.csv"],
         "--query", "-"],
        input=b"Query1: \"get_information(relation='Caf\xe9')\"", capture_output=True,
        timeout=120, cwd=Path(__file__).resolve().parents[1],
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "standard input: not UTF-8 text (byte 0xe9" in err and "Traceback" not in err


@pytest.mark.timeout(20)
def test_very_wide_table_loads_quickly() -> None:
    # 300,000 columns in a 1.2 MB file: the reader built one pandas column at a time (12 s)
    data = b"a," * 300_000 + b"\n" + b"1," * 300_000 + b"\n"
    facts = load_source(data, "table", name="wide.csv")
    assert len(facts) == 300_001 and facts.columns[-2:] == ("a (300000)", "column 300001")


def test_demo_pools_of_encoders_with_other_dimensions_are_not_mixed() -> None:
    """Regression (found when merging): ``ask`` retrieved demos with a 64-dim hashing encoder
    from a pool cached for the 256-dim one, because both carried the same name."""
    wide = default_pool(HashingEncoder())
    narrow = default_pool(HashingEncoder(dim=64))
    assert narrow is not wide
    assert narrow.retrieve("who directed the film?", k=2)
