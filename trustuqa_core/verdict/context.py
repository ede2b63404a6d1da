"""What the question and the table look like: label-free features of an answer's context.

The calibrated estimate (:mod:`.calibration`) weighs the verdict's doubts; how often an answer
with no doubt is right also depends on the kind of question and table (a one-condition lookup
in a table of 15 rows is right more often than a superlative over 60 rows). Every feature here
is computed at run time from the trace and its question alone (no label, no benchmark name):

* ``rows`` / ``columns``: ``log(1 + n)`` of the rows and columns of the largest table the
  answer was read from (the sources the run used, else every loaded table);
* ``words``: ``log(1 + number of words)`` of the question;
* ``cue_kinds``: how many distinct kinds of cue the question carries (see :data:`CUE_KINDS`);
* ``shape:<kind>``: 1 for the query's shape when it is not a plain lookup (see :func:`shape`).
"""

from __future__ import annotations

import math
import re

from ..mentions import CUES, bounds, selection_cues
from ..query.ast import Program
from ..store import GraphStore
from ..trace import Trace

__all__ = ["CONTEXT", "CUE_KINDS", "SHAPES", "context_features", "cue_kinds", "shape",
           "table_size"]

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_COUNT = re.compile(r"\bhow many\b|\bnumber of\b", re.IGNORECASE)
_TOTAL = CUES["sum"] | CUES["mean"] | frozenset({"difference", "combined"})
_ORDER = CUES["next_row"] | CUES["previous_row"]
#: the kinds of cue a question may carry, each a test on the question (lower-cased words)
CUE_KINDS = ("superlative", "comparison", "count", "total", "order")
#: the query shapes besides a plain lookup, by the functions that make them (first match wins)
SHAPES: dict[str, frozenset[str]] = {
    "order": frozenset({"next_row", "previous_row", "first", "last"}),
    "superlative": frozenset({"max", "min", "argmax", "argmin", "top_k", "bottom_k",
                              "most_frequent", "least_frequent"}),
    "count": frozenset({"count"}),
    "arithmetic": frozenset({"sum", "mean", "add", "subtract", "difference", "multiply",
                             "divide", "percentage", "calculate", "compare", "if_then_else",
                             "duration"}),
}
#: the numeric context features, with what each means in words
CONTEXT: dict[str, str] = {
    "rows": "a table of many rows",
    "columns": "a table of many columns",
    "words": "a long question",
    "cue_kinds": "a question with several kinds of cue",
    **{f"shape:{k}": f"a query of shape '{k}'" for k in SHAPES},
}


def table_size(trace: Trace) -> tuple[int, int]:
    """``(rows, columns)`` of the largest table the answer read (the sources the run used,
    else every loaded table); ``(0, 0)`` without a table.

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Name,Gold,Silver\\nAnn,4,1\\nBea,2,0\\n"])
    >>> table_size(run_query("Query1: \\"get_information(relation='Gold', tail_entity='4')\\"", g))
    (2, 3)
    """
    return _largest(trace.graph, set(trace.routing.used) if trace.routing else set())


def _largest(graph: GraphStore, used: set[str]) -> tuple[int, int]:
    tables = [s for s in graph.sources if s.kind == "table"]
    read = [s for s in tables if s.name in used] or tables
    return max(((s.n_rows, len(s.columns)) for s in read), default=(0, 0))


def cue_kinds(question: str) -> list[str]:
    """The kinds of :data:`CUE_KINDS` the question carries, in that order.

    >>> cue_kinds("how many players scored more than 10 goals after 1990?")
    ['comparison', 'count', 'order']
    >>> cue_kinds("who was the first winner?"), cue_kinds("what is the total attendance?")
    (['superlative'], ['total'])
    >>> cue_kinds("who is the coach?")
    []
    """
    words = {w.lower() for w in _WORD.findall(question)}
    found = {
        "superlative": bool(selection_cues(question)),
        "comparison": bool(bounds(question)) or "than" in words,
        "count": bool(_COUNT.search(question)),
        "total": bool(words & _TOTAL),
        "order": bool(words & _ORDER),
    }
    return [k for k in CUE_KINDS if found[k]]


def shape(program: Program | None) -> str:
    """The query's shape: the first kind of :data:`SHAPES` one of its functions has, else
    ``"lookup"``.

    >>> from trustuqa_core.query import parse
    >>> shape(parse("Query1: \\"get_information(relation='Gold', tail_entity='4')\\""))
    'lookup'
    >>> shape(parse("Query1: \\"get_information(relation='Gold')\\"\\n"
    ...                     "Query2: \\"max(Query1)\\""))
    'superlative'
    """
    funcs = {q.call.func for q in program.queries} if program is not None else set()
    return next((k for k, names in SHAPES.items() if funcs & names), "lookup")


def context_features(trace: Trace, question: str | None = None) -> dict[str, float]:
    """The context features of an answered ``trace`` (``question``: the trace's own when
    None); a zero feature is left out.

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Name,Gold\\nAnn,4\\nBea,2\\nCy,1\\n"])
    >>> t = run_query("Query1: \\"get_information(relation='Gold', tail_entity='4')\\"", g)
    >>> context_features(t, "who won the most gold?")
    {'rows': 1.3863, 'columns': 1.0986, 'words': 1.7918, 'cue_kinds': 1.0}
    """
    text = question if question is not None else (trace.question or "")
    rows, columns = table_size(trace)
    out = {"rows": round(math.log1p(rows), 4), "columns": round(math.log1p(columns), 4),
           "words": round(math.log1p(len(_WORD.findall(text))), 4),
           "cue_kinds": float(len(cue_kinds(text)))}
    kind = shape(trace.program)
    if kind != "lookup":
        out[f"shape:{kind}"] = 1.0
    return {k: v for k, v in out.items() if v}
