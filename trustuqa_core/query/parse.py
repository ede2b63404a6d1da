"""Raw LLM reply -> :class:`~trustuqa_core.query.ast.Program`. Never uses eval/exec.

Accepts what real LLM output contains: ``StepN:``/``QueryN:`` lines or bare calls, code fences,
a ``## Target type: {...}`` line, quotes around the call, spaces around ``=``, comparison
operators in place of ``=`` (``tail_entity>='10'``), apostrophes and commas inside quoted values
(``'Some Mother's Son'``, ``'1,000'``), bare ``output_of_queryN`` references, ``set``/``set1``
naming, positional arguments and bracketed lists. A quoted value ends at a quote followed by
``,`` or ``)`` -- so a missing comma between arguments ends up inside a value, and is caught at
mapping time rather than here.

Also the shapes other model families write (see :mod:`.lines`: ``**Query1:**``, ``1. Query1:``,
a step and its query on one line, ``output_of_query1 = call(...)``), ``head_entity=None`` for
an absent argument, and expressions (see :mod:`.expressions`): comparisons, arithmetic and
conditionals become ``compare`` / ``add`` ... / ``if_then_else`` calls, and nested calls are
hoisted into queries of their own (:mod:`.hoist`). A number written twice (``Query3`` after
``Query3``) renumbers the program in order. Size, depth and number limits come from
:func:`~trustuqa_core.limits.current_limits`.

>>> p = parse('''## Target type: {Nation}
... Step1: Find the entity named Italy
... Query1: "get_information(relation='Nation', tail_entity='Italy')"
... Query2: "count(set1 = 'output_of_query1')"''')
>>> p.target_type, p.query(2).call
('Nation', Call(func='count', args=(Arg(name='set', value=Ref(step=1), cmp='='),)))
>>> [(q.number, q.call.func) for q in parse('Query1: "count(set=\\'a\\')"\\n'
...     'Query2: "output_of_query1 > 3"').queries]
[(1, 'count'), (2, 'compare')]
>>> parse('Query1: "keep(set=output_of_query1 value<\\'3\\')"')
Traceback (most recent call last):
...
trustuqa_core.errors.ParseError: line 1, column 36: expected ',' or ')'
  Query1: "keep(set=output_of_query1 value<'3')"
                                     ^
"""

from __future__ import annotations

from typing import cast

from ..errors import ParseError
from ..limits import current_limits
from .ast import Arg, Call, Program, Query, Ref
from .expressions import LineParser, Node
from .hoist import hoist, map_refs, tree_refs
from .lines import QueryLine, scan_reply

__all__ = ["parse", "parse_call", "SINGLE_SET", "MULTI_SET", "ALIASES", "KNOWN_FUNCTIONS"]

SINGLE_SET = frozenset(
    {"count", "sum", "mean", "max", "min", "set_negation", "previous_row", "next_row"}
)
MULTI_SET = frozenset({"set_union", "set_intersection", "set_difference"})
KNOWN_FUNCTIONS = SINGLE_SET | MULTI_SET | {"get_information", "keep"}
ALIASES = {"average": "mean", "avg": "mean"}
_IF_NAMES = frozenset({"if", "if_else", "ifelse", "if_then_else"})


def parse(reply: str) -> Program:
    """Parse a whole LLM reply into a Program (raises :class:`ParseError` with line/column)."""
    if not isinstance(reply, str):
        raise ParseError(f"expected text, got {type(reply).__name__}")
    limits = current_limits()
    scan = scan_reply(reply, limits)
    if not scan.queries:
        raise ParseError('no query found in the reply (expected lines like Query1: "...")')
    firsts: list[tuple[int, QueryLine, Call]] = []
    every: list[tuple[int, QueryLine, Call]] = []
    for ql in scan.queries:
        number = ql.number if ql.number is not None else len(firsts) + 1
        nodes = LineParser(ql.line, ql.line_no, limits).bodies(ql.start)
        firsts.append((number, ql, _as_call(nodes[0], ql)))
        for extra, node in enumerate(nodes):  # "call(...)", "call(...)": numbers N, N+1, ...
            every.append((number + extra, ql, _as_call(node, ql)))
    try:
        trees = _numbered(firsts)
    except ParseError:
        # a second call on a query's line is read only when the program needs it (a later
        # query refers to it); otherwise it is ignored, as it always was
        if len(every) == len(firsts):
            raise
        try:
            trees = _numbered(every)
        except ParseError:
            trees = _numbered(firsts)  # raises the error of the program as written
    queries: list[Query] = []
    fresh = max(n for n, _, _ in trees) + 1
    for number, ql, tree in trees:
        step = ql.step if ql.step is not None else (ql.number if ql.number is not None else number)
        description = scan.steps.get(step, "") if step is not None else ""
        part, fresh = hoist(number, tree, description, fresh, _normalise, ql.line_no,
                            ql.line.strip())
        queries.extend(part)
    return Program(tuple(queries), scan.target)


