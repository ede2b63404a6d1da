"""Expressions as syntax (issue #12 item 2) and the reply shapes of other models (#16 item 6).

Every expression form found in the recorded GPT-3.5 replies becomes ordinary calls of the
closed language (compare / add / subtract / multiply / divide / if_then_else), nested calls
are hoisted into queries of their own, and whatever is still not understood gets a
ParseError with its line and column.
"""

from __future__ import annotations

import pytest

from trustuqa_core.errors import ParseError
from trustuqa_core.query import (
    Arg,
    Call,
    Program,
    Query,
    Ref,
    Text,
    parse,
    render_call,
    render_program,
)

PRE = (
    "Query1: \"get_information(relation='Gold', tail_entity='Italy')\"\n"
    "Query2: \"get_information(relation='Gold', tail_entity='Spain')\"\n"
)


def flat(program: Program) -> list[tuple[int, str]]:
    """(number, rendered call) per query, in program order, after the two PRE queries."""
    return [(q.number, render_call(q.call)) for q in program.queries[2:]]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "output_of_query1 > output_of_query2",
            [(3, "compare(set1='output_of_query1', set2='output_of_query2', op='>')")],
        ),
        (
            "output_of_query1 == 'Italy'",
            [(3, "compare(set1='output_of_query1', set2='Italy', op='=')")],
        ),
        (
            "output_of_query1 <= 10,000",
            [(3, "compare(set1='output_of_query1', set2='10,000', op='<=')")],
        ),
        (
            "(output_of_query1 != output_of_query2)",
            [(3, "compare(set1='output_of_query1', set2='output_of_query2', op='!=')")],
        ),
        (
            "output_of_query1 - output_of_query2",
            [(3, "subtract(set1='output_of_query1', set2='output_of_query2')")],
        ),
        (
            "count(set='output_of_query1') + 1",
            [(4, "count(set='output_of_query1')"), (3, "add(set1='output_of_query4', set2='1')")],
        ),
        (
            "output_of_query1 * 2 / output_of_query2",
            [
                (4, "multiply(set1='output_of_query1', set2='2')"),
                (3, "divide(set1='output_of_query4', set2='output_of_query2')"),
            ],
        ),
        (
            "if output_of_query1 > output_of_query2 then 'Italy' else 'Spain'",
            [
                (4, "compare(set1='output_of_query1', set2='output_of_query2', op='>')"),
                (3, "if_then_else(condition='output_of_query4', then='Italy', else='Spain')"),
            ],
        ),
        (
            "if output_of_query1 > output_of_query2, then 'It's Murda', else 'Son of Niah'",
            [
                (4, "compare(set1='output_of_query1', set2='output_of_query2', op='>')"),
                (3, "if_then_else(condition='output_of_query4', then='It's Murda', "
                    "else='Son of Niah')"),
            ],
        ),
        (
            "if output_of_query1 < output_of_query2: return 'before' else: return 'after'",
            [
                (4, "compare(set1='output_of_query1', set2='output_of_query2', op='<')"),
                (3, "if_then_else(condition='output_of_query4', then='before', else='after')"),
            ],
        ),
        (
            "if output_of_query1 > 250 then yes else Iowa State end",
            [
                (4, "compare(set1='output_of_query1', set2='250', op='>')"),
                (3, "if_then_else(condition='output_of_query4', then='yes', else='Iowa State')"),
            ],
        ),
        (
            "output_of_query1 if output_of_query1 > output_of_query2 else output_of_query2",
            [
                (4, "compare(set1='output_of_query1', set2='output_of_query2', op='>')"),
                (3, "if_then_else(condition='output_of_query4', then='output_of_query1', "
                    "else='output_of_query2')"),
            ],
        ),
        (
            "output_of_query1 > output_of_query2 ? 'a' : 'b'",
            [
                (4, "compare(set1='output_of_query1', set2='output_of_query2', op='>')"),
                (3, "if_then_else(condition='output_of_query4', then='a', else='b')"),
            ],
        ),
        (
            "if(count(set='output_of_query1') > count(set='output_of_query2'), 'A', 'B')",
            [
                (4, "count(set='output_of_query1')"),
                (5, "count(set='output_of_query2')"),
                (6, "compare(set1='output_of_query4', set2='output_of_query5', op='>')"),
                (3, "if_then_else(condition='output_of_query6', then='A', else='B')"),
            ],
        ),
        (
            "if(output_of_query1 > output_of_query2: return 'x' else: return 'y')",
            [
                (4, "compare(set1='output_of_query1', set2='output_of_query2', op='>')"),
                (3, "if_then_else(condition='output_of_query4', then='x', else='y')"),
            ],
        ),
        (
            "if output_of_query1 < output_of_query2: 'A' else if output_of_query2 < "
            "output_of_query1: 'B' else: 'C'",
            [
                (4, "compare(set1='output_of_query1', set2='output_of_query2', op='<')"),
                (5, "compare(set1='output_of_query2', set2='output_of_query1', op='<')"),
                (6, "if_then_else(condition='output_of_query5', then='B', else='C')"),
                (3, "if_then_else(condition='output_of_query4', then='A', else='output_of_query6')"),
            ],
        ),
        (
            "abs(subtract(value1='output_of_query1', value2='output_of_query2'))",
            [
                (4, "subtract(value1='output_of_query1', value2='output_of_query2')"),
                (3, "abs('output_of_query4')"),
            ],
        ),
        (
            "get_information(relation='Area', tail_entity='n/a') OR "
            "get_information(relation='Density', tail_entity='n/a')",
            [
                (4, "get_information(relation='Area', tail_entity='n/a')"),
                (5, "get_information(relation='Density', tail_entity='n/a')"),
                (3, "set_union(set1='output_of_query4', set2='output_of_query5')"),
            ],
        ),
        (
            "output_of_query1 == 5 or output_of_query2 == 5",
            [
                (4, "compare(set1='output_of_query1', set2='5', op='=')"),
                (5, "compare(set1='output_of_query2', set2='5', op='=')"),
                (3, "if_then_else(condition='output_of_query4', then='yes', "
                    "else='output_of_query5')"),
            ],
        ),
        (
            "output_of_query1 in [1950, 1968]",
            [
                (4, "compare(set1='output_of_query1', set2='1950', op='=')"),
                (5, "compare(set1='output_of_query1', set2='1968', op='=')"),
                (3, "if_then_else(condition='output_of_query4', then='yes', "
                    "else='output_of_query5')"),
            ],
        ),
        (
            "1952 in range(start='output_of_query1', end='output_of_query2')",
            [
                (4, "compare(set1='1952', set2='output_of_query1', op='>=')"),
                (5, "compare(set1='1952', set2='output_of_query2', op='<=')"),
                (3, "if_then_else(condition='output_of_query4', then='output_of_query5', "
                    "else='no')"),
            ],
        ),
        ("output_of_query2", [(3, "set_union(set1='output_of_query2')")]),
        (
            "Calculator.compare(output_of_query1, output_of_query2)",
            [(3, "compare('output_of_query1', 'output_of_query2')")],
        ),
        (
            "set.union(set1='output_of_query1', set2='output_of_query2')",
            [(3, "set_union(set1='output_of_query1', set2='output_of_query2')")],
        ),
        (
            "count(set='output_of_query1') // counts the rows",
            [(3, "count(set='output_of_query1')")],
        ),
    ],
)
def test_expression_forms_become_canonical_calls(body: str, expected: list) -> None:
    program = parse(PRE + f'Query3: "{body}"')
    assert flat(program) == expected
    assert program.last.number == 3
    hoisted = [q for q in program.queries if q.description.startswith("part of")]
    assert all(q.description == "part of Query3" for q in hoisted)
    assert len(hoisted) == len(expected) - 1


