"""One query line -> a call tree: calls, arguments, and the expression forms LLMs write.

A recursive-descent parser over the characters of one line (never eval/exec). Inside a
call's parentheses it reads arguments the way it always has (``name='value'``, ``name>value``,
positional values, bracketed lists, bare words); wherever a value or a whole query is an
*expression* -- a nested call, a comparison or arithmetic on results (``output_of_query2 >
output_of_query4``, ``count(set='output_of_query1') + 1``), ``if C then X else Y`` and its
variants (``if C, then X, else Y``, ``if C: return X else: return Y``, ``X if C else Y``,
``C ? X : Y``, ``if(C, X, Y)``) -- it builds the canonical calls of the language:

* comparisons -> ``compare(set1=A, set2=B, op='>')``
* ``+ - * /`` -> ``add`` / ``subtract`` / ``multiply`` / ``divide`` ``(set1=A, set2=B)``
* conditionals -> ``if_then_else(condition=C, then=X, else=Y)``
* ``A or B`` / ``A and B`` between two ``get_information`` calls -> ``set_union`` /
  ``set_intersection`` of their rows; between other conditions ->
  ``if_then_else(condition=A, then='yes', else=B)`` / ``(condition=A, then=B, else='no')``
* ``A in [x, y]`` -> ``A = x or A = y``; ``A in range(s, e)`` -> ``s <= A and A <= e``
* ``set.union(...)`` -> ``set_union(...)``; ``Calculator.compare(...)`` -> ``compare(...)``
* ``if C`` with nothing after it -> C; ``head_entity=None`` -> the argument is left out

The result is a :class:`~.ast.Call` whose argument values may themselves be ``Call`` s;
:mod:`.hoist` flattens those into queries of their own. Nesting deeper than
``parse_depth`` (brackets, calls, ``if`` s, and each link of an operator chain) and numbers
longer than ``number_digits`` are positioned errors; anything else not understood is a
positioned error too (``tail_entity~='x'``, ``split(...)[1]``, chained comparisons).

>>> tree = LineParser("abs(subtract(output_of_query2, 3))", 1).body(0)
>>> tree.func, tree.args[0].value.func
('abs', 'subtract')
>>> c = LineParser('"output_of_query2 > 5"', 1).body(0)
>>> c.func, [str(a.value) for a in c.args]
('compare', ['output_of_query2', '5', '>'])
"""

from __future__ import annotations

import re
from typing import cast

from ..errors import ParseError
from ..limits import Limits, current_limits
from .ast import Arg, Call, Cmp, ListValue, Ref, Text, Value

__all__ = ["LineParser", "Node", "CMP_OPS", "ARITH_FUNCS", "cmp_of"]

Node = Ref | Text | ListValue | Call

ARITH_FUNCS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide"}
CMP_OPS = {
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
}
_CMP_RE = re.compile(r"(>=|<=|==|!=|<>|=>|=<|=|>|<)")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_FUNC = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_REF_WORD = "output_of_query"
_BARE_ARG = re.compile(r"[^,()\[\]'\"]+")
_QUOTES = {"'": "'", '"': '"', "‘": "’", "“": "”", "’": "’", "”": "”"}
# inside a quoted value: the start of the next argument (its own opening quote left)
_RUN_ON = re.compile(
    r",\s*(?:relation|head_entity|tail_entity|key|value|set\d?)\s*(?:[<>!]?=|[<>])\s*['\"]"
)
_KEYWORDS = frozenset({"if", "then", "else", "elif", "return", "and", "or", "end", "endif"})
_STOP = set(",()[]{}'\"`?:;<>=!+*/“”‘’")
_EXPR_QUOTE_END = set(",)]}:;?<>=!+-*/\"'`”’")
_NONE = frozenset({"None", "none", "null", "NULL", "Null"})
_JUNK = set("\"'`.,;*”’")


