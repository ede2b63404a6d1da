"""TrustUQA: checkable question answering over tables, KGs and temporal KGs (Streamlit app).

Run with ``streamlit run app.py``. The pages are thin: they call the Streamlit views of
``trustuqa_app`` (beside this file), which show what ``trustuqa_core`` computes; the graph,
mapper and encoder are shared resources keyed by the loaded files' content. No API key is
needed: the bundled examples and hand-written queries run fully offline.
"""

from __future__ import annotations

import streamlit as st

from trustuqa_app import state
from trustuqa_app.history_views import history_sidebar
from trustuqa_core.app_services.page_settings import writer_caption
from trustuqa_core.errors import TrustUQAError
from trustuqa_core.export import md_escape

# an emoji favicon is drawn in the page; a :material: one is fetched from fonts.gstatic.com
st.set_page_config(page_title="TrustUQA", page_icon="✅", layout="wide")

problem = state.limits_problem()
if problem is not None:  # an operator setting that cannot be read: say which, load nothing
    st.error(f"The app's limits are misconfigured: {md_escape(problem)}. Fix the environment "
             "variable (or remove it to use the default) and restart the app.")
    st.stop()

PAGES = [
    st.Page("pages/1_Data.py", title="Data", icon=":material/database:", default=True),
    st.Page("pages/2_Ask.py", title="Ask", icon=":material/question_answer:"),
    st.Page("pages/3_Evaluate.py", title="Evaluate", icon=":material/monitoring:"),
    st.Page("pages/4_Settings.py", title="Settings", icon=":material/settings:"),
]
# the app draws its own page links: Streamlit's sidebar navigation is off
# (.streamlit/config.toml: client.showSidebarNavigation = false), since on a session's first
# load it lists the pages/ folder (with an "app" entry) until this script has run
page = st.navigation(PAGES, position="hidden")

with st.sidebar:
    for link in PAGES:
        st.page_link(link)
    st.divider()
    st.markdown("### TrustUQA")
    st.caption("The LLM only writes a query; every answer is executed on your data and "
               "traced back to source rows and triples.")
    rep = state.report()
    if rep is not None and rep.facts:
        st.markdown("**Loaded data**")
        for s in rep.graph.sources:
            st.caption(f"{md_escape(s.name)} · {s.kind} · {s.n_facts:,} facts")
    else:
        st.caption("No data loaded.")
    cfg = state.settings()
    try:
        llm = state.llm_settings() if cfg.writer == "llm" else None
    except TrustUQAError:  # the Settings page says what is wrong
        llm = None
    st.caption(md_escape(writer_caption(cfg.writer, llm)))

page.run()
with st.sidebar:  # after the page, so a run made on this rerun is already listed
    history_sidebar()
