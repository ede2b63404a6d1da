"""The mapping cascade as ordered, named stages (trustuqa_core.mapping.stages).

The expected methods, labels and scopes below were recorded with the cascade before it became
a stage list (the mapper of commit 95a71ab), so these tests pin that the one-pass walk decides
as the old branching did; the recorded stage names pin which entry of the list decided.
"""

from __future__ import annotations

import dataclasses

import pytest

from trustuqa_core import build_graph, load_source
from trustuqa_core.lexical_pool import LexicalPool
from trustuqa_core.mapping import HashingEncoder, Mapper
from trustuqa_core.mapping import mapper as mapper_module
from trustuqa_core.mapping.stages import (
    ENTITY_STAGES,
    RELATION_STAGES,
    THRESHOLD_STAGES,
    VALUE_STAGES,
    Found,
    Probe,
    Stage,
    run_stages,
)

TABLE = b"""Nation,Venue,Date,Score
Italy (ITA),Stadio Olimpico,12 February 2001,3
Spain,Camp Nou,3 February 2001,1.0
Germany,Allianz Arena,6 May 2001,2
France,Stade de France,9 June 2001,Spain
"""

# (relation or None for a relation name / "*" for an entity, literal) ->
# (deciding stage, method, labels, scope), as the old cascade mapped them
CASES = [
    (None, "Venue", "exact", "exact", ("Venue",), "relation names"),
    (None, "venue", "normalized", "normalized", ("Venue",), "relation names"),
    (None, "Venu", "fuzzy", "fuzzy", ("Venue",), "relation names"),
    (None, "ground", "closest", "fuzzy", ("row_number",), "relation names"),
    ("Nation", "Spain", "exact", "exact", ("Spain",), "values of 'Nation'"),
    ("Score", "1", "normalized", "normalized", ("1.0",), "values of 'Score'"),
    ("Score", "3.0", "normalized", "normalized", ("3",), "values of 'Score'"),
    ("Date", "February", "contains", "contains", ("12 February 2001", "3 February 2001"),
     "values of 'Date'"),
    ("Nation", "Italy", "contains", "contains", ("Italy (ITA)",), "values of 'Nation'"),
    ("Venue", "Camp Nuo", "fuzzy", "fuzzy", ("Camp Nou",), "values of 'Venue'"),
    ("Venue", "Spain", "exact_anywhere", "exact", ("Spain",), "all entities"),
    ("Venue", "spain", "normalized_anywhere", "normalized", ("Spain",), "all entities"),
    ("Venue", "Stadium", "closest", "fuzzy", ("Stadio Olimpico",), "values of 'Venue'"),
    ("Venue", "qqqq", "closest", "none", (), "values of 'Venue'"),
    ("*", "Spain", "exact", "exact", ("Spain",), "all entities"),
    ("*", "spain", "normalized", "normalized", ("Spain",), "all entities"),
    ("*", "Spian", "closest", "fuzzy", ("Spain",), "all entities"),
    ("*", "zzz", "closest", "none", (), "all entities"),
]


@pytest.fixture(scope="module")
def graph():
    return build_graph([load_source(TABLE, "table", "t.csv")])


def _recording(stages: tuple[Stage, ...], seen: list[str]) -> tuple[Stage, ...]:
    """The same stages, each noting its name when it decides."""

    def wrap(stage: Stage) -> Stage:
        def find(probe: Probe) -> Found | None:
            found = stage.find(probe)
            if found is not None:
                seen.append(stage.name)
            return found

        return Stage(stage.name, find)

    return tuple(wrap(s) for s in stages)


def _map(graph, rel: str | None, text: str, encoder=None):
    m = Mapper(graph, encoder)
    if rel is None:
        return m.map_relation(text)
    if rel == "*":
        return m.map_entity(text)
    return m.map_value(text, graph.relation(rel))


