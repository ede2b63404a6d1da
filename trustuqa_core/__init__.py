"""TrustUQA core: checkable question answering over tables, KGs and temporal KGs.

An LLM never answers directly: it writes a small query; the query's literals are mapped onto
the data; fixed rules turn it into an execution plan; a deterministic executor runs it and
records every intermediate result with the facts behind it.

>>> g = load_graph(tables=[b"Name,Year\\nAnn,1999\\nBob,2004\\n"])
>>> run_query("Query1: \\"get_information(relation='Year', tail_entity>'2000')\\"\\n"
...           "Query2: \\"get_information(relation='Name', head_entity='output_of_query1')\\"",
...           g).answer
['Bob']
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .answer import Answer, answer
from .errors import (
    ExecutionError,
    MappingError,
    ModelUnavailableError,
    ParseError,
    RewriteError,
    SourceError,
    TrustUQAError,
)
from .execute import execute, run_program, run_query
from .fallback import Fallback, FallbackAnswer, FallbackRequest
from .graph import build_graph
from .mapping import Mapper, Mapping, default_encoder
from .query import Program, parse, render_program
from .rewrite import rewrite
from .sources import SourceFacts
from .store import GraphStore
from .trace import Trace
from .translate import load_source
from .verdict import Verdict, judge  # also installs the judge behind Trace.verdict

__all__ = [
    "answer",
    "Answer",
    "judge",
    "Verdict",
    "load_graph",
    "load_source",
    "build_graph",
    "GraphStore",
    "SourceFacts",
    "parse",
    "render_program",
    "Program",
    "Mapper",
    "Mapping",
    "default_encoder",
    "rewrite",
    "execute",
    "run_query",
    "run_program",
    "Trace",
    "Fallback",
    "FallbackRequest",
    "FallbackAnswer",
    "TrustUQAError",
    "SourceError",
    "ParseError",
    "MappingError",
    "RewriteError",
    "ExecutionError",
    "ModelUnavailableError",
]

PathLike = str | Path | bytes


def load_graph(
    tables: Iterable[PathLike] = (),
    kgs: Iterable[PathLike] = (),
    tkgs: Iterable[PathLike] = (),
) -> GraphStore:
    """Read files of each kind and build one graph over all of them.

    Bytes are accepted for in-memory files (they are named ``table``, ``kg``, ``tkg``).
    """
    facts = []
    for kind, paths in (("table", tables), ("kg", kgs), ("tkg", tkgs)):
        for i, path in enumerate(paths, 1):
            name = None if not isinstance(path, bytes) else f"{kind}{i}"
            facts.append(load_source(path, kind, name=name))
    return build_graph(facts)
