"""LLM access for TrustUQA: settings resolution, an OpenAI-compatible client, a reply cache.

>>> from trustuqa_core.llm import LLMClient, ResponseCache, load_settings
>>> settings = load_settings()                       # doctest: +SKIP
>>> client = LLMClient(settings, ResponseCache(".cache/llm"))  # doctest: +SKIP
>>> client.check_connection().ok                     # doctest: +SKIP
True
>>> client.complete([{"role": "user", "content": "..."}], n=5)  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Names are imported lazily (PEP 562): importing the ``openai`` package costs ~2 s, which the
# app and the offline writer should not pay unless an LLM is actually used.
_WHERE = {
    "ResponseCache": "cache", "request_key": "cache",
    "ConnectionStatus": "client", "LLMAuthError": "client", "LLMBadResponse": "client",
    "LLMClient": "client", "LLMError": "client", "LLMHTTPError": "client",
    "LLMModelNotFound": "client", "LLMNotConfigured": "client", "LLMRateLimited": "client",
    "LLMUnreachable": "client", "redact": "client",
    "PRESETS": "settings", "LLMSettings": "settings", "Preset": "settings",
    "SettingsError": "settings", "load_settings": "settings",
}

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
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


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'trustuqa_core.llm' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"trustuqa_core.llm.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "PRESETS",
    "ConnectionStatus",
    "LLMAuthError",
    "LLMBadResponse",
    "LLMClient",
    "LLMError",
    "LLMHTTPError",
    "LLMModelNotFound",
    "LLMNotConfigured",
    "LLMRateLimited",
    "LLMSettings",
    "LLMUnreachable",
    "Preset",
    "ResponseCache",
    "SettingsError",
    "load_settings",
    "redact",
    "request_key",
]
