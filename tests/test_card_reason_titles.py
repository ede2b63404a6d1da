"""The answer card's reason titles: every reason code the verdict can emit has a plain title
(a new code without one fails here), and no title names a code the verdict does not have (a
mistyped code would silently fall back to the code in words)."""

from __future__ import annotations

import ast
from pathlib import Path

import trustuqa_core
from trustuqa_core.app_services.card_reasons import TITLES, reason_line
from trustuqa_core.verdict import REASON_CODES, THRESHOLDS, Reason

_PACKAGE = Path(trustuqa_core.__file__).parent


def _emitted_codes() -> set[str]:
    """Every code a ``Reason("<code>", ...)`` call of the package's source names."""
    codes: set[str] = set()
    for path in _PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "Reason" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                codes.add(node.args[0].value)
    return codes


def test_the_scan_finds_the_codes_the_verdict_emits() -> None:
    emitted = _emitted_codes()
    assert {"weak_mapping", "word_of_other_source", "unrouted_source"} <= emitted
    assert len(emitted) >= 60


def test_every_emitted_or_blocking_code_has_a_title() -> None:
    codes = _emitted_codes() | set(THRESHOLDS.blocking) | set(THRESHOLDS.hard) \
        | set(REASON_CODES)
    assert sorted(c for c in codes if c not in TITLES) == []


def test_every_title_is_for_a_known_reason_code() -> None:
    assert [code for code in TITLES if code not in REASON_CODES] == []


def test_titles_are_short_plain_words_not_the_code() -> None:
    for code, title in TITLES.items():
        assert 0 < len(title) <= 48, code
        assert "_" not in title and title != code.replace("_", " ").capitalize(), code
        assert title[0].isupper() or title[0] == '"', code


def test_titles_are_distinct() -> None:
    assert len(set(TITLES.values())) == len(TITLES)


def test_the_ambiguity_reasons_have_plain_titles() -> None:
    r = Reason("answer_column_ambiguous", "reading 'Away team score' gives 11.13 (79)", 2,
               "Away team score")
    line = reason_line(r)
    assert line.title == "Another column answers otherwise"
    assert line.where.startswith("Query2")
