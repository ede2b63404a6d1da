"""LLM access for TrustUQA: settings resolution, an OpenAI-compatible client, a reply cache.

>>> from trustuqa_core.llm import LLMClient, ResponseCache, load_settings
>>> settings = load_settings()                       # doctest: +SKIP
>>> client = LLMClient(settings, ResponseCache(".cache/llm"))  # doctest: +SKIP
>>> client.check_connection().ok                     # doctest: +SKIP
True
>>> client.complete([{"role": "user", "content": "..."}], n=5)  # doctest: +SKIP
"""

from __future__ import annotations

from trustuqa_core.llm.cache import ResponseCache, request_key
from trustuqa_core.llm.client import (
    ConnectionStatus,
    LLMAuthError,
    LLMBadResponse,
    LLMClient,
    LLMError,
    LLMHTTPError,
    LLMModelNotFound,
    LLMNotConfigured,
    LLMRateLimited,
    LLMUnreachable,
    redact,
)
from trustuqa_core.llm.settings import (
    PRESETS,
    LLMSettings,
    Preset,
    SettingsError,
    load_settings,
)

# ``openai`` itself (~2 s to import) is loaded by ``client`` on first use only, so importing
# these names is cheap for the app and the offline writer.
__all__ = [
    "ResponseCache", "request_key",
    "ConnectionStatus", "LLMAuthError", "LLMBadResponse", "LLMClient", "LLMError",
    "LLMHTTPError", "LLMModelNotFound", "LLMNotConfigured", "LLMRateLimited", "LLMUnreachable",
    "redact",
    "PRESETS", "LLMSettings", "Preset", "SettingsError", "load_settings",
]
