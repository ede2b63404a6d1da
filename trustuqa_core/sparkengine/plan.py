"""Mapped programs -> small dataflow plans that :mod:`.batch` runs for many questions at once.

A :class:`Plan` is a list of :class:`PlanNode` s in execution order; a node reads earlier
nodes by position (``inputs``) and the last node is the answer. The compiler follows the
executor's operations (:mod:`trustuqa_core.ops`, :mod:`trustuqa_core.functions`) and covers
the shapes the benchmarks' gold programs use:

======================  ======================================================
plan node               from
======================  ======================================================
``const``               a mapped literal used as a set (its node ids)
``project``             ``get_information(relation, head_entity)``
``values``              ``get_information(relation)``
``select_eq``           ``get_information(relation, tail_entity=...)``
``select_cmp``          ``get_information(relation, tail_entity>...)`` (also < >= <=)
``intersect``           ``set_intersection``, repeated conditions in one call
``difference``          ``set_difference`` (graphs without tables)
``count`` ``sum``       the aggregates over sets of nodes
``mean`` ``max`` ``min``
``target``              ``## Target type``: the final rows read as that column
======================  ======================================================

Anything else gives :class:`NotCompiled` with the reason (the batch reports it, and no other
engine answers in its place). A mapping that makes the executor fail before running anything
(a relation that matched nothing) compiles to that error, as the executor reports it.

>>> from trustuqa_core.query.ast import Arg, Bound, Call, Program, Query, Ref
>>> from trustuqa_core.mapping.mapper import MappedProgram
>>> rel = Bound("directed_by", (0,), ("directed_by",), "relation")
>>> q1 = Query(1, Call("get_information", (Arg("relation", rel),
...                                        Arg("head_entity", Bound("Kismet", (3,), ("Kismet",), "entity")))))
>>> q2 = Query(2, Call("count", (Arg("set", Ref(1)),)))
>>> p = compile_program("q", MappedProgram(Program((q1, q2)), Program((q1, q2)), (), None))
>>> [n.kind for n in p.nodes], p.nodes[1].inputs
(['const', 'project', 'count'], (0,))
>>> q3 = Query(2, Call("previous_row", (Arg("set", Ref(1)),)))
>>> compile_program("q", MappedProgram(Program((q1, q3)), Program((q1, q3)), (), None)).reason
'Query2: previous_row is not compiled to Spark'
"""  # noqa: E501

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RewriteError
from ..function_names import is_defined
from ..mapping.mapper import MappedProgram
from ..numbers import parse_number
from ..query.ast import Bound, ListValue, Ref, Text
from ..rewrite import Op, rewrite

__all__ = ["PlanNode", "Plan", "NotCompiled", "compile_program", "SCALAR_KINDS", "CMPS"]

SCALAR_KINDS = frozenset({"count", "sum", "mean"})
"""Nodes whose output is one computed number, not graph nodes."""
ROW_KINDS = frozenset({"select_eq", "select_cmp", "intersect", "difference"})
"""Nodes whose output holds the heads of facts (table rows, on a table)."""
CMPS = (">", "<", ">=", "<=")


@dataclass(frozen=True)
class PlanNode:
    """One operation of a plan (see the module docstring for the kinds).

    ``rel``: relation id; ``ids``: node ids of a ``const``; ``cmp`` and ``numbers``: a
    comparison and its literal thresholds; ``step``: the query number (for messages);
    ``name``: the function's name (for messages).
    """

    kind: str
    inputs: tuple[int, ...] = ()
    rel: int = -1
    ids: tuple[int, ...] = ()
    cmp: str = "="
    numbers: tuple[float, ...] = ()
    step: int = 0
    name: str = ""


@dataclass(frozen=True)
class Plan:
    """A compiled question: its graph, nodes, and the executor's error when the mapping
    already decides it (``error``: ``(query number, message)``; the nodes then stop
    before that query)."""

    qid: str
    graph: int
    nodes: tuple[PlanNode, ...]
    error: tuple[int, str] | None = None


@dataclass(frozen=True)
class NotCompiled:
    """A question whose plan uses something the Spark compiler does not cover."""

    qid: str
    reason: str


class _Skip(Exception):
    """Raised inside the compiler: the plan cannot be compiled (the message says why)."""


class _Fails(Exception):
    """Raised inside the compiler: the executor stops at this query with this message."""


