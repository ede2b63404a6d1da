"""What the app's Settings page controls, as one immutable value kept per browser session.

The API key is not part of it: the app keeps the key apart, in the session's memory only.

>>> s = AppSettings(writer="llm", model="gpt-4o-mini")
>>> s.llm_fields()
{'base_url': '', 'model': 'gpt-4o-mini', 'n': 5, 'temperature': 0.7}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..llm.settings import LLMSettings

__all__ = ["AppSettings", "llm_gap", "writer_status", "writer_caption"]


@dataclass(frozen=True)
class AppSettings:
    """What the Settings page controls (the API key is kept apart by the app)."""

    writer: str = "offline"          # "offline" | "llm"
    preset: str = "OpenAI"
    base_url: str = ""
    model: str = ""
    k: int = 8
    m: int = 15
    n: int = 5
    temperature: float = 0.7
    privacy: bool = True             # True: never send data values to the LLM
    encoder: str = "lexical"         # "lexical" | "minilm"
    reference_first: bool = False    # True: example questions run their reference query only
    engine: str = "auto"             # uploads: "auto" | "memory" | "duckdb" (app_services.stores)

    def llm_fields(self) -> dict[str, Any]:
        """The page's LLM choices, as :func:`~trustuqa_core.llm.settings.visitor_settings`
        reads them (under the operator's rules)."""
        return {"base_url": self.base_url, "model": self.model, "n": self.n,
                "temperature": self.temperature}


def llm_gap(s: LLMSettings) -> str:
    """What keeps ``s`` from making a call, in words ("" when nothing does).

    >>> llm_gap(LLMSettings(base_url="https://api.openai.com/v1", model="gpt-4o-mini"))
    'the server at https://api.openai.com/v1 needs an API key and none is saved'
    >>> llm_gap(LLMSettings(base_url="http://localhost:11434/v1"))
    'no model is set'
    >>> llm_gap(LLMSettings(base_url="http://localhost:11434/v1", model="llama3"))
    ''
    """
    if not s.base_url:
        return "no server URL is set"
    if not s.model:
        return "no model is set"
    if s.needs_key and not s.api_key:
        return f"the server at {s.base_url} needs an API key and none is saved"
    return ""


def writer_status(writer: str, s: LLMSettings | None) -> str:
    """Who writes the queries with these settings, in one sentence (plain text: the page
    escapes it). ``writer`` is the Settings choice; ``s`` the LLM settings (None: unreadable,
    said elsewhere).

    >>> writer_status("offline", None)
    'The offline writer writes the queries: no LLM is called.'
    >>> writer_status("llm", LLMSettings(base_url="https://api.openai.com/v1", model="gpt-4o"))
    ... # doctest: +NORMALIZE_WHITESPACE
    'An LLM is chosen, but the server at https://api.openai.com/v1 needs an API key and none is
    saved: the offline writer writes the queries until then.'
    >>> writer_status("llm", LLMSettings(base_url="http://localhost:11434/v1", model="llama3"))
    'The LLM llama3 at http://localhost:11434/v1 writes the queries (this server needs no key).'
    """
    if writer != "llm" or s is None:
        return "The offline writer writes the queries: no LLM is called."
    gap = llm_gap(s)
    if gap:
        return f"An LLM is chosen, but {gap}: the offline writer writes the queries until then."
    key = "key saved" if s.api_key else "this server needs no key"
    return f"The LLM {s.model} at {s.base_url} writes the queries ({key})."


def writer_caption(writer: str, s: LLMSettings | None) -> str:
    """The sidebar's line on who writes the queries (plain text: the app escapes it); ``s`` is
    None when the LLM settings cannot be read (the Settings page says why).

    >>> writer_caption("offline", None)
    'Writer: offline (no LLM configured or used)'
    >>> writer_caption("llm", LLMSettings(base_url="https://api.openai.com/v1", model="gpt-4o"))
    ... # doctest: +NORMALIZE_WHITESPACE
    'Writer: offline — the LLM chosen in Settings cannot be called (the server at
    https://api.openai.com/v1 needs an API key and none is saved)'
    >>> writer_caption("llm", LLMSettings(base_url="http://localhost:11434/v1", model="llama3"))
    'Writer: LLM llama3 · no key needed'
    """
    if writer != "llm":
        return "Writer: offline (no LLM configured or used)"
    if s is None:
        return "Writer: offline — the LLM settings cannot be read (see Settings)"
    if not s.configured:
        return f"Writer: offline — the LLM chosen in Settings cannot be called ({llm_gap(s)})"
    return f"Writer: LLM {s.model} · {'key set' if s.api_key else 'no key needed'}"
