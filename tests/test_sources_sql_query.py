"""A read-only SQL query's result as a table source (issue 15): SQLite and DuckDB files built
here, and the throwaway PostgreSQL cluster of ``test_sources_postgres`` (skipped only where the
server programs are missing; ``TRUSTUQA_REQUIRE_POSTGRES=1`` makes that a failure).

Hostile statements are refused with a clear message and leave the data as it was; the driver
layers (read-only connection / transaction, SQLite's authorizer, DuckDB's parser) refuse writes
on their own too, so a hole in the text check is not the only guard.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_sources_postgres import PASSWORD, USER, server  # noqa: F401 - fixture

from trustuqa_core import SourceError, build_graph, run_query
from trustuqa_core.app_services.data import Upload, load_all
from trustuqa_core.app_services.database_url import open_database_url
from trustuqa_core.app_services.sql_source import open_sql_query
from trustuqa_core.cli import main
from trustuqa_core.errors import SourceLimitError
from trustuqa_core.limits import current_limits, env_name
from trustuqa_core.translate import open_query
from trustuqa_core.translate import sql_query as sq
from trustuqa_core.translate.sql_query import check_select

duckdb = pytest.importorskip("duckdb", reason="duckdb is in requirements.txt; install it")
psycopg = pytest.importorskip("psycopg", reason="psycopg is in requirements.txt; install it")

REPO = Path(__file__).resolve().parents[1]
ORDERS = [(1, "Ann", 10), (2, "Bob", 250), (3, "Ann", 300), (4, "Cid", 75)]
TOTAL_OF = (
    "Query1: \"get_information(relation='customer', tail_entity='{who}')\"\n"
    "Query2: \"get_information(relation='total', head_entity='output_of_query1')\""
)

#: statements that write, hold a second statement (some hidden by comments or quotes), or do
#: something other than reading; every one must be refused before the database is touched
HOSTILE = [
    "DELETE FROM orders",
    "INSERT INTO orders VALUES (9, 'Eve', 1)",
    "UPDATE orders SET amount = 0",
    "DROP TABLE orders",
    "CREATE TABLE copy AS SELECT * FROM orders",
    "SELECT 1; DELETE FROM orders",
    "SELECT 1;\nDROP TABLE orders;",
    "SELECT 1 /* a comment ; */; DELETE FROM orders",
    "SELECT 1 -- a comment\n; DELETE FROM orders",
    "/* looks harmless */ DELETE FROM orders",
    "SELECT 1 /* /* nested */ ; DELETE FROM orders */",
    "SELECT * FROM orders /* never closed",
    "SELECT 'never closed FROM orders",
    "SELECT E'\\'; DELETE FROM orders; --'",
    "SELECT $$;$$; DELETE FROM orders",
    "SELECT $tag$ x $tag$",
    "WITH gone AS (DELETE FROM orders RETURNING *) SELECT * FROM gone",
    "SELECT * INTO orders_copy FROM orders",
    "SELECT * FROM orders FOR UPDATE",
    "ATTACH DATABASE '/tmp/other.db' AS other",
    "SELECT 1; ATTACH 'x.db' AS y",
    "PRAGMA writable_schema = 1",
    "VACUUM",
    "COPY orders TO '/tmp/orders.csv'",
    "BEGIN; DELETE FROM orders; COMMIT",
    "SET statement_timeout = 0",
    "EXPLAIN ANALYZE DELETE FROM orders",
    "SELECT load_extension('evil')",
    "SELECT pg_sleep(600)",
    'SELECT "pg_terminate_backend"(1)',
    "SELECT pg_catalog.pg_read_file('/etc/passwd')",
    "SELECT * FROM dblink('host=x', 'DELETE FROM orders') AS t(x int)",
    "SELECT lo_import('/etc/passwd')",
    "SELECT * FROM read_csv('/etc/passwd')",
    "",
    "   -- only a comment",
    "CALL do_something()",
]

#: read-only queries that look suspicious to a naive check and must run
FRIENDLY = [
    ("SELECT customer, amount FROM orders WHERE customer <> 'DELETE; DROP' ORDER BY id;",
     ["Ann", "Bob", "Ann", "Cid"]),
    ('SELECT customer AS "delete" FROM orders WHERE amount > 100 -- trailing; comment',
     ["Bob", "Ann"]),
    ("SELECT replace(customer, 'A', 'E') AS customer FROM orders WHERE id = 1", ["Enn"]),
    ("WITH t AS (SELECT * FROM orders) SELECT CASE WHEN amount > 100 THEN customer "
     "ELSE 'small' END AS customer FROM t ORDER BY id", ["small", "Bob", "Ann", "small"]),
    ("SELECT customer FROM orders WHERE customer LIKE 'A%' AND id < 3", ["Ann"]),
]


@pytest.fixture
def set_limits(monkeypatch: pytest.MonkeyPatch):
    def apply(**values: int) -> None:
        for field, value in values.items():
            monkeypatch.setenv(env_name(field), str(value))
        current_limits.cache_clear()

    yield apply
    current_limits.cache_clear()


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    path = tmp_path / "shop.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE orders (id INTEGER, customer TEXT, amount INTEGER)")
        db.executemany("INSERT INTO orders VALUES (?, ?, ?)", ORDERS)
    return path


@pytest.fixture
def warehouse(tmp_path: Path) -> Path:
    path = tmp_path / "warehouse.duckdb"
    db = duckdb.connect(str(path))
    db.execute("CREATE TABLE orders (id INTEGER, customer TEXT, amount INTEGER)")
    db.executemany("INSERT INTO orders VALUES (?, ?, ?)", ORDERS)
    db.close()
    return path


def _sqlite_rows(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT * FROM orders ORDER BY id").fetchall()


def _duckdb_rows(path: Path) -> list[tuple[object, ...]]:
    db = duckdb.connect(str(path), read_only=True)
    try:
        return db.execute("SELECT * FROM orders ORDER BY id").fetchall()
    finally:
        db.close()


def _totals(who: str, facts) -> list[str]:  # noqa: ANN001
    return run_query(TOTAL_OF.format(who=who), build_graph([facts])).answer


def _expected_totals() -> dict[str, str]:
    out: dict[str, int] = {}
    for _, who, amount in ORDERS:
        out[who] = out.get(who, 0) + amount
    return {k: str(v) for k, v in out.items()}


GROUPED = "SELECT customer, SUM(amount) AS total FROM orders GROUP BY customer"


# ------------------------------------------------------------------------------ the check
@pytest.mark.parametrize("sql", HOSTILE)
def test_hostile_statements_are_refused_with_a_reason(sql: str) -> None:
    with pytest.raises(SourceError) as info:
        check_select(sql)
    assert info.value.problem and info.value.source == "SQL query"


@pytest.mark.parametrize(("sql", "_"), FRIENDLY)
def test_read_only_queries_pass_the_check(sql: str, _: list[str]) -> None:
    kept = check_select(sql)
    assert kept.startswith(("SELECT", "WITH")) and not kept.endswith(";")


def test_the_messages_name_the_problem() -> None:
    cases = {
        "SELECT 1; DELETE FROM orders": "more than one statement",
        "DELETE FROM orders": "only a SELECT query can be run",
        "SELECT * INTO t FROM orders": "INTO is not allowed",
        "SELECT pg_sleep(600)": "pg_sleep() is not allowed",
        "SELECT 1 /* never closed": "is not closed",
        "": "the query is empty",
    }
    for sql, words in cases.items():
        with pytest.raises(SourceError, match=words.replace("(", r"\(").replace(")", r"\)")):
            check_select(sql)


# ------------------------------------------------------------------------------ SQLite
def test_a_sqlite_query_result_loads_as_a_named_table_and_answers(shop: Path) -> None:
    facts = open_query(shop, GROUPED, "totals")
    assert facts.name == "shop.sqlite:totals" and facts.kind == "table"
    assert facts.columns == ("customer", "total") and facts.n_rows == 3
    for who, total in _expected_totals().items():
        assert _totals(who, facts) == [total]


@pytest.mark.parametrize(("sql", "names"), FRIENDLY)
def test_friendly_queries_run_on_sqlite_and_duckdb(sql: str, names: list[str], shop: Path,
                                                   warehouse: Path) -> None:
    for db in (shop, warehouse):
        facts = open_query(db, sql, "r")
        col = facts.columns[0]
        got = [t for r, t in zip(facts.relations, facts.tails, strict=True) if r == col]
        assert got == names, db.name


@pytest.mark.parametrize("sql", HOSTILE)
def test_hostile_statements_leave_sqlite_and_duckdb_unchanged(sql: str, shop: Path,
                                                             warehouse: Path) -> None:
    for db, rows in ((shop, _sqlite_rows), (warehouse, _duckdb_rows)):
        before = rows(db)
        with pytest.raises(SourceError):
            open_query(db, sql, "r")
        assert rows(db) == before and len(before) == len(ORDERS)


def test_the_drivers_refuse_writes_without_the_text_check(shop: Path, warehouse: Path) -> None:
    """Defence in depth: the connection layers refuse writes on their own."""
    for sql in ("DELETE FROM orders", "ATTACH DATABASE ':memory:' AS other",
                "INSERT INTO orders VALUES (9, 'Eve', 1)"):
        with pytest.raises(SourceError, match="not authorized|readonly|read-only"):
            sq._sqlite(shop, sql, "shop.sqlite:r", None)
        with pytest.raises(SourceError, match="other than one SELECT"):
            sq._duckdb(warehouse, sql, "warehouse.duckdb:r", None)
    with pytest.raises(SourceError, match="other than one SELECT"):
        sq._duckdb(warehouse, "SELECT 1; DELETE FROM orders", "warehouse.duckdb:r", None)
    assert len(_sqlite_rows(shop)) == len(_duckdb_rows(warehouse)) == len(ORDERS)


def test_rows_stop_at_the_limit_and_names_are_checked(shop: Path, set_limits) -> None:
    with pytest.raises(SourceError, match="give the result a name"):
        open_query(shop, GROUPED, "  ")
    for name in ("copy.sqlite", "t.xlsx", "g.ttl", "r.json"):  # would be read as such a file
        with pytest.raises(SourceError, match="cannot end in a file suffix"):
            open_query(shop, GROUPED, name)
    assert open_query(shop, GROUPED, "totals v2.1").name == "shop.sqlite:totals v2.1"
    with pytest.raises(SourceError, match="no such table"):
        open_query(shop, "SELECT * FROM missing_table", "r")
    set_limits(table_rows=2)
    with pytest.raises(SourceLimitError, match="more than 2 rows"):
        open_query(shop, "SELECT * FROM orders", "r")


def test_the_cli_loads_a_query_result(shop: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    sql_file = tmp_path / "totals.sql"
    sql_file.write_text(GROUPED + ";\n")
    code = main(["query", "--sql", str(shop), "totals", f"@{sql_file}", "--json",
                 "--query", TOTAL_OF.format(who="Ann")])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["answer"] == [_expected_totals()["Ann"]]
    code = main(["query", "--sql", str(shop), "r", "SELECT 1; DROP TABLE orders",
                 "--query", TOTAL_OF.format(who="Ann")])
    assert code == 2 and "more than one statement" in capsys.readouterr().err
    assert len(_sqlite_rows(shop)) == len(ORDERS)


def test_the_app_service_keeps_the_result_as_a_snapshot(shop: Path) -> None:
    [upload], errors = open_sql_query(GROUPED + " ORDER BY customer", "totals",
                                      file=("shop.sqlite", shop.read_bytes()))
    assert errors == [] and upload.name == "shop.sqlite:totals" and upload.kind == "table"
    assert upload.data.decode().splitlines() == ["customer,total", "Ann,310", "Bob,250",
                                                 "Cid,75"]
    uploads, [err] = open_sql_query("SELECT 1; DELETE FROM orders", "x",
                                    file=("shop.sqlite", shop.read_bytes()))
    assert uploads == [] and "more than one statement" in err.problem
    _, [err] = open_sql_query(GROUPED, "x", file=("notes.csv", b"a,b\n"))
    assert "SQLite or DuckDB" in err.problem


# ------------------------------------------------------------------------------ PostgreSQL
def _pg_count(url: str, table: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
    assert row is not None
    return int(row[0])


def test_a_postgresql_query_result_loads_and_answers(server: str) -> None:  # noqa: F811
    facts = open_query(server, "SELECT nation, SUM(gold) AS total FROM medals "
                       "WHERE nation LIKE 'It%' GROUP BY nation", "italy")
    assert facts.name == "postgres:italy" and facts.columns == ("nation", "total")
    assert PASSWORD not in (facts.path or "")
    with psycopg.connect(server) as conn:
        want = conn.execute("SELECT SUM(gold) FROM medals WHERE nation = 'Italy'").fetchone()
    assert want is not None
    query = ("Query1: \"get_information(relation='nation', tail_entity='Italy')\"\n"
             "Query2: \"get_information(relation='total', head_entity='output_of_query1')\"")
    assert run_query(query, build_graph([facts])).answer == [str(want[0])]


@pytest.mark.parametrize("sql", [
    "SELECT 1; DELETE FROM medals",
    "DELETE FROM medals",
    "SELECT 1 /* ; */; DROP TABLE medals",
    "SELECT E'\\'; DELETE FROM medals; --'",
    "SELECT $$;$$; DELETE FROM medals",
    "WITH gone AS (DELETE FROM medals RETURNING *) SELECT * FROM gone",
    "SELECT * INTO medals_copy FROM medals",
    'SELECT "pg_terminate_backend"(pg_backend_pid())',
])
def test_hostile_statements_leave_postgresql_unchanged(sql: str, server: str) -> None:  # noqa: F811
    before = _pg_count(server, "medals")
    with pytest.raises(SourceError) as info:
        open_query(server, sql, "r")
    assert PASSWORD not in str(info.value)
    assert _pg_count(server, "medals") == before == 3


def test_postgresql_refuses_writes_without_the_text_check(server: str) -> None:  # noqa: F811
    """The read-only transaction and the server-side cursor hold on their own."""
    with pytest.raises(SourceError, match="read-only transaction"):
        sq._postgresql(server, "SELECT * FROM writes", "r", None)  # a view calling an INSERT
    with pytest.raises(SourceError, match="PostgreSQL error"):
        sq._postgresql(server, "DELETE FROM medals", "r", None)
    with pytest.raises(SourceError, match="PostgreSQL error"):
        sq._postgresql(server, "SELECT 1; DELETE FROM medals", "r", None)
    assert _pg_count(server, "log") == 0 and _pg_count(server, "medals") == 3


def test_postgresql_rows_stop_at_the_limit(server: str, set_limits) -> None:  # noqa: F811
    assert open_query(server, "SELECT n FROM big WHERE n % 2 = 0", "even").n_rows == 2500
    set_limits(table_rows=1000)
    with pytest.raises(SourceLimitError, match="more than 1,000 rows"):
        open_query(server, "SELECT n FROM big", "r")


def test_the_data_page_loads_a_postgresql_query_result(server: str) -> None:  # noqa: F811
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    at.text_input(key="tq_sql_url").set_value(server.replace(f":{PASSWORD}@", "@"))
    at.text_input(key="tq_sql_password").set_value(PASSWORD)
    at.text_area(key="tq_sql_text").set_value(
        "SELECT nation, SUM(gold) AS total FROM medals GROUP BY nation")
    at.text_input(key="tq_sql_name").set_value("totals")
    at.button(key="tq_sql_go").click().run()
    assert not at.exception
    assert any("postgres:totals" in s.value for s in at.success)
    assert at.text_input(key="tq_sql_password").value == ""
    assert at.text_input(key="tq_sql_url").value.startswith(f"postgresql://{USER}@")
    at.text_area(key="tq_sql_text").set_value("SELECT 1; DELETE FROM medals")
    at.button(key="tq_sql_go").click().run()
    assert any("more than one statement" in e.value for e in at.error)
    assert _pg_count(server, "medals") == 3
    shown = [str(getattr(e, "value", "")) for e in at.main.children.values()]
    assert PASSWORD not in "\n".join(shown + [repr(v) for v in at.session_state.values()])
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value("What is the total of Spain?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception
    assert at.session_state["tq_run"].answer == ["5"]


def test_the_data_page_loads_a_sqlite_query_result(shop: Path) -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    at.radio(key="tq_sql_source").set_value("SQLite or DuckDB file").run()
    at.file_uploader(key="tq_sql_file").set_value(
        [("shop.sqlite", shop.read_bytes(), "application/octet-stream")]).run()
    at.text_area(key="tq_sql_text").set_value("SELECT 1 /* ; */; DROP TABLE orders")
    at.text_input(key="tq_sql_name").set_value("totals")
    at.button(key="tq_sql_go").click().run()
    assert not at.exception
    assert any("more than one statement" in e.value for e in at.error)
    assert "tq_sources" not in at.session_state or not at.session_state["tq_sources"]
    at.text_area(key="tq_sql_text").set_value(GROUPED)
    at.button(key="tq_sql_go").click().run()
    assert not at.exception
    assert any("shop.sqlite:totals" in s.value for s in at.success)
    assert [u.name for u in at.session_state["tq_sources"]] == ["shop.sqlite:totals"]
    at.switch_page("pages/2_Ask.py").run()
    at.text_area(key="tq_hand").set_value(TOTAL_OF.format(who="Ann")).run()
    at.button(key="tq_hand_go").click().run()
    assert at.session_state["tq_run"].answer == [_expected_totals()["Ann"]]


def test_a_slow_query_is_stopped_at_the_deadline(shop: Path, warehouse: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sq, "QUERY_SECONDS", 0.5)
    endless = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
               "SELECT count(*) FROM c")
    with pytest.raises(SourceError, match="longer than 0.5 s"):
        open_query(shop, endless, "r")
    slow = "SELECT count(*) FROM range(100000) a, range(100000) b WHERE a.range + b.range = -1"
    with pytest.raises(SourceError, match="longer than 0.5 s"):
        open_query(warehouse, slow, "r")


def test_a_slow_postgresql_query_is_stopped(server: str,  # noqa: F811
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sq, "QUERY_SECONDS", 0.5)
    with pytest.raises(SourceError, match="longer than 0.5 s"):
        open_query(server, "SELECT count(*) FROM generate_series(1, 1000000000) g", "r")


@pytest.mark.parametrize("name", ["db:t.xlsx", "db:t.sqlite", "db:t.nt", "db:t.json"])
def test_a_snapshot_named_like_another_format_is_read_as_its_csv(name: str) -> None:
    """A database table's snapshot is CSV whatever the table is called: its name's suffix must
    not pick the reader (a PostgreSQL table ``t.xlsx`` was read as a workbook and refused)."""
    report = load_all([Upload(name, "table", b"city,people\nOslo,700000\nBergen,290000\n",
                              fmt="csv")])
    assert report.errors == []
    [facts] = report.facts
    assert facts.name == name and facts.columns == ("city", "people")
    assert [f.n_rows for f in report.facts] == [2]


def test_a_postgresql_table_named_t_xlsx_opens_as_a_table(server: str) -> None:  # noqa: F811
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute('CREATE TABLE "t.xlsx" (city text, people integer)')
        conn.execute("""INSERT INTO "t.xlsx" VALUES ('Oslo', 700000), ('Bergen', 290000)""")
    try:
        uploads, errors = open_database_url(server, tables=["t.xlsx"])
        assert errors == [] and [u.fmt for u in uploads] == ["csv"]
        report = load_all(uploads)
        assert report.errors == [] and [f.n_rows for f in report.facts] == [2]
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute('DROP TABLE "t.xlsx"')
