"""A read-only SQL query's result as a table on the Data page (issue 15).

:func:`open_sql_query` runs one ``SELECT`` over a database — a PostgreSQL URL (its password
given apart or inside it) or an uploaded SQLite / DuckDB file — through
:func:`trustuqa_core.translate.sql_query.open_query` (one statement, read-only connection or
transaction, the row and fact limits) and keeps the result as a snapshot: an
:class:`~.data.Upload` holding it as CSV, named ``<database>:<name>`` with the name the user
chose. The rest of the app (previews, export stamps, history, removal) treats it like any
loaded table; the URL and its password are never stored, and every message names the URL
masked.

>>> import sqlite3, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "shop.sqlite")
>>> with sqlite3.connect(path) as db:
...     _ = db.execute("CREATE TABLE orders (customer TEXT, amount INTEGER)")
...     _ = db.execute("INSERT INTO orders VALUES ('Ann', 10), ('Bob', 250)")
>>> data = open(path, "rb").read()
>>> [u], errors = open_sql_query("SELECT * FROM orders WHERE amount > 100", "big",
...                              file=("shop.sqlite", data))
>>> u.name, u.data.decode(), errors
('shop.sqlite:big', 'customer,amount\\nBob,250\\n', [])
>>> open_sql_query("DELETE FROM orders", "gone", file=("shop.sqlite", data))[1][0].problem
"only a SELECT query can be run (it starts with 'DELETE'); writes and other statements are refused"
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from ..errors import SourceError, TrustUQAError
from ..translate.databases import database_kind, safe_url
from ..translate.sql_query import open_query
from .data import Upload
from .database_url import EXAMPLE_URL, table_csv, with_password

__all__ = ["open_sql_query", "SQL_FILE_TYPES", "EXAMPLE_SQL"]

log = logging.getLogger(__name__)
#: the database files a query may run over (uploaded)
SQL_FILE_TYPES = ("sqlite", "sqlite3", "db", "duckdb")
EXAMPLE_SQL = "SELECT customer, SUM(amount) AS total FROM orders GROUP BY customer"


def open_sql_query(sql: str, name: str, *, url: str = "", password: str = "",
                   file: tuple[str, bytes] | None = None) -> tuple[list[Upload], list[SourceError]]:
    """The result of ``sql`` over ``url`` (PostgreSQL) or ``file`` (``(file name, bytes)`` of
    a SQLite/DuckDB file) as one table upload, or one :class:`SourceError` saying what is
    wrong (a URL in it masked)."""
    if file is not None and url.strip():
        return [], [SourceError("SQL query", "give a PostgreSQL URL or a database file, not both")]
    secret = ""
    try:
        if file is not None:
            label, data = file
            if database_kind(label) not in ("sqlite", "duckdb"):
                return [], [SourceError(label, "a SQL query runs over a SQLite or DuckDB file "
                                        "(.sqlite, .sqlite3, .db, .duckdb)")]
            facts = open_query(data, sql, name, label=label)
        else:
            text = url.strip()
            if not text:
                return [], [SourceError("SQL query", "choose a database: a PostgreSQL URL "
                                        f"such as {EXAMPLE_URL}, or a SQLite/DuckDB file")]
            if urlsplit(text).scheme.lower() not in ("postgresql", "postgres"):
                return [], [SourceError(safe_url(text), "not a PostgreSQL URL: it must start "
                                        f"with postgresql:// (e.g. {EXAMPLE_URL})")]
            full = with_password(text, password)
            secret = urlsplit(full).password or ""
            facts = open_query(full, sql, name)
    except SourceError as err:
        return [], [SourceError(_mask(err.source, secret), _mask(err.problem, secret),
                                err.line)]
    except TrustUQAError as err:
        return [], [SourceError("SQL query", _mask(str(err), secret))]
    except Exception as exc:  # noqa: BLE001 - a driver's own error must not reach the page raw
        log.error("a SQL query failed: %s", type(exc).__name__)
        return [], [SourceError("SQL query", f"could not be run ({type(exc).__name__}: "
                                f"{_mask(str(exc), secret)[:200]})")]
    return [Upload(facts.name, "table", table_csv(facts), fmt="csv")], []


def _mask(text: str, secret: str) -> str:
    return text.replace(secret, "***") if secret else text
