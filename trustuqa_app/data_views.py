"""Streamlit views of the Data page: bundled samples, uploads with clear errors, overview."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from trustuqa_core.app_services.charts import relations_figure
from trustuqa_core.app_services.connections import (
    MAX_SCAN_FACTS,
    Connections,
    source_connections,
)
from trustuqa_core.app_services.data import (
    KIND_LABELS,
    OVERVIEW_FACTS,
    Upload,
    guess_kind,
    load_all,
    loaded_uploads,
    overview_source,
    preview_frame,
    relation_stats,
    sample_uploads,
    source_frame,
)
from trustuqa_core.app_services.database_url import EXAMPLE_URL, open_database_url
from trustuqa_core.app_services.samples import sample_sets
from trustuqa_core.app_services.sql_source import EXAMPLE_SQL, SQL_FILE_TYPES, open_sql_query
from trustuqa_core.app_services.stores import (
    SAMPLE_FACTS,
    data_files,
    inside,
    size_rows,
    store_files,
    store_preview,
    store_relation_stats,
)
from trustuqa_core.duckstore import DuckStore
from trustuqa_core.errors import SourceError, TrustUQAError
from trustuqa_core.explain import overview_graph, render_html
from trustuqa_core.export import md_escape
from trustuqa_core.graph import GraphStore, build_graph
from trustuqa_core.sources import SourceFacts
from trustuqa_core.translate.databases import safe_url

from . import state
from .explain_views import show_html

__all__ = ["sample_picker", "uploader", "database_box", "sql_query_box", "loaded_overview",
           "show_errors", "size_table", "store_box", "build_progress", "store_overview",
           "connections_view"]

_ERRORS = "tq_upload_errors"
_PG_ERRORS = "tq_pg_errors"
_TYPES = ["csv", "tsv", "txt", "xlsx", "json", "gz", "sqlite", "sqlite3", "db", "duckdb",
          "parquet", "nt", "ttl"]


def show_errors(errors: list[SourceError]) -> None:
    """One message per unreadable file: file, line, problem."""
    for e in errors:
        where = f", line {e.line}" if e.line is not None else ""
        st.error(f"**{md_escape(e.source)}**{where}: {md_escape(e.problem)}. "
                 "This file was not loaded; the other files are unaffected.")


def _set(items: list[Upload], add: bool) -> None:
    current = [u for u in state.uploads() if add and u.name not in {i.name for i in items}]
    state.set_uploads(current + items)
    st.session_state[_ERRORS] = []


def sample_picker() -> None:
    """Cards for the bundled sample sets, each with Load (replace) and Add buttons."""
    sets = sample_sets()
    cols = st.columns(2)
    for i, s in enumerate(sets):
        with cols[i % 2].container(border=True):
            st.markdown(f"**{md_escape(s.title)}**")
            st.caption(md_escape(s.description))
            st.caption("Files: " + ", ".join(f"`{f.file}` ({f.kind})" for f in s.files))
            b1, b2 = st.columns(2)
            if b1.button("Load", key=f"tq_sample_{s.id}", type="primary"):
                _set(sample_uploads(s), add=False)
                st.rerun()
            if b2.button("Add to loaded data", key=f"tq_sample_add_{s.id}"):
                _set(sample_uploads(s), add=True)
                st.rerun()


def uploader() -> None:
    """Upload several files, choose how to read each, load the readable ones."""
    files = st.file_uploader("Tables (CSV, TSV, XLSX, JSON, SQLite, DuckDB, Parquet), KG triples "
                             "or RDF (N-Triples, Turtle), TKG quintuples",
                             type=_TYPES, accept_multiple_files=True, key="tq_upload")
    if files:
        choices = []
        for f in files:
            data = f.getvalue()
            kinds: list[str] = list(KIND_LABELS)
            kind = st.selectbox(f"Read {md_escape(f.name)} as", kinds,
                                index=kinds.index(guess_kind(f.name, data)),
                                format_func=lambda k: KIND_LABELS[k], key=f"tq_kind_{f.name}")
            choices.append(Upload(f.name, kind or "table", data))
        replace = st.toggle("Replace the data loaded now", value=False, key="tq_upload_replace")
        if st.button("Load these files", type="primary", key="tq_upload_go"):
            rep = load_all(choices)
            _set(loaded_uploads(choices, rep), add=not replace)
            st.session_state[_ERRORS] = rep.errors
            st.rerun()
    show_errors(st.session_state.get(_ERRORS, []))


def _open_database() -> None:
    """The Open button's callback: read the tables, then forget the password (the URL field
    keeps the URL masked, the password field is emptied)."""
    ss = st.session_state
    url, password = ss.get("tq_pg_url", ""), ss.get("tq_pg_password", "")
    tables = [t for t in ss.get("tq_pg_tables", "").split(",") if t.strip()]
    uploads, errors = open_database_url(url, password, tables)
    _keep_snapshot("tq_pg", uploads, errors, url)


def _keep_snapshot(prefix: str, uploads: list[Upload], errors: list[SourceError],
                   url: str) -> None:
    """After a database read (keys ``<prefix>_*``): load what was read, keep the errors, empty
    the password field and show the URL masked."""
    ss = st.session_state
    if uploads:
        _set(uploads, add=not ss.get(f"{prefix}_replace", False))
        ss[f"{prefix}_opened"] = [u.name for u in uploads]
    ss[f"{prefix}_errors"] = errors
    ss[f"{prefix}_password"] = ""
    if url.strip():
        ss[f"{prefix}_url"] = safe_url(url.strip())


def database_box() -> None:
    """Open PostgreSQL tables by URL (read-only; each table kept as a snapshot)."""
    st.caption("Each table is read once, in a read-only transaction, and kept in this session "
               "as a snapshot; the password is used for that read only and never shown, logged "
               "or exported.")
    st.text_input("PostgreSQL URL", key="tq_pg_url", placeholder=EXAMPLE_URL)
    st.text_input("Password (if the URL has none)", key="tq_pg_password", type="password")
    st.text_input("Tables (comma-separated; empty: every table)", key="tq_pg_tables",
                  placeholder="staff, public.cities, sales.orders")
    st.toggle("Replace the data loaded now", value=False, key="tq_pg_replace")
    st.button("Open", type="primary", key="tq_pg_go", on_click=_open_database)
    opened = st.session_state.pop("tq_pg_opened", None)
    if opened:
        st.success("Opened " + ", ".join(f"**{md_escape(n)}**" for n in opened) + ".")
    show_errors(st.session_state.get(_PG_ERRORS, []))


# ------------------------------------------------------------------ a SQL query's result
_SQL_ERRORS = "tq_sql_errors"
_SQL_SOURCES = ("PostgreSQL URL", "SQLite or DuckDB file")


def _run_sql_query() -> None:
    """The Run query button's callback: run the SELECT, keep its result as a snapshot, then
    forget the password (the URL field keeps the URL masked, the password field is emptied)."""
    ss = st.session_state
    sql, name = ss.get("tq_sql_text", ""), ss.get("tq_sql_name", "")
    url, password = ss.get("tq_sql_url", ""), ss.get("tq_sql_password", "")
    upload = ss.get("tq_sql_file")
    uploads: list[Upload] = []
    if ss.get("tq_sql_source") == _SQL_SOURCES[1]:
        if upload is None:
            errors = [SourceError("SQL query", "upload a SQLite or DuckDB file first")]
        else:
            uploads, errors = open_sql_query(sql, name, file=(upload.name, upload.getvalue()))
    else:
        uploads, errors = open_sql_query(sql, name, url=url, password=password)
    _keep_snapshot("tq_sql", uploads, errors, url)


def sql_query_box() -> None:
    """Load the result of one read-only SELECT (PostgreSQL URL or a SQLite/DuckDB file) as a
    table named by the user."""
    st.caption("One SELECT (or WITH … SELECT) is run once, read-only, and its result kept in "
               "this session as a table named *database:name*. Anything that writes or holds a "
               "second statement is refused before the database is opened.")
    source = st.radio("Database", _SQL_SOURCES, horizontal=True, key="tq_sql_source")
    if source == _SQL_SOURCES[0]:
        st.text_input("PostgreSQL URL", key="tq_sql_url", placeholder=EXAMPLE_URL)
        st.text_input("Password (if the URL has none)", key="tq_sql_password", type="password")
    else:
        st.file_uploader("SQLite or DuckDB file", type=list(SQL_FILE_TYPES), key="tq_sql_file")
    st.text_area("SELECT query", key="tq_sql_text", placeholder=EXAMPLE_SQL, height=120)
    st.text_input("Name of the result table", key="tq_sql_name", placeholder="totals")
    st.toggle("Replace the data loaded now", value=False, key="tq_sql_replace")
    st.button("Run query and load the result", type="primary", key="tq_sql_go",
              on_click=_run_sql_query)
    opened = st.session_state.pop("tq_sql_opened", None)
    if opened:
        st.success("Loaded " + ", ".join(f"**{md_escape(n)}**" for n in opened) + ".")
    show_errors(st.session_state.get(_SQL_ERRORS, []))


_OVERVIEW_HEIGHT = 620


@st.cache_data(max_entries=16, show_spinner=False)
def _overview(key: tuple[tuple[str, ...], ...], source: str, _graph: GraphStore,
              _facts: SourceFacts | None) -> tuple[str, str]:
    """One source's overview (its own small graph, so the picture is one connected piece
    that fills the frame), or the whole graph's when the source is too large to rebuild."""
    graph = build_graph([_facts]) if _facts is not None else _graph
    ev = overview_graph(graph, max_facts=OVERVIEW_FACTS)
    return render_html(ev, height=_OVERVIEW_HEIGHT, hub_labels=True), ev.note()


