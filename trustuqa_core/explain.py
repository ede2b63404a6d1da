"""Explaining a :class:`~trustuqa_core.trace.Trace`: evidence subgraph, offline HTML, timeline.

The evidence subgraph holds the facts that witness some step's output, the nodes the query's
arguments were mapped to, and the answer. Each node has a *role* (``answer``, ``mapped``,
``intermediate``, ``context``) and each node/edge remembers which steps touched it, so a step
selector can highlight one step. :func:`render_html` draws it with pyvis, fully offline.

>>> from trustuqa_core import build_graph, load_source, run_query
>>> g = build_graph([load_source(b"h|r|t\\nA|directed_by|B\\nC|directed_by|B\\n", "kg", "kg.txt")])
>>> ev = evidence_graph(run_query("Query1: \\"get_information(relation='directed_by', "
...                               "tail_entity='B')\\"", g))
>>> sorted((n.label, n.role) for n in ev.nodes)
[('A', 'answer'), ('B', 'mapped'), ('C', 'answer')]
>>> "cdn.jsdelivr" in render_html(ev) or "<script src=" in render_html(ev)
False
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .query.ast import Bound, Ref
from .results import Scalar
from .store import FactRow, GraphStore
from .trace import StepTrace, Trace

__all__ = ["EvidenceNode", "EvidenceEdge", "EvidenceGraph", "evidence_graph", "overview_graph",
           "render_html", "timeline_rows", "ROLE_COLORS", "ROLE_NAMES", "MAX_NODES",
           "step_touches", "strip_remote_resources", "SOURCE_COLORS", "SHARED_COLOR",
           "source_colors"]

Role = Literal["answer", "mapped", "intermediate", "context"]
MAX_NODES = 300
ROLE_COLORS: dict[str, str] = {"answer": "#d62728", "mapped": "#1f77b4",
                               "intermediate": "#ff9f1c", "context": "#9aa5b1"}
ROLE_NAMES: dict[str, str] = {"answer": "answer", "mapped": "mapped argument",
                              "intermediate": "intermediate result", "context": "context"}
#: ring colours of the nodes' sources when the evidence spans several (none is a role colour)
SOURCE_COLORS: tuple[str, ...] = ("#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                  "#bcbd22", "#393b79", "#637939")
OTHER_SOURCES_COLOR = "#52606d"  # the ring of sources beyond the palette
SHARED_COLOR = "#1f2933"  # the (dashed) ring of a node that several sources hold
_ROLE_RANK = {"answer": 0, "mapped": 1, "intermediate": 2, "context": 3}
_TIME_OPS = ("select_at_time", "fact_times")


@dataclass
class EvidenceNode:
    """A graph node in the evidence subgraph."""

    id: int
    label: str
    role: Role
    steps: set[int] = field(default_factory=set)
    is_row: bool = False
    sources: tuple[str, ...] = ()  # the sources of the facts drawn at it (in source order)


@dataclass
class EvidenceEdge:
    """One fact: ``head --relation--> tail`` with its provenance."""

    fact: int
    head: int
    tail: int
    relation: str
    source: str
    interval: tuple[float, float] | None = None
    steps: set[int] = field(default_factory=set)
    computed: bool = False  # a dashed edge to a computed answer (count, sum, year...)


@dataclass
class EvidenceGraph:
    """The evidence subgraph of a trace (possibly capped; ``total_nodes`` counts all)."""

    nodes: list[EvidenceNode]
    edges: list[EvidenceEdge]
    total_nodes: int
    total_edges: int
    steps: list[int]
    sources: tuple[str, ...] = ()  # the sources the drawn facts come from, in source order

    @property
    def capped(self) -> bool:
        return self.total_nodes > len(self.nodes)

    def note(self) -> str:
        """``"showing N of M nodes"`` for the UI."""
        return (f"showing {len(self.nodes)} of {self.total_nodes} nodes and "
                f"{len(self.edges)} of {self.total_edges} facts")


def step_touches(trace: Trace, step: StepTrace) -> tuple[set[int], set[int]]:
    """``(node ids, fact ids)`` that one step touched: mapped nodes, outputs, witnesses."""
    nodes: set[int] = set()
    for m in step.mappings:
        if m.role in ("value", "entity"):
            nodes.update(int(i) for i in m.ids)
    out = step.output
    nodes.update(int(e) for e in out.elems if not isinstance(e, Scalar))
    return nodes, {int(f) for f in out.all_witnesses()}


def evidence_graph(trace: Trace, max_nodes: int = MAX_NODES) -> EvidenceGraph:
    """Build the evidence subgraph of ``trace`` (answer, mapped nodes, witnesses' facts)."""
    g = trace.graph
    steps = list(trace.steps) + ([trace.target_step] if trace.target_step else [])
    roles: dict[int, Role] = {}
    node_steps: dict[int, set[int]] = {}
    fact_steps: dict[int, set[int]] = {}
    for s in steps:
        touched, facts = step_touches(trace, s)
        for n in touched:
            node_steps.setdefault(n, set()).add(s.number)
            roles.setdefault(n, "intermediate")
        for f in facts:
            fact_steps.setdefault(f, set()).add(s.number)
        for m in s.mappings:
            if m.role in ("value", "entity"):
                for i in m.ids:
                    roles[int(i)] = "mapped"
    answer_nodes = [int(e) for e in (trace.final.elems if trace.final else ())
                    if not isinstance(e, Scalar)]
    for n in answer_nodes:
        roles[n] = "answer"
    if trace.final is not None:
        for f in trace.final.all_witnesses():
            fact_steps.setdefault(int(f), set())
    rows = {r.fact: r for r in g.fact_rows(sorted(fact_steps))}
    for f in fact_steps:
        for n in (rows[f].head, rows[f].tail):
            roles.setdefault(n, "context")
            node_steps.setdefault(n, set())
    order = sorted(roles, key=lambda n: (_ROLE_RANK[roles[n]], n))
    kept = set(order[:max_nodes])
    edges = [_edge(g, rows[f], fact_steps[f]) for f in sorted(fact_steps)
             if rows[f].head in kept and rows[f].tail in kept]
    held = _sources_at(g, [rows[f] for f in sorted(fact_steps)], order[:max_nodes])
    nodes = [EvidenceNode(n, g.label(n), roles[n], node_steps.get(n, set()), g.is_row(n),
                          _named(g, held[n])) for n in order[:max_nodes]]
    drawn = _named(g, {i for found in held.values() for i in found})
    last = steps[-1].number if steps else 0
    for node, edge in _computed_answers(trace, kept, last):
        nodes.append(node)
        edges.extend(edge)
    return EvidenceGraph(nodes, edges, len(roles) + sum(n.id < 0 for n in nodes),
                         len(fact_steps), [s.number for s in steps], drawn)


_NODE_LOOKUP = 1000  # facts read per side to find the sources of a node no drawn fact touches


def _sources_at(g: GraphStore, rows: list[FactRow], nodes: list[int]) -> dict[int, set[int]]:
    """Per node, the indices of the sources of the facts at it (a table row: its table; a
    node no fact touches, a mapped value with an empty result say: the sources of its first
    facts in the graph)."""
    held: dict[int, set[int]] = {n: set() for n in nodes}
    for r in rows:
        for n in (r.head, r.tail):
            if n in held:
                held[n].add(r.source)
    for n, found in held.items():
        if found:
            continue
        where = g.row_position(n)
        if where is not None:
            found.add(where[0])
            continue
        facts = np.concatenate([g.facts_head(n)[:_NODE_LOOKUP], g.facts_tail(n)[:_NODE_LOOKUP]])
        found.update(int(i) for i in np.unique(g.sources_of(facts)).tolist())
    return held


def _named(g: GraphStore, indices: Iterable[int]) -> tuple[str, ...]:
    return tuple(g.sources[i].name for i in sorted(set(indices)))


def _computed_answers(trace: Trace, kept: set[int],
                      step: int) -> list[tuple[EvidenceNode, list[EvidenceEdge]]]:
    """Computed answer values (a count, a sum, a year) as extra nodes (negative ids), with
    dashed edges from the nodes of the facts they were computed from."""
    if trace.final is None:
        return []
    g, out = trace.graph, []
    final = trace.final.distinct()
    scalars = [(e, w) for e, w in zip(final.elems, final.witnesses, strict=True)
               if isinstance(e, Scalar)]
    # witnesses inherited from earlier steps explain how the inputs were found, not what the
    # value was computed from: draw dashed edges from the facts this step added, if any
    earlier = {f for s in trace.steps[:-1] for w in s.output.witnesses for f in w}
    for i, (e, w) in enumerate(scalars[:10], 1):
        node = EvidenceNode(-i, e.text, "answer", {step})
        sources: list[int] = []
        own = [f for f in w if f not in earlier] or list(w)
        for row in reversed(g.fact_rows(own)):  # newest facts first: what it was computed from
            n = row.head if row.head in kept else row.tail
            if n in kept and n not in sources:
                sources.append(n)
            if len(sources) >= 8:
                break
        edges = [EvidenceEdge(-1, n, -i, "computed", "computed by the query", None, {step},
                              computed=True) for n in sources]
        out.append((node, edges))
    return out


def overview_graph(graph: GraphStore, max_facts: int = 90) -> EvidenceGraph:
    """A small, connected picture of the loaded data: for each source, the neighbourhood of
    its most connected node (breadth-first, ``row_number`` facts left out).

    Heads (rows, subjects) get the role ``mapped`` (blue), values ``context`` (grey).
    """
    per = max(max_facts // max(len(graph.sources), 1), 1)
    facts: list[int] = []
    skip = graph.relation("row_number")
    for i in range(len(graph.sources)):
        idx = graph.facts_of_source(i)
        if skip is not None:
            idx = idx[graph.rels_of(idx) != skip]
        facts += _neighbourhood(graph, idx, per)
    rows = graph.fact_rows(facts)
    roles: dict[int, Role] = {}
    for r in rows:
        roles.setdefault(r.tail, "context")
    for r in rows:
        roles[r.head] = "mapped"
    held = _sources_at(graph, rows, list(roles))
    nodes = [EvidenceNode(n, graph.label(n), r, set(), graph.is_row(n), _named(graph, held[n]))
             for n, r in roles.items()]
    edges = [_edge(graph, r, set()) for r in rows]
    return EvidenceGraph(nodes, edges, graph.n_nodes, graph.n_facts, [],
                         _named(graph, {r.source for r in rows}))


def _neighbourhood(graph: GraphStore, idx: np.ndarray, budget: int) -> list[int]:
    """Up to ``budget`` of the facts ``idx``, breadth-first from the best-connected node (and
    from the next best-connected unseen node when a component is exhausted)."""
    if len(idx) == 0:
        return []
    heads, tails = graph.heads_of(idx), graph.tails_of(idx)
    nodes, degree = np.unique(np.concatenate([heads, tails]), return_counts=True)
    seeds = [int(nodes[i]) for i in np.argsort(-degree, kind="stable")[:50]]
    seen: set[int] = set()
    taken: dict[int, None] = {}
    for seed in seeds:
        frontier = {seed} - seen
        while frontier and len(taken) < budget:
            seen |= frontier
            members = np.fromiter(frontier, dtype=np.int64)
            nxt: set[int] = set()
            for j in np.flatnonzero(np.isin(heads, members) | np.isin(tails, members)).tolist():
                if len(taken) >= budget:
                    break
                taken.setdefault(int(idx[j]))
                nxt.update((int(heads[j]), int(tails[j])))
            frontier = nxt - seen
        if len(taken) >= budget:
            break
    return list(taken)


def _edge(g: GraphStore, row: FactRow, steps: set[int]) -> EvidenceEdge:
    return EvidenceEdge(row.fact, row.head, row.tail, row.relation, str(g.provenance(row.fact)),
                        row.interval, steps)


# ------------------------------------------------------------------------------ rendering
def _layout(ev: EvidenceGraph, size: float) -> dict[int, tuple[float, float]]:
    """Spring layout (fixed seed). A graph in several pieces (an overview of table rows, say)
    has each piece laid out on its own, sized by its node count, and the pieces packed in a
    grid: one spring layout would push them to the corners and shrink each to a dot."""
    import networkx as nx  # imported on first drawing, not at app start

    nxg = nx.Graph()
    nxg.add_nodes_from(n.id for n in ev.nodes)
    nxg.add_edges_from((e.head, e.tail) for e in ev.edges)
    if not ev.nodes:
        return {}
    pieces = sorted((sorted(c) for c in nx.connected_components(nxg)), key=lambda c: (-len(c), c))
    if len(pieces) == 1:
        k = 2.0 / max(np.sqrt(len(ev.nodes)), 1.0)
        pos = nx.spring_layout(nxg, seed=7, k=k, iterations=100)
        return {int(n): (float(x) * size, float(y) * size) for n, (x, y) in pos.items()}
    radius = [45.0 * np.sqrt(len(c)) if len(c) > 1 else 0.0 for c in pieces]
    cell = 2.0 * max(radius) + 90.0
    cols = int(np.ceil(np.sqrt(len(pieces))))
    out: dict[int, tuple[float, float]] = {}
    for i, (piece, r) in enumerate(zip(pieces, radius, strict=True)):
        cx, cy = (i % cols) * cell, (i // cols) * cell
        if len(piece) == 1:
            out[int(piece[0])] = (cx, cy)
            continue
        sub = nxg.subgraph(piece)
        pos = nx.spring_layout(sub, seed=7, k=2.0 / np.sqrt(len(piece)), iterations=100)
        out.update({int(n): (cx + float(x) * r, cy + float(y) * r) for n, (x, y) in pos.items()})
    return out


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_HREF = re.compile("href", re.IGNORECASE)


def _tooltip(text: str) -> str:
    """Hover text for pyvis, shown as plain text.

    Labels and titles go to pyvis unescaped: its template embeds them as JSON with ``<``, ``>``
    and ``&`` written as ``\\u003c``..., and vis-network draws labels on a canvas and shows
    string titles with ``innerText``, so "AT&T" shows as AT&T and markup stays text. One pyvis
    quirk remains: a title containing ``href`` switches its template to an ``innerHTML``
    popup, so a word joiner is put inside every ``href`` of data text.

    >>> _tooltip('<a HREF="x">') == '<a HRE\u2060F="x">'
    True
    """
    return _HREF.sub(lambda m: m.group(0)[:3] + "\u2060" + m.group(0)[3:], text)


def _node_label(n: EvidenceNode) -> str:
    return _short(n.label)


def render_html(ev: EvidenceGraph, highlight_step: int | None = None, height: int = 560,
                hub_labels: bool = False) -> str:
    """Self-contained HTML (no network access) drawing ``ev`` with pyvis.

    Positions are precomputed (spring layout, fixed seed) and physics is off, so the drawing
    is stable. With ``highlight_step`` the nodes and facts that step touched are emphasised
    and everything else is faded. ``hub_labels`` labels only nodes with 3+ facts (the others
    show their label on hover), for dense overviews.
    """
    from pyvis.network import Network

    net = Network(height=f"{height}px", width="100%", directed=True, cdn_resources="in_line",
                  bgcolor="#ffffff", font_color="#1f2933")
    pos = _layout(ev, size=min(600.0, 110.0 * np.sqrt(max(len(ev.nodes), 1))))
    degree: dict[int, int] = {}
    for e in ev.edges:
        degree[e.head] = degree.get(e.head, 0) + 1
        degree[e.tail] = degree.get(e.tail, 0) + 1
    rings = source_colors(ev.sources) if len(ev.sources) > 1 else {}
    for n in ev.nodes:
        lit = highlight_step is None or highlight_step in n.steps
        color = ROLE_COLORS[n.role] if lit else "#e4e7eb"
        steps = ", ".join(f"Query{s}" for s in sorted(n.steps) if s) or "none"
        title = f"{n.label}\nrole: {ROLE_NAMES[n.role]}\nsteps: {steps}"
        ring: dict[str, Any] = {}
        if rings and n.sources:
            title += (f"\nsource: {n.sources[0]}" if len(n.sources) == 1 else
                      "\nshared by the sources: " + ", ".join(n.sources))
            ring = _ring(color, rings, n.sources, lit)
        x, y = pos.get(n.id, (0.0, 0.0))
        show = not hub_labels or len(ev.nodes) <= 40 or degree.get(n.id, 0) >= 3
        label = _node_label(n) if show else " "
        net.add_node(n.id, label=label, title=_tooltip(title), x=x, y=y,
                     physics=False, shape="box" if n.is_row else "dot",
                     size=16 if n.role in ("answer", "mapped") else 11,
                     font={"color": "#1f2933" if lit else "#b0b7bf", "size": 14},
                     **(ring or {"color": color}))
    for e in ev.edges:
        lit = highlight_step is None or highlight_step in e.steps
        span = f" ({_years(e.interval)})" if e.interval else ""
        dashes = {"dashes": True} if e.computed else {}
        title = f"{e.relation}{span}\nsource: {e.source}"
        edge_label = " " if hub_labels and len(ev.nodes) > 40 else _short(e.relation + span, 32)
        net.add_edge(e.head, e.tail, label=edge_label,
                     title=_tooltip(title), color="#52606d" if lit else "#e4e7eb",
                     width=2.5 if lit and highlight_step is not None else 1,
                     font={"size": 11, "color": "#52606d" if lit else "#c5ccd3",
                           "strokeWidth": 3, "align": "middle"}, **dashes)
    net.toggle_physics(False)
    net.set_options('{"interaction": {"hover": true, "tooltipDelay": 120, "navigationButtons":'
                    ' false}, "physics": {"enabled": false}, "edges": {"smooth": false}}')
    page = strip_remote_resources(net.generate_html(notebook=False))
    page = page.replace("</head>", f"<style>{_CSS}</style></head>", 1)
    if rings:
        legend = _source_legend(rings, any(not n.sources for n in ev.nodes))
        page = re.sub(r"<body[^>]*>", lambda m: m.group(0) + legend, page, count=1)
    return page.replace("drawGraph();\n", "drawGraph();\nnetwork.fit({animation: false});\n", 1)


def source_colors(sources: Iterable[str]) -> dict[str, str]:
    """The ring colour of each source (in the order given); sources beyond the palette share
    one grey.

    >>> source_colors(["a.csv", "b.txt"])
    {'a.csv': '#2ca02c', 'b.txt': '#9467bd'}
    """
    return {name: SOURCE_COLORS[i] if i < len(SOURCE_COLORS) else OTHER_SOURCES_COLOR
            for i, name in enumerate(sources)}


def _ring(fill: str, rings: dict[str, str], sources: tuple[str, ...], lit: bool
          ) -> dict[str, Any]:
    """pyvis node options: the role colour inside, the source's colour as a thick border
    (several sources: a dashed dark border); faded like the fill when not lit."""
    shared = len(sources) > 1
    border = ("#c5ccd3" if not lit else SHARED_COLOR if shared
              else rings.get(sources[0], OTHER_SOURCES_COLOR))
    colors = {"background": fill, "border": border}
    return {"color": {**colors, "highlight": colors, "hover": colors},
            "borderWidth": 4, "borderWidthSelected": 5,
            "shapeProperties": {"borderDashes": [4, 3] if shared else False}}


def _source_legend(rings: dict[str, str], unringed: bool) -> str:
    """The legend of the source rings (names HTML-escaped), drawn over the graph's corner."""
    shown = list(rings.items())[:len(SOURCE_COLORS)]
    more = len(rings) - len(shown)
    items = "".join(f"<span class='tq-src'><span class='tq-ring' style='border-color:{c}'>"
                    f"</span>{html.escape(name)}</span>" for name, c in shown)
    if more:
        items += (f"<span class='tq-src'><span class='tq-ring' style='border-color:"
                  f"{OTHER_SOURCES_COLOR}'></span>{more} more source{'s' if more > 1 else ''}"
                  "</span>")
    items += (f"<span class='tq-src'><span class='tq-ring' style='border-color:{SHARED_COLOR};"
              "border-style:dashed'></span>in several sources</span>")
    if unringed:
        items += "<span class='tq-src'>no ring: computed by the query</span>"
    return f"<div class='tq-legend'><b>Ring = source:</b>{items}</div>"


_CSS = ("body{margin:0;font-family:sans-serif} h1:empty{display:none} "
        "#mynetwork{border:1px solid #e4e7eb;border-radius:6px;box-sizing:border-box} "
        ".card{border:none} "
        ".tq-legend{position:absolute;top:6px;left:8px;right:8px;z-index:5;font-size:12px;"
        "color:#1f2933;line-height:20px;pointer-events:none} "
        ".tq-legend b{font-weight:600;margin-right:4px} "
        ".tq-src{display:inline-block;margin-right:12px;background:rgba(255,255,255,.85);"
        "padding:0 4px;border-radius:4px} "
        ".tq-ring{display:inline-block;width:8px;height:8px;border:3px solid;border-radius:50%;"
        "margin-right:4px;vertical-align:-2px}")


_REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"'](?!data:)[^\"']*[\"'][^>]*/?>",
                          re.IGNORECASE | re.DOTALL)
_REMOTE_SCRIPT = re.compile(r"<script\b[^>]*\bsrc\s*=\s*[\"'][^\"']*[\"'][^>]*>\s*</script>",
                            re.IGNORECASE | re.DOTALL)


def strip_remote_resources(page: str) -> str:
    """Remove ``<link href=...>`` and ``<script src=...>`` tags (pyvis links bootstrap from a
    CDN and vis from ``../node_modules`` even in ``in_line`` mode); inline code stays.

    >>> strip_remote_resources('<link href="https://x/y.css" rel="stylesheet"/><script '
    ...                        'src="https://x/y.js"></script><script>ok()</script>')
    '<script>ok()</script>'
    """
    return _REMOTE_SCRIPT.sub("", _REMOTE_LINK.sub("", page))


def _years(span: tuple[float, float]) -> str:
    a, b = span
    fmt = [("…" if not np.isfinite(x) else str(int(x))) for x in (a, b)]
    return fmt[0] if fmt[0] == fmt[1] else f"{fmt[0]}–{fmt[1]}"


# ------------------------------------------------------------------------------ timeline
def timeline_rows(trace: Trace, limit: int = 300) -> list[dict[str, Any]]:
    """Facts with time intervals considered by time-conditioned steps: kept or excluded.

    For each step whose plan uses a time operation, the candidate facts are those matching
    its relation and its head / tail (mapped nodes or an earlier step's output); the ones in
    the step's output witnesses were kept, the others excluded by the time condition.
    """
    g, rows = trace.graph, []
    if not g.is_temporal or trace.mapped is None:
        return []
    for s in trace.steps:
        if not any(op.startswith(_TIME_OPS) for op in s.ops):
            continue
        kept = {int(f) for f in s.output.all_witnesses()}
        condition, years = _time_condition(trace, s.number)
        for f in _time_candidates(trace, s.number)[:limit]:
            span = g.interval(f)
            if span is None:
                continue
            head, rel, tail = g.fact_text(f)
            start, end = span
            rows.append({"step": f"Query{s.number}", "fact": f"{head} — {rel} — {tail}",
                         "start": start if np.isfinite(start) else None,
                         "end": end if np.isfinite(end) else None,
                         "status": "kept" if f in kept else "excluded",
                         "condition": condition, "condition_years": years,
                         "source": str(g.provenance(f))})
    return rows


def _time_condition(trace: Trace, number: int) -> tuple[str, list[float]]:
    """The step's time condition as text (``time = 2002``) and the years it names."""
    assert trace.mapped is not None
    call = trace.mapped.program.query(number).call
    key, value = call.arg("key"), call.arg("value")
    if key is None or value is None:
        return "", []
    years: list[float] = []
    if isinstance(value.value, Ref):
        step = next((s for s in trace.steps if s.number == value.value.step), None)
        for e in step.output.elems if step else ():
            if isinstance(e, Scalar) and isinstance(e.value, float):
                years.append(e.value)
    else:
        text = str(value.value)
        years = [float(text)] if text.lstrip("-").isdigit() else []
    label = key.value.labels[0] if isinstance(key.value, Bound) and key.value.labels else "time"
    shown = ", ".join(f"{y:g}" for y in years) or str(value.value)
    return f"{label} {value.cmp} {shown}", years


def _time_candidates(trace: Trace, number: int) -> list[int]:
    g = trace.graph
    assert trace.mapped is not None
    call = trace.mapped.program.query(number).call
    rel, heads, tails = (_ids(trace, a.value if a is not None else None) for a in
                         (call.arg("relation"), call.arg("head_entity"), call.arg("tail_entity")))
    if not rel:
        return []
    if heads:
        facts = g.facts_heads_rel(np.asarray(sorted(heads), dtype=np.int64), rel[0])
        if tails:
            facts = facts[np.isin(g.tails_of(facts), sorted(tails))]
    elif tails:
        facts = g.facts_rel_tails(rel[0], np.asarray(sorted(tails), dtype=np.int64))
    else:
        facts = g.facts_rel(rel[0])
    return [int(f) for f in facts]


def _ids(trace: Trace, value: object) -> list[int]:
    if isinstance(value, Bound) and value.role != "time_key":
        return [int(i) for i in value.ids]
    if isinstance(value, Ref):
        step = next((s for s in trace.steps if s.number == value.step), None)
        if step is not None:
            return _nodes(step.output.elems)
    return []


def _nodes(elems: Iterable[object]) -> list[int]:
    return sorted({int(e) for e in elems if not isinstance(e, Scalar)})  # type: ignore[call-overload]
