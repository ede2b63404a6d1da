"""``bench spark``: batch throughput of the memory, DuckDB and Spark engines on the same
3-hop programs over ``bench scale``'s generated KG, to find where Spark's batch wins.

The KG of ``N`` facts comes from :func:`~trustuqa_core.bench.scale.generate_kg` (the same
file ``bench scale`` uses). ``Q`` questions are random 3-hop walks from random entities,
written as gold-style programs and mapped once on the memory store (the stores share ids).
Each engine then answers all of them: memory and DuckDB one question after another
(execution only), Spark as one batch (:func:`~trustuqa_core.sparkengine.batch.run_batch`;
the session start and the Parquet writing are reported apart). Answers are compared across
engines (as sets) and the disagreements counted.

>>> program_text([("rel_1", "head_entity", "Oak Hollow 3"), ("rel_2", "tail_entity", "")])
'Query1: "get_information(relation=\\'rel_1\\', head_entity=\\'Oak Hollow 3\\')"\\nQuery2: "get_information(relation=\\'rel_2\\', tail_entity=\\'output_of_query1\\')"'
"""  # noqa: E501

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..engines import open_files
from ..evaluate.spark_differential import memory_answer
from ..graph import build_graph
from ..limits import current_limits
from ..mapping import Mapper
from ..mapping.dense import default_cache_dir
from ..mapping.mapper import MappedProgram
from ..query.parse import parse
from ..sparkengine import Plan, compile_program, spark_session, write_graphs
from ..sparkengine.batch import SparkGraphs, run_batch
from ..store import GraphStore
from ..translate import load_sources
from .scale import generate_kg

__all__ = ["run_spark_batch", "program_text", "walk"]


def walk(graph: GraphStore, rng: random.Random, hops: int) -> list[tuple[str, str, str]] | None:
    """``hops`` random facts followed from a random entity (either direction), as
    ``(relation, argument, start label)``; None when the walk gets stuck."""
    pool = graph.entity_pool()
    node = int(pool.ids[rng.randrange(len(pool))])
    start, path = graph.label(node), []
    for _ in range(hops):
        out, into = graph.facts_head(node), graph.facts_tail(node)
        if len(out) + len(into) == 0:
            return None
        k = rng.randrange(len(out) + len(into))
        fact = out[k:k + 1] if k < len(out) else into[k - len(out):k - len(out) + 1]
        rel = graph.relation_names[int(graph.rels_of(fact)[0])]
        if k < len(out):
            path.append((rel, "head_entity", start))
            node = graph.tail_of(int(fact[0]))
        else:
            path.append((rel, "tail_entity", start))
            node = graph.head_of(int(fact[0]))
    return path


def program_text(path: list[tuple[str, str, str]]) -> str:
    """The program that follows ``path`` (the first step names its start)."""
    lines = []
    for i, (rel, arg, start) in enumerate(path, 1):
        value = start.replace("'", "\\'") if i == 1 else f"output_of_query{i - 1}"
        lines.append(f"Query{i}: \"get_information(relation='{rel}', {arg}='{value}')\"")
    return "\n".join(lines)


@contextmanager
def own_files_limits(facts: int) -> Iterator[None]:
    """The benchmark reads its own generated file: the upload and fact limits are raised
    while it runs (as ``bench scale`` does for its child processes), then restored."""
    raised = {"TRUSTUQA_LIMIT_FACTS": str(max(facts * 2, 5_000_000)),
              "TRUSTUQA_LIMIT_UPLOAD_BYTES": str(1 << 40),
              "TRUSTUQA_LIMIT_UNZIPPED_BYTES": str(1 << 40)}
    saved = {k: os.environ.get(k) for k in raised}
    os.environ.update(raised)
    current_limits.cache_clear()
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        current_limits.cache_clear()


