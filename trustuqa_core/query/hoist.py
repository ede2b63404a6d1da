"""Flatten call trees into queries: every nested call becomes a query of its own.

A nested call (or a sub-expression the parser turned into a call) gets a fresh number -- the
largest number in the program + 1, + 2, ... in order of appearance -- and is placed right
before the query that uses it, with the description ``part of QueryN``; the parent refers to
it with :class:`~.ast.Ref`. Inner calls come before outer ones, left to right. So the mapper,
executor and trace only ever see flat programs whose values are Ref / Text / ListValue.

>>> from .ast import Arg, Call, Ref, Text
>>> tree = Call("abs", (Arg(None, Call("subtract", (Arg("set1", Ref(2)),
...                                                 Arg("set2", Text("3"))))),))
>>> [(q.number, q.call.func, q.description) for q in hoist(5, tree, "", 7)[0]]
[(7, 'subtract', 'part of Query5'), (5, 'abs', '')]
"""

from __future__ import annotations

from collections.abc import Callable

from .ast import Arg, Call, ListValue, Query, Ref

__all__ = ["hoist", "tree_refs", "map_refs"]

Normaliser = Callable[[Call], Call]


def _identity(call: Call) -> Call:
    return call


def hoist(
    number: int,
    tree: Call,
    description: str,
    next_number: int,
    normalise: Normaliser = _identity,
    line: int = 0,
    text: str = "",
) -> tuple[list[Query], int]:
    """``tree`` as Query ``number`` preceded by its hoisted parts; returns the queries and
    the next free number."""
    out: list[Query] = []
    counter = [next_number]

    def flat(value: object) -> object:
        if isinstance(value, Call):
            call = normalise(_flat_call(value))
            fresh = counter[0]
            counter[0] += 1
            out.append(Query(fresh, call, f"part of Query{number}", line, text))
            return Ref(fresh)
        if isinstance(value, ListValue):
            return ListValue(tuple(flat(v) for v in value.items))  # type: ignore[misc]
        return value

    def _flat_call(call: Call) -> Call:
        return Call(
            call.func,
            tuple(Arg(a.name, flat(a.value), a.cmp, a.span) for a in call.args),  # type: ignore[arg-type]
            call.span,
        )

    top = normalise(_flat_call(tree))
    out.append(Query(number, top, description, line, text))
    return out, counter[0]


def tree_refs(value: object) -> list[int]:
    """Every ``Ref`` step in a call tree, left to right.

    >>> tree_refs(Call("f", (Arg(None, Ref(1)), Arg("x", Call("g", (Arg(None, Ref(3)),))))))
    [1, 3]
    """
    if isinstance(value, Ref):
        return [value.step]
    if isinstance(value, ListValue):
        return [s for v in value.items for s in tree_refs(v)]
    if isinstance(value, Call):
        return [s for a in value.args for s in tree_refs(a.value)]
    return []


def map_refs(value: object, fn: Callable[[int], int]) -> object:
    """The tree with every ``Ref(n)`` replaced by ``Ref(fn(n))``.

    >>> from .ast import Text
    >>> map_refs(Call("f", (Arg(None, Ref(1)), Arg(None, Text("a")))), lambda n: n + 1).args[0]
    Arg(name=None, value=Ref(step=2), cmp='=')
    """
    if isinstance(value, Ref):
        return Ref(fn(value.step))
    if isinstance(value, ListValue):
        return ListValue(tuple(map_refs(v, fn) for v in value.items))  # type: ignore[misc]
    if isinstance(value, Call):
        return Call(
            value.func,
            tuple(Arg(a.name, map_refs(a.value, fn), a.cmp, a.span) for a in value.args),  # type: ignore[arg-type]
            value.span,
        )
    return value

