"""Database tables as table sources: SQLite and DuckDB files, Parquet files, PostgreSQL.

Each table (or view) becomes one table source, with the same facts a CSV of it would give;
its name is ``<file or database>:<table>`` (a Parquet file is one table named by the file).
Everything is opened read-only: SQLite through a ``mode=ro`` URI, DuckDB with
``read_only=True`` and no access to other files, PostgreSQL in a read-only transaction.
Table names the user gives are checked against the database's own list and quoted as
identifiers, never pasted into SQL. Rows are fetched in batches and the ``table_rows`` and
``facts`` limits stop the reading as soon as they are passed. A PostgreSQL password never
appears in a source name, a warning or an error.

Cell values keep their type's usual text: numbers stay numbers (``10``, ``2.5``, never
``10.0`` for an integer column), dates are ISO (``1999-12-31``), NULL is an empty cell.

>>> import sqlite3, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "shop.sqlite")
>>> with sqlite3.connect(path) as db:
...     _ = db.execute("CREATE TABLE items (name TEXT, price REAL, stock INTEGER)")
...     _ = db.execute("INSERT INTO items VALUES ('pen', 1.5, 10), ('ink', NULL, 3)")
>>> [facts] = open_database(path)
>>> facts.name, facts.columns, facts.tails[:3]
('shop.sqlite:items', ('name', 'price', 'stock'), ['pen', '1.5', '10'])
"""

from __future__ import annotations

import contextlib
import datetime as dt
import decimal
import json
import sqlite3
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from ..errors import SourceError
from ..limits import current_limits
from ..sources import SourceFacts
from .cells import text_frame, unique_header
from .table import table_facts
from .text import check_count, read_bytes

__all__ = [
    "open_database",
    "database_kind",
    "safe_url",
    "quote_identifier",
    "DATABASE_SUFFIXES",
    "BATCH_ROWS",
    "cell_value",
]

DATABASE_SUFFIXES = {
    ".sqlite": "sqlite",
    ".sqlite3": "sqlite",
    ".db": "sqlite",
    ".duckdb": "duckdb",
    ".parquet": "parquet",
}
BATCH_ROWS = 1000
_SQLITE_MAGIC = b"SQLite format 3\x00"
_CONNECT_TIMEOUT_S = 10

Fetch = Callable[[int], Sequence[Sequence[Any]]]


def database_kind(location: str | Path, name: str | None = None) -> str | None:
    """``sqlite``, ``duckdb``, ``parquet`` or ``postgresql`` for a database location (by URL
    scheme or file suffix of ``name`` or ``location``), ``None`` for anything else.

    >>> database_kind("shop.db"), database_kind("postgres://u@h/db"), database_kind("t.csv")
    ('sqlite', 'postgresql', None)
    """
    text = str(location)
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql"
    return DATABASE_SUFFIXES.get(Path(name or text).suffix.lower())


def quote_identifier(name: str) -> str:
    """``name`` as a double-quoted SQL identifier (SQLite, DuckDB, PostgreSQL).

    >>> quote_identifier('my "odd" table')
    '"my ""odd"" table"'
    """
    if "\x00" in name:
        raise ValueError("an identifier cannot contain NUL")
    return '"' + name.replace('"', '""') + '"'


