"""Session state and shared resources of the Streamlit app.

Per-session things (loaded files, the current run, settings, the API key) live in
``st.session_state``; the graph, the mapper and the encoder are ``st.cache_resource`` objects
shared by all sessions and keyed by the loaded files' content, so the same data is read once.
The API key is kept only in this session's memory: never written to disk, logs or exports.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import streamlit as st

from trustuqa_core.app_services.ask import bundled_demos
from trustuqa_core.app_services.data import LoadReport, Upload, data_key, load_all, unique_names
from trustuqa_core.app_services.history import find_run, remember
from trustuqa_core.app_services.page_settings import AppSettings
from trustuqa_core.app_services.runs import Run
from trustuqa_core.app_services.stores import (
    BuildJobs,
    allowed_dirs,
    open_store_path,
    store_sample_facts,
)
from trustuqa_core.demos import (
    Demo,
    DemoPool,
    UserDemoStore,
    confirm_demo,
    initial_demos,
    with_demos,
)
from trustuqa_core.errors import LimitError
from trustuqa_core.export import SourceStamp
from trustuqa_core.limits import DEFAULT_LIMITS, current_limits
from trustuqa_core.llm.settings import LLMSettings, Operator, operator_config, visitor_settings
from trustuqa_core.mapping import Encoder, HashingEncoder, Mapper, default_encoder

__all__ = ["settings", "update_settings", "uploads", "set_uploads", "report",
           "mapper", "stamps", "current_run", "set_run", "api_key", "set_api_key",
           "loaded_names", "llm_settings", "operator", "confirmed_demos", "add_confirmed_demo",
           "demo_pool", "store_demo", "session_demos", "history", "reopen", "store_path",
           "set_store", "data_id", "build_jobs", "store_dirs", "limits_problem"]


def limits_problem() -> str | None:
    """The operator's ``TRUSTUQA_LIMIT_*`` mistake, or ``None`` when the limits read well
    (``app.py`` shows it and stops, so nothing is loaded under limits nobody chose)."""
    try:
        current_limits()
    except LimitError as err:
        return str(err)
    return None


# graphs kept per process; the default when the limits are invalid (the app stops anyway)
_GRAPH_ENTRIES = (DEFAULT_LIMITS if limits_problem() else current_limits()).graph_cache_entries


_SOURCES, _RUN, _SETTINGS, _KEY, _DEMOS = ("tq_sources", "tq_run", "tq_settings", "tq_api_key",
                                           "tq_confirmed_demos")
_USER_DEMOS, _POOL, _HISTORY = "tq_user_demos", "tq_demo_pool", "tq_history"
_STORE = "tq_store"


def settings() -> AppSettings:
    return st.session_state.get(_SETTINGS) or AppSettings()


def update_settings(**changes: Any) -> AppSettings:
    new = replace(settings(), **changes)
    st.session_state[_SETTINGS] = new
    return new


def api_key() -> str | None:
    """The API key typed in this session (never shown back, never persisted)."""
    return st.session_state.get(_KEY) or None


def set_api_key(key: str | None) -> None:
    st.session_state[_KEY] = (key or "").strip() or None


def operator() -> Operator:
    """The operator's configuration (:class:`~trustuqa_core.llm.settings.Operator`): where
    their key may go, whether LLM settings are locked, whether user demos are shared."""
    return operator_config()


def llm_settings() -> LLMSettings:
    """:class:`~trustuqa_core.llm.LLMSettings` from the page settings under the operator's
    rules (:func:`~trustuqa_core.llm.settings.visitor_settings`): the operator's key is sent
    only to the operator's server, and locked settings ignore what the session holds.

    Raises :class:`~trustuqa_core.llm.SettingsError` (``KeyRequired`` when the visitor chose
    another server without a key of their own).
    """
    return visitor_settings(settings().llm_fields(), api_key())


# ------------------------------------------------------------------------------ data
def uploads() -> list[Upload]:
    return list(st.session_state.get(_SOURCES, []))


def set_uploads(items: Sequence[Upload]) -> None:
    """Replace the loaded files (names made unique); the current run is dropped, and so is
    an opened DuckDB store."""
    st.session_state[_SOURCES] = unique_names(items)
    st.session_state.pop(_RUN, None)
    st.session_state.pop(_STORE, None)


# ------------------------------------------------------------------ DuckDB stores
def store_dirs() -> list[Path]:
    """The folders the operator allows stores to be opened from (TRUSTUQA_STORE_DIRS)."""
    return allowed_dirs()


@st.cache_resource(show_spinner=False)
def build_jobs() -> BuildJobs:
    """The store builds of this process (background threads), shared by all sessions."""
    return BuildJobs()


def store_path() -> str | None:
    """The DuckDB store this session has open instead of uploaded files, if any."""
    return st.session_state.get(_STORE)


def set_store(path: str) -> None:
    """Open the store at ``path`` (checked to be inside :func:`store_dirs`) as this session's
    data, replacing uploaded files; the current run is dropped."""
    st.session_state[_SOURCES] = []
    st.session_state.pop(_RUN, None)
    st.session_state[_STORE] = path


@st.cache_resource(max_entries=_GRAPH_ENTRIES, show_spinner=False)
def _open_store(path: str, stamp: tuple[int, int]) -> LoadReport:
    graph = open_store_path(path, store_dirs())
    return LoadReport(store_sample_facts(graph), [], graph)


def _stat(path: str) -> tuple[int, int]:
    try:
        info = Path(path).resolve().stat()
    except OSError:
        return (0, 0)
    return (info.st_mtime_ns, info.st_size)


def data_id() -> tuple[tuple[str, ...], ...]:
    """A key of what this session has loaded (files and engine, or the store file)."""
    path = store_path()
    if path is not None:
        return (("store", path, *map(str, _stat(path))),)
    return (*data_key(uploads()), ("engine", settings().engine))


def loaded_names() -> set[str]:
    rep = report()
    return {s.name for s in rep.graph.sources} if rep else set()


# graphs and their mappers kept per process (all sessions): TRUSTUQA_LIMIT_GRAPH_CACHE_ENTRIES
@st.cache_resource(max_entries=_GRAPH_ENTRIES, show_spinner=False)
def _load(key: tuple[tuple[str, str, str], ...], engine: str,
          _items: tuple[Upload, ...]) -> LoadReport:
    return load_all(_items, engine)


def report() -> LoadReport | None:
    """The loaded data (graph + per-file errors) for this session's files or opened store
    (its ``facts`` then hold a sample of each source), or None."""
    path = store_path()
    if path is not None:
        return _open_store(path, _stat(path))
    items = tuple(uploads())
    if not items:
        return None
    return _load(data_key(items), settings().engine, items)


def stamps() -> list[SourceStamp]:
    """Name, kind and content hash of each successfully loaded file."""
    rep = report()
    ok = {f.name for f in rep.facts} if rep else set()
    return [u.stamp for u in uploads() if u.name in ok]


@st.cache_resource(show_spinner=False)
def _encoder(name: str) -> Encoder | None:
    if name != "minilm":
        return None
    return default_encoder()  # loads lazily, on the first dense lookup


@st.cache_resource(max_entries=_GRAPH_ENTRIES, show_spinner=False)
def _mapper(key: tuple[tuple[str, ...], ...], encoder: str, _report: LoadReport) -> Mapper:
    return Mapper(_report.graph, _encoder(encoder))


def mapper() -> Mapper | None:
    rep = report()
    if rep is None:
        return None
    return _mapper(data_id(), settings().encoder, rep)


# ------------------------------------------------------------------------------ runs
def current_run() -> Run | None:
    return st.session_state.get(_RUN)


def set_run(run: Run | None) -> None:
    """Make ``run`` the current run and keep it in the session's history."""
    st.session_state[_RUN] = run
    if run is not None:
        st.session_state[_HISTORY] = remember(history(), run)


