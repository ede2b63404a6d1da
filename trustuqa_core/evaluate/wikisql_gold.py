"""WikiSQL gold SQL -> a program in our query language, its answer check, and an SQLite
reference that explains the failures.

WikiSQL's SQL is ``SELECT agg(col_sel) FROM t WHERE col_c op value AND ...`` with agg one of
``['', MAX, MIN, COUNT, SUM, AVG]`` and op one of ``[=, >, <, OP]`` (``OP`` never occurs).
:func:`sql_to_program` writes it as ``get_information`` selections (one per condition),
``set_intersection``, a projection onto the selected column, and an aggregate:

>>> from trustuqa_core.query.render import render_program
>>> t = TableInfo(("Player", "No.", "Team"), (("Ann", "Bob"), ("3", "21"), ("Duke", "duke")),
...               (False, False, True))
>>> print(render_program(sql_to_program({"sel": 2, "agg": 0, "conds": [[1, 0, 3]]}, t)))
## Target type: {Team}
Step1: the rows whose No. = 3
Query1: "get_information(relation='No.', tail_entity='3')"
>>> print(render_program(sql_to_program({"sel": 1, "agg": 4, "conds": [[2, 0, "DUKE"]]}, t)))
## Target type: {No.}
Step1: the rows whose Team = DUKE
Query1: "get_information(relation='Team', tail_entity=['Duke', 'duke'])"
Step2: their No.
Query2: "get_information(relation='No.', head_entity='output_of_query1')"
Step3: SUM of output_of_query2
Query3: "sum(set='output_of_query2')"

Conditions use the table's own cell texts (WikiSQL compares lower-cased text exactly), so the
mapping is exact; a value that no cell equals is left for the Mapper's cascade. ``COUNT(col)``
counts the selected rows, skipping rows whose ``col`` is empty (SQL NULL), as SQL does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..numbers import parse_number
from ..query.ast import Arg, Call, Cmp, ListValue, Program, Query, Ref, Text, Value
from ..store import GraphStore

__all__ = [
    "AGG_FUNCTIONS",
    "COND_OPS",
    "TableInfo",
    "sql_to_program",
    "inexact_conditions",
    "wikisql_match",
    "cond_text",
]

AGG_FUNCTIONS = ("", "max", "min", "count", "sum", "mean")
AGG_NAMES = ("", "MAX", "MIN", "COUNT", "SUM", "AVG")
COND_OPS: tuple[Cmp, ...] = ("=", ">", "<")


@dataclass(frozen=True)
class TableInfo:
    """What the converter needs to know of a table: column names (as the graph has them),
    the distinct cell texts of each column, and whether a column has empty cells."""

    columns: tuple[str, ...]
    values: tuple[tuple[str, ...], ...]
    has_empty: tuple[bool, ...]

    @staticmethod
    def from_graph(graph: GraphStore) -> TableInfo:
        """The first source of ``graph`` (a table) as a :class:`TableInfo`."""
        info = graph.sources[0]
        values: list[tuple[str, ...]] = []
        empty: list[bool] = []
        for column in info.columns:
            rel = graph.relation(column)
            if rel is None:  # a column with no non-empty cell has no facts
                values.append(())
                empty.append(True)
                continue
            values.append(tuple(graph.label(t) for t in graph.relation_tails(rel)))
            heads = set(graph.heads_of(graph.facts_rel(rel)).tolist())
            empty.append(len(heads) < info.n_rows)
        return TableInfo(tuple(info.columns), tuple(values), tuple(empty))


def cond_text(value: object) -> str:
    """A condition value as text: integral floats without ``.0``.

    >>> cond_text(21.0), cond_text(2.5), cond_text("Duke")
    ('21', '2.5', 'Duke')
    """
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _cond_value(table: TableInfo, column: int, op: int, value: object) -> Value:
    """The cell texts equal to ``value`` under SQL's lower-cased comparison (exact mapping);
    the value itself when no cell equals it, or for ``>`` / ``<``."""
    text = cond_text(value)
    if op != 0:
        return Text(text)
    same = [v for v in table.values[column] if v.lower() == text.lower()]
    if not same:
        return Text(text)
    return Text(same[0]) if len(same) == 1 else ListValue(tuple(Text(v) for v in same))


def inexact_conditions(sql: Mapping[str, object], table: TableInfo) -> list[str]:
    """Equality conditions whose value no cell of the column equals (lower-cased).

    >>> t = TableInfo(("Club",), (("Norwich City , Coventry City",),), (False,))
    >>> inexact_conditions({"conds": [[0, 0, "Norwich City, Coventry City"]]}, t)
    ['Club = Norwich City, Coventry City']
    """
    out = []
    for column, op, value in sql["conds"]:  # type: ignore[attr-defined]
        text = cond_text(value).lower()
        if op == 0 and not any(v.lower() == text for v in table.values[column]):
            out.append(f"{table.columns[column]} = {cond_text(value)}")
    return out


class _Builder:
    def __init__(self) -> None:
        self.queries: list[Query] = []

    def add(self, func: str, description: str, *args: Arg) -> Ref:
        number = len(self.queries) + 1
        self.queries.append(Query(number, Call(func, tuple(args)), description))
        return Ref(number)


def sql_to_program(sql: Mapping[str, object], table: TableInfo) -> Program:
    """The query-language program for one WikiSQL ``sql`` dict over ``table``.

    Raises:
        ValueError: a column index out of range, or an unknown agg / condition operator.
    """
    sel, agg = int(sql["sel"]), int(sql["agg"])  # type: ignore[call-overload]
    conds = list(sql["conds"])  # type: ignore[call-overload]
    if not 0 <= agg < len(AGG_FUNCTIONS):
        raise ValueError(f"unknown WikiSQL aggregation {agg}")
    if not 0 <= sel < len(table.columns):
        raise ValueError(f"selected column {sel} is not a column of the table")
    b, column = _Builder(), table.columns[sel]
    parts = []
    for c, op, value in conds:
        if op not in (0, 1, 2) or not 0 <= c < len(table.columns):
            raise ValueError(f"unsupported WikiSQL condition {[c, op, value]}")
        parts.append(b.add("get_information",
                           f"the rows whose {table.columns[c]} {COND_OPS[op]} {cond_text(value)}",
                           Arg("relation", Text(table.columns[c])),
                           Arg("tail_entity", _cond_value(table, c, op, value), COND_OPS[op])))
    rows: Ref | None = parts[0] if len(parts) == 1 else None
    if len(parts) > 1:
        rows = b.add("set_intersection", "the rows meeting every condition",
                     *(Arg(f"set{i}", p) for i, p in enumerate(parts, 1)))
    func = AGG_FUNCTIONS[agg]
    if func == "count":
        _count(b, rows, column, table.has_empty[sel])
    elif func:
        values = _values(b, rows, column)
        b.add(func, f"{AGG_NAMES[agg]} of {values}", Arg("set", values))
    elif rows is None:
        _values(b, None, column)
    return Program(tuple(b.queries), column)


def _values(b: _Builder, rows: Ref | None, column: str) -> Ref:
    if rows is None:
        return b.add("get_information", f"every {column}", Arg("relation", Text(column)))
    return b.add("get_information", f"their {column}", Arg("relation", Text(column)),
                 Arg("head_entity", rows))


def _count(b: _Builder, rows: Ref | None, column: str, has_empty: bool) -> None:
    """COUNT(col): the selected rows, minus those whose ``col`` is empty (SQL NULL)."""
    if has_empty:
        values = _values(b, rows, column)
        with_value = b.add("get_information", f"the rows having one of {values} as {column}",
                           Arg("relation", Text(column)), Arg("tail_entity", values))
        rows = with_value if rows is None else b.add(
            "set_intersection", f"the rows of {rows} with a {column}",
            Arg("set1", rows), Arg("set2", with_value))
    elif rows is None:
        rows = b.add("get_information", "every row number", Arg("relation", Text("row_number")))
    b.add("count", f"COUNT of {rows}", Arg("set", rows))


def _same(pred: str, gold: object) -> bool:
    """Numbers (gold REAL/INTEGER results, or gold text such as ``'55,000'``) by value,
    anything else as lower-cased text with whitespace collapsed."""
    if isinstance(gold, bool):
        gold = str(gold)
    g = float(gold) if isinstance(gold, int | float) else parse_number(str(gold))
    x = parse_number(pred)
    if g is not None and x is not None:
        return abs(x - g) <= 1e-6 * max(1.0, abs(g))
    if isinstance(gold, int | float):
        return False
    return " ".join(pred.lower().split()) == " ".join(str(gold).lower().split())


def wikisql_match(pred: Sequence[str], gold: Sequence[object], empty_input: bool = False) -> bool:
    """WikiSQL execution match, as sets: every gold value has an equal prediction and back.

    Numbers are compared by value (relative 1e-6): gold REAL/INTEGER results, and gold text
    that reads as a number (``'55,000'``: the original database kept the separators, the
    tables we read do not); other text lower-cased with whitespace collapsed. A gold
    ``[None]`` (SQL NULL: no row matched, or an aggregate over nothing) is matched by an
    empty prediction or by an aggregate whose input was empty (``empty_input``; our ``sum``
    of nothing is 0).

    >>> wikisql_match(["21,500.0"], [21500.0]), wikisql_match(["Duke", "duke"], ["duke"])
    (True, True)
    >>> wikisql_match(["55000"], ["55,000"]), wikisql_match(["W 2-1"], ["w  2-1"])
    (True, True)
    >>> wikisql_match(["42.56666667"], [42.56666666666667]), wikisql_match(["0"], [None])
    (True, False)
    >>> wikisql_match(["0"], [None], empty_input=True), wikisql_match([], [None])
    (True, True)
    """
    real = [g for g in gold if g is not None]
    if not real:
        return not pred or empty_input
    return all(any(_same(p, g) for p in pred) for g in real) and all(
        any(_same(p, g) for g in real) for p in pred)