def _numbered(trees: list[tuple[int, QueryLine, Call]]) -> list[tuple[int, QueryLine, Call]]:
    """Check the references (renumbering when a number is written twice)."""
    written = [n for n, _, _ in trees]
    if len(set(written)) != len(written):
        return _renumber(trees)
    _check_refs(trees)
    return trees


def _as_call(node: Node, ql: QueryLine) -> Call:
    """The query's call; a query that is only ``output_of_queryN`` repeats that result."""
    if isinstance(node, Call):
        return node
    if isinstance(node, Ref):
        return Call("set_union", (Arg("set1", node),))
    raise ParseError(
        f"expected a call or an expression, got the value {_short(str(node))!r} alone",
        ql.line,
        ql.line_no,
        ql.start + 1,
    )


def _short(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[: size - 3] + "..."


def _ref_error(ref: int, number: int, ql: QueryLine) -> ParseError:
    col = ql.line.find(f"output_of_query{ref}") + 1 or 1
    return ParseError(
        f"output_of_query{ref} refers to a query not defined before Query{number}",
        ql.line,
        ql.line_no,
        col,
    )


def _check_refs(trees: list[tuple[int, QueryLine, Call]]) -> None:
    seen: set[int] = set()
    for number, ql, tree in trees:
        for ref in tree_refs(tree):
            if ref not in seen:
                raise _ref_error(ref, number, ql)
        seen.add(number)


def _renumber(trees: list[tuple[int, QueryLine, Call]]) -> list[tuple[int, QueryLine, Call]]:
    """Misnumbered queries (a number written twice): number them 1, 2, ... in order, and let
    ``output_of_queryN`` mean the latest query written as N before the one that uses it."""
    latest: dict[int, int] = {}
    out: list[tuple[int, QueryLine, Call]] = []
    for position, (number, ql, tree) in enumerate(trees, 1):
        for ref in tree_refs(tree):
            if ref not in latest:
                raise _ref_error(ref, number, ql)
        out.append((position, ql, cast(Call, map_refs(tree, latest.__getitem__))))
        latest[number] = position
    return out


def parse_call(text: str, line_no: int = 1, start: int = 0) -> Call:
    """Parse one call written on ``text`` from index ``start`` (quotes around it allowed).

    A nested call needs a program to be hoisted into: use :func:`parse` for those.

    >>> parse_call("max(set='output_of_query2')")
    Call(func='max', args=(Arg(name='set', value=Ref(step=2), cmp='='),))
    """
    limits = current_limits()
    if len(text) > limits.query_line_chars:
        raise ParseError(
            f"query line longer than {limits.query_line_chars:,} characters (limit "
            "query_line_chars; raise it with TRUSTUQA_LIMIT_QUERY_LINE_CHARS)",
            "",
            line_no,
            1,
        )
    node = LineParser(text, line_no, limits).body(start)
    if not isinstance(node, Call):
        raise ParseError("expected a call", text, line_no, start + 1)
    for a in node.args:
        if _has_call(a.value):
            raise ParseError(
                "nested calls need a whole program: use parse()", text, line_no, a.span[0] + 1
            )
    return _normalise(node)


def _has_call(value: object) -> bool:
    if isinstance(value, Call):
        return True
    items = getattr(value, "items", ())
    return any(_has_call(v) for v in items)


def _normalise(call: Call) -> Call:
    """Canonical function and parameter names (``set``/``set1``, positional, aliases;
    ``if(C, X, Y)`` -> ``if_then_else(condition=C, then=X, else=Y)``)."""
    if call.func.lower() in _IF_NAMES and len(call.args) == 3 and call.names() == (None,) * 3:
        names = ("condition", "then", "else")
        return Call("if_then_else", tuple(
            Arg(n, a.value, a.cmp, a.span) for n, a in zip(names, call.args, strict=True)
        ), call.span)
    func = ALIASES.get(call.func.lower(), call.func)
    if func.lower() in KNOWN_FUNCTIONS:
        func = func.lower()
    args = list(call.args)
    if func in SINGLE_SET:
        args = [
            _rename(a, "set", {"set", "set1", None}) if i == 0 else a for i, a in enumerate(args)
        ]
    elif func in MULTI_SET:
        positional = 0
        for i, a in enumerate(args):
            if a.name is None:
                positional += 1
                args[i] = _rename(a, f"set{positional}", {None})
            elif a.name == "set":
                args[i] = _rename(a, "set1", {"set"})
    elif func == "keep":
        for i, a in enumerate(args):
            if a.name in (None, "set1") and i == 0:
                args[i] = _rename(a, "set", {None, "set1"})
            elif a.name is None and i == 1:
                args[i] = _rename(a, "value", {None})
    return Call(func, tuple(args), call.span)


def _rename(arg: Arg, name: str, when: set[str | None]) -> Arg:
    return Arg(name, arg.value, arg.cmp, arg.span) if arg.name in when else arg
