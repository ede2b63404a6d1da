"""The part of the loaded graph a user chose to ask over, with a mapper for it.

With several sources loaded, the Ask page's "Ask over" control (and the "Answer over <source>
only" buttons of a ``source_unsure`` card) narrows a question to the sources the user names.
:func:`chosen_sources` says whether a choice narrows anything at all, and :func:`restricted`
gives the sub-graph (:func:`trustuqa_core.subgraph.restrict`) and a mapper over it configured
like the loaded graph's (kept for the few sub-graphs used last, so re-runs reuse it).

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Name\\nAnn\\n", b"Name\\nBob\\n"])
>>> chosen_sources(g, ["table2"]), chosen_sources(g, ["table1", "table2"]), chosen_sources(g, [])
(('table2',), None, None)
>>> sub, mapper = restricted(g, None, ("table2",))
>>> [s.name for s in sub.sources], mapper is None
(['table2'], True)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..answer import over_sources
from ..errors import UsageError
from ..mapping.mapper import Mapper
from ..store import GraphStore

__all__ = ["chosen_sources", "restricted", "missing_sources"]


def chosen_sources(graph: GraphStore, sources: Sequence[str] | None) -> tuple[str, ...] | None:
    """The sources of ``graph`` a choice keeps, in load order, or None when it keeps them all
    (no choice, an empty one, or every loaded source: routing decides as usual).

    Names that are not loaded are kept too, so that :func:`restricted` can say which they are.
    """
    if not sources:
        return None
    names = [s.name for s in graph.sources]
    wanted = set(sources)
    if wanted == set(names):
        return None
    order = {n: i for i, n in enumerate(names)}
    return tuple(sorted(wanted, key=lambda n: (order.get(n, len(order)), n)))


def missing_sources(graph: GraphStore, sources: Sequence[str]) -> list[str]:
    """The names in ``sources`` that are not loaded in ``graph``.

    >>> from trustuqa_core import load_graph
    >>> missing_sources(load_graph(tables=[b"A\\n1\\n"]), ["table1", "gone.csv"])
    ['gone.csv']
    """
    names = {s.name for s in graph.sources}
    return [s for s in sources if s not in names]


def restricted(graph: GraphStore, mapper: Mapper | None,
               sources: Sequence[str]) -> tuple[GraphStore, Mapper | None]:
    """``graph`` cut down to ``sources`` and a mapper over that sub-graph configured like
    ``mapper`` (None stays None: the executor then maps lexically, as on the full graph).

    Raises :class:`~trustuqa_core.errors.UsageError` naming a source that is not loaded."""
    gone = missing_sources(graph, sources)
    if gone:
        raise UsageError(f"the source(s) you chose to ask over are not loaded now: "
                         f"{', '.join(gone)} (load them on the Data page, or ask over all "
                         f"loaded sources)")
    return over_sources(graph, mapper, sources)
