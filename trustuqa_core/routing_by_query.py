"""Source routing by the written query: the source where the query's arguments map.

The question's words (:func:`~trustuqa_core.routing.route`) often cannot tell two tables of
one schema apart, or name nothing of their table at all (*how many total games did they
win?*). Once a query is written (by the LLM, the offline writer, or a recorded / gold program
standing in for a perfect writer), its arguments are evidence too: the column / relation names
and the values it looks up exist, exactly, in some sources and not in others. This is the
UniOQA-style check, label-free: nothing here reads which source a question came from.

:func:`route_by_query` re-decides among the loaded sources:

1. **candidates** (cheap, every source): how many of the query's relation and value literals
   equal (after :func:`~trustuqa_core.text.normalize`) a relation name / node label of the
   source; the ``k`` sources with the most, ties broken by the question's routing score;
2. **fit** (the mapper, each candidate restricted to its own facts by
   :func:`~trustuqa_core.subgraph.restrict`): a literal bound exactly (exact, normalised,
   numeric, an override, a time key) within its relation's values counts 1, bound exactly only
   somewhere else in the source 0.5, otherwise nothing;
3. **execution** (only to break a tie in fit, at most ``max_runs`` sources): the query run
   over each tied source; those where it gives a non-empty answer without error are kept;
4. what is still tied is decided by the question's routing score; an exact tie stays
   *unsure* over the tied sources.

Every step is written as evidence lines (``the query's 3 arguments map exactly onto X; best
other: 2 of 3``) into the decision, so the trace and ``--json`` show why.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.query import parse
>>> from trustuqa_core.routing import route
>>> g = load_graph(tables=[b"Name,Team\\nAnn,Reds\\n", b"Name,Team\\nBob,Blues\\n"])
>>> q = parse("Query1: \\"get_information(relation='Team', tail_entity='Blues')\\"")
>>> d = route_by_query(q, g, route("which team?", g))
>>> d.sources, d.how.split(":")[0]
(('table2',), 'routed by the query to table2')
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .errors import TrustUQAError
from .execute import run_program
from .mapping.mapper import Mapper
from .mapping.mapper import Mapping as ArgMapping
from .query.ast import Program, Text
from .routing import RouteDecision, name_index
from .store import GraphStore
from .subgraph import restrict
from .text import normalize, stem
from .trace import Trace

__all__ = ["QueryFit", "route_by_query", "query_literals", "values_only_in",
           "named_relations_only_in", "MAX_CANDIDATES",
           "MAX_RUNS"]

#: at most this many sources are mapped (chosen by the cheap literal count, then the question)
MAX_CANDIDATES = 8
#: at most this many sources, tied in fit, are executed to break the tie
MAX_RUNS = 4
#: the program's target type (the column / relation asked for) counts as one more argument
TARGET = True
_EXACT = frozenset({"exact", "normalized", "numeric", "override", "time_key"})
_RELATION_ARGS = frozenset({"relation", "key"})
_VALUE_ARGS = frozenset({"head_entity", "tail_entity", "value"})
_SPECIAL = frozenset({"most", "least"})

#: the pins a query needs on a graph (a benchmark's topic entity): graph -> overrides
Pins = Callable[[Program, GraphStore], Mapping[str, str]]


@dataclass(frozen=True)
class QueryFit:
    """How well a query's arguments map onto one source."""

    source: str
    exact: float  # 1 per argument bound exactly in its scope, 0.5 exactly elsewhere
    arguments: int  # the arguments mapped
    answered: bool | None = None  # the query ran to a non-empty answer there (None: not run)
    answer: frozenset[str] = frozenset()  # that answer, normalised (when it was run)

    def line(self) -> str:
        """The evidence line of this fit."""
        ran = {True: "; it runs to an answer there", False: "; it runs to no answer there",
               None: ""}[self.answered]
        return (f"query: {_count(self.exact)} of the query's {self.arguments} arguments map "
                f"exactly onto {self.source}{ran}")


def _count(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.1f}"


