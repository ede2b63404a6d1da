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
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .results import Scalar
from .store import GraphStore

__all__ = ["FallbackRequest", "FallbackAnswer", "Fallback", "with_context", "MAX_PATH_VALUES",
           "MAX_ROWS"]

#: values shown per earlier step, and table rows shown with their cells, in a request
MAX_PATH_VALUES = 12
MAX_ROWS = 20


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
        path: the steps run before this one, each ``QueryN: call -> [values]`` (data values!).
        rows: the table rows those steps reached, each ``row: column=value | ...`` (data
            values!).
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
    path: tuple[str, ...] = ()
    rows: tuple[str, ...] = ()


@dataclass(frozen=True)
class FallbackAnswer:
    """The fallback's reply: ``values`` (None when it declines), and a note for the trace."""

    values: Sequence[str] | None
    note: str = ""
    prompt: str = field(default="", compare=False)


Fallback = Callable[[FallbackRequest], FallbackAnswer]


def _text(graph: GraphStore, e: Any) -> str:
    return e.text if isinstance(e, Scalar) else graph.label(e)


def with_context(fallback: Fallback, graph: GraphStore, steps: Sequence[Any]) -> Fallback:
    """``fallback``, with each request given the path of the steps run so far (``steps``: the
    trace's growing list of step records) and the cells of the table rows they reached, as
    the paper's fallback sees them. Whether any of it is sent is the fallback's decision
    (privacy)."""

    def ask(req: FallbackRequest) -> FallbackAnswer:
        path, rows = [], []
        for step in steps:
            elems = step.output.distinct().elems
            shown = [_text(graph, e) for e in elems[:MAX_PATH_VALUES]]
            more = f" (+{len(elems) - MAX_PATH_VALUES} more)" if len(elems) > MAX_PATH_VALUES \
                else ""
            path.append(f"Query{step.number}: {step.mapped_call} -> {shown}{more}")
            rows += [e for e in elems if not isinstance(e, Scalar) and graph.is_row(e)]
        cells = []
        for row in list(dict.fromkeys(rows))[:MAX_ROWS]:
            facts = graph.facts_head(row)
            pairs = [f"{graph.relation_names[r]}={graph.label(t)}" for r, t in
                     zip(graph.rels_of(facts).tolist(), graph.tails_of(facts).tolist(),
                         strict=True) if graph.relation_names[r] != "row_number"]
            cells.append(f"{graph.label(row)}: " + " | ".join(pairs))
        return fallback(replace(req, path=tuple(path), rows=tuple(cells)))

    return ask
