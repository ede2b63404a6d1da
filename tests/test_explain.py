"""Evidence subgraph, offline HTML and timeline rows (trustuqa_core.explain)."""

from __future__ import annotations

import json
import re

import pytest

from trustuqa_core import build_graph, load_source, run_query
from trustuqa_core.app_services.data import load_all, sample_uploads
from trustuqa_core.app_services.samples import example_questions, sample_sets
from trustuqa_core.explain import (
    evidence_graph,
    overview_graph,
    render_html,
    strip_remote_resources,
    timeline_rows,
)


def _trace(example_id: str):
    q = next(x for x in example_questions() if x.id == example_id)
    s = next(x for x in sample_sets() if x.id == q.sample)
    graph = load_all(sample_uploads(s)).graph
    return run_query(q.query, graph)


@pytest.fixture(scope="module")
def cross():
    return _trace("cross-1")


def test_roles_of_the_cross_source_evidence(cross) -> None:
    ev = evidence_graph(cross)
    roles = {n.label: n.role for n in ev.nodes}
    assert roles["Grammy Award for Best Music Film"] == "mapped"
    assert roles["Mel Brooks"] == "intermediate"
    assert roles["Blazing Saddles"] == "intermediate"
    assert roles["comedy_ranking.csv row 6"] == "intermediate"
    relations = {e.relation for e in ev.edges}
    assert {"Rank", "Film", "directed_by", "award received"} <= relations
    award = next(e for e in ev.edges if e.relation == "award received")
    assert award.interval == (2002.0, 2002.0) and award.source == "cron_tkg.tsv line 15"
    assert 4 in award.steps


def test_answer_nodes_are_marked() -> None:
    ev = evidence_graph(_trace("movies-1"))
    answers = sorted(n.label for n in ev.nodes if n.role == "answer")
    assert answers == ["Gene Wilder", "Madeline Kahn", "Marty Feldman", "Peter Boyle"]
    assert {n.label for n in ev.nodes if n.role == "mapped"} == {"Young Frankenstein"}


def test_cap_keeps_the_most_important_nodes_and_says_so() -> None:
    trace = _trace("movies-3")
    full = evidence_graph(trace)
    small = evidence_graph(trace, max_nodes=3)
    assert len(small.nodes) == 3 < full.total_nodes == small.total_nodes
    assert small.capped and small.note().startswith(f"showing 3 of {full.total_nodes} nodes")
    assert all(n.role == "answer" for n in small.nodes)
    kept = {n.id for n in small.nodes}
    assert all(e.head in kept and e.tail in kept for e in small.edges)


def test_html_is_offline_fitted_and_without_physics(cross) -> None:
    page = render_html(evidence_graph(cross))
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert not re.search(r"<link[^>]*\bhref=", page)
    assert "cdn.jsdelivr" not in page and "vis.Network" in page
    assert "network.fit(" in page
    assert '"physics": false' in page or '"physics": {"enabled": false' in page
    assert page == render_html(evidence_graph(cross)), "positions must be deterministic"


def test_labels_and_titles_cannot_become_markup() -> None:
    evil = "<img src=x onerror=alert(1)>"
    g = build_graph([load_source(f"h|r|t\n{evil}|likes|</script><script>alert(2)</script>\n"
                                 .encode(), "kg", "evil.txt")])
    trace = run_query("Query1: \"get_information(relation='likes')\"", g)
    page = render_html(evidence_graph(trace))
    assert "<img src=x" not in page
    assert "</script><script>alert(2)" not in page
    assert "\\u003cimg src=x" in page  # JSON-escaped once; vis-network shows it as text
    assert "&lt;img" not in page


def _drawn(page: str, kind: str) -> list[dict]:
    """The vis.js node or edge records pyvis wrote into the page."""
    found = re.search(kind + r" = new vis\.DataSet\((\[.*?\])\);", page, re.S)
    assert found, f"no {kind} data in the page"
    return json.loads(found.group(1))


def _fill(node: dict) -> str:
    """A drawn node's fill colour (a node ringed by its source has a colour record)."""
    color = node["color"]
    return color["background"] if isinstance(color, dict) else color


