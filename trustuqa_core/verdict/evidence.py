"""Reasons read off the run itself: LLM-inferred and recovered steps, aggregates over an
id column or of one value, a column dump, weak mappings, the vote, a placeholder answer; and
the reasons for ``no answer``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexicon import country_of
from ..mapping.mapper import Mapping
from ..mentions import (
    Mention,
    expected_type,
    names_any,
)
from ..query.ast import Query, Text
from ..store import GraphStore
from ..text import normalize
from ..trace import StepTrace, Trace
from ..verdict_record import Reason, Verdict
from .reading import (
    ASKS_COUNT,
    COUNTED,
    STRONG_METHODS,
    clip,
    names_column,
    target_used,
)
from .thresholds import Thresholds, VoteEvidence

_AGGREGATES = {"sum", "mean", "average", "avg", "max", "min", "argmax", "argmin"}
_SUMS = {"sum", "mean", "average", "avg"}
_ID_COLUMN = re.compile(r"(^|[\s_])(id|ids|no|nr|num|code|zip|phone|key)$|^#$|^number$",
                        re.IGNORECASE)
#: an identifier written onto a name: OrderID, PlayerId (not Grid, Paid)
_ID_SUFFIX = re.compile(r"[a-z](?:ID|Id)$")


def no_answer(trace: Trace | None, mentions: Sequence[Mention], error: str | None,
               graph: GraphStore | None) -> Verdict:
    reasons: list[Reason] = []
    if trace is None:
        reasons.append(Reason("no_query", error or "no query could be written"))
    elif trace.error is not None:
        reasons.append(Reason("run_failed", f"the run stopped while {trace.error.stage}: "
                              f"{trace.error.message}", trace.error.step))
    else:
        reasons.append(Reason("empty_answer", trace.explain_empty() or "the query found nothing",
                              trace.empty_step))
    if graph is not None:
        for m in mentions:
            if m.kind == "entity" and not _in_graph(graph, m.text):
                reasons.append(Reason("unlinked_mention", f"{m.text!r} is not a value of the "
                                      "loaded data: override a mapping, edit the query, or load "
                                      "the data that has it", None, m.text))
    return Verdict("no answer", tuple(reasons), tuple(r.code for r in reasons[:1]))


def _in_graph(graph: GraphStore, text: str) -> bool:
    if graph.entity(text) is not None or graph.relation(text) is not None:
        return True
    country = country_of(text)  # "German" is in the data when "Germany" is
    if country is not None and graph.entity(country) is not None:
        return True
    want = normalize(text)
    return any(normalize(r) == want for r in graph.relation_names)


def step_reasons(trace: Trace) -> list[Reason]:
    out = [Reason("llm_inferred", f"Query{s.number} was answered by the LLM fallback, not by "
                  f"the data: {s.inferred_note or 'LLM-inferred'}", s.number)
           for s in trace.steps if s.status == "inferred"]
    for r in trace.recovery:
        out.append(Reason("recovered", r.message(), r.step, r.key))
    out += _id_aggregates(trace)
    out += _aggregates_of_one(trace)
    return out


def _aggregates_of_one(trace: Trace) -> list[Reason]:
    """A ``sum``/``mean`` over a single value: the aggregate does nothing, so the question's
    "total" / "average" may well ask for something else (a count, a value of several rows)."""
    return [Reason("aggregate_of_one", f"Query{q.number} computes {q.call.func} over one "
                   "value: check whether the question asks for a count or for more rows",
                   q.number, None)
            for q, src in _aggregated_steps(trace, _SUMS)
            if src.output is not None and len(src.output) == 1]


def _id_aggregates(trace: Trace) -> list[Reason]:
    return [Reason("id_aggregate", f"Query{q.number} computes {q.call.func} over "
                   f"{m.labels[0]!r}, which looks like an identifier column", q.number, m.key)
            for q, src in _aggregated_steps(trace, _AGGREGATES) for m in src.mappings
            if m.role == "relation" and any(_id_like(x.strip()) for x in m.labels)]


def _aggregated_steps(trace: Trace, funcs: set[str]) -> list[tuple[Query, StepTrace]]:
    """(aggregate query, step it reads) for each query calling one of ``funcs``."""
    if trace.program is None:
        return []
    steps = {s.number: s for s in trace.steps}
    return [(q, steps[ref]) for q in trace.program.queries if q.call.func in funcs
            for ref in q.call.refs() if ref in steps]


def _id_like(column: str) -> bool:
    """True for a column name that reads as an identifier: ``OrderID``, ``Facility ID``,
    ``No``, a bare ``#`` (not ``Grid``, nor ``# of votes``, a count of something)."""
    return _ID_COLUMN.search(column) is not None or _ID_SUFFIX.search(column) is not None


