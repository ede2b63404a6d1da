"""Reading a data file into text safely: size limits, gzip, UTF-8 check, clear errors.

Sizes are bounded by :mod:`trustuqa_core.limits`: the file itself by ``upload_bytes``, its
uncompressed content (gzip, or the members of an XLSX zip) by ``unzipped_bytes``, checked
before anything is parsed; JSON nesting by ``json_depth``.

>>> read_text(b"a\\tb\\n", "x.tsv")
'a\\tb\\n'
>>> read_text(b"caf\\xe9\\n", "x.tsv")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
trustuqa_core.errors.SourceError: x.tsv, line 1: not UTF-8 text (byte 0xe9 at column 4); ...
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import LimitError, SourceError, SourceLimitError
from ..limits import DEFAULT_LIMITS, bytes_text, current_limits, over_limit

__all__ = [
    "read_text",
    "read_any_text",
    "read_bytes",
    "check_zip_size",
    "load_json",
    "check_count",
    "json_depth",
    "DEFAULT_MAX_BYTES",
    "looks_like_html",
    "looks_like_formula",
]

DEFAULT_MAX_BYTES = DEFAULT_LIMITS.upload_bytes
_CHUNK = 1024 * 1024
_HTML = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(\s[^<>]*)?/?>|javascript:", re.IGNORECASE)


def read_bytes(source: str | Path | bytes, name: str, max_bytes: int | None = None) -> bytes:
    """Raw bytes of a file (or the given bytes), gunzipped when gzip.

    The file may hold at most ``max_bytes`` (default: the ``upload_bytes`` limit), its gzip
    content at most the ``unzipped_bytes`` limit, which is enforced while inflating.
    """
    limits = current_limits()
    cap = limits.upload_bytes if max_bytes is None else max_bytes
    if isinstance(source, bytes):
        data = source
    else:
        path = Path(source)
        if not path.is_file():
            raise SourceError(name, f"no such file: {path}")
        _check_size(name, path.stat().st_size, cap)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise SourceError(name, f"cannot be read ({exc.strerror or exc})") from None
    _check_size(name, len(data), cap)
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, name, limits.unzipped_bytes)
    return data


def _check_size(name: str, size: int, cap: int) -> None:
    if size > cap:
        found = f"file is {bytes_text(size)}, larger than allowed"
        raise SourceLimitError(name, over_limit(found, "upload_bytes", cap, "bytes"))


def _gunzip(data: bytes, name: str, cap: int) -> bytes:
    """Inflate gzip ``data`` chunk by chunk, stopping as soon as it exceeds ``cap`` bytes."""
    out = bytearray()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz:
            while chunk := gz.read(min(_CHUNK, cap + 1 - len(out))):
                out += chunk
                if len(out) > cap:
                    found = "uncompressed content is larger than allowed"
                    raise SourceLimitError(name, over_limit(found, "unzipped_bytes", cap, "bytes"))
    except (OSError, EOFError, zlib.error) as exc:
        raise SourceError(name, f"damaged gzip file ({exc})") from None
    return bytes(out)


def check_zip_size(data: bytes, name: str) -> None:
    """Refuse a zip (an XLSX workbook) whose members inflate beyond the ``unzipped_bytes``
    limit, before any member is decompressed. The sizes come from the zip directory; Python's
    zipfile never inflates a member beyond its declared size, so they are a true bound.

    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    ...     z.writestr("a.xml", "0" * 2_000_000)
    >>> len(buf.getvalue()) < 10_000
    True
    >>> check_zip_size(buf.getvalue(), "b.xlsx")  # 2 MB: within the default limit
    >>> check_zip_size(b"not a zip", "b.xlsx")
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.SourceError: b.xlsx: not a readable .xlsx workbook (not a zip archive)
    """
    cap = current_limits().unzipped_bytes
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(max(info.file_size, 0) for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise SourceError(name, "not a readable .xlsx workbook (not a zip archive)") from None
    if total > cap:
        found = f"the workbook inflates to {bytes_text(total)}"
        raise SourceLimitError(name, over_limit(found, "unzipped_bytes", cap, "bytes"))


def check_count(name: str, count: int, field: str, noun: str, found: str | None = None) -> None:
    """Refuse a file with more than the ``field`` limit of ``noun`` (rows, facts); ``found``
    replaces the default description (``more than <limit> <noun>``).

    >>> check_count("t.csv", 10, "table_rows", "rows")
    >>> check_count("t.csv", 10**9, "table_rows", "rows")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.SourceLimitError: t.csv: more than 1,000,000 rows (limit: ...)
    """
    cap = getattr(current_limits(), field)
    if count > cap:
        found = found or f"more than {cap:,} {noun}"
        raise SourceLimitError(name, over_limit(found, field, cap, noun))


def json_depth(value: Any) -> int:
    """Nesting depth of a parsed JSON value (a scalar is 0), computed without recursion.

    >>> json_depth(1), json_depth([]), json_depth({"a": [1, [2]]})
    (0, 1, 3)
    """
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def load_json(text: str, max_depth: int | None = None) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` (default: the
    ``json_depth`` limit) with a :class:`~trustuqa_core.errors.LimitError`, never a
    ``RecursionError``; invalid JSON raises ``json.JSONDecodeError`` as usual.

    >>> load_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> load_json("[[[1]]]", max_depth=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.LimitError: JSON nested deeper than 2 levels (limit: 2 levels; ...)
    """
    cap = current_limits().json_depth if max_depth is None else max_depth
    too_deep = LimitError(
        over_limit(f"JSON nested deeper than {cap} levels", "json_depth", cap, "levels")
    )
    try:
        value = json.loads(text)
    except RecursionError:  # the C decoder stops at the interpreter's recursion limit
        raise too_deep from None
    if json_depth(value) > cap:
        raise too_deep
    return value