@st.cache_data(max_entries=16, show_spinner=False)
def _connections(key: tuple[tuple[str, ...], ...], _graph: GraphStore) -> Connections | None:
    return source_connections(_graph)


def connections_view(graph: GraphStore) -> None:
    """With two sources or more: the nodes each pair shares, and the sources that share none
    (a question cannot chain from them to the others)."""
    if len(graph.sources) < 2:
        return
    st.markdown("#### How the sources connect")
    c = _connections(state.data_id(), graph)
    if c is None:
        return
    st.caption("A question can chain from one source to another only through a node both "
               "hold (a table cell that is also a KG entity, say). Table rows are each "
               "table's own and do not count.")
    if c.pairs:
        st.markdown("\n".join(f"- {md_escape(p.text())}" for p in c.pairs))
    for note in c.notes():
        (st.warning if "cannot chain" in note else st.caption)(md_escape(note))


@st.cache_data(max_entries=16, show_spinner=False)
def _stats(key: tuple[tuple[str, ...], ...], _graph: GraphStore) -> pd.DataFrame:
    return relation_stats(_graph)


def loaded_overview() -> None:
    """What is loaded: sources, warnings, previews, relation statistics, an overview graph."""
    rep = state.report()
    if rep is None or not rep.facts:
        st.info("No data loaded yet: load a bundled sample or upload files above.")
        return
    g = rep.graph
    size_table(g)
    if isinstance(g, DuckStore) and state.store_path():
        store_overview(g)
        return
    st.dataframe(source_frame(g), hide_index=True)
    show_errors(rep.errors)
    for w in rep.warnings:
        st.warning(md_escape(w))
    connections_view(g)
    remove = st.multiselect("Remove sources", [s.name for s in g.sources], key="tq_remove")
    if remove and st.button("Remove selected", key="tq_remove_go"):
        state.set_uploads([u for u in state.uploads() if u.name not in set(remove)])
        st.rerun()
    st.markdown("#### Preview")
    tabs = st.tabs([md_escape(f.name) for f in rep.facts])
    for tab, facts in zip(tabs, rep.facts, strict=True):
        with tab:
            st.dataframe(preview_frame(facts), height=300)
            st.caption(f"First rows of {len(facts)} facts, exactly as read.")
    st.markdown("#### Relations and columns")
    stats = _stats(state.data_id(), g)
    st.dataframe(stats, hide_index=True, height=min(38 + 35 * len(stats), 420))
    # off by default: the first plotly chart of a session makes the browser load plotly.js
    # (~2 s here), which would delay the first answer
    if st.toggle("Show a chart of the relation sizes", key="tq_rel_chart_on"):
        st.plotly_chart(relations_figure(stats.to_dict("records")), key="tq_rel_chart")
    if st.toggle("Show an overview graph (around the best-connected node of a source)",
                 key="tq_overview"):
        names = [f.name for f in rep.facts]
        name = st.selectbox("Source", names, key="tq_overview_source") if len(names) > 1 \
            else names[0]
        facts = next(f for f in rep.facts if f.name == name)
        small = overview_source(facts)
        page, note = _overview(state.data_id(), name, g, small)
        st.caption(f"Rows and subjects blue, values grey; in large pictures only nodes with 3+ "
                   f"facts are labelled (hover for the others); {md_escape(note)}.")
        show_html(page, _OVERVIEW_HEIGHT + 20)


