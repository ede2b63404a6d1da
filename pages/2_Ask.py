"""Ask page: a question, its query, and every step that leads to the answer."""

from __future__ import annotations

import streamlit as st

from trustuqa_app import state
from trustuqa_app.ask_page import (
    comparison_box,
    hand_query_box,
    import_box,
    no_data,
    question_box,
    run_tabs,
)
from trustuqa_app.unioqa_views import unioqa_area, unioqa_mode
from trustuqa_core.export import md_escape

st.title("Ask")
rep = state.report()
if rep is None or not rep.facts:
    no_data()
    st.stop()

st.caption("Sources: " + ", ".join(md_escape(s.name) for s in rep.graph.sources))
comparison_box()
question_box()
hand_query_box()
import_box()

run = state.current_run()
if unioqa_mode():
    unioqa_area(run.question or "hand-written query" if run is not None else None)
elif run is not None:
    st.divider()
    run_tabs(run)
