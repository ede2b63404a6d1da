"""Tests for trustuqa_core.answer_match (WTQ denotation) and trustuqa_core.evaluate.metrics.

Expected values are worked out by hand from the rules each metric documents (for WTQ: the
official evaluator's normalisation and value matching), not copied from the functions' output.
"""

from __future__ import annotations

import pytest

from trustuqa_core.answer_match import (
    DateValue,
    NumberValue,
    StringValue,
    denotation_match,
    to_wtq_values,
    wtq_canon,
    wtq_normalize,
)
from trustuqa_core.evaluate.metrics import (
    gold_subset_of_prediction,
    hits_at_1,
    hits_at_1_any,
    light_normalize,
    prf1,
    set_equal,
)

# --------------------------------------------------------------------------------------------
# WTQ normalisation
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ""),
        ("  A \t  B\n ", "a b"),  # whitespace collapse, strip, lower-case
        ("Hello.", "hello"),  # one final period removed
        ("a..", "a."),  # ... only one
        ("U.S.A.", "u.s.a"),
        ("Café Müller", "cafe muller"),  # diacritics dropped (NFKD, combining marks)
        ("naïve RÉSUMÉ", "naive resume"),
        ("\uff21\uff22\uff23", "abc"),  # fullwidth letters: NFKD compatibility mapping
        ("\u201cQuoted\u201d", "quoted"),  # smart double quotes -> '"' -> outer pair removed
        ('"Hello."', "hello"),  # quotes removed in the loop, then the period after it
        ('"a"b"', '"a"b"'),  # an inner quote keeps the outer pair
        ("'single'", "'single'"),  # single quotes are never stripped
        ("don\u2019t", "don't"),  # smart apostrophe
        ("1990\u201391", "1990-91"),  # en dash
        ("\u22125", "-5"),  # unicode minus
        ("John Smith (footballer)", "john smith"),  # trailing details in parentheses
        ("x (a) (b)", "x"),  # several trailing groups
        ("(a) b", "(a) b"),  # not trailing
        ("(note)", "(note)"),  # at the very start: kept
        ("Smith(born 1950)", "smith(born 1950)"),  # no space before '(': kept
        ("Item[1]", "item"),  # citation
        ("Item [citation needed]", "item"),
        ("[note]", "[note]"),  # a non-numeric bracket at the start is kept ...
        ("[3]", ""),  # ... a numeric one is not
        ("Gold*", "gold"),
        ("Rank #", "rank"),
        ("Winner\u2020\u2021", "winner"),
        ("C++", "c"),  # a quirk of the official rules, reproduced on purpose
        ('"Song" (remix)[2]', "song"),  # the loop peels citation, parentheses, then quotes
        ("Müller (band).", "muller (band)"),  # the period is removed only after the loop
    ],
)
def test_wtq_normalize(text: str, expected: str) -> None:
    assert wtq_normalize(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,000", "1000"),
        ("-12,345.67", "-12345.67"),
        ("\u22123,500", "-3500"),
        ("1,5", None),  # not thousands groups
        ("1,0000", None),
        ("8 253", "8253"),  # thousands grouped by spaces (SI style)
        ("1\u00a0234\u00a0567", "1234567"),  # ... or no-break spaces
        ("1 234,567", None),  # two different separators: not one grouping
        ("12 34", None),
        ("8 2530", None),
        ("January 5, 2010", "2010-01-05"),
        ("january 5 2010", "2010-01-05"),
        ("Jan. 5, 2010", "2010-01-05"),
        ("5 January 2010", "2010-01-05"),
        ("5th of January, 2010", "2010-01-05"),
        ("Sept 30, 1999", "1999-09-30"),
        ("May 2010", "2010-05-xx"),
        ("March 3", "xx-03-03"),
        ("3 March", "xx-03-03"),
        ("January 32, 2010", None),
        ("Mayday 5", None),
        ("12%", None),
        ("1st", None),
        ("Paris", None),
    ],
)
def test_wtq_canon(text: str, expected: str | None) -> None:
    assert wtq_canon(text) == expected


