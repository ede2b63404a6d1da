"""Evaluate page: run a small benchmark slice and look at the metrics."""

from __future__ import annotations

from collections import Counter

import pandas as pd
import streamlit as st

from trustuqa_app import state
from trustuqa_core.app_services.benchmark_slice import (
    BENCHMARKS,
    MODES,
    Unavailable,
    data_available,
    evaluate_slice,
    outcome_rows,
    summary_of,
)
from trustuqa_core.app_services.charts import metric_figure, risk_coverage_figure
from trustuqa_core.errors import TrustUQAError
from trustuqa_core.evaluate.selective import verdict_summary
from trustuqa_core.export import md_escape

st.title("Evaluate")
st.caption("Runs a small slice of a benchmark through the same parser, mapper and executor as "
           "the Ask page, using the benchmark runner (`python -m trustuqa_core bench run`).")

missing = data_available()
if missing:
    st.info(f"Benchmark data is not available here, so this page cannot run: "
            f"{md_escape(missing)}. Put the shared data folder next to the repository or set "
            "TRUSTUQA_DATA.")
    st.stop()

c1, c2 = st.columns(2)
benchmark = c1.selectbox("Benchmark", BENCHMARKS, index=BENCHMARKS.index("wtq"))
mode = c2.selectbox("Mode", list(MODES), format_func=MODES.get)
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

result = st.session_state.get("tq_eval")
if result and result[2]:
    name, how, outcomes = result
    summary = summary_of(outcomes)
    st.subheader(f"{name} · {how}")
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Questions", summary["n"])
    m2.metric("Accuracy", f"{summary['accuracy']:.0%}" if summary["accuracy"] is not None
              else "n/a")
    m3.metric("Correct", summary["correct"])
    m4.metric("Median time", f"{pd.Series([o.seconds for o in outcomes]).median():.2f} s")
    left, right = st.columns(2)
    left.plotly_chart(metric_figure(dict(Counter(o.category for o in outcomes).most_common()),
                                    "Outcomes by category"), key="tq_eval_outcomes")
    right.plotly_chart(metric_figure({o.id: round(o.seconds, 3) for o in outcomes},
                                     "Seconds per question"), key="tq_eval_time")
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
