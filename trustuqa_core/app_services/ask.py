"""Turning a question into a :class:`~trustuqa_core.app_services.runs.Run`: who writes the query.

Order of preference:

1. a query the user *confirmed* (thumbs up) for this exact question in this session;
2. the LLM layer's :func:`trustuqa_core.answer.answer`: retrieved demonstrations, the LLM or
   the offline writer, self-consistency over ``n`` samples. For a bundled example question
   the writer runs too (demo mode shows the real pipeline), and the example's hand-written
   reference query is executed beside it (``Run.reference`` / ``Run.reference_answer``), so
   the page can show both queries, their diff and whether they agree;
3. otherwise nobody: the user writes the query by hand (the page says so).

``reference_first=True`` (a Settings choice) runs a bundled example's reference query instead
of the writer, as does a missing writer. ``force_writer=True`` skips step 1. The LLM is
called only through ``answer()`` with the writer set to ``"llm"``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..answer import Answer, answer
from ..demos import Demo, DemoSource
from ..mapping.mapper import Mapper
from ..store import GraphStore
from ..trace import ErrorInfo, Trace
from ..verdict import judge_alone
from ..writers.confirmed import confirmed_question
from .runs import Run, execute_text
from .samples import SAMPLE_DIR, example_questions, find_example, question_match_key, sample_sets
from .sub_graphs import chosen_sources, restricted
from .suggestion import suggestion_of, without_suggestion_message

__all__ = ["ask", "verified_run", "reference_run", "attach_reference", "written_run",
           "bundled_demos", "Progress", "refused_note"]

Progress = Callable[[str], None]


def verified_run(question: str, graph: GraphStore, mapper: Mapper | None, *,
                 loaded: set[str], confirmed: Sequence[dict[str, Any]] = (),
                 reference: bool = True) -> Run | None:
    """Run the verified query of this exact question, if there is one: one the user confirmed
    in this session, else (with ``reference``) a bundled example's reference query."""
    key = question_match_key(question)
    demo = next((d for d in reversed(confirmed) if question_match_key(d["question"]) == key
                 and set(d.get("sources", [])) <= loaded), None)
    if demo is not None:
        run = execute_text(demo["query"], graph, mapper, origin="confirmed", question=question)
        run.note = "Re-used the query of an answer you confirmed earlier in this session."
        return run
    return reference_run(question, graph, mapper, loaded=loaded) if reference else None


def reference_run(question: str, graph: GraphStore, mapper: Mapper | None, *,
                  loaded: set[str]) -> Run | None:
    """A bundled example's hand-written reference query, run on its own (no writer)."""
    example = find_example(question, loaded)
    if example is None:
        return None
    run = execute_text(example.query, graph, mapper, origin="reference", question=question)
    run.note = (f"Bundled example {example.id}: its hand-written reference query was run "
                f"(expected answer: {', '.join(example.answer)}). No writer was used; use "
                "\"Let the writer try\" to see what the writer makes of this question.")
    return run


def attach_reference(run: Run, graph: GraphStore, mapper: Mapper | None, *,
                     loaded: set[str]) -> Run:
    """When ``run``'s question is a bundled example, execute its reference query too and keep
    it with its answer on ``run`` (shown beside the writer's query). Returns ``run``."""
    if run.question is None or run.origin == "reference":
        return run
    example = find_example(run.question, loaded)
    if example is None:
        return run
    ref = execute_text(example.query, graph, mapper, origin="reference", question=run.question)
    run.reference, run.reference_answer = example.query, list(ref.answer)
    return run


def bundled_demos() -> list[Demo]:
    """The bundled example questions as demonstrations (origin ``bundled``), with their data."""
    sets = {s.id: s for s in sample_sets()}
    out = []
    for q in example_questions():
        files = sets[q.sample].files
        kinds = {f.kind for f in files}
        kind = kinds.pop() if len(kinds) == 1 else "mixed"
        sources = tuple(DemoSource(f.kind, f.file, path=str(SAMPLE_DIR / f.file)) for f in files)
        out.append(Demo(q.question, q.query, q.answer, kind, "bundled", sources))
    return out


def _data_sent(result: Answer, llm: bool) -> str:
    if not llm:
        return "No LLM was called: the offline writer ran on this machine and nothing left it."
    sent = [c for c in result.fallback_calls if c.sent]
    held = [c for c in result.fallback_calls if not c.sent]
    if result.privacy:
        text = ("The LLM saw the question, the schema of the loaded data (relation and column "
                "names and the kind of values they hold) and the retrieved demonstrations "
                "(earlier verified questions and queries, which quote their own values). "
                "No data value of the loaded data was sent.")
    else:
        text = ("Privacy was off: the LLM saw the schema with one example value per table "
                "column (see the prompt).")
    if sent:
        text += (" The LLM-function fallback sent the values of " + ", ".join(
            f"Query{c.query}" for c in sent) + " (see the fallback prompts below).")
    if held:
        text += f" {len(held)} fallback request(s) were held back because privacy is on."
    return text


