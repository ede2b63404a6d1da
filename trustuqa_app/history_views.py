"""The session history in the sidebar: reopen an earlier run, or pick two to compare."""

from __future__ import annotations

import streamlit as st

from trustuqa_core.app_services.history import history_labels

from . import state

__all__ = ["history_sidebar"]


_ASK = "pages/2_Ask.py"
_MSG = "tq_hist_msg"


def _reopen(rid: str | None) -> None:
    """Button callback (runs before the page, so the question box can still be set)."""
    run = state.reopen(rid) if rid else None
    if run is None:
        st.session_state[_MSG] = ("That run's data is not loaded any more: load it on the "
                                  "Data page first.")
        return
    st.session_state["tq_question"] = run.question or ""


def _compare(a: str | None, b: str | None) -> None:
    """Button callback: remember the pair the Ask page shows side by side."""
    if not a or not b or a == b:
        st.session_state[_MSG] = "Pick two different runs to compare."
        return
    st.session_state["tq_compare"] = (a, b)


def history_sidebar() -> None:
    """Earlier runs of this session (newest first): reopen one, or compare two side by side.
    Labels are plain text in select boxes (never interpreted as Markdown)."""
    runs = state.history()
    if not runs:
        return
    labels = history_labels(runs)
    newest = [r.rid for r in reversed(runs)]
    # the select boxes are keyed by the newest run: a new run draws them afresh, showing the
    # newest first (a fixed key kept the first pick, so the box still showed run 1 after five)
    tag = newest[0]
    st.markdown("**History**")
    with st.container(key="tq_hist_pick"):
        pick = st.selectbox("Earlier runs", newest, format_func=labels.__getitem__,
                            key=f"tq_hist_pick_{tag}", label_visibility="collapsed")
    if st.button("Reopen", key="tq_hist_reopen", use_container_width=True, on_click=_reopen,
                 args=(pick,)) and _MSG not in st.session_state:
        st.switch_page(_ASK)
    if len(runs) >= 2:
        with st.expander("Compare two runs"):
            a = st.selectbox("Run A", newest, index=1, format_func=labels.__getitem__,
                             key=f"tq_hist_a_{tag}")
            b = st.selectbox("Run B", newest, index=0, format_func=labels.__getitem__,
                             key=f"tq_hist_b_{tag}")
            if st.button("Compare side by side", key="tq_hist_compare",
                         use_container_width=True, on_click=_compare, args=(a, b)) \
                    and _MSG not in st.session_state:
                st.switch_page(_ASK)
    message = st.session_state.pop(_MSG, None)
    if message:
        st.caption(message)
