"""The hook through which the executor asks for an LLM-inferred step (paper 3.2, appendix F).

The executor never calls an LLM itself. When a query uses a function the language does not
define, or compares values that are not numbers, it builds a :class:`FallbackRequest` and,
if a fallback was given, records the :class:`FallbackAnswer` as an *LLM-inferred, not verified*
step. Without a fallback such a step stays unanswered and the trace says so.

>>> def always_no(req: FallbackRequest) -> FallbackAnswer:
...     return FallbackAnswer(None, "declined")
>>> always_no(FallbackRequest("function", 3, "compare(a='1')", "", {}, [])).values is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["FallbackRequest", "FallbackAnswer", "Fallback"]


@dataclass(frozen=True)
class FallbackRequest:
    """What an LLM would need to answer one step.

    Attributes:
        kind: ``function`` (undefined function), ``compare`` (non-numeric comparison),
            ``extremum`` (max/min over non-numbers).
        query: the query number as written.
        call: the call as text.
        description: the ``StepN`` text the LLM wrote for it.
        inputs: argument name -> the values it refers to (data values!).
        candidates: for compare/extremum, the values to choose among.
        question: the user's question, when known.
        operator: the comparison operator for ``compare``.
        threshold: the value compared against, for ``compare``.
    """

    kind: Literal["function", "compare", "extremum"]
    query: int
    call: str
    description: str
    inputs: Mapping[str, Sequence[str]]
    candidates: Sequence[str]
    question: str | None = None
    operator: str = ""
    threshold: str = ""


@dataclass(frozen=True)
class FallbackAnswer:
    """The fallback's reply: ``values`` (None when it declines), and a note for the trace."""

    values: Sequence[str] | None
    note: str = ""
    prompt: str = field(default="", compare=False)


Fallback = Callable[[FallbackRequest], FallbackAnswer]