def history() -> list[Run]:
    """This session's runs, oldest first (see :mod:`trustuqa_core.app_services.history`)."""
    return list(st.session_state.get(_HISTORY, []))


def reopen(rid: str) -> Run | None:
    """Make an earlier run of the history current again (its place in the history is kept).

    Its data must still be loaded: a run whose sources are not all loaded is not reopened."""
    run = find_run(history(), rid)
    if run is not None and {s.name for s in run.trace.graph.sources} <= loaded_names():
        st.session_state[_RUN] = run
        return run
    return None


def confirmed_demos() -> list[dict[str, Any]]:
    """Answers the user confirmed in this session (question, query, answer, sources)."""
    return list(st.session_state.get(_DEMOS, []))


def add_confirmed_demo(demo: dict[str, Any]) -> None:
    items = [d for d in confirmed_demos() if d["question"] != demo["question"]]
    st.session_state[_DEMOS] = [*items, demo]


def session_demos() -> list[Demo]:
    """This session's confirmed answers as :class:`~trustuqa_core.demos.Demo` objects
    (re-executed before they were kept)."""
    return list(st.session_state.get(_USER_DEMOS, []))


@st.cache_resource(max_entries=4, show_spinner=False)
def _pool(signature: tuple[str, float, int], encoder: str) -> DemoPool:
    """Initial and bundled demos, plus the shared store's when the operator enabled it: one
    pool for all sessions (it never holds a session's own demos)."""
    enc = _encoder(encoder) or HashingEncoder()
    shared = UserDemoStore().load() if signature[0] else []
    return DemoPool(initial_demos() + shared + bundled_demos(), enc)


def demo_pool() -> DemoPool:
    """The shared pool plus this session's confirmed demos (rebuilt when either changes)."""
    store = UserDemoStore()
    shared = operator().shared_user_demos
    signature = (str(store.path) if shared else "", *(store.signature() if shared else (0, 0)))
    base = _pool(signature, settings().encoder)
    mine = session_demos()
    key = (signature, settings().encoder, tuple(d.id for d in mine))
    cached = st.session_state.get(_POOL)
    if cached is None or cached[0] != key:
        cached = (key, with_demos(base, mine))
        st.session_state[_POOL] = cached
    return cached[1]


def store_demo(question: str, query: str, answer: list[str], kind: str, graph: Any) -> str:
    """Keep a confirmed answer as a demonstration, once its query re-executed on ``graph``
    (the data it came from) reproduces it; in this session, and in the shared store only
    when the operator enabled sharing. Returns where it was kept.

    Raises :class:`~trustuqa_core.demos.DemoNotReproduced` when the query alone does not give
    the answer (e.g. it came from a mapping override).
    """
    demo = confirm_demo(question, query, answer, graph, kind, mapper=mapper(),
                        data=[s.sha256 for s in stamps()])
    items = [d for d in session_demos() if d.question != demo.question]
    st.session_state[_USER_DEMOS] = [*items, demo]
    if operator().shared_user_demos:
        UserDemoStore().add(demo)
        return "this session and the store shared by all users of this app"
    return "this session only"
