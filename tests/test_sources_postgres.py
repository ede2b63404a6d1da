"""PostgreSQL tables as table sources, against a throwaway PostgreSQL cluster started here.

The cluster is made with ``initdb`` in a temporary directory and started with ``pg_ctl`` on a
free port of 127.0.0.1 (its unix socket in the same directory), with a password for TCP
logins, and stopped in teardown. PostgreSQL refuses to run as root, so under root the server
runs as the ``postgres`` user (made by Debian's package) or ``nobody``. The tests are skipped
only when the PostgreSQL server programs are not installed; ``.ci/run`` installs them and sets
``TRUSTUQA_REQUIRE_POSTGRES=1``, which turns that skip into a failure.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from trustuqa_core import SourceError, build_graph, load_graph, run_query
from trustuqa_core.errors import SourceLimitError
from trustuqa_core.limits import current_limits, env_name
from trustuqa_core.translate import load_source, load_sources

psycopg = pytest.importorskip("psycopg", reason="psycopg is in requirements.txt; install it")

PASSWORD = "pw-S3cret!"
USER = "analyst"


def _pg_bin() -> Path | None:
    """The directory holding initdb and pg_ctl (PATH first, then Debian's versioned dirs)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(d) / "initdb").is_file() and (Path(d) / "pg_ctl").is_file():
            return Path(d)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _runner() -> tuple[list[str], int | None]:
    """The command prefix that runs the server as a non-root user, and that user's uid."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            uid = pwd.getpwnam(name).pw_uid
        except KeyError:
            continue
        return ["runuser", "-u", name, "--"], uid
    raise RuntimeError("running as root, and neither a 'postgres' nor a 'nobody' user exists")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The URL (with password) of a fresh PostgreSQL cluster holding a few tables."""
    bindir = _pg_bin()
    if bindir is None and os.environ.get("TRUSTUQA_REQUIRE_POSTGRES"):
        pytest.fail("TRUSTUQA_REQUIRE_POSTGRES is set but initdb/pg_ctl are not installed")
    if bindir is None:
        pytest.skip("PostgreSQL server programs (initdb, pg_ctl) are not installed; "
                    "install Debian's postgresql-15 (.ci/run does)")
    prefix, uid = _runner()
    root = Path(tempfile.mkdtemp(prefix="trustuqa-pg-"))
    if uid is not None:
        os.chown(root, uid, -1)
    pwfile = root / "pw"
    pwfile.write_text(PASSWORD + "\n")
    if uid is not None:
        os.chown(pwfile, uid, -1)
    data, port = root / "data", _free_port()

    def run(*cmd: str) -> None:
        done = subprocess.run([*prefix, *cmd], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{cmd[0]} failed:\n{done.stdout}\n{done.stderr}"

    run(str(bindir / "initdb"), "-D", str(data), "-U", USER, f"--pwfile={pwfile}",
        "--auth-host=scram-sha-256", "--auth-local=trust", "-E", "UTF8", "--no-sync")
    run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60",
        "-o", f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
    url = f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{port}/postgres"
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE TABLE medals (nation text, gold integer, share numeric(4,2))")
            conn.execute("INSERT INTO medals VALUES ('Italy', 3, 0.50), ('Spain', 5, 1.25),"
                         " ('Italy', 4, NULL)")
            conn.execute("CREATE SCHEMA extra")
            conn.execute('CREATE TABLE extra."we""ird" ("col ""q""" text)')
            conn.execute("""INSERT INTO extra."we""ird" VALUES ('v')""")
            conn.execute("CREATE TABLE big AS SELECT g AS n FROM generate_series(1, 5000) g")
            conn.execute("CREATE TABLE log (note text)")
            conn.execute("CREATE FUNCTION sneaky() RETURNS text LANGUAGE sql AS "
                         "$$ INSERT INTO log VALUES ('written'); SELECT 'x'; $$")
            conn.execute("CREATE VIEW writes AS SELECT sneaky() AS v")
        yield url
    finally:
        run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def set_limits(monkeypatch: pytest.MonkeyPatch):
    def apply(**values: int) -> None:
        for field, value in values.items():
            monkeypatch.setenv(env_name(field), str(value))
        current_limits.cache_clear()

    yield apply
    current_limits.cache_clear()


def test_a_postgresql_table_loads_and_answers(server: str) -> None:
    facts = load_source(f"{server}#medals")
    assert facts.name == "postgres:medals" and facts.kind == "table" and facts.n_rows == 3
    assert facts.columns == ("nation", "gold", "share")
    assert list(facts.tails[:4]) == ["Italy", "3", "0.50", "1"]  # numbers stay numbers
    assert PASSWORD not in (facts.path or "") and facts.path.startswith(f"postgresql://{USER}@")
    query = (
        "Query1: \"get_information(relation='nation', tail_entity='Italy')\"\n"
        "Query2: \"get_information(relation='gold', head_entity='output_of_query1')\"\n"
        "Query3: \"sum(set='output_of_query2')\""
    )
    assert run_query(query, build_graph([facts])).answer == ["7"]
    assert load_graph(tables=[f"{server}#medals"]).entity("Spain") is not None  # CLI path


def test_schemas_and_hostile_names_are_quoted_identifiers(server: str) -> None:
    [facts] = load_sources(server, tables=['extra.we"ird'], name="shop")
    assert facts.name == 'shop:extra.we"ird' and facts.columns == ('col "q"',)
    assert list(facts.tails) == ["v", "1"]


def test_a_missing_table_is_named_without_the_password(server: str) -> None:
    with pytest.raises(SourceError) as info:
        load_sources(server, tables=["medals; DROP TABLE medals"])
    text = str(info.value)
    assert "no table 'medals; DROP TABLE medals'" in text and "medals" in text
    assert PASSWORD not in text
    assert load_source(f"{server}#medals").n_rows == 3  # nothing was dropped


def test_reading_is_a_read_only_transaction(server: str) -> None:
    with pytest.raises(SourceError, match="read-only transaction") as info:
        load_sources(server, tables=["writes"])
    assert PASSWORD not in str(info.value)
    with psycopg.connect(server) as conn:
        assert conn.execute("SELECT count(*) FROM log").fetchone() == (0,)


def test_row_limit_stops_the_read(server: str, set_limits) -> None:
    assert load_sources(server, tables=["big"])[0].n_rows == 5000
    set_limits(table_rows=1500)
    with pytest.raises(SourceLimitError, match="more than 1,500 rows"):
        load_sources(server, tables=["big"])


def test_wrong_password_and_unreachable_server_are_clear(server: str) -> None:
    wrong = server.replace(PASSWORD, "not-" + PASSWORD)
    with pytest.raises(SourceError, match="cannot connect") as info:
        load_sources(wrong)
    assert PASSWORD not in str(info.value) and "authentication failed" in str(info.value)
    port = server.rsplit(":", 1)[1].split("/")[0]
    gone = server.replace(f":{port}/", f":{_free_port()}/")
    with pytest.raises(SourceError, match="cannot connect.*refused") as info:
        load_source(f"{gone}#medals")
    assert PASSWORD not in str(info.value)