def query_literals(program: Program) -> tuple[list[str], list[str]]:
    """The normalised relation / key names and the value literals of ``program``.

    >>> from trustuqa_core.query import parse
    >>> query_literals(parse("Query1: \\"get_information(relation='Team', tail_entity='Reds')\\""))
    (['team'], ['reds'])
    """
    relations: list[str] = []
    values: list[str] = []
    for q in program.queries:
        for a in q.call.args:
            if not isinstance(a.value, Text):
                continue
            text = normalize(a.value.value)
            if not text or text in _SPECIAL or text.startswith("output of query"):
                continue
            if a.name in _RELATION_ARGS:
                relations.append(text)
            elif a.name in _VALUE_ARGS:
                values.append(text)
    if TARGET and program.target_type and normalize(program.target_type):
        relations.append(normalize(program.target_type))
    return relations, values


_RELS: weakref.WeakKeyDictionary[GraphStore, tuple[frozenset[str], ...]] = \
    weakref.WeakKeyDictionary()
_MAPPERS: weakref.WeakKeyDictionary[GraphStore, Mapper] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def values_only_in(texts: Sequence[str], graph: GraphStore, source: str,
                   others: Sequence[str]) -> list[str]:
    """The ``texts`` (a query's value literals, the labels they were mapped to) naming a node
    of ``source`` and of none of ``others``: a value that singles ``source`` out.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Rank,City\\n1,Tokyo\\n", b"Rank,Nation\\n1,Japan\\n"])
    >>> values_only_in(["1", "Tokyo"], g, "table1", ["table2"])
    ['Tokyo']
    """
    names = name_index(graph)
    at, away = _positions(graph, source, others)
    return [t for t in dict.fromkeys(texts)
            if at in (held := names.get(normalize(t), frozenset())) and not held & away]


def named_relations_only_in(program: Program, question: str, graph: GraphStore, source: str,
                            others: Sequence[str]) -> list[str]:
    """The relation / column names of ``program`` that ``question`` names (every word of the
    name is a word of the question, plurals aside) and that ``source`` has while none of
    ``others`` does: a column the question asks for that singles ``source`` out.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.query import parse
    >>> g = load_graph(tables=[b"Rank,Film\\n1,Up\\n", b"Rank,Skier\\n1,Ann\\n"])
    >>> p = parse("Query1: \\"get_information(relation='Rank', tail_entity='1')\\"\\n"
    ...           "Query2: \\"get_information(relation='Film', head_entity='output_of_query1')\\"")
    >>> named_relations_only_in(p, "which film ranked first?", g, "table1", ["table2"])
    ['film']
    >>> named_relations_only_in(p, "what ranked first?", g, "table1", ["table2"])
    []
    """
    words = {stem(w) for w in normalize(question).split()}
    rels = _relation_names(graph)
    at, away = _positions(graph, source, others)
    named = [r for r in dict.fromkeys(query_literals(program)[0])
             if r and all(stem(w) in words for w in r.split())]
    return [r for r in named if r in rels[at] and not any(r in rels[i] for i in away)]


def _positions(graph: GraphStore, source: str,
               others: Sequence[str]) -> tuple[int, frozenset[int]]:
    """The position of ``source`` in ``graph`` and those of the loaded ``others`` (itself
    left out)."""
    order = [s.name for s in graph.sources]
    return order.index(source), frozenset(order.index(o) for o in others
                                          if o in order and o != source)


def _relation_names(graph: GraphStore) -> tuple[frozenset[str], ...]:
    """Per source, its normalised relation names (and column names)."""
    with _LOCK:
        found = _RELS.get(graph)
    if found is not None:
        return found
    out = []
    for i, info in enumerate(graph.sources):
        rels = np.unique(graph.rels_of(graph.facts_of_source(i))).tolist()
        out.append(frozenset(normalize(graph.relation_names[int(r)]) for r in rels)
                   | frozenset(normalize(c) for c in info.columns))
    made = tuple(out)
    with _LOCK:
        _RELS[graph] = made
    return made


def _mapper(sub: GraphStore) -> Mapper:
    """A lexical mapper over ``sub`` (kept while ``sub`` lives)."""
    with _LOCK:
        found = _MAPPERS.get(sub)
        if found is None:
            found = _MAPPERS[sub] = Mapper(sub, None)
    return found


def _literal_hits(program: Program, graph: GraphStore) -> list[int]:
    """Per source, how many of the query's literals name a relation / node of it."""
    relations, values = query_literals(program)
    rels = _relation_names(graph)
    names = name_index(graph)
    hits = [sum(1 for r in relations if r in rels[i]) for i in range(len(graph.sources))]
    for v in values:
        for i in names.get(v, frozenset()):
            hits[i] += 1
    return hits


