"""Recognising numbers in cell text, and printing computed numbers.

The original text of a cell is always what is shown; :func:`parse_number` only gives the
value used for comparisons and aggregates.

>>> [parse_number(s) for s in ["1,000", "−3", "12%", "$5", "2.5", "(ESP)", "1,5", ""]]
[1000.0, -3.0, 12.0, 5.0, 2.5, None, None, None]
>>> format_number(20.0), format_number(2.5), format_number(1 / 3)
('20', '2.5', '0.3333333333')
"""

from __future__ import annotations

import math
import re

__all__ = ["parse_number", "format_number", "MINUS_SIGNS"]

MINUS_SIGNS = "-\u2212\u2012\u2013\u2014\ufe63\uff0d"  # hyphen, minus, figure/en/em dash, small/fullwidth

_NUMBER = re.compile(
    r"""^\s*
    (?P<sign>[+\-]?)\s*
    (?P<cur>[$€£¥])?\s*
    (?P<sign2>[+\-]?)
    (?P<int>\d{1,3}(?:,\d{3})+|\d*)
    (?P<frac>\.\d+)?
    \s*(?P<pct>%)?\s*$""",
    re.VERBOSE,
)
_MINUS_TABLE = str.maketrans({c: "-" for c in MINUS_SIGNS[1:3]})


def parse_number(text: object) -> float | None:
    """The numeric value of ``text``, or ``None`` when it is not a plain number.

    Accepts thousands separators in groups of three, a unicode minus, a leading currency
    symbol, a trailing percent sign and a leading ``+``. Ambiguous forms (``1,5``) and text
    with other characters (``12 km``, ``1st``) are not numbers.

    >>> parse_number("+1,234.50"), parse_number("€ 3"), parse_number("-.5"), parse_number("1st")
    (1234.5, 3.0, -0.5, None)
    """
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        return float(text) if math.isfinite(text) else None
    if not isinstance(text, str) or not text or len(text) > 40:
        return None
    m = _NUMBER.match(text.translate(_MINUS_TABLE))
    if m is None or not (m["int"] or m["frac"]):
        return None
    if m["sign"] and m["sign2"]:
        return None
    value = float((m["int"] or "0").replace(",", "") + (m["frac"] or ""))
    return -value if "-" in (m["sign"] + m["sign2"]) else value


def format_number(value: float | int) -> str:
    """Text for a computed number: integral values without a decimal point.

    >>> format_number(3), format_number(-0.0), format_number(1e21)
    ('3', '0', '1e+21')
    """
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if math.isfinite(value) and value == int(value) and abs(value) < 1e16:
        return str(int(value))
    return f"{value:.10g}"
