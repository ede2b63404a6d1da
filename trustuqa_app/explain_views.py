"""Streamlit views that explain a run: evidence graph, timeline, what the LLM saw, charts,
export and re-run of an exported run."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
import streamlit as st
import streamlit.components.v1 as components

from trustuqa_core.app_services.charts import (
    timeline_figure,
    timing_figure,
    values_figure,
    vote_figure,
)
from trustuqa_core.app_services.run_tables import aggregate_values, timing_rows
from trustuqa_core.app_services.runs import Run, record_of
from trustuqa_core.app_services.source_choice import choice_markdown
from trustuqa_core.app_services.suggestion import suggestion_markdown
from trustuqa_core.explain import (
    ROLE_COLORS,
    ROLE_NAMES,
    evidence_graph,
    render_html,
    timeline_rows,
)
from trustuqa_core.export import (
    ExportError,
    SourceStamp,
    compare_sources,
    load_record,
    md_escape,
    to_csv,
    to_json,
    to_markdown,
)
from trustuqa_core.ops import elem_text

__all__ = ["highlighted_graph", "evidence_view", "llm_view", "charts_view", "export_view",
           "import_view", "show_html"]


def show_html(page: str, height: int) -> None:
    """Show generated HTML (pyvis: data text is JSON-escaped inside its script and shown as
    text by vis-network, see :func:`~trustuqa_core.explain.render_html`) in an iframe.

    ``st.iframe`` replaces ``st.components.v1.html`` (deprecated in Streamlit 1.67); the
    fallback keeps older Streamlit versions working.
    """
    iframe = getattr(st, "iframe", None)
    if iframe is not None:
        iframe(page, height=height)
    else:  # pragma: no cover - Streamlit < 1.5x
        components.html(page, height=height)


def _legend() -> str:
    return " ".join(f"<span style='color:{c}'>&#9679;</span> {ROLE_NAMES[r]}"
                    for r, c in ROLE_COLORS.items())


@st.cache_data(max_entries=64, show_spinner=False)
def _graph_html(_run: Run, key: tuple[str, int | None]) -> tuple[str, str]:
    ev = evidence_graph(_run.trace)
    return render_html(ev, highlight_step=key[1]), ev.note() if ev.capped else ""


def highlighted_graph(run: Run, step: int | None, height: int = 480) -> None:
    """The run's evidence graph with what ``step`` touched highlighted (the rest faded)."""
    if not any(s.output for s in run.trace.steps):
        st.info("Nothing to draw: no step produced any result.")
        return
    page, note = _graph_html(run, (run.rid, step))
    st.markdown(_legend() + " · lit: what this step touched, grey: the rest",
                unsafe_allow_html=True)  # fixed text only, no data
    if note:
        st.caption(f"Large evidence graph: {md_escape(note)}.")
    show_html(page, height)


def evidence_view(run: Run, key: str) -> None:
    """The evidence subgraph with a step selector, and the TKG timeline when there is one."""
    trace = run.trace
    numbers = [s.number for s in trace.steps]
    choice = st.selectbox("Highlight what one step touched", ["all steps"] +
                          [f"Query{n}" for n in numbers], key=f"{key}_step")
    step = None if choice == "all steps" else int(choice.removeprefix("Query"))
    if not any(s.output for s in trace.steps):
        st.info("Nothing to draw: no step produced any result.")
    else:
        page, note = _graph_html(run, (run.rid, step))
        st.markdown(_legend() + " · boxes are table rows · hover a node or an edge for details",
                    unsafe_allow_html=True)  # fixed text only, no data
        if note:
            st.caption(f"Large evidence graph: {note}.")
        show_html(page, 580)
    rows = timeline_rows(trace)
    if rows:
        st.markdown("#### Timeline")
        st.plotly_chart(timeline_figure(rows), key=f"{key}_timeline")
        table = pd.DataFrame(rows).drop(columns=["condition_years"])
        st.dataframe(table, hide_index=True, column_config={
            "start": st.column_config.NumberColumn(format="%d"),
            "end": st.column_config.NumberColumn(format="%d")})


