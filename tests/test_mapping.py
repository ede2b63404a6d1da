"""Semantic mapping: cascade stages, scopes, candidates, weak flags, overrides, embedding cache."""

from __future__ import annotations

import numpy as np
import pytest

from trustuqa_core import MappingError, build_graph, load_source, parse
from trustuqa_core.mapping import EmbeddingIndex, HashingEncoder, Mapper
from trustuqa_core.text import normalize

TABLE = b"""Nation,Venue,Date,Score
Italy (ITA),Stadio Olimpico,12 February 2001,3
Spain,Camp Nou,3 February 2001,1.0
Germany,Allianz Arena,6 May 2001,2
France,Stade de France,9 June 2001,Spain
"""


@pytest.fixture(scope="module")
def graph():
    return build_graph([load_source(TABLE, "table", "t.csv")])


def mapping(graph, text, encoder=None, **kw):
    mp = Mapper(graph, encoder).map_program(parse(text), **kw)
    return {m.key: m for m in mp.mappings}, mp


def test_exact_and_normalized_relations(graph) -> None:
    maps, _ = mapping(graph, "Query1: \"get_information(relation='venue')\"")
    m = maps["Q1.relation"]
    assert (m.labels, m.method, m.weak) == (("Venue",), "normalized", False)


def test_value_within_relation_first(graph) -> None:
    # 'Spain' is a Nation value and also a Score cell: the chosen relation decides
    maps, mp = mapping(graph, "Query1: \"get_information(relation='Score', tail_entity='Spain')\"")
    m = maps["Q1.tail_entity"]
    assert m.scope == "values of 'Score'" and m.method == "exact"


def test_number_formats_match(graph) -> None:
    maps, _ = mapping(graph, "Query1: \"get_information(relation='Score', tail_entity='1')\"")
    # number formats are normalised: '1' finds the cell '1.0'
    assert (
        maps["Q1.tail_entity"].labels == ("1.0",) and maps["Q1.tail_entity"].method == "normalized"
    )


def test_contains_maps_every_value_with_the_words(graph) -> None:
    maps, _ = mapping(graph, "Query1: \"get_information(relation='Date', tail_entity='February')\"")
    m = maps["Q1.tail_entity"]
    assert set(m.labels) == {"12 February 2001", "3 February 2001"} and m.method == "contains"
    assert m.weak  # several values: worth a look


def test_fuzzy_typo_within_relation(graph) -> None:
    maps, _ = mapping(
        graph, "Query1: \"get_information(relation='Venue', tail_entity='Camp Nuo')\""
    )
    m = maps["Q1.tail_entity"]
    assert m.labels == ("Camp Nou",) and m.method == "fuzzy" and m.candidates[0].label == "Camp Nou"
    assert 0 < m.margin <= 1


def test_value_elsewhere_found_globally(graph) -> None:
    maps, _ = mapping(graph, "Query1: \"get_information(relation='Venue', tail_entity='Germany')\"")
    m = maps["Q1.tail_entity"]
    assert m.labels == ("Germany",) and m.scope == "all entities"


def test_weak_mapping_is_flagged(graph) -> None:
    maps, _ = mapping(graph, "Query1: \"get_information(relation='Venue', tail_entity='zzqq')\"")
    assert maps["Q1.tail_entity"].weak


def test_dense_stage_with_an_encoder(graph) -> None:
    enc = HashingEncoder()
    maps, _ = mapping(
        graph,
        "Query1: \"get_information(relation='Nation', tail_entity='Stade Francais')\"",
        encoder=enc,
    )
    m = maps["Q1.tail_entity"]
    assert m.candidates and all(c.method in ("fuzzy", "dense") for c in m.candidates)


def test_comparison_words_are_not_guessed(graph) -> None:
    maps, mp = mapping(
        graph, "Query1: \"get_information(relation='Score', tail_entity>='highest')\""
    )
    assert "Q1.tail_entity" not in maps  # stays a literal, never a fuzzy value


def test_overrides_win_and_unknown_ones_fail(graph) -> None:
    text = "Query1: \"get_information(relation='Venue', tail_entity='Camp Nuo')\""
    maps, _ = mapping(graph, text, overrides={"Q1.tail_entity": "Allianz Arena"})
    assert (
        maps["Q1.tail_entity"].labels == ("Allianz Arena",)
        and maps["Q1.tail_entity"].method == "override"
    )
    with pytest.raises(MappingError, match="no value or entity"):
        mapping(graph, text, overrides={"Q1.tail_entity": "Wembley"})
    with pytest.raises(MappingError, match="does not exist"):
        mapping(graph, text, overrides={"Q7.tail_entity": "Camp Nou"})


def test_target_type_maps_to_a_relation(graph) -> None:
    _, mp = mapping(
        graph, "## Target type: {nations}\nQuery1: \"get_information(relation='Score')\""
    )
    assert mp.target.labels == ("Nation",)


def test_normalize_examples() -> None:
    assert normalize("Café  Crème,") == "cafe creme"
    assert normalize("1,000.0") == "1000"
    assert normalize("UCI ProTour\\nPoints") == "uci protour points"


def test_embeddings_are_cached_on_disk(tmp_path) -> None:
    class CountingEncoder(HashingEncoder):
        calls = 0

        def encode(self, texts):
            CountingEncoder.calls += 1
            return super().encode(texts)

    labels = ["Italy", "Spain", "Sweden"]
    a = EmbeddingIndex(labels, CountingEncoder(), tmp_path)
    vectors = a.vectors
    b = EmbeddingIndex(labels, CountingEncoder(), tmp_path)
    assert np.array_equal(b.vectors, vectors) and CountingEncoder.calls == 1
    assert len(list(tmp_path.glob("emb-*.npy"))) == 1
    (next(tmp_path.glob("emb-*.npy"))).write_bytes(b"garbage")
    c = EmbeddingIndex(labels, CountingEncoder(), tmp_path)
    assert np.array_equal(c.vectors, vectors) and CountingEncoder.calls == 2  # recomputed


def test_missing_model_gives_a_clear_error(tmp_path) -> None:
    from trustuqa_core.errors import ModelUnavailableError
    from trustuqa_core.mapping import MiniLMEncoder

    with pytest.raises(ModelUnavailableError, match="not found"):
        MiniLMEncoder(tmp_path / "nowhere").encode(["x"])


def test_value_is_looked_up_in_the_key_relation() -> None:
    g = build_graph([load_source(b"Season,Tier,Place\n1995,4,9th\n1996,3,4th\n", "table", "s.csv")])
    text = "Query1: \"get_information(relation='Place', tail_entity='9th', key='Tier', value='4')\""
    maps, _ = mapping(g, text)
    assert maps["Q1.value"].scope == "values of 'Tier'"
    assert maps["Q1.tail_entity"].scope == "values of 'Place'"


def test_far_literals_bind_nothing_and_the_step_says_so() -> None:
    from trustuqa_core import run_query

    g = build_graph([load_source(b"Team,Points\nDuke,10\nKansas,5\n", "table", "t.csv")])
    text = (
        "## Target type: {Points}\n"
        "Query1: \"get_information(relation='Team', tail_entity='Nowhere')\""
    )
    t = run_query(text, g, Mapper(g))
    m = t.steps[0].mappings[1]
    assert m.ids == () and m.method == "none" and m.weak and m.candidates  # still listed
    assert t.answer == [] and t.empty_step == 1
    assert "matched no value of 'Team'" in t.explain_empty()
