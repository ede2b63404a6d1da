"""SQLite, DuckDB and Parquet files as table sources (tiny files built here, in tmp)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from trustuqa_core import SourceError, build_graph, load_graph, run_query
from trustuqa_core.errors import SourceLimitError
from trustuqa_core.limits import current_limits, env_name
from trustuqa_core.translate import load_source, load_sources, source_kind

duckdb = pytest.importorskip("duckdb", reason="duckdb is in requirements.txt; install it")

TOTAL = (
    "Query1: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
    "Query2: \"get_information(relation='Gold', head_entity='output_of_query1')\"\n"
    "Query3: \"sum(set='output_of_query2')\""
)


@pytest.fixture
def set_limits(monkeypatch: pytest.MonkeyPatch):
    """Lower limits through their TRUSTUQA_LIMIT_* variables, as an operator would."""

    def apply(**values: int) -> None:
        for field, value in values.items():
            monkeypatch.setenv(env_name(field), str(value))
        current_limits.cache_clear()

    yield apply
    current_limits.cache_clear()


def _sqlite(path: Path, *statements: str) -> Path:
    with sqlite3.connect(path) as db:
        for sql in statements:
            db.execute(sql)
    db.close()
    return path


@pytest.fixture
def medals(tmp_path: Path) -> Path:
    return _sqlite(
        tmp_path / "games.sqlite",
        "CREATE TABLE medals (Nation TEXT, Gold INTEGER, Share REAL, Note TEXT)",
        "INSERT INTO medals VALUES ('Italy', 3, 0.5, NULL), ('Spain', 5, 1.25, 'host'),"
        " ('Italy', 4, 2.0, '=cmd')",
        "CREATE TABLE hosts (City TEXT, Year INTEGER)",
        "INSERT INTO hosts VALUES ('Rome', 1960)",
        "CREATE VIEW italy AS SELECT * FROM medals WHERE Nation = 'Italy'",
    )


def test_sqlite_gives_one_table_source_per_table_and_view(medals: Path) -> None:
    sources = load_sources(medals)
    assert [s.name for s in sources] == ["games.sqlite:hosts", "games.sqlite:italy",
                                         "games.sqlite:medals"]
    table = sources[2]
    assert table.kind == "table" and table.n_rows == 3
    assert table.columns == ("Nation", "Gold", "Share", "Note")
    row1 = {r: t for h, r, t in zip(table.heads, table.relations, table.tails, strict=True)
            if h == 1}
    assert row1 == {"Nation": "Italy", "Gold": "3", "Share": "0.5", "row_number": "1"}  # NULL: no fact
    assert any("formula" in w for w in table.warnings)  # '=cmd', as a CSV would report
    assert table.path == str(medals)


def test_sqlite_table_answers_a_question_like_its_csv(medals: Path) -> None:
    from_db = build_graph([load_source(f"{medals}#medals", "table")])
    assert run_query(TOTAL, from_db).answer == ["7"]
    csv = b"Nation,Gold,Share,Note\nItaly,3,0.5,\nSpain,5,1.25,host\nItaly,4,2.0,=cmd\n"
    from_csv = load_source(csv, "table", "games.sqlite:medals")
    from_sql = load_source(f"{medals}#medals")
    assert list(from_sql.tails) == list(from_csv.tails)
    assert list(from_sql.relations) == list(from_csv.relations)


def test_named_tables_missing_tables_and_many_tables(medals: Path) -> None:
    assert [s.name for s in load_sources(medals, tables=["hosts"])] == ["games.sqlite:hosts"]
    with pytest.raises(SourceError, match=r"no table 'nope' \(tables: hosts, italy, medals\)"):
        load_sources(medals, tables=["nope"])
    with pytest.raises(SourceError, match="holds 3 tables"):
        load_source(medals, "table")
    with pytest.raises(SourceError, match="not a kg"):
        load_source(medals, "kg")
    graph = load_graph(tables=[f"{medals}#hosts"])  # the CLI's --table path
    assert graph.entity("Rome") is not None


def test_sqlite_bytes_upload_and_a_file_that_is_not_a_database(medals: Path) -> None:
    [facts] = load_sources(medals.read_bytes(), name="up.db", tables=["hosts"])
    assert facts.name == "up.db:hosts" and "Rome" in facts.tails and facts.path is None
    with pytest.raises(SourceError, match="not a SQLite database"):
        load_sources(b"Name,Year\nAnn,1999\n", name="fake.sqlite")


def test_sqlite_is_opened_read_only(medals: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, bool]] = []
    real = sqlite3.connect

    def spy(target: str, *args: object, uri: bool = False, **kw: object) -> sqlite3.Connection:
        seen.append((target, uri))
        return real(target, *args, uri=uri, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite3, "connect", spy)
    stamp = medals.stat().st_mtime_ns, medals.read_bytes()
    load_sources(medals)
    assert seen and all(target.endswith("?mode=ro") and uri for target, uri in seen)
    assert (medals.stat().st_mtime_ns, medals.read_bytes()) == stamp
    assert sorted(p.name for p in medals.parent.iterdir()) == ["games.sqlite"]  # no journal


def test_hostile_table_and_column_names_are_quoted(tmp_path: Path) -> None:
    evil = 'x"; DROP TABLE keep; --'
    path = _sqlite(
        tmp_path / "evil.db",
        "CREATE TABLE keep (a INTEGER)",
        "INSERT INTO keep VALUES (1)",
        f'CREATE TABLE "{evil.replace(chr(34), chr(34) * 2)}" ("we""ird col" TEXT)',
        f"INSERT INTO \"{evil.replace(chr(34), chr(34) * 2)}\" VALUES ('v')",
    )
    [facts] = load_sources(path, tables=[evil])
    assert facts.name == f"evil.db:{evil}"
    assert facts.columns == ('we"ird col',) and "v" in facts.tails
    assert load_sources(path, tables=["keep"])[0].tails  # still there
    with pytest.raises(SourceError, match="no table"):
        load_sources(path, tables=["keep; DROP TABLE keep"])


def test_row_limit_stops_a_huge_view_early(tmp_path: Path, set_limits) -> None:
    path = _sqlite(
        tmp_path / "big.sqlite",
        "CREATE VIEW big AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c"
        " LIMIT 10000000) SELECT x FROM c",
    )
    set_limits(table_rows=2000)
    start = time.perf_counter()
    with pytest.raises(SourceLimitError, match="more than 2,000 rows.*TRUSTUQA_LIMIT_TABLE_ROWS"):
        load_sources(path)
    assert time.perf_counter() - start < 5  # 10 million rows were never fetched


def test_fact_limit_applies_while_reading(medals: Path, set_limits) -> None:
    set_limits(facts=5)
    with pytest.raises(SourceLimitError, match="TRUSTUQA_LIMIT_FACTS"):
        load_sources(medals, tables=["medals"])


def test_kinds_by_suffix_and_url() -> None:
    assert [source_kind(p) for p in ("a.sqlite", "b.duckdb", "c.parquet", "d.ttl", "e.nt",
                                     "postgresql://h/db", "f.txt")] == [
        "table", "table", "table", "kg", "kg", "table", None]


# ------------------------------------------------------------------------------ DuckDB
def _duckdb_file(path: Path, *statements: str) -> Path:
    db = duckdb.connect(str(path))
    for sql in statements:
        db.execute(sql)
    db.close()
    return path


def test_duckdb_tables_are_read_with_types_kept(tmp_path: Path) -> None:
    path = _duckdb_file(
        tmp_path / "shop.duckdb",
        "CREATE TABLE items (name VARCHAR, price DECIMAL(6, 2), stock BIGINT, seen DATE)",
        "INSERT INTO items VALUES ('pen', 1.50, 10, DATE '2024-02-29'), ('ink', NULL, 3, NULL)",
        "CREATE SCHEMA extra",
        "CREATE TABLE extra.notes (text VARCHAR)",
        "INSERT INTO extra.notes VALUES ('hello')",
    )
    sources = load_sources(path)
    assert [s.name for s in sources] == ["shop.duckdb:extra.notes", "shop.duckdb:items"]
    items = sources[1]
    assert list(items.tails[:5]) == ["pen", "1.50", "10", "2024-02-29", "1"]
    assert load_source(f"{path}#extra.notes").tails[0] == "hello"


def test_duckdb_file_cannot_reach_other_files(tmp_path: Path) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("password\nhunter2\n")
    path = _duckdb_file(
        tmp_path / "sly.duckdb",
        f"CREATE VIEW peek AS SELECT * FROM read_csv('{secret}')",
    )
    with pytest.raises(SourceError) as info:
        load_sources(path)
    assert "hunter2" not in str(info.value)


def test_parquet_file_and_bytes(tmp_path: Path) -> None:
    path = tmp_path / "medals.parquet"
    db = duckdb.connect()
    db.execute(
        "COPY (SELECT * FROM (VALUES ('Italy', 3), ('Spain', 5), ('Italy', 4)) t(Nation, Gold))"
        f" TO '{path}' (FORMAT parquet)"
    )
    db.close()
    facts = load_source(path)
    assert facts.name == "medals.parquet" and facts.n_rows == 3
    assert run_query(TOTAL, build_graph([facts])).answer == ["7"]
    again = load_source(path.read_bytes(), "table", name="medals.parquet")
    assert list(again.tails) == list(facts.tails)
    with pytest.raises(SourceError, match="not a readable Parquet file"):
        load_source(b"PAR1 nonsense", "table", name="bad.parquet")
