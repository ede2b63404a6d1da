"""Lenient reading of delimited tables: other encodings and ragged rows, said in warnings."""

from __future__ import annotations

import pytest

from trustuqa_core import SourceError, build_graph, load_source, run_query
from trustuqa_core.errors import SourceLimitError
from trustuqa_core.limits import current_limits, env_name


@pytest.fixture
def set_limits(monkeypatch: pytest.MonkeyPatch):
    """Lower limits through their TRUSTUQA_LIMIT_* variables, as an operator would."""

    def apply(**values: int) -> None:
        for field, value in values.items():
            monkeypatch.setenv(env_name(field), str(value))
        current_limits.cache_clear()

    yield apply
    current_limits.cache_clear()


def test_latin1_csv_is_read_and_the_encoding_is_reported(tmp_path) -> None:
    path = tmp_path / "cities.csv"
    path.write_bytes("City,Country\nZürich,Schweiz\nGenève,Suisse\n".encode("latin-1"))
    facts = load_source(path, "table")
    assert "Zürich" in facts.tails and "Genève" in facts.tails
    assert facts.n_rows == 2
    [warning] = facts.warnings
    assert "cities.csv" in warning and "Latin-1" in warning
    assert "line 2, column 2" in warning  # where the first non-UTF-8 byte (0xfc) is


def test_cp1252_curly_quotes_and_euro_are_read_as_windows_1252() -> None:
    data = "Title,Price\n“Heat”,5 €\n".encode("cp1252")
    assert b"\x93" in data and b"\x80" in data  # bytes Latin-1 would turn into controls
    facts = load_source(data, "table", "films.csv")
    assert "“Heat”" in facts.tails and "5 €" in facts.tails
    assert any("read as Windows-1252" in w for w in facts.warnings)


def test_utf8_and_utf16_files_are_said_only_when_not_utf8() -> None:
    assert load_source("A,B\nä,1\n".encode(), "table", "u.csv").warnings == []
    facts = load_source("A\tB\nä\t1\n".encode("utf-16"), "table", "w.tsv")
    assert "ä" in facts.tails
    assert any("UTF-16" in w for w in facts.warnings)


def test_non_utf8_answers_a_question() -> None:
    g = build_graph([load_source("Name,City\nJosé,Bogotá\n".encode("latin-1"), "table", "p.csv")])
    query = (
        "Query1: \"get_information(relation='Name', tail_entity='José')\"\n"
        "Query2: \"get_information(relation='City', head_entity='output_of_query1')\""
    )
    assert run_query(query, g).answer == ["Bogotá"]


def test_binary_and_empty_files_are_still_refused() -> None:
    with pytest.raises(SourceError, match="NUL"):
        load_source(b"a,b\n\xff\x00\x01,2\n", "table", "bin.csv")
    with pytest.raises(SourceError, match="empty"):
        load_source(b"  \n", "table", "e.csv")


def test_long_rows_keep_their_extra_cells_in_named_columns() -> None:
    data = b"Name,Score\nAnn,10\nBob,7,late,x\nCid,3,\n"
    facts = load_source(data, "table", "rag.csv")
    assert facts.columns == ("Name", "Score", "extra_1", "extra_2")
    cells = set(zip(facts.heads, facts.relations, facts.tails, strict=True))
    assert {(2, "extra_1", "late"), (2, "extra_2", "x"), (2, "Score", "7")} <= cells
    [warning] = facts.warnings
    assert "2 row(s) have more fields than the header's 2 (lines 3, 4)" in warning
    assert "extra_1, extra_2" in warning


def test_trailing_empty_fields_add_no_column_but_are_reported() -> None:
    facts = load_source(b"a,b\n1,2,\n3,4\n", "table", "t.csv")
    assert facts.columns == ("a", "b")
    assert any("lines 2" in w and "all empty" in w for w in facts.warnings)


def test_extra_column_names_never_clash_with_the_header() -> None:
    facts = load_source(b"extra_1,b\n1,2,3\n", "table", "t.csv")
    assert facts.columns == ("extra_1", "b", "extra_1 (2)")


def test_short_rows_are_padded_and_their_lines_named() -> None:
    facts = load_source(b"a,b,c\n1,2,3\n4\n5,6\n7,8,9\n", "table", "s.csv")
    assert facts.n_rows == 4
    [warning] = facts.warnings
    assert "2 row(s) have fewer fields" in warning and "(lines 3, 4)" in warning


def test_many_ragged_lines_are_listed_briefly() -> None:
    data = b"a,b\n" + b"1,2,3\n" * 8
    [warning] = load_source(data, "table", "r.csv").warnings
    assert "(lines 2, 3, 4, 5, 6 ...)" in warning


def test_row_limit_still_applies_to_lenient_files(set_limits) -> None:
    set_limits(table_rows=3)
    data = "Name\n" + "Zürich\n" * 3
    assert load_source(data.encode("latin-1"), "table", "ok.csv").n_rows == 3
    with pytest.raises(SourceLimitError, match="rows"):
        load_source((data + "Bern\n").encode("latin-1"), "table", "big.csv")
