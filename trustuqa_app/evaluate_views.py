"""Streamlit views of the Evaluate page: the slice form (benchmark, mode, size) and its
results (metrics, outcome charts, the trust verdict, one row per question)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from trustuqa_core.app_services.benchmark_slice import (
    BENCHMARKS,
    MODES,
    Unavailable,
    ask_request,
    category_counts,
    clean_question,
    evaluable_summary,
    evaluate_slice,
    median_seconds,
    outcome_rows,
    read_sources,
    risk_coverage_rows,
    seconds_by_question,
    seconds_text,
    summary_of,
    timing_recorded,
)
from trustuqa_core.app_services.charts import metric_figure, risk_coverage_figure
from trustuqa_core.app_services.data import Upload
from trustuqa_core.app_services.runs import execute_text
from trustuqa_core.errors import TrustUQAError
from trustuqa_core.evaluate.outcome import Outcome
from trustuqa_core.evaluate.selective import verdict_summary
from trustuqa_core.export import md_escape

from . import state
from .ask_page import answer_question

__all__ = ["slice_form", "slice_results", "open_in_ask"]


def slice_form() -> None:
    """Benchmark, mode and size; Run evaluates the slice with a progress bar (kept in the
    session as ``tq_eval``)."""
    c1, c2 = st.columns(2)
    benchmark = c1.selectbox("Benchmark", BENCHMARKS, index=BENCHMARKS.index("wtq"))
    modes: list[str] = list(MODES)
    mode = c2.selectbox("Mode", modes, index=0, format_func=MODES.__getitem__)
    limit = st.slider("Questions", 5, 100, 10, 5)
    if st.button("Run", type="primary", key="tq_eval_go"):
        cfg = state.settings()
        try:
            writer, settings = ("openai", state.llm_settings()) if cfg.writer == "llm" else (
                "offline", None)
        except TrustUQAError as err:  # SettingsError, KeyRequired: nothing is sent
            st.error(f"LLM settings: {md_escape(err)}")
            st.stop()
        bar = st.progress(0.0, text="Loading the benchmark…")
        outcomes = []
        sources: dict[str, list[tuple[str, str]]] = {}
        try:
            encoder = "minilm" if cfg.encoder == "minilm" else "hashing"  # the Settings choice
            for done, total, outcome in evaluate_slice(benchmark, mode, limit, writer=writer,
                                                       settings=settings, encoder=encoder,
                                                       sources=sources):
                outcomes.append(outcome)
                bar.progress(done / max(total, 1), text=f"{done} / {total} questions")
            st.session_state["tq_eval"] = (benchmark, mode, outcomes)
            st.session_state["tq_eval_sources"] = (sources, "llm" if writer != "offline"
                                                   else "offline")
        except Unavailable as why:
            st.info(md_escape(why))
        except FileNotFoundError as err:
            st.error(md_escape(err))


def slice_results() -> None:
    """The last slice's metrics, charts, trust verdict and per-question table."""
    result = st.session_state.get("tq_eval")
    if not result or not result[2]:
        return
    name, how, outcomes = result
    summary = summary_of(outcomes)
    st.subheader(f"{name} · {how}")
    m1, m2, m3, m4, m5 = st.columns(5)
    m1.metric("Questions", summary["n"])
    m2.metric("Evaluable", summary["n_evaluated"],
              help="Questions whose gold answer can be compared with ours.")
    m3.metric("Accuracy (evaluable)", f"{summary['accuracy']:.0%}"
              if summary["accuracy"] is not None else "n/a",
              help="Correct answers among the evaluable questions only.")
    m4.metric("Correct", summary["correct"])
    m5.metric("Median time", seconds_text(median_seconds(outcomes)))
    excluded = evaluable_summary(outcomes)
    if excluded:
        st.info(md_escape(excluded))
    left, right = st.columns(2)
    left.plotly_chart(metric_figure(category_counts(outcomes), "Outcomes by category"),
                      key="tq_eval_outcomes")
    if timing_recorded(outcomes):
        right.plotly_chart(metric_figure(seconds_by_question(outcomes), "Seconds per question"),
                           key="tq_eval_time")
    else:
        right.caption("No question of this slice recorded its time, so there is no chart of "
                      "seconds per question.")
    trust = verdict_summary(outcomes)
    if not trust:
        st.caption("No trust verdict: no evaluable question of this slice carries one (this "
                   "benchmark and mode do not judge their answers), so precision, coverage "
                   "and the risk–coverage curve are left out.")
    else:
        st.subheader("Trust verdict")
        v = trust["verdicts"]
        t1, t2, t3, t4 = st.columns(4)
        t1.metric("Verified / check / no answer",
                  f"{v['verified']['n']} / {v['check']['n']} / {v['none']['n']}")
        t2.metric("Precision of verified", "n/a" if trust["precision_verified"] is None
                  else f"{trust['precision_verified']:.0%}")
        t3.metric("Coverage", "n/a" if trust["coverage"] is None else f"{trust['coverage']:.0%}",
                  help="share of the correct answers that are marked verified")
        t4.metric("Wrong and verified", f"{trust['wrong_verified']:.0%}",
                  help="share of all questions")
        if trust["risk_coverage"]:
            st.plotly_chart(risk_coverage_figure(trust["risk_coverage"]), key="tq_eval_risk")
            st.dataframe(pd.DataFrame(risk_coverage_rows(trust["risk_coverage"])),
                         hide_index=True)
    st.dataframe(pd.DataFrame(outcome_rows(outcomes)), hide_index=True)
    open_in_ask(how, outcomes)


