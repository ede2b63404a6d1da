"""Table linking by fixture: tests/fixtures/linking.txt holds, per linking rule, questions over
small tables with the program the offline linker writes and its answer."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trustuqa_core import load_graph
from trustuqa_core.execute import run_query
from trustuqa_core.query import call, get_information, parse, program, ref, render_program
from trustuqa_core.writers.asking import SELECT_RULES
from trustuqa_core.writers.table_program import plan_program
from trustuqa_core.writers.tables import LINK_RULES, link_rules, link_table

FIXTURE = Path(__file__).parent / "fixtures" / "linking.txt"


@dataclass(frozen=True)
class Case:
    rules: tuple[str, ...]
    question: str
    table: str
    program: str
    answer: list[str]


def load_cases(text: str) -> list[Case]:
    """Cases separated by blank lines (comment lines before the first ``# rules:`` skipped)."""
    cases = []
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        if not lines[0].startswith("# rules:"):
            assert all(line.startswith("#") for line in lines), block
            continue
        rules = tuple(r.strip() for r in lines[0].split(":", 1)[1].split(","))
        assert lines[1].startswith("question: ") and lines[2] == "table:", block
        at_program, at_answer = lines.index("program:"), len(lines) - 1
        assert lines[at_answer].startswith("answer: "), block
        cases.append(Case(rules, lines[1].removeprefix("question: "),
                          "\n".join(lines[3:at_program]) + "\n",
                          "\n".join(lines[at_program + 1:at_answer]),
                          json.loads(lines[at_answer].removeprefix("answer: "))))
    return cases


CASES = load_cases(FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c.question for c in CASES])
def test_linker_writes_the_fixture_program(case: Case) -> None:
    graph = load_graph(tables=[case.table.encode()])
    plan = link_table(case.question, graph)
    assert set(case.rules) <= set(plan.rules), plan.rules
    built = plan_program(plan)
    assert built is not None
    assert render_program(built) == case.program
    assert parse(case.program) == parse(render_program(built))
    assert run_query(case.program, graph, question=case.question).answer == case.answer


def test_every_linking_rule_has_a_fixture_case() -> None:
    shown = {r for c in CASES for r in c.rules}
    names = [name for name, _ in link_rules()]
    assert sorted(set(names) - shown) == []
    assert shown <= set(names), shown - set(names)  # no case names a rule that is gone


def test_link_rules_lists_every_rule_in_order_with_its_doc() -> None:
    listed = link_rules()
    main = [r.name for r in LINK_RULES]
    assert [name for name, _ in listed if "/" not in name] == main
    assert [name for name, _ in listed if "/" in name] == [
        f"select/{name}" for name, _, _ in SELECT_RULES]
    assert len(set(name for name, _ in listed)) == len(listed)
    assert all(doc and "\n" not in doc for _, doc in listed)


def test_fixture_loader_rejects_a_case_without_an_answer() -> None:
    with pytest.raises(AssertionError):
        load_cases("# rules: select\nquestion: q?\ntable:\nA\n1\nprogram:\nQuery1: \"x()\"\n")


_LABEL = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
                 min_size=1, max_size=30).map(str.strip).filter(bool) | st.text(
    st.sampled_from("ab '\",)]}\\="), min_size=1, max_size=12).map(str.strip).filter(bool)


@given(_LABEL, _LABEL)
def test_built_programs_round_trip_labels_with_quotes(column: str, label: str) -> None:
    built = program("number", [
        ("Find the rows", get_information(relation=column, tail_entity=label)),
        ("Count them", call("count", set=ref(1))),
    ])
    assert parse(render_program(built)) == built


def test_a_label_holding_a_quote_before_a_comma_round_trips() -> None:
    built = program(None, [("", get_information(relation="Title", tail_entity="Rock', n"))])
    text = render_program(built)
    assert parse(text) == built and "Rock" in text
