"""PostgreSQL on the Data page (issue #15): a URL (and a password apart from it) opens a
table that answers a question; the password is never shown, kept or exported; a bad URL and
a refused connection give clear errors. Uses the throwaway cluster of
``test_sources_postgres`` (skipped only where the server programs are missing, required when
``TRUSTUQA_REQUIRE_POSTGRES=1``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from test_sources_postgres import PASSWORD, USER, _free_port, server  # noqa: F401 - fixture

from trustuqa_core.answer import answer
from trustuqa_core.app_services.data import load_all
from trustuqa_core.app_services.database_url import open_database_url

APP = str(Path(__file__).resolve().parents[1] / "app.py")


def _without_password(url: str) -> str:
    return url.replace(f":{PASSWORD}@", "@")


def test_a_url_and_a_password_open_a_table_that_answers(server: str) -> None:  # noqa: F811
    uploads, errors = open_database_url(_without_password(server), PASSWORD, ["medals"])
    assert not errors and [u.name for u in uploads] == ["postgres:medals"]
    assert PASSWORD.encode() not in uploads[0].data
    report = load_all(uploads)
    got = answer("How many gold did Spain win?", report.graph, writer="offline")
    assert got.answer == ["5"]


def test_bad_urls_and_a_refused_connection_are_clear_and_masked(server: str) -> None:  # noqa: F811
    [err] = open_database_url("mysql://ann:secret@db/shop")[1]
    assert "not a PostgreSQL URL" in err.problem and "secret" not in str(err)
    [err] = open_database_url("")[1]
    assert "enter a URL" in err.problem
    port = server.rsplit(":", 1)[1].split("/")[0]
    gone = server.replace(f":{port}/", f":{_free_port()}/")
    [err] = open_database_url(gone, tables=["medals"])[1]
    assert "cannot connect" in str(err) and "refused" in str(err) and PASSWORD not in str(err)
    [err] = open_database_url(_without_password(server), "wrong-" + PASSWORD)[1]
    assert "authentication failed" in str(err) and PASSWORD not in str(err)
    [err] = open_database_url(server, tables=["no_such_table"])[1]
    assert "no table 'no_such_table'" in str(err) and PASSWORD not in str(err)


def _texts(at: AppTest) -> str:
    """Everything the page shows and keeps (widget values included)."""
    shown = [str(e.value) for kind in ("markdown", "caption", "error", "success", "text_input",
                                       "warning", "info") for e in getattr(at, kind)]
    kept = [repr(v) for v in at.session_state.values()]
    return "\n".join(shown + kept)


def test_the_data_page_opens_a_postgresql_table(server: str) -> None:  # noqa: F811
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    at.text_input(key="tq_pg_url").set_value(_without_password(server))
    at.text_input(key="tq_pg_password").set_value(PASSWORD)
    at.text_input(key="tq_pg_tables").set_value("medals")
    at.button(key="tq_pg_go").click().run()
    assert not at.exception
    assert any("postgres:medals" in s.value for s in at.success)
    assert at.text_input(key="tq_pg_password").value == ""
    assert at.text_input(key="tq_pg_url").value == f"postgresql://{USER}@" + \
        _without_password(server).split("@", 1)[1]
    assert PASSWORD not in _texts(at)
    at.switch_page("pages/2_Ask.py").run()
    at.text_input(key="tq_question").set_value("How many gold did Spain win?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception
    run = at.session_state["tq_run"]
    assert run.answer == ["5"]
    record = json.dumps([s.__dict__ for s in run.trace.graph.sources], default=str)
    assert PASSWORD not in record and PASSWORD not in _texts(at)


def test_the_data_page_masks_a_password_inside_the_url(server: str) -> None:  # noqa: F811
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    at.text_input(key="tq_pg_url").set_value(server.replace("/postgres", "/nodb"))
    at.button(key="tq_pg_go").click().run()
    assert not at.exception
    assert any("cannot connect" in e.value for e in at.error)
    assert PASSWORD not in _texts(at)


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__])
