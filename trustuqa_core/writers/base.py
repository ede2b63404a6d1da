"""What every query writer takes and returns.

A writer turns a question (plus retrieved demonstrations and the graph's schema) into query
texts: an LLM writer asks a model for ``n`` samples, the offline writer re-binds demos and links
the question to a table schema. ``answer()`` then executes and votes on the texts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..demos import DemoPool, Retrieved
from ..llm.prompts import Schema
from ..mapping.mapper import Mapper
from ..store import GraphStore
from ..trace import Trace

__all__ = ["WriteRequest", "Written", "Writer"]


@dataclass(frozen=True)
class WriteRequest:
    """Everything a writer may use for one question.

    Attributes:
        question: the user's question.
        graph, mapper: the data (the offline writer uses them; an LLM writer never sends
            data beyond ``schema``).
        schema: what the LLM may be told about the graph.
        demos: retrieved demonstrations, most similar first.
        pool: the pool they came from (the offline writer searches it for templates).
        exclude_origins: demo origins that must not be used (the split being scored).
        kinds: demo kinds that fit the graph.
        failures: ``(query text, trace)`` of samples that gave no answer, in the order they
            ran (``answer()`` appends them; a retry shows the latest to the model).
        privacy: no data value may be sent to the LLM (schema and retry notes obey it).
    """

    question: str
    graph: GraphStore
    mapper: Mapper
    schema: Schema
    demos: Sequence[Retrieved]
    pool: DemoPool | None = None
    exclude_origins: Sequence[str] = ()
    kinds: Sequence[str] = ()
    failures: list[tuple[str, Trace]] = field(default_factory=list)
    privacy: bool = True


@dataclass
class Written:
    """Query texts of one attempt, what was sent (or how they were made), a note per text,
    warnings for the user (e.g. a prompt longer than the model's context) and the prompt's
    estimated tokens (0 when no prompt was sent)."""

    texts: list[str]
    prompt: list[dict[str, str]] | str
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    prompt_tokens: int = 0


class Writer(Protocol):
    """Writes ``n`` query texts for attempt ``attempt`` (0 first; later ones after failures)."""

    @property
    def name(self) -> str: ...

    def write(self, request: WriteRequest, n: int, attempt: int = 0,
              failed_stage: str = "") -> Written: ...