def test_highlight_fades_what_a_step_did_not_touch(cross) -> None:
    # cross-1: Q1 Rank=6 -> row 6; Q2 its Film -> Blazing Saddles; Q3 directed_by -> Mel Brooks
    # and Richard Pryor (co-director); Q4 keeps the director with the Grammy fact and reads its
    # time -> 2002. Step 4 mapped 'Grammy Award for Best Music Film' and produced 2002; it did
    # not produce '6', row 6, Blazing Saddles or Richard Pryor (who has no Grammy fact), so
    # those fade, and so does the co-director's directed_by edge. (Whether the input Mel Brooks
    # is lit is a display choice this test leaves open.)
    page = render_html(evidence_graph(cross), highlight_step=4)
    color = {n["label"]: _fill(n) for n in _drawn(page, "nodes")}
    faded = {label for label, c in color.items() if c == "#e4e7eb"}
    assert {"6", "comedy_ranking.csv row 6", "Blazing Saddles", "Richard Pryor"} <= faded
    assert not faded & {"Grammy Award for Best Music Film", "2002"}
    ids = {n["label"]: n["id"] for n in _drawn(page, "nodes")}
    edge = {(e["from"], e["to"]): e["color"] for e in _drawn(page, "edges")}
    assert edge[(ids["Blazing Saddles"], ids["Richard Pryor"])] == "#e4e7eb"
    assert edge[(ids["Mel Brooks"], ids["Grammy Award for Best Music Film"])] != "#e4e7eb"
    # without a highlight nothing is faded
    plain = render_html(evidence_graph(cross))
    assert all(_fill(n) != "#e4e7eb" for n in _drawn(plain, "nodes"))


def test_timeline_keeps_and_excludes_by_time() -> None:
    rows = timeline_rows(_trace("careers-1"))
    kept = sorted(r["fact"].split(" — ")[0] for r in rows if r["status"] == "kept")
    assert kept == ["Cristian Brocchi", "Fabricio Coloccini", "Francesco Coco"]
    excluded = [r for r in rows if r["status"] == "excluded"]
    assert excluded and all("A.C. Milan" in r["fact"] for r in excluded)
    assert all(r["start"] > 2002 or r["end"] < 2002 for r in excluded)


def test_timeline_is_empty_without_time_conditions() -> None:
    assert timeline_rows(_trace("movies-1")) == []


def test_overview_graph_samples_every_source() -> None:
    s = next(x for x in sample_sets() if x.id == "cross")
    g = load_all(sample_uploads(s)).graph
    ev = overview_graph(g, max_facts=30)
    sources = {e.source.split(" ")[0] for e in ev.edges}
    assert sources == {"comedy_ranking.csv", "movies_kg.txt", "cron_tkg.tsv"}
    assert all(e.relation != "row_number" for e in ev.edges)


def test_strip_remote_resources_keeps_inline_code() -> None:
    page = ('<link rel="stylesheet" href="https://cdn.x/a.css"/><script src="../node_modules/v.js">'
            '</script><script type="text/javascript">draw()</script>')
    assert strip_remote_resources(page) == '<script type="text/javascript">draw()</script>'


def test_values_behind_an_aggregate_are_listed_with_their_rows() -> None:
    from trustuqa_core import load_graph
    from trustuqa_core.app_services.run_tables import aggregate_values
    from trustuqa_core.app_services.runs import execute_text

    g = load_graph(tables=[b"Name,Points\nAnn,10\nBob,10\nCid,3\n"])
    run = execute_text("Query1: \"get_information(relation='Points')\"\n"
                       "Query2: \"sum(set='output_of_query1')\"", g, None, origin="hand-written")
    assert run.answer == ["23"]  # a bag: both 10s count
    assert aggregate_values(run.trace, run.trace.steps[1]) == [
        ("table1 row 1: 10", 10.0), ("table1 row 2: 10", 10.0), ("table1 row 3: 3", 3.0)]
    assert aggregate_values(run.trace, run.trace.steps[0]) == []


def test_computed_answers_are_drawn_from_their_facts(cross) -> None:
    ev = evidence_graph(cross)
    year = next(n for n in ev.nodes if n.id < 0)
    assert (year.label, year.role) == ("2002", "answer")
    dashed = [e for e in ev.edges if e.computed]
    labels = {n.id: n.label for n in ev.nodes}
    assert [labels[e.head] for e in dashed] == ["Mel Brooks"]
    assert '"dashes": true' in render_html(ev)
    count = evidence_graph(_trace("slalom-1"))
    sources = sorted(labels for labels in (
        {n.id: n.label for n in count.nodes}[e.head] for e in count.edges if e.computed))
    assert sources == ["giant_slalom.csv row 2", "giant_slalom.csv row 4",
                       "giant_slalom.csv row 6"]
