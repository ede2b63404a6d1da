"""The Ask page's parts: question box with progress, the run's tabs, and the trust loop."""

from __future__ import annotations

from typing import Any

import streamlit as st

from trustuqa_core.app_services.ask import ask
from trustuqa_core.app_services.data import sample_uploads
from trustuqa_core.app_services.page_settings import llm_gap
from trustuqa_core.app_services.runs import Run, execute_text, imported_run, rerun
from trustuqa_core.app_services.samples import questions_for, sample_sets
from trustuqa_core.app_services.source_choice import AUTO_LABEL
from trustuqa_core.app_services.suggestion import Adoption, adoption_of
from trustuqa_core.demos import DemoNotReproduced
from trustuqa_core.errors import TrustUQAError
from trustuqa_core.export import md_escape
from trustuqa_core.llm.prompts import graph_kind

from . import state
from .explain_views import charts_view, evidence_view, export_view, import_view, llm_view
from .guided_views import compare_view, reference_view, step_through
from .unioqa_views import answer_unioqa, system_choice, unioqa_mode
from .views import (
    VIEW_ANCHOR,
    answer_card,
    mapping_view,
    provenance_view,
    query_editor,
    scroll_to,
    step_anchor,
    steps_view,
)

__all__ = ["answer_question", "no_data", "question_box", "hand_query_box", "run_tabs",
           "feedback_box", "import_box", "comparison_box", "sources_box", "ask_over",
           "ask_over_all", "adopt_suggestion"]

_Q = "tq_question"
_OVER = "tq_ask_over"  # the "Ask over" choice (empty: every loaded source, routed)
_PENDING = "tq_ask_over_pending"  # an "Answer over <source> only" click to answer next run
_ADOPT = "tq_adopt_pending"  # the suggestion an "Ask again over <source>" click adopts
_SCROLL = "tq_scroll_to"  # the anchor a reason's link scrolls to on the next draw


def no_data() -> None:
    """Shown when nothing is loaded: one-click samples."""
    st.info("Load some data first. One click loads a bundled sample:")
    cols = st.columns(len(sample_sets()))
    for col, s in zip(cols, sample_sets(), strict=True):
        if col.button(s.title, key=f"tq_quick_{s.id}"):
            state.set_uploads(sample_uploads(s))
            st.rerun()


def _pick_example() -> None:
    chosen = st.session_state.get("tq_example")
    if chosen and chosen != "—":
        st.session_state[_Q] = chosen


def question_box() -> None:
    """System switch (TrustUQA / UniOQA), example picker, question input and the Answer
    button (progress shown per stage)."""
    system_choice()
    examples = questions_for(state.loaded_names())
    if examples:
        st.selectbox("Example questions for the loaded data",
                     ["—"] + [q.question for q in examples], key="tq_example",
                     on_change=_pick_example)
    question = st.text_input("Question", key=_Q, placeholder="e.g. who ranked next after "
                             "federica brignone?")
    if not unioqa_mode():
        sources_box()
    c1, c2 = st.columns([1, 5])
    go = c1.button("Answer", type="primary", key="tq_ask")
    force = c2.button("Let the writer try", key="tq_ask_writer",
                      help="Ignore a query you confirmed (or, with the Settings toggle on, an "
                           "example's reference query) for this exact question and let the "
                           "configured writer (offline or LLM) write new ones.")
    # One slot, present on every run, holds the progress box and its messages: the boxes
    # below (hand-written query, import) keep their place, so while "Answering…" runs none
    # of their stale widgets (the "Run query" button) is drawn inside the progress box.
    with st.container(key="tq_progress"):
        if (go or force) and not (question or "").strip():
            st.warning("Type a question first (or pick an example).")
        elif (go or force) and unioqa_mode():
            answer_unioqa(question.strip())
        elif go or force:
            answer_question(question.strip(), force)
        elif st.session_state.pop(_PENDING, False) and (question or "").strip():
            answer_question(question.strip(), False, st.session_state.pop(_ADOPT, None))
        st.session_state.pop(_ADOPT, None)  # an adoption belongs to the run it asked for


def sources_box() -> None:
    """With several sources loaded, "Ask over": the sources the next question is answered
    over (none chosen: all of them, routed automatically)."""
    names = sorted(state.loaded_names(), key=_load_order())
    if len(names) < 2:
        st.session_state.pop(_OVER, None)
        return
    kept = [n for n in st.session_state.get(_OVER, []) if n in names]
    if kept != st.session_state.get(_OVER, kept):
        st.session_state[_OVER] = kept  # a source unloaded on the Data page since
    st.multiselect("Ask over", names, key=_OVER, placeholder=AUTO_LABEL,
                   help="Answer over the chosen source(s) only; the answer says so and its "
                        "re-runs stay over them. Leave empty to let routing choose.")


