"""Helpers behind the Streamlit pages: data loading, runs, views (pages stay thin).

Modules without Streamlit imports (:mod:`.samples`, :mod:`.data`, :mod:`.runs`) are plain
functions over the core API; :mod:`.state`, :mod:`.views` and :mod:`.charts` render.
"""

from __future__ import annotations

__all__: list[str] = []