def test_to_wtq_values_types_and_dedup() -> None:
    values = to_wtq_values(["1,000", "1000.0", "2010-01-05", "2010", "x", "X.", "xx-xx-05"])
    assert values == [
        NumberValue(1000, "1,000"),
        DateValue(2010, 1, 5, "2010-01-05"),
        NumberValue(2010, "2010"),  # a year alone is a number
        StringValue("x"),  # "X." normalises to the same string: dropped
        DateValue(-1, -1, 5, "xx-xx-05"),
    ]
    assert values[0].normalized == "1,000"  # the first spelling is kept


def test_to_wtq_values_official_reading() -> None:
    # Without inference a prediction is a number only if int()/float() accept it.
    assert to_wtq_values(["1,000", "1e3", "nan", "1_000", "xx-xx-xx"], infer_canon=False) == [
        StringValue("1,000"),
        NumberValue(1000, "1e3"),
        StringValue("nan"),
        StringValue("1_000"),
        StringValue("xx-xx-xx"),
    ]


def test_to_wtq_values_canon_length_checked() -> None:
    with pytest.raises(ValueError, match="2 answers but 1 canonical"):
        to_wtq_values(["a", "b"], ["a"])


# --------------------------------------------------------------------------------------------
# WTQ denotation
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        # numbers
        (["1000"], ["1,000"], True),
        (["1,000"], ["1000"], True),
        (["1000.0"], ["1,000"], True),
        (["2.0"], ["2"], True),
        (["2.0000001"], ["2"], True),  # within 1e-6
        (["2.5"], ["2"], False),
        (["0"], ["0.0"], True),
        (["3"], ["3 (tie)"], True),  # gold normalises to "3"
        # dates
        (["2010-01-05"], ["January 5, 2010"], True),
        (["January 5, 2010"], ["2010-01-05"], True),
        (["Jan 5, 2010"], ["5 January 2010"], True),
        (["2010-01-06"], ["January 5, 2010"], False),
        (["xx-01-05"], ["2010-01-05"], False),  # partial dates match only partial dates
        (["2010"], ["2010-xx-xx"], True),  # year-only date == number
        # strings: case, punctuation, diacritics
        (["PARIS"], ["paris"], True),
        (["Paris."], ["paris"], True),
        (["Zürich"], ["Zurich"], True),
        (["New  York"], ["new york"], True),
        (["C"], ["C++"], True),  # official quirk
        (["Paris, France"], ["Paris"], False),
        # multi-value answers: order free, sizes must agree, duplicates collapse
        (["b", "a"], ["A", "B"], True),
        (["a"], ["a", "b"], False),
        (["a", "b", "c"], ["a", "b"], False),
        (["a", "a"], ["a"], True),
        (["1,000", "1000"], ["1000"], True),  # the same number twice is one value
        (["8 253"], ["8253"], True),  # a space-grouped number is that number
        (["8 253"], ["8", "253"], False),
        # a computed number carried to many places, the gold written to two decimals
        (["299.1666667"], ["299.17"], True),
        (["202.6666667"], ["202.7"], True),
        (["3.14159"], ["3.15"], False),  # rounds to 3.14
        (["0.46"], ["0.5"], False),  # two decimals are not a computed value: not rounded
        (["299.1666667"], ["299"], False),  # an integer gold is not rounded to
        # empty
        ([], ["a"], False),
        (["a"], [], False),
        ([], [], True),
        # 0 vs "0" vs "no"
        ([0], ["0"], True),
        (["0"], ["no"], False),
        (["no"], ["No"], True),
        (["0"], ["zero"], False),
    ],
)
def test_denotation_match(predicted: list, gold: list[str], expected: bool) -> None:
    assert denotation_match(predicted, gold) is expected


def test_denotation_match_official_mode() -> None:
    # The official scorer reads predictions without tagging: "1,000" stays a string, which
    # does not equal the gold number 1000 (normalised text "1000").
    assert denotation_match(["1,000"], ["1000"], infer_canon=False) is False
    # With CoreNLP's canonical value for the gold, the official scorer accepts "1000".
    assert denotation_match(["1000"], ["1,000"], gold_canon=["1000"], infer_canon=False)
    # Nor does it round a computed number to the gold's two decimals.
    assert denotation_match(["299.1666667"], ["299.17"], infer_canon=False) is False
    assert not denotation_match(["1000"], ["1,000"], infer_canon=False)
    # A gold date with its canonical value matches the ISO prediction.
    assert denotation_match(
        ["2010-01-05"], ["January 5, 2010"], gold_canon=["2010-01-05"], infer_canon=False
    )