def _load_order() -> Any:
    rep = state.report()
    order = {s.name: i for i, s in enumerate(rep.graph.sources)} if rep else {}
    return lambda name: order.get(name, len(order))


def ask_over(question: str, source: str) -> None:
    """An "Answer over <source> only" click (a callback, run before the page): choose that
    source in "Ask over" and answer ``question`` again on this run of the page."""
    st.session_state[_OVER] = [source]
    st.session_state[_Q] = question
    st.session_state[_PENDING] = True


def ask_over_all(question: str) -> None:
    """An "Ask over all loaded sources" click (a callback, run before the page): clear the
    "Ask over" choice and answer ``question`` again over every loaded source, routed."""
    st.session_state[_OVER] = []
    st.session_state[_Q] = question
    st.session_state[_PENDING] = True


def adopt_suggestion(run: Run) -> None:
    """An "Ask again over <source>" click on a suggestion (a callback, run before the page):
    choose the suggestion's source(s) in "Ask over" and answer the question again over them;
    the new run records the adoption (history, exports)."""
    if run.suggestion is None or not run.question:
        return
    st.session_state[_OVER] = list(run.suggestion.sources)
    st.session_state[_Q] = run.question
    st.session_state[_PENDING] = True
    st.session_state[_ADOPT] = adoption_of(run.suggestion, run.rid, run.question)


def _writer_settings() -> tuple[str, Any, str]:
    """(writer, LLM settings or None, note) from the Settings page."""
    cfg = state.settings()
    if cfg.writer != "llm":
        return "offline", None, ""
    try:
        settings = state.llm_settings()
    except TrustUQAError as err:  # SettingsError
        return "offline", None, f"LLM settings are invalid ({err}); the offline writer was used."
    if not settings.configured:
        return "offline", None, (f"The offline writer was used: the LLM chosen in Settings "
                                 f"cannot be called ({llm_gap(settings)}).")
    return "llm", settings, ""


def answer_question(question: str, force: bool, adopted: Adoption | None = None) -> None:
    """Answer ``question`` on the loaded data with the configured writer, showing progress;
    the run becomes the current run (and enters the history). ``adopted``: the suggestion
    whose adoption asked this question again (kept on the run)."""
    rep, mapper = state.report(), state.mapper()
    assert rep is not None
    cfg = state.settings()
    writer, settings, note = _writer_settings()
    with st.status("Answering…", expanded=True) as status:
        try:
            run, message = ask(question, rep.graph, mapper, loaded=state.loaded_names(),
                               confirmed=state.confirmed_demos(), writer=writer,
                               settings=settings, demos=state.demo_pool, n=cfg.n, k=cfg.k,
                               m=cfg.m, privacy=cfg.privacy, force_writer=force,
                               reference_first=cfg.reference_first,
                               progress=lambda msg: status.write(md_escape(msg)),
                               sources=st.session_state.get(_OVER) or None)
        except TrustUQAError as err:  # LLM errors, a chosen source no longer loaded, ...
            status.update(label="The query writer failed", state="error")
            st.error(md_escape(err))
            return
        if run is None:
            status.update(label="No query written", state="error")
            st.warning(md_escape(message))
            return
        run.note = " ".join(x for x in (note, run.note) if x)
        run.adopted = adopted
        status.write(f"Executed {len(run.trace.steps)} step(s) of the chosen query")
        status.update(label="Answered" if run.answer else "Finished without an answer",
                      state="complete" if run.answer else "error", expanded=False)
    state.set_run(run)


def hand_query_box() -> None:
    """Write a query by hand (works with no LLM at all)."""
    with st.expander("Write a query by hand"):
        st.caption("One `QueryN: \"function(arg='value', ...)\"` per line; `output_of_queryN` "
                   "refers to an earlier result. Nothing is sent to an LLM. It runs over the "
                   "sources chosen in \"Ask over\" (all loaded sources when none is).")
        text = st.text_area("Query", key="tq_hand", height=150,
                            placeholder="Query1: \"get_information(relation='Nation', "
                                        "tail_entity='Italy')\"")
        if st.button("Run query", key="tq_hand_go"):
            if not text.strip():
                st.warning("Write a query first.")
                return
            rep = state.report()
            assert rep is not None
            question = st.session_state.get(_Q) or None
            state.set_run(execute_text(text, rep.graph, state.mapper(), origin="hand-written",
                                       question=question,
                                       sources=st.session_state.get(_OVER) or None))


def import_box() -> None:
    """Re-run an exported JSON without the LLM."""
    with st.expander("Re-run an exported run (no LLM)"):
        import_view(state.stamps(), _on_import)


def _on_import(record: dict[str, Any], diffs: list[str]) -> None:
    rep = state.report()
    assert rep is not None
    state.set_run(imported_run(record, diffs, rep.graph, state.mapper()))