# ------------------------------------------------------------------ engines and DuckDB stores
_BUILD = "tq_store_build"


def size_table(graph: GraphStore) -> None:
    """The engine and size of the loaded graph (facts, nodes, relations)."""
    rows = size_rows(graph, state.store_path())
    cols = st.columns(len(rows))
    for col, row in zip(cols, rows, strict=True):
        col.metric(row.label.capitalize(), row.value)


def store_box() -> None:
    """Open a prebuilt DuckDB store, or build one from a data file, from the folders the
    operator allows (listed, never typed: a visitor cannot name other server paths)."""
    dirs = state.store_dirs()
    st.caption("For graphs too big to upload (millions of facts): a DuckDB store file on this "
               "server, built by `python -m trustuqa_core import FILE --kind kg --name NAME` "
               "or here from a data file. Only these folders are read (the operator sets them "
               "with TRUSTUQA_STORE_DIRS): " + ", ".join(f"`{md_escape(d)}`" for d in dirs))
    stores = store_files(dirs)
    if stores:
        pick = st.selectbox("Store file", [str(p) for p in stores], key="tq_store_pick",
                            format_func=lambda p: Path(p).name)
        if st.button("Open this store", type="primary", key="tq_store_open"):
            _open(pick)
    else:
        st.info("No store file in these folders yet.")
    files = data_files(dirs)
    if not files:
        return
    with st.container(border=True):
        st.markdown("**Build a store from a data file**")
        file = st.selectbox("Data file", [str(p) for p in files], key="tq_store_file",
                            format_func=lambda p: Path(p).name)
        kinds = list(KIND_LABELS)
        kind = st.selectbox("Read it as", kinds, index=kinds.index("kg"), key="tq_store_kind",
                            format_func=lambda k: KIND_LABELS[k])
        if st.button("Build the store", key="tq_store_build_go"):
            try:
                job = state.build_jobs().start(file, kind or "kg", dirs)
            except TrustUQAError as err:
                st.error(md_escape(err))
            else:
                st.session_state[_BUILD] = (str(job.file), job.kind)
        build_progress()


