"""A linked condition as a query step, written the same way by every table writer.

:mod:`.table_program` (the plain plan), :mod:`.streaks` and :mod:`.frequency` each start
from the rows their conditions find: one ``get_information(relation=<column>,
tail_entity<cmp><value>)`` step per condition, described in words.

>>> from trustuqa_core.query import render_call
>>> text, step = condition_step(Cond("Year", ">", "1990", (3, 4)))
>>> text, render_call(step)
('Find the rows whose Year > 1990', "get_information(relation='Year', tail_entity>'1990')")
"""

from __future__ import annotations

from ..query.ast import CMPS, Call, Cmp
from ..query.build import get_information
from .linking import Cond

__all__ = ["as_cmp", "condition_step"]


def as_cmp(text: str) -> Cmp:
    """A condition's comparison as the query language's :data:`Cmp`.

    >>> as_cmp("<=")
    '<='
    >>> as_cmp("~")
    Traceback (most recent call last):
    ValueError: unknown comparison '~'
    """
    if text not in CMPS:
        raise ValueError(f"unknown comparison {text!r}")
    return text  # type: ignore[return-value]


def condition_step(c: Cond) -> tuple[str, Call]:
    """(description, call) of the step finding the rows that meet ``c`` (line breaks in a
    cell's value written as spaces)."""
    value = c.value.replace("\n", " ")
    return (f"Find the rows whose {c.column} {c.cmp} {value}",
            get_information(relation=c.column, tail_entity=value, cmp=as_cmp(c.cmp)))
