"""Compile a mapped program (KG / TKG sources) to openCypher statements with parameters.

Each query step becomes one statement that returns one list (node ids, relation names, a
count or time spans); a later step receives an earlier list as the parameter ``$sN`` (so each
lookup is an index lookup on a list of ids, not a scan). Literals never enter the query text:
mapped node ids, relation names and numbers are ``$pK`` parameters. Clauses use
``OPTIONAL MATCH`` so that an empty lookup yields an empty list, and ``collect(DISTINCT ...)``
(answers are sets; ``count`` counts distinct elements, as ours does).

The schema is the one of :mod:`.store`. Supported plan operations: ``project``, ``select``
(``=`` and numeric ``< > <= >=``), ``filter_heads``, ``values``, ``relations_of``,
``intersect``, ``select_extreme`` (plain numbers only, any ``rank``), ``fact_times``,
``select_at_time`` (a year literal), and the functions ``set_union``, ``set_intersection``,
``set_difference``, ``count``. Anything else raises :class:`CypherCompileError` naming the
step and operation.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> from trustuqa_core.mapping import Mapper
>>> from trustuqa_core.query.parse import parse
>>> g = build_graph([load_source(b"Kismet|directed_by|William Dieterle\\n", "kg", "kg.txt")])
>>> mapped = Mapper(g).map_program(parse(
...     "Query1: \\"get_information(relation='directed_by', head_entity='Kismet')\\"\\n"
...     "Query2: \\"count(set='output_of_query1')\\""))
>>> c = compile_program(mapped, g)
>>> print(c.statements[-2].text)
WITH CAST($s1_heads AS INT64[]) AS s1_heads
OPTIONAL MATCH (h:Node)-[f:Fact]->(t:Node) WHERE f.rel = $p1 AND h.id IN s1_heads
WITH collect(DISTINCT t.id) AS s1
RETURN s1
>>> print(c.statements[-1].text)
WITH CAST($s1 AS INT64[]) AS s1
WITH size(list_distinct(s1)) AS s2
RETURN s2
>>> sorted(c.parameters.items()), c.kind
([('p1', 'directed_by'), ('p3', [0])], 'number')
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..errors import RewriteError, TrustUQAError
from ..function_names import canonical_function
from ..mapping.mapper import MappedProgram
from ..numbers import parse_number
from ..query.ast import Bound, Ref, Text
from ..rewrite import Op, rewrite
from ..store import GraphStore

__all__ = ["CompiledCypher", "CypherStatement", "CypherCompileError", "compile_program",
           "SUPPORTED_OPS"]

SUPPORTED_OPS = (
    "project", "select", "filter_heads", "values", "relations_of", "intersect",
    "select_extreme", "fact_times", "select_at_time",
    "set_union", "set_intersection", "set_difference", "count",
)
_CMP = {"=": "=", ">": ">", "<": "<", ">=": ">=", "<=": "<="}
_EDGE = "(h:Node)-[f:Fact]->(t:Node)"


class CypherCompileError(TrustUQAError):
    """A program (or one of its operations) has no Cypher translation; names the step and op."""


@dataclass(frozen=True)
class CypherStatement:
    """One Cypher statement of a query step (a step may need several).

    ``inputs``: variables of earlier statements it reads (passed by the runner as the
    parameters ``$name``); ``outputs``: the variables it returns, in order, with their
    ``kinds``: ``nodes`` (node ids), ``names`` (relation names), ``number``, ``numbers`` or
    ``times:<key>`` (``[start, stop]`` pairs of facts, read with the time key).
    """

    step: int
    text: str
    parameters: dict[str, Any]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    kinds: tuple[str, ...]


@dataclass(frozen=True)
class CompiledCypher:
    """The statements of a program, run in order; lists computed by one statement reach later
    ones as list parameters (so every lookup is an index lookup on a list of ids). The answer
    is the variable ``output`` (``sN`` of the last query)."""

    statements: tuple[CypherStatement, ...]
    output: str
    kind: str

    @property
    def parameters(self) -> dict[str, Any]:
        """All literal parameters (the inputs from earlier statements are filled in at run
        time)."""
        return {k: v for st in self.statements for k, v in st.parameters.items()}

    @property
    def text(self) -> str:
        """All statements, each after a ``// QueryN`` comment line (``// QueryN, part k of m``
        when a step needs several)."""
        parts = Counter(st.step for st in self.statements)
        seen: Counter[int] = Counter()
        out = []
        for st in self.statements:
            seen[st.step] += 1
            part = f", part {seen[st.step]} of {parts[st.step]}" if parts[st.step] > 1 else ""
            out.append(f"// Query{st.step}{part}\n{st.text};")
        return "\n".join(out)


@dataclass(frozen=True)
class _With:
    """A ``WITH`` clause before its carried variables are pruned."""

    carried: tuple[str, ...]
    items: tuple[tuple[str, str], ...]
    """(expression, variable) pairs defined by this clause."""


@dataclass(frozen=True)
class _Split:
    """The end of a statement (the next one reads its lists as parameters)."""

    step: int


_VAR = re.compile(r"\b(?:s\d+\w*|l\d+_\w+)\b")
_BARE_VAR = re.compile(r"(?<![$\w])(?:s\d+\w*|l\d+_\w+)\b")
_PARAM = re.compile(r"\$(p\d+)\b")
_TYPE = {"nodes": "INT64[]", "names": "STRING[]", "numbers": "DOUBLE[]", "number": "DOUBLE"}


def _refs(clause: str | _With) -> set[str]:
    if isinstance(clause, _With):
        return {v for e, _ in clause.items for v in _VAR.findall(e)}
    return set(_VAR.findall(clause))


def _defined(clause: str | _With) -> set[str]:
    return {v for _, v in clause.items} if isinstance(clause, _With) else set()


def _text(clauses: list[str | _With], outputs: list[str]) -> str:
    """A statement's text: each ``WITH`` carries only the variables a later clause reads
    (carrying big lists as grouping keys costs time)."""
    live, out = set(outputs), ["RETURN " + ", ".join(outputs)]
    for clause in reversed(clauses):
        if isinstance(clause, _With):
            keep = [v for v in clause.carried if v in live]
            out.append("WITH " + ", ".join([*keep, *(f"{e} AS {v}" for e, v in clause.items)]))
            live -= _defined(clause)
        else:
            out.append(clause)
        live |= _refs(clause)
    return "\n".join(reversed(out))


def _statements(clauses: list[str | _With | _Split], params: dict[str, Any],
                kinds: dict[str, str], steps: set[str]) -> list[CypherStatement]:
    """Cut the clause list at the splits into statements, with their inputs and outputs
    (a variable is returned when a later statement reads it, and every ``sN``)."""
    segments: list[tuple[int, list[str | _With]]] = []
    current: list[str | _With] = []
    for clause in clauses:
        if isinstance(clause, _Split):
            if current:
                segments.append((clause.step, current))
            current = []
        else:
            current.append(clause)
    needed_later: set[str] = set()
    plans = []
    for step, segment in reversed(segments):
        defined = set().union(*(_defined(c) for c in segment))
        read = set().union(*(_refs(c) for c in segment))
        outputs = [v for c in segment for v in sorted(_defined(c))
                   if v in needed_later or v in steps]
        inputs = sorted(read - defined)
        needed_later |= set(inputs)
        plans.append((step, segment, inputs, outputs))
    out = []
    for step, segment, inputs, outputs in reversed(plans):
        body = _text(segment, outputs)
        bare = set(_BARE_VAR.findall(body))
        declared = [v for v in inputs if v in bare]  # the others are read as ``$name``
        head = ("WITH " + ", ".join(f"CAST(${v} AS {_TYPE[kinds[v]]}) AS {v}"
                                    for v in declared) + "\n") if declared else ""
        text = head + body
        used = {k: params[k] for k in _PARAM.findall(text)}
        out.append(CypherStatement(step, text, used, tuple(inputs), tuple(outputs),
                                   tuple(kinds[v] for v in outputs)))
    return out


@dataclass
class _Builder:
    graph: GraphStore
    clauses: list[str | _With | _Split] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    carried: list[str] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    may_be_numeric: dict[str, bool] = field(default_factory=dict)
    """Per variable: can it hold nodes whose text is a number (then equality also compares
    numeric readings, as our executor does; when not, the lookup stays an id lookup)."""
    step: int = 0
    op_name: str = ""
    n_params: int = 0

    def fail(self, problem: str) -> CypherCompileError:
        where = f"Query{self.step} ({self.op_name})" if self.op_name else f"Query{self.step}"
        return CypherCompileError(f"cannot compile {where} to Cypher: {problem}")

    def param(self, value: Any) -> str:
        self.n_params += 1
        name = f"p{self.n_params}"
        self.params[name] = value
        return f"${name}"

    def with_(self, expr: str, var: str, kind: str, numeric: bool = True) -> None:
        """Close the current clause: carry the earlier variables and add ``expr AS var``
        (which earlier variables are still needed is decided at the end, see :func:`_text`)."""
        self.with_all([(expr, var, kind, numeric)])

    def with_all(self, items: list[tuple[str, str, str, bool]]) -> None:
        """One ``WITH`` defining several variables: (expression, variable, kind, numeric)."""
        self.clauses.append(_With(tuple(self.carried), tuple((e, v) for e, v, _, _ in items)))
        for _, var, kind, numeric in items:
            self.carried.append(var)
            self.kinds[var] = kind
            self.may_be_numeric[var] = numeric

    def split(self) -> None:
        """End the statement here: later clauses read its lists as parameters."""
        self.clauses.append(_Split(self.step))

    def bind(self, value: Any, var: str, kind: str) -> str:
        """Project a parameter into a variable (Ladybug lambdas cannot read parameters)."""
        self.with_(self.param(value), var, kind)
        return var


def compile_program(mapped: MappedProgram, graph: GraphStore) -> CompiledCypher:
    """The Cypher statements of a mapped program over ``graph`` (see the module doc)."""
    if any(s.kind == "table" for s in graph.sources):
        raise CypherCompileError("cannot compile to Cypher: table sources are not supported yet "
                                 "(KG and TKG sources are)")
    b = _Builder(graph)
    steps: set[str] = set()
    for q in mapped.program.queries:
        b.step, b.op_name = q.number, ""
        try:
            ops = rewrite(q.call)
        except RewriteError as exc:
            raise b.fail(str(exc)) from None
        locals_: dict[str, str] = {}
        for op in ops:
            b.op_name = op.name
            var = f"l{q.number}_{op.out[1:]}" if op.out else f"s{q.number}"
            _compile_op(b, op, var, locals_)
            b.split()
            if op.out:
                locals_[op.out] = var
        steps.add(f"s{q.number}")
    if not steps:
        raise CypherCompileError("cannot compile to Cypher: the program has no query")
    last = f"s{mapped.program.queries[-1].number}"
    return CompiledCypher(tuple(_statements(b.clauses, b.params, b.kinds, steps)), last,
                          b.kinds[last])


# ----------------------------------------------------------------- values
def _numeric_tails(b: _Builder, value: object) -> bool:
    """Can the values of this relation be numbers?"""
    if isinstance(value, Bound) and value.role == "relation" and value.ids:
        return b.graph.numeric_fact_count(value.ids[0]) > 0
    return True


def _relation(b: _Builder, value: object) -> str:
    if isinstance(value, Bound) and value.role == "relation" and value.ids:
        return b.param(b.graph.relation_names[value.ids[0]])
    shown = value.text if isinstance(value, Bound) else str(value)
    raise b.fail(f"relation {shown!r} matched no relation of the data")


def _node_set(b: _Builder, value: object, locals_: dict[str, str]) -> str:
    """A list expression of node ids: an earlier step, a plan local, or mapped literal(s)."""
    if isinstance(value, Ref):
        var = f"s{value.step}"
        if var not in b.kinds:
            raise b.fail(f"output_of_query{value.step} is not an earlier step")
        if b.kinds[var] != "nodes":
            raise b.fail(f"output_of_query{value.step} holds {b.kinds[var]}, not graph nodes")
        return var
    if isinstance(value, str) and value in locals_:
        return locals_[value]
    if isinstance(value, Bound) and value.role in ("value", "entity"):
        return b.param([int(i) for i in value.ids])
    raise b.fail(f"expected a set of nodes, got {value!s}")


def _numbers_of(b: _Builder, nodes: str, var: str) -> str:
    """A variable holding the numeric readings of a node-id list (for numeric equality)."""
    b.clauses.append(f"OPTIONAL MATCH (x:Node) WHERE x.id IN {nodes} AND x.num IS NOT NULL")
    b.with_("collect(DISTINCT x.num)", var, "numbers")
    b.split()
    return var


def _value_condition(b: _Builder, op: Op, locals_: dict[str, str], var: str) -> str:
    """The WHERE condition on the tail ``t`` for ``value <cmp> v``."""
    value, cmp = op.param("value"), op.cmp
    if cmp not in _CMP:
        raise b.fail(f"comparison {cmp!r} is not supported")
    if cmp == "=":
        if isinstance(value, Bound) and value.role in ("value", "entity"):
            nums = sorted({x for i in value.ids if (x := b.graph.numeric(i)) is not None})
            ids = b.param([int(i) for i in value.ids])
            return f"(t.id IN {ids} OR t.num IN {b.param(nums)})" if nums else f"t.id IN {ids}"
        if isinstance(value, Text):
            x = parse_number(value.value)
            node = b.graph.entity(value.value)
            ids = b.param([] if node is None else [node])
            return f"(t.id IN {ids} OR t.num = {b.param(x)})" if x is not None else f"t.id IN {ids}"
        nodes = _node_set(b, value, locals_)
        if not b.may_be_numeric.get(nodes, True):
            return f"t.id IN {nodes}"
        node_nums = _numbers_of(b, nodes, f"{var}_num")
        return f"(t.id IN {nodes} OR t.num IN {node_nums})"
    return f"t.num {cmp} {_threshold(b, value, cmp)}"


def _threshold(b: _Builder, value: object, cmp: str) -> str:
    """One number to compare with: several thresholds OR-ed reduce to the loosest one."""
    if isinstance(value, Text):
        xs = [parse_number(value.value)]
    elif isinstance(value, Bound):
        xs = [b.graph.numeric(i) for i in value.ids]
    else:
        raise b.fail(f"a comparison with {value!s} (only literal numbers are compiled)")
    if not xs or None in xs:
        raise b.fail(f"{value!s} is not a number to compare with")
    nums = [x for x in xs if x is not None]
    return b.param(min(nums) if cmp in (">", ">=") else max(nums))


# ---------------------------------------------------------------- operations
def _compile_op(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    name = canonical_function(op.name) or op.name
    handler = _OPS.get(name)
    if handler is None:
        raise b.fail(f"operation {name!r} has no Cypher translation (supported: "
                     + ", ".join(SUPPORTED_OPS) + ")")
    handler(b, op, var, locals_)


def _project(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    """Values of a relation for the heads. As in our executor, a given node that is not a
    subject of the relation stands for the subjects that have it as a value of that relation,
    else as a value of any relation (``'Zulu' is not a subject of 'release_year'``)."""
    rel = _relation(b, op.param("relation"))
    given = _node_set(b, op.param("heads"), locals_)
    if given.startswith("$"):
        given = b.bind(b.params.pop(given[1:]), f"{var}_given", "nodes")
    b.clauses.append(
        f"OPTIONAL MATCH (h:Node)-[f:Fact]->() WHERE f.rel = {rel} AND h.id IN {given}"
    )
    b.with_("collect(DISTINCT h.id)", f"{var}_direct", "nodes")
    b.with_(f"list_filter({given}, x -> NOT list_contains({var}_direct, x))", f"{var}_other",
            "nodes")
    b.split()
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE f.rel = {rel} AND t.id IN {var}_other")
    b.with_all([("collect(DISTINCT h.id)", f"{var}_same", "nodes", True),
                ("collect(DISTINCT t.id)", f"{var}_found", "nodes", True)])
    b.with_(f"list_filter({var}_other, x -> NOT list_contains({var}_found, x))", f"{var}_rest",
            "nodes")
    b.split()
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE t.id IN {var}_rest")
    b.with_("collect(DISTINCT h.id)", f"{var}_any", "nodes")
    b.with_(f"list_concat(list_concat({var}_direct, {var}_same), {var}_any)", f"{var}_heads",
            "nodes")
    b.split()
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE f.rel = {rel} AND h.id IN {var}_heads")
    b.with_("collect(DISTINCT t.id)", var, "nodes", _numeric_tails(b, op.param("relation")))


def _select(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    rel = _relation(b, op.param("relation"))
    cond = _value_condition(b, op, locals_, var)
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE f.rel = {rel} AND {cond}")
    b.with_("collect(DISTINCT h.id)", var, "nodes")


def _filter_heads(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    heads = _node_set(b, op.param("heads"), locals_)
    rel = _relation(b, op.param("relation"))
    cond = _value_condition(b, op, locals_, var)
    b.clauses.append(
        f"OPTIONAL MATCH {_EDGE} WHERE h.id IN {heads} AND f.rel = {rel} AND {cond}"
    )
    b.with_("collect(DISTINCT h.id)", var, "nodes")


def _values(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    rel = _relation(b, op.param("relation"))
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE f.rel = {rel}")
    b.with_("collect(DISTINCT t.id)", var, "nodes", _numeric_tails(b, op.param("relation")))


def _relations_of(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    heads = _node_set(b, op.param("heads"), locals_)
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE h.id IN {heads}")
    b.with_("collect(DISTINCT f.rel)", var, "names")


def _select_extreme(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    """The heads holding the ``rank``-th largest (``max``) or smallest (``min``) distinct
    number (rank 1 by default, as our executor counts: by distinct value)."""
    rel = _relation(b, op.param("relation"))
    rank = op.param("rank", 1)
    if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
        raise b.fail(f"rank {rank!r} is not a whole number from 1")
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE f.rel = {rel} AND t.num IS NOT NULL")
    if rank == 1:
        agg = "max" if op.param("which") == "max" else "min"
        b.with_(f"{agg}(t.num)", f"{var}_best", "number")
        match = f"t.num = ${var}_best"
    else:  # the rank-th distinct value, as a list of one (empty when there are fewer)
        order = "'DESC'" if op.param("which") == "max" else "'ASC'"
        b.with_(f"list_slice(list_sort(collect(DISTINCT t.num), {order}), {rank}, {rank})",
                f"{var}_best", "numbers")
        match = f"t.num IN ${var}_best"
    b.split()
    # the number is read as a parameter: Ladybug cannot join on a scalar bound by WITH
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE f.rel = {rel} AND {match}")
    b.with_("collect(DISTINCT h.id)", var, "nodes")


def _sets(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> list[str]:
    sets = [v for k, v in op.params if k.startswith("set")]
    if op.name == "intersect":
        given = op.param("sets") or ()
        if not isinstance(given, (tuple, list)):
            raise b.fail(f"'sets' is {given!r}, not a list of sets")
        sets = list(given)
    out = []
    for k, value in enumerate(sets):
        expr = _node_set(b, value, locals_)
        if expr.startswith("$"):  # lambdas cannot read parameters: project it first
            expr = b.bind(b.params.pop(expr[1:]), f"{var}_in{k}", "nodes")
        out.append(expr)
    return out


def _intersection(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    sets = _sets(b, op, var, locals_)
    if len(sets) < 2:
        raise b.fail("an intersection needs at least two sets")
    expr = sets[0]
    for other in sets[1:]:
        expr = f"list_filter({expr}, x -> list_contains({other}, x))"
    b.with_(f"list_distinct({expr})", var, "nodes",
            all(b.may_be_numeric.get(x, True) for x in sets))


def _union(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    sets = _sets(b, op, var, locals_)
    if not sets:
        raise b.fail("a union needs at least one set")
    expr = sets[0]
    for other in sets[1:]:
        expr = f"list_concat({expr}, {other})"
    b.with_(f"list_distinct({expr})", var, "nodes",
            any(b.may_be_numeric.get(x, True) for x in sets))


def _difference(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    sets = _sets(b, op, var, locals_)
    if len(sets) != 2:
        raise b.fail("set_difference needs set1 and set2")
    b.with_(f"list_distinct(list_filter({sets[0]}, x -> NOT list_contains({sets[1]}, x)))",
            var, "nodes", b.may_be_numeric.get(sets[0], True))


def _count(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    value = op.param("set")
    if value is None:
        raise b.fail("count needs set=...")
    if isinstance(value, Ref) and b.kinds.get(f"s{value.step}") in ("names", "nodes"):
        b.with_(f"size(list_distinct(s{value.step}))", var, "number")
        return
    b.with_(f"size(list_distinct({_node_set(b, value, locals_)}))", var, "number")


# ---------------------------------------------------------------------- time
def _time_key(b: _Builder, op: Op) -> str:
    key = op.param("key")
    name = key.labels[0] if isinstance(key, Bound) and key.labels else str(key)
    if name not in ("time", "start_time", "end_time"):
        raise b.fail(f"unknown time key {name!r}")
    return name


def _fact_condition(b: _Builder, op: Op, locals_: dict[str, str]) -> str:
    conds = []
    if op.param("relation") is not None:
        conds.append(f"f.rel = {_relation(b, op.param('relation'))}")
    if op.param("head") is not None:
        conds.append(f"h.id IN {_node_set(b, op.param('head'), locals_)}")
    if op.param("tail") is not None:
        conds.append(f"t.id IN {_node_set(b, op.param('tail'), locals_)}")
    if not conds:
        raise b.fail("a time lookup needs a head, a relation or a tail")
    return " AND ".join(conds)


def _fact_times(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    key = _time_key(b, op)
    b.clauses.append(f"OPTIONAL MATCH {_EDGE} WHERE {_fact_condition(b, op, locals_)}")
    b.with_("collect(CASE WHEN f IS NULL THEN NULL ELSE [f.start, f.stop] END)", var,
            f"times:{key}")


def _select_at_time(b: _Builder, op: Op, var: str, locals_: dict[str, str]) -> None:
    key, value, cmp = _time_key(b, op), op.param("time"), op.cmp
    year = parse_number(value.value) if isinstance(value, Text) else None
    if year is None:
        raise b.fail(f"time {value!s} (only a literal year is compiled)")
    lo = hi = b.param(year)
    start = "coalesce(f.start, -1.0e308)"
    stop = "coalesce(f.stop, 1.0e308)"
    if key == "start_time":
        stop = start
    elif key == "end_time":
        start = stop
    test = {"=": f"{start} <= {hi} AND {lo} <= {stop}", ">": f"{stop} > {hi}",
            ">=": f"{stop} >= {lo}", "<": f"{start} < {lo}", "<=": f"{start} <= {hi}"}.get(cmp)
    if test is None:
        raise b.fail(f"comparison {cmp!r} is not supported")
    known = "(f.start IS NOT NULL OR f.stop IS NOT NULL)"
    b.clauses.append(
        f"OPTIONAL MATCH {_EDGE} WHERE {_fact_condition(b, op, locals_)} AND {known} AND {test}"
    )
    node = "t" if op.param("head") is not None else "h"
    b.with_(f"collect(DISTINCT {node}.id)", var, "nodes")


_OPS = {
    "project": _project,
    "select": _select,
    "filter_heads": _filter_heads,
    "values": _values,
    "relations_of": _relations_of,
    "intersect": _intersection,
    "select_extreme": _select_extreme,
    "fact_times": _fact_times,
    "select_at_time": _select_at_time,
    "set_union": _union,
    "set_intersection": _intersection,
    "set_difference": _difference,
    "count": _count,
}
