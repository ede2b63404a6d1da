"""Issue 16: the LLM path as a real model sees it (formats, relation choice, retries, context
budgets, the item-9 bugs). Direction has its own file, test_llm_path_direction.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer, FakeReply, scripted

from trustuqa_core import Mapper, load_graph, run_query
from trustuqa_core.answer import answer
from trustuqa_core.demos import DemoPool
from trustuqa_core.evaluate.answer_eval import AnswerEvaluation
from trustuqa_core.graph import build_graph
from trustuqa_core.llm import LLMClient, LLMSettings
from trustuqa_core.llm.budget import context_warning, estimate_tokens
from trustuqa_core.llm.prompts import describe_schema, load_text
from trustuqa_core.llm.relations import choose_relations, linked_entities, relation_tiers
from trustuqa_core.llm.settings import PRESETS, load_settings
from trustuqa_core.llm.shapes import column_profile, value_shape
from trustuqa_core.mapping import HashingEncoder
from trustuqa_core.sources import SourceFacts

ROOT = Path(__file__).resolve().parents[1]
SLALOM = ROOT / "sample_data" / "giant_slalom.csv"


# -- item 3: formats and blanks under privacy -------------------------------------------------
def test_private_table_schema_gives_formats_and_blanks_but_no_value() -> None:
    graph = load_graph(tables=[SLALOM])
    text = describe_schema(graph, examples=False).text
    assert "Run 1: d:dd.dd" in text and "Total: d:dd.dd" in text
    assert "Rank: number, blank in 3 of 20 rows" in text
    assert "Difference: number, blank in 1 of 20 rows" in text
    cells = SLALOM.read_text().splitlines()[1].split(",")
    for value in [c for c in cells if c and not c.isdigit()]:
        assert value not in text


@pytest.mark.parametrize("value,shape", [("1:07.05", "d:dd.dd"), ("2011-03-04", "yyyy-mm-dd"),
                                         ("1999", "yyyy"), ("+0.74", "+d.dd"),
                                         ("Tina Maze", "text"), ("", "blank")])
def test_value_shapes(value: str, shape: str) -> None:
    assert value_shape(value) == shape


def test_column_profile_mixes_formats_with_shares() -> None:
    g = load_graph(tables=[b"A\n1\n2\nx1\n"])
    assert column_profile(g, 0, "A") == "number 67%, ad 33%"


def test_benchmark_answer_runs_pass_an_explicit_privacy_setting() -> None:
    seen = {}

    def fake_answer(question, graph, writer=None, settings=None, privacy=True):  # noqa: ANN001,ANN202
        seen["privacy"] = privacy
        return ["x"]

    assert AnswerEvaluation("wtq", answer_fn=fake_answer).privacy is False
    ev = AnswerEvaluation("wtq", answer_fn=fake_answer, privacy=True)
    assert ev._takes_privacy and ev.privacy is True


# -- item 4: relation choice from the question's entities -------------------------------------
def _big_kg() -> tuple:
    heads, rels, tails = [], [], []
    for i in range(60):  # 60 bigger relations on other entities, none touching "Ann"
        for j in range(3):
            heads.append(f"X{i}")
            rels.append(f"rel_{i}")
            tails.append(f"Y{i}-{j}")
    for h, r, t in [("Ann", "profession", "Cook"), ("Cook", "category", "Trade"),
                    ("Bob", "profession", "Smith")]:
        heads.append(h)
        rels.append(r)
        tails.append(t)
    graph = build_graph([SourceFacts("kb", "kg", heads, rels, tails, list(range(len(rels))))])
    return graph, Mapper(graph, None)


def test_relations_start_from_the_linked_entities() -> None:
    graph, mapper = _big_kg()
    anchors = linked_entities("what does ann do for a living?", mapper)
    assert [graph.label(a) for a in anchors] == ["Ann"]
    one, two, _ = relation_tiers(graph, anchors)
    assert {graph.relation_names[r] for r in one} == {"profession"}
    assert {graph.relation_names[r] for r in two} == {"category"}
    rels = list(graph.relation_names)
    shown = choose_relations(graph, rels, "what does ann do for a living?", 5, anchors=anchors)
    assert "profession" in shown and "category" in shown and len(shown) == 5
    blind = choose_relations(graph, rels, "what does ann do for a living?", 5)
    assert "profession" not in blind  # similarity alone misses it: no shared word
    schema = describe_schema(graph, "what does ann do for a living?", max_relations=5,
                             mapper=mapper)
    assert "profession" in schema.relations


def test_relation_recall_on_the_benchmarks_is_measured_by_a_script() -> None:
    from trustuqa_core.evaluate.relation_recall import WIKIDATA_RELATIONS, Case, relation_recall

    graph, _ = _big_kg()
    cases = [Case("1", "what does ann do for a living?", ("profession",)),
             Case("2", "what does ann do for a living?", ("rel_3",))]
    result = relation_recall("toy", cases, graph, None, 5)
    assert (result.hits, result.n, list(result.missed)) == (1, 2, ["2"])
    assert WIKIDATA_RELATIONS["P39"] == "position held"
    assert (ROOT / "scripts" / "relation_recall.py").is_file()


# -- item 2: retries show the failed program, the error and the emptying step ----------------
def test_retry_shows_the_failed_program_and_the_empty_step_without_values() -> None:
    bad = ("Query1: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
           "Query2: \"get_information(relation='Nation', tail_entity='Austria')\"\n"
           "Query3: \"set_intersection(set1='output_of_query1', set2='output_of_query2')\"")
    good = "Query1: \"get_information(relation='Name', tail_entity='Tina Maze')\"\n" \
           "Query2: \"get_information(relation='Total', head_entity='output_of_query1')\""
    with FakeOpenAIServer(scripted(FakeReply.ok(bad, bad), FakeReply.ok(good, good))) as srv:
        client = LLMClient(LLMSettings(srv.base_url, "fake-model", api_key="k"), None,
                           sleep=lambda s: None)
        result = answer("how long did it take tina maze?", load_graph(tables=[SLALOM]),
                        writer="openai", client=client, n=2, retries=1,
                        demos=DemoPool([], HashingEncoder(), cache_dir=None))
        retry = srv.chat_requests[1].json["messages"][-1]["content"]
    assert result.answer == ["2:20.54"]
    assert "This program failed:" in retry and "tail_entity='Austria'" in retry
    assert "Query3 `set_intersection(set1='output_of_query1', set2='output_of_query2')` " \
           "returned nothing" in retry
    assert "1:07.05" not in retry and "Slovenia" not in retry  # no data value under privacy


def test_retry_error_messages_are_redacted_under_privacy() -> None:
    from trustuqa_core.llm.retries import failure_details

    graph = load_graph(tables=[SLALOM])
    text = "Query1: \"sum(set='output_of_query7')\""
    trace = run_query(text, graph, Mapper(graph, None))
    assert trace.error is not None
    details = failure_details(text, trace, privacy=True)
    assert "Error at the" in details and "output_of_query7" in details


# -- item 8: context budgets --------------------------------------------------------------------
def test_context_budget_warns_and_ollama_gets_num_ctx() -> None:
    long = [{"role": "system", "content": "word " * 4000}]
    assert estimate_tokens(long) >= 4000
    assert context_warning(long, 2048, "tiny") is not None
    assert context_warning(long, 128_000) is None
    ollama = load_settings({"base_url": PRESETS["Ollama"].base_url}, env={},
                           secrets_path=ROOT / "no-such.toml")
    assert ollama.model == "llama3.1" and ollama.context_tokens == 16384
    assert ollama.extra_body == {"options": {"num_ctx": 16384}}
    assert "llama3.1" in (ROOT / "README.md").read_text()


def test_the_warning_reaches_the_answer_and_num_ctx_reaches_the_server() -> None:
    good = "Query1: \"get_information(relation='Name', tail_entity='Tina Maze')\""
    with FakeOpenAIServer(scripted(FakeReply.ok(good))) as srv:
        base = srv.base_url
        settings = LLMSettings(base, "phi3", api_key="k")  # a 4,096-token model
        client = LLMClient(settings, None, sleep=lambda s: None)
        big = load_graph(tables=[("A" + ",B" * 5 + "\n" + ("x,y" + ",z" * 4 + "\n") * 3)
                                 .encode()])
        result = answer("q " * 3000, big, writer="openai", client=client, n=1, retries=0,
                        demos=DemoPool([], HashingEncoder(), cache_dir=None))
    assert result.warnings and "context of 4,096" in result.warnings[0]
    assert result.prompt_tokens and result.prompt_tokens[0] > 4000
    assert result.to_dict()["warnings"] == result.warnings


def test_the_app_run_shows_the_context_warning() -> None:
    """The Ask page shows ``Run.warnings`` above the answer: a prompt longer than the
    configured model's context must land there, not only in ``Answer.warnings``."""
    from trustuqa_core.app_services.ask import written_run

    good = "Query1: \"get_information(relation='Name', tail_entity='Tina Maze')\""
    graph = load_graph(tables=[SLALOM])
    with FakeOpenAIServer(scripted(FakeReply.ok(good))) as srv:
        small = LLMSettings(srv.base_url, "phi3", api_key="k")  # a 4,096-token model
        run = written_run("q " * 3000, graph, Mapper(graph, None), writer="openai",
                          settings=small, demos=DemoPool([], HashingEncoder(), cache_dir=None),
                          n=1, k=0, m=0, privacy=True)
        big = LLMSettings(srv.base_url, "gpt-4o", api_key="k")
        fine = written_run("who won?", graph, Mapper(graph, None), writer="openai",
                           settings=big, demos=DemoPool([], HashingEncoder(), cache_dir=None),
                           n=1, k=0, m=0, privacy=True)
    assert any("context of 4,096" in w for w in run.warnings), run.warnings
    assert not any("context of" in w for w in fine.warnings)


