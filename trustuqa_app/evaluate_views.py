"""Streamlit views of the Evaluate page: the slice form (benchmark, mode, size) and its
results (metrics, outcome charts, the trust verdict, one row per question)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from trustuqa_core.app_services.benchmark_slice import (
    BENCHMARKS,
    MODES,
    Unavailable,
    category_counts,
    evaluate_slice,
    median_seconds,
    outcome_rows,
    seconds_by_question,
    summary_of,
)
from trustuqa_core.app_services.charts import metric_figure, risk_coverage_figure
from trustuqa_core.errors import TrustUQAError
from trustuqa_core.evaluate.selective import verdict_summary
from trustuqa_core.export import md_escape

from . import state

__all__ = ["slice_form", "slice_results"]


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
        try:
            encoder = "minilm" if cfg.encoder == "minilm" else "hashing"  # the Settings choice
            for done, total, outcome in evaluate_slice(benchmark, mode, limit, writer=writer,
                                                       settings=settings, encoder=encoder):
                outcomes.append(outcome)
                bar.progress(done / max(total, 1), text=f"{done} / {total} questions")
            st.session_state["tq_eval"] = (benchmark, mode, outcomes)
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
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Questions", summary["n"])
    m2.metric("Accuracy", f"{summary['accuracy']:.0%}" if summary["accuracy"] is not None
              else "n/a")
    m3.metric("Correct", summary["correct"])
    m4.metric("Median time", f"{median_seconds(outcomes):.2f} s")
    left, right = st.columns(2)
    left.plotly_chart(metric_figure(category_counts(outcomes), "Outcomes by category"),
                      key="tq_eval_outcomes")
    right.plotly_chart(metric_figure(seconds_by_question(outcomes), "Seconds per question"),
                       key="tq_eval_time")
    trust = verdict_summary(outcomes)
    if trust:
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
    st.dataframe(pd.DataFrame(outcome_rows(outcomes)), hide_index=True)
