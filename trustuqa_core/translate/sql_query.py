"""A read-only SQL query's result as a table source (SQLite and DuckDB files, PostgreSQL).

:func:`open_query` runs one ``SELECT`` (or ``WITH ... SELECT`` / ``VALUES``) over a database and
loads its result as a table source named by the user: ``<database>:<name>``. Anything else is
refused before the database is opened, with a message naming the problem:

- :func:`check_select` reads the text with a small lexer (comments, quoted strings and quoted
  identifiers are skipped, so a ``;`` or ``DELETE`` inside them is harmless and one hidden
  behind a comment is found): exactly one statement (one trailing ``;`` allowed), starting with
  ``SELECT``/``WITH``/``VALUES``, no keyword that writes, changes the schema or the session
  (``INSERT``, ``INTO``, ``DROP``, ``ATTACH``, ``PRAGMA``, ``COPY``, ...), none of the server
  functions that act outside the query (``pg_terminate_backend``, ``pg_read_file``,
  ``pg_sleep``, ``dblink``, ...), and none of the quoting forms dialects read differently
  (``E'...'`` escape strings, ``$$`` dollar quotes, nested block comments).
- the database is then opened read-only as for whole tables
  (:mod:`.databases`), and the driver checks again: SQLite through a ``mode=ro`` URI,
  ``query_only`` and an authorizer that allows reading only; DuckDB read-only without access to
  other files, its own parser confirming one ``SELECT``; PostgreSQL in a read-only transaction
  through a server-side cursor (which only takes a query). Each stops after
  :data:`QUERY_SECONDS`.

Rows are fetched in batches and stop at the ``table_rows`` / ``facts`` limits, as for tables.

>>> check_select("SELECT name FROM items WHERE note = 'a;b' -- fine;\\n;")
"SELECT name FROM items WHERE note = 'a;b' -- fine;"
>>> check_select("SELECT 1; /* hidden */ DELETE FROM items")
Traceback (most recent call last):
...
trustuqa_core.errors.SourceError: SQL query: more than one statement: only one SELECT is run \
(a ';' at line 1, column 9 is followed by more SQL)
>>> import sqlite3, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "shop.sqlite")
>>> with sqlite3.connect(path) as db:
...     _ = db.execute("CREATE TABLE items (name TEXT, price REAL)")
...     _ = db.execute("INSERT INTO items VALUES ('pen', 1.5), ('ink', 7)")
>>> facts = open_query(path, "SELECT name, price * 2 AS double FROM items", "doubled")
>>> facts.name, facts.columns, list(facts.tails[:2])
('shop.sqlite:doubled', ('name', 'double'), ['pen', '3.0'])
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from ..errors import SourceError
from ..sources import SourceFacts
from .databases import (
    DATABASE_SUFFIXES,
    _first_line,
    _local_file,
    _read_rows,
    database_kind,
    safe_url,
)
from .rdf import RDF_FORMATS

__all__ = ["check_select", "check_result_name", "open_query", "FORBIDDEN_WORDS",
           "QUERY_SECONDS", "MAX_SQL_CHARS"]

#: keywords that write, change the schema, the session or the transaction, or reach outside
#: the database; found anywhere outside literals and quoted identifiers (and not called as a
#: function, as ``replace(name, 'a', 'b')`` is), they refuse the query
_WORDS_TEXT = """
insert update delete merge upsert replace create drop alter truncate rename attach detach
pragma copy into grant revoke vacuum analyze call execute exec do load install force export
import lock unlock commit rollback begin savepoint release prepare deallocate listen unlisten
notify checkpoint reindex refresh cluster discard reset set use returning
"""
FORBIDDEN_WORDS = frozenset(_WORDS_TEXT.split())
#: functions that act outside the query (signals, server files, sleeping, other servers,
#: large objects, settings, locks, sequences); refused when called
_FUNCTIONS_TEXT = """
pg_terminate_backend pg_cancel_backend pg_reload_conf pg_rotate_logfile pg_read_file
pg_read_binary_file pg_ls_dir pg_stat_file pg_sleep pg_sleep_for pg_sleep_until
pg_promote pg_switch_wal pg_create_restore_point set_config nextval setval
load_extension readfile writefile edit fts3_tokenizer sleep query_table read_text read_blob
"""
FORBIDDEN_FUNCTIONS = frozenset(_FUNCTIONS_TEXT.split())
_FORBIDDEN_PREFIXES = ("dblink", "lo_", "pg_advisory", "pg_try_advisory", "pg_logical",
                       "pg_replication", "pg_file", "read_", "sniff_")
_FIRST_WORDS = ("select", "with", "values")
#: a query may run this long (PostgreSQL statement timeout, SQLite progress deadline, DuckDB
#: interrupt)
QUERY_SECONDS = 60
#: the longest SQL text accepted
MAX_SQL_CHARS = 20_000
_NAME_CHARS = 80
#: a result name may not end like a file the loaders read by its suffix (the snapshot would be
#: read as that kind of file)
_FILE_SUFFIXES = frozenset({*DATABASE_SUFFIXES, *RDF_FORMATS, ".csv", ".tsv", ".xlsx", ".xlsm",
                            ".json", ".gz", ".txt"})
_LABEL = "SQL query"


def check_result_name(name: str) -> str:
    """The name a user gave a query's result, stripped; a clear error when it is unusable.

    >>> check_result_name("  big orders ")
    'big orders'
    >>> check_result_name("a\\nb")
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.SourceError: SQL query: the result name cannot contain control \
characters or '#'
    """
    text = name.strip()
    if not text:
        raise SourceError(_LABEL, "give the result a name (it becomes the table's name)")
    if len(text) > _NAME_CHARS:
        raise SourceError(_LABEL, f"the result name is longer than {_NAME_CHARS} characters")
    if any(ord(c) < 32 or c in "#\x7f" for c in text):
        raise SourceError(_LABEL, "the result name cannot contain control characters or '#'")
    suffix = Path(text).suffix.lower()
    if suffix in _FILE_SUFFIXES:
        raise SourceError(_LABEL, f"the result name cannot end in a file suffix ({suffix!r}): "
                          "it names a table, not a file")
    return text


def check_select(sql: str) -> str:
    """``sql`` as one read-only query, without its trailing ``;``; :class:`SourceError`
    naming the problem otherwise (see the module docstring).

    >>> check_select("with t as (select 1 as x) select x from t;")
    'with t as (select 1 as x) select x from t'
    >>> check_select('SELECT "delete" FROM "drop;me"')
    'SELECT "delete" FROM "drop;me"'
    >>> check_select("SELECT * INTO copy_of FROM items")
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.SourceError: SQL query: INTO is not allowed in a read-only query \
(line 1, column 10); only reading is (a column of that name can be double-quoted: "INTO")
    """
    if len(sql) > MAX_SQL_CHARS:
        raise SourceError(_LABEL, f"the query is longer than {MAX_SQL_CHARS:,} characters")
    if "\x00" in sql:
        raise SourceError(_LABEL, "the query contains a NUL character")
    words, quoted, semicolons = _lex(sql)
    if not words:
        raise SourceError(_LABEL, "the query is empty: write one SELECT statement")
    last = max(words[-1][1], quoted[-1][1] if quoted else 0)
    for pos in semicolons:
        if pos < last:
            raise SourceError(_LABEL, "more than one statement: only one SELECT is run (a ';' "
                              f"at {_where(sql, pos)} is followed by more SQL)")
    first = words[0][0].casefold()
    if first not in _FIRST_WORDS:
        raise SourceError(_LABEL, f"only a SELECT query can be run (it starts with "
                          f"{words[0][0][:30]!r}); writes and other statements are refused")
    for word, pos, called in words:
        low = word.casefold()
        if low in FORBIDDEN_WORDS and not called:
            raise SourceError(_LABEL, f"{word.upper()} is not allowed in a read-only query "
                              f"({_where(sql, pos)}); only reading is (a column of that name "
                              f'can be double-quoted: "{word}")')
    for word, pos, called in [*words, *quoted]:
        low = word.casefold()
        if called and (low in FORBIDDEN_FUNCTIONS or low.startswith(_FORBIDDEN_PREFIXES)):
            raise SourceError(_LABEL, f"the function {word}() is not allowed in a read-only "
                              f"query ({_where(sql, pos)}): it acts outside the query")
    return sql[:semicolons[0]].rstrip() if semicolons else sql.rstrip()


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


Word = tuple[str, int, bool]


def _lex(sql: str) -> tuple[list[Word], list[Word], list[int]]:
    """``(words, quoted, semicolons)``: each bare word and each double-quoted or back-quoted
    name with its offset and whether ``(`` follows it (a call), and the offset of each ``;``
    outside literals and comments."""
    words: list[Word] = []
    quoted: list[Word] = []
    semis: list[int] = []
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if sql.startswith("--", i):
            nl = sql.find("\n", i)
            i = n if nl < 0 else nl + 1
        elif sql.startswith("/*", i):
            close = sql.find("*/", i + 2)
            if close < 0:
                raise SourceError(_LABEL, f"a comment opened at {_where(sql, i)} is not closed")
            if "/*" in sql[i + 2:close]:
                raise SourceError(_LABEL, f"a comment inside a comment ({_where(sql, i)}) is "
                                  "read differently by different databases; remove it")
            i = close + 2
        elif c in "'\"`":
            start, i = i, _skip_quoted(sql, i, c)
            if c != "'":
                name = sql[start + 1:i - 1].replace(c * 2, c)
                quoted.append((name, start, sql[i:].lstrip().startswith("(")))
        elif c == "$" and re.match(r"\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$", sql[i:]):
            raise SourceError(_LABEL, f"dollar-quoted text ({_where(sql, i)}) is not accepted: "
                              "write strings in single quotes ('it''s')")
        elif c == ";":
            semis.append(i)
            i += 1
        elif m := _WORD.match(sql, i):
            word = m.group()
            if word.casefold() == "e" and sql.startswith("'", m.end()):
                raise SourceError(_LABEL, f"an escape string (E'...', {_where(sql, i)}) is not "
                                  "accepted: write strings in single quotes ('it''s')")
            rest = sql[m.end():].lstrip()
            words.append((word, i, rest.startswith("(")))
            i = m.end()
        else:
            i += 1
    return words, quoted, semis


def _skip_quoted(sql: str, i: int, quote_char: str) -> int:
    """The offset after the quoted text starting at ``i`` (a doubled quote stays inside)."""
    j = i + 1
    while True:
        k = sql.find(quote_char, j)
        if k < 0:
            what = "a string" if quote_char == "'" else "a quoted name"
            raise SourceError(_LABEL, f"{what} opened at {_where(sql, i)} is not closed")
        if sql.startswith(quote_char * 2, k):
            j = k + 2
            continue
        return k + 1


def _where(sql: str, pos: int) -> str:
    line = sql.count("\n", 0, pos) + 1
    col = pos - (sql.rfind("\n", 0, pos) + 1) + 1
    return f"line {line}, column {col}"


def open_query(location: str | Path | bytes, sql: str, name: str, *,
               label: str | None = None, max_bytes: int | None = None) -> SourceFacts:
    """The result of the read-only query ``sql`` over a database as one table source named
    ``<database>:<name>`` (``label`` overrides the database part).

    ``location`` is a SQLite or DuckDB file (a path, or its bytes with ``label`` giving the
    file name) or a ``postgresql://`` URL. :class:`SourceError` names what is wrong: the
    query (:func:`check_select`), the name, the database, or the database's own error.
    """
    statement = check_select(sql)
    result = check_result_name(name)
    if isinstance(location, bytes):
        if label is None:
            raise SourceError(_LABEL, "a database given as bytes needs a file name")
        kind = database_kind(label)
    else:
        kind = database_kind(location)
    if kind == "postgresql":
        return _postgresql(str(location), statement, result, label)
    if kind not in ("sqlite", "duckdb"):
        raise SourceError(label or _shown(location), "a SQL query runs over a SQLite or DuckDB "
                          "file or a PostgreSQL URL")
    db_label = label or (Path(location).name if not isinstance(location, bytes) else kind)
    origin = None if isinstance(location, bytes) else str(location)
    with _local_file(location, db_label, max_bytes) as path:
        if kind == "sqlite":
            return _sqlite(path, statement, f"{db_label}:{result}", origin)
        return _duckdb(path, statement, f"{db_label}:{result}", origin)


def _shown(location: str | Path | bytes) -> str:
    return "database" if isinstance(location, bytes) else safe_url(str(location))


# ------------------------------------------------------------------------------ SQLite
#: what the SQLite authorizer lets a query do: read tables and columns, call functions (all
#: but the forbidden ones), recurse in a CTE, and the SELECT itself
_SQLITE_ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                   getattr(sqlite3, "SQLITE_RECURSIVE", 33)}


def _sqlite_authorizer(action: int, arg1: str | None, _arg2: str | None, _db: str | None,
                       _trigger: str | None) -> int:
    if action not in _SQLITE_ALLOWED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (arg1 or "").casefold() in FORBIDDEN_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _sqlite(path: Path, sql: str, name: str, origin: str | None) -> SourceFacts:
    with path.open("rb") as f:
        if f.read(16) != b"SQLite format 3\x00":
            raise SourceError(name, "not a SQLite database (the file does not start like one)")
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise SourceError(name, f"cannot be opened read-only ({exc})") from None
    deadline = time.monotonic() + QUERY_SECONDS
    try:
        db.execute("PRAGMA query_only = ON")
        db.set_authorizer(_sqlite_authorizer)
        db.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
        cur = db.execute(sql)
        if cur.description is None:
            raise SourceError(name, "the statement returns no rows")
        columns = [d[0] for d in cur.description]
        return _read_rows(cur.fetchmany, columns, name, origin)
    except sqlite3.Error as exc:
        text = str(exc)
        if "interrupted" in text:
            text = f"the query ran longer than {QUERY_SECONDS} s and was stopped"
        elif "not authorized" in text:
            text = "not authorized: the query tried something other than reading"
        raise SourceError(name, f"SQLite error: {text}") from None
    finally:
        db.close()


# ------------------------------------------------------------------------------ DuckDB
def _duckdb(path: Path, sql: str, name: str, origin: str | None) -> SourceFacts:
    import duckdb

    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        raise SourceError(name, f"DuckDB cannot parse the query: {_first_line(exc)}") from None
    if len(statements) != 1 or statements[0].type != duckdb.StatementType.SELECT:
        raise SourceError(name, "DuckDB reads this as something other than one SELECT")
    try:
        db = duckdb.connect(str(path), read_only=True,
                            config={"enable_external_access": False})
    except duckdb.Error as exc:
        raise SourceError(name, f"not a readable DuckDB database ({_first_line(exc)})") from None
    timer = threading.Timer(QUERY_SECONDS, db.interrupt)  # the deadline: interrupt the query
    timer.start()
    try:
        cur = db.execute(sql)
        columns = [d[0] for d in cur.description or ()]
        return _read_rows(cur.fetchmany, columns, name, origin)
    except duckdb.InterruptException:
        raise SourceError(name, f"the query ran longer than {QUERY_SECONDS} s and was "
                          "stopped") from None
    except duckdb.Error as exc:
        raise SourceError(name, f"DuckDB error: {_first_line(exc)}") from None
    finally:
        timer.cancel()
        db.close()


# ------------------------------------------------------------------------------ PostgreSQL
def _postgresql(url: str, sql: str, result: str, label: str | None) -> SourceFacts:
    import psycopg

    shown = safe_url(url)
    password = urlsplit(url).password
    dbname = label or (urlsplit(url).path.lstrip("/") or "postgres")
    name = f"{dbname}:{result}"

    def clean(exc: BaseException) -> str:
        text = _first_line(exc)
        return text.replace(password, "***") if password else text

    try:
        conn = psycopg.connect(url, connect_timeout=10, autocommit=False)
    except psycopg.Error as exc:
        raise SourceError(name, f"cannot connect to {shown}: {clean(exc)}") from None
    except ValueError as exc:
        raise SourceError(name, f"not a usable PostgreSQL URL ({clean(exc)})") from None
    try:
        conn.read_only = True
        with conn.transaction():
            conn.execute(f"SET LOCAL statement_timeout = {int(QUERY_SECONDS * 1000)}")
            # a server-side cursor: DECLARE takes one query and nothing else, rows stream
            with conn.cursor(name="trustuqa_query") as cur:
                cur.execute(_no_placeholders(sql + "\n"))  # "\n": ends a last -- comment
                columns = [d.name for d in cur.description or ()]
                return _read_rows(cur.fetchmany, columns, name, shown)
    except psycopg.errors.QueryCanceled:
        raise SourceError(name, f"the query ran longer than {QUERY_SECONDS} s and was "
                          "stopped") from None
    except psycopg.Error as exc:
        raise SourceError(name, f"PostgreSQL error: {clean(exc)}") from None
    finally:
        conn.close()


def _no_placeholders(sql: str) -> Any:
    """The query as a psycopg ``SQL`` object, so a ``%`` in it (``LIKE 'a%'``) is text, not
    a parameter placeholder."""
    from psycopg import sql as pgsql

    return pgsql.SQL(sql)  # type: ignore[arg-type]