def degenerate(trace: Trace, answer: Sequence[str]) -> list[Reason]:
    """A column dump, or a condition whose value is a column name."""
    out = []
    mappings = list(trace.mapped.mappings) if trace.mapped is not None else []
    program = trace.program
    conditions = [m for m in mappings if m.role in ("value", "entity")]
    only_reads = program is not None and all(q.call.func == "get_information"
                                             for q in program.queries)
    if not conditions and only_reads and len(answer) > 1:
        out.append(Reason("column_dump", f"the answer is every value of a column or relation "
                          f"({len(answer)} values): the query has no condition"))
    aggregates = [q for q in program.queries if q.call.func in _AGGREGATES | {"count"}] \
        if program is not None else []
    if not conditions and aggregates and program is not None \
            and not any(a.cmp != "=" for q in program.queries for a in q.call.args):
        step = aggregates[-1]
        out.append(Reason("whole_column_aggregate", f"Query{step.number} applies "
                          f"{step.call.func} to a whole column or relation, with no condition",
                          step.number))
    names = {normalize(r) for r in trace.graph.relation_names}
    for m in conditions:
        if m.labels and all(normalize(x) in names for x in m.labels):
            out.append(Reason("header_condition", f"Query{m.query} compares with "
                              f"{m.labels[0]!r}, which is a column name, not a value",
                              m.query, m.key))
    return out


def _weak(m: Mapping, th: Thresholds) -> bool:
    if m.method in STRONG_METHODS:
        return False
    if m.method == "contains":
        return len(m.ids) > th.max_contains
    return not m.ids or m.score < th.min_score or m.margin < th.min_margin


def _counts_names(trace: Trace) -> bool:
    """True when the answer counts rows and the target is a column of names: the count does
    not read the target column, so how the target was mapped does not change the answer (a
    column of numbers is kept: "how many viewers" may ask for its value, not a count)."""
    target, program = trace.target, trace.program
    if target is None or program is None or not program.queries \
            or program.queries[-1].call.func != "count":
        return False
    counted = COUNTED.search(trace.question or "")
    noun = counted.group(1) if counted else ""
    named = [r for r in trace.graph.relation_names if noun and names_any(noun, r)]
    for label in [*target.labels, *named]:  # 'how many opponents' with a numeric Opponents
        if not names_column(trace.graph, label):
            return False
    return bool(target.labels)




def mapping_reasons(trace: Trace, th: Thresholds) -> list[Reason]:
    mappings = list(trace.mapped.mappings) if trace.mapped is not None else []
    if trace.target is not None and trace.target not in mappings and target_used(trace):
        mappings.append(trace.target)
    recovered = {r.key for r in trace.recovery}
    counted = _counts_names(trace) and ASKS_COUNT.search(trace.question or "") is not None
    out = []
    for m in mappings:
        if m.key in recovered or not _weak(m, th) or (m is trace.target and counted):
            continue
        chosen = ", ".join(m.labels) if m.labels else "nothing"
        runner = next((c for c in m.candidates if c.label not in set(m.labels)), None)
        alt = f"; runner-up {runner.label!r} ({runner.score:.2f})" if runner else ""
        out.append(Reason("weak_mapping", f"{m.text!r} -> {chosen} ({m.method}, score "
                          f"{m.score:.2f}, margin {m.margin:.2f}{alt})", m.query or None, m.key))
    return out


#: answers reached by moving away from the rows the question names
_MOVES = {"next_row", "previous_row", "max", "min", "argmax", "argmin"}


def placeholder_unasked(trace: Trace, question: str) -> list[Reason]:
    """A placeholder answer (n/a, -, none) is the cell's own value when the question asks for
    that cell; it blocks when the question asks for a number ("how many wins ...?" -> '—')
    or for the row found by a move (the next event after X: a placeholder row is no event)."""
    program = trace.program
    moved = program is not None and any(
        q.call.func in _MOVES or any(isinstance(a.value, Text) and a.value.value in
                                     ("most", "least") for a in q.call.args)
        for q in program.queries)
    step = trace.target_step.number if trace.target_step else None
    if expected_type(question) == "number":
        return [Reason("placeholder_unasked", "the question asks for a number, and the "
                       "answer only says the value is missing", step)]
    if moved:
        return [Reason("placeholder_unasked", "the answer was reached by moving to a "
                       "neighbouring or extreme row, and that row only says the value is "
                       "missing: check whether the question means the next real entry", step)]
    return []


def vote_reasons(vote: VoteEvidence | None, th: Thresholds) -> list[Reason]:
    if vote is None:
        return []
    if vote.votes_cast <= 1:
        return [Reason("single_query", "only one query answered, so no vote backs the answer")]
    if vote.tie:
        tied = " vs ".join(repr(clip(t, 50)) for t in vote.tied) or "several answers"
        return [Reason("vote_tie", f"the vote was a tie between {tied}")]
    if vote.votes_cast > 1 and vote.share < th.min_agreement:
        return [Reason("low_agreement", f"only {vote.share:.0%} of the samples agree on this "
                       f"answer (at least {th.min_agreement:.0%} needed)")]
    return []