def open_in_ask(mode: str, outcomes: list[Outcome]) -> None:
    """Pick a row and open it in Ask: its data is loaded, the question filled in, and the
    query the row executed is run there (step-through included)."""
    empty: dict[str, list[tuple[str, str]]] = {}
    sources, writer = st.session_state.get("tq_eval_sources") or (empty, "offline")
    openable = [o for o in outcomes if sources.get(o.id)]
    if not openable:
        return
    labels = {o.id: f"{o.id} · {clean_question(o.question)[0][:90]}" for o in openable}
    c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
    rid = c1.selectbox("Open a question in Ask (loads its data and runs its query there)",
                       list(labels), format_func=labels.__getitem__, key="tq_eval_pick")
    if c2.button("Open in Ask", key="tq_eval_open"):
        outcome = next(o for o in openable if o.id == rid)
        request = ask_request(outcome, mode, sources[rid], writer)
        try:
            files = read_sources(request)
        except OSError as err:
            st.error(f"Could not read the question's data: {md_escape(err)}")
            return
        state.set_uploads([Upload(name, kind, data) for name, kind, data in files])
        st.session_state["tq_question"] = request.question
        rep, mapper = state.report(), state.mapper()
        if request.query and rep is not None and rep.facts:
            run = execute_text(request.query, rep.graph, mapper, origin=request.origin,
                               question=request.question)
            run.note = (f"Opened from the Evaluate page ({outcome.benchmark}, {outcome.id}): "
                        f"the query this row executed was run again. Gold answer: "
                        f"{', '.join(map(str, outcome.gold[:5])) or '(none)'}.")
            state.set_run(run)
        elif rep is not None and rep.facts:  # no query recorded: the configured writer writes one
            answer_question(request.question, force=False)
            written = state.current_run()
            if written is not None:
                written.note = " ".join(x for x in (
                    f"Opened from the Evaluate page ({outcome.benchmark}, {outcome.id}): no "
                    "query was recorded for this row, so the configured writer wrote one. Gold "
                    f"answer: {', '.join(map(str, outcome.gold[:5])) or '(none)'}.",
                    written.note) if x)
        st.switch_page("pages/2_Ask.py")
