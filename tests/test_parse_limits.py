"""Hostile replies (issue #9 items 5, 8, 9): size limits first, linear-time lines, depth and
number limits -- each a positioned ParseError, never a traceback or a hang.

The pytest-timeout bounds below are safety nets (before the fix these inputs took 29 s, more
than 60 s, or raised RecursionError / ValueError), not performance assertions: the timing
measurement lives in ``scripts/parser_report.py --hostile``.
"""

from __future__ import annotations

import pytest

from trustuqa_core.errors import ParseError
from trustuqa_core.limits import current_limits
from trustuqa_core.query import parse, parse_call

VALID = "Query1: \"get_information(relation='Year', tail_entity>'1989')\""


@pytest.fixture
def limits(monkeypatch: pytest.MonkeyPatch):
    """Set ``TRUSTUQA_LIMIT_*`` variables for one test (and restore the cached limits)."""

    def set_limits(**values: int) -> None:
        for name, value in values.items():
            monkeypatch.setenv(f"TRUSTUQA_LIMIT_{name.upper()}", str(value))
        current_limits.cache_clear()

    yield set_limits
    monkeypatch.undo()
    current_limits.cache_clear()


@pytest.mark.timeout(10)
def test_spaces_then_x_is_rejected_quickly() -> None:
    with pytest.raises(ParseError, match="no query found"):
        parse(" " * 2000 + "x")


@pytest.mark.timeout(10)
def test_valid_query_followed_by_spaces_parses() -> None:
    assert parse(VALID + " " * 3000) == parse(VALID)
    assert parse(VALID + "\n" + " " * 3000) == parse(VALID)


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    "line",
    [
        " " * 9_000 + "Query1: \"count(set='a')\"",
        "*" * 4_000 + " " * 4_000 + "Query1: \"count(set='a')\"",
        "- " * 3_000 + "Query1: \"count(set='a')\"",
        "Step1: " + "Query" * 1_500 + "1",
        "Target type: " + "{" * 9_000,
    ],
)
def test_long_prefixes_are_scanned_in_linear_time(line: str) -> None:
    try:
        parse(line)
    except ParseError as exc:
        assert exc.line == 1 and exc.column >= 1


@pytest.mark.timeout(10)
@pytest.mark.parametrize("opener", ["[", "("])
def test_deep_nesting_is_a_positioned_error(opener: str) -> None:
    closer = {"[": "]", "(": ")"}[opener]
    text = 'Query1: "f(' + opener * 600 + "x" + closer * 600 + ')"'
    with pytest.raises(ParseError) as info:
        parse(text)
    assert "parse_depth" in info.value.message
    depth = current_limits().parse_depth
    # the bracket that goes one level too deep: 'Query1: "f(' is 11 characters, f( is level 1
    assert info.value.column == 11 + depth
    assert text[info.value.column - 1] == opener


@pytest.mark.timeout(10)
def test_nested_calls_and_ifs_count_towards_depth() -> None:
    with pytest.raises(ParseError, match="parse_depth"):
        parse('Query1: "' + "abs(" * 40 + "1" + ")" * 40 + '"')
    with pytest.raises(ParseError, match="parse_depth"):
        parse('Query1: "' + "if 1 then 2 else " * 40 + '3"')


def test_depth_limit_is_configurable(limits) -> None:
    text = 'Query1: "f(' + "[" * 50 + "x" + "]" * 50 + ')"'
    with pytest.raises(ParseError, match="parse_depth"):
        parse(text)
    limits(parse_depth=100)
    assert parse(text).query(1).call.func == "f"


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("Query" + "9" * 5000 + ": \"count(set='a')\"", 6),
        ("Step" + "7" * 5000 + ": x\n" + VALID, 5),
        ("Query1: \"count(set='output_of_query" + "3" * 5000 + "')\"", 20),
        ("Query1: \"count(set=output_of_query" + "3" * 5000 + ")\"", 35),
        ("Query1: \"output_of_query1 > " + "4" * 5000 + '"', 29),
        ("output_of_query" + "5" * 5000 + " = count(set='a')", 16),
    ],
)
def test_huge_numbers_are_positioned_errors(text: str, column: int) -> None:
    with pytest.raises(ParseError) as info:
        parse(text)
    assert "number_digits" in info.value.message
    assert "5,000 digits" in info.value.message
    assert (info.value.line, info.value.column) == (1, column)


def test_long_quoted_numbers_stay_text() -> None:
    digits = "8" * 5000
    call = parse(f"Query1: \"get_information(relation='A', tail_entity='{digits}')\"").last.call
    assert call.arg("tail_entity").value.value == digits


def test_reply_size_is_checked_first(limits) -> None:
    limits(query_chars=200)
    with pytest.raises(ParseError) as info:
        parse(VALID + "\n" + "x" * 300)
    assert "query_chars" in info.value.message and "TRUSTUQA_LIMIT_QUERY_CHARS" in str(info.value)
    assert info.value.line == 2
    assert parse(VALID).query(1).call.func == "get_information"


def test_line_length_is_checked_first(limits) -> None:
    limits(query_line_chars=100)
    with pytest.raises(ParseError) as info:
        parse("Step1: ok\n" + VALID + " " * 100)
    assert "query_line_chars" in info.value.message
    assert info.value.line == 2
    with pytest.raises(ParseError, match="query_line_chars"):
        parse_call("count(set='a')" + " " * 100)


def test_default_limits_accept_a_long_but_reasonable_reply() -> None:
    reply = "\n".join(
        f"Step{i}: find row {i}\nQuery{i}: \"get_information(relation='Name', "
        f"tail_entity='{'x' * 200}')\"" for i in range(1, 200)
    )
    assert len(parse(reply).queries) == 199


@pytest.mark.timeout(10)
@pytest.mark.parametrize(
    "body",
    [
        "output_of_query1" + " + 1" * 2400,
        "output_of_query1 > 1" + " and output_of_query1 > 1" * 380,
        "get_information(relation='a')" + " or get_information(relation='a')" * 280,
        "output_of_query1 in [" + "1, " * 3000 + "1]",
        "if 1 then 2 else " * 500 + "3",
        "1 ? 2 : " * 1000 + "3",
    ],
)
def test_long_chains_are_limited_like_nesting(body: str) -> None:
    """Each link of an operator chain nests the call tree one level deeper, so chains count
    towards parse_depth (before, hoisting them could exhaust the stack)."""
    with pytest.raises(ParseError) as info:
        parse(f'Query1: "count(set=\'a\')"\nQuery2: "{body}"')
    assert "parse_depth" in info.value.message
    assert info.value.line == 2 and info.value.column > 9
