"""Run a program: parse -> map -> rewrite -> execute, recording a :class:`.Trace`.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> data = b"Player,Nation,Points\\nAnn,Italy,10\\nBea,Italy,10\\nCid,Spain,3\\n"
>>> g = build_graph([load_source(data,
...                              "table", "t.csv")])
>>> t = run_query('''## Target type: {Points}
... Query1: "get_information(relation='Nation', tail_entity='Italy')"
... Query2: "get_information(relation='Points', head_entity='output_of_query1')"
... Query3: "sum(set='output_of_query2')"''', g)
>>> t.answer, [s.output.elems for s in t.steps][1]
(['20'], (5, 5))

The trace says what it answers: the question, who wrote the query, the sources it read.

>>> t = run_query("Query1: \\"get_information(relation='Nation', tail_entity='Spain')\\"", g,
...               question="who is from Spain?", writer="hand-written")
>>> t.question, t.writer, t.routing.sources, t.routing.how, t.routing.used
('who is from Spain?', 'hand-written', ('t.csv',), 'all loaded sources', ('t.csv',))
"""

from __future__ import annotations

import time
from collections.abc import Mapping as MappingType
from dataclasses import replace
from itertools import chain

import numpy as np

from .errors import ExecutionError, MappingError, NotApplicableError, ParseError, RewriteError
from .fallback import Fallback, FallbackRequest, with_context
from .function_names import is_defined
from .functions import FUNCTIONS
from .mapping.mapper import MappedProgram, Mapper
from .mapping.mapper import Mapping as TargetMapping
from .numbers import parse_number
from .ops import GRAPH_OPS, Context, elem_text, project, resolve_set
from .query.ast import Bound, Call, Program, Query, Ref
from .query.parse import parse
from .query.render import render_call, render_program
from .reasoning.grouping import column_function
from .results import Elem, Result, Scalar
from .rewrite import Op, rewrite
from .store import GraphStore
from .trace import ErrorInfo, Routing, StepTrace, Trace, writer_kind
from .verdict import judge_alone

__all__ = ["execute", "run_query", "run_program"]


def run_query(
    text: str,
    graph: GraphStore,
    mapper: Mapper | None = None,
    *,
    overrides: MappingType[str, str] | None = None,
    fallback: Fallback | None = None,
    question: str | None = None,
    writer: str | None = None,
    routing: Routing | None = None,
) -> Trace:
    """Parse, map and execute an LLM reply. Never raises for bad queries: see ``trace.error``.

    ``question``, ``writer`` (a :data:`~trustuqa_core.trace.WRITERS` name or
    ``"llm:<model>"``; an unknown name is a ``ValueError``) and ``routing`` (default: every
    loaded source) are recorded in the trace.
    """
    trace = _new_trace(text, graph, question, writer, routing)
    t0 = time.perf_counter()
    try:
        program = parse(text)
    except ParseError as exc:
        trace.error = ErrorInfo("parse", exc.message, line=exc.line, column=exc.column)
        trace.timings["parse"] = time.perf_counter() - t0
        return trace
    trace.timings["parse"] = time.perf_counter() - t0
    return run_program(
        program,
        graph,
        mapper,
        overrides=overrides,
        fallback=fallback,
        question=question,
        trace=trace,
    )


def run_program(
    program: Program,
    graph: GraphStore,
    mapper: Mapper | None = None,
    *,
    overrides: MappingType[str, str] | None = None,
    fallback: Fallback | None = None,
    question: str | None = None,
    trace: Trace | None = None,
    writer: str | None = None,
    routing: Routing | None = None,
) -> Trace:
    """Map and execute an already parsed program (``question``, ``writer`` and ``routing`` as
    in :func:`run_query`; a given ``trace`` already holds them)."""
    trace = trace or _new_trace(render_program(program), graph, question, writer, routing)
    trace.program = program
    t0 = time.perf_counter()
    mapper = mapper or Mapper(graph)
    try:
        mapped = mapper.map_program(program, overrides)
    except MappingError as exc:
        trace.error = ErrorInfo("map", str(exc))
        trace.timings["map"] = time.perf_counter() - t0
        return trace
    trace.timings["map"] = time.perf_counter() - t0
    return execute(mapped, graph, fallback=fallback, question=question, trace=trace)


