"""Raw LLM reply -> :class:`~trustuqa_core.query.ast.Program`. Never uses eval/exec.

Accepts what real LLM output contains: ``StepN:``/``QueryN:`` lines or bare calls, code fences,
a ``## Target type: {...}`` line, quotes around the call, spaces around ``=``, comparison
operators in place of ``=`` (``tail_entity>='10'``), apostrophes and commas inside quoted values
(``'Some Mother's Son'``, ``'1,000'``), bare ``output_of_queryN`` references, ``set``/``set1``
naming, positional arguments and bracketed lists. A quoted value ends at a quote followed by
``,`` or ``)`` -- so a missing comma between arguments ends up inside a value, and is caught at
mapping time rather than here.

>>> p = parse('''## Target type: {Nation}
... Step1: Find the entity named Italy
... Query1: "get_information(relation='Nation', tail_entity='Italy')"
... Query2: "count(set1 = 'output_of_query1')"''')
>>> p.target_type, p.query(2).call
('Nation', Call(func='count', args=(Arg(name='set', value=Ref(step=1), cmp='='),)))
>>> parse('Query1: "keep(set=output_of_query1 value<\\'3\\')"')
Traceback (most recent call last):
...
trustuqa_core.errors.ParseError: line 1, column 36: expected ',' or ')'
  Query1: "keep(set=output_of_query1 value<'3')"
                                     ^
"""

from __future__ import annotations

import re

from ..errors import ParseError
from .ast import Arg, Call, Cmp, ListValue, Program, Query, Ref, Text, Value

__all__ = ["parse", "parse_call", "SINGLE_SET", "MULTI_SET", "ALIASES", "KNOWN_FUNCTIONS"]

SINGLE_SET = frozenset(
    {"count", "sum", "mean", "max", "min", "set_negation", "previous_row", "next_row"}
)
MULTI_SET = frozenset({"set_union", "set_intersection", "set_difference"})
KNOWN_FUNCTIONS = SINGLE_SET | MULTI_SET | {"get_information", "keep"}
ALIASES = {"average": "mean", "avg": "mean"}

_QUERY_LINE = re.compile(r"^\s*[-*]?\s*\**\s*Query\s*(\d+)\s*\**\s*[:：]\s*(.*)$", re.IGNORECASE)
_STEP_LINE = re.compile(r"^\s*[-*]?\s*\**\s*Step\s*(\d+)\s*\**\s*[:：.]\s*(.*)$", re.IGNORECASE)
_TARGET = re.compile(r"^\s*#*\s*Target\s*type\s*[:：]\s*(.*)$", re.IGNORECASE)
_BARE_CALL = re.compile(r"^\s*[\"'`]?\s*[A-Za-z_]\w*\s*\(")
_REF = re.compile(r"^output_of_query\s*(\d+)$", re.IGNORECASE)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_CMP = re.compile(r"(>=|<=|==|!=|<>|=>|=<|=|>|<)")
_GLUED_ARG = re.compile(r"\s+[A-Za-z_]\w*\s*(>=|<=|==|!=|<>|=|>|<)")
_MAX_LINE = 10_000


def parse(reply: str) -> Program:
    """Parse a whole LLM reply into a Program (raises :class:`ParseError` with line/column)."""
    if not isinstance(reply, str):
        raise ParseError(f"expected text, got {type(reply).__name__}")
    target: str | None = None
    steps: dict[int, str] = {}
    found: list[tuple[int | None, int, str]] = []
    lines = [ln.removesuffix("\r") for ln in reply.split("\n")]  # not splitlines(): \x0c etc.
    has_query_prefix = any(_QUERY_LINE.match(ln) for ln in lines)
    for line_no, line in enumerate(lines, 1):
        if line.strip().startswith("```"):
            continue
        if (m := _TARGET.match(line)) and target is None:
            target = _target_text(m.group(1))
        elif m := _STEP_LINE.match(line):
            steps.setdefault(int(m.group(1)), m.group(2).strip())
        elif m := _QUERY_LINE.match(line):
            found.append((int(m.group(1)), line_no, line))
        elif not has_query_prefix and _BARE_CALL.match(line):
            found.append((None, line_no, line))
    if not found:
        raise ParseError('no query found in the reply (expected lines like Query1: "...")')
    queries: list[Query] = []
    seen: set[int] = set()
    for number, line_no, line in found:
        number = number if number is not None else len(queries) + 1
        if number in seen:
            raise ParseError(f"Query{number} appears twice", line, line_no, 1)
        call = parse_call(line, line_no, start=_call_start(line))
        for ref in call.refs():
            if ref not in seen:
                col = line.find(f"output_of_query{ref}") + 1 or 1
                raise ParseError(
                    f"output_of_query{ref} refers to a query not defined before Query{number}",
                    line,
                    line_no,
                    col,
                )
        seen.add(number)
        queries.append(Query(number, call, steps.get(number, ""), line_no, line.strip()))
    return Program(tuple(queries), target)


def _target_text(raw: str) -> str | None:
    m = re.search(r"\{(.*?)\}", raw)
    text = (m.group(1) if m else raw).strip().strip("'\"` ").strip()
    return text or None


def _call_start(line: str) -> int:
    m = _QUERY_LINE.match(line)
    return m.start(2) if m else 0


