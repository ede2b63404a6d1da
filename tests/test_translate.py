"""Reading sources: formats, provenance, and clear errors for bad files."""

from __future__ import annotations

import gzip
import io
import json

import openpyxl
import pytest

from trustuqa_core import SourceError, build_graph, load_source
from trustuqa_core.translate.table import read_table, sniff_delimiter


def test_csv_table_facts_keep_rows_and_row_numbers() -> None:
    facts = load_source(b"Name,Score\nAnn,10\nBob,\n", "table", "s.csv")
    rows = list(zip(facts.heads, facts.relations, facts.tails, strict=True))
    assert rows == [
        (1, "Name", "Ann"),
        (1, "Score", "10"),
        (1, "row_number", "1"),
        (2, "Name", "Bob"),
        (2, "row_number", "2"),
    ]  # the empty cell has no fact
    assert facts.n_rows == 2 and facts.columns == ("Name", "Score")


def test_tab_separated_csv_and_quotes_are_text() -> None:
    # WTQ/WikiSQL copies: tab-separated .csv files whose cells contain quotes and commas
    text = b"Rank\tCyclist\tTime\n1\tA, B (ESP)\t5h 29' 10\"\n"
    df = read_table(text, "733.csv")
    assert list(df.columns) == ["Rank", "Cyclist", "Time"]
    assert df.iloc[0].tolist() == ["1", "A, B (ESP)", "5h 29' 10\""]


def test_sniffer_prefers_consistent_delimiter() -> None:
    # more commas than tabs in the header, but only tabs split every line evenly
    assert sniff_delimiter("Year\tCast (a, b, c)\tLabel\n1\tx, y\tz\n2\tu\tv\n") == "\t"
    assert sniff_delimiter("a;b;c\n1;2;3\n") == ";"


def test_duplicate_and_empty_headers_are_made_unique() -> None:
    df = read_table(b"Score,Score,\n1,2,3\n", "d.csv")
    assert list(df.columns) == ["Score", "Score (2)", "column 3"]


def test_existing_row_number_column_is_not_duplicated() -> None:
    facts = load_source(b"row_number,Name\n7,Ann\n", "table", "r.csv")
    assert [t for r, t in zip(facts.relations, facts.tails, strict=True) if r == "row_number"] == [
        "7"
    ]


