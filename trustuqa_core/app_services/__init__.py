"""The services behind the Streamlit app, without Streamlit: what the screen shows, computed.

The views themselves live outside the core, in the top-level ``trustuqa_app`` package beside
``app.py`` and ``pages/``; everything here runs and tests without Streamlit installed.

- :mod:`.samples`: the bundled sample data sets and their example questions;
- :mod:`.data`: loading uploaded files and samples into one graph, per-file errors, statistics;
- :mod:`.runs`: one question's run (query, overrides, trace): executed, re-run, imported;
- :mod:`.run_tables`: the rows the Ask page shows about a run (mappings, elements, evidence);
- :mod:`.ask`: who writes the query for a question (a verified query, or ``answer()``);
- :mod:`.page_settings`: what the Settings page controls (:class:`~.page_settings.AppSettings`);
- :mod:`.charts`: the plotly figures (plain rows in, figures out);
- :mod:`.benchmark_slice`: the small benchmark slice of the Evaluate page.

>>> from trustuqa_core.app_services.samples import question_match_key
>>> question_match_key("Who won?")
'who won'
"""

from __future__ import annotations

__all__: list[str] = []
