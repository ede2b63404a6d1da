"""Streamlit views of the Settings page: LLM connection, writer, retrieval and mapping options.

The API key is entered in a password field, moved into this session's memory on "Save key"
and never sent back to the browser: the page only says "key set". When the operator locks the
LLM settings (``lock_llm_settings = true`` in ``.streamlit/secrets.toml``, or
``TRUSTUQA_LOCK_LLM_SETTINGS=1``) the connection is shown read-only and no key can be entered.
"""

from __future__ import annotations

import streamlit as st

from trustuqa_core.app_services.page_settings import writer_status
from trustuqa_core.app_services.stores import ENGINE_LABELS
from trustuqa_core.export import md_escape
from trustuqa_core.llm import PRESETS, LLMClient, SettingsError

from . import state

__all__ = ["llm_form", "key_form", "connection_test", "pipeline_form", "engine_form"]

_CUSTOM = "Custom server"


def llm_form() -> None:
    """Writer, preset, base URL and model (read-only connection when the operator locked it)."""
    cfg = state.settings()
    if state.operator().lock_llm_settings:
        _locked_form(cfg.writer)
        return
    with st.form("tq_llm_form"):
        writer = st.radio("Who writes the query", ["offline", "llm"], horizontal=True,
                          index=0 if cfg.writer == "offline" else 1,
                          format_func={"offline": "Offline writer (no LLM, nothing leaves "
                                                  "this machine)",
                                       "llm": "An LLM (OpenAI-compatible)"}.get)
        names = [*PRESETS, _CUSTOM]
        preset = st.selectbox("Provider preset", names, index=names.index(cfg.preset)
                              if cfg.preset in names else 0,
                              help="Fills in the usual base URL and a model; edit them below.")
        base_url = st.text_input("Base URL (leave empty to use the preset's)", cfg.base_url)
        model = st.text_input("Model (leave empty to use the preset's)", cfg.model)
        if st.form_submit_button("Apply", type="primary"):
            p = PRESETS.get(preset)
            state.update_settings(writer=writer, preset=preset,
                                  base_url=base_url.strip() or (p.base_url if p else ""),
                                  model=model.strip() or (p.model if p else ""))
            st.rerun()


def _locked_form(writer: str) -> None:
    """The writer choice stays free; the connection is the operator's and shown read-only."""
    with st.form("tq_llm_form"):
        chosen = st.radio("Who writes the query", ["offline", "llm"], horizontal=True,
                          index=0 if writer == "offline" else 1,
                          format_func={"offline": "Offline writer (no LLM)",
                                       "llm": "The LLM this app's operator configured"}.get)
        if st.form_submit_button("Apply", type="primary"):
            state.update_settings(writer=chosen)
            st.rerun()
    st.info("The LLM connection is set by this app's operator and cannot be changed here.")
    try:
        s = state.llm_settings()
    except SettingsError as err:
        st.error(md_escape(err))
        return
    st.text_input("Base URL", s.base_url or "(none)", disabled=True, key="tq_locked_url")
    st.text_input("Model", s.model or "(none)", disabled=True, key="tq_locked_model")


def key_form() -> None:
    """Enter or forget the API key; it is never displayed back (none when settings are locked)."""
    if state.operator().lock_llm_settings:
        return
    if state.api_key():
        st.success("API key: key set (kept only in this browser session's memory).")
        if st.button("Forget the key", key="tq_key_forget"):
            state.set_api_key(None)
            st.rerun()
        return
    with st.form("tq_key_form", clear_on_submit=True):
        key = st.text_input("API key", type="password", help="Needed for OpenAI, and for any "
                            "server other than this app's own when the app has a key of its own "
                            "(that key is never sent elsewhere). Never written to disk, logs or "
                            "exports.")
        if st.form_submit_button("Save key"):
            state.set_api_key(key)
            st.rerun()
    st.caption("No key set.")


def connection_test() -> None:
    """Show whether an LLM is configured, and test the connection on request."""
    try:
        s = state.llm_settings()
    except SettingsError as err:
        st.error(md_escape(err))
        return
    if not s.configured and state.settings().writer == "llm":  # chosen, but not usable
        st.warning(md_escape(writer_status("llm", s)) + " Everything else works offline.")
    elif not s.configured:
        st.info("No LLM is configured. Everything still works offline: the offline writer, "
                "the bundled examples and hand-written queries.")
    else:
        st.caption(f"Will call model `{md_escape(s.model)}` at `{md_escape(s.base_url)}`. "
                   f"Each question may spend at most {s.question_calls} LLM requests and "
                   f"{s.question_seconds:g} s on it, retries included (set by the operator: "
                   "TRUSTUQA_LIMIT_LLM_CALLS_PER_QUESTION, "
                   "TRUSTUQA_LIMIT_LLM_SECONDS_PER_QUESTION).")
    if st.button("Test connection", key="tq_test", disabled=not s.configured):
        with st.spinner("Contacting the server…"), LLMClient(s) as client:
            status = client.check_connection()
        (st.success if status.ok else st.error)(md_escape(status.detail))


def pipeline_form() -> None:
    """Demonstrations, self-consistency, privacy and the mapping encoder."""
    cfg = state.settings()
    with st.form("tq_pipeline_form"):
        c1, c2, c3 = st.columns(3)
        k = c1.slider("k: demonstrations in the prompt", 1, 16, cfg.k)
        m = c2.slider("m: similar candidates considered", 1, 50, cfg.m)
        n = c3.slider("n: samples for self-consistency", 1, 20, cfg.n)
        temperature = st.slider("Sampling temperature", 0.0, 1.5, cfg.temperature, 0.1)
        privacy = st.toggle("Privacy: never send data values to the LLM", cfg.privacy,
                            help="On: the LLM sees the schema only (relation names). Off: the "
                                 "LLM-function fallback may send the values it needs and the "
                                 "app says which ones.")
        encoder = st.radio("Mapping encoder", ["lexical", "minilm"], horizontal=True,
                           index=0 if cfg.encoder == "lexical" else 1,
                           format_func={"lexical": "Lexical only (instant)",
                                        "minilm": "MiniLM sentence model, offline (loads in "
                                                  "~8 s on first use)"}.get)
        reference_first = st.toggle(
            "Example questions: run their reference query instead of the writer",
            cfg.reference_first, key="tq_reference_first",
            help="Off (default): a bundled example question is answered by the configured "
                 "writer (LLM, else the offline writer) and its hand-written reference query "
                 "is shown beside it with a diff. On: only the reference query runs.")
        if st.form_submit_button("Apply", type="primary"):
            state.update_settings(k=k, m=m, n=n, temperature=temperature, privacy=privacy,
                                  encoder=encoder, reference_first=reference_first)
            st.rerun()


def engine_form() -> None:
    """Which store uploaded files are built on: memory, DuckDB or auto (by size)."""
    cfg = state.settings()
    names = list(ENGINE_LABELS)
    choice = st.radio("Graph engine for loaded files", names, horizontal=True,
                      index=names.index(cfg.engine) if cfg.engine in names else 0,
                      format_func=ENGINE_LABELS.get, key="tq_engine",
                      help="A DuckDB store opened on the Data page always runs on DuckDB.")
    if choice and choice != cfg.engine:
        state.update_settings(engine=choice)
        st.rerun()