def cmp_of(op: str) -> Cmp | None:
    """The canonical comparison for an operator as written (``=>`` -> ``>=``), or None."""
    return CMP_OPS.get(op)  # type: ignore[return-value]


class LineParser:
    """Parser over one line; ``pos`` is a 0-based index into ``text``."""

    def __init__(self, text: str, line_no: int, limits: Limits | None = None) -> None:
        self.text, self.line_no, self.pos = text, line_no, 0
        self.limits = limits or current_limits()
        self.depth = 0

    # -- helpers -------------------------------------------------------------------------

    def error(self, message: str, pos: int | None = None) -> ParseError:
        col = (self.pos if pos is None else pos) + 1
        return ParseError(message, self.text, self.line_no, col)

    def skip_ws(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > self.limits.parse_depth:
            raise self.error(
                f"brackets or calls nested deeper than {self.limits.parse_depth} (limit "
                "parse_depth; raise it with TRUSTUQA_LIMIT_PARSE_DEPTH)",
                pos,
            )

    def leave(self) -> None:
        self.depth -= 1

    def keyword(self, word: str, consume: bool = True) -> bool:
        """Is ``word`` (a whole word, any case) at ``pos``? Consume it if asked."""
        end = self.pos + len(word)
        if self.text[self.pos : end].lower() != word:
            return False
        if end < len(self.text) and (self.text[end].isalnum() or self.text[end] == "_"):
            return False
        if consume:
            self.pos = end
        return True

    def at_keyword(self) -> bool:
        m = _IDENT.match(self.text, self.pos)
        return m is not None and m.group(0).lower() in _KEYWORDS

    def number_at(self, pos: int) -> tuple[int, int]:
        """Digits at ``pos`` -> (value, end), checked against ``number_digits``."""
        end = pos
        while end < len(self.text) and self.text[end].isascii() and self.text[end].isdigit():
            end += 1
        if end - pos > self.limits.number_digits:
            raise self.error(
                f"a number with {end - pos:,} digits (limit number_digits = "
                f"{self.limits.number_digits}; raise it with TRUSTUQA_LIMIT_NUMBER_DIGITS)",
                pos,
            )
        return (int(self.text[pos:end]) if end > pos else -1), end

    def ref_at(self, pos: int) -> tuple[int, int] | None:
        """``output_of_queryN`` (spaces allowed before N) at ``pos``: (N, end) or None."""
        end = pos + len(_REF_WORD)
        if self.text[pos:end].lower() != _REF_WORD:
            return None
        while end < len(self.text) and self.text[end] == " ":
            end += 1
        number, after = self.number_at(end)
        if number < 0:
            return None
        if after < len(self.text) and (self.text[after].isalnum() or self.text[after] == "_"):
            return None
        return number, after

    def as_ref(self, text: Text, pos: int) -> Ref | Text:
        """A whole-value ``output_of_queryN`` becomes a :class:`Ref`."""
        value = text.value.strip()
        if value[: len(_REF_WORD)].lower() != _REF_WORD:
            return text
        digits = value[len(_REF_WORD) :].lstrip()
        if not digits or not all(c.isascii() and c.isdigit() for c in digits):
            return text
        if len(digits) > self.limits.number_digits:
            raise self.error(
                f"a number with {len(digits):,} digits (limit number_digits = "
                f"{self.limits.number_digits}; raise it with TRUSTUQA_LIMIT_NUMBER_DIGITS)",
                pos,
            )
        return Ref(int(digits))

    # -- a whole query line ----------------------------------------------------------------

    def bodies(self, start: int) -> list[Node]:
        """The queries written from ``start``: usually one; ``"call(...)", "call(...)"`` is
        two (an LLM's way of writing two queries under one number)."""
        nodes = [self.body(start)]
        text = self.text
        while True:
            pos = self.pos
            if pos < len(text) and text[pos] in "\"'`”’":
                pos += 1
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text) or text[pos] != ",":
                return nodes
            pos += 1
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if not (pos < len(text) and text[pos] in "\"'`“‘" and self.is_call_at(pos + 1)):
                return nodes
            nodes.append(self.body(pos))

    def body(self, start: int) -> Node:
        """The query written from ``start``: optional quotes around one call or expression."""
        self.pos = start
        self.skip_ws()
        closer = ""
        if self.peek() and self.peek() in "\"'`“‘":
            opener = self.peek()
            closer = _QUOTES.get(opener, opener)
            while self.peek() == opener:
                self.pos += 1
            self.skip_ws()
        node = self.conditional()
        self.skip_ws()
        if closer and self.peek() == closer:
            return node
        end = self.pos
        while end < len(self.text) and (self.text[end] in _JUNK or self.text[end].isspace()):
            end += 1
        rest = self.text[end:]
        if rest[:3].lower() == "<br":
            close = rest.find(">")
            rest = rest[close + 1 :] if close >= 0 else rest
            rest = rest.lstrip("".join(_JUNK) + " \t")
        if rest and not rest.startswith(("#", "//", "--", "—", "<-", "->")):
            word = "call" if isinstance(node, Call) else "expression"
            raise self.error(f"unexpected text after the {word}")
        return node

    # -- expressions -----------------------------------------------------------------------

    def conditional(self) -> Node:
        """``if`` forms, ``X if C else Y``, ``C ? X : Y``, or a plain expression."""
        self.skip_ws()
        start = self.pos
        if self.keyword("if") or self.keyword("elif"):
            return self.if_form(start)
        node = self.logical()
        self.skip_ws()
        if self.peek() == "?":
            self.enter(start)
            self.pos += 1
            then = self.conditional()
            self.skip_ws()
            if self.peek() != ":":
                raise self.error("expected ':' after the value for 'yes' in '... ? ... : ...'")
            self.pos += 1
            otherwise = self.conditional()
            self.leave()
            return _if(node, then, otherwise)
        at = self.pos
        if self.keyword("if"):
            self.enter(at)
            cond = self.logical()
            self.skip_ws()
            if not self.keyword("else"):
                raise self.error("expected 'else' in 'X if condition else Y'")
            otherwise = self.conditional()
            self.leave()
            return _if(cond, node, otherwise)
        return node

    def separators(self, chars: str = ",:") -> bool:
        """Skip whitespace and any of ``chars``; True if one of them was skipped."""
        found = False
        while True:
            self.skip_ws()
            if self.peek() and self.peek() in chars:
                self.pos += 1
                found = True
            else:
                return found

    def if_form(self, start: int) -> Node:
        """After ``if``: ``C then X else Y`` with the punctuation variants, ``if(C, X, Y)``,
        ``if(C) then ...``, ``if(C: X else: Y)``, or an ordinary call ``if(name=...)``."""
        self.enter(start)
        self.skip_ws()
        name = self.text[start : self.pos].strip()
        if self.peek() == "(":
            paren = self.pos
            if self._named_arg_at(paren + 1):
                args = self.call_args()  # an ordinary call named ``if`` (``if(set1=...)``)
                call = Call(name, tuple(args), (start, self.pos))
                node = self._if_tail(call) if self._then_follows() else call
                self.leave()
                return node
            self.enter(paren)
            self.pos += 1
            first = self.conditional()
            self.skip_ws()
            if self.peek() == ",":
                values = [first]
                while self.peek() == ",":
                    self.pos += 1
                    self.skip_ws()
                    values.append(self.value())
                    self.skip_ws()
                if self.peek() != ")":
                    raise self.error("expected ',' or ')'")
                self.pos += 1
                self.leave()
                self.leave()
                if len(values) == 3:
                    return _if(values[0], values[1], values[2])
                return Call(name, tuple(_arg(None, v) for v in values), (start, self.pos))
            if self.peek() == ")":
                self.pos += 1
                self.leave()
                if not self._then_follows():
                    self.leave()
                    return Call(name, (_arg(None, first),), (start, self.pos))
                node = self._if_tail(first)
            else:  # ``if(C: X else: Y)``
                node = self._if_tail(first)
                self.skip_ws()
                if self.peek() != ")":
                    raise self.error("expected ')'")
                self.pos += 1
                self.leave()
        else:
            node = self._if_tail(self.logical())
        self.leave()
        return node

    def _named_arg_at(self, pos: int) -> bool:
        """``name=`` / ``name>`` (not ``output_of_queryN >``) at ``pos``, after spaces."""
        while pos < len(self.text) and self.text[pos].isspace():
            pos += 1
        m = _IDENT.match(self.text, pos)
        if not m or self.ref_at(pos):
            return False
        end = m.end()
        while end < len(self.text) and self.text[end] == " ":
            end += 1
        return bool(_CMP_RE.match(self.text, end))

    def _if_tail(self, cond: Node) -> Node:
        """``[,:] [then] [return] X [,;] else [:] [return] Y [end]`` after the condition;
        ``if C`` with nothing after it asks whether C holds: it is C itself."""
        self.skip_ws()
        if not self.peek() or self.peek() in "\"'`”’)":
            return cond
        self.separators()
        self.keyword("then")
        self.separators()
        self.keyword("return")
        then = self.branch()
        comma = self.separators(",;")
        self.skip_ws()
        at = self.pos
        if self.keyword("elif"):
            otherwise = self.if_form(at)
        elif self.keyword("else"):
            self.separators()
            at = self.pos
            if self.keyword("if"):
                otherwise = self.if_form(at)
            else:
                self.keyword("return")
                otherwise = self.branch()
        elif comma:
            otherwise = self.branch()
        else:
            raise self.error("expected 'else' (an 'if' needs a value for both cases)")
        self.skip_ws()
        _ = self.keyword("endif") or self.keyword("end")
        return _if(cond, then, otherwise)

    def _then_follows(self) -> bool:
        """After ``if(C)``: does a ``then`` part follow (``then``, ``:``, ``,``, ``return``, a
        value)?"""
        save = self.pos
        self.skip_ws()
        ch = self.peek()
        found = bool(ch) and ch not in ")]}\"'`”’" and not self.keyword("else", consume=False)
        self.pos = save
        return found

    def branch(self) -> Node:
        self.skip_ws()
        if self.at_keyword() and not self.keyword("if", consume=False):
            raise self.error("expected a value")
        return self.logical()

    def logical(self) -> Node:
        """``A or B`` / ``A and B``: a union / intersection of two ``get_information`` row
        sets; between other conditions ``if_then_else(A, 'yes', B)`` / ``(A, B, 'no')``."""
        left = self.comparison()
        base = self.depth
        while True:
            self.skip_ws()
            at = self.pos
            if self.keyword("or"):
                union = True
            elif self.keyword("and"):
                union = False
            else:
                self.depth = base
                return left
            self.enter(at)  # each link of a chain nests the tree one level deeper
            right = self.comparison()
            if _is_lookup(left) and _is_lookup(right):
                func = "set_union" if union else "set_intersection"
                left = Call(func, (_arg("set1", left), _arg("set2", right)), (at, self.pos))
            elif union:
                left = _if(left, Text("yes"), right)
            else:
                left = _if(left, right, Text("no"))

    def cmp_op(self) -> str | None:
        self.skip_ws()
        m = _CMP_RE.match(self.text, self.pos)
        if not m:
            return None
        self.pos = m.end()
        return m.group(1)

    def comparison(self) -> Node:
        left = self.additive()
        at = self.pos
        op = self.cmp_op()
        if op is None:
            if self._in_list_at():
                return self.membership(left)
            if self._in_range_at():
                return self.in_range(left)
            return left
        right = self.additive()
        again = self.pos
        if self.cmp_op() is not None:
            raise self.error("chained comparisons are not supported: compare two values", again)
        cmp = cmp_of(op)
        if cmp is None:  # pragma: no cover - every operator the pattern finds is mapped
            raise self.error(f"unsupported operator {op!r}", at)
        return _compare(left, right, cmp, at)

    def _after_in(self) -> int | None:
        """Where the text after an ``in`` keyword at ``pos`` (after spaces) starts, or None."""
        self.skip_ws()
        if not self.keyword("in", consume=False):
            return None
        end = self.pos + 2
        while end < len(self.text) and self.text[end].isspace():
            end += 1
        return end

    def _in_list_at(self) -> bool:
        """``in [`` or ``in (`` at ``pos`` (after spaces)."""
        end = self._after_in()
        return end is not None and end < len(self.text) and self.text[end] in "[("

    def _in_range_at(self) -> bool:
        """``in range(`` at ``pos`` (after spaces)."""
        end = self._after_in()
        return (end is not None and self.text[end : end + 5].lower() == "range"
                and self.is_call_at(end))

    def in_range(self, left: Node) -> Node:
        """``A in range(start=s, end=e)`` (or ``range(s, e)``) -> ``s <= A and A <= e``."""
        self.pos += 2
        self.skip_ws()
        at = self.pos
        call = self.call()
        bounds = [a.value for a in call.args]
        if len(bounds) != 2:
            raise self.error("expected range(start, end) with two values", at)
        low, high = cast(list[Node], bounds)
        return _if(_compare(left, low, ">=", at), _compare(left, high, "<=", at), Text("no"))

    def membership(self, left: Node) -> Node:
        """``A in [x, y]`` -> ``A = x or A = y`` (see :meth:`logical`)."""
        self.pos += 2
        self.skip_ws()
        at = self.pos
        closer = "]" if self.peek() == "[" else ")"
        self.enter(at)
        self.pos += 1
        items: list[Node] = []
        while True:
            self.skip_ws()
            if self.peek() == closer and items:
                break
            if len(items) >= self.limits.parse_depth:  # each value nests the test deeper
                raise self.error(
                    f"more than {self.limits.parse_depth} values after 'in' (limit parse_depth)"
                )
            items.append(self.additive())
            self.skip_ws()
            if self.peek() == ",":
                self.pos += 1
            elif self.peek() != closer:
                raise self.error(f"expected ',' or '{closer}'")
        self.pos += 1
        self.leave()
        node: Node = _compare(left, items[-1], "=", at)
        for item in reversed(items[:-1]):
            node = _if(_compare(left, item, "=", at), Text("yes"), node)
        return node

    def additive(self) -> Node:
        left = self.term()
        base = self.depth
        while True:
            self.skip_ws()
            ch = self.peek()
            if ch not in ("+", "-") or self.text.startswith(("--", "->"), self.pos):
                self.depth = base
                return left  # "--" / "->" start a comment after the query
            at = self.pos
            self.enter(at)
            self.pos += 1
            right = self.term()
            left = Call(ARITH_FUNCS[ch], (_arg("set1", left), _arg("set2", right)), (at, at))

    def term(self) -> Node:
        left = self.primary()
        base = self.depth
        while True:
            self.skip_ws()
            ch = self.peek()
            if ch not in ("*", "/") or self.text.startswith("//", self.pos):
                self.depth = base
                return left  # "//" starts a comment after the query
            at = self.pos
            self.enter(at)
            self.pos += 1
            right = self.primary()
            left = Call(ARITH_FUNCS[ch], (_arg("set1", left), _arg("set2", right)), (at, at))

    def primary(self) -> Node:
        self.skip_ws()
        start = self.pos
        ch = self.peek()
        if not ch:
            raise self.error("expected a call or a value")
        if ch == "(":
            self.enter(start)
            self.pos += 1
            node = self.conditional()
            self.skip_ws()
            if self.peek() != ")":
                raise self.error("expected ')'")
            self.pos += 1
            self.leave()
            return node
        if ch in _QUOTES:
            return self.as_ref(self.quoted(ch, expression=True), start)
        if ch and ch in "[{":
            return self.list_value()
        if self.keyword("if", consume=False):
            self.pos += 2
            return self.if_form(start)
        if ref := self.ref_at(start):
            self.pos = ref[1]
            return Ref(ref[0])
        if self.is_call_at(start):
            return self.call()
        if ch == "-" and start + 1 < len(self.text) and self.text[start + 1].isdigit():
            self.pos += 1  # a negative number
        elif ch in _STOP or ch == "-":
            raise self.error("expected a call or a value")
        return self.bare_phrase(start)

    def is_call_at(self, pos: int, keywords: bool = False) -> bool:
        """``name (`` at ``pos`` (a keyword such as ``if`` counts only when asked)."""
        m = _FUNC.match(self.text, pos)
        if not m or (not keywords and m.group(0).lower() in _KEYWORDS):
            return False
        end = m.end()
        while end < len(self.text) and self.text[end] == " ":
            end += 1
        return end < len(self.text) and self.text[end] == "("

    def bare_phrase(self, begin: int) -> Text:
        """Unquoted words from ``begin`` up to an operator, punctuation or keyword
        (``then Iowa State else``). ``+ - * /`` inside a word (``Alco-Brooks``,
        ``11/09/2013``) and a comma between digit groups (``10,000``) belong to the phrase."""
        text, n = self.text, len(self.text)
        pos = end = self.pos
        while pos < n:
            if text[pos].isspace():
                pos += 1
                continue
            m = _IDENT.match(text, pos)
            if m and m.group(0).lower() in _KEYWORDS:
                break
            if m and m.group(0).lower() == "in":
                self.pos, save = pos, self.pos
                found = self._in_list_at() or self._in_range_at()
                self.pos = save
                if found:
                    break
            word = self._word_end(pos)
            if word == pos:
                break
            pos = end = word
        raw = text[begin:end].strip()
        if not raw:
            raise self.error("expected a call or a value")
        self._check_digits(raw, begin)
        self.pos = end
        return Text(raw, quoted=False)

    def _word_end(self, pos: int) -> int:
        """End of the bare word at ``pos`` (``pos`` itself if an operator starts there)."""
        text, n, start = self.text, len(self.text), pos
        while pos < n:
            c = text[pos]
            if c.isspace():
                break
            if c in "+-*/":
                nxt = text[pos + 1] if pos + 1 < n else " "
                if pos > start and not nxt.isspace() and nxt not in _STOP and nxt not in "+-":
                    pos += 1
                    continue
                break
            if c == "," and pos > start and text[pos - 1].isdigit() and (
                text[pos + 1 : pos + 4].isdigit() and len(text[pos + 1 : pos + 4]) == 3
            ) and (pos + 4 >= n or not text[pos + 4].isdigit()):
                pos += 4
                continue
            if c in _STOP:
                break
            pos += 1
        return pos

    def _check_digits(self, raw: str, pos: int) -> None:
        run = longest = 0
        for c in raw:
            run = run + 1 if c.isdigit() else 0
            longest = max(longest, run)
        if longest > self.limits.number_digits:
            raise self.error(
                f"a number with {longest:,} digits (limit number_digits = "
                f"{self.limits.number_digits}; raise it with TRUSTUQA_LIMIT_NUMBER_DIGITS)",
                pos,
            )

    # -- calls and their arguments ---------------------------------------------------------

    def call(self) -> Call:
        begin = self.pos
        m = _FUNC.match(self.text, self.pos)
        if not m:
            raise self.error("expected a function name")
        func = _func_name(m.group(0))
        self.pos = m.end()
        self.skip_ws()
        if self.peek() != "(":
            raise self.error(f"expected '(' after {func!r}")
        args = self.call_args()
        return Call(func, tuple(args), (begin, self.pos))

    def call_args(self) -> list[Arg]:
        """``( arg, ... )`` from the opening parenthesis at ``pos``."""
        self.enter(self.pos)
        self.pos += 1
        args: list[Arg] = []
        self.skip_ws()
        while self.peek() != ")":
            if not self.peek():
                raise self.error("missing ')' at end of the call")
            arg = self.arg()
            if not (arg.name and isinstance(arg.value, Text) and not arg.value.quoted
                    and arg.value.value in _NONE):
                args.append(arg)  # ``head_entity=None``: the paper's way to leave it out
            self.skip_ws()
            if self.peek() == ",":
                self.pos += 1
                self.skip_ws()
            elif self.peek() != ")":
                raise self.error("expected ',' or ')'")
        self.pos += 1
        self.leave()
        return args

    def arg(self) -> Arg:
        begin = self.pos
        m = _IDENT.match(self.text, self.pos)
        if m and not self.ref_at(self.pos):
            after = self.pos
            self.pos = m.end()
            self.skip_ws()
            if self.text.startswith(_LIKE_OP, self.pos):  # ``tail_entity~='Duke'``
                self.pos += len(_LIKE_OP)
                self.skip_ws()
                return _arg(m.group(0), _containing(self.value()), "=", (begin, self.pos))
            op = _CMP_RE.match(self.text, self.pos)
            if op:
                cmp = cmp_of(op.group(1))
                if cmp is None:  # pragma: no cover - every operator the pattern finds is mapped
                    raise self.error(f"unsupported operator {op.group(1)!r}")
                self.pos = op.end()
                self.skip_ws()
                value = self.value()
                return _arg(m.group(0), value, cmp, (begin, self.pos))
            self.pos = after
        return _arg(None, self.value(), "=", (begin, self.pos))

    def value(self) -> Node:
        """An argument value: quoted text, a list, a nested call or expression, or bare words."""
        ch = self.peek()
        begin = self.pos
        if ch in _QUOTES:
            return self.as_ref(self.quoted(ch), begin)
        if ch and ch in "[{":
            return self.list_value()
        if ch == "(" or self.is_call_at(begin, keywords=True):
            return self.conditional()
        if ref := self.ref_at(begin):
            after = ref[1]
            while after < len(self.text) and self.text[after] == " ":
                after += 1
            if after < len(self.text) and self.text[after] in "<>=!+-*/?":
                return self.conditional()
        m = _BARE_ARG.match(self.text, self.pos)
        if not m or not m.group(0).strip():
            raise self.error("expected a value")
        raw = _cut_glued_arg(m.group(0))  # "output_of_query1 value<" lacks a comma
        self.pos = begin + len(raw)
        self._check_digits(raw, begin)
        return self.as_ref(Text(raw.strip(), quoted=False), begin)

    def quoted(self, quote: str, expression: bool = False) -> Text:
        """A quoted value. It ends at its closing quote followed by ``,`` ``)`` or ``]``
        (so apostrophes inside stay), or, inside an expression, by an operator, keyword,
        punctuation or the end of the line."""
        closing = _QUOTES[quote]
        text = self.text
        begin = self.pos
        self.pos += 1
        out: list[str] = []
        while self.pos < len(text):
            ch = text[self.pos]
            if ch == "\\" and self.pos + 1 < len(text):
                out.append(text[self.pos + 1])
                self.pos += 2
                continue
            if ch == closing and self._quote_ends(self.pos + 1, expression):
                self.pos += 1
                return Text(self._unclosed("".join(out), begin))
            out.append(ch)
            self.pos += 1
        raise self.error(
            "unterminated string (a closing quote must be followed by ',' or ')')", begin
        )

    def _unclosed(self, value: str, begin: int) -> str:
        """``relation='TD's, head_entity='output_of_query1'``: a value whose closing quote was
        dropped after an apostrophe runs into the next argument. When the value holds
        ``, <argument name>=`` followed by a quote, it ends before the comma and parsing
        resumes there (the quoted text of the first value is ``TD's``)."""
        m = _RUN_ON.search(value)
        if m is None:
            return value
        self.pos = begin + 1 + m.start()
        return value[: m.start()]

    def _quote_ends(self, pos: int, expression: bool) -> bool:
        text = self.text
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos < len(text) and text[pos] in ",)]}":
            return True
        if not expression:
            return False
        if pos >= len(text) or text[pos] in _EXPR_QUOTE_END:
            return True
        m = _IDENT.match(text, pos)
        return m is not None and m.group(0).lower() in _KEYWORDS

    def list_value(self) -> ListValue:
        closer = "]" if self.peek() == "[" else "}"
        self.enter(self.pos)
        self.pos += 1
        items: list[Node] = []
        self.skip_ws()
        while self.peek() != closer:
            if not self.peek():
                raise self.error(f"missing '{closer}'")
            items.append(self.value())
            self.skip_ws()
            if self.peek() == ",":
                self.pos += 1
                self.skip_ws()
            elif self.peek() != closer:
                raise self.error(f"expected ',' or '{closer}'")
        self.pos += 1
        self.leave()
        return ListValue(tuple(items))  # type: ignore[arg-type]


