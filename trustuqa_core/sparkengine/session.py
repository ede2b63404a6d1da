"""Where Spark runs: one :class:`SparkSession` per process, local mode by default.

The master comes from (first wins) the ``master`` argument (the CLI's ``--spark-master``),
``TRUSTUQA_SPARK_MASTER``, and ``local[2]``. ``SPARK_REMOTE`` (a Spark Connect URL such as
``sc://spark-head:15002``) makes the session a Spark Connect client instead. Everything else
is ordinary Spark configuration (``spark-defaults.conf`` under ``SPARK_CONF_DIR``), which a
cluster's operator sets as usual. Local mode needs a Java 17 (or later) runtime on ``PATH``
or under ``JAVA_HOME``; without one :func:`spark_session` raises :class:`SparkUnavailable`
naming what is missing.

>>> master_of(None, {"TRUSTUQA_SPARK_MASTER": "spark://head:7077"})
'spark://head:7077'
>>> master_of("local[4]", {}), master_of(None, {})
('local[4]', 'local[2]')
>>> local_conf("local[2]")["spark.sql.shuffle.partitions"]
'4'
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import TrustUQAError

if TYPE_CHECKING:  # pragma: no cover - types only
    from pyspark.sql import SparkSession

__all__ = ["SparkUnavailable", "spark_session", "stop_session", "java_missing", "master_of",
           "local_conf", "DEFAULT_MASTER"]

DEFAULT_MASTER = "local[2]"
_lock = threading.Lock()
_session: Any = None


class SparkUnavailable(TrustUQAError):
    """Spark cannot start here: no Java runtime, or pyspark is not installed."""


def master_of(master: str | None, env: Mapping[str, str] | None = None) -> str:
    """The Spark master to use (see the module docstring)."""
    env = os.environ if env is None else env
    return master or env.get("TRUSTUQA_SPARK_MASTER") or DEFAULT_MASTER


def local_conf(master: str, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The settings of our session: small shuffles (one machine, small batches), no UI, the
    driver's memory from ``TRUSTUQA_SPARK_DRIVER_MEMORY`` (default ``2g``), JVM warnings on
    stderr."""
    env = os.environ if env is None else env
    conf = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": env.get("TRUSTUQA_SPARK_SHUFFLE_PARTITIONS", "4"),
        "spark.sql.adaptive.enabled": "false",  # fewer jobs per plan position (measured)
        "spark.sql.session.timeZone": "UTC",
        "spark.driver.memory": env.get("TRUSTUQA_SPARK_DRIVER_MEMORY", "2g"),
        # the JVM prints its warnings (GC pressure) on stdout by default, which would break
        # the JSON a command writes there
        "spark.driver.extraJavaOptions": "-Xlog:all=warning:stderr",
    }
    if master.startswith("local"):
        conf["spark.driver.bindAddress"] = "127.0.0.1"
        conf["spark.driver.host"] = "127.0.0.1"
    return conf


def java_missing(env: Mapping[str, str] | None = None) -> str | None:
    """Why local Spark cannot start (no ``java`` on ``PATH`` or under ``JAVA_HOME``), or
    None when a Java runtime is there."""
    env = os.environ if env is None else env
    home = env.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return None
    if shutil.which("java", path=env.get("PATH")):
        return None
    return ("Spark needs a Java 17 runtime: none found on PATH or under JAVA_HOME "
            "(Debian: apt-get install openjdk-17-jre-headless)")


def spark_session(master: str | None = None) -> SparkSession:
    """The process's Spark session, started on first use (later calls return the same one;
    ``master`` only matters for the first)."""
    global _session
    with _lock:
        if _session is not None:
            return _session
        try:
            from pyspark.sql import SparkSession
        except ImportError as exc:  # pragma: no cover - pinned in requirements.txt
            raise SparkUnavailable(f"pyspark is not installed ({exc})") from exc
        remote = os.environ.get("SPARK_REMOTE")
        builder: Any = SparkSession.builder.appName("trustuqa")
        if remote:
            builder = builder.remote(remote)
        else:
            why = java_missing()
            if why:
                raise SparkUnavailable(why)
            chosen = master_of(master)
            builder = builder.master(chosen)
            for key, value in local_conf(chosen).items():
                builder = builder.config(key, value)
        try:
            _session = builder.getOrCreate()
        except Exception as exc:  # the JVM failed to start: say so in one line
            raise SparkUnavailable(f"Spark did not start: {str(exc).splitlines()[0]}") from exc
        _session.sparkContext.setLogLevel("ERROR") if not remote else None
        return _session


def stop_session() -> None:
    """Stop the process's session (tests, the end of a benchmark run)."""
    global _session
    with _lock:
        if _session is not None:
            _session.stop()
            _session = None
