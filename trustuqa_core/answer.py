"""Answer a natural-language question: retrieve demos, write queries, execute, vote.

``answer()`` is what the app, the CLI (``ask``) and the benchmark runner call. The writer is an
LLM (OpenAI-compatible, see :mod:`trustuqa_core.llm`) when one is configured, else the offline
writer; ``Answer.writer`` says which (``"offline"`` / ``"llm:<model>"``). The answer is never
the LLM's: it is what the winning query executed to, with its full trace.

Privacy (default on): the LLM is shown the schema without data values (column names and the
*kind* of values they hold) and the LLM-function fallback sends nothing, so a step needing it
is reported as unanswerable. With ``privacy=False`` the schema shows one example value per
column and the fallback may send the values a step needs.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Nation,Gold\\nItaly,4\\nSpain,0\\n"])
>>> a = answer("Which nation won 4 gold medals?", g, writer="offline")
>>> a.answer, a.writer, a.confidence, a.samples[0].note[:31]
(['Italy'], 'offline', 1.0, 'schema linking: table table1; c')
"""

from __future__ import annotations

import functools
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from .demos import KINDS_FOR, DemoPool, Retrieved, UserDemoStore, initial_demos
from .errors import ParseError, UsageError
from .llm.cache import ResponseCache
from .llm.client import LLMClient, LLMError, LLMNotConfigured, llm_budget
from .llm.fallback import FallbackCall, LLMFallback
from .llm.prompts import describe_schema, graph_kind
from .llm.settings import LLMSettings, load_settings, operator_config
from .mapping.dense import Encoder, HashingEncoder, default_cache_dir
from .mapping.mapper import Mapper
from .mentions import content_words
from .query import parse, render_program
from .recovery import run_with_recovery
from .routing import RouteDecision, explaining_sources, route
from .routing_by_query import named_relations_only_in, route_by_query, values_only_in
from .source_verdict import source_reasons
from .store import GraphStore
from .subgraph import restrict, source_indices
from .text import normalize
from .trace import Routing, Trace, writer_kind
from .verdict import Reason, Verdict, VoteEvidence, judge, judged_as, with_reasons
from .vote import Sample, self_consistency
from .writers import LLMWriter, OfflineWriter, Writer, WriteRequest
from .writers.chain import link_chain
from .writers.confirmed import confirmed_question

__all__ = ["Answer", "answer", "default_pool", "resolve_writer", "mentioned_last", "route_decision",
           "sub_mapper", "unrouted_sources"]


