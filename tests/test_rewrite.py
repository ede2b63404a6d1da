"""Every rewrite rule, from a sqlglot-style fixture file of (call, plan) pairs."""

from __future__ import annotations

import pytest
from helpers import load_fixture_pairs

from trustuqa_core.errors import RewriteError
from trustuqa_core.query import Arg, Bound, Call, Text, parse_call
from trustuqa_core.rewrite import GET_INFORMATION_RULES, rewrite, rule_table, signature

PAIRS = load_fixture_pairs("rewrite.txt")
TIME_KEYS = {"time", "start_time", "end_time"}


def bind(call: Call) -> Call:
    """Stand-in for mapping: relation/key literals become Bound relations (or time keys)."""
    args = []
    for a in call.args:
        if a.name in ("relation", "key") and isinstance(a.value, Text):
            role = "time_key" if a.value.value in TIME_KEYS else "relation"
            a = Arg(a.name, Bound(a.value.value, (0,), (a.value.value,), role), a.cmp)
        args.append(a)
    return Call(call.func, tuple(args))


@pytest.mark.parametrize(("title", "text", "plan"), PAIRS, ids=[p[0] for p in PAIRS])
def test_rewrite_fixture(title: str, text: str, plan: list[str]) -> None:
    expected = [line for line in plan if not line.startswith("!")]
    call = bind(parse_call(text))
    got = [str(op) for op in rewrite(call)]
    assert got == expected, title


def test_every_rule_has_a_fixture() -> None:
    covered = {frozenset(signature(bind(parse_call(text)))) for _, text, _ in PAIRS}
    missing = [sorted(k) for k in GET_INFORMATION_RULES if k not in covered]
    assert not missing


def test_unsupported_combination_lists_the_supported_ones() -> None:
    call = bind(parse_call("get_information(head_entity='a', colour='b', relation='r')"))
    with pytest.raises(RewriteError) as info:
        rewrite(call)
    message = str(info.value)
    assert "colour, head_entity, relation" in message
    assert "(head_entity, relation)" in message and "(relation, tail_entity)" in message


def test_numbered_head_entities_intersect_their_heads() -> None:
    """``head_entity1`` / ``head_entity2`` (recorded WTQ replies) are two ``head_entity``
    arguments: the heads in both, then the call's own rule with those heads."""
    call = bind(parse_call("get_information(relation='Score', head_entity1='output_of_query1', "
                           "head_entity_2='output_of_query2')"))
    assert [str(op) for op in rewrite(call)] == [
        "$h = intersect(sets=[output_of_query1, output_of_query2], reading='2 head_entity "
        "arguments: the heads in all of them')",
        "project(relation='Score', heads=$h)",
    ]


def test_repeated_arguments_that_cannot_pair_are_rejected() -> None:
    call = bind(parse_call("get_information(relation='r', key='k', key='j')"))
    with pytest.raises(RewriteError, match="pair relations"):
        rewrite(call)


def test_rule_table_documents_every_rule() -> None:
    rows = rule_table()
    assert len(rows) == len(GET_INFORMATION_RULES)
    assert all("->" in doc for _, _, doc in rows)


def test_a_compared_head_entity_is_a_condition_on_the_values() -> None:
    call = Call("get_information", (Arg("relation", Bound("Year", (1,), ("Year",), "relation")),
                                    Arg("tail_entity", Text("2002"), ">="),
                                    Arg("head_entity", Text("2003"), "<=")))
    ops = rewrite(call)
    assert [o.name for o in ops] == ["select", "select", "intersect", "intersect"]
    assert [o.cmp for o in ops[:2]] == [">=", "<="]
    reading = ops[-1].param("reading")
    assert isinstance(reading, Text) and "condition on the relation's values" in reading.value
    plain = rewrite(Call("get_information", (call.args[0], Arg("head_entity", Text("2003")))))
    assert [o.name for o in plain] == ["project"]