def _rerun(run: Run, **kw: Any) -> None:
    rep = state.report()
    assert rep is not None
    state.set_run(rerun(run, rep.graph, state.mapper(), **kw))
    st.rerun()


def _confirm(run: Run, arg: str) -> None:
    run.confirmed.add(arg)
    st.rerun()


def feedback_box(run: Run) -> None:
    """Thumbs up/down: a confirmed answer becomes a demonstration for later questions. Not
    offered without a question or an answer: there is nothing to confirm then."""
    if not (run.question and run.answer):
        return
    score = st.feedback("thumbs", key=f"tq_fb_{run.rid}")
    if score is None or run.feedback is not None:
        if run.feedback == "up":
            st.caption("Confirmed: this question and query are now a demonstration.")
        return
    run.feedback = "up" if score == 1 else "down"
    if run.feedback == "up" and run.question and run.answer:
        try:  # re-executed on its data first: only a reproducible answer becomes a demo
            where = state.store_demo(run.question, run.query, run.answer,
                                     graph_kind(run.trace.graph), run.trace.graph)
        except DemoNotReproduced as err:
            run.feedback = "refused"
            st.warning(f"Not kept as a demonstration: {md_escape(err)}")
            return
        state.add_confirmed_demo({"question": run.question, "query": run.query,
                                  "answer": run.answer,
                                  "sources": [s.name for s in run.trace.graph.sources]})
        st.caption("Confirmed: this question and query are now a demonstration.")
        st.toast(f"Thanks: the answer is now a demonstration for later questions ({where}).")
    elif run.feedback == "down":
        st.toast("Noted. Check the mappings or edit the query, then re-run.")


VIEWS = ["Steps", "Mappings", "Evidence graph", "What the LLM saw", "Charts", "Export"]


def _goto(view: str, step: int | None) -> None:
    """A verdict reason's link: show that view (and open that step), and scroll to it once
    the page is drawn (the view is far below the card: without the scroll, a click seemed to
    do nothing)."""
    st.session_state["tq_view"] = view
    st.session_state["tq_step"] = step
    st.session_state[_SCROLL] = step_anchor(step) if view == "Steps" and step else VIEW_ANCHOR


def run_tabs(run: Run) -> None:
    """The run, step by step; one view at a time (only the chosen view is computed)."""
    over = (lambda name: ask_over(run.question or "", name)) if run.question else None
    rep = state.report()
    answer_card(run, lambda o: _rerun(run, overrides=o), _goto, over,
                sorted(state.loaded_names(), key=_load_order()),
                (lambda: adopt_suggestion(run)) if run.question else None,
                rep.graph if rep is not None else None,
                (lambda: ask_over_all(run.question or "")) if run.question else None)
    reference_view(run, key=f"tq_r{run.rid}")
    feedback_box(run)
    st.markdown("### Step-through")
    st.caption("The run in the order the pipeline ran it, one stage per screen (Back / Next). "
               "The views below show everything at once, for digging.")
    step_through(run)
    with st.container(key=VIEW_ANCHOR):
        st.markdown("### Details")
    st.session_state.setdefault("tq_view", "Steps")  # no default= beside a state-set value
    view = st.segmented_control("View", VIEWS, required=True, key="tq_view",
                                label_visibility="collapsed")
    if view == "Steps":
        new = query_editor(run, key=f"tq_q{run.rid}")
        if new is not None:
            _rerun(run, query=new, origin="edited", overrides={})
        st.markdown("#### Execution, step by step")
        steps_view(run.trace, selected=st.session_state.get("tq_step"))
        st.markdown("#### Where the answer comes from")
        provenance_view(run.trace)
    elif view == "Mappings":
        mapping_view(run, f"tq_m{run.rid}", lambda o: _rerun(run, overrides=o),
                     lambda arg: _confirm(run, arg))
    elif view == "Evidence graph":
        evidence_view(run, key=f"tq_e{run.rid}")
    elif view == "What the LLM saw":
        llm_view(run)
    elif view == "Charts":
        charts_view(run)
    else:
        key = state.api_key()
        export_view(run, state.stamps(), [key] if key else [])
    target = st.session_state.pop(_SCROLL, None)
    if target:
        scroll_to(target)


def comparison_box() -> None:
    """Two runs of the session's history side by side (chosen in the sidebar)."""
    pair = st.session_state.get("tq_compare")
    if not pair:
        return
    runs = {r.rid: r for r in state.history()}
    if pair[0] not in runs or pair[1] not in runs:
        return
    with st.container(border=True, key="tq_compare_box"):
        head, close = st.columns([6, 1])
        head.markdown("### Two runs side by side")
        if close.button("Close", key="tq_compare_close"):
            st.session_state.pop("tq_compare", None)
            st.rerun()
        compare_view(runs[pair[0]], runs[pair[1]])
