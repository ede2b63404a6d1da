"""The verdict on one answer: collect every family's reasons, then decide.

A hard reason blocks on its own; the soft ones of a table answer are combined by
:mod:`.calibration` into an estimate compared with :meth:`Thresholds.needed` (the writer's
threshold, for the offline writer per band of the table's size).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from ..mentions import (
    find_mentions,
    is_placeholder,
)
from ..store import GraphStore
from ..trace import Trace, writer_kind
from ..verdict_record import Reason, Verdict
from .ambiguity import ambiguity_reasons
from .calibration import Model, describe, features, model_for
from .context import table_size
from .evidence import (
    degenerate,
    mapping_reasons,
    no_answer,
    placeholder_unasked,
    step_reasons,
    vote_reasons,
)
from .question import question_reasons
from .reading import STRONG_METHODS, clip, computed_yes_no
from .thresholds import THRESHOLDS, Thresholds, VoteEvidence


def judge(trace: Trace | None, question: str | None = None, *,
          vote: VoteEvidence | None = None, demo_origins: Iterable[str] = (),
          note: str = "", error: str | None = None, graph: GraphStore | None = None,
          writer: str | None = None, confirmed_example: str | None = None,
          thresholds: Thresholds = THRESHOLDS) -> Verdict:
    """The verdict on ``trace`` as the answer to ``question`` (see the module docstring).

    Args:
        trace: the winning run (None when no query was written or none answered).
        question: the question (default: the one ``trace`` records).
        vote: the vote's evidence (None for a single hand-written or replayed query).
        demo_origins: origins of the demonstrations that shaped the query (``user`` counts).
        note: how the query was made (the offline writer's note).
        error: why there is no answer, when ``trace`` is None.
        graph: the data, to name what the question mentions but the data lacks.
        writer: ``"llm"`` when an LLM wrote the query (its :attr:`Thresholds.llm_exempt`
            codes then inform only); ``"offline"`` or None otherwise.
        confirmed_example: the question of the user-confirmed demonstration whose query was
            re-bound to this question (reason ``confirmed_example``, which informs only).

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Name,Bib\\nAnn,3\\nBea,7\\n"])
    >>> t = run_query("Query1: \\"get_information(relation='Bib', tail_entity='7')\\"", g)
    >>> v = judge(t, "who had bib 7?", confirmed_example="who had bib 3?")
    >>> v.label, [(r.code, r.message) for r in v.reasons]
    ('verified', [('confirmed_example', 'shaped by your confirmed example: “who had bib 3?”')])
    """
    if question is None and trace is not None:
        question = trace.question
    th = thresholds
    if writer == "llm":
        th = replace(th, blocking=th.blocking - th.llm_exempt)
    mentions = find_mentions(question) if question else []
    answer = trace.answer if trace is not None else []
    if trace is None or not answer:  # no trace means no answer
        return no_answer(trace, mentions, error, graph or (trace.graph if trace else None))
    reasons: list[Reason] = []
    reasons += step_reasons(trace)
    reasons += mapping_reasons(trace, th)
    if computed_yes_no(trace):
        reasons.append(Reason("yes_no_answer", "the answer is a computed yes / no: check that "
                              "the query's conditions state the question's claim (a 'no' "
                              "also comes from a condition that found nothing)",
                              trace.target_step.number if trace.target_step else None))
    reasons += degenerate(trace, answer)
    if all(is_placeholder(a) for a in answer):
        reasons.append(Reason("placeholder_answer", f"the answer ({clip(', '.join(answer), 40)})"
                              " only says that the value is missing from the data",
                              trace.target_step.number if trace.target_step else None))
        reasons += placeholder_unasked(trace, question or "")
    if question:
        reasons += question_reasons(trace, question, mentions, answer, th)
        # -- stop 17 (WikiSQL verdict): runner-up readings run over the same data ----------
        reasons += ambiguity_reasons(trace, question)
    reasons += vote_reasons(vote, th)
    if "whose template is similar" in note:
        reasons.append(Reason("similar_template", f"the query was made from a demonstration "
                              f"whose question has another form ({clip(note, 140)})"))
    if "user" in set(demo_origins) or "(user" in note:
        reasons.append(Reason("user_demo", "a demonstration you (or another user) confirmed "
                              "shaped this query: a reason to show it, not a proof"))
    if confirmed_example:
        reasons.append(Reason("confirmed_example", "shaped by your confirmed example: "
                              f"“{clip(confirmed_example, 200)}”", None, confirmed_example))
    model = model_for(writer) if th.calibrated and _tables_only(trace) else None
    blocking = _decide(trace, reasons, th, model, writer, question)
    ordered = sorted(reasons, key=lambda r: r.code not in blocking)
    return Verdict("check" if blocking else "verified", tuple(ordered), blocking)


def _decide(trace: Trace, reasons: list[Reason], th: Thresholds, model: Model | None,
            writer: str | None, question: str | None = None) -> tuple[str, ...]:
    """The blocking codes: every hard code that blocks by its rule; with a ``model``, also
    ``low_estimate`` (appended to ``reasons``) when the estimate of the soft ones falls below
    the threshold, followed by the soft codes that lowered it most first."""
    soft = model.soft_codes - th.hard if model is not None else frozenset()
    hard = tuple(dict.fromkeys(r.code for r in reasons if r.code not in soft and _blocks(r, th)))
    if model is None:
        return hard
    x = features(trace, reasons, question=question, context=model.weighs_context)
    estimate = model.estimate(x)
    need = th.needed(writer, table_size(trace)[0])
    if estimate >= need:
        return hard
    low = [k for k, c in model.contributions(x) if c < 0]
    shown = describe(low, x, reasons) or "no reason"
    step, arg = _where(low[0] if low else "", trace, reasons)
    est = f"{estimate:.1%}" if f"{estimate:.0%}" == f"{need:.0%}" else f"{estimate:.0%}"
    reasons.append(Reason("low_estimate", f"answers with this evidence ({shown}) were right "
                          f"about {est} of the time on the benchmark questions the "
                          f"verdict was calibrated on (at least "
                          f"{need:.0%} needed)", step, arg))
    codes = [k.split(":", 1)[1] for k in low if k.startswith("code:")]
    return tuple(dict.fromkeys([*hard, "low_estimate", *codes]))


def _tables_only(trace: Trace) -> bool:
    """The data are tables only: the estimate was fitted on table benchmarks, so a KG or TKG
    answer keeps the rules (MetaQA's verdicts do not move)."""
    sources = trace.graph.sources
    return bool(sources) and all(x.kind == "table" for x in sources)


def _where(feature: str, trace: Trace, reasons: Sequence[Reason]) -> tuple[int | None,
                                                                           str | None]:
    """The step and argument a feature concerns: its reason's, or the weakest mapping's."""
    if feature.startswith("code:") or feature == "unexplained":
        code = "unexplained_words" if feature == "unexplained" else feature[5:]
        r = next((r for r in reasons if r.code == code), None)
        return (r.step, r.arg) if r is not None else (None, None)
    if feature.startswith("target_") and trace.target is not None:
        return trace.target.query or None, trace.target.key
    if feature in ("low_score", "low_margin") and trace.mapped is not None:
        fuzzy = [m for m in trace.mapped.mappings if m.ids
                 and m.method not in STRONG_METHODS]
        if fuzzy:
            m = min(fuzzy, key=lambda m: m.score if feature == "low_score" else m.margin)
            return m.query or None, m.key
    return None, None


def over_chosen(reason: Reason, over: Sequence[str] | None) -> Reason:
    """``reason`` worded for a question asked over the sources ``over`` only (None or empty:
    every loaded source): "(not) a value of the loaded data" (``unlinked_mention``,
    ``no_query``) then names them, since the sources left out were not searched.

    >>> r = Reason("unlinked_mention", "'Ann' is not a value of the loaded data: override a "
    ...            "mapping", None, "Ann")
    >>> over_chosen(r, ["kg.txt"]).message
    "'Ann' is not a value of kg.txt (the source you asked over): override a mapping"
    >>> over_chosen(r, None) is r
    True
    """
    if not over or reason.code not in ("unlinked_mention", "no_query"):
        return reason
    which = "the source you asked over" if len(over) == 1 else "the sources you asked over"
    return replace(reason, message=reason.message.replace(
        "the loaded data", f"{', '.join(over)} ({which})", 1))


def render_verdict(verdict: Verdict, over: Sequence[str] | None = None) -> str:
    """The verdict and its reasons as CLI text (one reason a line); ``over``: the sources the
    user chose to ask over (see :func:`over_chosen`).

    >>> print(render_verdict(Verdict("check", (Reason("vote_tie", "a tie", None, None),),
    ...                                     ("vote_tie",))), end="")
    verdict: check
      - vote_tie: a tie
    """
    lines = [f"verdict: {verdict.label}"]
    for r in (over_chosen(x, over) for x in verdict.reasons):
        where = " ".join(x for x in (f"Query{r.step}" if r.step else "", r.arg or "") if x)
        lines.append(f"  - {r.code}{f' [{where}]' if where else ''}: {r.message}")
    return "\n".join(lines) + "\n"


def with_reasons(verdict: Verdict, reasons: Sequence[Reason],
                 thresholds: Thresholds = THRESHOLDS) -> Verdict:
    """``verdict`` with evidence found after judging (routing by the written query) added: a
    blocking reason turns ``verified`` into ``check``; ``no answer`` stays.

    >>> v = Verdict("verified", (), ())
    >>> with_reasons(v, [Reason("source_unsure", "b.csv answers too")]).label
    'check'
    """
    if not reasons:
        return verdict
    new = tuple(r for r in reasons if _blocks(r, thresholds))
    blocking = tuple(dict.fromkeys((*verdict.blocking, *(r.code for r in new))))
    ordered = sorted((*verdict.reasons, *reasons), key=lambda r: r.code not in blocking)
    label = verdict.label if verdict.label == "no answer" or not blocking else "check"
    return Verdict(label, tuple(ordered), blocking)


def _blocks(r: Reason, th: Thresholds) -> bool:
    if r.code not in th.blocking:
        return False
    if r.code == "unexplained_words":
        return len((r.arg or "").split(", ")) >= th.max_unexplained
    return True


def judge_alone(trace: Trace) -> Verdict:
    """A trace's verdict from the trace and its question alone (no vote, no demos): what
    :attr:`Trace.verdict` is judged with when no ``answer()`` judged it first. An LLM's query
    run again (a mapping override, a recorded GPT-3.5 query opened from the Evaluate page)
    is judged as the LLM's, as the benchmarks judge it (:func:`judged_as`)."""
    return judge(trace, trace.question, writer=judged_as(trace.writer))


def judged_as(writer: str | None) -> str | None:
    """The writer a trace's verdict is judged as: ``"llm"`` for a query an LLM wrote (ours,
    or the benchmark's recorded GPT-3.5 query), else the trace's own writer kind (the
    offline writer's thresholds).

    >>> judged_as("llm:gpt-4o"), judged_as("recorded"), judged_as("offline"), judged_as(None)
    ('llm', 'llm', 'offline', None)
    """
    kind = writer_kind(writer)
    return "llm" if kind in ("llm", "recorded") else kind