def parse_call(text: str, line_no: int = 1, start: int = 0) -> Call:
    """Parse one call written on ``text`` from index ``start`` (quotes around it allowed).

    >>> parse_call("max(set='output_of_query2')")
    Call(func='max', args=(Arg(name='set', value=Ref(step=2), cmp='='),))
    """
    if len(text) > _MAX_LINE:
        raise ParseError(f"query line longer than {_MAX_LINE} characters", "", line_no, 1)
    return _LineParser(text, line_no).call_line(start)


class _LineParser:
    """Recursive-descent parser over one line; ``pos`` is a 0-based index into ``text``."""

    def __init__(self, text: str, line_no: int) -> None:
        self.text, self.line_no, self.pos = text, line_no, 0

    def error(self, message: str, pos: int | None = None) -> ParseError:
        col = (self.pos if pos is None else pos) + 1
        return ParseError(message, self.text, self.line_no, col)

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def call_line(self, start: int) -> Call:
        self.pos = start
        self.skip_ws()
        opener = self.peek() if self.peek() in "\"'`" else ""
        if opener:
            self.pos += 1
        call = self.call()
        self.skip_ws()
        if opener and self.peek() == opener:
            return call
        rest = self.text[self.pos :].strip()
        if rest and not re.fullmatch(r"[\"'`.,;]*(<br\s*/?>)?[\"'`.,;]*", rest):
            raise self.error("unexpected text after the call")
        return call

    def call(self) -> Call:
        begin = self.pos
        m = _IDENT.match(self.text, self.pos)
        if not m:
            raise self.error("expected a function name")
        func = m.group(0)
        self.pos = m.end()
        self.skip_ws()
        if self.peek() != "(":
            raise self.error(f"expected '(' after {func!r}")
        self.pos += 1
        args: list[Arg] = []
        self.skip_ws()
        while self.peek() != ")":
            if not self.peek():
                raise self.error("missing ')' at end of the call")
            args.append(self.arg())
            self.skip_ws()
            if self.peek() == ",":
                self.pos += 1
                self.skip_ws()
            elif self.peek() != ")":
                raise self.error("expected ',' or ')'")
        self.pos += 1
        return _normalise(Call(func, tuple(args), (begin, self.pos)))

    def arg(self) -> Arg:
        begin = self.pos
        m = _IDENT.match(self.text, self.pos)
        if m and not _REF.match(m.group(0)):
            after = self.pos
            self.pos = m.end()
            self.skip_ws()
            op = _CMP.match(self.text, self.pos)
            if op:
                cmp = _cmp(op.group(1))
                if cmp is None:
                    raise self.error(f"unsupported operator {op.group(1)!r}")
                self.pos = op.end()
                self.skip_ws()
                value = self.value()
                return Arg(m.group(0), value, cmp, (begin, self.pos))
            self.pos = after
        return Arg(None, self.value(), "=", (begin, self.pos))

    def value(self) -> Value:
        ch = self.peek()
        if ch in "'\"":
            return _as_ref(self.quoted(ch))
        if ch == "[":
            return self.list_value()
        begin = self.pos
        m = re.compile(r"[^,()\[\]'\"]+").match(self.text, self.pos)
        if not m or not m.group(0).strip():
            raise self.error("expected a value")
        raw = m.group(0)
        glued = _GLUED_ARG.search(raw)  # "output_of_query1 value<" lacks a comma
        raw = (raw[: glued.start()] if glued else raw).rstrip()
        self.pos = begin + len(raw)
        if self.peek() == "(" and _IDENT.fullmatch(raw.strip()):
            raise self.error(
                "nested calls are not supported: write each call as its own query", begin
            )
        return _as_ref(Text(raw.strip(), quoted=False))

    def quoted(self, quote: str) -> Text:
        begin = self.pos
        self.pos += 1
        out: list[str] = []
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == "\\" and self.pos + 1 < len(self.text):
                out.append(self.text[self.pos + 1])
                self.pos += 2
                continue
            if ch == quote and re.match(r"\s*[,)\]]", self.text[self.pos + 1 :]):
                self.pos += 1
                return Text("".join(out))
            out.append(ch)
            self.pos += 1
        raise self.error(
            "unterminated string (a closing quote must be followed by ',' or ')')", begin
        )

    def list_value(self) -> ListValue:
        self.pos += 1
        items: list[Value] = []
        self.skip_ws()
        while self.peek() != "]":
            if not self.peek():
                raise self.error("missing ']'")
            items.append(self.value())
            self.skip_ws()
            if self.peek() == ",":
                self.pos += 1
                self.skip_ws()
            elif self.peek() != "]":
                raise self.error("expected ',' or ']'")
        self.pos += 1
        return ListValue(tuple(items))


def _cmp(op: str) -> Cmp | None:
    return {
        "=": "=",
        "==": "=",
        ">": ">",
        "<": "<",
        ">=": ">=",
        "<=": "<=",
        "=>": ">=",
        "=<": "<=",
        "!=": "!=",
        "<>": "!=",
    }.get(op)  # type: ignore[return-value]


def _as_ref(text: Text) -> Value:
    m = _REF.match(text.value.strip())
    return Ref(int(m.group(1))) if m else text


def _normalise(call: Call) -> Call:
    """Canonical function and parameter names (``set``/``set1``, positional, aliases)."""
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
