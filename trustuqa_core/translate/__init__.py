"""Translators: each source kind -> :class:`~trustuqa_core.sources.SourceFacts`.

Files are tables (CSV, TSV, XLSX, JSON), KGs (triples; RDF as N-Triples or Turtle) or temporal
KGs (quintuples); databases (SQLite, DuckDB, Parquet, PostgreSQL) give one table source per
table. :func:`load_sources` opens anything by its suffix or URL; :func:`load_source` reads
exactly one source.

>>> facts = load_source(b"Name,Year\\nAnn,1999\\n", "table", name="t.csv")
>>> facts.kind, facts.n_rows, facts.columns
('table', 1, ('Name', 'Year'))
>>> source_kind("films.ttl"), source_kind("shop.sqlite#orders"), source_kind("notes.txt")
('kg', 'table', None)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import SourceError
from ..sources import SourceFacts, SourceKind
from .databases import database_kind, open_database, safe_url
from .kg import from_triples, read_triples
from .rdf import RDF_FORMATS, read_rdf
from .sql_query import open_query
from .table import from_table, read_table
from .temporal_kg import read_quintuples

__all__ = [
    "load_source",
    "load_sources",
    "source_kind",
    "split_tables",
    "open_database",
    "open_query",
    "read_rdf",
    "read_table",
    "from_table",
    "read_triples",
    "from_triples",
    "read_quintuples",
    "KINDS",
    "TABLE_SUFFIXES",
]

KINDS: tuple[SourceKind, ...] = ("table", "kg", "tkg")
TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".xlsm", ".json")

Location = str | Path | bytes


def split_tables(location: str | Path) -> tuple[str | Path, list[str]]:
    """A database location and the tables named after a ``#`` (comma-separated), e.g.
    ``shop.sqlite#orders,items`` or ``postgresql://ann@db/shop#orders``. A path that exists
    as a file is never split.

    >>> split_tables("shop.sqlite#orders,items"), split_tables("t.csv")
    (('shop.sqlite', ['orders', 'items']), ('t.csv', []))
    """
    text = str(location)
    base, sep, names = text.rpartition("#")
    if not sep or Path(text).is_file() or database_kind(base) is None:
        return location, []
    return base, [n.strip() for n in names.split(",") if n.strip()]


def source_kind(location: str | Path, name: str | None = None) -> SourceKind | None:
    """The source kind a file suffix or database URL implies (``None`` when it does not:
    ``.txt``/``.tsv`` triples and quintuples look alike, so the caller says which).

    >>> source_kind("a.nt"), source_kind("postgresql://h/db"), source_kind("x.xlsx")
    ('kg', 'table', 'table')
    """
    base = split_tables(location)[0] if name is None else name
    if database_kind(base) is not None:
        return "table"
    suffix = Path(str(base).removesuffix(".gz")).suffix.lower()
    if suffix in RDF_FORMATS:
        return "kg"
    if suffix in (".csv", ".xlsx", ".xlsm", ".json"):
        return "table"
    return None


def load_sources(
    location: Location,
    kind: str | None = None,
    name: str | None = None,
    tables: Sequence[str] | None = None,
    max_bytes: int | None = None,
    fmt: str | None = None,
) -> list[SourceFacts]:
    """Every source at ``location``: one per database table, else the one file.

    ``location`` is a path, a file's bytes (``name`` then gives the suffix), or a PostgreSQL
    URL. ``kind`` may be left out when the suffix implies it (:func:`source_kind`). ``tables``
    (or ``#t1,t2`` after a database location) limits a database to the tables named.
    ``fmt`` reads one table in that format whatever the name says (see :func:`load_source`).

    >>> [f.name for f in load_sources(b"<http://x/a> <http://x/r> <http://x/b> .\\n",
    ...                               name="g.nt")]
    ['g.nt']
    """
    if fmt:
        if tables:
            raise SourceError(name or "source", "only a database has tables to choose")
        return [load_source(location, kind, name, max_bytes, fmt)]
    wanted = list(tables or [])
    if not isinstance(location, bytes):
        location, named = split_tables(location)
        wanted += named
    label = _label(location, name)
    implied = None if isinstance(location, bytes) else source_kind(location)
    if implied is None and label:
        implied = source_kind(label, label)
    kind = kind or implied
    if kind is None:
        raise SourceError(label or "source", "cannot tell the source kind; say table, kg or tkg")
    db = database_kind(label or "") if isinstance(location, bytes) else database_kind(location)
    if db is not None:
        if kind != "table":
            raise SourceError(_shown(location, label), f"a database holds tables, not a {kind}")
        return open_database(location, wanted or None, name, max_bytes)
    if wanted:
        raise SourceError(_shown(location, label), "only a database has tables to choose")
    return [load_source(location, kind, name, max_bytes)]


def load_source(
    source: Location,
    kind: str | None = None,
    name: str | None = None,
    max_bytes: int | None = None,
    fmt: str | None = None,
) -> SourceFacts:
    """Read one source of the given kind (``table``, ``kg`` or ``tkg``) into facts.

    A database must hold one table, or one must be named (``shop.sqlite#orders``); RDF files
    (``.nt``, ``.ttl``) are KGs. Without ``kind`` the suffix decides (:func:`source_kind`).
    ``fmt`` (``csv``, ``tsv``, ``xlsx``, ``json``) reads a table in that format whatever its
    name says: a database table called ``t.xlsx``, kept as CSV, is read as CSV.

    >>> load_source(b"a,b\\n1,2\\n", "table", name="pg:t.xlsx", fmt="csv").columns
    ('a', 'b')
    """
    label = _label(source, name)
    if fmt:
        if kind not in (None, "table"):
            raise SourceError(label or kind, f"a format ({fmt}) is only given for a table")
        kind = "table"  # and never a database: the format says how to read these bytes
    elif kind is None or _opens_elsewhere(source, label):
        found = load_sources(source, kind, name, None, max_bytes)
        if len(found) != 1:
            tables = ", ".join(f.name for f in found[:10])
            raise SourceError(
                _shown(source, label),
                f"holds {len(found)} tables ({tables}); name one after a '#', "
                "or open them all with load_sources",
            )
        return found[0]
    name = label or kind
    if kind == "table":
        df = read_table(source, name, max_bytes, fmt)
        return from_table(df, name, None if isinstance(source, bytes) else str(source))
    if kind == "kg":
        if Path(name.removesuffix(".gz")).suffix.lower() in RDF_FORMATS:
            return read_rdf(source, name, max_bytes)
        return read_triples(source, name, max_bytes)
    if kind == "tkg":
        if Path(name.removesuffix(".gz")).suffix.lower() in RDF_FORMATS:
            raise SourceError(name, "an RDF file is read as a kg (its times are not read yet)")
        return read_quintuples(source, name, max_bytes)
    raise SourceError(name, f"unknown source kind {kind!r}; expected one of {', '.join(KINDS)}")


def _label(source: Location, name: str | None) -> str | None:
    """The name a source goes by: the one given, else the file name (``None`` for bytes and
    for URLs, whose name comes from the database and never holds the password)."""
    if name or isinstance(source, bytes) or "://" in str(source):
        return name
    return Path(split_tables(source)[0]).name


def _opens_elsewhere(source: Location, label: str | None) -> bool:
    """True for a database (file or URL), which :func:`load_sources` reads table by table."""
    if isinstance(source, bytes):
        return label is not None and database_kind(label) is not None
    return database_kind(split_tables(source)[0]) is not None


def _shown(location: Location, label: str | None) -> str:
    """What an error calls a location: its name, a URL without its password."""
    if label:
        return safe_url(label) if "://" in label else label
    return "source" if isinstance(location, bytes) else safe_url(str(location))