def safe_url(url: str) -> str:
    """A database URL without its password (also a ``password=`` query parameter).

    >>> safe_url("postgresql://ann:s3cret@db.example:5432/shop?sslmode=require&password=x")
    'postgresql://ann@db.example:5432/shop?sslmode=require'
    """
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = (f"{parts.username}@" if parts.username else "") + (
        f"[{host}]" if ":" in host else host
    )
    if parts.port is not None:
        netloc += f":{parts.port}"
    query = "&".join(
        q for q in parts.query.split("&") if q and not q.lower().startswith("password=")
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def open_database(
    location: str | Path | bytes,
    tables: Sequence[str] | None = None,
    name: str | None = None,
    max_bytes: int | None = None,
) -> list[SourceFacts]:
    """One table source per table of a database (or per table named in ``tables``).

    ``location`` is a file path (``.sqlite``/``.sqlite3``/``.db``, ``.duckdb``, ``.parquet``),
    the bytes of such a file (``name`` then gives its suffix), or a PostgreSQL URL
    ``postgresql://user[:password]@host[:port]/database``. Errors (no such table, a server
    that cannot be reached, a file that is not a database) raise :class:`SourceError`.
    """
    if isinstance(location, bytes):
        if name is None:
            raise SourceError("database", "a database given as bytes needs a file name")
        kind = database_kind(name)
    else:
        kind = database_kind(location)
    if kind is None:
        raise SourceError(name or str(location), "not a database file or URL")
    if kind == "postgresql":
        return _postgresql(str(location), tables, name)
    label = name or (Path(location).name if not isinstance(location, bytes) else kind)
    with _local_file(location, label, max_bytes) as path:
        if kind == "sqlite":
            return _sqlite(path, label, tables, location)
        if kind == "duckdb":
            return _duckdb(path, label, tables, location)
        return [_parquet(path, label, location)]


@contextlib.contextmanager
def _local_file(location: str | Path | bytes, label: str, max_bytes: int | None) -> Iterator[Path]:
    """The path of a database file; bytes are written to a private temporary file first."""
    if not isinstance(location, bytes):
        path = Path(location)
        if not path.is_file():
            raise SourceError(label, f"no such file: {path}")
        yield path
        return
    data = read_bytes(location, label, max_bytes)
    with tempfile.TemporaryDirectory(prefix="trustuqa-db-") as tmp:
        path = Path(tmp) / ("upload" + Path(label).suffix.lower())
        path.write_bytes(data)
        yield path


def _origin(location: str | Path | bytes) -> str | None:
    return None if isinstance(location, bytes) else str(location)


# ------------------------------------------------------------------------------ SQLite
def _sqlite(
    path: Path, label: str, tables: Sequence[str] | None, location: str | Path | bytes
) -> list[SourceFacts]:
    with path.open("rb") as f:
        if f.read(len(_SQLITE_MAGIC)) != _SQLITE_MAGIC:
            raise SourceError(label, "not a SQLite database (the file does not start like one)")
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as exc:
        raise SourceError(label, f"cannot be opened read-only ({exc})") from None
    try:
        db.execute("PRAGMA query_only = ON")
        found = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
            )
        ]
        out = []
        for table in _chosen(found, tables, label):
            cur = db.execute(f"SELECT * FROM {quote_identifier(table)}")
            columns = [d[0] for d in cur.description]
            out.append(_read_rows(cur.fetchmany, columns, f"{label}:{table}", _origin(location)))
        return out
    except sqlite3.Error as exc:
        raise SourceError(label, f"SQLite error: {exc}") from None
    finally:
        db.close()


# ------------------------------------------------------------------------------ DuckDB / Parquet
def _duckdb(
    path: Path, label: str, tables: Sequence[str] | None, location: str | Path | bytes
) -> list[SourceFacts]:
    import duckdb

    try:
        db = duckdb.connect(
            str(path), read_only=True, config={"enable_external_access": False}
        )
    except duckdb.Error as exc:
        raise SourceError(label, f"not a readable DuckDB database ({_first_line(exc)})") from None
    try:
        rows = db.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_schema NOT IN ('information_schema', 'pg_catalog') "
            "ORDER BY table_schema, table_name"
        ).fetchall()
        names = {_qualified(s, t, "main"): (s, t) for s, t in rows}
        out = []
        for table in _chosen(list(names), tables, label):
            schema, bare = names[table]
            cur = db.execute(f"SELECT * FROM {quote_identifier(schema)}.{quote_identifier(bare)}")
            columns = [d[0] for d in cur.description]
            out.append(_read_rows(cur.fetchmany, columns, f"{label}:{table}", _origin(location)))
        return out
    except duckdb.Error as exc:
        raise SourceError(label, f"DuckDB error: {_first_line(exc)}") from None
    finally:
        db.close()


def _parquet(path: Path, label: str, location: str | Path | bytes) -> SourceFacts:
    import duckdb

    db = duckdb.connect(":memory:")
    try:
        cur = db.execute("SELECT * FROM read_parquet(?)", [str(path)])
        columns = [d[0] for d in cur.description]
        return _read_rows(cur.fetchmany, columns, label, _origin(location))
    except duckdb.Error as exc:
        raise SourceError(label, f"not a readable Parquet file ({_first_line(exc)})") from None
    finally:
        db.close()


