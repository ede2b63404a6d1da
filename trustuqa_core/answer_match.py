"""Answer matching the core needs: WTQ denotation match (the official evaluator's rules).

:func:`denotation_match` is how a demonstration's re-executed answer is compared with its
label (``demos.verify``) and how WTQ answers are scored (``evaluate``). Answers are lists of
strings; ints and floats are accepted and written out with ``str`` (``0`` -> ``"0"``);
booleans and ``None`` raise ``TypeError`` because their intended text (``"yes"``?
``"true"``? ``"1"``?) is the caller's decision.

:func:`wtq_normalize` (and the typed values of :func:`to_wtq_values`) follows the official
WikiTableQuestions evaluator (v1.0.2).

>>> denotation_match(["1000.0"], ["1,000"])
True
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

__all__ = [
    "as_text",
    "wtq_normalize",
    "wtq_canon",
    "StringValue",
    "NumberValue",
    "DateValue",
    "WtqValue",
    "to_wtq_values",
    "denotation_match",
]


def as_text(value: object) -> str:
    """The answer as text: strings as they are, ints and floats through ``str``.

    >>> as_text("a"), as_text(2), as_text(2.5)
    ('a', '2', '2.5')"""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(
            f"answers must be str, int or float, got {type(value).__name__} {value!r}; "
            "convert booleans and None to the text you mean (e.g. 'yes') first"
        )
    return str(value)


# --------------------------------------------------------------------------------------------
# WikiTableQuestions: string normalisation
# --------------------------------------------------------------------------------------------

_SINGLE_QUOTES = re.compile("[\u2018\u2019\u00b4`]")  # ‘ ’ ´ `  ->  '
_DOUBLE_QUOTES = re.compile("[\u201c\u201d]")  # “ ”  ->  "
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2212]")  # ‐ ‑ ‒ – — −  ->  -
# A run of citation marks at the end: "[...]" (not at the very start), "[12]", or • ♦ † ‡ * # +.
_CITATIONS_AT_END = re.compile(r"(?:(?<!^)\[[^\]]*\]|\[[0-9]+\]|[\u2022\u2666\u2020\u2021*#+])*$")
# A run of " (...)" groups at the end, not at the very start.
_PARENS_AT_END = re.compile(r"(?<!^)(?: \([^)]*\))*$")
_WRAPPED_IN_QUOTES = re.compile(r'^"([^"]*)"$')
_WHITESPACE = re.compile(r"\s+")


def wtq_normalize(text: str) -> str:
    """Normalise an answer string the way the official WTQ evaluator does.

    In order: NFKD and drop combining marks; smart quotes and dashes to ASCII; then, until
    nothing changes, strip and remove trailing citations (``[1]``, ``*``, ``†`` ...), trailing
    parenthesised details (`` (...)``, except when the text starts with them) and one pair of
    outer double quotes; remove one final period; collapse whitespace; lower-case; strip.

    >>> wtq_normalize('  Café  Müller (band)[2] '), wtq_normalize('Müller (band).')
    ('cafe muller', 'muller (band)')
    >>> wtq_normalize('"Yes"'), wtq_normalize('(a) (b)'), wtq_normalize('U.S.')
    ('yes', '(a)', 'u.s')
    >>> wtq_normalize('1990\u20131991'), wtq_normalize('[note]'), wtq_normalize('[3]')
    ('1990-1991', '[note]', '')
    """
    text = as_text(text)
    text = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if unicodedata.category(ch) != "Mn"
    )
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _DASHES.sub("-", text)
    while True:
        before = text
        text = _CITATIONS_AT_END.sub("", text.strip())
        text = _PARENS_AT_END.sub("", text.strip())
        text = _WRAPPED_IN_QUOTES.sub(r"\1", text.strip())
        if text == before:
            break
    if text.endswith("."):
        text = text[:-1]
    return _WHITESPACE.sub(" ", text).lower().strip()


# --------------------------------------------------------------------------------------------
# WikiTableQuestions: canonical values (a small stand-in for CoreNLP's number/date tagging)
# --------------------------------------------------------------------------------------------

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
# thousands grouped by one separator used throughout: ``1,000``, ``8 253`` (a space, a
# no-break space, a thin or narrow no-break space: the SI style some tables use)
_GROUPED_NUMBER = re.compile(
    r"^[+-]?[0-9]{1,3}(?P<sep>[, \u00a0\u2009\u202f])[0-9]{3}(?:(?P=sep)[0-9]{3})*(?:\.[0-9]+)?$"
)
_DAY = r"(?P<d>[0-9]{1,2})(?:st|nd|rd|th)?"
_MONTH = r"(?P<m>[a-z]+)\.?"
_DATE_FORMS = [
    re.compile(rf"^{_MONTH}\s+{_DAY},?\s+(?P<y>[0-9]{{3,4}})$"),  # January 5, 2010
    re.compile(rf"^{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(?P<y>[0-9]{{3,4}})$"),  # 5 January 2010
    re.compile(rf"^{_MONTH},?\s+(?P<y>[0-9]{{4}})$"),  # January 2010
    re.compile(rf"^{_MONTH}\s+{_DAY}$"),  # January 5
    re.compile(rf"^{_DAY}\s+(?:of\s+)?{_MONTH}$"),  # 5 January
]


def wtq_canon(text: str) -> str | None:
    """The canonical number or date string for ``text``, or ``None`` when it has none.

    The official evaluator reads the gold answers' canonical values from CoreNLP tagging
    (``targetCanon``) and reads predictions only as plain numbers or ``yyyy-mm-dd`` dates.
    This function is a small, deterministic stand-in for the tagging, used for text that has
    no canonical value given: numbers with thousands separators and English dates.
    Percentages, ordinals and units are left alone (the text then matches as a string).

    >>> wtq_canon("1,000"), wtq_canon("\u22123,500.5"), wtq_canon("January 5, 2010")
    ('1000', '-3500.5', '2010-01-05')
    >>> wtq_canon("5th of Jan. 1999"), wtq_canon("May 2010"), wtq_canon("March 3")
    ('1999-01-05', '2010-05-xx', 'xx-03-03')
    >>> wtq_canon("1,5"), wtq_canon("Mayday 5"), wtq_canon("12%") is None
    (None, None, True)
    >>> wtq_canon("8 253"), wtq_canon("1\u00a0234\u00a0567.5"), wtq_canon("1 234,567")
    ('8253', '1234567.5', None)
    """
    text = as_text(text).strip().replace("\u2212", "-")
    grouped = _GROUPED_NUMBER.match(text)
    if grouped:
        return text.replace(grouped["sep"], "")
    lowered = text.lower()
    for form in _DATE_FORMS:
        found = form.match(lowered)
        if found is None or found["m"] not in _MONTHS:
            continue
        parts = found.groupdict()
        day = int(parts["d"]) if parts.get("d") else -1
        if day == 0 or day > 31:
            return None
        year = parts.get("y") or "xx"
        month = f"{_MONTHS[found['m']]:02d}"
        return f"{year}-{month}-{'xx' if day == -1 else f'{day:02d}'}"
    return None


# --------------------------------------------------------------------------------------------
# WikiTableQuestions: typed values
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StringValue:
    """A string answer; equal to another when the normalised text is equal."""

    normalized: str

    def matches(self, other: WtqValue) -> bool:
        return self.normalized == other.normalized


@dataclass(frozen=True)
class NumberValue:
    """A number answer; identity is the amount, ``normalized`` is the normalised original text.

    Amounts within 1e-6 of an integer are stored as that integer (the official code
    truncates with ``int()`` there; rounding differs only just below an integer).
    """

    amount: int | float
    normalized: str = field(compare=False)

    def matches(self, other: WtqValue) -> bool:
        if self.normalized == other.normalized:
            return True
        return isinstance(other, NumberValue) and abs(self.amount - other.amount) < 1e-6


@dataclass(frozen=True)
class DateValue:
    """A date answer; -1 marks a missing year, month or day (not all three)."""

    year: int
    month: int
    day: int
    normalized: str = field(compare=False)

    def matches(self, other: WtqValue) -> bool:
        if self.normalized == other.normalized:
            return True
        return isinstance(other, DateValue) and (self.year, self.month, self.day) == (
            other.year,
            other.month,
            other.day,
        )


WtqValue = StringValue | NumberValue | DateValue


def _official_int(text: str) -> int | None:
    if "_" in text:  # Python 3 accepts "1_000"; the (Python 2) official evaluator did not
        return None
    try:
        return int(text)
    except ValueError:
        return None


def _official_number(text: str) -> int | float | None:
    """A number as the official evaluator reads one: ``int()``, else finite ``float()``."""
    as_int = _official_int(text)
    if as_int is not None:
        return as_int
    if "_" in text:
        return None
    try:
        amount = float(text)
    except ValueError:
        return None
    return amount if math.isfinite(amount) else None


def _official_date(text: str) -> tuple[int, int, int] | None:
    """``yyyy-mm-dd`` with ``xx`` (``xxxx`` for the year) for unknown parts."""
    parts = text.lower().split("-")
    if len(parts) != 3:
        return None
    year = -1 if parts[0] in ("xx", "xxxx") else _official_int(parts[0])
    month = -1 if parts[1] == "xx" else _official_int(parts[1])
    day = -1 if parts[2] == "xx" else _official_int(parts[2])
    if year is None or month is None or day is None or year == month == day == -1:
        return None
    if not (month == -1 or 1 <= month <= 12) or not (day == -1 or 1 <= day <= 31):
        return None
    return year, month, day


def _to_value(original: str, canon: str) -> WtqValue:
    normalized = wtq_normalize(original)
    amount = _official_number(canon)
    if amount is not None:
        if abs(amount - round(amount)) < 1e-6:
            amount = int(round(amount))
        return NumberValue(amount, normalized)
    ymd = _official_date(canon)
    if ymd is not None:
        year, month, day = ymd
        if month == day == -1:
            return NumberValue(year, normalized)
        return DateValue(year, month, day, normalized)
    return StringValue(normalized)


def to_wtq_values(
    strings: Iterable[str],
    canon: Sequence[str | None] | None = None,
    *,
    infer_canon: bool = True,
) -> list[WtqValue]:
    """Typed, de-duplicated values for a list of answer strings (first occurrence kept).

    Args:
        strings: the answers as written.
        canon: optional canonical strings, one per answer (WTQ's CoreNLP ``targetCanon``).
        infer_canon: when an answer has no canonical string, derive one with
            :func:`wtq_canon`. ``False`` reads answers exactly as the official evaluator
            reads a prediction file (plain numbers and ``yyyy-mm-dd`` dates only).

    >>> to_wtq_values(["1,000", "1000.0", "Paris", "paris."])
    [NumberValue(amount=1000, normalized='1,000'), StringValue(normalized='paris')]
    >>> to_wtq_values(["2010", "xx-01-05", "1,000"], infer_canon=False)
    [NumberValue(amount=2010, normalized='2010'), DateValue(year=-1, month=1, day=5, \
normalized='xx-01-05'), StringValue(normalized='1,000')]
    """
    texts = [as_text(s) for s in strings]
    if canon is not None and len(canon) != len(texts):
        raise ValueError(f"got {len(texts)} answers but {len(canon)} canonical values")
    values: list[WtqValue] = []
    for i, text in enumerate(texts):
        given = canon[i] if canon is not None else None
        if not given and infer_canon:
            given = wtq_canon(text)
        value = _to_value(text, given or text)
        if value not in values:
            values.append(value)
    return values


def denotation_match(
    predicted: Sequence[str],
    gold: Sequence[str],
    *,
    gold_canon: Sequence[str | None] | None = None,
    infer_canon: bool = True,
) -> bool:
    """WTQ denotation accuracy for one question (the official ``check_denotation``).

    Both lists become de-duplicated typed values; the prediction is correct when it has as
    many values as the gold and every gold value matches some predicted value (same
    normalised text, or same number within 1e-6, or same date).

    With ``gold_canon`` taken from WTQ's tagged files and ``infer_canon=False`` this is the
    official scorer. By default canonical values are inferred on both sides (see
    :func:`wtq_canon`), so ``"1,000"`` also matches ``"1000"`` (the official scorer, without
    tagging, rejects that pair) and ``"January 5, 2010"`` matches ``"2010-01-05"``.

    >>> denotation_match(["2.0"], ["2"]), denotation_match(["b", "a"], ["A", "B."])
    (True, True)
    >>> denotation_match(["0"], ["no"]), denotation_match([], ["x"]), denotation_match([], [])
    (False, False, True)
    >>> denotation_match(["1,000"], ["1000"], infer_canon=False)
    False
    """
    gold_values = to_wtq_values(gold, gold_canon, infer_canon=infer_canon)
    predicted_values = to_wtq_values(predicted, infer_canon=infer_canon)
    if len(gold_values) != len(predicted_values):
        return False
    return all(
        any(g.matches(p) or (infer_canon and rounded_as_gold(g, p)) for p in predicted_values)
        for g in gold_values
    )


_FEW_DECIMALS = re.compile(r"^-?[0-9]+\.([0-9]{1,2})$")
_MANY_DECIMALS = re.compile(r"^-?[0-9]+\.[0-9]{5,}$")


def rounded_as_gold(gold: WtqValue, predicted: WtqValue) -> bool:
    """True when a computed number carried to many places (``299.1666667``, five decimals
    or more) rounds to the gold, which is written to one or two decimals (``299.17``): the
    same number at the gold's precision. Integers and short decimals are never rounded.

    >>> v = lambda s: to_wtq_values([s])[0]
    >>> rounded_as_gold(v("299.17"), v("299.1666667")), rounded_as_gold(v("0.5"), v("0.46"))
    (True, False)
    >>> rounded_as_gold(v("299.2"), v("299.1666667")), rounded_as_gold(v("299"), v("299.1666667"))
    (True, False)
    >>> rounded_as_gold(v("299.16"), v("299.1666667"))
    False
    """
    if not (isinstance(gold, NumberValue) and isinstance(predicted, NumberValue)):
        return False
    written = _FEW_DECIMALS.match(gold.normalized)
    if written is None or not _MANY_DECIMALS.match(predicted.normalized):
        return False
    places = len(written.group(1))
    return abs(round(float(predicted.amount), places) - float(gold.amount)) < 1e-9
