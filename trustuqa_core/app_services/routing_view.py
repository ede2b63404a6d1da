"""What the Ask page says about the sources a run was asked of, with the two kinds of
evidence kept apart: the question's words (:mod:`~trustuqa_core.routing`) and the written
query (:mod:`~trustuqa_core.routing_by_query`).

The trace records both in one :class:`~trustuqa_core.trace.Routing`: ``answer()`` appends
the written query's lines (``query: 3 of the query's 3 arguments map exactly onto X``) to
each weighed source's evidence, and when the query re-routed the question (it was answered
again over the one source its arguments map onto) the routing's ``how`` reads ``routed by
the query to X: <what>``. :func:`routing_view` splits them again, so the page can show the
re-routing as its own caption and each kind of evidence under its own heading.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.trace import Routing, Trace
>>> g = load_graph(tables=[b"A\\n1\\n", b"B\\n2\\n"])
>>> how = "routed by the query to table2: 1 of its 1 arguments map exactly there; no other"
>>> t = Trace("", g, routing=Routing(("table2",), how, ("table2",), {},
...     {"table1": ("demo similarity 0.5",),
...      "table2": ("demo similarity 0.5", "query: 1 of the query's 1 arguments map exactly "
...                 "onto table2")}))
>>> v = routing_view(t, {"sources": ["table1", "table2"], "how": "unsure"})
>>> v.line
'Asked of: table2 — chosen by the written query; facts read from: table2'
>>> print(v.by_query)  # doctest: +NORMALIZE_WHITESPACE
Routed by the written query: its arguments map exactly onto table2 (1 of its 1 arguments map
exactly there; no other), so it was run there. The question's words alone pointed to table1,
table2 — unsure.
>>> v.question
['table1: demo similarity 0.5', 'table2: demo similarity 0.5']
>>> v.query
["table2: 1 of the query's 1 arguments map exactly onto table2"]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..export import routing_text
from ..trace import ALL_SOURCES, Trace

__all__ = ["RoutingView", "routing_view", "with_half_note", "QUERY_EVIDENCE", "BY_QUERY",
           "HALF_NOTE"]

#: how ``routing_by_query`` starts each evidence line it adds
QUERY_EVIDENCE = "query: "
#: how the trace's ``how`` starts when the written query re-routed the question
BY_QUERY = "routed by the query to "

#: what a fractional count of arguments means (routing_by_query's fit: a literal found only
#: outside the column or relation the query puts it in counts half)
HALF_NOTE = ("a value found in the source, but not in the column or relation the query looks "
             "it up in, counts half; so does a head entity, which is looked up among all of "
             "the source's entities")
_FRACTION = re.compile(r"\b\d+\.\d+ of (?:the query's|its) \d+ arguments")


def with_half_note(text: str) -> str:
    """``text`` with :data:`HALF_NOTE` added when it counts arguments in fractions ("1.5 of
    the query's 3 arguments"), which reads as a typo without it.

    >>> with_half_note("1.5 of the query's 3 arguments map exactly onto kg.txt.")
    "1.5 of the query's 3 arguments map exactly onto kg.txt. (Counting: a value found in the \
source, but not in the column or relation the query looks it up in, counts half; so does a \
head entity, which is looked up among all of the source's entities.)"
    >>> with_half_note("3 of the query's 3 arguments map exactly onto kg.txt.")
    "3 of the query's 3 arguments map exactly onto kg.txt."
    """
    return f"{text} (Counting: {HALF_NOTE}.)" if _FRACTION.search(text) else text


@dataclass(frozen=True)
class RoutingView:
    """The Ask page's routing section: one line, the written query's caption (None when the
    query added nothing), and the evidence of each kind as ``source: line`` items."""

    line: str
    by_query: str | None
    question: list[str]
    query: list[str]


def routing_view(trace: Trace, question_routing: Mapping[str, Any] | None = None
                 ) -> RoutingView | None:
    """The routing section of ``trace`` (None when one source was there to ask).

    ``question_routing`` is the question-only decision (``Answer.routing.to_dict()``), named
    in the caption when the written query overruled it."""
    r = trace.routing
    if r is None or (r.how == ALL_SOURCES and len(r.sources) < 2):
        return None
    question = [f"{src}: {item}" for src, items in r.evidence.items() for item in items
                if not item.startswith(QUERY_EVIDENCE)]
    query = [f"{src}: {item.removeprefix(QUERY_EVIDENCE)}" for src, items in r.evidence.items()
             for item in items if item.startswith(QUERY_EVIDENCE)]
    if r.how.startswith(BY_QUERY):
        where, _, what = r.how.removeprefix(BY_QUERY).partition(": ")
        line = f"Asked of: {routing_text({**r.to_dict(), 'how': 'chosen by the written query'})}"
        text = (f"Routed by the written query: its arguments map exactly onto {where}"
                + (f" ({what})" if what else "") + ", so it was run there.")
        if question_routing is not None:
            before = ", ".join(map(str, question_routing.get("sources", []))) or "(none)"
            text += (f" The question's words alone pointed to {before} — "
                     f"{question_routing.get('how', '')}.")
        return RoutingView(line, with_half_note(text), question, query)
    line = f"Asked of: {routing_text(r.to_dict())}"
    agreed = [item.removeprefix(QUERY_EVIDENCE) for src in r.sources
              for item in r.evidence.get(src, ()) if item.startswith(QUERY_EVIDENCE)]
    caption = None
    if agreed:
        caption = ("The written query agrees: " if len(r.sources) == 1 else
                   "The written query fits these sources alike: ") + "; ".join(agreed) + "."
        caption = with_half_note(caption)
    return RoutingView(line, caption, question, query)
