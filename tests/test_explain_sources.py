"""The evidence graph coloured by source (issue 13, App): with facts from several sources each
node gets a ring in its source's colour (a dashed dark ring when several sources hold it), the
picture a legend naming the sources (escaped), and the tooltips the node's sources; a graph of
one source is drawn as before."""

from __future__ import annotations

import json
import re

from trustuqa_core import build_graph, load_source, run_query
from trustuqa_core.app_services.data import load_all, sample_uploads
from trustuqa_core.app_services.samples import example_questions, sample_sets
from trustuqa_core.explain import (
    SHARED_COLOR,
    SOURCE_COLORS,
    evidence_graph,
    overview_graph,
    render_html,
)

HOSTILE = "<img src=x onerror=alert(1)>.csv"
CHAIN = ("Query1: \"get_information(relation='Director', tail_entity='Michael Mann')\"\n"
         "Query2: \"get_information(relation='Film', head_entity='output_of_query1')\"\n"
         "Query3: \"get_information(head_entity='output_of_query2', relation='directed_by')\"")


def _trace(example_id: str):
    q = next(x for x in example_questions() if x.id == example_id)
    s = next(x for x in sample_sets() if x.id == q.sample)
    return run_query(q.query, load_all(sample_uploads(s)).graph)


def _nodes(page: str) -> dict[str, dict]:
    found = re.search(r"nodes = new vis\.DataSet\((\[.*?\])\);", page, re.S)
    assert found
    return {n["label"]: n for n in json.loads(found.group(1))}


def _legend(page: str) -> str:
    found = re.search(r"<div class='tq-legend'>.*?</div>", page, re.S)
    assert found, "no source legend"
    return found.group(0)


def _hostile_trace():
    g = build_graph([load_source(b"Film,Director\nHeat,Michael Mann\nAlien,Ridley Scott\n",
                                 "table", HOSTILE),
                     load_source(b"Heat|directed_by|Michael Mann\n", "kg", "movies.txt")])
    return run_query(CHAIN, g)


def test_nodes_know_their_sources_across_a_chain() -> None:
    ev = evidence_graph(_trace("cross-1"))
    assert ev.sources == ("comedy_ranking.csv", "movies_kg.txt", "cron_tkg.tsv")
    held = {n.label: n.sources for n in ev.nodes}
    assert held["comedy_ranking.csv row 6"] == ("comedy_ranking.csv",)
    assert held["Blazing Saddles"] == ("comedy_ranking.csv", "movies_kg.txt")
    assert held["Mel Brooks"] == ("movies_kg.txt", "cron_tkg.tsv")
    assert held["Grammy Award for Best Music Film"] == ("cron_tkg.tsv",)


def test_rings_legend_and_tooltips_name_the_sources() -> None:
    page = render_html(evidence_graph(_trace("cross-1")))
    legend = _legend(page)
    for name, color in zip(("comedy_ranking.csv", "movies_kg.txt", "cron_tkg.tsv"),
                           SOURCE_COLORS, strict=False):
        assert f"border-color:{color}'></span>{name}</span>" in legend
    assert "in several sources" in legend
    nodes = _nodes(page)
    row = nodes["comedy_ranking.csv row 6"]
    assert row["color"]["border"] == SOURCE_COLORS[0] and row["borderWidth"] == 4
    assert row["shapeProperties"]["borderDashes"] is False
    assert nodes["Grammy Award for Best Music Film"]["color"]["border"] == SOURCE_COLORS[2]
    shared = nodes["Blazing Saddles"]
    assert shared["color"]["border"] == SHARED_COLOR and shared["shapeProperties"]["borderDashes"]
    assert "shared by the sources: comedy_ranking.csv, movies_kg.txt" in shared["title"]
    assert "source: cron_tkg.tsv" in nodes["Grammy Award for Best Music Film"]["title"]
    # the role colours stay inside the rings
    assert nodes["Grammy Award for Best Music Film"]["color"]["background"] == "#1f77b4"


def test_a_hostile_source_name_is_escaped_in_the_legend_and_tooltips() -> None:
    trace = _hostile_trace()
    assert trace.answer == ["Michael Mann"]
    page = render_html(evidence_graph(trace))
    legend = _legend(page)
    assert "&lt;img src=x onerror=alert(1)&gt;.csv" in legend and "movies.txt" in legend
    assert "<img src=x" not in page
    heat = _nodes(page)["Heat"]
    assert f"shared by the sources: {HOSTILE}, movies.txt" in heat["title"]


def test_one_source_is_drawn_as_before() -> None:
    ev = evidence_graph(_trace("movies-1"))
    assert ev.sources == ("movies_kg.txt",)
    assert all(n.sources == ("movies_kg.txt",) for n in ev.nodes)
    page = render_html(ev)
    assert "tq-legend'>" not in page
    for node in _nodes(page).values():
        assert isinstance(node["color"], str) and "borderWidth" not in node
        assert "source" not in node["title"]


def test_a_highlighted_step_fades_the_rings_too() -> None:
    page = render_html(evidence_graph(_trace("cross-1")), highlight_step=4)
    row = _nodes(page)["comedy_ranking.csv row 6"]
    assert row["color"]["background"] == "#e4e7eb" and row["color"]["border"] == "#c5ccd3"


def test_the_overview_of_several_sources_is_ringed_too() -> None:
    s = next(x for x in sample_sets() if x.id == "cross")
    ev = overview_graph(load_all(sample_uploads(s)).graph, max_facts=30)
    assert ev.sources == ("comedy_ranking.csv", "movies_kg.txt", "cron_tkg.tsv")
    assert "tq-legend'>" in render_html(ev)
