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

__all__ = ["parse_number", "parse_quantity", "is_duration", "format_number", "MINUS_SIGNS",
           "SCORE", "read_score", "parse_month_day", "ordinal_text"]

MINUS_SIGNS = (
    "-\u2212\u2012\u2013\u2014\ufe63\uff0d"  # hyphen, minus, figure/en/em dash, small/fullwidth
)

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


_SPACED = re.compile(r"^\s*([+\-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?)\s*$")
_ORDINAL = re.compile(r"^\s*(\d+)\s*(?:st|nd|rd|th)[a-z]?\b", re.IGNORECASE)  # 27thq: a typo
_CLOCK = re.compile(r"^\s*(?:(\d+):)?(\d{1,2}):(\d{2}(?:\.\d+)?)\s*$")
_LEADING = re.compile(
    r"^\s*[~≈]?\s*([+\-]?[$€£¥]?\s*(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?![\d:/\-–—])"
)
# feet and inches: 6'8", 6′ 10″, 1 ft 10 3⁄4 in (578 mm); read as inches ('401 ft' alone is
# a leading number with a unit)
_FEET = re.compile(
    r"^\s*(\d+)\s*('|′|ft\.?|feet)\s*(?:(\d+(?:\.\d+)?)(?:\s*(\d+)\s*[⁄/]\s*(\d+))?\s*"
    r"(?:\"|″|''|in\.?|inches)?)?\s*(?:\([^()]*\))?\s*$",
    re.IGNORECASE,
)
# a time of day with am/pm: 7:00 pm, 6 p.m., 11.30 am (EST); read as seconds after midnight
_AMPM = re.compile(
    r"^\s*(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s*m\.?\s*(?:\(?[A-Z]{2,4}\)?)?\s*$",
    re.IGNORECASE,
)
_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, 1)}
_DATE_TEXT = re.compile(
    r"^\s*(?:(\d{1,2})\s+)?([A-Za-z]{3,9})\.?\s+(?:(\d{1,2})(?:st|nd|rd|th)?,?\s+)?(\d{4})\s*$"
)
_DATE_ISO = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")
# a date written in numbers with the year last: '9-1-1909', '12/20/2013', '25/3/1909'
_DATE_NUMERIC = re.compile(r"^\s*(\d{1,2})([/-])(\d{1,2})\2(\d{4})\s*$")


def is_duration(text: object) -> bool:
    """``text`` reads as a clock time or a duration (``1:07.05``), not as a plain number.

    >>> is_duration("2:20.54"), is_duration("1,310")
    (True, False)
    """
    reading = parse_quantity(text)
    return reading is not None and reading[1] == "duration"


def parse_quantity(text: object) -> tuple[float, str] | None:
    """A comparable number for looser text, and how it was read; ``None`` if there is none.

    Tried in order: a plain number, space-grouped thousands, a date (as ``yyyymmdd``), a clock
    time or duration (as seconds), an ordinal, then the leading number of a value with a unit.
    Used only where plain numbers are missing, and always noted in the trace.

    >>> [parse_quantity(s) for s in ["79 037 121", "6th", "1:48.64", "128 kbit/s"]]
    [(79037121.0, 'number'), (6.0, 'ordinal'), (108.64, 'duration'), (128.0, 'leading number')]
    >>> parse_quantity("27thq")  # one stray letter after an ordinal (a typo in a WTQ table)
    (27.0, 'ordinal')
    >>> parse_quantity("March 3, 2001"), parse_quantity("–"), parse_quantity("2:1")
    ((20010303.0, 'date'), None, None)
    >>> parse_quantity("−7.5\\n(18.5)")  # °C with °F below it, a unicode minus
    (-7.5, 'leading number')
    >>> parse_quantity("6'10in"), parse_quantity("1 ft 10 3/4 in (578 mm)")
    ((82.0, 'inches'), (22.75, 'inches'))
    >>> parse_quantity("7:00 pm"), parse_quantity("6 p.m.")
    ((68400.0, 'time of day'), (64800.0, 'time of day'))
    """
    number = parse_number(text)
    if number is not None:
        return number, "number"
    if not isinstance(text, str) or len(text) > 80:
        return None
    if m := _SPACED.match(text):
        return float(re.sub(r"\s", "", m.group(1))), "number"
    if (date := _parse_date(text)) is not None:
        return date, "date"
    if m := _CLOCK.match(text):
        h, mnt, sec = m.groups()
        return (int(h or 0) * 3600 + int(mnt) * 60 + float(sec)), "duration"
    if m := _ORDINAL.match(text):
        return float(m.group(1)), "ordinal"
    if (m := _FEET.match(text)) and (m.group(2) in "'′" or m.group(3)):  # not '14375 ft'
        feet, _, inches, num, den = m.groups()
        extra = int(num) / int(den) if num and den and int(den) else 0.0
        return int(feet) * 12 + float(inches or 0) + extra, "inches"
    if (m := _AMPM.match(text)) and 1 <= int(m.group(1)) <= 12:
        hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
        return float(hour * 3600 + int(m.group(2) or 0) * 60), "time of day"
    if m := _LEADING.match(text.translate(_MINUS_TABLE)):  # '−7.5\\n(18.5)': a unicode minus
        value = parse_number(m.group(1).replace(" ", ""))
        if value is not None:
            return value, "leading number"
    return None


