"""Evaluate page: run a small benchmark slice and look at the metrics."""

from __future__ import annotations

import streamlit as st

from trustuqa_app.evaluate_views import slice_form, slice_results
from trustuqa_core.app_services.benchmark_slice import data_available
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

slice_form()
slice_results()
