"""The LLM query language: syntax tree, parser and renderer."""

from __future__ import annotations

from .ast import CMPS, Arg, Bound, Call, Cmp, ListValue, Program, Query, Ref, Text, Value
from .build import arg, call, get_information, program, ref
from .parse import KNOWN_FUNCTIONS, parse, parse_call
from .render import render_call, render_program, render_value

__all__ = [
    "Arg",
    "Bound",
    "Call",
    "Cmp",
    "CMPS",
    "ListValue",
    "Program",
    "Query",
    "Ref",
    "Text",
    "Value",
    "parse",
    "parse_call",
    "render_call",
    "render_program",
    "render_value",
    "arg",
    "call",
    "get_information",
    "program",
    "ref",
    "KNOWN_FUNCTIONS",
]
