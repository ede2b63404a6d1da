"""AppTest tests of every page: data loading and upload errors, asking, mapping overrides,
query edits, export / re-run, settings and the evaluate page. No test touches the network:
LLM calls are patched to fail loudly, and the connection test talks to the local fake server.
"""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer, FakeReply, scripted
from helpers import configure_llm
from streamlit.testing.v1 import AppTest

from trustuqa_core.app_services.page_settings import AppSettings
from trustuqa_core.app_services.runs import record_of
from trustuqa_core.app_services.samples import example_questions, sample_sets
from trustuqa_core.export import SourceStamp, fingerprint, to_json

REPO = Path(__file__).resolve().parents[1]
APP = str(REPO / "app.py")
TIMEOUT = 60


@pytest.fixture(autouse=True)
def _no_llm(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[None]:
    """No LLM is configured, and (except in ``test_llm_*``, which use the local fake server)
    any attempt to call one fails the test."""
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL"):
        monkeypatch.delenv(name, raising=False)
    if request.node.name.startswith("test_llm_"):
        yield
        return

    def _forbidden(*_args: object, **_kw: object) -> list[str]:
        raise AssertionError("the LLM was called")

    monkeypatch.setattr("trustuqa_core.llm.client.LLMClient.complete", _forbidden)
    yield


def _app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    return at


def _load_sample(at: AppTest, sample: str) -> AppTest:
    at.button(key=f"tq_sample_{sample}").click().run()
    assert not at.exception
    return at


def _ask(at: AppTest, question: str) -> AppTest:
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value(question).run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    return at


def _reference_first(at: AppTest) -> AppTest:
    """Example questions run their reference query only (the Settings toggle), not the
    writer (demo mode's default)."""
    at.session_state["tq_settings"] = AppSettings(reference_first=True)
    return at


def _answer_box(at: AppTest) -> str:
    """The answer as the card shows it: green when verified, amber when to be checked."""
    return "\n".join(e.value for e in [*at.success, *at.warning])


def _texts(at: AppTest) -> str:
    parts = [e.value for kind in ("markdown", "caption", "success", "error", "warning", "info")
             for e in getattr(at, kind)]
    return "\n".join(map(str, parts))


# ------------------------------------------------------------------------------ pages
@pytest.mark.parametrize("page", ["pages/1_Data.py", "pages/2_Ask.py", "pages/3_Evaluate.py",
                                  "pages/4_Settings.py"])
def test_every_page_renders_without_data(page: str, monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    monkeypatch.setenv("TRUSTUQA_DATA", str(tmp_path / "absent"))
    at = _app()
    at.switch_page(page).run()
    assert not at.exception
    assert at.title[0].value in {"Data", "Ask", "Evaluate", "Settings"}


def test_evaluate_page_says_when_benchmark_data_is_missing(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    monkeypatch.setenv("TRUSTUQA_DATA", str(tmp_path / "absent"))
    at = _app()
    at.switch_page("pages/3_Evaluate.py").run()
    assert any("Benchmark data is not available" in i.value for i in at.info)


@pytest.mark.data
def test_evaluate_page_runs_a_small_slice(data_dir: Path) -> None:
    at = _app()
    at.switch_page("pages/3_Evaluate.py").run()
    at.slider[0].set_value(5).run()
    at.button(key="tq_eval_go").click().run()
    assert not at.exception
    assert [m.label for m in at.metric][:3] == ["Questions", "Evaluable", "Accuracy (evaluable)"]
    assert at.metric[0].value == "5"
    assert "Precision of verified" in [m.label for m in at.metric]  # the trust verdict
    assert len(at.get("plotly_chart")) == 3  # outcomes, seconds, risk-coverage


@pytest.mark.data
def test_evaluate_page_explains_an_unsupported_mode(data_dir: Path) -> None:
    at = _app()
    at.switch_page("pages/3_Evaluate.py").run()
    at.selectbox[0].set_value("cronquestions")
    at.selectbox[1].set_value("replay")
    at.button(key="tq_eval_go").click().run()
    assert not at.exception
    assert any("not in the shared data folder" in i.value for i in at.info)


def test_ask_page_offers_samples_when_nothing_is_loaded() -> None:
    at = _app()
    at.switch_page("pages/2_Ask.py").run()
    assert any(i.value.startswith("Load some data first") for i in at.info)
    quick = {b.key for b in at.button if (b.key or "").startswith("tq_quick_")}
    assert quick == {f"tq_quick_{s.id}" for s in sample_sets()}
    at.button(key="tq_quick_slalom").click().run()
    assert not at.exception
    assert not any(i.value.startswith("Load some data first") for i in at.info)
    assert [u.name for u in at.session_state["tq_sources"]] == ["giant_slalom.csv"]
    # the one click loaded a usable table: a bundled question is answered on this page
    at.text_input(key="tq_question").set_value("who skied for slovenia?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception
    assert at.session_state["tq_run"].answer == ["Tina Maze"]


# ------------------------------------------------------------------------------ asking
def test_every_bundled_example_is_answered_without_an_api_key() -> None:
    """Each bundled question gives its expected answer with no LLM configured."""
    at = _reference_first(_app())
    by_sample: dict[str, list] = {}
    for q in example_questions():
        by_sample.setdefault(q.sample, []).append(q)
    for sample, questions in by_sample.items():
        at.switch_page("pages/1_Data.py").run()
        _load_sample(at, sample)
        for q in questions:
            _ask(at, q.question)
            answer = _answer_box(at)
            for expected in q.answer:
                assert f"**{expected}**" in answer, (q.id, answer)
            run = at.session_state["tq_run"]
            assert sorted(run.answer) == sorted(q.answer)
            assert run.trace.ok and run.prompt is None


def test_unknown_question_asks_for_a_hand_written_query() -> None:
    at = _load_sample(_app(), "slalom")
    _ask(at, "what is the meaning of life?")
    run = at.session_state["tq_run"]
    assert run.origin == "offline"
    if not run.answer:  # the card says why, naming the stage
        assert at.error or at.warning
    at.text_area(key="tq_hand").set_value(
        "Query1: \"get_information(relation='Nation', tail_entity='Slovenia')\"\n"
        "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"").run()
    at.button(key="tq_hand_go").click().run()
    assert not at.exception
    assert "**Tina Maze**" in _answer_box(at)
    assert at.session_state["tq_run"].origin == "hand-written"


def test_failed_step_says_which_step_and_why() -> None:
    at = _load_sample(_app(), "slalom")
    at.switch_page("pages/2_Ask.py").run()
    at.text_area(key="tq_hand").set_value(
        "Query1: \"get_information(relation='Nation', tail_entity='Slovenia')\"\n"
        "Query2: \"get_information(relation='Nation', tail_entity='Atlantis')\"\n"
        "Query3: \"set_intersection(set1='output_of_query1', set2='output_of_query2')\"").run()
    at.button(key="tq_hand_go").click().run()
    assert not at.exception
    message = " ".join(w.value for w in at.warning)
    assert "Query3" in message or "Query2" in message
    bad = at.session_state["tq_run"]
    bad_parse = "Query1: \"get_information(relation='Nation', tail_entity=)\""
    at.text_area(key=f"tq_q{bad.rid}_text").set_value(bad_parse).run()
    at.button(key=f"tq_q{bad.rid}_btn").click().run()
    assert not at.exception
    assert any("reading the query" in e.value and "line 1" in e.value for e in at.error)


def test_query_edit_reruns_without_the_llm() -> None:
    at = _load_sample(_app(), "slalom")
    _ask(at, "how many italians finished in the top ten?")
    run = at.session_state["tq_run"]
    assert run.answer == ["3"]
    edited = run.query.replace("'Italy'", "'Sweden'")
    at.text_area(key=f"tq_q{run.rid}_text").set_value(edited).run()
    at.button(key=f"tq_q{run.rid}_btn").click().run()
    assert not at.exception
    new = at.session_state["tq_run"]
    assert new.answer == ["2"] and new.origin == "edited"
    assert "**2**" in _answer_box(at)  # amber: the edited query no longer asks about Italians


def test_mapping_override_reruns_without_the_llm() -> None:
    at = _load_sample(_app(), "movies")
    at.switch_page("pages/2_Ask.py").run()
    at.text_area(key="tq_hand").set_value(
        "Query1: \"get_information(relation='director', head_entity='Inception')\"").run()
    at.button(key="tq_hand_go").click().run()
    run = at.session_state["tq_run"]
    at.button_group(key="tq_view").set_value("Mappings").run()
    assert not at.exception
    assert any("Weak mapping" in w.value for w in at.warning)
    key = f"tq_m{run.rid}"
    assert at.selectbox(key=f"{key}_arg").value == "Q1.relation"
    at.radio(key=f"{key}_choice_Q1.relation").set_value("starred_actors").run()
    at.button(key=f"{key}_apply").click().run()
    assert not at.exception
    new = at.session_state["tq_run"]
    assert new.overrides == {"Q1.relation": "starred_actors"}
    assert "Leonardo DiCaprio" in new.answer
    # typed label that does not exist: the mapping stage says so, nothing crashes
    at.button_group(key="tq_view").set_value("Mappings").run()
    key = f"tq_m{new.rid}"
    at.radio(key=f"{key}_choice_Q1.relation").set_value("(type another label)").run()
    at.text_input(key=f"{key}_typed").set_value("no such relation").run()
    at.button(key=f"{key}_apply").click().run()
    assert not at.exception
    assert any("mapping arguments" in e.value and "no such relation" in e.value
               for e in at.error)


def test_confirming_a_mapping_marks_it() -> None:
    at = _load_sample(_app(), "slalom")
    _ask(at, "how many italians finished in the top ten?")
    run = at.session_state["tq_run"]
    at.button_group(key="tq_view").set_value("Mappings").run()
    at.button(key=f"tq_m{run.rid}_confirm").click().run()
    assert at.session_state["tq_run"].confirmed == {"Q1.relation"}


def test_thumbs_up_turns_the_answer_into_a_demonstration() -> None:
    at = _load_sample(_app(), "slalom")
    at.switch_page("pages/2_Ask.py").run()
    question = "which nation did tina maze ski for?"
    at.text_input(key="tq_question").set_value(question).run()
    at.text_area(key="tq_hand").set_value(
        "Query1: \"get_information(relation='Name', tail_entity='Tina Maze')\"\n"
        "Query2: \"get_information(relation='Nation', head_entity='output_of_query1')\"").run()
    at.button(key="tq_hand_go").click().run()
    run = at.session_state["tq_run"]
    at.feedback(key=f"tq_fb_{run.rid}").set_value(1).run()
    assert not at.exception
    assert at.session_state["tq_confirmed_demos"][0]["question"] == question
    kept = at.session_state["tq_user_demos"]  # re-executed, kept in this session only
    assert [(d.question, d.answer, d.origin) for d in kept] == [(question, ("Slovenia",), "user")]
    _ask(at, "Which nation did Tina Maze ski for")
    again = at.session_state["tq_run"]
    assert again.origin == "confirmed" and again.answer == ["Slovenia"]


def test_thumbs_up_teaches_same_template_questions() -> None:
    """The trust loop in the app: the card says "confirmed" right after the click, and a later
    question of the same template (another column, the other direction) is answered by the
    re-bound confirmed query, the card naming the example (escaped)."""
    at = _load_sample(_app(), "slalom")
    at.switch_page("pages/2_Ask.py").run()
    question = "Who had the *highest* bib?"
    at.text_input(key="tq_question").set_value(question).run()
    at.text_area(key="tq_hand").set_value(
        "Query1: \"get_information(relation='Bib')\"\n"
        "Query2: \"max(set='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Bib', tail_entity='output_of_query2')\"\n"
        "Query4: \"get_information(relation='Name', head_entity='output_of_query3')\"").run()
    at.button(key="tq_hand_go").click().run()
    run = at.session_state["tq_run"]
    at.feedback(key=f"tq_fb_{run.rid}").set_value(1).run()
    assert not at.exception
    assert any(c.value.startswith("Confirmed:") for c in at.caption)
    _ask(at, "Who had the lowest run 2 rank?")
    later = at.session_state["tq_run"]
    assert later.origin == "rebound" and later.answer == ["Tessa Worley"]
    shaped = [c.value for c in at.caption if "Shaped by your confirmed example" in c.value]
    assert shaped and "Who had the \\*highest\\* bib?" in shaped[0]  # escaped Markdown
    assert any("re-bound from your confirmed example" in c.value for c in at.caption)
    # the verdict carries it too: a reason on the card (informative, escaped)
    noted = [c.value for c in at.caption if c.value.startswith("Also noted:")]
    assert noted and "`confirmed_example`" in noted[0]
    assert "shaped by your confirmed example: “Who had the \\*highest\\* bib?”" in noted[0]


# ------------------------------------------------------------------------------ views
@pytest.mark.parametrize("view", ["Evidence graph", "What the LLM saw", "Charts", "Export"])
def test_every_view_of_a_run_renders(view: str) -> None:
    at = _load_sample(_app(), "careers")
    _ask(at, "who played for A.C. Milan in 2002?")
    at.button_group(key="tq_view").set_value(view).run()
    assert not at.exception
    if view == "Evidence graph":
        page = at.get("iframe")[0].proto.srcdoc  # the graph is drawn in an iframe
        assert "Francesco Coco" in page and "vis.Network" in page and "cdn.jsdelivr" not in page
        assert any("Timeline" in m.value for m in at.markdown)
        assert len(at.get("plotly_chart")) == 1
        at.selectbox(key=f"tq_e{at.session_state['tq_run'].rid}_step").set_value("Query1").run()
        assert not at.exception and at.get("iframe")[0].proto.srcdoc != page
    if view == "Charts":
        assert len(at.get("plotly_chart")) >= 1
    if view == "Export":
        assert len(at.get("download_button")) == 3
    if view == "What the LLM saw":  # demo mode: the offline writer wrote the query
        assert any("nothing left it" in i.value for i in at.info)


def test_data_values_are_escaped_in_markdown() -> None:
    at = _app()
    at.switch_page("pages/1_Data.py").run()
    table = b"Name,Note\n<img src=x onerror=alert(1)>,**bold**\n"
    at.file_uploader(key="tq_upload").set_value(("evil.csv", table, "text/csv")).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception
    assert any("HTML/JS markup" in w.value for w in at.warning)
    at.switch_page("pages/2_Ask.py").run()
    at.text_area(key="tq_hand").set_value(
        "Query1: \"get_information(relation='row_number', tail_entity='1')\"\n"
        "Query2: \"get_information(relation='Note', head_entity='output_of_query1')\"").run()
    at.button(key="tq_hand_go").click().run()
    assert at.session_state["tq_run"].answer == ["**bold**"]
    assert "\\*\\*bold\\*\\*" in at.success[0].value
    at.text_area(key=f"tq_q{at.session_state['tq_run'].rid}_text").set_value(
        "Query1: \"get_information(relation='row_number', tail_entity='1')\"\n"
        "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"").run()
    at.button(key=f"tq_q{at.session_state['tq_run'].rid}_btn").click().run()
    assert "&lt;img" in at.success[0].value
    assert "<img" not in _texts(at)


# ------------------------------------------------------------------------------ uploads
BAD_FILES = [
    ("latin1.tsv", "kg", "h\tr\tt\nJosé\tin\tBogotá\n".encode("latin-1"), "line 2", "not UTF-8"),
    ("short.tsv", "kg", b"h\tr\tt\nA\tB\n", "line 2", "expected 3 columns, got 2"),
    ("empty.csv", "table", b"", "empty.csv", "empty"),
    ("tkg.tsv", "tkg", b"A\tr\tB\tsoon\t1999\n", "line 1", "not a year"),
]


@pytest.mark.parametrize(("name", "kind", "data", "where", "problem"), BAD_FILES)
def test_bad_upload_names_file_line_and_problem(name: str, kind: str, data: bytes, where: str,
                                                problem: str) -> None:
    at = _app()
    good = ("good.csv", b"Name,Year\nAnn,1999\n", "text/csv")
    at.file_uploader(key="tq_upload").set_value([good, (name, data, "text/plain")]).run()
    at.selectbox(key=f"tq_kind_{name}").set_value(kind).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any(name in e and where in e and problem in e for e in errors), errors
    assert [u.name for u in at.session_state["tq_sources"]] == ["good.csv"]


def test_too_big_upload_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from trustuqa_core.limits import load_limits

    small = load_limits({"TRUSTUQA_LIMIT_UPLOAD_BYTES": "100"})
    monkeypatch.setattr("trustuqa_core.app_services.data.current_limits", lambda: small)
    at = _app()
    at.file_uploader(key="tq_upload").set_value(("big.csv", b"a,b\n" + b"1,2\n" * 100,
                                                  "text/csv")).run()
    at.button(key="tq_upload_go").click().run()
    assert any("big.csv" in e.value and "larger than" in e.value for e in at.error)


def test_formula_cells_are_reported_and_defused_in_csv_exports() -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Score"])
    ws.append(["Ann", 3])
    ws.append(["=HYPERLINK(\"http://x\")", "=1+2"])
    buf = io.BytesIO()
    wb.save(buf)
    at = _app()
    at.file_uploader(key="tq_upload").set_value(("sheet.xlsx", buf.getvalue(),
                                                  "application/vnd.ms-excel")).run()
    at.button(key="tq_upload_go").click().run()
    assert not at.exception
    assert any("formula" in w.value for w in at.warning)


# ------------------------------------------------------------------------------ export
def _stamps(sample: str) -> list[SourceStamp]:
    s = next(x for x in sample_sets() if x.id == sample)
    return [SourceStamp(f.file, f.kind, fingerprint(f.read()), len(f.read())) for f in s.files]


def test_export_and_rerun_without_the_llm() -> None:
    at = _load_sample(_reference_first(_app()), "cross")
    _ask(at, next(q for q in example_questions() if q.id == "cross-1").question)
    run = at.session_state["tq_run"]
    at.button_group(key="tq_view").set_value("Export").run()
    assert not at.exception
    assert len(at.get("download_button")) == 3
    exported = to_json(record_of(run, _stamps("cross"))).encode()
    assert json.loads(exported)["answer"] == ["2002"]
    at.file_uploader(key="tq_import").set_value(("run.json", exported, "application/json")).run()
    at.button(key="tq_import_run").click().run()
    new = at.session_state["tq_run"]
    assert new.origin == "imported" and new.answer == ["2002"]
    assert "identical" in new.note and "Same answer" in new.note
    # on other data the re-run says the data differs
    at.switch_page("pages/1_Data.py").run()
    _load_sample(at, "slalom")
    at.switch_page("pages/2_Ask.py").run()
    at.file_uploader(key="tq_import").set_value(("run.json", exported, "application/json")).run()
    at.button(key="tq_import_run").click().run()
    assert not at.exception
    assert "data differs" in at.session_state["tq_run"].warnings[0]
    assert any("ranking.csv: used by the exported run but not loaded now" in w.value
               for w in at.warning)


def test_broken_export_is_rejected_with_a_message() -> None:
    at = _load_sample(_app(), "slalom")
    at.switch_page("pages/2_Ask.py").run()
    at.file_uploader(key="tq_import").set_value(("x.json", b"{not json", "application/json")).run()
    assert any("x.json" in e.value and "not valid JSON" in e.value for e in at.error)


# ------------------------------------------------------------------------------ settings
def test_api_key_is_never_displayed_and_connection_test_uses_the_server() -> None:
    secret = "sk-test-DO-NOT-SHOW-1234567890"
    with FakeOpenAIServer(models=["fake-model"]) as srv:
        at = _app()
        at.switch_page("pages/4_Settings.py").run()
        assert any("No LLM is configured" in i.value for i in at.info)
        at.radio[0].set_value("llm")
        at.selectbox[0].set_value("Custom server")
        at.text_input[0].set_value(srv.base_url)
        at.text_input[1].set_value("fake-model")
        at.button[0].click().run()
        key_box = next(t for t in at.text_input if t.label == "API key")
        key_box.set_value(secret)
        next(b for b in at.button if b.label == "Save key").click().run()
        assert not at.exception
        assert any("key set" in s.value for s in at.success)
        rendered = _texts(at) + " ".join(str(t.value) for t in at.text_input)
        assert secret not in rendered
        at.button(key="tq_test").click().run()
        assert not at.exception
        assert any(s for s in at.success if "key set" not in s.value)
        assert srv.requests and srv.requests[-1].authorization == f"Bearer {secret}"
        assert at.session_state["tq_api_key"] == secret


def test_llm_writer_shows_prompt_samples_and_vote() -> None:
    """With an LLM configured (the local fake server), the Ask page shows what it saw."""
    good = ("Step1: Find the rows whose Nation is Slovenia\n"
            "Query1: \"get_information(relation='Nation', tail_entity='Slovenia')\"\n"
            "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"")
    bad = "Query1: \"get_information(relation='Nation', tail_entity=)\""
    with FakeOpenAIServer(scripted(FakeReply.ok(good, good, bad))) as srv:
        at = _load_sample(_app(), "slalom")
        configure_llm(at, srv.base_url)
        at.switch_page("pages/4_Settings.py").run()
        at.slider[2].set_value(3)
        next(b for b in at.button if b.label == "Apply" and b.form_id == "tq_pipeline_form"
             ).click().run()
        _ask(at, "who skied for slovenia?")
        run = at.session_state["tq_run"]
        assert run.origin == "llm" and run.answer == ["Tina Maze"]
        assert run.confidence == pytest.approx(2 / 3)
        assert [s["status"] for s in run.samples] == ["answered", "answered", "parse_error"]
        assert srv.chat_calls >= 1
        messages = srv.chat_requests[0].json["messages"]
        last = messages[-1]["content"]  # the question and the schema of the user's data
        assert "who skied for slovenia?" in last and "Nation" in last
        assert not any(v in last for v in ("Tina Maze", "Tessa Worley", "2:20.54"))
        at.button_group(key="tq_view").set_value("What the LLM saw").run()
        assert not at.exception
        assert any("No data value of the loaded data was sent" in i.value for i in at.info)
        assert at.code, "the exact prompt is shown"


def test_llm_rejected_key_is_reported() -> None:
    # the server answers, but with HTTP 401: an authentication problem, not an unreachable one
    with FakeOpenAIServer(scripted(FakeReply.error(401, "bad key"))) as srv:
        at = _load_sample(_app(), "slalom")
        configure_llm(at, srv.base_url, key="sk-wrong-000000")
        _ask(at, "who skied for slovenia?")
        assert not at.exception
        shown = _texts(at)
        assert "sk-wrong-000000" not in shown
        run = at.session_state["tq_run"]
        assert not run.answer and run.writer_error
        assert "HTTP 401" in run.writer_error and "key was refused" in run.writer_error
        assert {s["status"] for s in run.samples} == {"writer_error"}
        assert any(e.value.startswith("No query was written") for e in at.error)


def test_llm_unreachable_server_is_reported() -> None:
    # nobody listens on this port: the connection is refused, so no reply and no answer
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    at = _load_sample(_app(), "slalom")
    configure_llm(at, f"http://127.0.0.1:{port}/v1")
    _ask(at, "who skied for slovenia?")
    run = at.session_state["tq_run"]
    assert not run.answer and run.writer_error
    assert f"cannot reach http://127.0.0.1:{port}/v1" in run.writer_error
    assert "Connection refused" in run.writer_error and "HTTP" not in run.writer_error
    assert {s["status"] for s in run.samples} == {"writer_error"}
    assert any(e.value.startswith("No query was written") for e in at.error)


def test_let_the_writer_try_a_bundled_question() -> None:
    at = _load_sample(_app(), "movies")
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value("who acted in Young Frankenstein?").run()
    at.button(key="tq_ask_writer").click().run()
    assert not at.exception
    run = at.session_state["tq_run"]
    assert run.origin == "offline" and run.prompt is not None
    assert run.demos and all(d["question"] != "who acted in Young Frankenstein?"
                             for d in run.demos)


def test_offline_writer_answers_a_new_question_from_demonstrations() -> None:
    at = _load_sample(_app(), "movies")
    _ask(at, "who directed Memento?")
    run = at.session_state["tq_run"]
    assert run.origin == "offline" and run.answer == ["Christopher Nolan"]
    # one program was written: there was no vote, so no vote share is shown as a confidence
    assert len(run.samples) == 1 and run.confidence is None


def test_relation_chart_is_drawn_only_when_asked_for() -> None:
    at = _load_sample(_app(), "movies")
    assert not at.get("plotly_chart")  # plotly.js would delay the first answer by seconds
    at.toggle(key="tq_rel_chart_on").set_value(True).run()
    assert not at.exception and len(at.get("plotly_chart")) == 1