def test_hoisted_numbers_continue_after_the_largest_written_number() -> None:
    """Fresh numbers are max + 1, + 2, ... in the order the hoisted queries are placed
    (inner calls first, left to right), each right before the query that uses it."""
    program = parse(
        PRE
        + 'Query3: "abs(subtract(output_of_query1, output_of_query2))"\n'
        + 'Query4: "output_of_query3 > max(set=\'output_of_query1\')"'
    )
    assert [(q.number, q.call.func) for q in program.queries] == [
        (1, "get_information"),
        (2, "get_information"),
        (5, "subtract"),
        (3, "abs"),
        (6, "max"),
        (4, "compare"),
    ]
    assert program.query(4).call.arg("set2").value == Ref(6)


def test_values_after_hoisting_are_only_refs_texts_and_lists() -> None:
    program = parse(PRE + "Query3: \"if(max(set=[output_of_query1, min(set='output_of_query2')])"
                    " > 3, 'a', 'b')\"")
    for q in program.queries:
        for a in q.call.args:
            assert not isinstance(a.value, Call)


def test_two_calls_on_one_query_line_and_renumbering() -> None:
    # the recorded reply: Query3 holds two calls; Query4 compares "output_of_query3 and 4"
    program = parse(
        PRE
        + "Query3: \"count(set='output_of_query1')\", \"count(set='output_of_query2')\"\n"
        + 'Query4: "compare(output_of_query3, output_of_query4)"'
    )
    assert [(q.number, render_call(q.call)) for q in program.queries[2:]] == [
        (3, "count(set='output_of_query1')"),
        (4, "count(set='output_of_query2')"),
        (5, "compare('output_of_query3', 'output_of_query4')"),
    ]


