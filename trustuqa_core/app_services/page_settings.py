"""What the app's Settings page controls, as one immutable value kept per browser session.

The API key is not part of it: the app keeps the key apart, in the session's memory only.

>>> s = AppSettings(writer="llm", model="gpt-4o-mini")
>>> s.llm_fields()
{'base_url': '', 'model': 'gpt-4o-mini', 'n': 5, 'temperature': 0.7}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["AppSettings"]


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