def execute(
    mapped: MappedProgram,
    graph: GraphStore,
    *,
    fallback: Fallback | None = None,
    question: str | None = None,
    trace: Trace | None = None,
    writer: str | None = None,
    routing: Routing | None = None,
) -> Trace:
    """Execute a mapped program step by step; the answer is the last step's output.

    The trace's routing gets the sources the steps read facts from (``used``)."""
    trace = trace or _new_trace(render_program(mapped.original), graph, question, writer,
                                routing)
    trace.program, trace.mapped, trace.target = mapped.original, mapped, mapped.target
    ctx = Context(graph, question=question,  # the fallback sees the steps run so far
                  fallback=with_context(fallback, graph, trace.steps) if fallback else None)
    if mapped.target is not None and mapped.target.role == "relation" and mapped.target.ids:
        ctx.target_relation = mapped.target.ids[0]
    originals = {q.number: q for q in mapped.original.queries}
    t0 = time.perf_counter()
    for q in mapped.program.queries:
        step = _run_step(ctx, q, originals[q.number], mapped)
        trace.steps.append(step)
        if step.status == "error":
            trace.error = ErrorInfo(
                "rewrite" if step.error and step.error.startswith("no rule") else "execute",
                step.error or "",
                q.number,
            )
            break
        if step.status == "unanswered":
            continue
    else:
        last = trace.steps[-1] if trace.steps else None
        if last is not None and last.status == "unanswered":
            why = (
                "whose arguments the closed function cannot read"
                if is_defined(last.func)
                else "which the query language does not define"
            )
            trace.error = ErrorInfo(
                "execute",
                f"Query{last.number} uses {last.func}(), {why}, and no LLM fallback answered it",
                last.number,
            )
        elif last is not None:
            trace.final = last.output
            _project_target(trace, ctx, mapped)
    trace.timings["execute"] = time.perf_counter() - t0
    if trace.routing is not None:
        trace.routing = replace(trace.routing, used=_sources_read(trace))
    return trace


def _new_trace(text: str, graph: GraphStore, question: str | None, writer: str | None,
               routing: Routing | None) -> Trace:
    writer_kind(writer)  # an unknown writer name is an error here, not a silent label
    return Trace(text, graph, question=question, writer=writer, judge_with=judge_alone,
                 routing=routing if routing is not None else Routing.all_of(graph))


def _sources_read(trace: Trace) -> tuple[str, ...]:
    """Names of the sources whose facts witness some step's output, in load order."""
    steps = trace.steps + ([trace.target_step] if trace.target_step else [])
    facts = np.fromiter(chain.from_iterable(w for s in steps for w in s.output.witnesses),
                        dtype=np.int64)
    if not facts.size:
        return ()
    read = set(np.unique(trace.graph.sources_of(facts)).tolist())
    return tuple(s.name for i, s in enumerate(trace.graph.sources) if i in read)


