"""Reading a data file into text safely: size limit, gzip, UTF-8 check, clear errors.

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
import re
import zlib
from pathlib import Path

from ..errors import SourceError

__all__ = ["read_text", "read_bytes", "DEFAULT_MAX_BYTES", "looks_like_html", "looks_like_formula"]

DEFAULT_MAX_BYTES = 200 * 1024 * 1024
_HTML = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(\s[^<>]*)?/?>|javascript:", re.IGNORECASE)


def read_bytes(source: str | Path | bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """Raw bytes of a file (or the given bytes), gunzipped when gzip, within ``max_bytes``."""
    if isinstance(source, bytes):
        data = source
    else:
        path = Path(source)
        if not path.is_file():
            raise SourceError(name, f"no such file: {path}")
        size = path.stat().st_size
        if size > max_bytes:
            raise SourceError(
                name, f"file is {_mb(size)}, larger than the limit of {_mb(max_bytes)}"
            )
        data = path.read_bytes()
    if len(data) > max_bytes:
        raise SourceError(
            name, f"file is {_mb(len(data))}, larger than the limit of {_mb(max_bytes)}"
        )
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as gz:
                data = gz.read(max_bytes + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise SourceError(name, f"damaged gzip file ({exc})") from exc
        if len(data) > max_bytes:
            raise SourceError(name, f"uncompressed content is larger than {_mb(max_bytes)}")
    return data


def read_text(source: str | Path | bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Text of a UTF-8 file; rejects empty, binary (NUL bytes) and non-UTF-8 content."""
    data = read_bytes(source, name, max_bytes)
    if not data.strip():
        raise SourceError(name, "file is empty")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start]
        raise SourceError(
            name, f"not UTF-8 text (byte 0x{bad:02x} at column {col}); save the file as UTF-8", line
        ) from None
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


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB"
