"""UniOQA's second milestone: ERR, the Cypher writer, GRAG and the merge (fake LLM server).

The small KG below is worked out by hand: Kismet and Juarez were directed by William Dieterle,
Kismet is a 1944 drama starring Ronald Colman, Juarez a 1939 film starring Bette Davis.
"""

from __future__ import annotations

import pytest
from fake_openai import FakeOpenAIServer, FakeReply, scripted

from trustuqa_core.cypher import CypherStore
from trustuqa_core.cypher.chain import chain_cypher
from trustuqa_core.cypher.compile import CypherCompileError
from trustuqa_core.cypher.literals import find_slots, parameterise
from trustuqa_core.cypher.validate import CypherValidationError
from trustuqa_core.execute import run_query
from trustuqa_core.graph import build_graph
from trustuqa_core.llm.client import LLMClient
from trustuqa_core.llm.settings import LLMSettings
from trustuqa_core.mapping import Mapper
from trustuqa_core.query.parse import parse
from trustuqa_core.translate import load_source
from trustuqa_core.unioqa import bna, merge, replace_and_run, retrieve, unioqa_answer

KG = (b"Kismet|directed_by|William Dieterle\n"
      b"Juarez|directed_by|William Dieterle\n"
      b"Kismet|release_year|1944\n"
      b"Juarez|release_year|1939\n"
      b"Kismet|has_genre|Drama\n"
      b"Kismet|starred_actors|Ronald Colman\n"
      b"Juarez|starred_actors|Bette Davis\n"
      b"Some Mother's Son|directed_by|Terry George\n")


@pytest.fixture(scope="module")
def kg(tmp_path_factory: pytest.TempPathFactory) -> tuple:
    g = build_graph([load_source(KG, "kg", "kg.txt")])
    return g, Mapper(g), CypherStore.open(g, tmp_path_factory.mktemp("lb"))


# ---------------------------------------------------------------- literals and chain form
def test_slots_find_entity_and_relation_literals_only() -> None:
    text = ("MATCH (m:Node {label: 'Kismet'})-[f:Fact]->(d) WHERE f.rel = \"directed_by\" "
            "AND d.label <> 'Some Mother\\'s Son' AND d.num = '3' RETURN 'label' AS x")
    slots = find_slots(text)
    assert [(s.kind, s.text) for s in slots] == [
        ("entity", "Kismet"), ("relation", "directed_by"), ("entity", "Some Mother's Son")]
    rebuilt, names = parameterise(text)
    assert "'Kismet'" not in rebuilt and "$e1" in rebuilt and "$e2" in rebuilt
    assert names[("relation", "directed_by")] == "r1"
    assert "'3'" in rebuilt and "'label' AS x" in rebuilt  # other literals untouched


def test_same_name_twice_is_one_parameter() -> None:
    text = ("MATCH (a:Node)-[f:Fact]->(b) WHERE a.label = 'Kismet' WITH b "
            "WHERE b.label <> 'Kismet' RETURN b.label")
    rebuilt, names = parameterise(text)
    assert list(names.values()) == ["e1"] and rebuilt.count("$e1") == 2


def test_chain_cypher_agrees_with_our_executor(kg: tuple) -> None:
    g, mapper, store = kg
    program = ("Query1: \"get_information(relation='directed_by', head_entity='Kismet')\"\n"
               "Query2: \"get_information(relation='directed_by', tail_entity='output_of_query1')\"\n"
               "Query3: \"set_difference(set1='output_of_query2', set2='Kismet')\"")
    ours = run_query(program, g, mapper).answer
    err = replace_and_run(chain_cypher(parse(program)), mapper, store)
    assert ours == ["Juarez"] and err.answer == ["Juarez"]
    count = ("Query1: \"get_information(relation='directed_by', tail_entity='William Dieterle')\"\n"
             "Query2: \"count(set='output_of_query1')\"")
    assert replace_and_run(chain_cypher(parse(count)), mapper, store).answer == ["2"]


