"""The Ask page's UniOQA view (issue 14, item 5): the second system, beside TrustUQA.

Shows what :func:`trustuqa_core.app_services.unioqa_view.unioqa_view` computed: the merged
answer and where it came from, the merge decision with its reason, the translator's Cypher as
written and after ERR (``st.code`` boxes, each with a copy button), every ERR variant, the GRAG
triples and both answers side by side. Markdown text goes through
:func:`~trustuqa_core.export.md_escape`; Cypher, tables and JSON use ``st.code`` /
``st.dataframe`` / a download, which never interpret their content. Green is kept for
TrustUQA's *verified*: a UniOQA answer is blue when executed, amber when LLM-read.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import streamlit as st

from trustuqa_core.app_services.unioqa_view import UniOQAView, unioqa_view
from trustuqa_core.errors import TrustUQAError
from trustuqa_core.export import md_escape
from trustuqa_core.llm.client import LLMClient

from . import state

__all__ = ["SYSTEMS", "system_choice", "unioqa_mode", "answer_unioqa", "current_view",
           "unioqa_area", "unioqa_result"]

SYSTEMS = ("TrustUQA", "UniOQA")
_KEY = "tq_system"
_RESULT = "tq_unioqa"


def system_choice() -> None:
    """The "Answer with" switch above the question box."""
    st.radio("Answer with", SYSTEMS, horizontal=True, key=_KEY,
             help="TrustUQA: the query language, mappings and the step-through. UniOQA: the "
                  "second system — a Cypher query (repaired by entity and relation "
                  "replacement, run on the embedded Ladybug graph database) and a retrieval "
                  "searcher, merged without labels.")


def unioqa_mode() -> bool:
    """True when the page answers with UniOQA."""
    return st.session_state.get(_KEY) == SYSTEMS[1]


def _client() -> tuple[LLMClient | None, str]:
    """An LLM client when the Settings choose a configured LLM, else None and why."""
    if state.settings().writer != "llm":
        return None, "offline translator (the Settings choose the offline writer)"
    try:
        settings = state.llm_settings()
    except TrustUQAError as err:
        return None, f"offline translator (the LLM settings are invalid: {err})"
    if not settings.configured:
        return None, "offline translator (no LLM is configured)"
    return LLMClient(settings), f"LLM ({settings.model})"


def answer_unioqa(question: str) -> None:
    """Answer ``question`` with UniOQA on the loaded data; the view is kept in the session."""
    rep, mapper = state.report(), state.mapper()
    assert rep is not None and mapper is not None
    client, who = _client()
    with st.status("Answering with UniOQA…", expanded=True) as status:
        status.write(f"Translator: {md_escape(who)}; ERR re-binds entities and relations and "
                     "runs each variant on Ladybug")
        view = unioqa_view(question, rep.graph, mapper, client=client,
                           privacy=state.settings().privacy)
        status.update(label="Answered" if view.answer else "Finished without an answer",
                      state="complete" if view.answer else "error", expanded=False)
    st.session_state[_RESULT] = view


def current_view() -> UniOQAView | None:
    """The session's latest UniOQA view, if any."""
    view = st.session_state.get(_RESULT)
    return view if isinstance(view, UniOQAView) else None


def unioqa_area(trustuqa_question: str | None) -> None:
    """The result area in UniOQA mode: the latest UniOQA view, and a pointer to the TrustUQA
    run kept meanwhile (``trustuqa_question``: its question, None when there is none)."""
    if trustuqa_question is not None:
        st.caption("The current TrustUQA run (“" + md_escape(trustuqa_question) + "”) is kept: "
                   "switch *Answer with* to TrustUQA to see it.")
    view = current_view()
    if view is not None:
        st.divider()
        unioqa_result(view)


def unioqa_result(view: UniOQAView) -> None:
    """Everything UniOQA did for one question (see the module docstring)."""
    st.subheader("UniOQA answer")
    st.caption("Question: " + md_escape(view.question))
    answer = ", ".join(f"**{md_escape(a)}**" for a in view.answer[:30])
    if view.error and not view.answer:
        st.error("No answer: " + md_escape(view.error))
    elif view.unverified:
        st.warning(f":material/smart_toy: {answer} — LLM-read, not executed (unverified)")
    else:
        st.info(f":material/database: {answer} — executed")
    code = re.sub(r"[^a-z_]", "", view.decision)  # a REASONS key, shown as code (no escaping)
    st.markdown(f"**Merge decision:** `{code}` — {md_escape(view.reason)}. "
                f"Kept: {md_escape(view.source_label)}.")
    if view.translator_verdict:
        st.caption("The translator's program, judged as a TrustUQA run: "
                   f"{md_escape(view.translator_verdict)}.")
    left, right = st.columns(2)
    with left.container(border=True):
        st.markdown("**Translator (executed)**")
        st.markdown(_answer_line(view.translator_answer))
        if view.translator_error:
            st.caption(md_escape(view.translator_error))
    with right.container(border=True):
        st.markdown("**Searcher (GRAG, LLM-read)**")
        st.markdown(_answer_line(view.searcher_answer) if view.searcher_ran
                    else "*did not run*")
        st.caption(md_escape(view.searcher_note))
    _cypher(view)
    _variants(view)
    _triples(view)
    st.download_button("Download this UniOQA run (JSON)", key="tq_unioqa_json",
                       data=json.dumps(view.record, ensure_ascii=False, indent=2, default=str),
                       file_name="unioqa_run.json", mime="application/json")


def _answer_line(values: list[str]) -> str:
    if not values:
        return "*no answer*"
    more = f" … and {len(values) - 20} more" if len(values) > 20 else ""
    return ", ".join(md_escape(v) for v in values[:20]) + more


def _cypher(view: UniOQAView) -> None:
    st.markdown("#### Cypher")
    st.caption(f"Written by: {md_escape(view.writer)}. Copy a query with the icon at the top "
               "right of its box; it runs on Neo4j or any openCypher database holding the "
               "graph as `(:Node {label})-[:Fact {rel}]->(:Node)`.")
    if view.cypher:
        st.markdown("As written")
        st.code(view.cypher, language="cypher")
    if view.rebuilt:
        st.markdown("After ERR (the kept variant's names written in)")
        st.code(view.rebuilt, language="cypher")
    if view.compiled:
        st.markdown("Compiled from the program (no chain form, so no ERR)")
        st.code(view.compiled, language="cypher")
    if not (view.cypher or view.compiled):
        st.caption("No Cypher was written.")


def _variants(view: UniOQAView) -> None:
    st.markdown("#### ERR variants")
    if not view.variants:
        st.caption("ERR did not run (no Cypher with literals to re-bind).")
        return
    st.caption("Each variant binds the query's entity and relation literals to names of the "
               "graph (score: the mapper's, 0–1); the first variant with an answer, by score, "
               "is kept.")
    st.dataframe(pd.DataFrame(view.variants), hide_index=True, key="tq_unioqa_variants")


def _triples(view: UniOQAView) -> None:
    st.markdown("#### Retrieved triples (GRAG)")
    entities = ", ".join(md_escape(e) for e in view.entities) or "none linked"
    st.caption(f"Entities: {entities}. {len(view.triples)} of {view.candidates} one-hop "
               "triples kept, best first; *names* lists the answers a triple contains.")
    if view.triples:
        st.dataframe(pd.DataFrame(view.triples), hide_index=True, key="tq_unioqa_triples")
