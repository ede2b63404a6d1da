"""A count over rows matched by an exact value, while other cells of the same column hold
that value among more words ("Braves" counted, "@ Braves" left out; "Canadian Army" counted,
"Canadian Army (1914-1925)" left out): the count may miss rows the question means (stop 23,
read off WTQ train's tune half).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..store import GraphStore
from ..text import normalize
from ..trace import StepTrace, Trace
from ..verdict_record import Reason
from .asked_noun import tables_only
from .reading import clip


def _conditions(steps: Iterable[StepTrace]) -> list[tuple[int, int, set[int]]]:
    """``(step, relation id, matched value ids)`` of each ``get_information(relation=C,
    tail_entity=V)`` step with one relation and a mapped value."""
    out = []
    for s in steps:
        if s.func != "get_information":
            continue
        rel = [i for m in s.mappings if m.arg == "relation" for i in m.ids]
        tails = [m for m in s.mappings if m.arg == "tail_entity"]
        if len(rel) == 1 and len(tails) == 1 and tails[0].ids:
            out.append((s.number, rel[0], set(tails[0].ids)))
    return out


def near_values(graph: GraphStore, rel: int, ids: set[int]) -> list[str]:
    """Other values of the column ``rel`` that hold one of the values ``ids`` as a run of
    whole words (``@ Braves`` holds ``Braves``; ``Bravest`` does not).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Opponent,Score\\nBraves,1\\n@ Braves,2\\nBravest,3\\n"])
    >>> rel = g.relation("Opponent")
    >>> braves = [n for n in g.tails_of(g.facts_rel(rel)).tolist() if g.label(n) == "Braves"]
    >>> near_values(g, rel, set(braves))
    ['@ Braves']
    """
    wanted = [w for w in (normalize(graph.label(i)).split() for i in ids) if w]
    found: list[str] = []
    for tail in sorted(set(graph.tails_of(graph.facts_rel(rel)).tolist()) - ids):
        label = graph.label(tail)
        tokens = normalize(label).split()
        if any(tokens[k:k + len(w)] == w for w in wanted
               for k in range(len(tokens) - len(w) + 1)) and label not in found:
            found.append(label)
    return found


def count_near_values(trace: Trace) -> list[Reason]:
    """The ``count_near_values`` reason when the last step counts rows that a condition
    matched exactly, and the condition's column holds the value among more words elsewhere."""
    if not trace.steps or trace.steps[-1].func != "count" or not tables_only(trace):
        return []
    for number, rel, ids in _conditions(trace.steps):
        near = near_values(trace.graph, rel, ids)
        if near:
            value = trace.graph.label(next(iter(ids)))
            return [Reason("count_near_values", f"Query{number} keeps the rows whose value is "
                           f"exactly {value!r}, and other cells of that column also hold it "
                           f"({clip(', '.join(near[:3]), 60)}): the count leaves those rows "
                           "out; check which rows the question means", number, value)]
    return []
