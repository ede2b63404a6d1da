"""The services behind the Streamlit app, without Streamlit: what the screen shows, computed.

The views themselves live outside the core, in the top-level ``trustuqa_app`` package beside
``app.py`` and ``pages/``; everything here runs and tests without Streamlit installed.

- :mod:`.samples`: the bundled sample data sets and their example questions;
- :mod:`.data`: loading uploaded files and samples into one graph, per-file errors, statistics;
- :mod:`.sql_source`: a read-only SQL query's result as a table snapshot (Data page);
- :mod:`.unioqa_view`: the Ask page's UniOQA view (Cypher, ERR variants, GRAG triples, merge);
- :mod:`.runs`: one question's run (query, overrides, trace): executed, re-run, imported;
- :mod:`.run_tables`: the rows the Ask page shows about a run (mappings, elements, evidence);
- :mod:`.ask`: who writes the query for a question (a confirmed query, or ``answer()``; an
  example question's reference query is run beside the writer's);
- :mod:`.compare`: who wrote a query (labels), query diffs, two runs side by side;
- :mod:`.stages`: the guided step-through's stages of a run, as plain data;
- :mod:`.history`: the session's history of runs;
- :mod:`.page_settings`: what the Settings page controls (:class:`~.page_settings.AppSettings`);
- :mod:`.charts`: the plotly figures (plain rows in, figures out);
- :mod:`.benchmark_slice`: the small benchmark slice of the Evaluate page (the questions left
  out of the accuracy and why, clean question texts, "open in Ask").

>>> from trustuqa_core.app_services.samples import question_match_key
>>> question_match_key("Who won?")
'who won'
"""

from __future__ import annotations

__all__: list[str] = []