def _parse_date(text: str) -> float | None:
    if m := _DATE_ISO.match(text):
        y, mo, d = (int(x) for x in m.groups())
        return float(y * 10000 + mo * 100 + d) if 1 <= mo <= 12 and 1 <= d <= 31 else None
    if m := _DATE_NUMERIC.match(text):
        return _numeric_date(*m.groups())
    m = _DATE_TEXT.match(text)
    if not m:
        return None
    day1, month, day2, year = m.groups()
    month_no = _MONTHS.get(month[:3].lower())
    if month_no is None or (day1 and day2):
        return None
    day = int(day1 or day2 or 0)
    return float(int(year) * 10000 + month_no * 100 + day) if day <= 31 else None


def _numeric_date(first: str, sep: str, second: str, year: str) -> float | None:
    """``d-m-yyyy`` / ``m/d/yyyy`` as ``yyyymmdd``: a part above 12 is the day; otherwise a
    dash puts the day first (``9-1-1909`` is 9 January) and a slash the month first
    (``12/1/2013`` is 1 December, as US tables write it).

    >>> _numeric_date("9", "-", "1", "1909"), _numeric_date("12", "/", "20", "2013")
    (19090109.0, 20131220.0)
    >>> _numeric_date("25", "/", "3", "1909"), _numeric_date("13", "-", "13", "2000") is None
    (19090325.0, True)
    """
    a, b = int(first), int(second)
    if a > 12 or (b <= 12 and sep == "-"):
        day, month = a, b
    else:
        month, day = a, b
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return float(int(year) * 10000 + month * 100 + day)


