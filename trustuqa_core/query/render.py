"""Program / Call -> text that :func:`~trustuqa_core.query.parse.parse` reads back unchanged.

>>> from trustuqa_core.query.parse import parse
>>> raw = "Query1: \\"get_information(relation='Title', tail_entity='Some Mother's Son')\\""
>>> text = render_program(parse(raw))
>>> print(text)
Query1: "get_information(relation='Title', tail_entity='Some Mother's Son')"
>>> parse(text) == parse(render_program(parse(text)))
True
"""

from __future__ import annotations

import re

from .ast import Arg, Bound, Call, ListValue, Program, Ref, Value

__all__ = ["render_call", "render_program", "render_value", "render_arg"]


def render_value(value: Value) -> str:
    """Quote a value so the parser reads it back; references are written quoted, as LLMs do."""
    if isinstance(value, Ref):
        return f"'{value}'"
    if isinstance(value, ListValue):
        return "[" + ", ".join(render_value(v) for v in value.items) + "]"
    if isinstance(value, Bound):
        if len(value.labels) == 1:
            return _quote(value.labels[0])
        return "[" + ", ".join(_quote(label) for label in value.labels) + "]"
    return _quote(value.value)


def _quote(text: str) -> str:
    text = text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")  # one query per line
    if "\\" not in text:
        for q in ("'", '"'):
            # a quote inside the value must not look like its end (a quote before , ) ] or },
            # the characters after which the parser closes a quoted value)
            if not re.search(re.escape(q) + r"\s*[,)\]}]", text):
                return f"{q}{text}{q}"
    escaped = text.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


def render_arg(arg: Arg) -> str:
    value = render_value(arg.value)
    return value if arg.name is None else f"{arg.name}{arg.cmp}{value}"


def render_call(call: Call) -> str:
    """``func(name='value', ...)`` for one call.

    >>> from .ast import Text
    >>> render_call(Call("keep", (Arg("set", Ref(3)), Arg("value", Text("2010"), ">"))))
    "keep(set='output_of_query3', value>'2010')"
    """
    return f"{call.func}(" + ", ".join(render_arg(a) for a in call.args) + ")"


def render_program(program: Program, with_steps: bool = True) -> str:
    """The whole program in the paper's ``StepN`` / ``QueryN`` format."""
    lines: list[str] = []
    if program.target_type:
        lines.append(f"## Target type: {{{program.target_type}}}")
    for q in program.queries:
        if with_steps and q.description:
            lines.append(f"Step{q.number}: {q.description}")
        lines.append(f'Query{q.number}: "{render_call(q.call)}"')
    return "\n".join(lines)
