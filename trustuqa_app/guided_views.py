"""The guided step-through (Back / Next, one stage per screen), the reference-query diff, and
the side-by-side comparison of two runs of the session's history.

The stages are computed by :func:`trustuqa_core.app_services.stages.run_stages`; this module
only draws them. Data text goes through ``md_escape`` (Markdown), ``html.escape`` (the diff)
or widgets that never interpret it (``st.code``, ``st.dataframe``).
"""

from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from trustuqa_core.app_services.compare import (
    DiffLine,
    compare_runs,
    reference_comparison,
    writer_label,
)
from trustuqa_core.app_services.runs import Run
from trustuqa_core.app_services.stages import Stage, run_stages, stage_index
from trustuqa_core.export import md_escape

from .explain_views import highlighted_graph

__all__ = ["step_through", "reference_view", "diff_html", "compare_view"]

_DIFF_STYLE = {"same": ("  ", "#1f2933", "transparent"),
               "removed": ("- ", "#8a1c1c", "#fde8e8"),
               "added": ("+ ", "#14532d", "#e3f9e5")}


def diff_html(diff: list[DiffLine]) -> str:
    """The diff as HTML lines (``-`` only in the reference, ``+`` only in the other query);
    every line of text is HTML-escaped."""
    lines = []
    for d in diff:
        sign, color, background = _DIFF_STYLE[d.kind]
        lines.append(f"<div style='color:{color};background:{background};white-space:pre-wrap;"
                     f"font-family:monospace;font-size:0.85rem;padding:1px 6px'>"
                     f"{sign}{html.escape(d.text)}</div>")
    return "<div class='tq-diff'>" + "".join(lines) + "</div>"


def reference_view(run: Run, key: str) -> None:
    """For a bundled example question answered by a writer: whether the writer's query and the
    reference query give the same answer, and (on demand) both queries and their diff."""
    comparison = reference_comparison(run)
    if comparison is None:
        return
    line = md_escape(comparison.verdict_line)
    if comparison.same:
        st.info(":material/compare_arrows: " + line)
    else:
        st.warning(":material/compare_arrows: " + line)
    with st.expander(f"The {comparison.writer}'s query beside the reference query",
                     expanded=False, key=f"{key}_refdiff"):
        _reference_columns(run)


def _reference_columns(run: Run) -> None:
    comparison = reference_comparison(run)
    if comparison is None:
        return
    left, right = st.columns(2)
    left.markdown(f"**Written by: {md_escape(comparison.writer)}** · answer: "
                  f"{md_escape(', '.join(comparison.writer_answer[:5]) or 'no answer')}")
    left.code(comparison.writer_query, language=None, wrap_lines=True)
    right.markdown("**Reference query** (hand-written with the example) · answer: "
                   f"{md_escape(', '.join(comparison.reference_answer[:5]) or 'no answer')}")
    right.code(comparison.reference_query, language=None, wrap_lines=True)
    st.markdown("**Diff** (`-` only in the reference query, `+` only in the "
                f"{md_escape(comparison.writer)}'s)")
    st.markdown(diff_html(comparison.diff), unsafe_allow_html=True)  # escaped in diff_html


def _move(key: str, to: int) -> None:
    st.session_state[key] = to


def step_through(run: Run) -> None:
    """One stage of the run per screen, with Back / Next (buttons: keyboard-focusable)."""
    stages = run_stages(run)
    key = f"tq_stage_{run.rid}"
    i = stage_index(stages, int(st.session_state.get(key, 0)))
    stage = stages[i]
    with st.container(border=True, key="tq_guided"):
        head, back, nxt = st.columns([6, 1, 1], vertical_alignment="center")
        head.markdown(f"#### {md_escape(stage.title)}")
        back.button("◀ Back", key="tq_stage_back", disabled=i == 0, on_click=_move,
                    args=(key, i - 1), use_container_width=True)
        nxt.button("Next ▶", key="tq_stage_next", disabled=i == len(stages) - 1,
                   on_click=_move, args=(key, i + 1), use_container_width=True, type="primary")
        st.progress((i + 1) / len(stages),
                    text=f"Stage {i + 1} of {len(stages)} · " + " → ".join(
                        md_escape(s.title.split(" · ", 1)[-1]) if j != i else
                        f"**{md_escape(s.title.split(' · ', 1)[-1])}**"
                        for j, s in enumerate(stages)))
        if run.question:
            st.caption(f"Question: {md_escape(run.question)}")
        _draw(run, stage)


def _notes(stage: Stage) -> None:
    for note in stage.notes:
        st.info(md_escape(note))


def _draw(run: Run, stage: Stage) -> None:
    if stage.kind != "answer":
        st.caption(md_escape(stage.caption))
    if stage.kind == "demos":
        st.dataframe(pd.DataFrame(stage.rows), hide_index=True, column_config={
            "similarity": st.column_config.ProgressColumn("similarity", min_value=0.0,
                                                          max_value=1.0, format="%.2f")})
    elif stage.kind == "query":
        _notes(stage)
        if stage.diff:
            _reference_columns(run)
        else:
            st.code(stage.code, language=None, wrap_lines=True)
    elif stage.kind == "mapped":
        _notes(stage)
        st.dataframe(pd.DataFrame(stage.rows), hide_index=True, column_config={
            "score": st.column_config.ProgressColumn("score", min_value=0.0, max_value=1.0,
                                                     format="%.2f")})
        st.markdown("**Execution query** (arguments replaced by the nodes they map to)")
        st.code(stage.code, language=None, wrap_lines=True)
    elif stage.kind == "set":
        st.code(stage.code, language=None, wrap_lines=True)
        _notes(stage)
        left, right = st.columns([2, 3])
        with left:
            if stage.rows:
                st.dataframe(pd.DataFrame(stage.rows), hide_index=True)
            else:
                st.info("This step's set is empty.")
        with right:
            highlighted_graph(run, stage.step, height=480)
    else:
        _answer(run, stage)


def _answer(run: Run, stage: Stage) -> None:
    text = f"**{md_escape(stage.caption)}**"
    if stage.label == "verified":
        st.success(text + " · :material/verified: verified")
    elif stage.label == "check":
        st.warning(text + " · :material/help: check before use")
    else:
        st.info(text + " · no answer")
    st.caption("Written by: " + md_escape(writer_label(run.origin, run.model)))
    for note in stage.notes:
        st.markdown(f"- {md_escape(note)}")
    if stage.rows:
        st.markdown("**Where the answer comes from**")
        st.dataframe(pd.DataFrame(stage.rows), hide_index=True)


def compare_view(first: Run, second: Run) -> None:
    """Two runs side by side: question, who wrote the query, the query, answer, verdict."""
    rows = compare_runs(first, second)
    left, right = st.columns(2)
    for col, run, name in ((left, first, "Run A"), (right, second, "Run B")):
        facts = {r["aspect"]: r["run A" if name == "Run A" else "run B"] for r in rows}
        box = col.container(border=True)
        box.markdown(f"**{name}** · {md_escape(facts['question'])}")
        box.caption(f"Written by: {md_escape(facts['written by'])}")
        box.code(run.query, language=None, wrap_lines=True)
        box.markdown(f"Answer: **{md_escape(facts['answer'])}**")
        box.markdown(f"Verdict: {md_escape(facts['verdict'])}")
    st.dataframe(pd.DataFrame([{k: r[k] for k in ("aspect", "same")} | {
        "run A": r["run A"][:80], "run B": r["run B"][:80]} for r in rows]),
        hide_index=True, column_order=["aspect", "run A", "run B", "same"])