def _run_step(ctx: Context, q: Query, original: Query, mapped: MappedProgram) -> StepTrace:
    t0 = time.perf_counter()
    call = q.call
    step = StepTrace(
        q.number,
        call.func,
        render_call(original.call),
        render_call(call),
        q.description,
        [m for m in mapped.mappings if m.query == q.number],
    )
    ctx.step, ctx.notes, ctx.fallback_notes = q.number, [], []
    ctx.local, ctx.call_text, ctx.description = {}, step.call, q.description
    try:
        missing = [r for r in call.refs() if r not in ctx.env]
        if missing:
            raise ExecutionError(f"depends on Query{missing[0]}, which has no answer", q.number)
        if not is_defined(call.func):
            result = column_function(ctx, call.func, tuple(a.value for a in call.args))
            if result is not None:
                step.ops = [f"column({call.func})"]
            else:
                result = _llm_function(ctx, q, step)
        else:
            ops = rewrite(call)
            step.ops = [str(op) for op in ops]
            result = Result.empty()
            try:
                for op in ops:
                    result = _run_op(ctx, op)
                    if op.out:
                        ctx.local[op.out] = result
            except NotApplicableError as exc:  # an argument shape the function cannot read
                ctx.notes.append(str(exc).removeprefix(f"step {q.number}: "))
                result = _llm_function(ctx, q, step)
    except (ExecutionError, RewriteError) as exc:
        step.status, step.error = "error", str(exc).removeprefix(f"step {q.number}: ")
        step.notes = list(ctx.notes)
        step.seconds = time.perf_counter() - t0
        return step
    ctx.names[q.number] = _names(ctx, call)
    if result is not None:
        ctx.env[q.number] = result
        step.result = result
        if ctx.fallback_notes:
            step.status, step.inferred_note = "inferred", "; ".join(ctx.fallback_notes)
        elif not result:
            step.status = "empty"
    step.notes = list(ctx.notes)
    step.seconds = time.perf_counter() - t0
    return step


def _names(ctx: Context, call: Call) -> tuple[str, ...]:
    """The named entities a step is about: its mapped literal values, else those of the
    steps it refers to (so ``Points of output_of_query1`` is about Query1's ``Willemsen``)."""
    own = [
        _display_name(a.value)
        for a in call.args
        if isinstance(a.value, Bound) and a.value.role in ("value", "entity") and a.value.labels
    ]
    if own:
        return tuple(own)
    inherited = [n for r in call.refs() for n in ctx.names.get(r, ())]
    return tuple(dict.fromkeys(inherited))


def _display_name(bound: Bound) -> str:
    """The data's text for a mapped literal, or the literal itself when the matched cell holds
    more (a multi-value cell ``Belarus\\nLiudmila Kalinchik``, a cell with a gloss)."""
    label, text = bound.labels[0], bound.text.strip()
    if label.strip().casefold() == text.casefold() or not text:
        return label
    number = parse_number(label)
    if number is not None and parse_number(text) != number:
        return text  # '2002–03' matched to row number 3: the number names nothing
    return text if text.casefold() in label.casefold() else label


def _run_op(ctx: Context, op: Op) -> Result:
    fn = GRAPH_OPS.get(op.name) or FUNCTIONS.get(op.name)
    if fn is None:  # pragma: no cover - rewrite only emits known names
        raise ExecutionError(f"unknown operation {op.name}", ctx.step)
    return fn(ctx, op)


def _llm_function(ctx: Context, q: Query, step: StepTrace) -> Result | None:
    """An undefined function: ask the fallback, or leave the step unanswered."""
    step.ops = [f"llm_function({q.call.func})"]
    if ctx.fallback is None:
        step.status = "unanswered"
        what = (
            f"{q.call.func}() could not read its arguments"
            if is_defined(q.call.func)
            else f"{q.call.func}() is not part of the query language"
        )
        ctx.notes.append(f"{what}; an LLM fallback could answer it, but none is configured")
        return None
    inputs: dict[str, list[str]] = {}
    for i, a in enumerate(q.call.args):
        name = a.name or f"arg{i + 1}"
        if isinstance(a.value, Ref | Bound):
            res = resolve_set(ctx, a.value)
            inputs[name] = [elem_text(ctx.graph, e) for e in res.distinct().elems]
        else:
            inputs[name] = [str(a.value)]
    answer = ctx.fallback(
        FallbackRequest("function", q.number, step.call, q.description, inputs, [], ctx.question)
    )
    ctx.fallback_notes.append(answer.note or "LLM-inferred, not verified")
    if answer.values is None:
        raise ExecutionError(f"the LLM fallback could not answer {q.call.func}()", q.number)
    elems: list[Elem] = []
    for v in answer.values:
        node = ctx.graph.entity(v)
        elems.append(node if node is not None else _scalar(v))
    return Result.of(elems)