def _open(path: str) -> None:
    try:
        DuckStore.open(inside(path, state.store_dirs())).close()
    except TrustUQAError as err:
        st.error(md_escape(err))
        return
    state.set_store(path)
    st.rerun()


@st.fragment(run_every=1.0)
def build_progress() -> None:
    """The running build's progress bar, refreshed every second by itself (the rest of the
    page stays usable); opens the store when the build is done."""
    key = st.session_state.get(_BUILD)
    job = state.build_jobs().get(*key) if key else None
    if job is None:
        return
    if job.error:
        st.error(md_escape(job.error))
        st.session_state.pop(_BUILD, None)
        return
    st.progress(job.fraction, text=f"Building the store of {md_escape(job.file.name)}: "
                                   f"{md_escape(job.step)} ({job.seconds:.0f} s)")
    if job.done and job.store is not None:
        st.session_state.pop(_BUILD, None)
        st.success(f"Built {md_escape(job.store.name)} in {job.seconds:.1f} s.")
        state.set_store(str(job.store))
        st.rerun(scope="app")


@st.cache_data(max_entries=8, show_spinner=False)
def _store_stats(key: tuple[tuple[str, ...], ...], _graph: DuckStore) -> pd.DataFrame:
    return store_relation_stats(_graph)


def store_overview(graph: DuckStore) -> None:
    """What an opened store holds: sources, a sample of each, relation statistics (SQL);
    no drawing of the whole graph."""
    st.dataframe(source_frame(graph), hide_index=True)
    for s in graph.sources:
        for w in s.warnings:
            st.warning(md_escape(w))
    if st.button("Close the store", key="tq_store_close"):
        state.set_uploads([])
        st.rerun()
    if len(graph.sources) > 1 and st.toggle(
            "Find the nodes the sources share (reads up to "
            f"{MAX_SCAN_FACTS:,} facts of each source)", key="tq_store_connections"):
        connections_view(graph)
    st.markdown("#### Preview")
    tabs = st.tabs([md_escape(s.name) for s in graph.sources])
    for i, tab in enumerate(tabs):
        with tab:
            st.dataframe(store_preview(graph, i), height=300)
            st.caption(f"A sample: the first {SAMPLE_FACTS} of {graph.sources[i].n_facts:,} "
                       "facts, read from the store.")
    st.markdown("#### Relations")
    if st.toggle("Count the relations (one pass over the store; seconds on millions of facts)",
                 key="tq_store_stats"):
        stats = _store_stats(state.data_id(), graph)
        st.dataframe(stats, hide_index=True, height=min(38 + 35 * len(stats), 420))
    st.caption("No overview drawing for a store: the Ask page draws each answer's evidence.")
