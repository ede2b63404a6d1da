"""Property tests of the parser: expressions, depth and huge numbers (issue #9), and
``parse(render(p)) == p`` for programs with the expression calls (issue #12).

Generated expression trees are written out in the surface forms LLMs use; the parser must
give back exactly the flat program an independent post-order hoisting of the tree predicts.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from trustuqa_core.errors import ParseError
from trustuqa_core.limits import current_limits
from trustuqa_core.query import (
    Arg,
    Call,
    ListValue,
    Program,
    Query,
    Ref,
    Text,
    parse,
    render_program,
)

PRE = (
    "Query1: \"get_information(relation='Gold', tail_entity='Italy')\"\n"
    "Query2: \"get_information(relation='Gold', tail_entity='Spain')\"\n"
)
WORDS = ["Italy", "Spain", "gold", "x1", "Some Mother's Son", "1,000", "1:07.05"]
CMP_SURFACE = {">": ">", "<": "<", ">=": ">=", "<=": "<=", "=": "==", "!=": "!="}
ARITH = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide"}

# -- a tiny independent model of expressions: trees, their text, the expected program --------

leaf = st.one_of(
    st.builds(lambda n: ("ref", n), st.integers(1, 2)),
    st.builds(lambda w: ("text", w), st.sampled_from(WORDS)),
    st.builds(lambda n: ("num", str(n)), st.integers(0, 10**6)),
)


def _node(children: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.tuples(st.just("cmp"), st.sampled_from(sorted(CMP_SURFACE)), children, children),
        st.tuples(st.just("arith"), st.sampled_from(sorted(ARITH)), children, children),
        st.tuples(st.just("if"), st.integers(0, 5), children, children, children),
        st.tuples(st.just("call"), st.sampled_from(["f", "abs", "calc"]),
                  st.lists(children, min_size=1, max_size=3).map(tuple)),
    )


trees = st.recursive(leaf, _node, max_leaves=8).filter(lambda t: t[0] not in ("ref", "text", "num"))


def write(tree: tuple, in_args: bool = False) -> str:
    """The tree as an LLM would write it (children that are expressions in parentheses)."""
    kind = tree[0]
    if kind == "ref":
        return f"output_of_query{tree[1]}"
    if kind == "text":
        return "'" + tree[1] + "'"
    if kind == "num":
        return tree[1] if not in_args else f"'{tree[1]}'"
    if kind == "call":
        return f"{tree[1]}(" + ", ".join(write(c, in_args=True) for c in tree[2]) + ")"
    if kind == "cmp":
        text = f"{sub(tree[2])} {CMP_SURFACE[tree[1]]} {sub(tree[3])}"
    elif kind == "arith":
        text = f"{sub(tree[2])} {tree[1]} {sub(tree[3])}"
    else:
        c, x, y = sub(tree[2]), sub(tree[3]), sub(tree[4])
        text = [
            f"if {c} then {x} else {y}",
            f"if {c}, then {x}, else {y}",
            f"if {c}: return {x} else: return {y}",
            f"{x} if {c} else {y}",
            f"{c} ? {x} : {y}",
            f"if({c}, {x}, {y})",
        ][tree[1]]
    return f"({text})" if in_args else text


def sub(tree: tuple) -> str:
    return write(tree) if tree[0] in ("ref", "text", "num", "call") else f"({write(tree)})"


def expected_program(tree: tuple) -> list[tuple[int, Call]]:
    """Post-order hoisting: inner calls first, numbered 4, 5, ...; the top is Query3."""
    out: list[tuple[int, Call]] = []
    counter = [4]

    def value(t: tuple) -> Ref | Text:
        if t[0] == "ref":
            return Ref(t[1])
        if t[0] in ("text", "num"):
            return Text(t[1])
        call = build(t)
        number = counter[0]
        counter[0] += 1
        out.append((number, call))
        return Ref(number)

    def build(t: tuple) -> Call:
        if t[0] == "cmp":
            return Call("compare", (Arg("set1", value(t[2])), Arg("set2", value(t[3])),
                                    Arg("op", Text(t[1]))))
        if t[0] == "arith":
            return Call(ARITH[t[1]], (Arg("set1", value(t[2])), Arg("set2", value(t[3]))))
        if t[0] == "if":
            return Call("if_then_else", (Arg("condition", value(t[2])),
                                         Arg("then", value(t[3])), Arg("else", value(t[4]))))
        return Call(t[1], tuple(Arg(None, value(c)) for c in t[2]))

    top = build(tree)
    return [*out, (3, top)]


@settings(max_examples=300, deadline=None)
@given(trees)
def test_expression_trees_parse_to_their_hoisted_program(tree: tuple) -> None:
    program = parse(PRE + f'Query3: "{write(tree)}"')
    got = [(q.number, q.call) for q in program.queries[2:]]
    assert got == expected_program(tree)
    assert parse(render_program(program)) == program


# -- any expression-shaped text: a Program or a positioned ParseError --------------------------

TOKENS = [
    "output_of_query1", "output_of_query2", "output_of_query9", "'a'", '"b"', "3", "10,000",
    "if", "then", "else", "elif", "return", "and", "or", "in", "end", ":", ",", "?", "(", ")",
    "[", "]", "{", "}", ">", "<", ">=", "==", "!=", "+", "-", "*", "/", "count(", "f(",
    "set=", "value>", "None", "'", '"', "range(", "#", "//", "—", "“", "”", "‘", "’", "\\",
]
expression_text = st.lists(st.sampled_from(TOKENS), max_size=25).map(
    lambda ts: " ".join(ts)
) | st.lists(st.sampled_from(TOKENS), max_size=25).map("".join)


def _flat_values(program: Program) -> bool:
    def ok(v: object) -> bool:
        if isinstance(v, ListValue):
            return all(ok(i) for i in v.items)
        return isinstance(v, Ref | Text)

    return all(ok(a.value) for q in program.queries for a in q.call.args)


@settings(max_examples=1500, deadline=None)
@given(expression_text, st.sampled_from(['"', "", "'", "`"]))
def test_fuzz_expressions_parse_or_raise_positioned_errors(body: str, quote: str) -> None:
    text = PRE + f"Query3: {quote}{body}{quote}"
    try:
        program = parse(text)
    except ParseError as exc:
        assert exc.line >= 1 and exc.column >= 1
        return
    assert _flat_values(program)
    defined: set[int] = set()
    for q in program.queries:  # every reference points to a query placed before it
        assert set(q.call.refs()) <= defined
        defined.add(q.number)
    assert parse(render_program(program)) == program


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["(", "[", "{", "f(", "abs(", "if "]), min_size=0, max_size=120))
def test_fuzz_depth_never_overflows_the_stack(openers: list[str]) -> None:
    closers = {"(": ")", "[": "]", "{": "}", "f(": ")", "abs(": ")", "if ": " then 1 else 2"}
    body = "".join(openers) + "output_of_query1" + "".join(closers[o] for o in reversed(openers))
    try:
        parse(PRE + f'Query3: "f({body})"')
    except ParseError as exc:
        assert exc.column >= 1
        if len(openers) + 1 > current_limits().parse_depth:
            assert "parse_depth" in exc.message or "expected" in exc.message


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 12_000), st.sampled_from(["query", "ref", "quoted_ref", "operand", "step",
                                                 "assign"]))
def test_fuzz_huge_numbers_are_limited(digits: int, where: str) -> None:
    number = "7" * digits
    text = {
        "query": f"Query{number}: \"count(set='a')\"",
        "ref": PRE + f'Query3: "count(set=output_of_query{number})"',
        "quoted_ref": PRE + f"Query3: \"count(set='output_of_query{number}')\"",
        "operand": PRE + f'Query3: "output_of_query1 > {number}"',
        "step": f"Step{number}: x\n" + PRE,
        "assign": f"output_of_query{number} = count(set='a')",
    }[where]
    limit = current_limits().number_digits
    try:
        program = parse(text)
    except ParseError as exc:
        if digits > limit:
            assert "number_digits" in exc.message or "query_line_chars" in exc.message
            return
        # a short number can still be wrong: a reference to a query that does not exist
        assert "not defined" in exc.message
        return
    assert digits <= limit
    assert isinstance(program, Program)


# -- render round trip of programs holding the new calls -----------------------------------

values = st.one_of(
    st.builds(Ref, st.integers(1, 2)),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)
    .map(str.strip)
    .filter(bool)
    .map(Text),
)
expression_calls = st.one_of(
    st.builds(lambda a, b, op: Call("compare", (Arg("set1", a), Arg("set2", b),
                                                Arg("op", Text(op)))),
              values, values, st.sampled_from(["=", "!=", "<", ">", "<=", ">="])),
    st.builds(lambda f, a, b: Call(f, (Arg("set1", a), Arg("set2", b))),
              st.sampled_from(["add", "subtract", "multiply", "divide"]), values, values),
    st.builds(lambda c, x, y: Call("if_then_else", (Arg("condition", c), Arg("then", x),
                                                    Arg("else", y))), values, values, values),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(expression_calls, min_size=1, max_size=4), st.booleans())
def test_render_round_trips_programs_with_expression_calls(calls: list[Call], hoisted: bool) -> None:
    base = parse(PRE).queries
    queries = list(base)
    for i, call in enumerate(calls, 3):
        description = f"part of Query{i + 1}" if hoisted and i < len(calls) + 2 else f"step {i}"
        queries.append(Query(i, call, description))
    program = Program(tuple(queries), "Year")
    assert parse(render_program(program)) == program
