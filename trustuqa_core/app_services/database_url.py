"""Opening a PostgreSQL table on the Data page, as the CLI does, with the password kept out.

:func:`open_database_url` reads the tables named (or all) of a ``postgresql://`` URL through
:func:`trustuqa_core.translate.load_sources` (read-only transaction, quoted identifiers, the
row and fact limits) and keeps each as a snapshot: an :class:`~.data.Upload` holding the
table as CSV, so the rest of the app (previews, export stamps, history, removal) treats it
like any loaded table and the URL — with its password — is never stored. The password is
given apart from the URL or inside it; every message names the URL masked
(:func:`~trustuqa_core.translate.databases.safe_url`).

>>> with_password("postgresql://ann@db:5432/shop", "p@ss word")
'postgresql://ann:p%40ss%20word@db:5432/shop'
>>> open_database_url("mysql://ann:secret@db/shop")[1][0].problem
'not a PostgreSQL URL: it must start with postgresql:// (e.g. postgresql://user@host:5432/database)'
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from urllib.parse import quote, urlsplit, urlunsplit

import pandas as pd

from ..errors import SourceError, TrustUQAError
from ..sources import SourceFacts
from ..translate import load_sources
from ..translate.databases import safe_url
from .data import Upload

__all__ = ["with_password", "open_database_url", "table_csv", "EXAMPLE_URL"]

log = logging.getLogger(__name__)
EXAMPLE_URL = "postgresql://user@host:5432/database"
_SCHEMES = ("postgresql", "postgres")


def with_password(url: str, password: str) -> str:
    """``url`` with ``password`` put in (percent-encoded); ``url`` as it is when the password
    is empty or the URL already holds one."""
    parts = urlsplit(url.strip())
    if not password or parts.password is not None or not parts.username:
        return url.strip()
    host = parts.netloc.split("@", 1)[1]
    netloc = f"{parts.username}:{quote(password, safe='')}@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def table_csv(facts: SourceFacts) -> bytes:
    """A table source's rows as UTF-8 CSV (columns in order, cells as read).

    >>> from trustuqa_core.translate import load_source
    >>> table_csv(load_source(b"a,b\\n1,\\n3,x\\n", "table", "t.csv")).decode()
    'a,b\\n1,\\n3,x\\n'
    """
    rows: list[dict[str, str]] = [{} for _ in range(facts.n_rows)]
    for head, rel, tail in zip(facts.heads, facts.relations, facts.tails, strict=True):
        row = int(str(head)) - 1
        if rel in facts.columns and 0 <= row < len(rows):
            rows[row][rel] = tail
    frame = pd.DataFrame([[r.get(c, "") for c in facts.columns] for r in rows],
                         columns=list(facts.columns))
    out = io.StringIO()
    frame.to_csv(out, index=False, lineterminator="\n")
    return out.getvalue().encode("utf-8")


def open_database_url(url: str, password: str = "",
                      tables: Sequence[str] = ()) -> tuple[list[Upload], list[SourceError]]:
    """The tables of a PostgreSQL URL as table uploads (CSV snapshots named
    ``<database>:<table>``), or one :class:`SourceError` saying what is wrong (the URL in it
    masked). ``tables`` empty: every table the user may read."""
    text = url.strip()
    if not text:
        return [], [SourceError("PostgreSQL", f"enter a URL such as {EXAMPLE_URL}")]
    shown = safe_url(text)
    if urlsplit(text).scheme.lower() not in _SCHEMES:
        return [], [SourceError(shown, "not a PostgreSQL URL: it must start with postgresql:// "
                                       f"(e.g. {EXAMPLE_URL})")]
    full = with_password(text, password)
    secret = urlsplit(full).password or ""
    wanted = [t.strip() for t in tables if t.strip()]
    try:
        facts = load_sources(full, "table", tables=wanted or None)
    except SourceError as err:
        return [], [SourceError(_mask(err.source, secret), _mask(err.problem, secret),
                                err.line)]
    except TrustUQAError as err:
        return [], [SourceError(shown, _mask(str(err), secret))]
    except Exception as exc:  # noqa: BLE001 - a driver's own error must not reach the page raw
        log.error("opening %s failed: %s", shown, type(exc).__name__)
        return [], [SourceError(shown, f"could not be read ({type(exc).__name__}: "
                                       f"{_mask(str(exc), secret)[:200]})")]
    if not facts:
        return [], [SourceError(shown, "the database has no table this user may read")]
    return [Upload(f.name, "table", table_csv(f), fmt="csv") for f in facts], []


def _mask(text: str, secret: str) -> str:
    return text.replace(secret, "***") if secret else text
