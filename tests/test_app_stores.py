"""Big graphs in the app (issue #18): a DuckDB store built by ``python -m trustuqa_core import``
from a generated 50k-fact KG is opened on the Data page (engine and size shown) and answers a
question on the Ask page; a store is built from the Data page with progress; paths outside the
operator's folders are refused; the Settings engine choice puts uploads on DuckDB."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from trustuqa_core.app_services.page_settings import AppSettings
from trustuqa_core.app_services.stores import (
    STORE_DIRS_ENV,
    BuildJobs,
    StorePathError,
    allowed_dirs,
    data_files,
    inside,
    store_files,
)
from trustuqa_core.bench.scale import generate_kg

REPO = Path(__file__).resolve().parents[1]
APP = str(REPO / "app.py")
FACTS = 50_000


@pytest.fixture(autouse=True)
def _no_llm(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "TRUSTUQA_MODEL", STORE_DIRS_ENV):
        monkeypatch.delenv(name, raising=False)

    def _forbidden(*_args: object, **_kw: object) -> list[str]:
        raise AssertionError("the LLM was called")

    monkeypatch.setattr("trustuqa_core.llm.client.LLMClient.complete", _forbidden)


@pytest.fixture(scope="module")
def kg_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_kg(FACTS, folder=tmp_path_factory.mktemp("kg"))


def _import(kg: Path, cache: Path, name: str) -> Path:
    """The store built by the CLI's ``import`` (in a child process, as an operator would)."""
    env = {**os.environ, "TRUSTUQA_CACHE": str(cache), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "trustuqa_core", "import", str(kg), "--kind",
                           "kg", "--name", name], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    path = Path(done.stdout.splitlines()[0])
    assert path == cache / "duckdb" / f"{name}.duckdb"
    return path


def _expected(kg: Path, head: str, relation: str) -> set[str]:
    """The answer read straight from the file."""
    out = set()
    for line in kg.read_text(encoding="utf-8").splitlines():
        h, r, t = line.split("|", 2)
        if h == head and r == relation:
            out.add(t)
    return out


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_imported_store_opens_shows_size_and_answers(kg_file: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = _import(kg_file, tmp_path, "big")
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    assert not at.exception, at.exception
    assert store.name in at.selectbox(key="tq_store_pick").options
    at.selectbox(key="tq_store_pick").set_value(str(store))
    at.button(key="tq_store_open").click().run()
    assert not at.exception, at.exception
    heads, nodes = set(), set()
    for line in kg_file.read_text(encoding="utf-8").splitlines():
        h, _, t = line.split("|", 2)
        heads.add(h)
        nodes.update((h, t))
    shown = _metrics(at)
    assert shown["Engine"] == "duckdb"
    assert shown["Facts"] == f"{FACTS:,}"
    assert shown["Nodes"] == f"{len(nodes):,}"
    assert shown["Relations"] == "40"
    assert shown["Store file"].startswith("big.duckdb ")  # the name picked, not the hashed file
    assert "overview graph" not in " ".join(t.label for t in at.toggle)  # no whole-graph drawing
    first = kg_file.read_text(encoding="utf-8").splitlines()[0].split("|")
    head = next(line.split("|")[0] for line in kg_file.read_text(encoding="utf-8").splitlines()
                if "|founded_year|" in line)
    assert "A sample" in " ".join(c.value for c in at.caption)
    assert first[0] in at.dataframe[1].value["head"].tolist()  # the preview's first fact

    at.switch_page("pages/2_Ask.py").run()
    assert not at.exception, at.exception
    at.text_input(key="tq_question").set_value(f"what is the founded year of {head}?").run()
    at.button(key="tq_ask").click().run()
    assert not at.exception, at.exception
    run = at.session_state["tq_run"]
    assert run.trace.graph.engine == "duckdb"
    assert set(run.trace.answer) == _expected(kg_file, head, "founded_year")
    assert run.trace.steps and run.trace.steps[0].output  # the trace has its step outputs


def test_store_built_on_the_data_page_with_progress(kg_file: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "stores"
    folder.mkdir()
    (folder / kg_file.name).write_bytes(kg_file.read_bytes())
    monkeypatch.setenv(STORE_DIRS_ENV, str(folder))
    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    at.switch_page("pages/1_Data.py").run()
    at.selectbox(key="tq_store_file").set_value(str(folder / kg_file.name))
    at.button(key="tq_store_build_go").click().run()
    assert not at.exception, at.exception
    seen = []
    for _ in range(240):  # the build runs in a thread; each rerun redraws its progress
        if "tq_store" in at.session_state and at.session_state["tq_store"]:
            break
        seen += [p.value for p in at.get("progress")]
        time.sleep(0.5)
        at.run()
    assert not at.exception, at.exception
    assert "tq_store" in at.session_state and at.session_state["tq_store"]
    assert Path(at.session_state["tq_store"]).name == kg_file.stem + ".duckdb"
    assert _metrics(at)["Facts"] == f"{FACTS:,}"
    assert seen, "no progress bar was shown while building"


def test_paths_outside_the_allowed_folders_are_refused(tmp_path: Path) -> None:
    allowed = tmp_path / "ok"
    allowed.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("a|r|b\n")
    (allowed / "escape.txt").symlink_to(secret)
    (allowed / "kb.txt").write_text("a|r|b\n")
    dirs = allowed_dirs({STORE_DIRS_ENV: str(allowed)})
    assert [p.name for p in data_files(dirs)] == ["kb.txt"]  # the escaping link is not listed
    for bad in (secret, allowed / "escape.txt", allowed / ".." / "secret.txt", "/etc/passwd"):
        with pytest.raises(StorePathError):
            inside(bad, dirs)
        with pytest.raises(StorePathError):
            BuildJobs().start(bad, "kg", dirs)
    assert inside(allowed / "kb.txt", dirs) == (allowed / "kb.txt").resolve()
    assert store_files(dirs) == []


def test_engine_setting_puts_uploads_on_duckdb(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.session_state["tq_settings"] = AppSettings(engine="duckdb")
    at.switch_page("pages/1_Data.py").run()
    at.button(key="tq_sample_movies").click().run()
    assert not at.exception, at.exception
    assert _metrics(at)["Engine"] == "duckdb"
    at.switch_page("pages/4_Settings.py").run()
    at.radio(key="tq_engine").set_value("memory").run()
    at.switch_page("pages/1_Data.py").run()
    assert _metrics(at)["Engine"] == "memory"
