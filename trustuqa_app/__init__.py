"""The Streamlit views of the app: what ``app.py`` and ``pages/`` draw (the pages stay thin).

Only this package imports Streamlit. What the views show is computed by the Streamlit-free
services in :mod:`trustuqa_core.app_services`; session state and the shared caches are in
:mod:`.state`.

- :mod:`.state`: per-session state and the shared resources (graph, mapper, demo pool);
- :mod:`.data_views`: the Data page (samples, uploads, previews, statistics);
- :mod:`.ask_page`: the Ask page (question box, the run's views, the trust loop);
- :mod:`.views` and :mod:`.explain_views`: a run's answer, steps, mappings, evidence, export;
- :mod:`.evaluate_views`: the Evaluate page (a benchmark slice and its metrics);
- :mod:`.settings_views`: the Settings page (LLM connection, pipeline).
"""

from __future__ import annotations

__all__: list[str] = []