def _sequential(mapped: list[MappedProgram], graph: GraphStore, budget_s: float
                ) -> tuple[list[list[str]], float]:
    """Answers one question at a time until done or ``budget_s`` is spent."""
    answers, total = [], 0.0
    for m in mapped:
        answer, seconds = memory_answer(m, graph)
        answers.append(sorted(set(answer)))
        total += seconds
        if total > budget_s:
            break
    return answers, total


def run_spark_batch(facts: int, questions: int = 1000, engines: tuple[str, ...] =
                    ("memory", "duckdb", "spark"), seed: int = 7, budget_s: float = 300.0,
                    master: str | None = None,
                    progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Throughput figures (see the module docstring); ``budget_s`` bounds each sequential
    engine's execution time (the questions it reached are the ones it is rated on)."""
    with own_files_limits(facts):
        return _figures(facts, questions, engines, seed, budget_s, master, progress)


def _figures(facts: int, questions: int, engines: tuple[str, ...], seed: int, budget_s: float,
             master: str | None, progress: Callable[[str], None] | None) -> dict[str, Any]:
    say = progress or (lambda _: None)
    path = generate_kg(facts, seed)
    t0 = time.perf_counter()
    sources = load_sources(str(path), "kg")
    memory = build_graph(sources)
    out: dict[str, Any] = {"facts": memory.n_facts, "questions": questions,
                           "memory_load_s": round(time.perf_counter() - t0, 2)}
    say(f"memory store: {memory.n_facts} facts ({out['memory_load_s']} s)")
    rng, mapper = random.Random(seed), Mapper(memory, None)
    mapped: list[MappedProgram] = []
    tries = 0
    while len(mapped) < questions and tries < questions * 20:
        tries += 1
        steps = walk(memory, rng, 3)
        if steps is not None:
            mapped.append(mapper.map_program(parse(program_text(steps))))
    answers: dict[str, list[list[str]]] = {}
    if "memory" in engines:
        answers["memory"], seconds = _sequential(mapped, memory, budget_s)
        out |= {"memory_s": round(seconds, 3), "memory_answered": len(answers["memory"]),
                "memory_qps": round(len(answers["memory"]) / seconds, 1)}
        say(f"memory: {out['memory_qps']} questions/s")
    if "duckdb" in engines:
        t0 = time.perf_counter()
        duck = open_files([path], "kg", "duckdb")
        out["duckdb_open_s"] = round(time.perf_counter() - t0, 2)
        answers["duckdb"], seconds = _sequential(mapped, duck, budget_s)
        out |= {"duckdb_s": round(seconds, 3), "duckdb_answered": len(answers["duckdb"]),
                "duckdb_qps": round(len(answers["duckdb"]) / seconds, 1)}
        say(f"duckdb: {out['duckdb_qps']} questions/s")
    if "spark" in engines:
        base = default_cache_dir() / "spark"
        base.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix=f"kg{facts}-", dir=base))
        try:
            t0 = time.perf_counter()
            write_graphs([sources], folder)
            out["spark_parquet_s"] = round(time.perf_counter() - t0, 2)
            t0 = time.perf_counter()
            graphs = SparkGraphs(spark_session(master), folder)
            out["spark_session_s"] = round(time.perf_counter() - t0, 2)
            plans = [compile_program(str(i), m) for i, m in enumerate(mapped)]
            result = run_batch(graphs, plans)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        answers["spark"] = [sorted(set(result.answers.get(str(i), ["not compiled"])))
                            for i in range(len(mapped))]
        out |= {"spark_batch_s": round(result.seconds, 2),
                "spark_qps": round(len(mapped) / result.seconds, 1),
                "spark_not_compiled": len(result.not_compiled),
                "spark_compiled": sum(isinstance(p, Plan) for p in plans)}
        say(f"spark: {out['spark_qps']} questions/s (batch {out['spark_batch_s']} s)")
    names = list(answers)
    for other in names[1:]:
        n = min(len(answers[names[0]]), len(answers[other]))
        out[f"disagree_{names[0]}_{other}"] = sum(
            answers[names[0]][i] != answers[other][i] for i in range(n))
    return out
