from __future__ import annotations

import pytest

from trustuqa_core.numbers import format_number, parse_number, parse_quantity


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,000", 1000.0),
        ("−3", -3.0),
        ("12%", 12.0),
        ("$5", 5.0),
        ("2.5", 2.5),
        ("-0.5", -0.5),
        ("+7", 7.0),
        ("1,234,567.25", 1234567.25),
        (" 42 ", 42.0),
        ("€ 3", 3.0),
        ("007", 7.0),
        (".5", 0.5),
    ],
)
def test_numbers_recognised(text: str, value: float) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "abc",
        "1,5",
        "1,00",
        "12 km",
        "1st",
        "(ESP)",
        "1–2",
        "--3",
        "1.2.3",
        "$",
        "%",
        "nan",
        "inf",
        "1e5",
    ],
)
def test_not_numbers(text: str) -> None:
    assert parse_number(text) is None


def test_non_text_inputs() -> None:
    assert parse_number(3) == 3.0
    assert parse_number(True) is None
    assert parse_number(float("nan")) is None
    assert parse_number(None) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("79 037 121", (79037121.0, "number")),
        ("6th", (6.0, "ordinal")),
        ("1:48.64", (108.64, "duration")),
        ("1:02:03", (3723.0, "duration")),
        ("128 kbit/s", (128.0, "leading number")),
        ("33 fatalities", (33.0, "leading number")),
        ("March 3, 2001", (20010303.0, "date")),
        ("3 March 2001", (20010303.0, "date")),
        ("2001-03-03", (20010303.0, "date")),
    ],
)
def test_quantities(text: str, expected: tuple[float, str]) -> None:
    assert parse_quantity(text) == expected


@pytest.mark.parametrize("text", ["–", "2–1", "13-14 (1st half)", "Under 2.61m", "W 47–31"])
def test_not_quantities(text: str) -> None:
    assert parse_quantity(text) is None


@pytest.mark.parametrize(
    ("value", "text"), [(20.0, "20"), (2.5, "2.5"), (-0.0, "0"), (1 / 3, "0.3333333333"), (7, "7")]
)
def test_format_number(value: float, text: str) -> None:
    assert format_number(value) == text