def test_a_number_written_twice_renumbers_and_refs_mean_the_latest() -> None:
    program = parse(
        'Query1: "get_information(relation=\'Model\')"\n'
        "Query2: \"get_information(relation='Builder', tail_entity='Alco')\"\n"
        "Query3: \"get_information(relation='Builder', tail_entity='Alco-Brooks')\"\n"
        "Query3: \"set_union(set1='output_of_query2', set2='output_of_query3')\"\n"
        "Query4: \"set_difference(set1='output_of_query1', set2='output_of_query3')\"\n"
        "Query5: \"count(set='output_of_query4')\""
    )
    assert [q.number for q in program.queries] == [1, 2, 3, 4, 5, 6]
    assert program.query(4).call.refs() == (2, 3)
    assert program.query(5).call.refs() == (1, 4)
    assert program.query(6).call.refs() == (5,)


@pytest.mark.parametrize(
    "reply",
    [
        # Markdown bold (Llama-3.1-8B), numbering, bullets, headings
        '**Step1:** Find Italy\n**Query1:** "get_information(relation=\'Nation\', '
        "tail_entity='Italy')\"\n**Query2**: \"count(set='output_of_query1')\"",
        "1. Step1: Find Italy\n   Query1: \"get_information(relation='Nation', "
        "tail_entity='Italy')\"\n2) Query2: \"count(set='output_of_query1')\"",
        "### Step 1: Find Italy\n- Query 1: get_information(relation='Nation', "
        "tail_entity='Italy')\n* QUERY2 : `count(set='output_of_query1')`",
        # Step and Query on one line
        "Step1: Find Italy -> Query1: \"get_information(relation='Nation', "
        "tail_entity='Italy')\"\nStep2: Count them. Query2: \"count(set='output_of_query1')\"",
        # assignment style
        "Step1: Find Italy\noutput_of_query1 = get_information(relation='Nation', "
        "tail_entity='Italy')\noutput_of_query2 = count(set='output_of_query1')",
        # a JSON object; "Query2 = ..." with an equals sign
        '{\n  "Target type": "{Nation}",\n  "Step1": "Find Italy",\n  "Query1": '
        "\"get_information(relation='Nation', tail_entity='Italy')\",\n"
        "  \"Query2\": \"count(set='output_of_query1')\"\n}",
        "Step1: Find Italy\nQuery1 = \"get_information(relation='Nation', "
        "tail_entity='Italy')\"\nQuery2 = count(set='output_of_query1')",
        # None for absent arguments, curly quotes, chatty preamble and trailer, a code fence
        "Sure! Here is the query:\n```python\nStep1: Find Italy\nQuery1: “get_information("
        "relation=‘Nation’, tail_entity=‘Italy’, head_entity=None, key=None)”\n"
        "Query2: \"count(set='output_of_query1')\"\n```\nI hope this helps!",
    ],
)
def test_other_model_families_reply_shapes(reply: str) -> None:
    program = parse(reply)
    assert [(q.number, render_call(q.call)) for q in program.queries] == [
        (1, "get_information(relation='Nation', tail_entity='Italy')"),
        (2, "count(set='output_of_query1')"),
    ]
    assert program.query(1).description in ("Find Italy", "")


def test_step_description_without_markup_or_separator() -> None:
    p = parse("**Step1:** Find Italy | **Query1:** \"count(set='a')\"")
    assert p.query(1).description == "Find Italy"