def test_chain_cypher_refuses_other_shapes() -> None:
    with pytest.raises(CypherCompileError, match="Query2"):
        chain_cypher(parse("Query1: \"get_information(relation='a', head_entity='x')\"\n"
                           "Query2: \"set_union(set1='output_of_query1', set2='x')\""))
    with pytest.raises(CypherCompileError, match="Query1"):
        chain_cypher(parse("Query1: \"get_information(relation='a', tail_entity>'3')\""))


# ---------------------------------------------------------------------------------- ERR
def test_err_repairs_a_misspelled_entity_and_a_wrong_relation(kg: tuple) -> None:
    _, mapper, store = kg
    r = replace_and_run("MATCH (m:Node)-[f:Fact]->(y:Node) WHERE m.label = 'Juarezz' "
                        "AND f.rel = 'release year' RETURN DISTINCT y.label", mapper, store)
    assert r.answer == ["1939"]
    assert {(b.original, b.chosen) for b in r.chosen.bindings} == {
        ("Juarezz", "Juarez"), ("release year", "release_year")}
    assert r.replaced and len(r.variants) >= 2
    assert "'Juarez'" in r.rebuilt_cypher and "$e1" not in r.rebuilt_cypher
    assert all(v.error is None for v in r.variants)


def test_err_prefers_a_non_empty_variant_over_a_better_scored_empty_one(kg: tuple) -> None:
    _, mapper, store = kg
    # 'directed_by' maps exactly, but Drama has no director: the first relation's runner-ups
    # (all four relations with k_relation=4) are tried and the non-empty one is kept
    r = replace_and_run("MATCH (m:Node)-[f:Fact]->(g:Node) WHERE g.label = 'Drama' "
                        "AND f.rel = 'directed_by' RETURN DISTINCT m.label", mapper, store,
                        k_relation=4)
    assert len(r.variants) == 4
    best = max(r.variants, key=lambda v: v.score)
    assert best.answer == () and r.answer == ["Kismet"]
    assert [b.chosen for b in r.chosen.bindings if b.kind == "relation"] == ["has_genre"]


def test_err_rejects_writes_before_running(kg: tuple) -> None:
    _, mapper, store = kg
    for text in ("MATCH (n:Node) DETACH DELETE n", "CREATE (n:Node {id: 99})",
                 "MATCH (n) RETURN n; MATCH (m) SET m.label = 'x'"):
        with pytest.raises(CypherValidationError):
            replace_and_run(text, mapper, store)


def test_err_records_a_variant_the_database_refuses(kg: tuple) -> None:
    _, mapper, store = kg
    r = replace_and_run("MATCH (m:Node) WHERE m.label = 'Kismet' RETURN m.nosuchkey",
                        mapper, store)
    assert r.answer == [] and r.variants[0].error and "Ladybug" in r.variants[0].error


# --------------------------------------------------------------------------------- GRAG
def test_grag_ranks_the_translators_relation_first_and_keeps_the_budget(kg: tuple) -> None:
    g, mapper, _ = kg
    r = retrieve("what year was [Kismet] released", g, mapper, relations=["release_year"],
                 budget=2)
    assert r.entities == ("Kismet",) and r.candidates == 4 and len(r.triples) == 2
    assert r.triples[0].sentence == "The release year of Kismet is 1944."


# -------------------------------------------------------------------------------- merge
@pytest.mark.parametrize(("tr", "se", "replaced", "verdict", "grounded", "source", "reason"), [
    (["A"], None, False, None, False, "translator", "no_searcher"),
    ([], ["B"], False, None, True, "searcher", "no_translator"),
    (["A", "B"], ["b"], True, "check", False, "translator", "agree"),
    (["A"], ["B"], False, "check", True, "translator", "trusted_execution"),
    (["A"], ["B"], True, "verified", True, "translator", "trusted_execution"),
    (["A"], ["B"], True, "check", True, "searcher", "grounded_searcher"),
    (["A"], ["B"], True, "check", False, "translator", "default_execution"),
    ([], None, False, None, False, "none", "no_searcher"),
])
def test_merge_rules(tr: list, se: list | None, replaced: bool, verdict: str | None,
                     grounded: bool, source: str, reason: str) -> None:
    d = merge(tr, se, replaced=replaced, verdict=verdict, grounded=grounded)
    assert (d.source, d.reason) == (source, reason)
    assert d.unverified == (source == "searcher")


