"""Immutable syntax tree of an LLM query program.

>>> call = Call("get_information", (Arg("relation", Text("Year")),
...                                 Arg("tail_entity", Text("1989"), ">")))
>>> call.arg("tail_entity").cmp
'>'
>>> Program((Query(1, call),)).query(1).call.func
'get_information'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "Cmp",
    "CMPS",
    "Ref",
    "Text",
    "ListValue",
    "Bound",
    "Value",
    "Arg",
    "Call",
    "Query",
    "Program",
]

Cmp = Literal["=", "!=", "<", ">", "<=", ">="]
CMPS: tuple[str, ...] = ("=", "!=", "<", ">", "<=", ">=")


@dataclass(frozen=True)
class Ref:
    """``output_of_queryN``: the result of an earlier query."""

    step: int

    def __str__(self) -> str:
        return f"output_of_query{self.step}"


@dataclass(frozen=True)
class Text:
    """A literal written by the LLM (``quoted`` is False for bare words and numbers)."""

    value: str
    quoted: bool = field(default=True, compare=False, repr=False)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ListValue:
    """A bracketed list of values, e.g. ``values=['a', 'b']``."""

    items: tuple[Ref | Text | ListValue | Bound, ...]

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.items)) + "]"


@dataclass(frozen=True)
class Bound:
    """A literal after mapping: what it was written as, and the graph ids it stands for.

    ``role`` says how to read ``ids``: relation ids (``relation``), node ids (``value`` /
    ``entity``) or nothing (``time_key``: the key name is in ``labels``).
    """

    text: str
    ids: tuple[int, ...]
    labels: tuple[str, ...]
    role: str

    def __str__(self) -> str:
        return self.labels[0] if len(self.labels) == 1 else "[" + ", ".join(self.labels) + "]"


Value = Ref | Text | ListValue | Bound


@dataclass(frozen=True)
class Arg:
    """One argument: ``name <cmp> value``; ``name`` is None for a positional argument."""

    name: str | None
    value: Value
    cmp: Cmp = "="
    span: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)


@dataclass(frozen=True)
class Call:
    """A function call as written (names normalised once by the parser)."""

    func: str
    args: tuple[Arg, ...]
    span: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)

    def arg(self, name: str) -> Arg | None:
        """The first argument with this name, or None."""
        return next((a for a in self.args if a.name == name), None)

    def names(self) -> tuple[str | None, ...]:
        """Argument names in order."""
        return tuple(a.name for a in self.args)

    def refs(self) -> tuple[int, ...]:
        """Query numbers this call refers to."""
        out: list[int] = []
        for a in self.args:
            out.extend(_refs(a.value))
        return tuple(out)


def _refs(value: Value) -> list[int]:
    if isinstance(value, Ref):
        return [value.step]
    if isinstance(value, ListValue):
        return [s for item in value.items for s in _refs(item)]
    return []


@dataclass(frozen=True)
class Query:
    """One ``QueryN`` line: its number as written, the call, and the ``StepN`` description."""

    number: int
    call: Call
    description: str = ""
    line: int = field(default=0, compare=False, repr=False)
    text: str = field(default="", compare=False, repr=False)


@dataclass(frozen=True)
class Program:
    """The queries of one LLM reply, in order, and the ``## Target type`` (if any)."""

    queries: tuple[Query, ...]
    target_type: str | None = None

    def query(self, number: int) -> Query:
        """The query with this number (KeyError if absent)."""
        for q in self.queries:
            if q.number == number:
                return q
        raise KeyError(number)

    @property
    def last(self) -> Query:
        return self.queries[-1]