# --------------------------------------------------------------------------------------------
# Hits@1 and set metrics
# --------------------------------------------------------------------------------------------


def test_light_normalize() -> None:
    assert light_normalize("  New\u00a0 York\n") == "new york"
    assert light_normalize("\ufb01sh") == "fish"  # NFKC ligature
    assert light_normalize("Zürich") != light_normalize("Zurich")  # diacritics are kept
    assert light_normalize(0) == "0"  # type: ignore[arg-type]  # numbers are accepted


@pytest.mark.parametrize("bad", [True, None, ["a"]])
def test_answers_must_be_text_or_numbers(bad: object) -> None:
    with pytest.raises(TypeError, match="answers must be str"):
        hits_at_1([bad], ["a"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("predicted", "gold", "strict", "lenient"),
    [
        (["Paris", "Lyon"], ["paris"], True, True),
        (["Lyon", "Paris"], ["paris"], False, True),  # order matters only for strict
        (["  New   York "], ["new york"], True, True),
        (["\ufb01sh"], ["fish"], True, True),
        (["2.0"], ["2"], False, False),  # no number normalisation here
        (["Zürich"], ["Zurich"], False, False),
        ([0], ["0"], True, True),
        (["no"], ["0"], False, False),
        ([], ["x"], False, False),
        (["x"], [], False, False),
        ([], [], True, True),
        (["b"], ["a", "b"], True, True),  # any gold answer counts
    ],
)
def test_hits_at_1(predicted: list, gold: list[str], strict: bool, lenient: bool) -> None:
    assert hits_at_1(predicted, gold) is strict
    assert hits_at_1_any(predicted, gold) is lenient


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        (["b", "A"], ["a", "B"], True),
        (["a", "a"], ["a"], True),
        (["a"], ["a", "b"], False),
        (["a", "b"], ["a"], False),
        ([], [], True),
        ([], ["a"], False),
        (["2.0"], ["2"], False),
    ],
)
def test_set_equal(predicted: list[str], gold: list[str], expected: bool) -> None:
    assert set_equal(predicted, gold) is expected


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        (["a", "b", "c", "d"], ["a", "b"], (0.5, 1.0, 2 / 3)),
        (["a"], ["a", "b"], (1.0, 0.5, 2 / 3)),
        (["a", "x"], ["a", "b"], (0.5, 0.5, 0.5)),
        (["x"], ["a"], (0.0, 0.0, 0.0)),
        (["A", "a"], ["a"], (1.0, 1.0, 1.0)),  # duplicates after normalisation collapse
        ([], [], (1.0, 1.0, 1.0)),  # WebQSP convention: nothing to find, nothing found
        (["x"], [], (0.0, 1.0, 0.0)),
        ([], ["a"], (1.0, 0.0, 0.0)),
    ],
)
def test_prf1(predicted: list[str], gold: list[str], expected: tuple[float, ...]) -> None:
    assert prf1(predicted, gold) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        (["a", "b", "c"], ["B", "a"], True),
        (["a"], ["a", "b"], False),
        (["a"], ["a"], True),
        ([], ["a"], False),
        (["x"], [], False),  # empty gold is satisfied only by an empty prediction
        ([], [], True),
    ],
)
def test_gold_subset_of_prediction(predicted: list[str], gold: list[str], expected: bool) -> None:
    assert gold_subset_of_prediction(predicted, gold) is expected


def test_metrics_accept_any_iterable_once() -> None:
    # Generators are consumed exactly once and still give the right answer.
    assert set_equal((x for x in ["a", "b"]), iter(["b", "a"]))
    assert prf1(iter(["a"]), iter(["a", "b"])) == pytest.approx((1.0, 0.5, 2 / 3))