# ------------------------------------------------------------------------------ PostgreSQL
def _postgresql(url: str, tables: Sequence[str] | None, name: str | None) -> list[SourceFacts]:
    import psycopg

    shown = safe_url(url)
    password = urlsplit(url).password
    dbname = unquote(urlsplit(url).path.lstrip("/")) or "postgres"
    label = name or dbname

    def clean(exc: BaseException) -> str:
        text = _first_line(exc)
        return text.replace(password, "***") if password else text

    try:
        conn = psycopg.connect(url, connect_timeout=_CONNECT_TIMEOUT_S, autocommit=False)
    except psycopg.Error as exc:
        raise SourceError(label, f"cannot connect to {shown}: {clean(exc)}") from None
    except ValueError as exc:  # a malformed URL or option
        raise SourceError(label, f"not a usable PostgreSQL URL ({clean(exc)})") from None
    try:
        conn.read_only = True
        with conn.transaction():
            rows = conn.execute(
                "SELECT table_schema, table_name FROM information_schema.tables "
                "WHERE table_schema NOT IN ('information_schema', 'pg_catalog') "
                "ORDER BY table_schema, table_name"
            ).fetchall()
            names = {_qualified(s, t, "public"): (s, t) for s, t in rows}
            out = []
            for table in _chosen(list(names), tables, f"{label} ({shown})"):
                schema, bare = names[table]
                with conn.cursor(name="trustuqa_read") as cur:  # server-side: streamed
                    cur.execute(
                        f"SELECT * FROM {quote_identifier(schema)}.{quote_identifier(bare)}"
                    )
                    columns = [d.name for d in cur.description or ()]
                    out.append(_read_rows(cur.fetchmany, columns, f"{label}:{table}", shown))
            return out
    except psycopg.Error as exc:
        raise SourceError(label, f"PostgreSQL error: {clean(exc)}") from None
    finally:
        conn.close()


# ------------------------------------------------------------------------------ shared
def _qualified(schema: str, table: str, default: str) -> str:
    """``table`` in the default schema, ``schema.table`` elsewhere."""
    return table if schema == default else f"{schema}.{table}"


def _chosen(found: list[str], wanted: Sequence[str] | None, label: str) -> list[str]:
    """The tables to read: all found, or the ones named (each must exist).

    >>> _chosen(["a", "b"], None, "db"), _chosen(["a", "b"], ["b"], "db")
    (['a', 'b'], ['b'])
    >>> _chosen(["a"], ["x"], "db")
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.SourceError: db: no table 'x' (tables: a)
    """
    if not found:
        raise SourceError(label, "the database has no tables")
    if not wanted:
        return found
    missing = [t for t in wanted if t not in found]
    if missing:
        listed = ", ".join(found[:20]) + (" ..." if len(found) > 20 else "")
        raise SourceError(label, f"no table {missing[0]!r} (tables: {listed})")
    return list(dict.fromkeys(wanted))


def _read_rows(fetch: Fetch, columns: list[str], name: str, path: str | None) -> SourceFacts:
    """Facts of a result set read in batches, stopping at the ``table_rows``/``facts`` limits."""
    limits = current_limits()
    rows: list[list[str]] = []
    facts = 0
    blobs = 0
    while batch := fetch(BATCH_ROWS):
        for record in batch:
            row = [cell_value(v) for v in record]
            blobs += sum(isinstance(v, bytes | bytearray | memoryview) for v in record)
            rows.append(row)
            facts += 1 + sum(1 for c in row if c.strip())  # the cells and row_number
            if len(rows) > limits.table_rows:
                check_count(name, len(rows), "table_rows", "rows")
            if facts > limits.facts:
                check_count(name, facts, "facts", "facts")
    df = text_frame(rows, unique_header(columns))
    if blobs:
        df.attrs["warnings"] = [
            f"{name}: {blobs} binary value(s) are shown by their size only (e.g. '<12 bytes>')"
        ]
    return table_facts(df, name, path)


def cell_value(value: object) -> str:
    """The text of one database value.

    >>> [cell_value(v) for v in (None, 10, 2.5, True, decimal.Decimal("3.10"), b"ab")]
    ['', '10', '2.5', 'true', '3.10', '<2 bytes>']
    >>> cell_value(dt.date(1999, 12, 31)), cell_value([1, "a"])
    ('1999-12-31', '[1, "a"]')
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | decimal.Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat(sep=" ") if isinstance(value, dt.datetime) else value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(bytes(value))} bytes>"
    if isinstance(value, list | dict | tuple):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value).replace("\x00", "")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
