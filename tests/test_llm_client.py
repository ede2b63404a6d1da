"""End-to-end tests of trustuqa_core.llm: the real openai client against FakeOpenAIServer.

Nothing leaves 127.0.0.1; retries use an injected sleep, timeouts are a fraction of a second.
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAIServer, FakeReply, Responder, echo_responder, scripted

from trustuqa_core.errors import TrustUQAError
from trustuqa_core.llm import (
    PRESETS,
    LLMAuthError,
    LLMBadResponse,
    LLMClient,
    LLMError,
    LLMHTTPError,
    LLMModelNotFound,
    LLMNotConfigured,
    LLMRateLimited,
    LLMSettings,
    LLMUnreachable,
    ResponseCache,
    SettingsError,
    load_settings,
    redact,
    request_key,
)

KEY = "sk-test-SECRET-0123456789abcdef"
MODEL = "fake-model"
MSGS = [{"role": "user", "content": "Which team won in 1990?"}]


# -- fixtures --------------------------------------------------------------------------
@pytest.fixture
def serve() -> Iterator[Callable[..., FakeOpenAIServer]]:
    """Start FakeOpenAIServers on demand; all are closed at teardown."""
    servers: list[FakeOpenAIServer] = []

    def start(responder: Responder = echo_responder, **kw: Any) -> FakeOpenAIServer:
        srv = FakeOpenAIServer(responder, **kw)
        srv.start()
        servers.append(srv)
        return srv

    yield start
    for srv in servers:
        srv.close()


class Sleeps(list):
    """Records the delays the client asked to sleep, without sleeping."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def make_client() -> Iterator[Callable[..., tuple[LLMClient, Sleeps]]]:
    clients: list[LLMClient] = []

    def make(
        base_url: str, cache: ResponseCache | None = None, **overrides: Any
    ) -> tuple[LLMClient, Sleeps]:
        fields = {"model": MODEL, "api_key": KEY, "timeout_s": 2.0, "max_retries": 3}
        fields.update(overrides)
        sleeps = Sleeps()
        client = LLMClient(LLMSettings(base_url=base_url, **fields), cache, sleep=sleeps)
        clients.append(client)
        return client, sleeps

    yield make
    for client in clients:
        client.close()