def _fit_points(m: ArgMapping) -> float:
    if m.method not in _EXACT or (not m.ids and m.role != "time_key"):
        return 0.0
    return 0.5 if m.scope.startswith("all") else 1.0


def _fit(program: Program, sub: GraphStore, name: str, pins: Pins | None) -> QueryFit:
    mapper = _mapper(sub)
    try:
        mapped = mapper.map_program(program, pins(program, sub) if pins else None)
    except TrustUQAError:  # a query that cannot be mapped there fits nothing
        return QueryFit(name, 0.0, 0)
    found = [*mapped.mappings, *([mapped.target] if TARGET and mapped.target else [])]
    return QueryFit(name, sum(_fit_points(m) for m in found), len(found))


def _run(fit: QueryFit, program: Program, sub: GraphStore, pins: Pins | None,
         question: str) -> QueryFit:
    """``fit`` with whether (and to what) ``program`` runs over ``sub``."""
    trace: Trace = run_program(program, sub, _mapper(sub),
                               overrides=pins(program, sub) if pins else None,
                               question=question)
    ok = trace.error is None and bool(trace.answer)
    return replace(fit, answered=ok,
                   answer=frozenset(normalize(a) for a in trace.answer) if ok else frozenset())


def route_by_query(program: Program, graph: GraphStore, decision: RouteDecision, *,
                   pins: Pins | None = None, question: str = "",
                   k: int = MAX_CANDIDATES, max_runs: int = MAX_RUNS) -> RouteDecision:
    """Re-decide ``decision`` (the question's routing over ``graph``) by where ``program``'s
    arguments map (see the module docstring). ``pins`` gives the overrides the program needs
    on a graph; the returned decision keeps the question's scores and adds the query's
    evidence lines."""
    names = tuple(s.name for s in graph.sources)
    if len(names) < 2:
        return decision
    qscore = [float(decision.scores.get(n, 0.0)) for n in names]
    hits = _literal_hits(program, graph)
    order = sorted(range(len(names)), key=lambda i: (-hits[i], -qscore[i], i))
    chosen = [i for i in order if hits[i] > 0][:k]
    for n in decision.sources:  # the question's choice is always weighed
        i = names.index(n)
        if i not in chosen and len(decision.sources) <= k:
            chosen.append(i)
    if not chosen:
        return decision
    fits = {i: _fit(program, restrict(graph, [i]), names[i], pins) for i in chosen}
    best = max(f.exact for f in fits.values())
    if best <= 0:
        return decision
    tied = [i for i in chosen if fits[i].exact >= best]
    if len(tied) > 1:
        ran = sorted(tied, key=lambda i: -qscore[i])[:max_runs]
        for i in ran:
            fits[i] = _run(fits[i], program, restrict(graph, [i]), pins, question)
        answered = [i for i in ran if fits[i].answered]
        tied = answered or tied
    top = max(qscore[i] for i in tied)
    kept = [i for i in tied if qscore[i] >= top]
    alone = {names[i]: fits[i].answer for i in tied if fits[i].answered}
    return replace(_decision(decision, names, kept, fits, best),
                   alone=alone if len(alone) > 1 else {})


def _decision(decision: RouteDecision, names: Sequence[str], kept: list[int],
              fits: Mapping[int, QueryFit], best: float) -> RouteDecision:
    """``decision`` re-made: sources ``kept``, the query's evidence added per source."""
    evidence = {n: tuple(v) for n, v in decision.evidence.items()}
    for i, fit in fits.items():
        evidence[names[i]] = (*evidence.get(names[i], ()), fit.line())
    chosen = tuple(names[i] for i in kept)
    others = [f.exact for i, f in fits.items() if i not in kept]
    args = fits[kept[0]].arguments
    other = f"best other: {_count(max(others))} of {args}" if others else "no other candidate"
    what = (f"{_count(best)} of its {args} arguments map exactly there; {other}; "
            f"{len(fits)} sources weighed")
    if len(chosen) == 1:
        how = f"routed by the query to {chosen[0]}: {what}"
    else:
        how = f"unsure between {', '.join(chosen)} by the query: {what}"
    return replace(decision, sources=chosen, how=how, evidence=evidence,
                   unsure=len(chosen) > 1)
