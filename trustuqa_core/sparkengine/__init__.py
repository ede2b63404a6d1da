"""Spark SQL for batch evaluation (issue #18): the executor's plans compiled for many
questions at once and run by Spark over Parquet.

``parquet.py`` writes graphs as Parquet with the shared id encoding, ``plan.py`` compiles a
mapped program into a small dataflow plan (or says why it cannot), ``batch.py`` runs the plans
of a whole batch as a few Spark jobs (one per plan position and operation kind), ``session.py``
starts Spark (local mode, or a cluster / Spark Connect). See docs/SCALE.md.
"""

from __future__ import annotations

from .parquet import GraphMeta, GraphsMeta, read_graphs_meta, write_graphs
from .plan import NotCompiled, Plan, PlanNode, compile_program
from .session import SparkUnavailable, java_missing, spark_session, stop_session

__all__ = ["GraphMeta", "GraphsMeta", "read_graphs_meta", "write_graphs", "NotCompiled", "Plan",
           "PlanNode", "compile_program", "SparkUnavailable", "java_missing", "spark_session",
           "stop_session"]
