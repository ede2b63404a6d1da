"""Issue 16, item 1: every KG/TKG relation in a prompt carries its direction, and a model that
reads it gets the careers and movies sample questions right.

The fake server below plays a model that knows what kind of thing each named entity is (a film,
a person, an award, a team) and writes each lookup in its habitual, "natural" direction unless
the prompt's schema says otherwise: it reads ``- relation: head kind -> tail kind`` and puts
the entity on the side whose kind fits. A control run with the directions stripped from the
prompt shows the same model getting questions wrong, so the test can fail.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer, FakeReply

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.demos import DemoPool
from trustuqa_core.llm import LLMClient, LLMSettings
from trustuqa_core.llm import prompts as prompts_module
from trustuqa_core.llm.prompts import describe_schema
from trustuqa_core.mapping import HashingEncoder
from trustuqa_core.vote import answer_key

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
QUESTIONS = [json.loads(line) for line in (SAMPLES / "questions.jsonl").read_text().splitlines()
             if line.strip()]

#: what the simulated model understands a kind phrase to mean
KIND_WORDS = {
    "head of 'written_by'": "film", "head of 'directed_by'": "film",
    "head of 'release_year'": "film", "tail of 'written_by'": "person",
    "tail of 'directed_by'": "person", "its starred_actors": "person",
    "its directed_by": "person", "its written_by": "person", "its winner": "person",
    "head of 'position held'": "person", "head of 'award received'": "person",
    "its member of sports team": "team", "its position held": "position",
    "its award received": "award", "tail of 'award received'": "award",
}
KIND_OF = {"Young Frankenstein": "film", "Inception": "film", "Mel Brooks": "person",
           "A.C. Milan": "team", "Antonio Segni": "person", "Copley Medal": "award",
           "Grammy Award for Best Music Film": "award"}
#: question -> program with {side:Entity} slots; "natural" is the side the model writes by habit
PROGRAMS = {
    "who acted in Young Frankenstein?":
        ["get_information(relation='starred_actors', {head:Young Frankenstein})"],
    "who was the director of Inception?":
        ["get_information(relation='directed_by', {head:Inception})"],
    "which films did Mel Brooks both write and direct?":
        ["get_information(relation='directed_by', {head:Mel Brooks})",
         "get_information(relation='written_by', {head:Mel Brooks})",
         "set_intersection(set1='output_of_query1', set2='output_of_query2')"],
    "what genres are the films directed by Mel Brooks?":
        ["get_information(relation='directed_by', {head:Mel Brooks})",
         "get_information(relation='has_genre', head_entity='output_of_query1')"],
    "who played for A.C. Milan in 2002?":
        ["get_information(relation='member of sports team', {tail:A.C. Milan}, key='time', "
         "value='2002')"],
    "when did Mel Brooks receive the Grammy Award for Best Music Film?":
        ["get_information({head:Mel Brooks}, relation='award received', "
         "{tail:Grammy Award for Best Music Film}, key='time')"],
    "which position did Antonio Segni hold in 1961?":
        ["get_information({head:Antonio Segni}, relation='position held', key='time', "
         "value='1961')"],
    "who was the first winner of the Copley Medal?":
        ["get_information({tail:Copley Medal}, relation='winner', key='time')",
         "min(set='output_of_query1')",
         "get_information({tail:Copley Medal}, relation='winner', key='time', "
         "value='output_of_query2')"],
}
_LINE = re.compile(r"^- (?P<rel>.+?): (?P<head>.+?) -> (?P<tail>.+?)(?: \(time: [^)]*\))?"
                   r"(?:; e\.g\. .*)?$", re.M)
_SLOT = re.compile(r"\{(head|tail):([^}]+)\}")
_REL = re.compile(r"relation='([^']+)'")


def directions(prompt: str) -> dict[str, tuple[str, str]]:
    """relation -> (head kind, tail kind) as the schema in the prompt states them."""
    return {m["rel"]: (m["head"], m["tail"]) for m in _LINE.finditer(prompt)}


def write_call(call: str, seen: dict[str, tuple[str, str]]) -> str:
    """Fill the call's entity slots: the side whose kind fits the entity, else the habit."""
    rel = _REL.search(call)
    head_kind, tail_kind = seen.get(rel.group(1), ("", "")) if rel else ("", "")
    head_is = KIND_WORDS.get(head_kind)
    tail_is = KIND_WORDS.get(tail_kind)

    def fill(m: re.Match[str]) -> str:
        side, entity = m.group(1), m.group(2)
        kind = KIND_OF[entity]
        if head_is == kind or (tail_is is not None and tail_is != kind and head_is is None):
            side = "head"
        elif tail_is == kind or (head_is is not None and head_is != kind and tail_is is None):
            side = "tail"
        return f"{side}_entity='{entity}'"

    return _SLOT.sub(fill, call)


def model(request: dict, call_index: int) -> FakeReply:
    """The simulated model: reads the question and schema of the last user turn."""
    last = request["messages"][-1]["content"]
    question = re.search(r"^Question: (.+)$", last, re.M).group(1).strip()
    seen = directions(last)
    lines = [f'Query{i}: "{write_call(c, seen)}"'
             for i, c in enumerate(PROGRAMS[question], start=1)]
    return FakeReply.ok(*["\n".join(lines)] * int(request.get("n", 1)))


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(model) as srv:
        yield srv


def ask(srv: FakeOpenAIServer, item: dict, privacy: bool) -> list[str]:
    graph = load_graph(kgs=[SAMPLES / f for f in item["sources"] if f.endswith(".txt")],
                       tkgs=[SAMPLES / f for f in item["sources"] if f.endswith(".tsv")])
    client = LLMClient(LLMSettings(srv.base_url, "fake-model", api_key="k"), None,
                       sleep=lambda s: None)
    pool = DemoPool([], HashingEncoder(), cache_dir=None)
    return answer(item["question"], graph, writer="openai", client=client, demos=pool, n=2,
                  retries=1, privacy=privacy).answer


CASES = [q for q in QUESTIONS if q["sample"] in ("movies", "careers")]


@pytest.mark.parametrize("privacy", [True, False])
@pytest.mark.parametrize("item", CASES, ids=[q["id"] for q in CASES])
def test_a_model_that_reads_the_direction_answers_the_samples(server, item, privacy) -> None:
    assert answer_key(ask(server, item, privacy)) == answer_key(item["answer"])


def test_without_directions_the_same_model_goes_wrong(server, monkeypatch) -> None:
    monkeypatch.setattr(prompts_module, "_relation_line",
                        lambda graph, index, name, examples: f"- {name}")
    wrong = [q["id"] for q in CASES
             if answer_key(ask(server, q, True)) != answer_key(q["answer"])]
    assert "movies-3" in wrong and "careers-4" in wrong


@pytest.mark.parametrize("name,kind", [("movies_kg.txt", "kg"), ("cron_tkg.tsv", "tkg")])
@pytest.mark.parametrize("examples", [True, False])
def test_every_relation_line_carries_its_direction(name: str, kind: str, examples: bool) -> None:
    graph = load_graph(**{f"{kind}s": [SAMPLES / name]})
    schema = describe_schema(graph, "who?", examples=examples)
    seen = directions(schema.text)
    assert set(seen) == set(graph.relation_names)
    assert all(h and t for h, t in seen.values())
    assert ("; e.g. (" in schema.text) is examples
    if kind == "tkg":
        assert "winner: entity -> its winner (time: year)" in schema.text
