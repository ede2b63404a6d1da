"""The limits: read from TRUSTUQA_LIMIT_* variables, refused when malformed, documented."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from trustuqa_core.errors import LimitError
from trustuqa_core.limits import DEFAULT_LIMITS, Limits, env_name, load_limits, over_limit

README = Path(__file__).resolve().parents[1] / "README.md"


def test_overrides_are_read_per_field() -> None:
    lim = load_limits({"TRUSTUQA_LIMIT_FACTS": " 12 ", "TRUSTUQA_LIMIT_LLM_READ_TIMEOUT_S": "2.5",
                       "UNRELATED": "x"})
    assert (lim.facts, lim.llm_read_timeout_s) == (12, 2.5)
    assert lim.table_rows == DEFAULT_LIMITS.table_rows


@pytest.mark.parametrize("raw", ["0", "-5", "many", "", "1.5", "nan"])
def test_malformed_values_are_refused_with_the_variable_name(raw: str) -> None:
    with pytest.raises(LimitError, match="TRUSTUQA_LIMIT_TABLE_ROWS must be a positive number"):
        load_limits({"TRUSTUQA_LIMIT_TABLE_ROWS": raw})


def test_messages_name_the_variable_and_the_limit() -> None:
    text = over_limit("file is 3.0 MB", "upload_bytes", 1024 * 1024, "bytes")
    assert text == "file is 3.0 MB (limit: 1.0 MB; set TRUSTUQA_LIMIT_UPLOAD_BYTES to raise it)"


def test_readme_lists_every_limit_with_its_default() -> None:
    rows = dict(re.findall(r"^\| `(TRUSTUQA_LIMIT_\w+)` \| (\d+(?:\.\d+)?)\b", README.read_text(),
                           re.MULTILINE))
    expected = {env_name(f.name): getattr(DEFAULT_LIMITS, f.name) for f in fields(Limits)}
    assert set(rows) == set(expected)
    for name, value in expected.items():
        assert float(rows[name]) == value, name
