"""The package's import structure: a layer order read from the code, no cycles, no hidden imports.

The import graph of ``trustuqa_core`` is built with :mod:`ast` from every module: ``import``
and ``from ... import`` statements, relative and absolute, anywhere in the file (a
``TYPE_CHECKING`` block counts too: a type imported from a higher layer is still a dependency).
``from . import x`` points at the submodule ``x`` when there is one, else at the package.
Importing ``a.b.c`` is not counted as importing the packages ``a`` and ``a.b`` (every module
would then depend on the package root).

Asserted: (a) no module imports a ``trustuqa_core`` module inside a function or class (such an
import hides a dependency, typically a cycle), (b) every import goes to the same or a lower
layer of :data:`LAYERS` and the module graph has no cycle, (c) docs/ARCHITECTURE.md lists
every module and links nothing outside the repository.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "trustuqa_core"
ARCHITECTURE = REPO / "docs" / "ARCHITECTURE.md"

#: the layers, lowest first; a name is a top-level module or subpackage of trustuqa_core
#: ("__init__" is the package root, which re-exports the public API and so sits above answer).
#: A module may import from its own layer or any layer below it, never from a layer above.
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(names.split()) for names in (
    "errors limits numbers sources function_names text lexicon lexical_pool answer_match"
    " verdict_record",
    "query",
    "translate graph subgraph store engines duckstore",
    "mapping",
    "rewrite results ops reasoning functions fallback",
    "trace execute mentions verdict recovery vote explain"
    " export cypher sparkengine routing routing_by_query source_verdict",
    "llm",
    "demos",
    "writers",
    "answer unioqa",
    "__init__",
    "evaluate",
    "app_services",
    "bench",
    "cli",
    "__main__",
))

#: modules left out of every check (none: the Streamlit views live in ``trustuqa_app/``, outside
#: the package, and ``tests/test_core_without_streamlit.py`` checks the core never imports them).
EXCLUDED: frozenset[str] = frozenset()

#: edges that still break the order, each with the reason it is tolerated (none today: keep it
#: that way; a new entry needs a comment and an issue)
PENDING: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True)
class Edge:
    """``importer`` imports ``imported`` at ``line``; ``nested`` when inside a def or class."""

    importer: str
    imported: str
    line: int
    nested: bool

    def where(self) -> str:
        return f"{module_path(self.importer)}:{self.line}"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def module_path(name: str) -> str:
    return str(MODULES[name].relative_to(REPO))


def top(name: str) -> str:
    """The layer key of a module: its top-level module or subpackage (``__init__`` for the
    package root)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _known(name: str) -> str | None:
    """``name`` or its closest enclosing module that exists (``a.b.func`` -> ``a.b``)."""
    while name not in MODULES:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def _absolute(importer: str, level: int, module: str | None) -> str:
    """The absolute name of ``from <dots><module> import ...`` written in ``importer``."""
    if level == 0:
        return module or ""
    is_package = MODULES[importer].name == "__init__.py"
    base = importer if is_package else importer.rsplit(".", 1)[0]
    for _ in range(level - 1):
        base = base.rsplit(".", 1)[0]
    return f"{base}.{module}" if module else base