def _scalar(text: str) -> Scalar:
    x = parse_number(text)
    return Scalar(x, text) if x is not None else Scalar(text, text)


def _target_relation(ctx: Context, mapped: MappedProgram, target: TargetMapping) -> int:
    """The target type's relation. When its mapping ties between several columns (margin
    0: ``population`` against ``Population (2005)``, ``(2008)``, ``(2009)``) and exactly one
    of the tied columns is a relation the program's own lookups name, that one (noted):
    the query read that column, so its rows are read by it."""
    first = target.ids[0]
    g = ctx.graph
    frequent = ctx.frequent.get(mapped.program.last.number)
    if frequent is not None and frequent != first and target.method != "exact":
        ctx.notes.append(
            f"the final rows are those holding the most / least frequent value of "
            f"{g.relation_names[frequent]!r}, and the target type {target.text!r} matched "
            f"{g.relation_names[first]!r} only loosely: {g.relation_names[frequent]!r} is read"
        )
        return frequent
    if len(target.candidates) < 2:
        return first
    used = {i for m in mapped.mappings if m.role == "relation" and m.arg != "target_type"
            for i in m.ids[:1]}
    if target.margin > 0:
        if target.method == "exact" or g.relation_names[first] != "row_number":
            return first
        named = [c.id for c in target.candidates if c.id in used and c.id != first]
        if len(named) != 1:
            return first
        ctx.notes.append(
            f"the target type {target.text!r} matched 'row_number' only loosely; "
            f"{g.relation_names[named[0]]!r}, also a candidate, is the column the query's "
            "lookups name, so it is read"
        )
        return named[0]
    tied = [c.id for c in target.candidates if c.score >= target.score]
    named = [i for i in tied if i in used]
    if len(tied) < 2 or len(named) != 1 or named[0] == first:
        return first
    ctx.notes.append(
        f"the target type {target.text!r} ties between {len(tied)} columns; "
        f"{g.relation_names[named[0]]!r} is the one the query's lookups name, so it is read"
    )
    return named[0]


def _project_target(trace: Trace, ctx: Context, mapped: MappedProgram) -> None:
    """Rows in the final output -> their value of the ``## Target type`` relation."""
    final, target = trace.final, mapped.target
    if final is None or target is None or not target.ids or target.role != "relation":
        return
    g = ctx.graph
    rows = [i for i, e in enumerate(final.elems) if not isinstance(e, Scalar) and g.is_row(e)]
    if not rows:
        return
    t0 = time.perf_counter()
    row_part = Result(tuple(final.elems[i] for i in rows), tuple(final.witnesses[i] for i in rows))
    rest = [i for i in range(len(final)) if i not in set(rows)]
    ctx.step, ctx.notes = 0, []
    rel_id = _target_relation(ctx, mapped, target)
    projected = project(ctx, rel_id, row_part)
    rel = g.relation_names[rel_id]
    trace.final = Result(
        tuple(final.elems[i] for i in rest) + projected.elems,
        tuple(final.witnesses[i] for i in rest) + projected.witnesses,
    )
    trace.target_step = StepTrace(
        0,
        "target_type",
        f"## Target type: {{{mapped.original.target_type}}}",
        f"project(relation={rel!r}, heads=output_of_query{mapped.program.last.number})",
        "the final rows, read as the target type",
        [target],
        [f"project(relation={rel!r})"],
        "ok" if trace.final else "empty",
        trace.final,
        list(ctx.notes),
        seconds=time.perf_counter() - t0,
    )