def test_client_sends_the_preset_options(monkeypatch) -> None:
    good = "Query1: \"get_information(relation='Name', tail_entity='Tina Maze')\""
    with FakeOpenAIServer(scripted(FakeReply.ok(good))) as srv:
        from trustuqa_core.llm import settings as settings_module

        preset = settings_module.Preset("Test", srv.base_url, "m", False, "", "x",
                                        {"num_ctx": 1234})
        monkeypatch.setitem(settings_module.PRESETS, "Test", preset)
        client = LLMClient(LLMSettings(srv.base_url, "m"), None, sleep=lambda s: None)
        client.complete([{"role": "user", "content": "hi"}])
        body = srv.chat_requests[0].json
    assert body["options"] == {"num_ctx": 1234}


# -- item 9: the bugs ----------------------------------------------------------------------------
def test_ask_can_turn_privacy_off() -> None:
    out = subprocess.run([sys.executable, "-m", "trustuqa_core", "ask", "--table", str(SLALOM),
                          "--question", "who ranked next after federica brignone?",
                          "--writer", "offline", "--allow-data", "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["privacy"] is False and data["answer"] == ["Tessa Worley"]


def test_mixed_instructions_have_the_table_notes() -> None:
    text = load_text("kind_mixed.md")
    assert "row_number" in text and "target type" in text and "head kind -> tail kind" in text


def test_set_difference_of_rows_minus_a_value_drops_the_rows_holding_it() -> None:
    graph = load_graph(tables=[ROOT / "sample_data" / "comedy_ranking.csv"])
    q = ("Query1: \"get_information(relation='Year', tail_entity>'1970')\"\n"
         "Query2: \"set_difference(set1='output_of_query1', set2='Blazing Saddles')\"\n"
         "Query3: \"get_information(relation='Film', head_entity='output_of_query2')\"")
    trace = run_query(q, graph, Mapper(graph, None))
    assert "Blazing Saddles" not in trace.answer and "Tootsie" in trace.answer
    assert any(re.search(r"left out the 1 row", n) for n in trace.steps[1].notes)


# -- docs: the captured prompt of every source kind ------------------------------------------
def test_prompts_page_has_every_kind_and_every_relation_line_has_a_direction() -> None:
    text = (ROOT / "docs" / "PROMPTS.md").read_text(encoding="utf-8")
    for title in ("## Table", "## Knowledge graph", "## Temporal knowledge graph",
                  "## Mixed (table + KG + TKG)"):
        assert f"\n{title}\n" in text
    lines = [ln for ln in text.splitlines() if re.match(r"- [^`*]+: ", ln)
             and "Relations" not in ln]
    relation_lines = [ln for ln in lines if "(time:" in ln or "head of" in ln or " its " in ln]
    assert relation_lines and all(" -> " in ln for ln in relation_lines)
    assert (ROOT / "scripts" / "capture_prompts.py").is_file()


# -- item 7: a paper-strength fallback ---------------------------------------------------------
COMPARE = ("Query1: \"get_information(relation='Name', tail_entity='Tina Maze')\"\n"
           "Query2: \"get_information(relation='Name', tail_entity='Tessa Worley')\"\n"
           "Query3: \"compare(set1='output_of_query1', set2='output_of_query2', "
           "relation='Run 1')\"")


def _fallback_run(privacy: bool) -> tuple[object, list[dict]]:
    def reply(body: dict, i: int) -> FakeReply:
        if "worked examples" in body["messages"][-1]["content"]:
            return FakeReply.ok('["Tina Maze"]')
        return FakeReply.ok(*[COMPARE] * int(body.get("n", 1)))

    with FakeOpenAIServer(reply) as srv:
        client = LLMClient(LLMSettings(srv.base_url, "fake-model", api_key="k"), None,
                           sleep=lambda s: None)
        result = answer("who was faster in run 1, tina maze or tessa worley?",
                        load_graph(tables=[SLALOM]), writer="openai", client=client, n=1,
                        retries=0, privacy=privacy,
                        demos=DemoPool([], HashingEncoder(), cache_dir=None))
        return result, [r.json for r in srv.chat_requests]


def test_fallback_sees_the_step_path_and_the_cells_of_the_rows_when_privacy_allows() -> None:
    result, bodies = _fallback_run(privacy=False)
    prompt = result.fallback_calls[0].prompt
    assert result.answer == ["Tina Maze"] and result.inferred
    assert "Example 1." in prompt and "Example 2." in prompt  # few-shot
    assert "Query1: get_information(relation='Name', tail_entity='Tina Maze') -> " \
           "['giant_slalom.csv row 1']" in prompt
    assert "giant_slalom.csv row 1: " in prompt and "Run 1=1:07.05" in prompt
    assert "Run 1=1:09.17" in prompt and "privacy switch off" in prompt
    assert "Privacy is off" in bodies[0]["messages"][0]["content"]


def test_under_privacy_the_fallback_sends_nothing_and_the_writer_is_told() -> None:
    result, bodies = _fallback_run(privacy=True)
    assert not result.answer and not any(c.sent for c in result.fallback_calls)
    assert len(bodies) == 1  # the writer's request only
    assert "Privacy is on" in bodies[0]["messages"][0]["content"]
    assert "1:07.05" not in json.dumps(bodies)