class _Compiler:
    def __init__(self, has_tables: bool) -> None:
        self.nodes: list[PlanNode] = []
        self.has_tables = has_tables
        self.step = 0
        self.steps: dict[int, int] = {}
        self.local: dict[str, int] = {}

    def add(self, node: PlanNode) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def kind(self, index: int) -> str:
        return self.nodes[index].kind

    def relation(self, value: object) -> int:
        if isinstance(value, Bound) and value.role == "relation" and value.ids:
            return value.ids[0]
        shown = value.text if isinstance(value, Bound) else str(value)
        raise _Fails(f"relation {shown!r} matched no relation of the data")

    def nodeset(self, value: object) -> int:
        """A set parameter holding graph nodes: an earlier step, a plan local or literals."""
        if isinstance(value, Ref):
            if value.step not in self.steps:
                raise _Skip(f"refers to Query{value.step}, which has not run before it")
            index = self.steps[value.step]
        elif isinstance(value, str) and value.startswith("$"):
            index = self.local[value]
        elif isinstance(value, Bound) and value.role in ("value", "entity"):
            return self.add(PlanNode("const", ids=tuple(value.ids), step=self.step))
        elif isinstance(value, ListValue) and all(
                isinstance(v, Bound) and v.role in ("value", "entity") for v in value.items):
            ids = [i for v in value.items if isinstance(v, Bound) for i in v.ids]
            return self.add(PlanNode("const", ids=tuple(ids), step=self.step))
        else:
            raise _Skip(f"a set given as {type(value).__name__} {value!s:.40}")
        if self.kind(index) in SCALAR_KINDS:
            raise _Skip("a computed number used as a set")
        return index

    # ----------------------------------------------------------------- ops
    def op(self, op: Op) -> int:
        handler = getattr(self, f"op_{op.name}", None)
        if handler is None:
            raise _Skip(f"{op.name} is not compiled to Spark")
        index: int = handler(op)
        return index

    def op_project(self, op: Op) -> int:
        rel = self.relation(op.param("relation"))
        heads = self.nodeset(op.param("heads"))
        return self.add(PlanNode("project", (heads,), rel=rel, step=self.step))

    def op_values(self, op: Op) -> int:
        return self.add(PlanNode("values", rel=self.relation(op.param("relation")),
                                 step=self.step))

    def op_select(self, op: Op) -> int:
        rel, value = self.relation(op.param("relation")), op.param("value")
        if op.cmp == "=":
            if isinstance(value, Text):
                raise _Skip("an unmapped literal compared with '='")
            source = self.nodeset(value)
            if self.has_tables and self.kind(source) in ROW_KINDS:
                raise _Skip("a selection by a set of table rows")
            return self.add(PlanNode("select_eq", (source,), rel=rel, step=self.step))
        if op.cmp not in CMPS:
            raise _Skip(f"the comparison {op.cmp!r}")
        if isinstance(value, Text):
            x = parse_number(value.value)
            if x is None:
                raise _Skip(f"a comparison with the non-number {value.value!r}")
            return self.add(PlanNode("select_cmp", rel=rel, cmp=op.cmp, numbers=(x,),
                                     step=self.step))
        source = self.nodeset(value)
        return self.add(PlanNode("select_cmp", (source,), rel=rel, cmp=op.cmp, step=self.step))

    def op_intersect(self, op: Op) -> int:
        keys = op.param("sets")
        assert isinstance(keys, tuple)
        return self.add(PlanNode("intersect", tuple(self.local[k] for k in keys),
                                 step=self.step))

    def sets(self, op: Op) -> tuple[int, ...]:
        return tuple(self.nodeset(v) for k, v in op.params if k and k.startswith("set"))

    def op_set_intersection(self, op: Op) -> int:
        sets = self.sets(op)
        if len(sets) < 2:
            raise _Fails("set_intersection() needs at least two sets")
        return self.add(PlanNode("intersect", sets, step=self.step))

    def op_set_difference(self, op: Op) -> int:
        if self.has_tables:
            raise _Skip("set_difference on a graph with tables (rows against cell values)")
        a, b = op.param("set1"), op.param("set2")
        if a is None or b is None:
            raise _Skip("set_difference without set1 and set2")
        return self.add(PlanNode("difference", (self.nodeset(a), self.nodeset(b)),
                                 step=self.step))

    def aggregate(self, op: Op) -> int:
        value = op.param("set")
        if value is None:
            raise _Fails(f"{op.name}() needs set=...")
        return self.add(PlanNode(op.name, (self.nodeset(value),), step=self.step, name=op.name))

    op_count = op_sum = op_mean = op_max = op_min = aggregate


def compile_program(qid: str, mapped: MappedProgram, graph: int = 0,
                    has_tables: bool = False) -> Plan | NotCompiled:
    """The plan of one mapped program over graph ``graph`` (``has_tables``: the graph holds
    a table source, where some operations read rows and cells differently)."""
    c = _Compiler(has_tables)
    try:
        for q in mapped.program.queries:
            c.step, c.local = q.number, {}
            if not is_defined(q.call.func):
                raise _Skip(f"{q.call.func}() is not defined (the LLM fallback answers it)")
            try:
                ops = rewrite(q.call)
            except RewriteError as exc:
                raise _Skip(f"no rewrite rule ({exc})") from exc
            index = -1
            for op in ops:
                index = c.op(op)
                if op.out:
                    c.local[op.out] = index
            c.steps[q.number] = index
    except _Skip as exc:
        return NotCompiled(qid, f"Query{c.step}: {exc}")
    except _Fails as exc:
        return Plan(qid, graph, tuple(c.nodes), (c.step, str(exc)))
    target = mapped.target
    if target is not None and target.role == "relation" and target.ids and c.nodes:
        c.add(PlanNode("target", (len(c.nodes) - 1,), rel=target.ids[0]))
    return Plan(qid, graph, tuple(c.nodes))
