"""Execute compiled Cypher on a :class:`~.store.CypherStore` and read the answer as labels.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> g = build_graph([load_source(b"Kismet|directed_by|William Dieterle\\n"
...                              b"Juarez|directed_by|William Dieterle\\n", "kg", "kg.txt")])
>>> run_cypher_query('''Query1: "get_information(relation='directed_by', head_entity='Kismet')"
... Query2: "get_information(relation='directed_by', tail_entity='output_of_query1')"''', g).answer
['Juarez', 'Kismet']
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping as MappingType
from dataclasses import dataclass
from typing import Any

from ..mapping.mapper import MappedProgram, Mapper
from ..numbers import format_number
from ..query.parse import parse
from ..results import Scalar
from ..store import GraphStore
from .compile import CompiledCypher, compile_program
from .store import CypherStore

__all__ = ["CypherRun", "run_compiled", "run_mapped", "run_cypher_query", "store_for"]

_stores: dict[int, CypherStore] = {}


@dataclass(frozen=True)
class CypherRun:
    """The answer labels (sorted, distinct) of one Cypher run, the statement, and its time."""

    answer: list[str]
    cypher: CompiledCypher
    seconds: float


def store_for(graph: GraphStore) -> CypherStore:
    """The (process-wide, cached) Ladybug store of a graph."""
    store = _stores.get(id(graph))
    if store is None or store.graph is not graph:
        store = CypherStore.open(graph)
        _stores[id(graph)] = store
    return store


def run_compiled(compiled: CompiledCypher, store: CypherStore) -> list[str]:
    """Execute the statements in order and return the answer labels (sorted, distinct)."""
    outputs: dict[str, Any] = {}
    for st in compiled.statements:
        params = {**st.parameters, **{v: outputs[v] for v in st.inputs}}
        rows = store.execute(st.text, params)
        row = rows[0] if rows else [None] * len(st.outputs)
        outputs.update(zip(st.outputs, row, strict=True))
    values: Any = outputs.get(compiled.output)
    values = [] if values is None and compiled.kind != "number" else values
    if compiled.kind == "number":
        return [format_number(float(values))]
    if compiled.kind == "names":
        return sorted(set(values))
    if compiled.kind.startswith("times:"):
        key = compiled.kind.split(":", 1)[1]
        return sorted({t for pair in values if pair and (t := _time_text(pair, key))})
    if compiled.kind != "nodes":  # pragma: no cover - compile emits the kinds above
        raise ValueError(f"unknown result kind {compiled.kind!r}")
    g = store.graph
    return sorted({g.label(int(n)) for n in values})


def _time_text(pair: list[float | None], key: str) -> str:
    """A fact's time as our executor shows it (``fact_times``): a year or a span."""
    start = -math.inf if pair[0] is None else float(pair[0])
    end = math.inf if pair[1] is None else float(pair[1])
    if pair[0] is None and pair[1] is None:
        return ""
    if key == "start_time" or (key == "time" and not math.isfinite(end)):
        return "" if not math.isfinite(start) else Scalar.interval(start, start).text
    if key == "end_time" or not math.isfinite(start):
        return "" if not math.isfinite(end) else Scalar.interval(end, end).text
    return Scalar.interval(start, end).text


def run_mapped(mapped: MappedProgram, graph: GraphStore,
               store: CypherStore | None = None) -> CypherRun:
    """Compile a mapped program and run it on the graph's store."""
    compiled = compile_program(mapped, graph)
    store = store or store_for(graph)
    t0 = time.perf_counter()
    answer = run_compiled(compiled, store)
    return CypherRun(answer, compiled, time.perf_counter() - t0)


def run_cypher_query(text: str, graph: GraphStore, mapper: Mapper | None = None, *,
                     overrides: MappingType[str, str] | None = None,
                     store: CypherStore | None = None) -> CypherRun:
    """Parse and map an LLM-style query, then run it through Ladybug.

    Raises the parse/mapping errors and :class:`~.compile.CypherCompileError`.
    """
    mapped = (mapper or Mapper(graph)).map_program(parse(text), overrides)
    return run_mapped(mapped, graph, store)