def closed_port_url() -> str:
    """A 127.0.0.1 URL on a port nobody listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# -- complete(): happy paths -----------------------------------------------------------
def test_n_samples_in_one_call(serve, make_client):
    srv = serve()
    client, sleeps = make_client(srv.base_url, temperature=0.7)
    texts = client.complete(MSGS, n=5)
    assert texts == [f"sample 0.{k}" for k in range(5)]
    assert srv.chat_calls == 1
    sent = srv.chat_requests[0]
    assert sent.json["n"] == 5
    assert sent.json["model"] == MODEL
    assert sent.json["messages"] == MSGS
    assert sent.json["temperature"] == 0.7
    assert sent.authorization == f"Bearer {KEY}"
    assert sleeps == []


def test_temperature_argument_overrides_settings(serve, make_client):
    srv = serve()
    client, _ = make_client(srv.base_url, temperature=0.7)
    client.complete(MSGS, temperature=0.0)
    assert srv.chat_requests[0].json["temperature"] == 0.0


def test_server_ignoring_n_gets_sequential_calls(serve, make_client):
    srv = serve(lambda req, i: FakeReply(ignore_n=True))
    client, _ = make_client(srv.base_url)
    texts = client.complete(MSGS, n=4)
    assert texts == ["sample 0.0", "sample 1.0", "sample 2.0", "sample 3.0"]
    assert [r.json["n"] for r in srv.chat_requests] == [4, 3, 2, 1]


def test_extra_choices_are_cut_to_n(serve, make_client):
    srv = serve(scripted(FakeReply.ok("a", "b", "c")))
    client, _ = make_client(srv.base_url)
    assert client.complete(MSGS, n=2) == ["a", "b"]


def test_keyless_local_server_gets_placeholder_key(serve, make_client):
    srv = serve()
    client, _ = make_client(srv.base_url, api_key=None)
    client.complete(MSGS)
    assert srv.chat_requests[0].authorization == "Bearer not-needed"


@pytest.mark.parametrize("n", [0, 51])
def test_n_out_of_range_is_rejected(serve, make_client, n):
    srv = serve()
    client, _ = make_client(srv.base_url)
    with pytest.raises(ValueError, match="n must be"):
        client.complete(MSGS, n=n)
    assert srv.chat_calls == 0


# -- complete(): retries ---------------------------------------------------------------
@pytest.mark.parametrize("status", [429, 500, 502, 503])
def test_transient_status_then_success(serve, make_client, status):
    srv = serve(scripted(FakeReply.error(status), FakeReply.ok("fine")))
    client, sleeps = make_client(srv.base_url)
    assert client.complete(MSGS) == ["fine"]
    assert srv.chat_calls == 2
    assert sleeps == [0.5]


def test_backoff_doubles_then_gives_up(serve, make_client):
    srv = serve(scripted(FakeReply.error(503)))
    client, sleeps = make_client(srv.base_url, max_retries=3)
    with pytest.raises(LLMHTTPError) as info:
        client.complete(MSGS)
    assert srv.chat_calls == 4
    assert sleeps == [0.5, 1.0, 2.0]
    assert info.value.status == 503
    assert srv.base_url in str(info.value)


def test_rate_limit_exhausted(serve, make_client):
    srv = serve(scripted(FakeReply.error(429, "slow down")))
    client, sleeps = make_client(srv.base_url, max_retries=2)
    with pytest.raises(LLMRateLimited, match="slow down"):
        client.complete(MSGS)
    assert srv.chat_calls == 3
    assert len(sleeps) == 2


@pytest.mark.parametrize(("header", "expected"), [("3", 3.0), ("0", 0.0), ("9999", 20.0)])
def test_retry_after_header_is_honoured_and_capped(serve, make_client, header, expected):
    srv = serve(scripted(FakeReply.error(429, headers={"Retry-After": header}), FakeReply()))
    client, sleeps = make_client(srv.base_url)
    client.complete(MSGS)
    assert sleeps == [expected]


@pytest.mark.parametrize(
    ("status", "error"),
    [(401, LLMAuthError), (403, LLMAuthError), (404, LLMModelNotFound), (400, LLMHTTPError)],
)
def test_client_errors_are_not_retried(serve, make_client, status, error):
    srv = serve(scripted(FakeReply.error(status, "nope")))
    client, sleeps = make_client(srv.base_url)
    with pytest.raises(error) as info:
        client.complete(MSGS)
    assert srv.chat_calls == 1
    assert sleeps == []
    assert info.value.status == status
    assert isinstance(info.value, TrustUQAError)


def test_timeout_then_success(serve, make_client):
    srv = serve(scripted(FakeReply.slow(1.5), FakeReply.ok("in time")))
    client, sleeps = make_client(srv.base_url, timeout_s=0.2)
    assert client.complete(MSGS) == ["in time"]
    assert srv.chat_calls == 2
    assert sleeps == [0.5]


def test_timeout_every_time_is_unreachable(serve, make_client):
    srv = serve(scripted(FakeReply.slow(1.5)))
    client, sleeps = make_client(srv.base_url, timeout_s=0.2, max_retries=1)
    with pytest.raises(LLMUnreachable, match=r"no reply within 0\.2s") as info:
        client.complete(MSGS)
    assert srv.chat_calls == 2
    assert sleeps == [0.5]
    assert srv.base_url in str(info.value)


def test_connection_refused_is_unreachable(make_client):
    url = closed_port_url()
    client, sleeps = make_client(url, max_retries=2)
    with pytest.raises(LLMUnreachable, match="Connection refused") as info:
        client.complete(MSGS)
    assert url in str(info.value)
    assert sleeps == [0.5, 1.0]


# -- complete(): bad replies -----------------------------------------------------------
@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (FakeReply.garbage("<html>oops</html>", content_type="text/html"), "not JSON"),
        (FakeReply.garbage("{truncated", content_type="application/json"), "not JSON"),
        (FakeReply.garbage(json.dumps({"id": "x"})), "no 'choices'"),
        (FakeReply.garbage(json.dumps({"choices": []})), "no 'choices'"),
        (FakeReply.garbage(json.dumps({"error": {"message": "overloaded"}})), "overloaded"),
        (FakeReply.ok("fine", None), "choice 1 has no text content"),
        (FakeReply.garbage(json.dumps({"choices": [{"text": "legacy"}]})), "choice 0"),
    ],
)
def test_garbage_reply_is_bad_response(serve, make_client, reply, message):
    srv = serve(scripted(reply))
    client, sleeps = make_client(srv.base_url)
    with pytest.raises(LLMBadResponse, match=message) as info:
        client.complete(MSGS, n=2)
    assert srv.base_url in str(info.value)
    assert srv.chat_calls == 1
    assert sleeps == []


def test_not_configured_makes_no_call():
    client = LLMClient(LLMSettings(base_url="https://api.openai.com/v1", model="gpt-4o-mini"))
    with pytest.raises(LLMNotConfigured, match="API key"):
        client.complete(MSGS)
    status = client.check_connection()
    assert (status.ok, status.problem) == (False, "not_configured")


# -- check_connection() ----------------------------------------------------------------
def test_check_ok_with_one_request(serve, make_client):
    srv = serve(models=["other", MODEL])
    client, _ = make_client(srv.base_url)
    status = client.check_connection()
    assert status.ok, status.detail
    assert status.problem is None
    assert [(r.method, r.path) for r in srv.requests] == [("GET", "/v1/models")]


def test_check_accepts_ollama_latest_tag(serve, make_client):
    srv = serve(models=["llama3.2:latest"])
    client, _ = make_client(srv.base_url, model="llama3.2")
    assert client.check_connection().ok


def test_check_unknown_model_lists_alternatives(serve, make_client):
    srv = serve(models=["llama3.2:latest", "qwen2.5"])
    client, _ = make_client(srv.base_url, model="gpt-5")
    status = client.check_connection()
    assert (status.ok, status.problem) == (False, "unknown_model")
    assert "gpt-5" in status.detail
    assert "qwen2.5" in status.detail


def test_check_unreachable(make_client):
    url = closed_port_url()
    client, sleeps = make_client(url)
    status = client.check_connection()
    assert (status.ok, status.problem) == (False, "unreachable")
    assert url in status.detail
    assert sleeps == []


@pytest.mark.parametrize("status_code", [401, 403])
def test_check_auth_failure(serve, make_client, status_code):
    srv = serve(models=FakeReply.error(status_code, f"bad key {KEY}"))
    client, _ = make_client(srv.base_url)
    status = client.check_connection()
    assert (status.ok, status.problem) == (False, "auth")
    assert KEY not in status.detail
    assert len(srv.requests) == 1


def test_check_wrong_key_against_keyed_server(serve, make_client):
    srv = serve(require_key="the-right-key")
    client, _ = make_client(srv.base_url)
    status = client.check_connection()
    assert status.problem == "auth"
    assert KEY not in status.detail


def test_check_without_models_endpoint_probes_completion(serve, make_client):
    srv = serve(models=FakeReply.error(404))
    client, _ = make_client(srv.base_url)
    status = client.check_connection()
    assert status.ok, status.detail
    assert [r.path for r in srv.requests] == ["/v1/models", "/v1/chat/completions"]
    assert srv.chat_requests[0].json["max_tokens"] == 1


def test_check_probe_404_is_unknown_model(serve, make_client):
    srv = serve(scripted(FakeReply.error(404, "model not found")), models=FakeReply.error(404))
    client, _ = make_client(srv.base_url)
    status = client.check_connection()
    assert (status.ok, status.problem) == (False, "unknown_model")
    assert len(srv.requests) == 2


@pytest.mark.parametrize(
    ("models", "problem"),
    [(FakeReply.error(500), "http_error"), (FakeReply.garbage("nonsense"), "bad_response")],
)
def test_check_other_failures(serve, make_client, models, problem):
    srv = serve(models=models)
    client, sleeps = make_client(srv.base_url)
    status = client.check_connection()
    assert (status.ok, status.problem) == (False, problem)
    assert len(srv.requests) == 1
    assert sleeps == []


# -- cache -----------------------------------------------------------------------------
def test_cache_hit_avoids_http(serve, make_client, tmp_path):
    srv = serve()
    client, _ = make_client(srv.base_url, cache=ResponseCache(tmp_path))
    first = client.complete(MSGS, n=3)
    second = client.complete(MSGS, n=3)
    assert second == first
    assert srv.chat_calls == 1


@pytest.mark.parametrize(
    "change",
    [
        {"temperature": 0.1},
        {"messages": [{"role": "user", "content": "Which team won in 1991?"}]},
        {"n": 2},
    ],
)
def test_cache_misses_when_request_differs(serve, make_client, tmp_path, change):
    srv = serve()
    client, _ = make_client(srv.base_url, cache=ResponseCache(tmp_path))
    base = {"messages": MSGS, "n": 3, "temperature": 0.7}
    client.complete(**base)
    client.complete(**{**base, **change})
    assert srv.chat_calls == 2


def test_cache_is_per_model(serve, make_client, tmp_path):
    srv = serve()
    cache = ResponseCache(tmp_path)
    make_client(srv.base_url, cache=cache)[0].complete(MSGS)
    make_client(srv.base_url, cache=cache, model="other-model")[0].complete(MSGS)
    assert srv.chat_calls == 2


def test_failures_are_not_cached(serve, make_client, tmp_path):
    srv = serve(scripted(FakeReply.error(400), FakeReply.ok("good")))
    cache = ResponseCache(tmp_path)
    client, _ = make_client(srv.base_url, cache=cache)
    with pytest.raises(LLMHTTPError):
        client.complete(MSGS)
    assert len(cache) == 0
    assert client.complete(MSGS) == ["good"]
    assert len(cache) == 1


def test_request_key_is_canonical():
    a = request_key(
        model="m", base_url="u/", messages=[{"role": "r", "content": "c"}], n=1, temperature=0
    )
    b = request_key(
        model="m", base_url="u", messages=[{"content": "c", "role": "r"}], n=1, temperature=0.0
    )
    c = request_key(
        model="m",
        base_url="u",
        messages=[{"content": "c", "role": "r"}],
        n=1,
        temperature=0.0,
        max_tokens=5,
    )
    assert a == b != c


def test_interrupted_write_leaves_old_entry_and_no_temp(tmp_path, monkeypatch):
    cache = ResponseCache(tmp_path)
    key = request_key(model="m", base_url="u", messages=MSGS, n=1, temperature=0.0)
    cache.put(key, ["old"])

    def crash(src: str, dst: str) -> None:
        raise OSError("disk vanished")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk vanished"):
        cache.put(key, ["new"])
    monkeypatch.undo()
    assert cache.get(key) == ["old"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{key}.json"]


def test_corrupt_entry_is_a_miss(tmp_path, caplog):
    cache = ResponseCache(tmp_path)
    key = request_key(model="m", base_url="u", messages=MSGS, n=1, temperature=0.0)
    cache.path_for(key).write_text("{half a fi", encoding="utf-8")
    assert cache.get(key) is None
    assert "unreadable" in caplog.text


# -- the key never leaks ---------------------------------------------------------------
def test_key_never_leaks(serve, make_client, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    echo_key = FakeReply.error(400, f"invalid request from key {KEY}")
    srv = serve(
        scripted(
            FakeReply.ok("ok"),
            FakeReply.error(429, f"quota for {KEY}"),
            echo_key,
            FakeReply.garbage(f"<html>{KEY}</html>", content_type="text/html"),
        ),
        models=FakeReply.error(401, f"Incorrect API key provided: {KEY}"),
    )
    cache = ResponseCache(tmp_path)
    client, _ = make_client(srv.base_url, cache=cache, max_retries=1)
    client.complete(MSGS)  # call 0: ok, cached
    seen: list[str] = [repr(client.settings), str(client.settings), repr(client)]
    for messages in ([{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]):
        with pytest.raises(LLMError) as info:
            client.complete(messages)  # 429 -> retry -> 400 ; then garbage
        seen += [str(info.value), repr(info.value), *map(str, info.value.args)]
    seen.append(client.check_connection().detail)
    seen += [p.read_text(encoding="utf-8") for p in tmp_path.iterdir()]
    seen.append(caplog.text)
    assert srv.requests[0].authorization == f"Bearer {KEY}"  # the key did go where it belongs
    assert len(seen) > 8
    for text in seen:
        assert KEY not in text
    assert "***" in " ".join(seen)


def test_error_chain_is_suppressed(serve, make_client):
    """The original openai exception (whose text may hold server output) is not chained."""
    srv = serve(scripted(FakeReply.error(401, KEY)))
    client, _ = make_client(srv.base_url)
    with pytest.raises(LLMAuthError) as info:
        client.complete(MSGS)
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__


@pytest.mark.parametrize(
    ("text", "secret", "expected"),
    [
        ("Bearer sk-1 and sk-1 again", "sk-1", "Bearer *** and *** again"),
        ("nothing to hide", "sk-1", "nothing to hide"),
        ("no secret given", None, "no secret given"),
        ("empty secret", "", "empty secret"),
    ],
)
def test_redact(text, secret, expected):
    assert redact(text, secret) == expected


# -- settings --------------------------------------------------------------------------
def write_secrets(path: Path, **values: str) -> Path:
    path.write_text("".join(f'{k} = "{v}"\n' for k, v in values.items()), encoding="utf-8")
    return path


def test_settings_repr_hides_key():
    s = LLMSettings("https://api.openai.com/v1", "gpt-4o-mini", api_key=KEY)
    for text in (repr(s), str(s), f"{s}"):
        assert KEY not in text
        assert "api_key='***'" in text
    assert "api_key=None" in repr(LLMSettings("http://localhost:11434/v1", "llama3.2"))


@pytest.mark.parametrize(
    ("explicit", "env", "secrets", "expected"),
    [
        (
            {"model": "m-explicit"},
            {"TRUSTUQA_MODEL": "m-env"},
            {"TRUSTUQA_MODEL": "m-file"},
            "m-explicit",
        ),
        ({}, {"TRUSTUQA_MODEL": "m-env"}, {"TRUSTUQA_MODEL": "m-file"}, "m-env"),
        ({"model": ""}, {"TRUSTUQA_MODEL": "m-env"}, {"TRUSTUQA_MODEL": "m-file"}, "m-env"),
        ({"model": None}, {}, {"TRUSTUQA_MODEL": "m-file"}, "m-file"),
    ],
)
def test_resolution_order_model(tmp_path, explicit, env, secrets, expected):
    path = write_secrets(tmp_path / "secrets.toml", OPENAI_BASE_URL="http://h:1/v1", **secrets)
    assert load_settings(explicit, env, path).model == expected


def test_resolution_order_all_fields(tmp_path):
    path = write_secrets(
        tmp_path / "secrets.toml",
        OPENAI_API_KEY="key-file",
        OPENAI_BASE_URL="http://file:1/v1",
        TRUSTUQA_MODEL="m-file",
    )
    env = {"OPENAI_API_KEY": "key-env", "OPENAI_BASE_URL": "http://env:1/v1/"}
    s = load_settings({"api_key": "key-explicit", "n": "3", "temperature": 0}, env, path)
    assert (s.api_key, s.base_url, s.model) == ("key-explicit", "http://env:1/v1", "m-file")
    assert (s.n, s.temperature) == (3, 0.0)


def test_defaults_from_os_environ_and_cwd_secrets(tmp_path, monkeypatch):
    (tmp_path / ".streamlit").mkdir()
    write_secrets(tmp_path / ".streamlit" / "secrets.toml", TRUSTUQA_MODEL="m-file")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://from-env:9/v1")
    monkeypatch.delenv("TRUSTUQA_MODEL", raising=False)
    s = load_settings()
    assert (s.base_url, s.model) == ("http://from-env:9/v1", "m-file")


def test_key_alone_means_openai(tmp_path):
    s = load_settings(env={"OPENAI_API_KEY": KEY}, secrets_path=tmp_path / "missing.toml")
    assert s.base_url == "https://api.openai.com/v1"
    assert s.model == PRESETS["OpenAI"].model
    assert s.configured


def test_nothing_configured(tmp_path):
    s = load_settings(env={}, secrets_path=tmp_path / "missing.toml")
    assert not s.configured
    assert not LLMSettings("https://api.openai.com/v1", "gpt-4o-mini").configured


@pytest.mark.parametrize("name", ["Ollama", "vLLM", "LM Studio"])
def test_local_presets_need_no_key(tmp_path, name):
    preset = PRESETS[name]
    s = load_settings(preset.to_explicit(), env={}, secrets_path=tmp_path / "missing.toml")
    assert s.configured
    assert s.api_key is None
    assert s.key_to_send == preset.placeholder_key


def test_presets_are_complete():
    assert set(PRESETS) == {"OpenAI", "Ollama", "vLLM", "LM Studio"}
    for preset in PRESETS.values():
        assert preset.base_url.endswith("/v1")
        assert preset.model
        assert preset.doc and "\n" not in preset.doc
    assert PRESETS["OpenAI"].needs_key
    assert PRESETS["Ollama"].placeholder_key == "ollama"


def test_malformed_secrets_file_names_file_not_content(tmp_path):
    path = tmp_path / "secrets.toml"
    path.write_text(f'OPENAI_API_KEY = "{KEY}\nTRUSTUQA_MODEL = 3 4\n', encoding="utf-8")
    with pytest.raises(SettingsError) as info:
        load_settings(env={}, secrets_path=path)
    message = str(info.value)
    assert str(path) in message
    assert re.fullmatch(
        rf"secrets file {re.escape(str(path))} is not valid TOML \(line 1, column \d+\)", message
    )
    assert KEY not in message
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_secrets_file_not_utf8(tmp_path):
    path = tmp_path / "secrets.toml"
    path.write_bytes(b'OPENAI_API_KEY = "\xff\xfe"\n')
    with pytest.raises(SettingsError, match="not UTF-8"):
        load_settings(env={}, secrets_path=path)


def test_secrets_value_of_wrong_type(tmp_path):
    path = tmp_path / "secrets.toml"
    path.write_text("OPENAI_API_KEY = 12345\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="must be text") as info:
        load_settings(env={}, secrets_path=path)
    assert "12345" not in str(info.value)


@pytest.mark.parametrize(
    ("explicit", "message"),
    [
        ({"modle": "x"}, "unknown LLM setting"),
        ({"n": 0}, "n must be"),
        ({"temperature": 3}, "temperature must be"),
        ({"timeout_s": 0}, "timeout_s must be"),
        ({"max_retries": 99}, "max_retries must be"),
        ({"n": "five"}, "must be a number"),
        ({"base_url": "localhost:11434"}, "base_url must start"),
    ],
)
def test_invalid_settings(tmp_path, explicit, message):
    with pytest.raises(SettingsError, match=message):
        load_settings(explicit, env={}, secrets_path=tmp_path / "missing.toml")
