"""answer() end to end through the real openai client against FakeOpenAIServer (127.0.0.1).

Covers: n samples and the vote, a garbage sample among good ones, 429 then success, a timeout,
a server that ignores ``n``, an undefined function answered by the LLM fallback, the privacy
switch (no data value in any request body), retries with a note, and the ``ask`` CLI.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fake_openai import FakeOpenAIServer, FakeReply, Responder, scripted

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.cli import main
from trustuqa_core.demos import DemoPool, initial_demos
from trustuqa_core.llm import LLMClient, LLMSettings
from trustuqa_core.mapping import HashingEncoder

MODEL = "fake-model"
KEY = "sk-e2e-SECRET-42"
STAFF = (b"Employee,Grade,Salary,Office\nZorvath Quill,B+,71234,Oslo\n"
         b"Mirella Dax,A-,88450,Lima\nTobin Yarrow,C,50210,Oslo\n")
DATA_VALUES = ["Zorvath Quill", "Mirella Dax", "Tobin Yarrow", "B+", "A-", "71234", "88450",
               "50210", "Oslo", "Lima"]
GOOD = ("## Target type: {Salary}\nStep1: Find the row of Mirella Dax\n"
        "Query1: \"get_information(relation='Employee', tail_entity='Mirella Dax')\"\n"
        "Query2: \"get_information(relation='Salary', head_entity='output_of_query1')\"")
OTHER = GOOD.replace("Mirella Dax", "Tobin Yarrow")
GARBAGE = "Sure! The salary is probably around 80k. <html>"
QUESTION = "What is the salary of Mirella Dax?"


@pytest.fixture(scope="module")
def graph():  # noqa: ANN201
    return load_graph(tables=[STAFF])


@pytest.fixture(scope="module")
def pool() -> DemoPool:
    return DemoPool(initial_demos(), HashingEncoder(), cache_dir=None)


@pytest.fixture
def serve() -> Iterator[Callable[..., FakeOpenAIServer]]:
    servers: list[FakeOpenAIServer] = []

    def start(responder: Responder, **kw: Any) -> FakeOpenAIServer:
        srv = FakeOpenAIServer(responder, **kw)
        srv.start()
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        srv.close()


def client_for(srv: FakeOpenAIServer, **kw: Any) -> LLMClient:
    settings = LLMSettings(srv.base_url, MODEL, api_key=KEY, **kw)
    return LLMClient(settings, None, sleep=lambda s: None)


def bodies(srv: FakeOpenAIServer) -> list[str]:
    return [json.dumps(r.json, ensure_ascii=False) for r in srv.chat_requests]


def test_n_samples_are_voted_and_the_prompt_is_the_one_sent(serve, graph, pool) -> None:
    srv = serve(scripted(FakeReply.ok(GOOD, OTHER, GARBAGE, GOOD, GOOD)))
    result = answer(QUESTION, graph, writer="openai", client=client_for(srv), demos=pool, n=5)
    assert result.answer == ["88450"] and result.confidence == pytest.approx(3 / 5)
    assert result.writer == f"llm:{MODEL}"
    assert [s.status for s in result.samples] == ["answered", "answered", "parse_error",
                                                  "answered", "answered"]
    assert [s.votes for s in result.samples] == [3, 1, 0, 3, 3]
    assert result.votes_cast == 4 and result.to_dict()["votes_cast"] == 4
    assert srv.chat_calls == 1 and srv.chat_requests[0].json["n"] == 5
    assert srv.chat_requests[0].json["messages"] == result.prompt
    assert result.prompt[-1]["content"].endswith(f"Question: {QUESTION}")
    assert result.trace is not None and result.trace.answer == ["88450"]
    assert all(KEY not in json.dumps(result.to_dict(), default=str) for _ in (0,))


def test_a_garbage_reply_among_good_ones_is_not_a_vote(serve, graph, pool) -> None:
    srv = serve(scripted(FakeReply.ok(GARBAGE, "", GOOD)))
    result = answer(QUESTION, graph, writer="openai", client=client_for(srv), demos=pool, n=3)
    assert result.answer == ["88450"] and result.confidence == pytest.approx(1 / 3)
    assert result.samples[0].error and result.samples[1].status != "answered"


def test_429_then_success(serve, graph, pool) -> None:
    srv = serve(scripted(FakeReply.error(429, "slow down", headers={"Retry-After": "0"}),
                         FakeReply.ok(GOOD, GOOD)))
    result = answer(QUESTION, graph, writer="openai", client=client_for(srv), demos=pool, n=2)
    assert result.answer == ["88450"] and srv.chat_calls == 2 and result.error is None


def test_a_timeout_is_retried_and_a_dead_server_is_reported(serve, graph, pool) -> None:
    srv = serve(scripted(FakeReply.slow(2.0, GOOD), FakeReply.ok(GOOD)))
    result = answer(QUESTION, graph, writer="openai", demos=pool, n=1,
                    client=client_for(srv, timeout_s=0.3, max_retries=2))
    assert result.answer == ["88450"] and srv.chat_calls == 2

    dead = serve(scripted(FakeReply.slow(2.0, GOOD)))
    result = answer(QUESTION, graph, writer="openai", demos=pool, n=1,
                    client=client_for(dead, timeout_s=0.2, max_retries=1))
    assert result.answer == [] and [s.status for s in result.samples] == ["writer_error"]
    assert "no reply within" in (result.error or "") and KEY not in (result.error or "")


def test_a_server_that_ignores_n(serve, graph, pool) -> None:
    srv = serve(lambda body, i: FakeReply.ok(GOOD if i < 2 else OTHER))
    result = answer(QUESTION, graph, writer="openai", client=client_for(srv), demos=pool, n=3)
    assert srv.chat_calls == 3 and len(result.samples) == 3
    assert [r.json["n"] for r in srv.chat_requests] == [3, 2, 1]
    assert result.answer == ["88450"] and result.confidence == pytest.approx(2 / 3)


def test_retry_round_with_a_note_when_nothing_executes(serve, graph, pool) -> None:
    srv = serve(scripted(FakeReply.ok(GARBAGE, GARBAGE), FakeReply.ok(GOOD, GOOD)))
    result = answer(QUESTION, graph, writer="openai", client=client_for(srv), demos=pool, n=2)
    assert result.answer == ["88450"] and result.rounds == 2 and len(result.samples) == 4
    last = srv.chat_requests[1].json["messages"][-1]["content"]
    assert "Attempt 2" in last and "parse stage" in last
    assert len(result.prompts) == 2


AGE = ("## Target type: {age}\n"
       "Query1: \"get_information(relation='Employee', tail_entity='Mirella Dax')\"\n"
       "Query2: \"get_information(relation='Salary', head_entity='output_of_query1')\"\n"
       "Query3: \"salary_band(set='output_of_query2')\"")


def fallback_aware(writer_reply: str, fallback_reply: str) -> Responder:
    def respond(body: dict, i: int) -> FakeReply:
        prompt = body["messages"][-1]["content"]
        if "inferred by an LLM" in prompt:
            return FakeReply.ok(fallback_reply)
        return FakeReply.ok(*[writer_reply] * int(body.get("n", 1)))

    return respond


def test_an_undefined_function_is_answered_by_the_fallback(serve, graph, pool) -> None:
    srv = serve(fallback_aware(AGE, '["band 7"]'))
    result = answer("Which salary band is Mirella Dax in?", graph, writer="openai",
                    client=client_for(srv), demos=pool, n=2, privacy=False)
    assert result.answer == ["band 7"] and result.inferred
    step = result.trace.steps[-1]
    assert step.status == "inferred" and f"LLM-inferred by {MODEL}" in step.inferred_note
    calls = result.fallback_calls
    assert calls and calls[0].sent and calls[0].values == ("band 7",)
    assert "salary_band(set='output_of_query2')" in calls[0].prompt
    assert '"88450"' in calls[0].prompt  # the value the step needed was sent (privacy off)
    sent = [b for b in bodies(srv) if "inferred by an LLM" in b]
    assert sent and json.loads(sent[0])["messages"][0]["content"] == calls[0].prompt


COMPARE = ("## Target type: {Employee}\n"
           "Query1: \"get_information(relation='Grade', tail_entity>'B')\"")


def test_privacy_switch_sends_no_data_value(serve, graph, pool) -> None:
    srv = serve(fallback_aware(COMPARE, '["A-", "B+"]'))
    private = answer("Who has a grade better than B?", graph, writer="openai",
                     client=client_for(srv), demos=pool, n=2, retries=1)
    assert private.answer == [] and private.privacy
    assert private.fallback_calls and not any(c.sent for c in private.fallback_calls)
    assert private.fallback_calls[0].note.startswith("privacy:")
    assert srv.chat_calls == 2  # writer rounds only: the fallback never called out
    for body in bodies(srv):
        leaked = [v for v in DATA_VALUES if v in body]
        assert leaked == []
    # the schema gives formats only (letters as a, digits as d)
    assert "Grade: a+ 33%, a- 33%, a 33% | Salary: number" in bodies(srv)[0]

    open_srv = serve(fallback_aware(COMPARE, '["A-", "B+"]'))
    shared = answer("Who has a grade better than B?", graph, writer="openai",
                    client=client_for(open_srv), demos=pool, n=2, privacy=False)
    assert sorted(shared.answer) == ["Mirella Dax", "Zorvath Quill"]
    sent = " ".join(bodies(open_srv))  # the leak check above can fail:
    assert "Employee: Zorvath Quill" in sent  # the example value of the schema
    assert "A-" in sent and "B+" in sent  # the values the comparison needed


def test_ask_cli_json(serve, tmp_path, monkeypatch, capsys) -> None:
    table = tmp_path / "staff.csv"
    table.write_bytes(STAFF)
    srv = serve(lambda body, i: FakeReply.ok(*[GOOD] * int(body.get("n", 1))))
    monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
    monkeypatch.setenv("TRUSTUQA_MODEL", MODEL)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    code = main(["ask", "--table", str(table), "--question", QUESTION, "--json"])
    out = capsys.readouterr().out
    data = json.loads(out)
    assert code == 0 and KEY not in out
    assert data["answer"] == ["88450"] and data["writer"] == f"llm:{MODEL}"
    assert data["confidence"] == 1.0 and data["prompt"][-1]["role"] == "user"
    assert [s["func"] for s in data["steps"]] == ["get_information", "get_information"]
    assert srv.chat_requests[0].authorization == f"Bearer {KEY}"

    for name in ("OPENAI_BASE_URL", "TRUSTUQA_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)  # no .streamlit/secrets.toml here
    code = main(["ask", "--table", str(table), "--question", QUESTION, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["writer"] == "offline" and isinstance(data["prompt"], str)
    assert code == (0 if data["answer"] else 1)


def test_openai_writer_without_settings_is_a_clear_error(tmp_path, monkeypatch, capsys) -> None:
    table = tmp_path / "staff.csv"
    table.write_bytes(STAFF)
    for name in ("OPENAI_BASE_URL", "TRUSTUQA_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    code = main(["ask", "--table", str(table), "--question", QUESTION, "--writer", "openai"])
    assert code == 2 and "needs an LLM" in capsys.readouterr().err
