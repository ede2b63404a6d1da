"""Re-execution checks: a demo is trusted only when its query reproduces its answer.

:class:`ExecutionVerifier` checks retrieved demos on their own data (memoised);
:func:`confirm_demo` turns a user-confirmed answer into a demo only when its query,
re-executed without overrides, gives that answer (else :class:`DemoNotReproduced`).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..answer_match import denotation_match
from ..errors import TrustUQAError
from ..execute import run_query
from ..graph import build_graph
from ..store import GraphStore
from .model import Demo, DemoSource

__all__ = ["Verifier", "ExecutionVerifier", "DemoNotReproduced", "confirm_demo"]

log = logging.getLogger(__name__)

Verifier = Callable[[Demo], "bool | None"]


@dataclass
class ExecutionVerifier:
    """Re-executes a demo's query on its own data; True when it yields the labelled answer.

    A demo without an answer (recorded queries) must run without error and give a non-empty
    answer on its own data. ``None`` (cannot tell) when the demo has no sources or its data
    cannot be read.
    Results are memoised per demo id; the last ``max_graphs`` graphs are kept.
    """

    max_graphs: int = 16
    _memo: dict[str, bool | None] = field(default_factory=dict, repr=False)
    _graphs: OrderedDict[tuple[DemoSource, ...], GraphStore] = field(
        default_factory=OrderedDict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __call__(self, demo: Demo) -> bool | None:
        if demo.id in self._memo:
            return self._memo[demo.id]
        result = self._check(demo)
        with self._lock:
            self._memo[demo.id] = result
        return result

    def _check(self, demo: Demo) -> bool | None:
        if not demo.sources:
            return None
        try:
            graph = self.graph(demo.sources)
        except (TrustUQAError, OSError) as err:
            log.info("cannot verify demo %s: %s", demo.id, err)
            return None
        trace = run_query(demo.query, graph)
        if not demo.answer:
            return trace.error is None and bool(trace.answer)
        return denotation_match(trace.answer, demo.answer)

    def graph(self, sources: tuple[DemoSource, ...]) -> GraphStore:
        """The graph of a demo's sources (cached)."""
        with self._lock:
            graph = self._graphs.get(sources)
            if graph is not None:
                self._graphs.move_to_end(sources)
                return graph
        graph = build_graph([s.load() for s in sources])
        with self._lock:
            self._graphs[sources] = graph
            while len(self._graphs) > self.max_graphs:
                self._graphs.popitem(last=False)
        return graph



class DemoNotReproduced(TrustUQAError):
    """A confirmed answer whose query, re-executed on its data, does not give that answer."""


def confirm_demo(question: str, query: str, answer: Sequence[str], graph: GraphStore,
                 kind: str, *, mapper: Any = None, data: Sequence[str] = ()) -> Demo:
    """A user-confirmed answer as a demo (origin ``user``), once its query reproduces it.

    The query is re-executed on ``graph`` (the data the answer came from) with no mapping
    override: an answer that only a manual override, an edit or a stale run produced is
    refused. ``data`` (content hashes of the sources) is recorded with the demo.

    Raises:
        DemoNotReproduced: the re-executed query fails or gives another answer.

    >>> from trustuqa_core.translate import load_source
    >>> g = build_graph([load_source(b"Name,Nation\\nAnn,Italy\\n", "table", "t.csv")])
    >>> q = "Query1: \\"get_information(relation='Nation', head_entity='Ann')\\""
    >>> confirm_demo("Where is Ann from?", q, ["Italy"], g, "table").meta["verified"]
    True
    >>> confirm_demo("Where is Ann from?", q, ["Spain"], g, "table")
    Traceback (most recent call last):
    ...
    trustuqa_core.demos.verify.DemoNotReproduced: the query, re-executed on its data, gives Italy, \
not the confirmed answer Spain
    """
    if not question.strip() or not answer:
        raise DemoNotReproduced("only a question with an answer can become a demonstration")
    trace = run_query(query, graph, mapper)
    if trace.error is not None:
        raise DemoNotReproduced(f"the query no longer runs on its data: {trace.error.message}")
    got = trace.answer
    if not denotation_match(got, list(answer)):
        raise DemoNotReproduced(
            f"the query, re-executed on its data, gives {', '.join(got) or 'nothing'}, not the "
            f"confirmed answer {', '.join(answer)}")
    return Demo(question, query, tuple(answer), kind, "user",
                meta={"verified": True, "data": list(data)})