def read_text(source: str | Path | bytes, name: str, max_bytes: int | None = None) -> str:
    """Text of a UTF-8 file; rejects empty, binary (NUL bytes) and non-UTF-8 content."""
    data = read_bytes(source, name, max_bytes)
    if not data.strip():
        raise SourceError(name, "file is empty")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _position(data, exc.start)
        bad = data[exc.start]
        raise SourceError(
            name, f"not UTF-8 text (byte 0x{bad:02x} at column {col}); save the file as UTF-8", line
        ) from None
    return _no_nul(text, name)


def read_any_text(
    source: str | Path | bytes, name: str, max_bytes: int | None = None
) -> tuple[str, list[str]]:
    """Text of a file in UTF-8, UTF-16 (with a byte-order mark), Windows-1252 or Latin-1, and
    a warning naming the encoding when it was not UTF-8 (empty list for UTF-8).

    The order is fixed, never guessed from statistics: a UTF-16 byte-order mark, then UTF-8
    (with or without its mark), then Windows-1252 (which defines curly quotes, dashes and the
    euro sign in bytes 0x80-0x9f), then Latin-1, which decodes any byte. Empty and binary
    (NUL bytes) files are refused as by :func:`read_text`.

    >>> text, warnings = read_any_text(b"City\\nZ\\xfcrich\\n", "c.csv")
    >>> text.split()[1], warnings
    ('Zürich', ['c.csv: not UTF-8 (byte 0xfc at line 2, column 2); read as Latin-1 (ISO-8859-1)'])
    >>> read_any_text(b"\\x93hi\\x94", "q.csv")[0], read_any_text(b"ok", "u.csv")
    ('“hi”', ('ok', []))
    """
    data = read_bytes(source, name, max_bytes)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise SourceError(name, f"damaged UTF-16 text ({exc.reason})") from None
        if not text.strip():
            raise SourceError(name, "file is empty")
        return _no_nul(text, name), [f"{name}: read as UTF-16 (it starts with a UTF-16 mark)"]
    if not data.strip():
        raise SourceError(name, "file is empty")
    try:
        return _no_nul(data.decode("utf-8-sig"), name), []
    except UnicodeDecodeError as exc:
        line, col = _position(data, exc.start)
        why = f"not UTF-8 (byte 0x{data[exc.start]:02x} at line {line}, column {col})"
    if b"\x00" in data:
        _no_nul(data.decode("latin-1"), name)
    c1 = any(0x80 <= b <= 0x9F for b in data)
    try:
        text, label = data.decode("cp1252"), "Windows-1252" if c1 else "Latin-1 (ISO-8859-1)"
    except UnicodeDecodeError:
        text, label = data.decode("latin-1"), "Latin-1 (ISO-8859-1)"
    return text, [f"{name}: {why}; read as {label}"]


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of byte ``offset``."""
    line = data.count(b"\n", 0, offset) + 1
    return line, offset - (data.rfind(b"\n", 0, offset) + 1) + 1


def _no_nul(text: str, name: str) -> str:
    nul = text.find("\x00")
    if nul >= 0:
        raise SourceError(
            name, "contains NUL bytes: this looks like a binary file", text.count("\n", 0, nul) + 1
        )
    return text


def looks_like_html(text: str) -> bool:
    """True when ``text`` contains an HTML tag or a ``javascript:`` URL.

    >>> looks_like_html("<script>alert(1)</script>"), looks_like_html("a < b > c")
    (True, False)
    """
    return bool(_HTML.search(text))


def looks_like_formula(text: str) -> bool:
    """True for spreadsheet-formula-like text (``=SUM(A1)``, ``@cmd``), which exports must defuse.

    >>> looks_like_formula("=HYPERLINK(1)"), looks_like_formula("-3"), looks_like_formula("- x")
    (True, False, False)
    """
    if not text or text[0] not in "=+-@":
        return False
    if text[0] in "+-":
        return text[1:2] == "=" or text[1:2].isalpha()
    return True