def test_xlsx_with_formula_cell_warns_and_uses_values(tmp_path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Item", "Price"])
    ws.append(["Tea", 2])
    ws.append(["Total", "=SUM(B2:B2)"])
    path = tmp_path / "p.xlsx"
    wb.save(path)
    facts = load_source(path, "table")
    cells = set(zip(facts.heads, facts.relations, facts.tails, strict=True))
    assert {(1, "Item", "Tea"), (1, "Price", "2"), (2, "Item", "Total")} <= cells
    assert facts.n_rows == 2
    assert not any(h == 2 and r == "Price" for h, r, _ in cells)  # no computed value saved
    assert any("B3" in w and "formula" in w for w in facts.warnings)
    assert "=SUM(B2:B2)" not in facts.tails  # never treated as a value


def test_json_records_and_columns() -> None:
    records = json.dumps([{"a": 1, "b": "x"}, {"a": 2, "c": [1, 2]}]).encode()
    df = read_table(records, "r.json")
    assert list(df.columns) == ["a", "b", "c"]
    assert df.iloc[1].tolist() == ["2", "", "[1, 2]"]
    cols = json.dumps({"a": [1, 2], "b": ["x", "y"]}).encode()
    assert read_table(cols, "c.json").shape == (2, 2)


@pytest.mark.parametrize(
    ("data", "name", "kind", "needle", "line"),
    [
        (b"", "e.csv", "table", "empty", None),
        (b"A\tr\tB\n\xe9t\xe9\tr\tB\n", "enc.tsv", "kg", "not UTF-8", 2),
        (b"[1, 2", "bad.json", "table", "invalid JSON", 1),
        (b"[1, 2]", "num.json", "table", "list of records", None),
        (b"A\tr\tB\nC\tr\n", "kg.tsv", "kg", "expected 3 columns, got 2", 2),
        (b"\tr\tC\n", "kg.tsv", "kg", "no usable facts: line 1: empty head", None),
        (b"a\x00b\tc\td\n", "bin.tsv", "kg", "NUL", 1),
        (b"A\tr\tB\t1990\t1980\n", "t.tsv", "tkg", "line 1: start '1990' is after end", None),
        (b"A\tr\tB\tsoon\t1980\n", "t.tsv", "tkg", "line 1: not a year", None),
        (b"x", "w.xlsx", "table", "not a readable .xlsx", None),
        (b"a,b\n", "k.csv", "nonsense", "unknown source kind", None),
    ],
)
def test_bad_files_name_file_line_and_problem(data, name, kind, needle, line) -> None:
    with pytest.raises(SourceError) as info:
        load_source(data, kind, name=name)
    err = info.value
    assert err.source == name
    assert needle in str(err)
    assert err.line == line
    assert str(err).startswith(name)


def test_too_big_file_is_refused(tmp_path) -> None:
    path = tmp_path / "big.tsv"
    path.write_bytes(b"A\tr\tB\n" * 1000)
    with pytest.raises(SourceError, match="larger than allowed"):
        load_source(path, "kg", max_bytes=100)
    # the uncompressed size has its own limit (tests/test_security_input.py lowers it)


def test_html_and_formula_cells_are_kept_as_text_with_warnings() -> None:
    data = b'Name,Note\n<script>alert(1)</script>,=HYPERLINK("x")\n'
    facts = load_source(data, "table", "x.csv")
    assert "<script>alert(1)</script>" in facts.tails
    assert any("HTML" in w for w in facts.warnings)
    assert any("formula" in w for w in facts.warnings)


def test_short_rows_are_padded_with_a_warning() -> None:
    facts = load_source(b"a,b,c\n1,2\n", "table", "s.csv")
    assert facts.n_rows == 1
    assert any("fewer fields" in w and "lines 2" in w for w in facts.warnings)


def test_kg_formats_and_header_line() -> None:
    for data in (b"head\trelation\ttail\nA\tr\tB\n", b"A|r|B\n", b"A,r,B\n", b'"A, Jr.",r,B\n'):
        facts = load_source(data, "kg", "k")
        assert (facts.relations[0], facts.tails[0]) == ("r", "B")
    piped = load_source(b"Kids|directed_by|Larry | Clark\n", "kg", "p")
    assert piped.tails[0] == "Larry | Clark"  # the tail keeps extra pipes
    gz = load_source(gzip.compress(b"A|r|B\nC|r|D\n"), "kg", "k.gz")
    assert list(gz.lines) == [1, 2]


def test_kg_line_numbers_skip_blank_lines() -> None:
    facts = load_source(b"A\tr\tB\n\nC\tr\tD\n", "kg", "k.tsv")
    assert list(facts.lines) == [1, 3]


def test_tkg_intervals_and_open_times() -> None:
    facts = load_source(b"A\tr\tB\t1918\t1919\nC\tr\tD\t####\t2001\nE\tr\tF\t1990\n", "tkg", "t")
    assert list(facts.starts) == [1918.0, None, 1990.0]
    assert list(facts.ends) == [1919.0, 2001.0, 1990.0]


def test_a_thousand_year_fact_costs_one_entry() -> None:
    g = build_graph([load_source(b"Rome\tcapital of\tEmpire\t0\t1000\n", "tkg", "t")])
    assert g.n_facts == 1
    assert g.interval(0) == (0.0, 1000.0)


def test_graph_has_same_rows_whatever_the_reader_path(tmp_path) -> None:
    data = b"A|r|B\nC|r|D\n"
    (tmp_path / "k.txt").write_bytes(data)
    a = load_source(tmp_path / "k.txt", "kg")
    b = load_source(io.BytesIO(data).getvalue(), "kg", "k.txt")
    assert list(a.heads) == list(b.heads) and a.path is not None and b.path is None


def test_bad_fact_lines_are_left_out_with_a_warning() -> None:
    kg = load_source(b"A\tr\tB\n\tr\tC\nD\tr\tE\n", "kg", "k.tsv")
    assert list(kg.heads) == ["A", "D"] and list(kg.lines) == [1, 3]
    assert kg.warnings == ["k.tsv: 1 line(s) left out: line 2 (empty head)"]
    tkg = load_source(
        b"A\tr\tB\t1990\t1991\nC\tr\t\t1990\t1991\nE\tr\tF\t1995\t1990\nG\tr\tH\t2000\t2001\n",
        "tkg",
        "t.tsv",
    )
    assert list(tkg.heads) == ["A", "G"] and list(tkg.lines) == [1, 4]
    assert list(tkg.starts) == [1990.0, 2000.0]
    assert (
        "line 2 (empty tail)" in tkg.warnings[0]
        and "line 3 (start '1995' is after end" in tkg.warnings[0]
    )


def test_rows_with_every_cell_empty_are_skipped_and_said() -> None:
    """A ``,,`` row is skipped (it holds no fact), and the warning names its line, so that a
    person comparing row numbers with the file knows why they shift; blank lines are not
    rows and are not reported."""
    facts = load_source(b"a,b\n1,x\n,\n3,y\n\n , \n", "table", "t.csv")
    assert facts.n_rows == 2
    assert facts.warnings == ["t.csv: 2 row(s) with every cell empty were skipped (lines 3, 6); "
                              "the rows after them are numbered without them"]
    assert load_source(b"a,b\n1,x\n\n3,y\n", "table", "t.csv").warnings == []
