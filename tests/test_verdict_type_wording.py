"""``type_mismatch`` names the expected answer type with the right article ("a name (an
entity)", never "a entity")."""

from __future__ import annotations

import re

from trustuqa_core import load_graph
from trustuqa_core.app_services.runs import execute_text

_POINTS = "Query1: \"get_information(relation='Points', head_entity='Ann')\""


def _type_messages(question: str) -> list[str]:
    g = load_graph(tables=[b"Artist,Points\nAnn,5\nBob,7\n"])
    run = execute_text(_POINTS, g, None, origin="hand-written", question=question)
    verdict = run.trace.verdict
    assert verdict is not None
    return [r.message for r in verdict.reasons if r.code == "type_mismatch"]


def test_an_entity_asked_and_a_number_answered_is_worded_with_its_article() -> None:
    messages = _type_messages("which artist had the points of Ann?")
    assert messages == ["the question asks for a name (an entity) and the answer (5) is not "
                        "one"]


def test_no_type_message_puts_a_before_a_vowel() -> None:
    messages = [m for q in ("which artist had the points of Ann?", "who had 5 points?")
                for m in _type_messages(q)]
    assert len(messages) == 2
    assert [m for m in messages if re.search(r"\ba [aeiou]", m)] == []
