"""The LLM writer: instructions + k retrieved demos + the schema + the question -> n samples.

The messages are built by :func:`~trustuqa_core.llm.prompts.build_messages`; demos are shown
most similar *last* (closest to the question). A demo is shown with its own data's schema when
its files can be read, described like the question's (example values, or formats only under
privacy). Retries add a note with the latest failed program, its error and the step that came
back empty (:mod:`~trustuqa_core.llm.retries`; no data values under privacy).
"""

from __future__ import annotations

import logging
from functools import lru_cache

from ..demos import Demo, DemoSource
from ..errors import TrustUQAError
from ..graph import build_graph
from ..llm.budget import context_warning, estimate_tokens
from ..llm.client import LLMClient
from ..llm.prompts import PromptDemo, build_messages, describe_schema
from ..llm.retries import retry_note
from ..trace import Trace
from .base import WriteRequest, Written

__all__ = ["LLMWriter", "demo_schema"]

log = logging.getLogger(__name__)


@lru_cache(maxsize=512)
def _schema_of(sources: tuple[DemoSource, ...], question: str, examples: bool) -> str | None:
    try:
        graph = build_graph([s.load() for s in sources])
    except (TrustUQAError, OSError) as err:
        log.info("no schema for a demo (%s)", err)
        return None
    return describe_schema(graph, question, examples=examples).text


def demo_schema(demo: Demo, examples: bool = True) -> str | None:
    """The schema block shown with a demo (None when it has no data or it cannot be read);
    ``examples`` as for the question's schema."""
    if not demo.sources:
        return None
    return _schema_of(demo.sources, demo.question, examples)


def _latest_failure(request: WriteRequest, stage: str) -> tuple[str, Trace | None]:
    """The latest failed sample at ``stage`` (else the latest failed one), or ``("", None)``."""
    for text, trace in reversed(request.failures):
        found = trace.error.stage if trace.error else "empty"
        if found == stage:
            return text, trace
    return request.failures[-1] if request.failures else ("", None)


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
        examples = request.schema.examples
        demos = [PromptDemo(r.demo.question, r.demo.query, demo_schema(r.demo, examples))
                 for r in reversed(request.demos)]
        note = ""
        if attempt:
            stage = failed_stage or "execution"
            text, trace = _latest_failure(request, stage)
            note = retry_note(attempt, stage, text, trace, privacy=request.privacy,
                              question=request.question)
        return build_messages(request.question, request.schema, demos, note=note)

    def write(self, request: WriteRequest, n: int, attempt: int = 0,
              failed_stage: str = "") -> Written:
        """``n`` samples (raises :class:`~trustuqa_core.llm.client.LLMError` on failure)."""
        messages = self.messages(request, attempt, failed_stage)
        settings = self.client.settings
        tokens = estimate_tokens(messages)
        warning = context_warning(messages, settings.context_tokens, settings.model)
        texts = self.client.complete(messages, n=n)
        return Written(texts, messages, [f"sample {i + 1} from {self.name}"
                                         for i in range(len(texts))],
                       [warning] if warning else [], tokens)
