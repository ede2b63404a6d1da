"""The condition graph: indexes, several sources, provenance, intervals."""

from __future__ import annotations

import numpy as np

from trustuqa_core import build_graph, load_source

KG = (
    b"Kismet|directed_by|William Dieterle\nKismet|release_year|1944\nHeat|release_year|1995\n"
    b"Heat|directed_by|Michael Mann\nHeat|starred_actors|Al Pacino\nCollateral|directed_by|Michael Mann\n"
)


def _g():
    table = load_source(b"Film,Year\nHeat,1995\nAli,2001\n", "table", "films.csv")
    kg = load_source(KG, "kg", "kb.txt")
    return build_graph([table, kg])


def test_entities_are_shared_across_sources_but_rows_are_not() -> None:
    g = _g()
    heat = g.entity("Heat")
    assert heat is not None
    # "Heat" is a table cell and a KG head: one node
    assert {g.provenance(f).source for f in g.facts_tail(heat)} == {"films.csv"}
    assert {g.provenance(f).source for f in g.facts_head(heat)} == {"kb.txt"}
    rows = {g.label(h) for h in g.head[g.facts_rel(g.relation("Film"))]}
    assert rows == {"films.csv row 1", "films.csv row 2"}


def test_row_ids_unique_per_source_even_with_same_file_name() -> None:
    a = load_source(b"X\n1\n", "table", "t.csv")
    b = load_source(b"X\n2\n", "table", "t.csv")
    g = build_graph([a, b])
    labels = sorted(g.label(h) for h in set(g.head.tolist()))
    assert labels == ["t.csv (1) row 1", "t.csv (2) row 1"]


def test_lookups_return_the_matching_facts() -> None:
    g = _g()
    r_dir = g.relation("directed_by")
    mann = g.entity("Michael Mann")
    assert sorted(g.label(h) for h in g.heads_of(g.facts_rel_tail(r_dir, mann))) == [
        "Collateral",
        "Heat",
    ]
    heads = np.array([g.entity("Heat"), g.entity("Kismet")])
    assert sorted(g.label(t) for t in g.tails_of(g.facts_heads_rel(heads, r_dir))) == [
        "Michael Mann",
        "William Dieterle",
    ]
    assert len(g.facts_rel(r_dir)) == 3
    assert g.facts_head_rel(g.entity("Ali"), r_dir).size == 0


def test_numeric_range_index_covers_all_comparisons() -> None:
    g = _g()
    year = g.relation("release_year")

    def heads(cmp, x):
        return sorted(g.label(h) for h in g.heads_of(g.facts_rel_cmp(year, cmp, x)))

    assert heads(">", 1944) == ["Heat"]
    assert heads(">=", 1944) == ["Heat", "Kismet"]
    assert heads("<", 1995) == ["Kismet"]
    assert heads("<=", 1995) == ["Heat", "Kismet"]
    assert heads("=", 1995.0) == ["Heat"]


def test_provenance_points_to_file_line_or_row() -> None:
    g = _g()
    f = g.facts_head_rel(g.entity("Heat"), g.relation("starred_actors"))[0]
    assert str(g.provenance(f)) == "kb.txt line 5"
    f = g.facts_rel_tail(g.relation("Year"), g.entity("2001"))[0]
    assert str(g.provenance(f)) == "films.csv row 2"
    assert g.fact_text(f) == ("films.csv row 2", "Year", "2001")


def test_relation_tails_and_numeric_values() -> None:
    g = _g()
    tails = g.relation_tails(g.relation("release_year"))
    assert sorted(g.label(t) for t in tails) == ["1944", "1995"]
    assert g.numeric(g.entity("1995")) == 1995.0 and g.numeric(g.entity("Heat")) is None


def test_content_hash_changes_with_content() -> None:
    assert _g().content_hash() == _g().content_hash()
    other = build_graph([load_source(b"A|r|B\n", "kg", "x")])
    assert other.content_hash() != _g().content_hash()


def test_empty_graph_is_usable() -> None:
    g = build_graph([])
    assert g.n_facts == 0 and g.relation_names == ()