@pytest.mark.parametrize("encoder", [None, HashingEncoder()], ids=["lexical", "hashing"])
@pytest.mark.parametrize(("rel", "text", "stage", "method", "labels", "scope"), CASES)
def test_each_case_is_decided_by_the_recorded_stage(graph, monkeypatch, encoder, rel, text,
                                                    stage, method, labels, scope) -> None:
    seen: list[str] = []
    for name in ("RELATION_STAGES", "ENTITY_STAGES", "VALUE_STAGES"):
        monkeypatch.setattr(mapper_module, name, _recording(getattr(mapper_module, name), seen))
    m = _map(graph, rel, text, encoder)
    assert (m.method, m.labels, m.scope) == (method, labels, scope)
    assert seen == [stage]  # one pass: exactly one stage decided


def test_every_stage_of_the_lists_decides_some_case() -> None:
    decided = {c[2] for c in CASES}
    assert {s.name for s in RELATION_STAGES} <= decided
    assert {s.name for s in ENTITY_STAGES} <= decided
    # 'numeric' is the one value stage no case reaches: a literal whose number equals a
    # label's number also has the same normalised text, so 'normalized' decides first
    assert {s.name for s in VALUE_STAGES} - decided == {"numeric"}


def test_stage_names_are_unique_and_closest_comes_last() -> None:
    for stages in (RELATION_STAGES, ENTITY_STAGES, VALUE_STAGES, THRESHOLD_STAGES):
        names = [s.name for s in stages]
        assert len(set(names)) == len(names)
    for stages in (RELATION_STAGES, ENTITY_STAGES, VALUE_STAGES):
        assert stages[-1].name == "closest"


def test_removing_a_stage_changes_a_known_mapping(graph, monkeypatch) -> None:
    before = _map(graph, "Venue", "Spain")
    assert (before.method, before.scope) == ("exact", "all entities")
    monkeypatch.setattr(mapper_module, "VALUE_STAGES",
                        tuple(s for s in VALUE_STAGES if s.name != "exact_anywhere"))
    after = _map(graph, "Venue", "Spain")
    assert (after.method, after.labels, after.scope) == ("normalized", ("Spain",), "all entities")
    monkeypatch.setattr(mapper_module, "VALUE_STAGES",
                        tuple(s for s in VALUE_STAGES if not s.name.endswith("_anywhere")))
    guessed = _map(graph, "Venue", "Spain")
    assert guessed.scope == "values of 'Venue'" and "Spain" not in guessed.labels


def test_removing_contains_loses_the_words_match(graph, monkeypatch) -> None:
    monkeypatch.setattr(mapper_module, "VALUE_STAGES",
                        tuple(s for s in VALUE_STAGES if s.name != "contains"))
    m = _map(graph, "Date", "February")
    assert m.method != "contains" and len(m.labels) < 2


def test_threshold_stages_bind_only_equal_values(graph) -> None:
    m = Mapper(graph)
    pool = m.relation_values(graph.relation("Score"))
    assert run_stages(THRESHOLD_STAGES, Probe("Camp", pool, graph.label)) is None
    found = run_stages(THRESHOLD_STAGES, Probe("1", pool, graph.label))
    assert found is not None and found.method == "normalized"
    assert [(c.label, c.score) for c in found.candidates] == [("1.0", 1.0)]


def test_fuzzy_matches_are_computed_once_per_probe() -> None:
    calls: list[str] = []

    class CountingPool(LexicalPool):
        def fuzzy(self, text, limit=5, cutoff=0.0):
            calls.append(text)
            return super().fuzzy(text, limit, cutoff)

    pool = CountingPool([1, 2], ["Stadio Olimpico", "Camp Nou"])
    found = run_stages(VALUE_STAGES, Probe("Stadium", pool, str, entities=lambda: pool))
    assert found is not None and found.method == "fuzzy" and calls == ["Stadium"]


def test_found_is_plain_data() -> None:
    f = Found("exact", [])
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.method = "fuzzy"  # type: ignore[misc]
