"""Reading the arguments of a reasoning function: operands, an operator, a condition, branches.

LLMs name the same thing many ways (``set1``/``value1``/``count1``/``a``/positional; ``op``,
``operator='greater than'``, ``comparison_operator='greater_than'``; ``'output_of_query2 >
10000'`` as one text). :func:`split_args` sorts the arguments of a call into those roles by
name tables (data, below); :func:`read_number` turns an operand into one number the way
:mod:`trustuqa_core.numbers` reads cells, and keeps the operand's witnesses and a short
description of them ("row 5 Gold") for the step's notes. Nothing is evaluated as Python:
an expression text is split by one regular expression into operand, operator, operand.

>>> operator_symbol("greater than"), operator_symbol("Subtract"), operator_symbol("foo") is None
('>', '-', True)
>>> read_expression("output_of_query3 < output_of_query4")
(Ref(step=3), '<', Ref(step=4))
>>> read_expression("output_of_query2 > 10000")
(Ref(step=2), '>', Text(value='10000'))
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from ..errors import NotApplicableError
from ..numbers import format_number, parse_number, parse_quantity
from ..ops.base import Context, elem_text, quantity, resolve_set
from ..query.ast import Bound, ListValue, Ref, Text
from ..results import MAX_WITNESSES, Elem, Result, Scalar
from ..rewrite import Op
from .cues import asks_total, order_word, rank_direction, superlative
from .scores import read_score

__all__ = [
    "read_positions",
    "Args",
    "Reading",
    "OPERATOR_WORDS",
    "operator_symbol",
    "split_args",
    "read_expression",
    "read_number",
    "operand_name",
    "operand_text",
    "operand_result",
    "describe_witnesses",
    "show",
    "merged_witnesses",
    "decimals",
    "not_applicable",
]

# normalised word -> symbol; comparisons (> < >= <= = !=) and arithmetic (+ - * / %)
OPERATOR_WORDS: dict[str, str] = {
    **dict.fromkeys(
        [">", "gt", "greater", "greater_than", "more", "more_than", "larger", "larger_than",
         "higher", "bigger", "later", "after", "above", "max", "maximum", "is_greater",
         "greater_than_operator"],
        ">",
    ),
    **dict.fromkeys(
        ["<", "lt", "less", "less_than", "smaller", "smaller_than", "lower", "fewer", "earlier",
         "before", "below", "min", "minimum", "is_less"],
        "<",
    ),
    **dict.fromkeys(
        [">=", "=>", "ge", "gte", "greater_than_or_equal_to", "greater_or_equal",
         "greater_than_or_equal", "at_least"],
        ">=",
    ),
    **dict.fromkeys(
        ["<=", "=<", "le", "lte", "less_than_or_equal_to", "less_or_equal",
         "less_than_or_equal", "at_most"],
        "<=",
    ),
    **dict.fromkeys(
        ["=", "==", "eq", "equal", "equals", "equal_to", "is_equal", "same", "is_same",
         "is_equal_to", "equality"],
        "=",
    ),
    **dict.fromkeys(["!=", "<>", "ne", "not_equal", "not_equal_to", "different"], "!="),
    **dict.fromkeys(["+", "add", "addition", "plus", "sum"], "+"),
    **dict.fromkeys(
        ["-", "−", "subtract", "subtraction", "minus", "difference", "diff", "sub"], "-"
    ),
    **dict.fromkeys(["*", "x", "×", "multiply", "multiplication", "times", "product"], "*"),
    **dict.fromkeys(["/", "÷", "divide", "division", "ratio", "divided_by"], "/"),
    **dict.fromkeys(["%", "percentage", "percent"], "%"),
}
COMPARISONS = frozenset({">", "<", ">=", "<=", "=", "!="})

# argument names by role (lower case)
OPERATOR_NAMES = frozenset(
    {"op", "operator", "operation", "comparison", "comparison_operator", "compare", "function",
     "type", "mode", "method", "comparison_type", "func", "sign", "comparator",
     "compare_op", "comparison_op", "operator_type"}
)
CONDITION_NAMES = frozenset({"condition", "cond", "if", "test", "predicate", "expression",
                             "expr", "check"})
THEN_NAMES = frozenset({"then", "true", "if_true", "value_if_true", "then_value", "yes",
                        "true_value", "result_if_true", "then_output", "output_if_true"})
ELSE_NAMES = frozenset({"else", "false", "if_false", "value_if_false", "else_value", "no",
                        "otherwise", "false_value", "result_if_false", "else_output",
                        "output_if_false"})
IGNORED_NAMES = frozenset({"relation", "unit", "description"})

_NUMBER_WORDS = {
    w: float(i)
    for i, w in enumerate(
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven",
            "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
            "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        ]
    )
}
_OPERAND = r"(?:output_of_query\s*\d+|'[^']*'|\"[^\"]*\"|[-+]?[\d.,]+%?|[A-Za-z][\w ]*?)"
_SYMBOL = r"(>=|<=|==|!=|<>|=>|=<|=|>|<|\+|-|−|\*|×|/|÷)"
_EXPRESSION = re.compile(rf"^\s*\(?\s*({_OPERAND})\s*{_SYMBOL}\s*({_OPERAND})\s*\)?\s*$")
_REF = re.compile(r"^output_of_query\s*(\d+)$", re.IGNORECASE)
_REFERENCE_ALIAS = re.compile(r"^(?:value|result|answer)_of_query_?(\d+)$", re.IGNORECASE)


def reference_alias(value: object) -> object:
    """``'value_of_query2'`` / ``'result_of_query2'`` as an operand: another spelling of
    ``output_of_query2``; any other value unchanged.

    >>> reference_alias(Text("value_of_query2")), reference_alias(Text("output_of_query3_us"))
    (Ref(step=2), Text(value='output_of_query3_us'))
    """
    if isinstance(value, Text) and (m := _REFERENCE_ALIAS.match(value.value.strip())):
        return Ref(int(m.group(1)))
    return value


def not_applicable(ctx: Context, message: str) -> NotApplicableError:
    """The error that hands a step to the LLM fallback (an argument shape not understood)."""
    return NotApplicableError(message, ctx.step)


def operator_symbol(word: str) -> str | None:
    """The symbol an operator word stands for (``'greater than'`` -> ``'>'``), or ``None``."""
    key = re.sub(r"[\s\-]+", "_", word.strip().lower()).strip("_")
    return OPERATOR_WORDS.get(key) or OPERATOR_WORDS.get(word.strip())


def _value(text: str) -> Ref | Text:
    t = text.strip()
    if m := _REF.match(t):
        return Ref(int(m.group(1)))
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        t = t[1:-1]
    return Text(t)


# ``set2='output_of_query2`` inside an expression: an argument name and stray quotes around
# a reference, left over when a reply writes ``if(set1='output_of_query1' > set2='...', ...)``
_NAMED_REF = re.compile(r"\b[A-Za-z_]\w*\s*=\s*['\"]?(?=output_of_query\s*\d)")
_QUOTED_REF = re.compile(r"['\"]?(output_of_query\s*\d+)['\"]?")


def read_expression(text: str) -> tuple[Ref | Text, str, Ref | Text] | None:
    """``'A op B'`` -> (A, op, B) when ``text`` is one binary expression, else ``None``.

    >>> read_expression("output_of_query1' > set2='output_of_query2")
    (Ref(step=1), '>', Ref(step=2))
    """
    m = _EXPRESSION.match(text)
    if m is None and "output_of_query" in text:
        m = _EXPRESSION.match(_QUOTED_REF.sub(r"\1", _NAMED_REF.sub("", text)))
    if m is None:
        return None
    left, sym, right = m.groups()
    symbol = operator_symbol(sym) or sym
    if symbol == "<>":
        symbol = "!="
    return _value(left), symbol, _value(right)


@dataclass
class Args:
    """The arguments of one reasoning call, sorted by role."""

    operands: list[object] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    operator: str | None = None
    operator_text: str = ""
    condition: object | None = None
    then: object | None = None
    otherwise: object | None = None
    has_then: bool = False


def split_args(ctx: Context, op: Op) -> Args:
    """Sort ``op``'s parameters into operands, operator, condition and branches.

    Unnamed (``argN``) parameters are read by position: an operator word is the operator, a
    text holding ``output_of_queryN <op> ...`` is a condition (or an arithmetic expression),
    and in a call with a condition the next two are the *then* and *else* values.
    """
    out = Args()
    positional_after_condition: list[object] = []
    for name, value in op.params:
        key = (name or "").lower()
        positional = key.startswith("arg") and key[3:].isdigit()
        if key in OPERATOR_NAMES and isinstance(value, Text | Bound):
            _set_operator(ctx, out, _text(value))
        elif key in CONDITION_NAMES:
            out.condition = value
        elif key in THEN_NAMES:
            out.then, out.has_then = value, True
        elif key in ELSE_NAMES:
            out.otherwise = value
        elif key in IGNORED_NAMES:
            continue
        elif positional and out.condition is not None:
            positional_after_condition.append(value)  # if(cond, 'before', 'after')
        elif positional and isinstance(value, Text) and operator_symbol(value.value):
            _set_operator(ctx, out, value.value)
        elif (
            isinstance(value, Text)
            and out.condition is None
            and "output_of_query" in value.value.lower()
            and read_expression(value.value) is not None
        ):
            out.condition = value
        elif isinstance(value, ListValue) and not out.operands and len(value.items) == 2:
            # operands=['output_of_query2', 'output_of_query4']
            out.operands.extend(_value(i.value) if isinstance(i, Text) else i for i in value.items)
            out.names.extend([key, key])
        else:
            out.operands.append(reference_alias(value))
            out.names.append(key)
    _named_condition(op, out)
    _positional_branches(out)
    ctx.literals[ctx.step] = tuple(v.value for v in out.operands if isinstance(v, Text))
    if positional_after_condition:
        if len(positional_after_condition) != 2 or out.has_then:
            raise not_applicable(ctx, "a condition needs exactly two values to choose from")
        out.then, out.otherwise = positional_after_condition
        out.has_then = True
    if op.cmp != "=" and out.operator is None:
        out.operator = op.cmp
        out.operator_text = op.cmp
    return out


#: the made-up names LLM replies give the two branches after a condition
#: (``if(set1 > 'output_of_query3', set1='output_of_query1', set2='output_of_query2')``)
_BRANCH_NAME = re.compile(r"^(?:set|value|val|result|output|option)_?[12]$")


def _named_condition(op: Op, out: Args) -> None:
    """``if(set1 > 'output_of_query4', A, B)``: the first argument's name is the left operand
    of the condition (the parser keeps it as a name with an operator) and the two arguments
    after it are the branches: unnamed, or with made-up names (``set1=A, set2=B``; the
    branches are read by position, whatever the digits say)."""
    if op.cmp == "=" or out.has_then or out.condition is not None or len(out.operands) != 3:
        return
    first, *rest = out.names
    if first.startswith("arg") or not (all(n.startswith("arg") for n in rest)
                                       or all(_BRANCH_NAME.match(n) for n in rest)):
        return
    right, then, otherwise = out.operands
    out.operands, out.names = [Text(first), right], [first, first]
    out.then, out.otherwise, out.has_then = then, otherwise, True


def _positional_branches(out: Args) -> None:
    """``less_than('output_of_query2', 'output_of_query4', 'yes', 'no')``: four unnamed
    arguments, the last two literals, are two operands and the *then* / *else* values."""
    if out.has_then or out.condition is not None or len(out.operands) != 4:
        return
    if not all(n.startswith("arg") for n in out.names):
        return
    a, b, then, otherwise = out.operands
    if not (isinstance(then, Text) and isinstance(otherwise, Text)) \
            or isinstance(a, Text) and isinstance(b, Text):
        return
    out.operands, out.names = [a, b], out.names[:2]
    out.then, out.otherwise, out.has_then = then, otherwise, True


def _set_operator(ctx: Context, out: Args, word: str) -> None:
    symbol = operator_symbol(word)
    if symbol is None:
        raise not_applicable(ctx, f"unknown operator {word!r}")
    out.operator, out.operator_text = symbol, word


def _text(value: object) -> str:
    if isinstance(value, Text):
        return value.value
    if isinstance(value, Bound):
        return value.text
    return str(value)


_INDEXED = re.compile(r"^\s*output_of_query\s*(\d+)\s*\[\s*(\d+)\s*\]\s*$", re.IGNORECASE)


def operand_result(ctx: Context, value: object) -> Result:
    """The elements an operand stands for (a literal text is itself, as a scalar;
    ``'output_of_query3[0]'`` is the first element of that result)."""
    if isinstance(value, Result):
        return value
    if isinstance(value, Text) and (m := _INDEXED.match(value.value)):
        whole, index = resolve_set(ctx, Ref(int(m.group(1)))), int(m.group(2))
        if index >= len(whole):
            raise ctx.fail(f"{value.value}: output_of_query{m.group(1)} has {len(whole)} "
                           "element(s)")
        note = f"{value.value} is element {index + 1} of output_of_query{m.group(1)}"
        if note not in ctx.notes:
            ctx.notes.append(note)
        return Result((whole.elems[index],), (whole.witnesses[index],))
    if isinstance(value, Ref | Bound | ListValue | str):
        return resolve_set(ctx, value)
    if isinstance(value, Text):
        return Result.of([_literal(value.value)])
    raise not_applicable(ctx, f"cannot read {value!r} as an operand")


def _literal(text: str) -> Scalar:
    q = parse_quantity(text)
    if q is None and text.strip().lower() in _NUMBER_WORDS:
        q = (_NUMBER_WORDS[text.strip().lower()], "number")
    if q is not None and q[1] == "number":
        return Scalar(q[0], text)
    return Scalar(text, text)


def operand_text(value: object) -> str:
    """How an operand is shown: ``output_of_query3`` or the literal in quotes."""
    if isinstance(value, Ref):
        return f"output_of_query{value.step}"
    if isinstance(value, Result):
        return "a value"
    return repr(_text(value))


def operand_name(ctx: Context, value: object) -> str | None:
    """The named entity an operand is about: the first literal of its query chain, or the
    literal itself (``'Italy'``); ``None`` when the chain names nothing."""
    if isinstance(value, Ref):
        names = ctx.names.get(value.step, ())
        return names[0] if names else None
    if isinstance(value, Bound):
        return value.labels[0] if value.labels else value.text
    if isinstance(value, Text):
        return value.value
    return None


@dataclass(frozen=True)
class Reading:
    """One operand read as a number: value, how it was read, its text and witnesses."""

    value: float
    kind: str
    text: str
    witnesses: tuple[int, ...]
    decimals: int = 0
    relation: str = ""
    rows: int = 0
    #: (smallest, largest) of several positions read as the first of them (stop 19), so a
    #: comparison can tell two operands whose positions interleave
    span: tuple[float, float] | None = None


def decimals(text: str) -> int:
    """Digits after the decimal point in ``text`` (``'0.126'`` -> 3)."""
    m = re.search(r"\.(\d+)", text)
    return len(m.group(1)) if m else 0


#: columns whose values are points in time or places in an order: a sum of several of them
#: means nothing (``1983 + 1998``), so a subtraction reads the first of them
_POSITIONAL_RELATION = re.compile(
    r"^(?:row_number|year|years|season|date|rank|pos|pos\.|position|place|no\.?)$|\byear\b",
    re.IGNORECASE,
)
_POSITIONAL_KINDS = frozenset({"date", "ordinal", "time of day"})


def _positional(relation: str, kinds: set[str], values: list[float]) -> bool:
    """True when values read from ``relation`` are years, dates, places or row numbers.

    >>> _positional("Year", {"number"}, [1983.0, 1998.0]), _positional("Sales", {"number"}, [5.0])
    (True, False)
    """
    if kinds <= _POSITIONAL_KINDS:
        return True
    return kinds == {"number"} and bool(_POSITIONAL_RELATION.search(relation.strip())) \
        and all(v == int(v) for v in values)


# a header whose brackets name points ('Running Time (pts)'), a cell with its points in
# brackets after the performance ('9:59.15 (1004)')
_POINTS_HEADER = re.compile(r"\((?:pts|points)\.?\)\s*$", re.IGNORECASE)
_POINTS_CELL = re.compile(r"^\s*\S.*?\s*\((\d[\d,]*(?:\.\d+)?)\)\s*$")
_POINTS_ASKED = re.compile(r"\b(?:points?|pts|scored?)\b", re.IGNORECASE)


def _points_in_brackets(ctx: Context, relation: str, text: str) -> tuple[float, str] | None:
    """``'9:59.15 (1004)'`` in a column ``Running Time (pts)``, for a question asking points
    ("who had the most points in running?"): the points in brackets, noted; else None.

    >>> _POINTS_CELL.match("9:59.15 (1004)").group(1), bool(_POINTS_HEADER.search("Time (pts)"))
    ('1004', True)
    """
    if not _POINTS_HEADER.search(relation) or not _POINTS_ASKED.search(ctx.question or ""):
        return None
    m = _POINTS_CELL.match(text)
    x = parse_number(m.group(1)) if m else None
    if x is None:
        return None
    note = (f"{relation!r} gives points in brackets and the question asks points: "
            f"{text!r} reads as {format_number(x)}")
    if note not in ctx.notes:
        ctx.notes.append(note)
    return x, "number"


def _found_by_year(ctx: Context, r: Result) -> tuple[float, str] | None:
    """The year a single row was found by (``get_information(relation='Established',
    tail_entity='1889')`` witnesses the row with its fact ``Established 1889``) and that
    column's name; None when the row's witness is no year."""
    g = ctx.graph
    facts = [f for w in r.witnesses for f in w]
    if len(facts) != 1:
        return None
    _, rel, tail = g.fact_text(facts[0])
    x = parse_number(tail)
    if x is None or x != int(x) or not 1000 <= x <= 3000 or rel == "row_number":
        return None
    return float(x), " ".join(rel.split())


def read_number(ctx: Context, value: object, what: str, first_of_positions: bool = False,
                comparison: bool = False) -> Reading:
    """One number for an operand, noted in the step.

    Rows count (a set of rows reads as how many there are); one value reads as itself
    (numbers, dates, durations, ordinals, as :func:`~trustuqa_core.numbers.parse_quantity`).
    Several different values are never read silently (stop 19): amounts are summed only when
    the question asks a total (:func:`.cues.asks_total`: "total", "combined", "more tds");
    years, dates, places or row numbers, whose sum means nothing, read as the first of them in
    table order in a subtraction (``first_of_positions``) or when the question asks about
    order ("before", "listed first"). In a ``comparison``, a superlative ("did X or Y record
    the highest average speed?", over times "the best time") reads each operand's extreme.
    Each reading is noted; any other operand of several values, and values that do not read
    as numbers, hand the step to the LLM fallback (unverified), with the reason in the notes.
    """
    g = ctx.graph
    r = operand_result(ctx, value)
    shown = operand_text(value)
    if not r:
        raise ctx.fail(f"{what}: {shown} is empty, so there is nothing to compute with")
    wits = merged_witnesses([r])
    last = [w[-1] for w in r.witnesses if w]
    relation = " ".join(g.fact_text(last[0])[1].split()) if last else ""
    if all(not isinstance(e, Scalar) and g.is_row(e) for e in r.elems):
        n = len(r.distinct())
        year = _found_by_year(ctx, r) if first_of_positions and n == 1 else None
        if year is not None:
            ctx.notes.append(
                f"{shown} is the one row whose {year[1]!r} is {format_number(year[0])}: a "
                f"subtraction of a row found by its year reads that year, not 1 row"
            )
            return Reading(year[0], "number", format_number(year[0]), wits, relation=year[1])
        return Reading(float(n), "count", f"{n} row(s)", wits, rows=n)
    readings = []
    for e in r.elems:
        q = _points_in_brackets(ctx, relation, elem_text(g, e)) or quantity(g, e)
        if q is None and isinstance(e, Scalar) and str(e.value).strip().lower() in _NUMBER_WORDS:
            q = (_NUMBER_WORDS[str(e.value).strip().lower()], "number")
        if q is None and (score := read_score(elem_text(g, e), ctx.question)) is not None:
            note = f"{elem_text(g, e)!r} is a score or record: read as {score[1]}"
            if note not in ctx.notes:
                ctx.notes.append(note)
            q = (score[0], "score")
        if q is None:
            raise not_applicable(
                ctx, f"{what}: {elem_text(g, e)!r} in {shown} does not read as a number"
            )
        readings.append((q[0], q[1], elem_text(g, e)))
    kinds = Counter(k for _, k, _ in readings)
    kind = kinds.most_common(1)[0][0]
    if len(readings) == 1:
        x, kind, text = readings[0]
        return Reading(x, kind, text, wits, decimals(text), relation)
    distinct = {x for x, _, _ in readings}
    if len(distinct) == 1:
        x, kind, text = readings[0]
        return Reading(x, kind, text, wits, decimals(text), relation)
    listed = ", ".join(t for _, _, t in readings[:4]) + (", ..." if len(readings) > 4 else "")
    held = f"{shown} holds {len(readings)} values ({listed})"
    if _positional(relation, set(kinds), [x for x, _, _ in readings]):
        rank = rank_direction(ctx.question)
        asked = None if first_of_positions else order_word(ctx.question) or (rank and rank[0])
        if not first_of_positions and asked is None:
            raise not_applicable(
                ctx, f"{what}: {held} of {relation!r}, years, dates, places or row numbers, "
                "whose sum means nothing, and the question asks nothing about their order: "
                "no single number to compute with")
        order = sorted(range(len(readings)), key=lambda i: _row_of(ctx, r.witnesses[i]))
        first = order[0]
        x, kind, text = readings[first]
        why = "" if asked is None else f" and the question asks about order ({asked!r})"
        ctx.notes.append(
            f"{held} of {relation!r}, years, dates, places or row numbers, whose sum means "
            f"nothing{why}: {what} uses the first of them in table order, {text}"
        )
        values = [v for v, _, _ in readings]
        return Reading(x, kind, text, r.witnesses[first], decimals(text), relation,
                       span=(min(values), max(values)))
    total = asks_total(ctx.question)
    extreme = None if total is not None or not comparison \
        else superlative(ctx.question, times=kind == "duration")
    if extreme is not None:
        word, sign = extreme
        pick = (max if sign == ">" else min)(range(len(readings)), key=lambda i: readings[i][0])
        x, kind, text = readings[pick]
        which = "largest" if sign == ">" else "smallest"
        ctx.notes.append(f"{held}; the question asks for the {word} ({which} value): {what} "
                         f"uses {text}")
        return Reading(x, kind, text, r.witnesses[pick], decimals(text), relation)
    if total is None:
        raise not_applicable(
            ctx, f"{what}: {held} and the question asks for no total (no 'total', "
            "'combined', 'more <things>'): no single number to compute with, not summed")
    value = math.fsum(x for x, _, _ in readings)
    ctx.notes.append(f"{held}; the question asks a total ({total!r}): {what} uses their sum, "
                     f"{format_number(value)}")
    return Reading(value, kind, format_number(value), wits,
                   max(decimals(t) for _, _, t in readings), relation)


def read_positions(ctx: Context, value: object) -> list[tuple[Reading, Elem]] | None:
    """Each of several values of an operand read on its own, when they are years, dates,
    places or row numbers (``2008``, ``2009`` of ``Season``), with the element each came
    from; ``None`` for anything else (one value, rows, amounts, values that are no number)."""
    g = ctx.graph
    if not isinstance(value, Ref):
        return None
    r = operand_result(ctx, value)
    if len(r.distinct()) < 2 or any(not isinstance(e, Scalar) and g.is_row(e) for e in r.elems):
        return None
    last = [w[-1] for w in r.witnesses if w]
    relation = " ".join(g.fact_text(last[0])[1].split()) if last else ""
    out = []
    for e, w in zip(r.elems, r.witnesses, strict=True):
        q = quantity(g, e)
        if q is None:
            return None
        text = elem_text(g, e)
        out.append((Reading(q[0], q[1], text, w, decimals(text), relation), e))
    kinds = {reading.kind for reading, _ in out}
    if not _positional(relation, kinds, [reading.value for reading, _ in out]):
        return None
    return out


def _row_of(ctx: Context, witnesses: tuple[int, ...]) -> tuple[int, str, int]:
    """Where a value was read: (0, source, row) of its last witness; last without one."""
    if not witnesses:
        return (1, "", 0)
    p = ctx.graph.provenance(witnesses[-1])
    return (0, p.source, p.number)


def merged_witnesses(results: list[Result]) -> tuple[int, ...]:
    """Every witness of the results once, in order (capped like an element's witnesses)."""
    seen = dict.fromkeys(f for r in results for w in r.witnesses for f in w)
    return tuple(list(seen)[:MAX_WITNESSES])


def describe_witnesses(ctx: Context, witnesses: tuple[int, ...], limit: int = 2) -> str:
    """Where a value came from: the last witness facts as ``row 5 Gold`` (or ``line 12 r``)."""
    g = ctx.graph
    parts = []
    for f in reversed(witnesses):
        p = g.provenance(f)
        rel = " ".join(g.fact_text(f)[1].split())
        text = f"{p.unit} {p.number} {rel}"
        if text not in parts:
            parts.append(text)
        if len(parts) == limit:
            break
    return ", ".join(reversed(parts))


def show(ctx: Context, r: Reading) -> str:
    """``'1,234 (row 5 Gold)'``: an operand's text and where it came from."""
    where = describe_witnesses(ctx, r.witnesses)
    return f"{r.text} ({where})" if where else r.text
