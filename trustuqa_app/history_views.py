"""The session history in the sidebar: reopen an earlier run, or pick two to compare."""

from __future__ import annotations

import streamlit as st

from trustuqa_core.app_services.history import history_labels

from . import state

__all__ = ["history_sidebar"]


_ASK = "pages/2_Ask.py"


def _reopen(rid: str | None) -> None:
    run = state.reopen(rid) if rid else None
    if run is None:
        st.caption("That run's data is not loaded any more: load it on the Data page first.")
        return
    st.session_state["tq_question"] = run.question or ""
    st.switch_page(_ASK)


def _compare(a: str | None, b: str | None) -> None:
    if not a or not b or a == b:
        st.caption("Pick two different runs to compare.")
        return
    st.session_state["tq_compare"] = (a, b)
    st.switch_page(_ASK)


def history_sidebar() -> None:
    """Earlier runs of this session (newest first): reopen one, or compare two side by side.
    Labels are plain text in select boxes (never interpreted as Markdown)."""
    runs = state.history()
    if not runs:
        return
    labels = history_labels(runs)
    newest = [r.rid for r in reversed(runs)]
    st.markdown("**History**")
    pick = st.selectbox("Earlier runs", newest, format_func=labels.__getitem__,
                        key="tq_hist_pick", label_visibility="collapsed")
    if st.button("Reopen", key="tq_hist_reopen", use_container_width=True):
        _reopen(pick)
    if len(runs) >= 2:
        with st.expander("Compare two runs"):
            a = st.selectbox("Run A", newest, index=1, format_func=labels.__getitem__,
                             key="tq_hist_a")
            b = st.selectbox("Run B", newest, index=0, format_func=labels.__getitem__,
                             key="tq_hist_b")
            if st.button("Compare side by side", key="tq_hist_compare",
                         use_container_width=True):
                _compare(a, b)