class _Collector(ast.NodeVisitor):
    def __init__(self, importer: str) -> None:
        self.importer, self.depth, self.edges = importer, 0, []  # type: list[Edge]

    def _nested(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _nested

    def _add(self, target: str | None, line: int) -> None:
        if target is not None and target.startswith("trustuqa_core"):
            self.edges.append(Edge(self.importer, target, line, self.depth > 0))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.startswith("trustuqa_core"):
                self._add(_known(alias.name), node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = _absolute(self.importer, node.level, node.module)
        if not base.startswith("trustuqa_core"):
            return
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            self._add(sub if sub in MODULES else _known(base), node.lineno)

    def visit_Call(self, node: ast.Call) -> None:
        """``importlib.import_module("trustuqa_core...")`` / ``__import__(...)``: a hidden
        import, always counted as nested."""
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in ("import_module", "__import__") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and (
                    first.value.startswith(("trustuqa_core", "."))):
                self.edges.append(Edge(self.importer, _known(first.value) or first.value,
                                       node.lineno, True))
        self.generic_visit(node)


def import_edges() -> list[Edge]:
    """Every import of a trustuqa_core module by a trustuqa_core module (``ui`` excluded)."""
    edges = []
    for name, path in MODULES.items():
        if top(name) in EXCLUDED:
            continue
        collector = _Collector(name)
        collector.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        edges += [e for e in collector.edges if top(e.imported) not in EXCLUDED]
    return edges


EDGES = import_edges()
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}


def layer(module: str) -> int:
    return LAYER_OF[top(module)]


def cycles(edges: list[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for e in edges:
        if e.importer != e.imported:
            graph[e.importer].add(e.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


# -- the graph builder itself ---------------------------------------------------------------
def test_the_graph_sees_relative_absolute_and_type_checking_imports() -> None:
    pairs = {(e.importer, e.imported) for e in EDGES}
    assert ("trustuqa_core.execute", "trustuqa_core.trace") in pairs  # from .trace import
    assert ("trustuqa_core.llm.client", "trustuqa_core.llm.cache") in pairs  # absolute
    assert ("trustuqa_core.cli.bench", "trustuqa_core.evaluate.runner") in pairs  # from ..x.y
    assert ("trustuqa_core.__main__", "trustuqa_core.cli") in pairs  # package, not submodule


def test_a_planted_violation_is_found(tmp_path: Path) -> None:
    source = ("from __future__ import annotations\nfrom typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n    from .answer import Answer\n"
              "def f():\n    from . import evaluate\n    return evaluate\n")
    collector = _Collector("trustuqa_core.graph")
    collector.visit(ast.parse(source))
    found = {(e.imported, e.line, e.nested) for e in collector.edges}
    assert found == {("trustuqa_core.answer", 4, False), ("trustuqa_core.evaluate", 6, True)}
    assert all(layer(e.imported) > layer(e.importer) for e in collector.edges)
    loop = [Edge("a", "b", 1, False), Edge("b", "c", 1, False), Edge("c", "a", 1, False)]
    assert cycles(loop) == [["a", "b", "c"]]


# -- the package ----------------------------------------------------------------------------
def test_every_module_has_a_layer() -> None:
    missing = sorted({top(m) for m in MODULES} - set(LAYER_OF) - EXCLUDED)
    assert not missing, f"give these modules a layer in LAYERS: {missing}"


def test_no_import_inside_a_function() -> None:
    nested = [f"{e.where()} imports {e.imported} inside a function or class" for e in EDGES
              if e.nested]
    assert not nested, "\n".join(nested)


def test_imports_go_to_the_same_or_a_lower_layer() -> None:
    upward = [f"{e.where()}: {e.importer} (layer {layer(e.importer)}, {top(e.importer)}) "
              f"imports {e.imported} (layer {layer(e.imported)}, {top(e.imported)})"
              for e in EDGES if layer(e.imported) > layer(e.importer)
              and (e.importer, e.imported) not in PENDING]
    assert not upward, "\n".join(upward)


def test_pending_edges_still_exist() -> None:
    pairs = {(e.importer, e.imported) for e in EDGES}
    stale = sorted(PENDING - pairs)
    assert not stale, f"remove these from PENDING, the code no longer has them: {stale}"


def test_no_import_cycle() -> None:
    lines = {(e.importer, e.imported): e.where() for e in EDGES}
    found = cycles(EDGES)
    detail = [", ".join(c) + " (their imports of each other: " + ", ".join(
        lines[(a, b)] for a in c for b in c if (a, b) in lines) + ")" for c in found]
    assert not found, "modules importing each other in a cycle:\n" + "\n".join(detail)


# -- docs/ARCHITECTURE.md -------------------------------------------------------------------
DOC = ARCHITECTURE.read_text(encoding="utf-8")
DOC_LINES = DOC.splitlines()


def listed(path: Path) -> bool:
    """True when the doc names ``path``: by its full path, or on a line naming its folder
    (``trustuqa_core/query/``, or a top-level module row) and the file (```lines.py```)."""
    rel = path.relative_to(REPO).as_posix()
    folder, file = rel.rsplit("/", 1)
    if rel in DOC:
        return True
    if file == "__init__.py":
        return f"`{folder}/`" in DOC
    if folder == "trustuqa_core":
        row = re.compile(r"`trustuqa_core/\w+\.py`")
        return any(row.search(line) and f"`{file}`" in line for line in DOC_LINES)
    return any(f"`{folder}/`" in line and f"`{file}`" in line for line in DOC_LINES)


@pytest.mark.parametrize("name", [name for name in MODULES if top(name) not in EXCLUDED])
def test_architecture_lists_every_module(name: str) -> None:
    assert listed(MODULES[name]), f"docs/ARCHITECTURE.md does not list {module_path(name)}"


def test_architecture_links_nothing_outside_the_repository() -> None:
    bad = []
    for number, line in enumerate(DOC_LINES, 1):
        if "../shared" in line:
            bad.append(f"docs/ARCHITECTURE.md:{number}: ../shared is outside the repository")
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"https?://", target):
                if "github.com" in target:
                    bad.append(f"docs/ARCHITECTURE.md:{number}: {target} (link the file in "
                               "the repository instead)")
                continue
            resolved = (ARCHITECTURE.parent / target.split("#")[0]).resolve()
            if not resolved.is_relative_to(REPO) or not resolved.exists():
                bad.append(f"docs/ARCHITECTURE.md:{number}: {target} is not a file of the "
                           "repository")
    assert not bad, "\n".join(bad)