def _cut_glued_arg(raw: str) -> str:
    """Cut ``raw`` before a glued ``name<op>`` (``output_of_query1 value<``): a linear scan
    for whitespace, then an identifier, then optional spaces and a comparison operator."""
    i = 0
    n = len(raw)
    while i < n:
        if raw[i].isspace():
            j = i
            while j < n and raw[j].isspace():
                j += 1
            m = _IDENT.match(raw, j)
            if m:
                k = m.end()
                while k < n and raw[k] == " ":
                    k += 1
                if k < n and (raw[k] in "<>=" or raw[k : k + 2] == "!="):
                    return raw[:i].rstrip()
                i = m.end()
            else:
                i = j
            continue
        i += 1
    return raw.rstrip()


def _func_name(written: str) -> str:
    """``set.union`` -> ``set_union``; ``Calculator.compare`` / ``math.abs`` -> the last part."""
    if "." not in written:
        return written
    parts = written.split(".")
    return "_".join(parts) if parts[0].lower() == "set" else parts[-1]


def _is_lookup(node: Node) -> bool:
    return isinstance(node, Call) and node.func.lower() == "get_information"


# ``name~='text'``: "matches", read as the LIKE pattern ``'%text%'`` (values containing it)
_LIKE_OP = "~="


def _containing(node: Node) -> Node:
    """A literal after ``~=`` as the pattern of the values containing it (``'Duke'`` ->
    ``'%Duke%'``, which the lookup reads as a containment); other values unchanged.

    >>> _containing(Text("Duke"))
    Text(value='%Duke%')
    """
    if isinstance(node, Text) and node.value.strip():
        return Text(f"%{node.value.strip().strip('%')}%")
    return node


def _arg(name: str | None, node: Node, cmp: Cmp = "=", span: tuple[int, int] = (0, 0)) -> Arg:
    """An argument whose value may still be a call (until :mod:`.hoist` flattens the tree)."""
    return Arg(name, cast(Value, node), cmp, span)


def _compare(left: Node, right: Node, cmp: str, at: int) -> Call:
    return Call(
        "compare", (_arg("set1", left), _arg("set2", right), _arg("op", Text(cmp))), (at, at)
    )


def _if(cond: Node, then: Node, otherwise: Node) -> Call:
    return Call(
        "if_then_else", (_arg("condition", cond), _arg("then", then), _arg("else", otherwise))
    )
