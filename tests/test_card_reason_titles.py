"""The answer card's reason titles name reason codes the verdict has (a mistyped code would
silently fall back to the code in words)."""

from trustuqa_core.app_services.card_reasons import TITLES, reason_line
from trustuqa_core.verdict import REASON_CODES, Reason


def test_every_title_is_for_a_known_reason_code() -> None:
    assert [code for code in TITLES if code not in REASON_CODES] == []


def test_the_ambiguity_reasons_have_plain_titles() -> None:
    r = Reason("answer_column_ambiguous", "reading 'Away team score' gives 11.13 (79)", 2,
               "Away team score")
    line = reason_line(r)
    assert line.title == "Another column answers otherwise"
    assert line.where.startswith("Query2")
