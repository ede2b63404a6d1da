"""Recovery by execution: when the answer is empty, try the mappings' runner-up candidates.

The idea of entity-and-relation replacement, without labels: for each non-exact mapping of a
step the answer depends on, up to :data:`PER_ARG` runner-up candidates are tried (each alone,
then pairs), at most :data:`MAX_BINDINGS` alternative bindings per program. The first binding
whose program answers, with an answer of the type the question asks for, is kept; the trace
records it (:class:`~trustuqa_core.trace.Recovery`) and the verdict says ``check``.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Name,Nation,Year\\nAnn,Austria,1990\\nBea,Australia,2000\\n"])
>>> q = '''## Target type: {Name}
... Query1: "get_information(relation='Nation', tail_entity='Austrlia')"
... Query2: "get_information(relation='Year', tail_entity='1990')"
... Query3: "set_intersection(set1='output_of_query1', set2='output_of_query2')"'''
>>> t = run_with_recovery(q, g, question="who is from Austrlia in 1990?")
>>> t.answer, [(r.first, r.chosen) for r in t.recovery], t.verdict.label
(['Ann'], [('Australia', 'Austria')], 'check')
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping as MappingType

from .execute import run_query
from .fallback import Fallback
from .mapping.mapper import Mapper, Mapping
from .mentions import type_consistent
from .store import GraphStore
from .trace import Recovery, Routing, Trace

__all__ = ["run_with_recovery", "recover", "PER_ARG", "MAX_BINDINGS"]

PER_ARG = 3
MAX_BINDINGS = 9
_FIXED = ("exact", "normalized", "numeric", "override", "time_key")


def run_with_recovery(text: str, graph: GraphStore, mapper: Mapper | None = None, *,
                      overrides: MappingType[str, str] | None = None,
                      fallback: Fallback | None = None, question: str | None = None,
                      writer: str | None = None, routing: Routing | None = None) -> Trace:
    """:func:`~trustuqa_core.execute.run_query`, then :func:`recover` if it found nothing
    (a re-bound run keeps the question, the writer and the routing)."""
    trace = run_query(text, graph, mapper, overrides=overrides, fallback=fallback,
                      question=question, writer=writer, routing=routing)
    return recover(trace, mapper, overrides=overrides, fallback=fallback)


def _alternatives(trace: Trace, fixed: MappingType[str, str]) -> list[tuple[Mapping, list[str]]]:
    """Non-exact mappings of the steps the answer depends on, with their runner-ups."""
    needed = trace.needed_steps()
    out = []
    for m in trace.mapped.mappings if trace.mapped is not None else ():
        if m.method in _FIXED or m.key in fixed or m.query not in needed:
            continue
        chosen = set(m.labels)
        alts = list(dict.fromkeys(c.label for c in m.candidates if c.label not in chosen))
        if alts:
            out.append((m, alts[:PER_ARG]))
    return out


def recover(trace: Trace, mapper: Mapper | None = None, *,
            overrides: MappingType[str, str] | None = None,
            fallback: Fallback | None = None) -> Trace:
    """``trace`` itself when it answered (or cannot be re-bound), else the first re-bound run
    that answers with a type-consistent answer (see the module docstring)."""
    if trace.answer or trace.mapped is None or trace.program is None:
        return trace
    fixed = dict(overrides or {})
    options = _alternatives(trace, fixed)
    if not options:
        return trace
    bindings: list[tuple[tuple[Mapping, str], ...]] = [((m, a),) for m, alts in options
                                                       for a in alts]
    for (m1, alts1), (m2, alts2) in itertools.combinations(options, 2):
        bindings += [((m1, a), (m2, b)) for a in alts1 for b in alts2]
    for binding in bindings[:MAX_BINDINGS]:
        tried = {**fixed, **{m.key: label for m, label in binding}}
        new = run_query(trace.query_text, trace.graph, mapper, overrides=tried,
                        fallback=fallback, question=trace.question, writer=trace.writer,
                        routing=trace.routing)
        found = new.answer
        if not found or (trace.question and not type_consistent(trace.question, found)):
            continue
        new.recovery = [Recovery(m.key, m.query, m.text, ", ".join(m.labels) or "nothing",
                                 label, m.margin) for m, label in binding]
        new.timings["recovery_tries"] = float(bindings.index(binding) + 1)
        return new
    return trace
