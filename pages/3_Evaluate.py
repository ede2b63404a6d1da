"""Evaluate page: run a small benchmark slice and look at the metrics."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from trustuqa_core.export import md_escape
from trustuqa_core.ui.charts import metric_figure
from trustuqa_core.ui.evaluate import REPLAY, data_available, replay, summarize

st.title("Evaluate")
st.caption("Replays the TrustUQA authors' recorded GPT-3.5 queries through this app's parser, "
           "mapper and executor on the benchmark's own tables, and scores the answers "
           "(WTQ denotation accuracy). No LLM is called.")

missing = data_available()
if missing:
    st.info(f"Benchmark data is not available here, so this page cannot run: "
            f"{md_escape(missing)}. Put the shared data folder next to the repository or set "
            "TRUSTUQA_DATA.")
    st.stop()

label = st.selectbox("Benchmark slice", list(REPLAY))
limit = st.slider("Questions", 5, 200, 20, 5)
if st.button("Run", type="primary", key="tq_eval_go"):
    bar = st.progress(0.0, text="Starting…")
    rows = []
    for done, total, row in replay(label, limit):
        rows.append(row)
        bar.progress(done / max(total, 1), text=f"{done} / {total} questions")
    st.session_state["tq_eval"] = rows

rows = st.session_state.get("tq_eval")
if rows:
    summary = summarize(rows)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Questions", summary["questions"])
    c2.metric("Accuracy", f"{summary['accuracy']:.0%}")
    c3.metric("Answered", f"{summary['answered']:.0%}")
    c4.metric("Mean time", f"{summary['mean seconds']:.2f} s")
    left, right = st.columns(2)
    outcome = {"correct": sum(r.correct for r in rows),
               "wrong": sum(not r.correct and not r.failed_at for r in rows),
               **{f"failed: {k}": v for k, v in summary["failures"].items()}}
    left.plotly_chart(metric_figure(outcome, "Outcomes"), key="tq_eval_outcomes")
    right.plotly_chart(metric_figure({r.id: round(r.seconds, 3) for r in rows},
                                     "Seconds per question"), key="tq_eval_time")
    st.dataframe(pd.DataFrame([r.to_dict() for r in rows]), hide_index=True)
