"""Prompts: schema per source kind, what is (not) shown, messages, fallback prompts."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from trustuqa_core import load_graph
from trustuqa_core.fallback import FallbackRequest
from trustuqa_core.llm.fallback import fallback_prompt
from trustuqa_core.llm.prompts import (
    PromptDemo,
    build_messages,
    describe_schema,
    graph_kind,
    load_text,
    system_prompt,
)
from trustuqa_core.mapping import HashingEncoder

TABLE = b"Rank,Nation,Gold,Founded\n1,,10,March 1990\n2,Italy,4,May 1992\n"
KG = b"Kismet|directed_by|William Dieterle\nKismet|release_year|1944\n"
TKG = b"Angela Merkel\tposition held\tChancellor of Germany\t2005\t2021\n"


def test_table_schema_shows_the_first_non_empty_value_per_column() -> None:
    schema = describe_schema(load_graph(tables=[TABLE]))
    assert schema.kind == "table" and schema.examples
    assert schema.text == ("Table table1. Columns (name: example value): Rank: 1 | "
                           "Nation: Italy | Gold: 10 | Founded: March 1990 | row_number: 1")


def test_table_schema_without_examples_holds_no_data_value() -> None:
    schema = describe_schema(load_graph(tables=[TABLE]), examples=False)
    assert ("Nation: text, blank in 1 of 2 rows | Gold: number | Founded: month yyyy"
            in schema.text)
    for value in ("Italy", "10", "1990", "March"):
        assert value not in schema.text


def test_kg_schema_lists_relations_and_ranks_them_when_too_many() -> None:
    rels = [f"rel_{i}" for i in range(60)] + ["award_received", "place_of_birth"]
    kg = "\n".join(f"A|{r}|B{i}" for i, r in enumerate(rels)).encode()
    graph = load_graph(kgs=[kg])
    full = describe_schema(graph, "who won which award?", max_relations=100,
                           relation_tokens=10_000)
    assert full.relations == tuple(rels)
    budget = describe_schema(graph, "who won which award?")  # 62 lines exceed the budget
    assert 0 < len(budget.relations) < len(rels) and "award_received" in budget.relations
    lexical = describe_schema(graph, "which award was received?", max_relations=5)
    assert "award_received" in lexical.relations and len(lexical.relations) == 5
    assert "(the 5 most relevant of 62, each as relation: head kind -> tail kind)" in (
        lexical.text)
    dense = describe_schema(graph, "award received", max_relations=3, encoder=HashingEncoder())
    assert "award_received" in dense.relations


def test_tkg_schema_has_time_keys_and_mixed_schema_names_each_source() -> None:
    tkg = describe_schema(load_graph(tkgs=[TKG]))
    assert tkg.kind == "tkg" and tkg.text.endswith("Time keys: time, start_time, end_time")
    mixed = describe_schema(load_graph(tables=[TABLE], kgs=[KG], tkgs=[TKG]))
    assert mixed.kind == "mixed"
    assert "Table table1." in mixed.text and "Source kg1 (kg). Relations (" in mixed.text
    assert "\n- directed_by: head of 'release_year' -> its directed_by" in mixed.text
    assert "\n- position held: entity -> its position held (time: span of years)" in mixed.text
    assert "Time keys" in mixed.text


@pytest.mark.parametrize("kind", ["table", "kg", "tkg", "mixed"])
def test_system_prompt_per_kind_comes_from_data_files(kind: str) -> None:
    text = system_prompt(kind)  # type: ignore[arg-type]
    assert load_text(f"kind_{kind}.md").strip() in text
    for name in ("get_information", "set_negation", "keep", "previous_row", "'most'",
                 "output_of_queryN", "## Target type"):
        assert name in text
    assert "$" not in text  # every placeholder filled


def test_prompt_text_is_not_in_python_source() -> None:
    source = resources.files("trustuqa_core").joinpath("llm", "prompts.py").read_text()
    for line in load_text("instructions.md").splitlines():
        if len(line) > 40:
            assert line not in source


def test_messages_put_demos_between_instructions_and_question() -> None:
    graph = load_graph(kgs=[KG])
    demos = [PromptDemo("who wrote [X]?", "Query1: \"a\""),
             PromptDemo("which team won?", "Query1: \"b\"", "Table t. Columns: Team: Ajax")]
    msgs = build_messages("who directed [Kismet]?", describe_schema(graph), demos, note="N")
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user", "assistant",
                                         "user"]
    assert msgs[1]["content"] == "Question: who wrote [X]?"
    assert msgs[3]["content"] == "Table t. Columns: Team: Ajax\nQuestion: which team won?"
    assert msgs[-1]["content"] == (
        "Relations (each as relation: head kind -> tail kind):\n"
        "- directed_by: head of 'release_year' -> its directed_by; "
        "e.g. (Kismet, directed_by, William Dieterle)\n"
        "- release_year: head of 'directed_by' -> year; e.g. (Kismet, release_year, 1944)\n"
        "Question: who directed [Kismet]?\n\nN")
    assert graph_kind(graph) == "kg"


def test_fallback_prompts_per_kind() -> None:
    compare = fallback_prompt(FallbackRequest(
        "compare", 2, "get_information(relation='Grade', tail_entity>'B')", "better than B",
        {"relation": ["Grade"]}, ["A", "C+"], "who did better than B?", ">", "B"))
    assert '"Grade"' in compare and 'are > "B"' in compare
    assert '- "A"\n- "C+"' in compare and "who did better than B?" in compare
    extremum = fallback_prompt(FallbackRequest("extremum", 3, "max(set='output_of_query2')",
                                               "", {"set": ["low", "high"]}, ["low", "high"],
                                               None, "max"))
    assert "the largest" in extremum and "(not given)" in extremum
    function = fallback_prompt(FallbackRequest("function", 4, "age(set='output_of_query1')",
                                               "how old", {"set": ["1990"]}, []))
    assert 'set: ["1990"]' in function and "does not define" in function
    choice = fallback_prompt(FallbackRequest("function", 4, "pick(set='x')", "", {}, ["p", "q"]))
    assert "choose among values" in choice
    for text in (compare, extremum, function, choice):
        assert not re.search(r"\$\w", text)
