"""Data page: bundled samples or uploaded files, previews, statistics, an overview graph."""

from __future__ import annotations

import streamlit as st

from trustuqa_app.data_views import (
    database_box,
    loaded_overview,
    sample_picker,
    sql_query_box,
    store_box,
    uploader,
)

st.title("Data")
st.caption("Load one or several sources at once: tables, knowledge-graph triples and temporal "
           "knowledge-graph quintuples become one condition graph that questions run over.")

samples, upload, database, sql, big = st.tabs(["Bundled samples", "Upload files", "PostgreSQL",
                                               "SQL query", "Big graph (DuckDB store)"])
with samples:
    sample_picker()
with upload:
    uploader()
with database:
    database_box()
with sql:
    sql_query_box()
with big:
    store_box()

st.header("Loaded data")
loaded_overview()