def test_quoted_none_is_a_value_and_bare_none_an_absent_argument() -> None:
    call = parse("Query1: \"get_information(relation='A', head_entity=None, "
                 "tail_entity='None')\"").query(1).call
    assert call == Call("get_information", (Arg("relation", Text("A")),
                                             Arg("tail_entity", Text("None"))))


def test_commented_query_lines_are_ignored() -> None:
    p = parse("Query1: \"count(set='a')\"\n# Query1: \"count(set='b')\"")
    assert [q.call.args[0].value for q in p.queries] == [Text("a")]


@pytest.mark.parametrize(
    ("body", "needle", "column"),
    [
        ("output_of_query1 > output_of_query2 > 3", "chained comparisons", 46),
        ("if output_of_query1 > 2 then 'a'", "expected 'else'", 42),
        ("get_information(relation='Date', tail_entity^='2010')", "expected ',' or ')'", 56),
        ("split(string='output_of_query1', delimiter='-')[1]", "unexpected text", 57),
        ("abs(int(output_of_query1[0]) - 1)", "expected ',' or ')'", 34),
        ("for x in output_of_query1: count(set=x)", "unexpected text", 35),
        ("'Italy'", "expected a call or an expression", 9),
        ("get_information(relation='Opp", "unterminated string", 35),
        ("", "expected a call or a value", 10),
    ],
)
def test_what_is_still_not_understood_gets_a_positioned_error(
    body: str, needle: str, column: int
) -> None:
    with pytest.raises(ParseError) as info:
        parse(PRE + f'Query3: "{body}')
    assert needle in info.value.message
    assert (info.value.line, info.value.column) == (3, column)


def test_a_matches_operator_reads_as_a_containing_pattern() -> None:
    """``tail_entity~='Duke'`` (two recorded WTQ replies) is the LIKE pattern ``'%Duke%'``,
    which the lookup reads as the values containing the text; it renders and parses back."""
    program = parse(PRE + "Query3: \"get_information(relation='Title', tail_entity~='Duke')\"")
    arg = program.queries[-1].call.args[1]
    assert (arg.name, arg.value, arg.cmp) == ("tail_entity", Text("%Duke%"), "=")
    assert parse(render_program(program)) == program


def test_render_round_trips_hoisted_programs() -> None:
    program = parse(PRE + "Query3: \"if count(set='output_of_query1') > output_of_query2 "
                    "then 'Italy' else 'Spain'\"")
    again = parse(render_program(program))
    assert again == program
    assert isinstance(again, Program) and isinstance(again.queries[0], Query)


def test_a_second_call_on_a_line_is_ignored_unless_a_later_query_needs_it() -> None:
    # a recorded WebQSP reply: nothing refers to the second call, so it is ignored as before
    program = parse(
        "Step1: Get the profession and nationality of Michael J. Fox\n"
        "Query1: \"get_information(relation='people.person.profession', head_entity='Michael "
        "J. Fox')\", \"get_information(relation='people.person.nationality', "
        "head_entity='Michael J. Fox')\""
    )
    assert [q.number for q in program.queries] == [1]
    assert program.query(1).call.arg("relation").value == Text("people.person.profession")


def test_steps_that_hold_the_calls_when_no_query_labels_exist() -> None:
    p = parse("Step 1: get_information(relation='Nation', tail_entity='Italy')\n"
              "Step 2: `count(set='output_of_query1')`")
    assert [(q.number, render_call(q.call)) for q in p.queries] == [
        (1, "get_information(relation='Nation', tail_entity='Italy')"),
        (2, "count(set='output_of_query1')"),
    ]
    # with QueryN labels present, a step's text stays a description
    p = parse("Step1: count(set='x')\nQuery1: \"count(set='a')\"")
    assert p.query(1).call.args[0].value == Text("a")


def test_a_value_whose_closing_quote_was_dropped_ends_before_the_next_argument() -> None:
    program = parse(
        "Query1: \"get_information(relation='Player', tail_entity='Jerel Myers')\"\n"
        "Query2: \"get_information(relation='TD's, head_entity='output_of_query1')\""
    )
    assert program.query(2).call.args == (
        Arg("relation", Text("TD's")), Arg("head_entity", Ref(1)))
    # an apostrophe followed by text that starts no argument stays inside the value
    program = parse("Query1: \"get_information(relation='Title', tail_entity='Don't Rush, "
                    "value of love')\"")
    assert program.query(1).call.args[1].value == Text("Don't Rush, value of love")
