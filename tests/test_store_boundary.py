"""The backend boundary (issue #18): above the stores, nothing reads a graph's raw columns or
names the in-memory class; every store serves the whole :class:`GraphStore` API.

The scan is by AST: an attribute such as ``.head``/``.fact_source`` read off something called
``g``/``graph``/``store``/``…​.graph`` is a raw-column read, which only a store may do.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from trustuqa_core.graph import ConditionGraph, build_graph
from trustuqa_core.sources import SourceFacts
from trustuqa_core.store import GraphStore, LabelPool

REPO = Path(__file__).resolve().parents[1]

#: the stores themselves (below the boundary): they may read their own columns
STORES = {"trustuqa_core/graph.py", "trustuqa_core/store.py", "trustuqa_core/engines.py"}
STORE_PACKAGES = ("trustuqa_core/duckstore/", "trustuqa_core/sqlstore/")

RAW = frozenset({"head", "tail", "rel", "fact_source", "fact_line", "start", "end", "_text",
                 "entity_ids", "_numeric_array", "_hr_sorted", "_rt_sorted"})
GRAPH_NAMES = frozenset({"g", "graph", "store", "sub", "full"})


def raw_reads(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every raw-column read in ``source``.

    >>> raw_reads("x = g.head[f]\\ny = trace.graph.fact_source == 1\\nz = m.start()")
    [(1, 'g.head'), (2, 'graph.fact_source')]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or node.attr not in RAW:
            continue
        owner = node.value
        name = owner.id if isinstance(owner, ast.Name) else (
            owner.attr if isinstance(owner, ast.Attribute) else None)
        if name in GRAPH_NAMES:
            found.append((node.lineno, f"{name}.{node.attr}"))
    return sorted(found)


def above_boundary() -> list[Path]:
    files = sorted((REPO / "trustuqa_core").rglob("*.py")) + sorted(
        (REPO / "trustuqa_app").rglob("*.py")) + [REPO / "app.py"]
    files += sorted((REPO / "pages").glob("*.py")) if (REPO / "pages").is_dir() else []
    out = []
    for f in files:
        rel = f.relative_to(REPO).as_posix()
        if rel in STORES or rel.startswith(STORE_PACKAGES):
            continue
        out.append(f)
    return out


def test_the_scan_finds_planted_reads() -> None:
    planted = "def f(g, ctx):\n    a = g.tail[3]\n    b = ctx.graph.rel\n    return g.label(a)\n"
    assert raw_reads(planted) == [(2, "g.tail"), (3, "graph.rel")]


def test_nothing_above_the_boundary_reads_raw_columns() -> None:
    bad = [f"{f.relative_to(REPO)}:{line} {text}"
           for f in above_boundary() for line, text in raw_reads(f.read_text(encoding="utf-8"))]
    assert not bad, "raw graph columns read above the store boundary:\n" + "\n".join(bad)


def test_nothing_above_the_boundary_names_the_memory_store() -> None:
    bad = []
    for f in above_boundary():
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any(a.name == "ConditionGraph"
                                                        for a in node.names):
                bad.append(f"{f.relative_to(REPO)}:{node.lineno}")
    assert not bad, "import GraphStore (trustuqa_core.store) instead: " + ", ".join(bad)


def _graph() -> ConditionGraph:
    return build_graph([
        SourceFacts("t.csv", "table", [1, 1, 2, 2], ["Film", "Year", "Film", "Year"],
                    ["Dune", "1984", "Heat", "1,995"], [2, 2, 3, 3], n_rows=2,
                    columns=["Film", "Year"]),
        SourceFacts("kg", "kg", ["Dune", "Heat"], ["directed_by", "directed_by"],
                    ["David Lynch", "Michael Mann"], [1, 2]),
    ])


def test_the_memory_store_serves_the_whole_api() -> None:
    g = _graph()
    assert isinstance(g, GraphStore)
    members = set(GraphStore.__annotations__) | {
        n for n, v in vars(GraphStore).items() if callable(v) and not n.startswith("_")}
    assert {"facts_heads_rel", "entity_pool", "fact_rows", "engine"} <= members
    assert not [m for m in members if not hasattr(g, m)]
    assert isinstance(g.entity_pool(), LabelPool)


def test_new_calls_agree_with_the_old_ones() -> None:
    g = _graph()
    year = g.relation("Year")
    assert year is not None
    tails, counts = g.tail_counts(year)
    assert sorted(g.labels(tails)) == ["1,995", "1984"] and counts.tolist() == [1, 1]
    kg = g.facts_of_source(1)
    assert [g.fact_text(f) for f in kg] == [("Dune", "directed_by", "David Lynch"),
                                            ("Heat", "directed_by", "Michael Mann")]
    rows = g.fact_rows(kg)
    assert [(r.head, r.rel, r.tail, r.source, r.line) for r in rows] == [
        (g.head_of(f), int(g.rels_of(np.asarray([f]))[0]), g.tail_of(f), 1, i + 1)
        for i, f in enumerate(kg.tolist())]
    starts, ends = g.intervals_of(kg)
    assert np.isnan(starts).all() and np.isnan(ends).all()


@pytest.mark.parametrize("text, expected", [("1995", ["1,995"]), ("1984", ["1984"]),
                                            ("12", [])])
def test_value_pools_find_numbers_however_written(text: str, expected: list[str]) -> None:
    g = _graph()
    year = g.relation("Year")
    assert year is not None
    assert [label for _, label in g.value_pool(year).numeric_equal(float(text))] == expected


def test_restrict_is_a_store_of_the_same_kind() -> None:
    g = _graph()
    sub = g.restrict([1])
    assert isinstance(sub, GraphStore) and sub.engine == g.engine
    assert [s.name for s in sub.sources] == ["kg"] and sub.entity("1984") is None