def written_run(question: str, graph: GraphStore, mapper: Mapper | None, *,
                writer: str, settings: Any, demos: Any, n: int, k: int, m: int,
                privacy: bool) -> Run:
    """Call ``answer()`` and turn its :class:`~trustuqa_core.answer.Answer` into a Run."""
    a = answer(question, graph, writer=writer, settings=settings, mapper=mapper, demos=demos,
               n=n, k=k, m=m, privacy=privacy)
    trace = a.trace or next((s.trace for s in a.samples if s.trace is not None), None)
    if trace is None:
        trace = Trace("", graph, judge_with=judge_alone)
        trace.error = ErrorInfo("parse", a.error or "no query was written")
    llm = a.writer.startswith("llm")
    prompt = a.prompt if isinstance(a.prompt, list) else (
        [{"role": "offline writer", "content": a.prompt}] if a.prompt else None)
    run = Run(question, trace.query_text, trace, "llm" if llm else "offline", prompt=prompt,
              data_sent=_data_sent(a, llm), samples=[s.to_dict() for s in a.samples],
              confidence=a.confidence if a.votes_cast > 1 else None,
              demos=[{"question": r.demo.question, "similarity": round(r.similarity, 3),
                      "origin": r.demo.origin, "verified": r.verified, "how": r.how,
                      "query": r.demo.query} for r in a.demos],
              stage_seconds=dict(a.timings), model=a.writer.removeprefix("llm:") if llm else None)
    run.suggestion = suggestion_of(a)
    # e.g. a prompt longer than the model's context; the suggestion panel says its own
    run.warnings += without_suggestion_message(a.warnings, run.suggestion)
    run.question_routing = a.routing.to_dict() if a.routing is not None else None
    if a.trace is None and trace.steps:
        if trace.answer:  # the shown sample found something the vote did not accept
            run.note = refused_note(run.samples, True)
        else:  # the core's message says what found nothing (the suggestion has its panel)
            why = (a.error or "").rstrip(".")  # the error may end a sentence of its own
            if run.suggestion is not None and run.suggestion.message:
                why = why.replace("; " + run.suggestion.message, "")
            run.note = f"No sample yielded an answer: {why}. Shown: the first sample's run."
        run.verdict = a.verdict  # the core's no answer, not the shown sample's verdict
    elif a.trace is None:
        run.writer_error = a.error or "no query was written"
    elif a.tie:
        run.note = ("The vote was a tie between " + " / ".join(
            repr(", ".join(t[:3])) for t in a.tied) + ": no answer won (shown: one of them, "
            "marked check).")
    _mark_confirmed_origin(run, a)
    for call in a.fallback_calls:
        if call.sent and call.prompt:
            run.prompt = [*(run.prompt or []), {"role": f"fallback (Query{call.query})",
                                                "content": call.prompt}]
    return run


#: why a written query's sample did not vote, worded for the card (by sample status)
_REFUSED = {
    "unmapped": "had an argument that matches nothing in the data well enough",
    "empty": "found nothing",
    "parse_error": "could not be read",
    "map_error": "could not be mapped onto the data",
    "rewrite_error": "could not be turned into a plan",
    "execute_error": "failed while running",
    "unanswered": "had a step the data cannot answer",
    "writer_error": "was not written (the writer failed)",
}


def refused_note(samples: Sequence[dict[str, Any]], found: bool) -> str:
    """What the card says when no written query's answer was accepted: how many queries were
    written and why each group did not count; ``found``: the first sample, whose steps are
    shown, did find something (which is not the answer). Empty without samples.

    >>> print(refused_note([{"status": "unmapped"}] * 3 + [{"status": "empty"}], True))
    ... # doctest: +NORMALIZE_WHITESPACE
    None of the 4 written queries gave an answer that counts: 3 had an argument that matches
    nothing in the data well enough; 1 found nothing. Shown: the first query's steps; what it
    found is not the answer.
    >>> refused_note([{"status": "empty"}], False)
    'The written query gave no answer that counts: it found nothing. Shown: its steps.'
    """
    counts: dict[str, int] = {}
    for sample in samples:
        status = str(sample.get("status"))
        if status != "answered":
            counts[status] = counts.get(status, 0) + 1
    if not samples:
        return ""
    n = len(samples)
    if n == 1:
        status = next(iter(counts), "")
        head = "The written query gave no answer that counts" + (
            f": it {_REFUSED.get(status, status)}" if status else "")
        return head + ". Shown: its steps" + (
            "; what it found is not the answer." if found else ".")
    why = "; ".join(f"{k} {_REFUSED.get(status, status)}" for status, k in counts.items())
    return (f"None of the {n} written queries gave an answer that counts"
            + (f": {why}" if why else "") + ". Shown: the first query's steps"
            + ("; what it found is not the answer." if found else "."))


