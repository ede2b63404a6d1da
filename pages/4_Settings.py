"""Settings page: LLM connection (optional), writer, retrieval, self-consistency, privacy."""

from __future__ import annotations

import streamlit as st

from trustuqa_app.settings_views import (
    connection_test,
    engine_form,
    key_form,
    llm_form,
    pipeline_form,
)

st.title("Settings")
st.caption("Settings last for this browser session. An API key is kept in memory only: it is "
           "never shown again, written to disk, logged or exported.")

st.header("LLM")
llm_form()
key_form()
connection_test()

st.header("Pipeline")
pipeline_form()

st.header("Engine")
engine_form()