@dataclass
class Answer:
    """The answer to one question and everything needed to check it."""

    question: str
    answer: list[str]
    confidence: float
    trace: Trace | None
    prompt: list[dict[str, str]] | str
    samples: list[Sample]
    writer: str
    demos: list[Retrieved]
    rejected_demos: list[Retrieved] = field(default_factory=list)
    error: str | None = None
    fallback_calls: list[FallbackCall] = field(default_factory=list)
    rounds: int = 0
    tie: bool = False
    privacy: bool = True
    timings: dict[str, float] = field(default_factory=dict)
    prompts: list[list[dict[str, str]] | str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    prompt_tokens: list[int] = field(default_factory=list)
    verdict: Verdict | None = None
    tied: list[list[str]] = field(default_factory=list)
    routing: RouteDecision | None = None
    routed_attempt: Answer | None = None
    #: after the routed attempt found nothing: the answer an attempt over every loaded source
    #: read from a source the question was not routed to, shown beside this answer and not
    #: given as it (stop 19: on the mixed tune half such answers were rarely right)
    suggestion: Answer | None = None

    @property
    def ok(self) -> bool:
        return bool(self.answer)

    @property
    def votes_cast(self) -> int:
        """How many samples of the deciding round voted (answered); with fewer than two the
        confidence is not a vote share worth showing."""
        return sum(1 for x in self.samples if x.key is not None and x.round == self.rounds - 1)

    @property
    def user_demos(self) -> list[Retrieved]:
        """Retrieved demos that a user confirmed (origin ``user``): they shaped the prompt or
        the offline writer's template, so a card can say so."""
        return [r for r in self.demos if r.demo.origin == "user"]

    @property
    def inferred(self) -> bool:
        """True when the winning trace has an LLM-inferred (unverified) step."""
        return self.trace is not None and self.trace.inferred

    def judged(self) -> Verdict:
        """The verdict ``answer()`` gave, else one judged from the trace and the question (an
        LLM's query with the LLM's thresholds, :func:`~trustuqa_core.verdict.judged_as`)."""
        return self.verdict or judge(self.trace, self.question, error=self.error,
                                     writer=judged_as(self.trace.writer if self.trace else None))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: answer, confidence, writer, prompt, steps, samples, demos, ..."""
        trace = self.trace.to_dict() if self.trace is not None else None
        verdict = self.judged()
        return {
            "question": self.question, "answer": self.answer, **verdict.to_dict(),
            "confidence": self.confidence, "tied": self.tied,
            "votes_cast": self.votes_cast,
            "writer": self.writer, "privacy": self.privacy, "error": self.error,
            "inferred": self.inferred, "rounds": self.rounds, "tie": self.tie,
            "prompt": self.prompt, "query": self.trace.query_text if self.trace else None,
            "steps": trace["steps"] if trace else [],
            "samples": [s.to_dict() for s in self.samples],
            "demos": [_demo_dict(r) for r in self.demos],
            "user_demos": [r.demo.question for r in self.user_demos],
            "rejected_demos": [_demo_dict(r) for r in self.rejected_demos],
            "fallback_calls": [c.__dict__ for c in self.fallback_calls],
            "timings": self.timings, "warnings": self.warnings,
            "prompt_tokens": self.prompt_tokens, "routing": self.routing_dict(),
            "suggestion": self.suggestion_dict(), "trace": trace,
        }

    def suggestion_dict(self) -> dict[str, Any] | None:
        """The suggestion (see :attr:`suggestion`) as plain JSON: its ``answer``, the
        ``sources`` it was read from, its ``query``, ``verdict`` and ``reasons``, and the
        routing ``how``; None when there is none."""
        s = self.suggestion
        if s is None:
            return None
        routing = s.trace.routing if s.trace is not None else None
        verdict = s.judged()
        return {"answer": s.answer, "sources": list(routing.used) if routing else [],
                "how": routing.how if routing else None,
                "query": s.trace.query_text if s.trace else None, "verdict": verdict.label,
                "reasons": [r.code for r in verdict.reasons]}

    def routing_dict(self) -> dict[str, Any]:
        """Which sources the answer was sought over and why: ``sources``, ``how``, ``used``
        (read by the winning run), ``scores`` and ``evidence`` (per source), ``unsure`` and,
        after a failed routed attempt, ``routed`` (the sources it was first sought over)."""
        if self.trace is not None and self.trace.routing is not None:
            out = self.trace.routing.to_dict()
        elif self.routing is not None:
            out = self.routing.routing().to_dict()
        else:
            return {}
        if self.routing is not None:
            out["unsure"] = self.routing.unsure
            if self.routed_attempt is not None:
                out["routed"] = list(self.routing.sources)
        return out


def _demo_dict(r: Retrieved) -> dict[str, Any]:
    return {"question": r.demo.question, "query": r.demo.query, "origin": r.demo.origin,
            "kind": r.demo.kind, "similarity": round(r.similarity, 4), "verified": r.verified,
            "how": r.how}


_POOLS: dict[tuple[str, str, tuple[float, int]], DemoPool] = {}  # one entry, the latest
_POOL_LOCK = threading.Lock()


def default_pool(encoder: Encoder | None = None, store: UserDemoStore | None = None) -> DemoPool:
    """Initial demos, plus the shared user-confirmed ones when the operator enabled sharing
    (``shared_user_demos``) or a store is given (rebuilt when the store file changes)."""
    encoder = encoder or HashingEncoder()
    if store is None and operator_config().shared_user_demos:
        store = UserDemoStore()
    key = (encoder.name, str(store.path) if store else "", store.signature() if store else (0, 0))
    with _POOL_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = DemoPool(initial_demos() + (store.load() if store else []), encoder)
            _POOLS.clear()
            _POOLS[key] = pool
    return pool


def _trace_writer(name: str) -> str:
    """The name a trace records for a writer: ours by their own name, any other Writer object
    a caller passed as ``custom:<its name>``.

    >>> _trace_writer("offline"), _trace_writer("llm:gpt-4o"), _trace_writer("my-writer")
    ('offline', 'llm:gpt-4o', 'custom:my-writer')
    """
    try:
        writer_kind(name)
    except ValueError:
        return f"custom:{name}"
    return name


def resolve_writer(writer: Writer | str | None, settings: LLMSettings | None = None,
                   client: LLMClient | None = None) -> tuple[Writer, LLMClient | None]:
    """The writer to use and the LLM client (if any): ``"offline"``, ``"openai"``/``"llm"``,
    or None = an LLM when settings are configured (explicit, environment, secrets), else
    offline."""
    if writer is not None and not isinstance(writer, str):
        return writer, getattr(writer, "client", client)
    if writer == "offline":
        return OfflineWriter(), client
    if writer not in (None, "openai", "llm"):
        raise ValueError(f"unknown writer {writer!r}; use 'offline', 'openai' or a Writer")
    if client is None:
        settings = settings or load_settings()
        if not settings.configured:
            if writer is None:
                return OfflineWriter(), None
            raise LLMNotConfigured("the openai writer needs an LLM: set OPENAI_BASE_URL / "
                                   "TRUSTUQA_MODEL / OPENAI_API_KEY (or .streamlit/secrets.toml)")
        client = LLMClient(settings, ResponseCache(default_cache_dir() / "llm"))
    return LLMWriter(client), client


def answer(
    question: str,
    graph: GraphStore,
    writer: Writer | str | None = None,
    settings: LLMSettings | None = None,
    mapper: Mapper | None = None,
    demos: DemoPool | None = None,
    n: int | None = None,
    k: int = 8,
    m: int = 15,
    privacy: bool = True,
    *,
    retries: int = 3,
    exclude_origins: Sequence[str] = (),
    client: LLMClient | None = None,
    encoder: Encoder | None = None,
    schema_examples: bool | None = None,
    route_sources: bool = True,
    entities: Sequence[str] = (),
    sources: Sequence[str] | None = None,
) -> Answer:
    """Answer ``question`` over ``graph`` (see the module docstring).

    Args:
        writer: a :class:`~trustuqa_core.writers.Writer`, ``"offline"``, ``"openai"``, or None.
        settings: LLM settings (default: environment / secrets).
        mapper: maps literals onto the graph (default: lexical only).
        demos: the demo pool (default: initial + user-confirmed demos).
        n: samples per round (default: ``settings.n`` for an LLM, else 5).
        k, m: demos kept / demos considered (paper 3.3).
        privacy: no data value is sent to the LLM (see the module docstring).
        retries: extra rounds when no sample yields an answer.
        exclude_origins: demo origins never used (the benchmark split being scored).
        client: an LLM client to use (overrides ``settings``).
        encoder: encodes questions for the default pool.
        schema_examples: override whether table example values are shown (default:
            ``not privacy``).
        route_sources: with several sources loaded, answer over the sources
            :func:`~trustuqa_core.routing.route` picks first, and over all of them only when
            that attempt gives no answer (``Answer.routing`` and the trace say which ran).
        entities: entity texts or ids known to be in the question (a benchmark's topic
            entity): evidence for routing.
        sources: names of loaded sources to answer over, the others left out as if not
            loaded (routing then weighs only these); a name that is not loaded raises
            :class:`~trustuqa_core.errors.UsageError` listing the loaded ones. The CLI's
            ``ask --over`` and the app's "Ask over" control.
    """
    t0 = time.perf_counter()
    mapper = mapper or Mapper(graph, None)
    if sources:
        graph, over_mapper = over_sources(graph, mapper, sources)
        mapper = over_mapper if over_mapper is not None else Mapper(graph, None)
    chosen, client = resolve_writer(writer, settings, client)
    pool = demos if demos is not None else default_pool(encoder or mapper.encoder)
    over = functools.partial(
        _answer_over, question, chosen=chosen, client=client, pool=pool,
        n=n, k=k, m=m, privacy=privacy, retries=retries, exclude_origins=exclude_origins,
        schema_examples=schema_examples)
    decision = (route_decision(question, graph, pool, exclude_origins, entities)
                if route_sources else None)
    fell_back = False
    if decision is None or not decision.narrowed:
        result = over(graph, mapper, decision.routing() if decision else None, ())
        if decision is not None and not result.answer:
            result = _by_failed_query(result, decision, decision.sources, graph, mapper, over)
    else:
        sub = restrict(graph, source_indices(graph, decision.sources))
        result = over(sub, sub_mapper(sub, mapper), decision.routing(), ())
        if not result.answer:
            result = _by_failed_query(result, decision, decision.sources, graph, mapper, over)
        if not result.answer:
            fell_back = True
            reason = f"the routed attempt over {', '.join(decision.sources)} gave no answer"
            first = result
            result = over(graph, mapper, decision.fallback(reason), decision.sources)
            result = _by_failed_query(result, decision, decision.all_sources, graph, mapper,
                                      over)
            result.warnings.insert(0, fallback_warning(reason, bool(result.answer)))
            result.routed_attempt = first
            _add_timings(result, first)
    if decision is not None:
        result = _by_query(result, decision, graph, mapper, over)
        result = _second_look(result, decision, graph, mapper, over)
        result = _judged_over(result, graph)
        if fell_back:
            result = _unrouted_as_suggestion(result, decision)
        result.routing = decision
    result.timings["total"] = time.perf_counter() - t0
    return result


def fallback_warning(reason: str, answered: bool) -> str:
    """The warning of a fallback over all loaded sources after the routed attempt found
    nothing (``reason``), worded by whether that second attempt found an answer.

    >>> fallback_warning("the routed attempt over a.csv gave no answer", True)
    'the routed attempt over a.csv gave no answer; answered over all loaded sources'
    >>> fallback_warning("the routed attempt over a.csv gave no answer", False).split("; ")[1]
    'tried again over all loaded sources: no answer there either'
    """
    if answered:
        return reason + "; answered over all loaded sources"
    return reason + "; tried again over all loaded sources: no answer there either"


def unrouted_sources(result: Answer, decision: RouteDecision) -> list[str]:
    """The sources ``result``'s winning query read that ``decision`` did not route to (none
    when there is no answer).

    >>> d = RouteDecision(("a.csv",), "routed to a.csv", all_sources=("a.csv", "b.csv"))
    >>> unrouted_sources(Answer("q", [], 0.0, None, "", [], "offline", []), d)
    []
    """
    trace = result.trace
    if not result.answer or trace is None or trace.routing is None:
        return []
    return [s for s in trace.routing.used if s not in decision.sources]


def _add_timings(into: Answer, earlier: Answer) -> None:
    """Add the stage seconds of ``earlier`` (an attempt ``into`` followed) to ``into``'s; its
    ``total`` already spans both."""
    for key, seconds in earlier.timings.items():
        if key != "total":
            into.timings[key] = into.timings.get(key, 0.0) + seconds


def _follows(again: Answer, earlier: Answer, note: str) -> None:
    """``again``, an attempt kept instead of ``earlier``, takes on ``earlier``'s stage seconds
    and warnings, then ``note`` saying why it was made."""
    _add_timings(again, earlier)
    again.warnings[:0] = [*earlier.warnings, note]


def _first_few(names: Sequence[str]) -> str:
    """Up to three ``names`` for a message, then how many more.

    >>> _first_few(["a", "b"]), _first_few(["a", "b", "c", "d", "e"])
    ('a, b', 'a, b, c and 2 more')
    """
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _unrouted_as_suggestion(result: Answer, decision: RouteDecision) -> Answer:
    """After the routed attempt found nothing: when the answer the fallback ends with (over
    every source, then routing by the query and the second look) was read from a source the
    question was not routed to, the routed attempt's *no answer* is returned, with that
    answer as :attr:`Answer.suggestion` and the reason ``unrouted_source`` (stop 19: on the
    mixed tune half such answers were right once in 141)."""
    first = result.routed_attempt
    elsewhere = unrouted_sources(result, decision)
    if first is None or first.answer or not elsewhere:
        return result
    routed = _first_few(decision.sources)
    shown = ", ".join(repr(a) for a in result.answer[:5]) + (
        ", ..." if len(result.answer) > 5 else "")
    message = (f"routed to {routed}: the query found nothing there; an attempt over the other "
               f"loaded sources answered {shown} from {', '.join(elsewhere)}, which the "
               f"question was not routed to: shown as a suggestion, not as the answer")
    reason = Reason("unrouted_source", message, None, ", ".join(elsewhere))
    base = first.judged()
    first.verdict = with_reasons(base, [reason])
    if first.trace is not None:
        first.trace.judged = first.verdict
    first.error = message if first.error is None else f"{first.error}; {message}"
    first.warnings = [message, *(w for w in first.warnings if w != message)]
    result.routing = decision
    first.suggestion = result
    first.timings = dict(result.timings)  # the fallback's timings already include the first's
    return first


def _by_failed_query(first: Answer, decision: RouteDecision, among: Sequence[str],
                     graph: GraphStore, mapper: Mapper,
                     over: functools.partial[Answer]) -> Answer:
    """``first`` (an attempt over the sources ``among``), or, when it found nothing and
    ``among`` holds several sources: the query it wrote, routed by where its arguments map
    (:func:`~trustuqa_core.routing_by_query.route_by_query`) among them, and the question
    answered over the one source that picks, alone, when that gives an answer (stop 20).

    A query written over several sources at once can read its condition value in one and its
    answer column in another, and then joins nothing: *who finished second?* over a race
    table and a film ranking wrote ``Rank = 2`` (a film's rank: the race's top three have
    none) and ``Name`` (a racer's column); over the race alone it is answered.
    """
    if first.answer or len(among) < 2:
        return first
    program = next((s.trace.program for s in first.samples
                    if s.trace is not None and s.trace.program is not None), None)
    if program is None:
        return first
    over_among = (graph if len(among) == len(graph.sources)
                  else restrict(graph, source_indices(graph, among)))
    by_query = route_by_query(program, over_among, decision, question=first.question)
    if len(by_query.sources) != 1:
        return first
    one = restrict(graph, source_indices(graph, by_query.sources))
    again = over(one, sub_mapper(one, mapper), by_query.routing(), ())
    if not again.answer:
        return first
    _follows(again, first, f"the attempt over {_first_few(among)} gave no answer; its written "
             f"query maps best onto {by_query.sources[0]}: answered over it alone")
    return again


def _by_query(result: Answer, decision: RouteDecision, graph: GraphStore, mapper: Mapper,
              over: functools.partial[Answer]) -> Answer:
    """Routing by the written query (:mod:`~trustuqa_core.routing_by_query`), with several
    sources loaded: the source where the winning program's arguments map decides; when that
    is one source other than the ones the answer was sought over, the question is answered
    again over it alone, kept when it gives an answer (else the first answer stands)."""
    trace = result.trace
    ran = (trace.routing.sources if trace is not None and trace.routing is not None  # as run
           else decision.all_sources if result.routed_attempt is not None else decision.sources)
    read = trace.routing.used if trace is not None and trace.routing is not None else ()
    kinds = {s.kind for s in graph.sources if s.name in read}
    if len(decision.all_sources) < 2 or trace is None or trace.program is None or len(kinds) > 1:
        return result  # one source loaded, nothing written, or a chain across source kinds
    by_query = route_by_query(trace.program, graph, decision, question=result.question)
    if set(by_query.sources) == set(ran):
        if trace.routing is not None:  # the query agrees: its evidence joins the trace's
            trace.routing = replace(trace.routing, evidence=dict(by_query.evidence))
        return _source_unsure(result, by_query, decision, graph)
    if len(by_query.sources) != 1:
        return _source_unsure(result, by_query, decision, graph)
    sub = restrict(graph, source_indices(graph, by_query.sources))
    again = over(sub, sub_mapper(sub, mapper), by_query.routing(), ())
    if not again.answer:
        return _source_unsure(result, by_query, decision, graph)
    _follows(again, result, f"routed by the written query to {by_query.sources[0]}; answered "
             "again over it")
    again.routed_attempt = result.routed_attempt
    return _source_unsure(again, by_query, decision, graph)


#: at most this many further sources are answered over, each alone, when the answer leaves
#: words of the question unexplained or there is none (stop 17)
SECOND_LOOK = 3


def _left_over(result: Answer) -> list[str] | None:
    """What ``result``'s query leaves of its question, read from the verdict's reasons: the
    mentions it does not bind and the words it does not explain (None: no answer at all)."""
    if not result.answer or result.verdict is None:
        return None
    out: list[str] = []
    for r in result.verdict.reasons:
        if r.code == "unbound_mention" and r.arg:
            out += normalize(r.arg).split()
        elif r.code == "unexplained_words" and r.arg:
            out += r.arg.split(", ")
    return list(dict.fromkeys(out))


def _second_look(result: Answer, decision: RouteDecision, graph: GraphStore, mapper: Mapper,
                 over: functools.partial[Answer]) -> Answer:
    """With several sources loaded and the offline writer (an LLM writer would pay a round
    per look), when the answer leaves words the question names unexplained (or there is
    none): the question is answered again over each of the
    (at most :data:`SECOND_LOOK`) sources accounting for most of those words, alone; the
    attempt whose query leaves strictly fewer words kept, when the attempts leaving the
    fewest agree on the answer. Attempts that leave as many words and answer otherwise are a
    tie the data cannot break: the first answer stands."""
    if len(decision.all_sources) < 2 or decision.how.startswith("all sources: the question"):
        return result  # one source loaded, or a chain across sources
    if result.writer != "offline":
        return result  # each look would cost an LLM round; source_unsure shows the doubt
    left = _left_over(result)
    if left == []:
        return result
    trace = result.trace
    used = tuple(trace.routing.used) if trace is not None and trace.routing is not None else ()
    kinds = {s.kind for s in graph.sources if s.name in used}
    if len(kinds) > 1:
        return result
    words = left if left is not None else content_words(result.question)
    scores = decision.scores
    fits = explaining_sources(words, graph)
    ran = trace.routing.sources if trace is not None and trace.routing is not None else ()
    alone = {x[0] for x in (used, ran, decision.sources) if len(x) == 1}  # answered alone
    ranked = sorted((s for s in fits if s not in alone),
                    key=lambda s: (-len(fits[s]), -float(scores.get(s, 0.0)), s))
    best: list[tuple[Answer, str]] = []
    fewest = len(left) if left is not None else None
    for name in ranked[:SECOND_LOOK]:
        sub = restrict(graph, source_indices(graph, (name,)))
        why = ", ".join(repr(w) for w in fits[name][:5])
        routing = replace(decision, sources=(name,), unsure=False,
                          how=f"a second look: {name} accounts for {why}, which the first "
                              f"answer left unexplained")
        again = over(sub, sub_mapper(sub, mapper), routing.routing(), ())
        now = _left_over(again)
        if now is None or (fewest is not None and len(now) > fewest):
            continue
        if fewest is None or len(now) < fewest:
            best, fewest = [], len(now)
        best.append((again, name))
    if not best or (left is not None and fewest is not None and fewest >= len(left)):
        return result
    answers = {frozenset(normalize(a) for a in again.answer) for again, _ in best}
    if len(answers) > 1:
        return result  # a tie the data cannot break
    again, name = best[0]
    _follows(again, result, f"a second look over {name}: its query leaves fewer words of the "
             "question unexplained; answered over it")
    again.routed_attempt = result.routed_attempt or result
    chosen = replace(decision, sources=(name,), unsure=False)
    if again.trace is not None and again.trace.program is not None:
        by_query = route_by_query(again.trace.program, graph, chosen, question=again.question)
        again = _source_unsure(again, by_query, chosen, graph)
    return _looked_elsewhere(again, decision, name)


def _judged_over(result: Answer, graph: GraphStore) -> Answer:
    """``result`` with the reasons only the whole of ``graph`` (every source the question was
    asked over) shows, after the second look, which did not find a better answer
    (:func:`~trustuqa_core.source_verdict.source_reasons`; the app's re-runs judge by it too).
    """
    trace = result.trace
    if not result.answer or result.verdict is None or trace is None:
        return result
    result.verdict = source_reasons(result.verdict, trace, graph)
    trace.judged = result.verdict
    return result


def _looked_elsewhere(again: Answer, asked: RouteDecision, name: str) -> Answer:
    """``again`` (kept by the second look over ``name``) with the reason ``source_unsure``
    when the question's words scored other sources above ``name``: only the words its query
    explains chose it."""
    own = float(asked.scores.get(name, 0.0))
    above = [s for s in asked.sources if s != name and float(asked.scores.get(s, 0.0)) > own]
    if again.verdict is None or again.trace is None or not above:
        return again
    shown = _first_few(above)
    reason = Reason("source_unsure", f"the question's words point to {shown}; a second look "
                    f"answered over {name}, whose query leaves fewer of them unexplained: "
                    f"check that {name} is the source meant", None, ", ".join(above))
    again.verdict = with_reasons(again.verdict, [reason])
    again.trace.judged = again.verdict
    return again


def _source_unsure(result: Answer, by_query: RouteDecision, asked: RouteDecision,
                   graph: GraphStore) -> Answer:
    """``result`` with the reason ``source_unsure`` when the data cannot say which loaded
    source the question means:

    - several sources fit the written query equally well and answer it differently run alone
      (:attr:`RouteDecision.alone`), and either one the answer was not read from answers
      otherwise, or the answer merges several of them into what none answers alone;
    - or the question's words fit several sources of one kind equally (``asked`` is unsure),
      the answer was read from one of them, and neither a value of the written query nor a
      column it reads that the question names is found there and not in the others: the
      columns the writer picked there are all that chose it (*who is ranked #1?* over
      several ranking tables).
    """
    trace = result.trace
    if not result.answer or result.verdict is None or trace is None:
        return result
    used = set(trace.routing.used) if trace.routing is not None else set()
    final = frozenset(normalize(a) for a in result.answer)
    others = sorted(s for s, a in by_query.alone.items() if s not in used and a != final)
    merged = sorted(s for s in by_query.alone if s in used)
    read = ", ".join(sorted(used)) or "the chosen source"
    kinds = {s.name: s.kind for s in graph.sources}
    close = [s for s in asked.sources if s not in used and len(used) == 1
             and kinds.get(s) == kinds.get(next(iter(used)))] if asked.unsure else []
    if others:
        message = (f"the written query fits {', '.join(others)} as well as {read} and runs "
                   f"to another answer there; only the question's words chose {read}")
    elif len(merged) > 1 and all(by_query.alone[s] != final for s in merged):
        message = (f"the answer reads {' and '.join(merged)} together; each fits the written "
                   f"query alone and answers it otherwise: check that the question means "
                   f"all of them")
    elif close and trace.program is not None \
            and not values_only_in(_query_values(trace), graph, read, close) \
            and not named_relations_only_in(trace.program, result.question, graph, read, close):
        others = close
        shown = _first_few(close)
        message = (f"the question's words fit {shown} as well as {read}, and no value of the "
                   f"written query is found in {read} only: the columns the query reads there "
                   f"are all that chose it")
    else:
        return result
    reason = Reason("source_unsure", message, None, ", ".join(others or merged))
    result.verdict = with_reasons(result.verdict, [reason])
    trace.judged = result.verdict
    return result


def _query_values(trace: Trace) -> list[str]:
    """The value literals of ``trace``'s query and the labels they were mapped to."""
    out: list[str] = []
    for step in trace.steps:
        for m in step.mappings:
            if m.role in ("value", "entity") and not m.text.startswith("output_of_query"):
                out += [m.text, *m.labels]
    return out


def route_decision(question: str, graph: GraphStore, pool: DemoPool | None = None,
                   exclude_origins: Sequence[str] = (),
                   entities: Sequence[str] = ()) -> RouteDecision:
    """The sources :func:`answer` tries first for ``question``: ``route()`` with the per-kind
    demo similarities of ``pool`` (when given) and the topic ``entities``, widened to every
    source when the question chains across sources (``link_chain``), since narrowing to one
    would lose the hops."""
    sims = _demo_similarity(pool, question, graph, exclude_origins) if pool is not None else None
    decision = route(question, graph, sims, entities)
    if decision.narrowed:
        chain = link_chain(question, graph)
        if chain:
            decision = replace(decision, sources=decision.all_sources,
                               how=f"all sources: the question {chain[0][1]}")
    return decision


def _demo_similarity(pool: DemoPool, question: str, graph: GraphStore,
                     exclude_origins: Sequence[str]) -> dict[str, float]:
    """Per source kind loaded, the similarity of the best demo of that kind."""
    if len(graph.sources) < 2:
        return {}
    out: dict[str, float] = {}
    for kind in sorted({s.kind for s in graph.sources}):
        best = pool.similar(question, 1, kinds=(kind,), exclude_origins=exclude_origins)
        if best:
            out[kind] = best[0][1]
    return out


_SUB_MAPPERS: OrderedDict[tuple[int, int], Mapper] = OrderedDict()  # a few recent sub-graphs
_SUB_LOCK = threading.Lock()


def over_sources(graph: GraphStore, mapper: Mapper | None,
                 sources: Sequence[str]) -> tuple[GraphStore, Mapper | None]:
    """``graph`` cut down to the loaded sources named in ``sources`` (in load order), with a
    mapper over that part configured like ``mapper`` (None stays None); all of it when every
    loaded source is named. A name that is not loaded is a
    :class:`~trustuqa_core.errors.UsageError` listing the loaded ones.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"A\\n1\\n", b"B\\n2\\n"])
    >>> [s.name for s in over_sources(g, None, ["table2"])[0].sources]
    ['table2']
    >>> over_sources(g, None, ["gone.csv"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    trustuqa_core.errors.UsageError: no loaded source named 'gone.csv'; loaded: ...
    """
    try:
        sub = restrict(graph, source_indices(graph, sources))
    except ValueError as err:
        raise UsageError(str(err)) from err
    if mapper is None or sub is graph:
        return sub, mapper
    return sub, sub_mapper(sub, mapper)


def sub_mapper(sub: GraphStore, like: Mapper) -> Mapper:
    """A mapper over ``sub`` configured as ``like`` (same encoder and settings), reused while
    ``sub`` is one of the few most recent sub-graphs (each holds its own candidate indexes).
    Used for routed attempts here and for a source the user chose in the app."""
    key = (id(sub), id(like))
    with _SUB_LOCK:
        found = _SUB_MAPPERS.get(key)
        if found is not None and found.graph is sub:
            _SUB_MAPPERS.move_to_end(key)
            return found
    made = Mapper(sub, like.encoder, like.cache_dir, like.top_k, like.min_score)
    with _SUB_LOCK:
        _SUB_MAPPERS[key] = made
        while len(_SUB_MAPPERS) > 8:
            _SUB_MAPPERS.popitem(last=False)
    return made


def _answer_over(
    question: str,
    graph: GraphStore,
    mapper: Mapper,
    routing: Routing | None,
    first: Sequence[str],
    *,
    chosen: Writer,
    client: LLMClient | None,
    pool: DemoPool,
    n: int | None,
    k: int,
    m: int,
    privacy: bool,
    retries: int,
    exclude_origins: Sequence[str],
    schema_examples: bool | None,
) -> Answer:
    """One attempt of :func:`answer` over ``graph`` (all sources, or the routed ones)."""
    t0 = time.perf_counter()
    n = n or (client.settings.n if client is not None and isinstance(chosen, LLMWriter) else 5)
    kinds = KINDS_FOR[graph_kind(graph)]
    retrieval = pool.retrieve(question, k=k, m=m, kinds=kinds, exclude_origins=exclude_origins)
    examples = (not privacy) if schema_examples is None else schema_examples
    schema = describe_schema(graph, question, examples=examples, encoder=mapper.encoder,
                             mapper=mapper, first=first)
    request = WriteRequest(question, graph, mapper, schema, retrieval.demos, pool,
                           tuple(exclude_origins), kinds, privacy=privacy)
    timings = {"retrieve": time.perf_counter() - t0, "write": 0.0, "execute": 0.0}
    fallback = LLMFallback(client, privacy=privacy)
    prompts: list[list[dict[str, str]] | str] = []
    warnings: list[str] = []
    prompt_tokens: list[int] = []
    notes: dict[int, list[str]] = {}
    stages: dict[int, Counter[str]] = {}

    def write(attempt: int, count: int) -> list[str]:
        prev = stages.get(attempt - 1)
        stage = prev.most_common(1)[0][0] if prev else ""
        t = time.perf_counter()
        try:
            written = chosen.write(request, count, attempt, stage)
        finally:
            timings["write"] += time.perf_counter() - t
        prompts.append(written.prompt)
        prompt_tokens.append(getattr(written, "prompt_tokens", 0))
        warnings.extend(w for w in getattr(written, "warnings", ()) if w not in warnings)
        notes[attempt] = written.notes
        stages[attempt] = Counter()
        return written.texts

    done: dict[str, Trace] = {}
    keys: dict[str, str] = {}  # sample text -> program key (identical samples parse once)

    def execute(text: str) -> Trace:
        t = time.perf_counter()
        key = keys.get(text) or keys.setdefault(text, _program_key(text))
        trace = done.get(key)
        if trace is None:  # samples that write the same program share one run
            trace = done[key] = run_with_recovery(text, graph, mapper, fallback=fallback,
                                                  question=question,
                                                  writer=_trace_writer(chosen.name),
                                                  routing=routing)
        timings["execute"] += time.perf_counter() - t
        stage = trace.error.stage if trace.error else ("empty" if not trace.answer else "ok")
        stages[max(stages)][stage] += 1
        if stage != "ok":
            request.failures.append((text, trace))
        return trace

    # one LLM budget (wall clock and calls, retries included) for every call of this question
    budget = (llm_budget(client.settings.question_seconds, client.settings.question_calls)
              if client is not None else nullcontext(None))
    with budget as spent:
        result = self_consistency(write, execute, n=n, retries=retries,
                                  notes=lambda a: notes.get(a, []), catch=(LLMError,))
    if spent is not None:
        timings["llm_calls"] = float(spent.used)
    result.answer = mentioned_last(result.answer, question)
    timings["fallback_llm"] = fallback.seconds
    error = _error(result.samples, result.answer, notes)
    llm = isinstance(chosen, LLMWriter)
    winner = result.winner
    vote = VoteEvidence(result.confidence, sum(1 for x in result.samples if x.key is not None
                                               and x.round == result.rounds - 1),
                        result.tie, tuple(" | ".join(t[:5]) for t in result.tied))
    verdict = judge(result.trace, question, vote=vote,
                    demo_origins=[r.demo.origin for r in retrieval.demos] if llm else (),
                    note=winner.note if winner else "", error=error, graph=graph,
                    writer="llm" if llm else "offline",
                    confirmed_example=confirmed_question(winner.note) if winner else None)
    if result.trace is not None:
        result.trace.judged = verdict
    timings["total"] = time.perf_counter() - t0
    return Answer(
        question, result.answer, result.confidence, result.trace,
        prompts[0] if prompts else "", result.samples, chosen.name, retrieval.demos,
        retrieval.rejected, error, list(fallback.calls),
        result.rounds, result.tie, privacy, timings, prompts, warnings, prompt_tokens, verdict,
        result.tied)


def _program_key(text: str) -> str:
    """The program without its step descriptions (two samples differing only in those run
    the same calls); the text itself when it does not parse."""
    try:
        return render_program(parse(text), with_steps=False)
    except ParseError:
        return text


def mentioned_last(values: list[str], question: str) -> list[str]:
    """The same answers, those the question itself names moved last (stable).

    The user already knows what they named, so new information comes first.

    >>> mentioned_last(["Samuel Fuller", "Curtis Hanson"], "who wrote [Samuel Fuller] films")
    ['Curtis Hanson', 'Samuel Fuller']
    """
    if len(values) < 2:
        return values
    words = f" {normalize(question)} "
    named = [v for v in values if normalize(v) and f" {normalize(v)} " in words]
    return [v for v in values if v not in named] + named


def _error(samples: Sequence[Sample], found: list[str],
           notes: dict[int, list[str]] | None = None) -> str | None:
    """Why there is no answer (None when there is one)."""
    if found:
        return None
    if not samples:
        unlinked = [n for ns in (notes or {}).values() for n in ns if n.startswith("could not")]
        return unlinked[0] if unlinked else "no query could be written for this question"
    writer_errors = [s.error for s in samples if s.status == "writer_error"]
    if writer_errors:
        return f"the query writer failed: {writer_errors[-1]}"
    counts = Counter(s.status for s in samples)
    shown = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.most_common())
    empty = next(filter(None, (s.trace.explain_empty() for s in samples
                               if s.status == "empty" and s.trace is not None)), None)
    if empty and len(samples) == 1:  # the one query ran and found nothing: say where
        return f"no query yielded an answer ({shown}): {empty}"
    if empty:
        return f"no query yielded an answer ({shown}); the first empty one: {empty}"
    return f"no query yielded an answer ({shown}); see the samples"


# -- CLI -------------------------------------------------------------------------------------