def test_bna_uses_the_searcher_only_when_execution_is_empty() -> None:
    assert bna(["A"], ["B"]).answer == ("A",)
    assert bna([], ["B"]).answer == ("B",) and bna([], ["B"]).unverified


# ------------------------------------------------------------- end to end, fake LLM server
def _client(srv: FakeOpenAIServer) -> LLMClient:
    return LLMClient(LLMSettings(srv.base_url, "fake-model", api_key="k"), None,
                     sleep=lambda s: None)


def test_llm_translator_err_searcher_and_merge_end_to_end(kg: tuple) -> None:
    g, mapper, store = kg
    cypher = ("```cypher\nMATCH (m:Node)-[f:Fact]->(a:Node) WHERE m.label = 'Juarezz' "
              "AND f.rel = 'actor' RETURN DISTINCT a.label\n```")
    with FakeOpenAIServer(scripted(FakeReply.ok(cypher), FakeReply.ok("Bette Davis"))) as srv:
        a = unioqa_answer("who acted in [Juarezz]", g, writer="openai", client=_client(srv),
                          mapper=mapper, store=store)
        sent = [r.json["messages"] for r in srv.chat_requests]
    assert a.answer == ["Bette Davis"] and a.decision.reason == "agree"
    assert a.decision.source == "translator" and not a.decision.unverified
    bound = {(b.original, b.chosen) for b in a.translator.err.chosen.bindings}
    assert bound == {("Juarezz", "Juarez"), ("actor", "starred_actors")}
    assert a.searcher is not None and a.searcher.grounded and a.searcher.unverified
    assert "The starred actors of Juarez is Bette Davis." in sent[1][0]["content"]
    assert "starred_actors" in sent[0][0]["content"]  # the schema reached the Cypher prompt
    assert a.to_dict()["searcher"]["label"] == "LLM-read, not executed"


def test_hostile_cypher_is_refused_and_the_searcher_answers(kg: tuple) -> None:
    g, mapper, store = kg
    with FakeOpenAIServer(scripted(FakeReply.ok("MATCH (n:Node) DETACH DELETE n"),
                                   FakeReply.ok("1944"))) as srv:
        a = unioqa_answer("when was [Kismet] released", g, writer="openai",
                          client=_client(srv), mapper=mapper, store=store)
    assert "DETACH" in (a.translator.error or "") and a.translator.err is None
    assert a.answer == ["1944"] and a.decision.reason == "no_translator"
    assert a.decision.unverified and a.searcher is not None and a.searcher.grounded
    assert store.execute("MATCH (n:Node) RETURN count(n)")[0][0] == g.n_nodes


def test_searcher_overruled_when_execution_needed_no_replacement(kg: tuple) -> None:
    g, mapper, store = kg
    cypher = ("MATCH (m:Node)-[f:Fact]->(d:Node) WHERE m.label = 'Kismet' "
              "AND f.rel = 'directed_by' RETURN d.label")
    with FakeOpenAIServer(scripted(FakeReply.ok(cypher), FakeReply.ok("Ronald Colman"))) as srv:
        a = unioqa_answer("who directed [Kismet]", g, writer="openai", client=_client(srv),
                          mapper=mapper, store=store)
    assert a.answer == ["William Dieterle"] and a.decision.reason == "trusted_execution"
    assert a.searcher is not None and a.searcher.answer == ["Ronald Colman"]


def test_offline_translator_exercises_err_without_an_llm(kg: tuple) -> None:
    g, mapper, store = kg
    a = unioqa_answer("who directed [Juarez]", g, writer="offline", mapper=mapper, store=store)
    assert a.answer == ["William Dieterle"] and a.searcher is None
    assert a.translator.err is not None and a.translator.err.variants
    assert "MATCH" in a.translator.cypher and "'Juarez'" in a.translator.cypher
