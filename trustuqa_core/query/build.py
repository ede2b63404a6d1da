"""Building query programs in code, so writers never paste query text together.

Writers (the offline linker, KG linking, computed questions, template re-binding) build a
:class:`~trustuqa_core.query.ast.Program` with these helpers; the text is written once, by
:func:`~trustuqa_core.query.render.render_program`, which also quotes every literal.

>>> from trustuqa_core.query.render import render_call, render_program
>>> p = program("number of Player", [
...     ("Find the rows whose School = Duke", get_information(relation="School",
...                                                          tail_entity="Duke")),
...     ("Count output_of_query1", call("count", set=ref(1))),
... ])
>>> print(render_program(p))
## Target type: {number of Player}
Step1: Find the rows whose School = Duke
Query1: "get_information(relation='School', tail_entity='Duke')"
Step2: Count output_of_query1
Query2: "count(set='output_of_query1')"
>>> render_call(get_information(relation="Year", tail_entity="2000", cmp=">"))
"get_information(relation='Year', tail_entity>'2000')"
"""

from __future__ import annotations

from collections.abc import Sequence

from .ast import Arg, Call, Cmp, Program, Query, Ref, Text, Value

__all__ = ["ref", "value", "arg", "call", "get_information", "program"]


def ref(step: int) -> Ref:
    """``output_of_query<step>``.

    >>> ref(3)
    Ref(step=3)
    """
    if step < 1:
        raise ValueError(f"a query reference needs a step number >= 1, got {step}")
    return Ref(step)


def value(item: str | Value) -> Value:
    """A literal (a string becomes quoted :class:`Text`) or an already built value.

    >>> value("Duke") == Text("Duke"), value(ref(2))
    (True, Ref(step=2))
    """
    return Text(item) if isinstance(item, str) else item


def arg(name: str, item: str | Value, cmp: Cmp = "=") -> Arg:
    """One named argument ``name <cmp> item``.

    >>> from trustuqa_core.query.render import render_call
    >>> render_call(call("keep", arg("set", ref(3)), arg("value", "2010", ">")))
    "keep(set='output_of_query3', value>'2010')"
    """
    return Arg(name, value(item), cmp)


def call(func: str, *args: Arg, **named: str | Value) -> Call:
    """``func(...)``: positional :class:`Arg` objects first, then keyword arguments in order.

    >>> from trustuqa_core.query.render import render_call
    >>> render_call(call("difference", set1=ref(1), set2=ref(2)))
    "difference(set1='output_of_query1', set2='output_of_query2')"
    """
    return Call(func, tuple(args) + tuple(Arg(k, value(v)) for k, v in named.items()))


def get_information(cmp: Cmp = "=", **named: str | Value) -> Call:
    """``get_information`` with the keyword arguments in order; ``cmp`` applies to
    ``tail_entity`` (the only argument a comparison can sit on).

    >>> from trustuqa_core.query.render import render_call
    >>> render_call(get_information(relation="Nation", head_entity=ref(1)))
    "get_information(relation='Nation', head_entity='output_of_query1')"
    """
    if cmp != "=" and "tail_entity" not in named:
        raise ValueError(f"comparison {cmp!r} needs a tail_entity argument")
    return Call("get_information", tuple(
        Arg(k, value(v), cmp if k == "tail_entity" else "=") for k, v in named.items()))


def program(target: str | None, steps: Sequence[tuple[str, Call]]) -> Program:
    """Queries numbered from 1 with their step descriptions, and the target type (if any).

    >>> program(None, [("Every Year", get_information(relation="Year"))]).last.number
    1
    """
    return Program(tuple(Query(i, c, description) for i, (description, c) in
                         enumerate(steps, 1)), target)