def _mark_confirmed_origin(run: Run, a: Answer) -> None:
    """A run whose winning query the offline writer re-bound from a demo the user confirmed
    becomes origin ``rebound`` with :attr:`Run.shaped_by` naming that example; an LLM run
    whose prompt held user-confirmed demos names them in ``shaped_by`` too."""
    shaped = next((q for s in a.samples if a.trace is not None and s.trace is a.trace
                   and (q := confirmed_question(s.note)) is not None), None)
    if shaped is not None:
        run.origin = "rebound"
        run.trace.writer = "rebound"
        run.shaped_by = [shaped]
    elif run.origin == "llm" and a.trace is not None:
        run.shaped_by = [r.demo.question for r in a.user_demos]


def ask(question: str, graph: GraphStore, mapper: Mapper | None, *, loaded: set[str],
        confirmed: Sequence[dict[str, Any]] = (), writer: str = "offline",
        settings: Any = None, demos: Any = None, n: int = 5, k: int = 8, m: int = 15,
        privacy: bool = True, force_writer: bool = False, reference_first: bool = False,
        progress: Progress = lambda _msg: None,
        sources: Sequence[str] | None = None) -> tuple[Run | None, str]:
    """Answer ``question``; ``(run, message)`` where ``run`` is None when nothing could run.

    ``demos`` is a demo pool or a function returning one (called only if a writer runs).
    ``sources``, the user's choice of loaded sources (None, empty or all of them: every
    source, routed as usual), answers over those sources only: confirmed and reference
    queries, the writer, the mapper and the executor see nothing else, and the run records
    the choice (:attr:`Run.sources`), which its re-runs keep. Raises
    :class:`~trustuqa_core.errors.UsageError` when a chosen source is not loaded.
    """
    t0 = time.perf_counter()
    chosen = chosen_sources(graph, sources)
    if chosen is not None:
        graph, mapper = restricted(graph, mapper, chosen)
        loaded = loaded & set(chosen)
        progress(f"Asking over {', '.join(chosen)} only (your choice)")
    run, message = _ask(question, graph, mapper, loaded=loaded, confirmed=confirmed,
                        writer=writer, settings=settings, demos=demos, n=n, k=k, m=m,
                        privacy=privacy, force_writer=force_writer,
                        reference_first=reference_first, progress=progress, t0=t0)
    if run is not None:
        run.sources = chosen
    return run, message


def _ask(question: str, graph: GraphStore, mapper: Mapper | None, *, loaded: set[str],
         confirmed: Sequence[dict[str, Any]], writer: str, settings: Any, demos: Any, n: int,
         k: int, m: int, privacy: bool, force_writer: bool, reference_first: bool,
         progress: Progress, t0: float) -> tuple[Run | None, str]:
    """:func:`ask` over the graph it was narrowed to."""
    if not force_writer:
        progress("Looking for a query you confirmed for this exact question")
        run = verified_run(question, graph, mapper, loaded=loaded, confirmed=confirmed,
                           reference=reference_first)
        if run is not None:
            run.stage_seconds = {"lookup": time.perf_counter() - t0, **run.stage_seconds}
            return run, ""
    who = "the LLM" if writer == "llm" else "the offline writer"
    if callable(demos):
        demos = demos()
    progress(f"Retrieving up to {k} demonstrations; {who} writes {n} sample queries; "
             "each is executed and the samples vote")
    run = written_run(question, graph, mapper, writer=writer, settings=settings, demos=demos,
                      n=n, k=k, m=m, privacy=privacy)
    t = run.stage_seconds
    progress(f"Retrieved demonstrations in {t.get('retrieve', 0):.2f} s, wrote queries in "
             f"{t.get('write', 0):.2f} s, executed them in {t.get('execute', 0):.2f} s")
    attach_reference(run, graph, mapper, loaded=loaded)
    if run.reference is not None:
        progress("Ran the example's reference query too, to compare with the writer's")
    return run, ""