def ordinal_text(n: int) -> str:
    """``n`` written as a place: ``2nd``, ``13th``, ``21st``.

    >>> [ordinal_text(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '103rd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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


# a score or record holding two numbers: '21–7', 'W 52–10', 'L\xa016–3 (OT)', '1937–1978'
SCORE = re.compile(
    r"^\s*(?:(?:w|l|t|d|won|lost|win|loss|tie|draw)\b\.?[\s,]*)?"
    r"(\d+(?:\.\d+)?)\s*[–—\-−]\s*(\d+(?:\.\d+)?)\s*"
    r"(?:\([^()]*\)|\b(?:\d?OT|SO|ET|AET|PSO|pen\.?))?\s*$",
    re.IGNORECASE,
)
_SUM_WORDS = ("total", "combined", "altogether")
_SECOND_WORDS = ("against", "allowed", "conceded", "opponent", "opponents", "away", "visiting",
                 "visitors", "lose", "lost", "losses", "loss")
_WIN_WORDS = {"winning": max, "winner": max, "winners": max, "losing": min, "loser": min}
_WORD = re.compile(r"[a-z]+")


# a win–loss–tie record of three numbers: '4-2-2', '10–5–1'
_RECORD3 = re.compile(r"^\s*(\d{1,3})\s*[–—\-−]\s*(\d{1,3})\s*[–—\-−]\s*(\d{1,3})\s*$")


def _read_record(text: str, question: str | None) -> tuple[float, str] | None:
    """A win–loss–tie record ``4-2-2``: its losses (second number) when the question asks
    about losing, else its wins (first number); ``None`` for anything else.

    >>> _read_record("4-2-2", "did the team win more games in 1933?")
    (4.0, 'its first number (wins of a win–loss–tie record)')
    >>> _read_record("4-2-2", "did they lose more?")[0], _read_record("1-2", None)
    (2.0, None)
    """
    m = _RECORD3.match(text)
    if m is None:
        return None
    words = _WORD.findall((question or "").lower())
    if (w := next((w for w in words if w in _SECOND_WORDS), None)) is not None:
        return float(m.group(2)), f"its second number (losses of a win–loss–tie record, {w!r})"
    return float(m.group(1)), "its first number (wins of a win–loss–tie record)"


def read_score(text: str, question: str | None) -> tuple[float, str] | None:
    """One number for a score or record ``text`` (``21–7``, ``W 52–10``, ``22–18``) as the
    question asks for it, and how it was read; ``None`` when ``text`` is not a score.

    Arithmetic on one such value uses both numbers (``difference`` of ``W 45–28`` is 17, see
    :mod:`trustuqa_core.reasoning.arith`). A comparison needs one number per value, and which
    one depends on the question's words, read here by fixed rules and stated in the step's
    notes:

    * "total", "combined", "altogether": the sum of the two numbers;
    * "winning" / "losing": the larger / the smaller number (a game's winning score);
    * "against", "allowed", "conceded", "opponent", "away", "visiting", "lose", "lost", "losses":
      the second number (points against, the away side, or losses of a win–loss record);
    * otherwise the first number (a team's own score as tables list it, or the wins of a record).

    >>> read_score("W 52–10", "which game was higher scoring by nebraska?")
    (52.0, 'its first number')
    >>> read_score("67–62", "were more points scored against butler or purdue?")
    (62.0, "its second number ('against')")
    >>> read_score("2-1", "was the total goals scored more than 6?")
    (3.0, "the sum of its two numbers ('total')")
    >>> read_score("1–4", "in how many matches was the winning score above 4?")
    (4.0, "the larger of its two numbers ('winning')")
    >>> read_score("W 20–17 OT", None)
    (20.0, 'its first number')
    >>> read_score("7:00", "when?") is None
    True
    """
    m = SCORE.match(text)
    if m is None:
        return _read_record(text, question)
    first, second = float(m.group(1)), float(m.group(2))
    words = _WORD.findall((question or "").lower())
    if (w := next((w for w in words if w in _SUM_WORDS), None)) is not None:
        return first + second, f"the sum of its two numbers ({w!r})"
    if (w := next((w for w in words if w in _WIN_WORDS), None)) is not None:
        which = "larger" if _WIN_WORDS[w] is max else "smaller"
        return _WIN_WORDS[w](first, second), f"the {which} of its two numbers ({w!r})"
    if (w := next((w for w in words if w in _SECOND_WORDS), None)) is not None:
        return second, f"its second number ({w!r})"
    return first, "its first number"


_MONTH_DAY = re.compile(
    r"^\s*(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s+)?(?P<month>[A-Za-z]{3,9})\.?"
    r"(?:\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?)?\s*$"
)


def parse_month_day(text: str) -> tuple[int, int | None] | None:
    """``(month, day)`` of a date written without a year (``'September 6'``, ``'6 Sep'``),
    ``(month, None)`` of a bare month name, else ``None``.

    >>> parse_month_day("September 6"), parse_month_day("6th Sep"), parse_month_day("september")
    ((9, 6), (9, 6), (9, None))
    >>> parse_month_day("September 2012") is None, parse_month_day("Mayor") is None
    (True, True)
    """
    m = _MONTH_DAY.match(text)
    if m is None or (m.group("d1") and m.group("d2")):
        return None
    word = m.group("month").lower()
    month = _MONTHS.get(word[:3])
    full = ("january", "february", "march", "april", "may", "june", "july", "august",
            "september", "october", "november", "december")[month - 1] if month else ""
    if month is None or not (full.startswith(word) or word == "sept"):
        return None
    day = m.group("d1") or m.group("d2")
    if day is not None and not 1 <= int(day) <= 31:
        return None
    return month, int(day) if day is not None else None

