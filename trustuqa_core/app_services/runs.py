"""One question's run as the app keeps it: executed, re-run with edits, imported, exported.

A :class:`Run` holds the query text, the user's overrides and the executed
:class:`~trustuqa_core.trace.Trace`, plus (when an LLM or the offline writer wrote the query)
the prompt, the samples and the vote. Re-running with an edited query or a mapping override
never calls the LLM: :func:`rerun` executes the text again on the loaded graph.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\nBob,Spain\\n"])
>>> run = execute_text("Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\"",
...                    g, None, origin="hand-written")
>>> run.trace.answer, run.overrides
(['table1 row 1'], {})
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import UsageError
from ..export import SourceStamp, build_record
from ..fallback import Fallback
from ..mapping.mapper import Mapper
from ..recovery import run_with_recovery
from ..source_verdict import source_reasons
from ..store import GraphStore
from ..trace import WRITERS, ErrorInfo, Routing, Trace
from ..verdict import Verdict, judge, judge_alone, over_chosen
from .sub_graphs import chosen_sources, restricted
from .suggestion import Adoption, Suggestion, without_suggestion_message

__all__ = ["Run", "execute_text", "rerun", "routed_scope", "imported_run", "record_of", "ORIGINS",
           "WRITER_LABELS", "writer_label", "shaped_by_text"]

log = logging.getLogger(__name__)

#: who can write a run's query (the keys) and how to say it: the trace's one list
ORIGINS = WRITERS
WRITER_LABELS = {
    "offline": "offline writer",
    "reference": "reference query",
    "hand-written": "your query",
    "edited": "your query",
    "confirmed": "your confirmed example",
    "rebound": "re-bound from your confirmed example",
    "imported": "imported run",
    "recorded": "recorded GPT-3.5 query (benchmark)",
    "gold": "gold program (benchmark)",
}


def writer_label(origin: str, model: str | None = None) -> str:
    """A short label naming who wrote a query of ``origin`` (``LLM (<model>)`` for the LLM).

    >>> writer_label("llm"), writer_label("confirmed"), writer_label("something new")
    ('LLM (model not recorded)', 'your confirmed example', 'something new')
    """
    if origin == "llm":
        return f"LLM ({model or 'model not recorded'})"
    return WRITER_LABELS.get(origin, origin)


def shaped_by_text(run: Run) -> str:
    """What the card says about the confirmed examples behind a run's query (plain text;
    the page escapes it).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\n"])
    >>> run = execute_text("Query1: \\"get_information(relation='Nation')\\"", g, None,
    ...                    origin="rebound")
    >>> run.shaped_by = ["Who had the highest bib?"]
    >>> shaped_by_text(run)
    'Shaped by your confirmed example: “Who had the highest bib?”'
    """
    if not run.shaped_by:
        return ""
    quoted = ", ".join(f"“{q}”" for q in run.shaped_by)
    plural = "s" if len(run.shaped_by) > 1 else ""
    return f"Shaped by your confirmed example{plural}: {quoted}"


_INTERNAL = (KeyError, IndexError, TypeError, ValueError, AttributeError)


@dataclass
class Run:
    """A question, the query that answers it, and everything that explains the answer."""

    question: str | None
    query: str
    trace: Trace
    origin: str
    overrides: dict[str, str] = field(default_factory=dict)
    prompt: list[dict[str, str]] | None = None
    data_sent: str = "No LLM was called: nothing left this machine."
    samples: list[dict[str, Any]] = field(default_factory=list)
    confidence: float | None = None
    demos: list[dict[str, Any]] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)
    note: str = ""
    model: str | None = None
    feedback: str | None = None
    confirmed: set[str] = field(default_factory=set)
    rid: str = field(default_factory=lambda: uuid.uuid4().hex[:12])  # widget keys, caches
    writer_error: str | None = None  # no query could be written (e.g. the LLM was unreachable)
    warnings: list[str] = field(default_factory=list)  # shown above the answer
    reference: str | None = None  # a bundled example's reference query, run beside the writer's
    reference_answer: list[str] | None = None  # what the reference query answers on this data
    shaped_by: list[str] = field(default_factory=list)  # confirmed examples behind the query
    question_routing: dict[str, Any] | None = None  # the question-only routing decision
    #: the sources the user chose to ask over (None: every loaded source, routed as usual);
    #: re-runs of this run (overrides, edited query) run over them too
    sources: tuple[str, ...] | None = None
    #: the core's verdict when it differs from the shown trace's: no sample's answer was
    #: accepted (the trace shown is the first sample's, whose result is not the answer)
    verdict: Verdict | None = None
    #: an answer read from a source the question was not routed to (not this run's answer)
    suggestion: Suggestion | None = None
    #: set on a run made by adopting an earlier run's suggestion
    adopted: Adoption | None = None

    @property
    def answer(self) -> list[str]:
        """The run's answer: the trace's, unless the core gave no answer (:attr:`verdict`)."""
        if self.verdict is not None and self.verdict.label == "no answer":
            return []
        return self.trace.answer

    def judged(self) -> Verdict:
        """The verdict the card, the history and the exports show: a writer that wrote
        nothing gives ``no answer`` saying why (and what the question names that the data
        lacks); no sample's answer accepted gives the core's verdict, not the shown
        sample's; else the trace's."""
        if self.writer_error:
            return judge(None, self.question, error=self.writer_error, graph=self.trace.graph)
        if self.verdict is not None:
            return self.verdict
        return self.trace.verdict


def execute_text(text: str, graph: GraphStore, mapper: Mapper | None, *,
                 origin: str, question: str | None = None,
                 overrides: Mapping[str, str] | None = None,
                 fallback: Fallback | None = None,
                 sources: Sequence[str] | None = None,
                 routed: Routing | None = None) -> Run:
    """Parse, map and execute ``text`` (no LLM call unless ``fallback`` is given).

    ``sources`` (the user's choice of loaded sources) runs it over those sources only
    (:func:`~trustuqa_core.app_services.sub_graphs.restricted`); the run records them.
    ``routed`` (without ``sources``): the routing of an earlier run of this question, kept on
    the new trace; it runs over the sources routing chose then (see :func:`routed_scope`).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Team\\nReds\\n", b"Team\\nReds\\n"])
    >>> q = "Query1: \\"get_information(relation='Team', tail_entity='Reds')\\""
    >>> run = execute_text(q, g, None, origin="hand-written", sources=["table2"])
    >>> run.answer, run.sources
    (['table2 row 1'], ('table2',))
    """
    over = {k: v for k, v in (overrides or {}).items() if v}
    chosen = chosen_sources(graph, sources)
    routing = routed_scope(routed, graph) if chosen is None else None
    t0 = time.perf_counter()
    try:
        if chosen is not None:
            graph, mapper = restricted(graph, mapper, chosen)
        asked = graph  # every source the question is asked over: the answer is judged by it
        if routing is not None and len(routing.sources) < len(graph.sources):
            graph, mapper = restricted(graph, mapper, routing.sources)
        trace = run_with_recovery(text, graph, mapper, overrides=over, fallback=fallback,
                                  question=question, writer=origin, routing=routing)
        if question and trace.answer:  # as answer() judges it (a re-run keeps its card)
            trace.judged = source_reasons(trace.verdict, trace, asked)
    except UsageError as exc:  # a chosen source is no longer loaded
        trace = Trace(text, graph, judge_with=judge_alone)
        trace.error = ErrorInfo("execute", str(exc))
    except _INTERNAL as exc:  # a bug in a core stage: shown to the user, logged for us
        log.exception("internal error while executing a query")
        trace = Trace(text, graph, judge_with=judge_alone)
        trace.error = ErrorInfo("execute", f"internal error ({type(exc).__name__}: {exc}); "
                                "the query could not be executed — please report this")
    seconds = time.perf_counter() - t0
    return Run(question, text, trace, origin, dict(over), stage_seconds={"execute": seconds},
               sources=chosen)


def routed_scope(routing: Routing | None, graph: GraphStore) -> Routing | None:
    """The routing a re-run keeps: ``routing`` (an earlier run's) when every source it chose
    is still loaded in ``graph``, else None (the re-run is routed over every loaded source).

    A re-run (a mapping override, an edited query, an exported run) runs over the sources the
    question was routed to, as the run it repeats did: over every loaded source, a mapping
    could land in another source and the answer change for that reason alone.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"A\\n1\\n", b"B\\n2\\n"])
    >>> routed_scope(Routing(("table2",), "routed to table2"), g).sources
    ('table2',)
    >>> routed_scope(Routing(("gone.csv",), "routed to gone.csv"), g) is None
    True
    """
    if routing is None or not routing.sources:
        return None
    loaded = {s.name for s in graph.sources}
    return routing if set(routing.sources) <= loaded else None


def rerun(run: Run, graph: GraphStore, mapper: Mapper | None, *, query: str | None = None,
          overrides: Mapping[str, str] | None = None, origin: str | None = None) -> Run:
    """Execute an edited query and/or new overrides; keeps the question, prompt and samples,
    the sources the user chose to ask over and, without such a choice, for a mapping override
    or its undo (no ``query``), the sources the question was routed to (``graph`` is the whole
    loaded graph). An edited query (``query`` given, even unchanged) is the user's own: it is
    routed over every loaded source, since the routing fitted the query written then. The new
    trace is judged on its own: the core's verdict and the suggestion of ``run`` are dropped
    (an adoption stays: the re-run is still the adopted question's)."""
    new = execute_text(run.query if query is None else query, graph, mapper,
                       origin=origin or run.origin, question=run.question,
                       overrides=run.overrides if overrides is None else overrides,
                       sources=run.sources,
                       routed=run.trace.routing if query is None else None)
    return replace(run, query=new.query, trace=new.trace, overrides=new.overrides,
                   origin=new.origin, stage_seconds={**run.stage_seconds, **new.stage_seconds},
                   feedback=None, confirmed=set(), rid=new.rid, verdict=None, suggestion=None,
                   warnings=without_suggestion_message(run.warnings, run.suggestion))


def imported_run(record: Mapping[str, Any], diffs: Sequence[str], graph: GraphStore,
                 mapper: Mapper | None) -> Run:
    """An exported run's query and overrides executed again on ``graph`` (no LLM), with a note
    comparing the answers and a warning listing ``diffs`` (how the data differs from the
    export's, see :func:`~trustuqa_core.export.compare_sources`).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\n"])
    >>> q = "Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\""
    >>> run = imported_run({"query": q, "overrides": {}, "answer": ["table1 row 1"]}, [], g, None)
    >>> run.origin, run.warnings
    ('imported', [])
    >>> print(run.note)  # doctest: +NORMALIZE_WHITESPACE
    Re-ran an exported run on the data loaded now. The data is identical to the export's.
    Same answer as exported.
    """
    chosen = record.get("asked_over")
    run = execute_text(record["query"], graph, mapper, origin="imported",
                       question=record.get("question"), overrides=record["overrides"],
                       sources=[str(s) for s in chosen] if isinstance(chosen, list) else None,
                       routed=_exported_routing(record))
    run.adopted = Adoption.from_dict(record.get("adopted_suggestion"))
    old = record.get("answer", [])
    same = sorted(map(str, old)) == sorted(run.answer)
    run.note = ("Re-ran an exported run on the data loaded now. "
                + ("The data is identical to the export's. " if not diffs else "")
                + ("Same answer as exported." if same else
                   f"The exported answer was: {', '.join(map(str, old)) or '(none)'}."))
    if diffs:
        run.warnings.append("The data differs from the exported run's: " + "; ".join(diffs)
                            + ". The answer below is computed on the data loaded now.")
    return run


def _exported_routing(record: Mapping[str, Any]) -> Routing | None:
    """The routing an exported run's trace recorded (None when absent or unreadable)."""
    trace = record.get("trace")
    routing = trace.get("routing") if isinstance(trace, Mapping) else None
    if not isinstance(routing, Mapping):
        return None
    try:
        return Routing.from_dict(routing)
    except ValueError:
        return None


def record_of(run: Run, stamps: Sequence[SourceStamp]) -> dict[str, Any]:
    """The export record of a run (see :func:`trustuqa_core.export.build_record`); a run the
    user asked over chosen sources only adds ``asked_over`` (their names), which
    :func:`imported_run` honours; the verdict is the card's (:meth:`Run.judged`: the core's
    ``no answer`` replaces a refused sample's answer, a writer that wrote nothing says why);
    a suggestion (``suggestion``) and an adoption (``adopted_suggestion``) are kept."""
    record = build_record(run.trace.to_dict(), question=run.question, sources=stamps,
                        overrides=run.overrides, origin=run.origin, prompt=run.prompt,
                        data_sent=run.data_sent, samples=run.samples,
                        confidence=run.confidence, demos=run.demos, model=run.model,
                        feedback=run.feedback)
    if run.sources is not None:
        record["asked_over"] = list(run.sources)
    # the card's verdict (the trace shown may be a refused sample's, or none was written),
    # worded for the sources the user chose, as the card words it
    verdict = run.judged()
    record.update(answer=run.answer, verdict=verdict.label,
                  reasons=[over_chosen(r, run.sources).to_dict() for r in verdict.reasons])
    if run.suggestion is not None:
        record["suggestion"] = run.suggestion.to_dict()
    if run.adopted is not None:
        record["adopted_suggestion"] = run.adopted.to_dict()
    return record
