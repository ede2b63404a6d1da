"""The LLM writer: instructions + k retrieved demos + the schema + the question -> n samples.

The messages are built by :func:`~trustuqa_core.llm.prompts.build_messages`; demos are shown
most similar *last* (closest to the question). A table demo is shown with its own table's schema
when its file can be read. Retries add a short note naming the failing stage (never data).
"""

from __future__ import annotations

import logging
from functools import lru_cache

from ..demos import Demo, DemoSource
from ..errors import TrustUQAError
from ..graph import build_graph
from ..llm.client import LLMClient
from ..llm.prompts import PromptDemo, build_messages, describe_schema, retry_note
from .base import WriteRequest, Written

__all__ = ["LLMWriter", "demo_schema"]

log = logging.getLogger(__name__)


@lru_cache(maxsize=512)
def _schema_of(sources: tuple[DemoSource, ...]) -> str | None:
    try:
        graph = build_graph([s.load() for s in sources])
    except (TrustUQAError, OSError) as err:
        log.info("no schema for a demo (%s)", err)
        return None
    return describe_schema(graph).text


def demo_schema(demo: Demo) -> str | None:
    """The schema block shown with a table demo (None for KG demos or unreadable data)."""
    if demo.kind != "table" or not demo.sources:
        return None
    return _schema_of(demo.sources)


class LLMWriter:
    """Asks an OpenAI-compatible model (through :class:`LLMClient`) for query programs."""

    def __init__(self, client: LLMClient) -> None:
        self.client = client

    @property
    def name(self) -> str:
        return f"llm:{self.client.settings.model}"

    def messages(self, request: WriteRequest, attempt: int = 0,
                 failed_stage: str = "") -> list[dict[str, str]]:
        """The exact chat messages for one attempt."""
        demos = [PromptDemo(r.demo.question, r.demo.query, demo_schema(r.demo))
                 for r in reversed(request.demos)]
        note = retry_note(attempt, failed_stage or "execution") if attempt else ""
        return build_messages(request.question, request.schema, demos, note=note)

    def write(self, request: WriteRequest, n: int, attempt: int = 0,
              failed_stage: str = "") -> Written:
        """``n`` samples (raises :class:`~trustuqa_core.llm.client.LLMError` on failure)."""
        messages = self.messages(request, attempt, failed_stage)
        texts = self.client.complete(messages, n=n)
        return Written(texts, messages, [f"sample {i + 1} from {self.name}"
                                         for i in range(len(texts))])