def llm_view(run: Run) -> None:
    """Retrieved demonstrations, the exact prompt, which data values were sent, the samples."""
    offline = run.origin != "llm"
    st.markdown("#### What the LLM saw" + (" (no LLM was called)" if offline else ""))
    st.info(md_escape(run.data_sent))
    if run.demos:
        st.markdown("**Retrieved demonstrations** (most similar first)")
        st.dataframe(pd.DataFrame(run.demos), hide_index=True)
    if run.prompt:
        _prompt_view(run.prompt, offline)
    else:
        st.caption("No prompt was sent for this run.")
    if run.samples:
        st.markdown("**Samples and the vote**")
        table = [{"#": i + 1, "answer": ", ".join(map(str, s.get("answer", []))),
                  "status": s.get("status", ""), "votes": s.get("votes", ""),
                  "why not": s.get("error") or ""} for i, s in enumerate(run.samples)]
        st.dataframe(pd.DataFrame(table), hide_index=True)
        st.plotly_chart(vote_figure(run.samples), key="tq_votes")
        pick = st.selectbox("Show the query written in sample", range(1, len(run.samples) + 1),
                            key=f"tq_sample_pick_{run.rid}")
        st.code(str(run.samples[(pick or 1) - 1].get("query", "")), language=None,
                wrap_lines=True)


def _prompt_view(prompt: list[dict[str, str]], offline: bool) -> None:
    """The prompt as sent: instructions, demonstration pairs, and the final message."""
    if offline:
        st.markdown("**How the offline writer built the query**")
        for m in prompt:
            st.code(m.get("content", ""), language=None, wrap_lines=True)
        return
    st.markdown(f"**The exact prompt** ({len(prompt)} messages)")
    system = [m for m in prompt[:1] if m.get("role") == "system"]
    middle, last = prompt[len(system):-1], prompt[-1]
    if system:
        with st.expander("System message (instructions)"):
            st.code(system[0].get("content", ""), language=None, wrap_lines=True)
    if middle:
        with st.expander(f"Demonstrations as sent ({len(middle) // 2} question/query pairs)"):
            st.code("\n\n".join(f"[{m.get('role', '?')}]\n{m.get('content', '')}"
                                 for m in middle), language=None, wrap_lines=True)
    st.caption(f"Final message ({last.get('role', '?')}): the question and the schema")
    st.code(last.get("content", ""), language=None, wrap_lines=True)


def charts_view(run: Run) -> None:
    """Stage / step timings and the numbers behind aggregates."""
    st.plotly_chart(timing_figure(timing_rows(run)), key="tq_timing")
    for s in run.trace.steps:
        vals = aggregate_values(run.trace, s)
        if vals:
            result = ", ".join(elem_text(run.trace.graph, e) for e in s.output.distinct().elems)
            st.plotly_chart(values_figure(vals, f"Inputs of Query{s.number} ({s.func}) = {result}"),
                            key=f"tq_values_{s.number}")


def export_view(run: Run, stamps: Sequence[SourceStamp], secrets: Sequence[str]) -> None:
    """Download the whole run as JSON, Markdown, and its evidence as CSV."""
    record = record_of(run, stamps)
    c1, c2, c3 = st.columns(3)
    c1.download_button("Run as JSON", to_json(record, secrets), "trustuqa_run.json",
                       "application/json", key="tq_dl_json")
    c2.download_button("Report as Markdown", to_markdown(record, secrets)
                       + choice_markdown(record) + suggestion_markdown(record),
                       "trustuqa_run.md",
                       "text/markdown", key="tq_dl_md")
    evidence = [{"answer": p["answer"], **{k: e[k] for k in ("head", "relation", "tail",
                                                             "source", "unit", "number")}}
                for p in record["trace"]["answer_provenance"] for e in p["evidence"]]
    c3.download_button("Evidence as CSV", to_csv(evidence), "trustuqa_evidence.csv", "text/csv",
                       key="tq_dl_csv", disabled=not evidence)
    st.caption("Exports hold the question, prompt, samples, query, overrides, mappings, plan, "
               "every step's set and evidence, and the answer. They never hold an API key.")


def import_view(stamps: Sequence[SourceStamp],
                on_load: Callable[[dict, list[str]], None]) -> None:
    """Upload an exported JSON and re-run its query + overrides on the data loaded now."""
    up = st.file_uploader("Exported run (.json)", type=["json"], key="tq_import")
    if up is None:
        return
    try:
        record = load_record(up.getvalue())
    except ExportError as err:
        st.error(f"{md_escape(up.name)}: {md_escape(err)}")
        return
    diffs = compare_sources(record.get("sources", []), stamps)
    if st.button("Re-run it on the loaded data (no LLM)", key="tq_import_run", type="primary"):
        on_load(record, diffs)
