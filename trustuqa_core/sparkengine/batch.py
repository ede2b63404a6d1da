"""Run the plans of many questions as a few Spark jobs over the Parquet graphs.

Every intermediate result of every question lives in one DataFrame per plan position:
``q`` (the question's number in the batch), ``node`` (a node id; null for a computed number),
``num`` (the computed number), ``ord`` (the element's place: the fact or literal it came from,
so answers come out in the executor's order) and ``flag`` (null for an element; for a flag
row, ``error: ...`` or ``nc: ...`` with the query number in ``ord``). Position ``i`` of all
plans is computed together: one DataFrame per operation kind (the questions' relations,
comparisons and bound nodes are columns of a parameter table joined with the facts), their
union is materialised (``localCheckpoint``) and read by the later positions. So a batch of
3-hop questions costs a handful of Spark jobs whatever the number of questions.

The element semantics are the executor's (bags from projections, distinct heads in fact
order from selections, numeric equality ``"1" = "1.0"``, the strict-or-loose choice of
comparisons from the relation's share of numeric values, aggregates over bags, the errors
of ``mean``/``max``/``min`` over nothing). What only the executor can do (values read
loosely as units or dates, rows compared by a target column) is flagged ``nc`` for that
question: reported as not compiled, never answered some other way.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import reduce
from pathlib import Path
from typing import Any

from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql import functions as F  # noqa: N812 - Spark's usual name
from pyspark.sql import types as T  # noqa: N812

from ..numbers import format_number
from .parquet import GraphsMeta, read_graphs_meta
from .plan import NotCompiled, Plan, PlanNode

__all__ = ["SparkGraphs", "BatchOutcome", "run_batch", "RESULT_SCHEMA"]

RESULT_SCHEMA = T.StructType([
    T.StructField("q", T.LongType(), False), T.StructField("node", T.LongType(), True),
    T.StructField("num", T.DoubleType(), True), T.StructField("ord", T.LongType(), True),
    T.StructField("flag", T.StringType(), True)])
TARGET_OFFSET = 1 << 48
"""Added to the place of projected target values: they come after the final step's other
elements, as in the executor."""

Item = tuple[int, Plan, PlanNode]
AGGREGATES = frozenset({"sum", "mean", "max", "min"})


class SparkGraphs:
    """The Parquet datasets of one folder, read (and cached in Spark's memory) by a session."""

    def __init__(self, spark: SparkSession, folder: str | Path) -> None:
        self.spark = spark
        self.meta: GraphsMeta = read_graphs_meta(folder)
        root = Path(folder)
        self.facts = spark.read.parquet(str(root / "facts")).cache()
        nodes = spark.read.parquet(str(root / "nodes"))
        self.labels = nodes.select("g", F.col("id").alias("node"), "label")
        self.node_info = nodes.select("g", F.col("id").alias("node"), "num", "row").cache()
        numbers = nodes.where(F.col("num").isNotNull()).select("g", F.col("id").alias("t"), "num")
        self.numeric_facts = self.facts.join(numbers, ["g", "t"]).select(
            "g", "f", "h", "r", "num").cache()
        self.relations = spark.read.parquet(str(root / "relations")).select(
            "g", F.col("r").alias("rel"), "n_all", "n_num").cache()


@dataclass
class BatchOutcome:
    """What a batch gave: ``answers[qid]`` (answer texts, or ``["error: ..."]`` as the
    executor reports a failed run), ``not_compiled[qid]`` (why), the Spark jobs' wall time."""

    answers: dict[str, list[str]] = field(default_factory=dict)
    not_compiled: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    positions: int = 0


class _Run:
    """One batch: the plans, their per-position results and the parameter tables."""

    def __init__(self, graphs: SparkGraphs, plans: Sequence[Plan]) -> None:
        self.g, self.plans, self.spark = graphs, plans, graphs.spark
        self.results: list[DataFrame] = []

    # ------------------------------------------------------------- helpers
    def table(self, rows: list[tuple], schema: str) -> DataFrame:
        return self.spark.createDataFrame(rows, schema)

    def params(self, items: Sequence[Item]) -> DataFrame:
        """``q, g, rel, step`` of each item."""
        return self.table([(q, p.graph, n.rel, n.step) for q, p, n in items],
                          "q long, g int, rel int, step long")

    def input(self, items: Sequence[Item], k: int) -> DataFrame:
        """The elements (no flag rows) each item's ``k``-th input holds, with its ``q``."""
        by_source: dict[int, list[int]] = defaultdict(list)
        literals: list[tuple[int, int, int]] = []
        for q, plan, n in items:
            source = plan.nodes[n.inputs[k]]
            if source.kind == "const":  # literals go in as a parameter table, not a job
                literals.extend((q, node_id, pos) for pos, node_id in enumerate(source.ids))
            else:
                by_source[n.inputs[k]].append(q)
        parts = [self.out(self.table(literals, "q long, node long, ord long"))] \
            if literals else []
        for j, qs in by_source.items():
            sel = F.broadcast(self.table([(q,) for q in qs], "q long"))
            parts.append(self.results[j].where(F.col("flag").isNull()).join(sel, "q"))
        return reduce(DataFrame.unionByName, parts)

    @staticmethod
    def out(df: DataFrame, node: Column | str | None = "node", num: Column | str | None = None,
            ord_: Column | str = "ord", flag: Column | None = None) -> DataFrame:
        """``df`` in the result schema."""
        def col(c: Column | str | None, kind: str) -> Column:
            if c is None:
                return F.lit(None).cast(kind)
            return (F.col(c) if isinstance(c, str) else c).cast(kind)
        return df.select(F.col("q").cast("long").alias("q"), col(node, "long").alias("node"),
                         col(num, "double").alias("num"), col(ord_, "long").alias("ord"),
                         col(flag, "string").alias("flag"))

    def flags(self, df: DataFrame, message: Column) -> DataFrame:
        """Flag rows: ``df`` has ``q`` and ``step``."""
        return self.out(df, node=None, num=None, ord_="step", flag=message)

    def distinct_heads(self, facts: DataFrame) -> DataFrame:
        """``q, f, h`` -> each head once, placed at its first fact."""
        return self.out(facts.groupBy("q", "h").agg(F.min("f").alias("ord")), node="h")

    # ------------------------------------------------------------- kinds
    def k_values(self, items: Sequence[Item]) -> DataFrame:
        facts = self.g.facts.select("g", F.col("r").alias("rel"), "t", "f")
        return self.out(self.params(items).join(facts, ["g", "rel"]), node="t", ord_="f")

    def project(self, p: DataFrame, heads: DataFrame) -> DataFrame:
        """``p``: ``q, g, rel``; ``heads``: ``q, node``. The executor's projection: a head
        without the relation stands for the heads that have it as this relation's value,
        else as any relation's value."""
        fa = self.g.facts
        hp = heads.select("q", "node").distinct().join(p.select("q", "g", "rel"), "q")
        has = fa.select("g", F.col("h").alias("node"), F.col("r").alias("rel"))
        direct = hp.join(has, ["g", "node", "rel"], "left_semi")
        other = hp.join(has, ["g", "node", "rel"], "left_anti")
        by_rel = fa.select("g", F.col("r").alias("rel"), F.col("t").alias("node"),
                           F.col("h").alias("nh"))
        via_rel = other.join(by_rel, ["g", "rel", "node"]).select(
            "q", "g", "rel", F.col("nh").alias("node"))
        rest = other.join(by_rel.select("g", "rel", "node"), ["g", "rel", "node"], "left_anti")
        via_any = rest.join(by_rel.select("g", "node", "nh"), ["g", "node"]).select(
            "q", "g", "rel", F.col("nh").alias("node"))
        all_heads = direct.unionByName(via_rel).unionByName(via_any).distinct()
        facts = fa.select("g", F.col("h").alias("node"), F.col("r").alias("rel"), "t", "f")
        return all_heads.join(facts, ["g", "node", "rel"]).select("q", "t", "f")

    def k_project(self, items: Sequence[Item]) -> DataFrame:
        found = self.project(self.params(items), self.input(items, 0))
        return self.out(found, node="t", ord_="f")

    def k_select_eq(self, items: Sequence[Item]) -> DataFrame:
        p = self.params(items)
        values = self.input(items, 0).select("q", "node").distinct().join(p, "q")
        same = values.join(self.g.facts.select("g", F.col("r").alias("rel"),
                                               F.col("t").alias("node"), "f", "h"),
                           ["g", "rel", "node"]).select("q", "f", "h")
        numbers = values.join(self.g.node_info.where(F.col("num").isNotNull()),
                              ["g", "node"]).select("q", "g", "rel", "num").distinct()
        equal = numbers.join(self.g.numeric_facts.withColumnRenamed("r", "rel"),
                             ["g", "rel", "num"]).select("q", "f", "h")
        return self.distinct_heads(same.unionByName(equal))

    def k_select_cmp(self, items: Sequence[Item]) -> DataFrame:
        literal = [i for i in items if not i[2].inputs]
        from_set = [i for i in items if i[2].inputs]
        p = self.table([(q, pl.graph, n.rel, n.step, n.cmp) for q, pl, n in items],
                       "q long, g int, rel int, step long, cmp string")
        parts = []
        if literal:
            rows = [(q, min(n.numbers) if n.cmp in (">", ">=") else max(n.numbers), 0, 1)
                    for q, _, n in literal]
            parts.append(self.table(rows, "q long, x double, n_null long, n long"))
        if from_set:
            pg = p.select("q", "g", "cmp")
            values = self.input(from_set, 0).select("q", "node").distinct().join(pg, "q").join(
                self.g.node_info, ["g", "node"], "left")
            parts.append(pg.join(values.groupBy("q").agg(
                F.min("num").alias("lo"), F.max("num").alias("hi"),
                F.sum(F.col("num").isNull().cast("long")).alias("n_null"),
                F.count(F.lit(1)).alias("n")), "q", "left").select(
                "q", F.when(F.col("cmp").isin(">", ">="), F.col("lo")).otherwise(
                    F.col("hi")).alias("x"),
                F.coalesce("n_null", F.lit(0)).alias("n_null"),
                F.coalesce("n", F.lit(0)).alias("n")))
        th = reduce(DataFrame.unionByName, parts)
        pt = p.join(th, "q").join(self.g.relations, ["g", "rel"])
        unread = (F.col("n") == 0) | (F.col("n_null") > 0)
        loose = F.col("n_num") < F.lit(0.9) * F.col("n_all")
        flags = self.flags(pt.where(unread | loose), F.when(
            unread, F.lit("nc: a comparison value that is not a plain number (read loosely "
                          "by the executor)")).otherwise(F.concat(
                F.lit("nc: fewer than 90% of the relation's values are plain numbers (read "
                      "loosely by the executor)"))))
        good = pt.where(~(unread | loose))
        facts = good.join(self.g.numeric_facts.withColumnRenamed("r", "rel"), ["g", "rel"])
        cmp, num, x = F.col("cmp"), F.col("num"), F.col("x")
        keep = (((cmp == ">") & (num > x)) | ((cmp == "<") & (num < x))
                | ((cmp == ">=") & (num >= x)) | ((cmp == "<=") & (num <= x)))
        return self.distinct_heads(facts.where(keep).select("q", "f", "h")).unionByName(flags)

    def k_intersect(self, items: Sequence[Item]) -> DataFrame:
        by_arity: dict[int, list[Item]] = defaultdict(list)
        for item in items:
            by_arity[len(item[2].inputs)].append(item)
        parts = []
        for arity, group in by_arity.items():
            common = self.input(group, 0).groupBy("q", "node").agg(F.min("ord").alias("ord"))
            for k in range(1, arity):
                other = self.input(group, k).select("q", "node").distinct()
                common = common.join(other, ["q", "node"], "left_semi")
            parts.append(self.out(common))
        return reduce(DataFrame.unionByName, parts)

    def k_difference(self, items: Sequence[Item]) -> DataFrame:
        first = self.input(items, 0).groupBy("q", "node").agg(F.min("ord").alias("ord"))
        drop = self.input(items, 1).select("q", "node").distinct()
        return self.out(first.join(drop, ["q", "node"], "left_anti"))

    def k_count(self, items: Sequence[Item]) -> DataFrame:
        counts = self.input(items, 0).groupBy("q").agg(F.countDistinct("node").alias("n"))
        qs = self.params(items).select("q")
        return self.out(qs.join(counts, "q", "left"), node=None,
                        num=F.coalesce(F.col("n"), F.lit(0)), ord_=F.lit(0))

    def numbers(self, items: Sequence[Item]) -> tuple[DataFrame, DataFrame]:
        """The input bag with each element's number, and per question: ``n``, ``n_null``,
        ``total``, ``hi``, ``lo``, ``step``, ``name``."""
        p = self.table([(q, pl.graph, n.step, n.name) for q, pl, n in items],
                       "q long, g int, step long, name string")
        bag = self.input(items, 0).select("q", "node", "ord").join(p.select("q", "g"), "q").join(
            self.g.node_info, ["g", "node"], "left")
        stats = bag.groupBy("q").agg(
            F.count(F.lit(1)).alias("n"), F.sum(F.col("num").isNull().cast("long")).alias(
                "n_null"), F.sum("num").alias("total"), F.max("num").alias("hi"),
            F.min("num").alias("lo"))
        per_q = p.join(stats, "q", "left").fillna(0, ["n", "n_null"])
        return bag, per_q

    def aggregate(self, items: Sequence[Item]) -> DataFrame:
        bag, s = self.numbers(items)
        empty, unread = F.col("n") == 0, F.col("n_null") > 0
        name = F.col("name")
        is_sum, is_mean = name == "sum", name == "mean"
        fails = empty & ~is_sum
        flags = self.flags(s.where(fails | (unread & ~empty)), F.when(
            fails, F.concat(F.lit("error: "), name, F.lit("() of an empty set"))).otherwise(
            F.concat(F.lit("nc: "), name,
                     F.lit("() over values that are not plain numbers (read loosely by the "
                           "executor)"))))
        ok = s.where(~empty & ~unread)
        sums = self.out(s.where(is_sum & empty), node=None, num=F.lit(0.0), ord_=F.lit(0)) \
            .unionByName(self.out(ok.where(is_sum), node=None, num="total", ord_=F.lit(0))) \
            .unionByName(self.out(ok.where(is_mean), node=None,
                                  num=F.col("total") / F.col("n"), ord_=F.lit(0)))
        best = ok.where(name.isin("max", "min")).select(
            "q", F.when(name == "max", F.col("hi")).otherwise(F.col("lo")).alias("best"))
        extremes = bag.join(best, "q").where(F.col("num") == F.col("best")).groupBy(
            "q", "node").agg(F.min("ord").alias("ord"))
        return sums.unionByName(self.out(extremes)).unionByName(flags)

    k_aggregate = aggregate

    def k_target(self, items: Sequence[Item]) -> DataFrame:
        p = self.params(items)
        final = self.input(items, 0).join(p.select("q", "g"), "q").join(
            self.g.node_info.select("g", "node", "row"), ["g", "node"], "left")
        is_row = F.coalesce(F.col("row"), F.lit(False))
        rest = self.out(final.where(~is_row), num="num")
        projected = self.project(p, final.where(is_row).select("q", "node"))
        return rest.unionByName(self.out(projected, node="t",
                                         ord_=F.col("f") + F.lit(TARGET_OFFSET)))

    # ------------------------------------------------------------- driver
    def position(self, i: int) -> DataFrame:
        by_kind: dict[str, list[Item]] = defaultdict(list)
        for q, plan in enumerate(self.plans):
            if i < len(plan.nodes) and plan.nodes[i].kind != "const":
                kind = plan.nodes[i].kind  # the aggregates share one handler: one pass
                by_kind["aggregate" if kind in AGGREGATES else kind].append(
                    (q, plan, plan.nodes[i]))
        parts = []
        for kind, items in sorted(by_kind.items()):
            handler: Callable[[Sequence[Item]], DataFrame] = getattr(self, f"k_{kind}")
            parts.append(handler(items))
        if not parts:  # only literals here: their readers build them
            return self.spark.createDataFrame([], RESULT_SCHEMA)
        return reduce(DataFrame.unionByName, parts).localCheckpoint(eager=True)

    def collect(self) -> list[Any]:
        """Flag rows of every position and the elements of each plan's last node, labelled."""
        finals: dict[int, list[int]] = defaultdict(list)
        for q, plan in enumerate(self.plans):
            if plan.nodes:
                finals[len(plan.nodes) - 1].append(q)
        parts = [r.where(F.col("flag").isNotNull()) for r in self.results]
        for i, qs in finals.items():
            sel = F.broadcast(self.table([(q,) for q in qs], "q long"))
            parts.append(self.results[i].where(F.col("flag").isNull()).join(sel, "q"))
        if not parts:
            return []
        graphs = self.table([(q, p.graph) for q, p in enumerate(self.plans)], "q long, g int")
        rows = reduce(DataFrame.unionByName, parts).join(graphs, "q").join(
            self.g.labels, ["g", "node"], "left")
        return rows.select("q", "node", "num", "ord", "flag", "label").collect()


def _answers(plans: Sequence[Plan], rows: list[Any], out: BatchOutcome) -> None:
    """Per question: the first flag or error by query number decides; else the distinct
    elements in order, as texts."""
    flags: dict[int, list[tuple[int, str]]] = defaultdict(list)
    elems: dict[int, list[Any]] = defaultdict(list)
    for row in rows:
        if row["flag"] is not None:
            flags[row["q"]].append((row["ord"], row["flag"]))
        else:
            elems[row["q"]].append(row)
    for q, plan in enumerate(plans):
        found = sorted(flags.get(q, []))
        if plan.error is not None:
            found = sorted([*found, (plan.error[0], f"error: {plan.error[1]}")])
        if found:
            step, flag = found[0]
            if flag.startswith("nc: "):
                out.not_compiled[plan.qid] = f"Query{step}: {flag[4:]}"
            else:
                out.answers[plan.qid] = [flag]
            continue
        seen: set[tuple] = set()
        texts = []
        for row in sorted(elems.get(q, []), key=lambda r: r["ord"]):
            key = ("n", row["node"]) if row["node"] is not None else ("s", row["num"])
            if key in seen:
                continue
            seen.add(key)
            texts.append(row["label"] if row["node"] is not None else format_number(row["num"]))
        out.answers[plan.qid] = texts


def run_batch(graphs: SparkGraphs, plans: Sequence[Plan | NotCompiled]) -> BatchOutcome:
    """Answer every compiled plan of ``plans`` (all over ``graphs``); the others are reported
    in ``not_compiled``."""
    out = BatchOutcome()
    compiled = []
    for p in plans:
        if isinstance(p, NotCompiled):
            out.not_compiled[p.qid] = p.reason
        else:
            compiled.append(p)
    t0 = time.perf_counter()
    run = _Run(graphs, compiled)
    depth = max((len(p.nodes) for p in compiled), default=0)
    for i in range(depth):
        run.results.append(run.position(i))
    _answers(compiled, run.collect(), out)
    out.seconds, out.positions = time.perf_counter() - t0, depth
    return out
