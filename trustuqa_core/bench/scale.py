"""``bench scale``: load time, memory and per-question speed of a store at a given size.

The data is generated (a deterministic KG of ``N`` facts, or MetaQA's KB replicated ``K``
times with suffixed entity names, and a ~431k-row CSV for the table question), written into the
cache directory once and reused. Every engine is measured in a fresh child process, so its peak
RSS is its own and runs do not warm each other's caches.

Figures: ``load_s`` (``engines.open_files``), ``reopen_s`` (a second open of the same files;
the memory engine has nothing to reopen and builds again), ``peak_rss_mb``, ``three_hop_ms``
(p50 execution of a gold-style 3-hop program from random start entities; mapping excluded),
``range_ms`` (p50 execution of a numeric comparison select), ``map_entity_ms`` (p50 of
``Mapper.map_entity`` on random entity names), ``map_entity_typo_ms`` (the same names with one
letter dropped, which reach the fuzzy stage) and ``table_question_s`` (one question on the
431k-row table, parse + map + execute, load excluded; ``table_execute_s`` is execution alone).

>>> names = entity_names(4, random.Random(0))
>>> len(set(names)), all(" " in n for n in names)
(4, True)
>>> p50([3.0, 1.0, 2.0])
2.0
"""

from __future__ import annotations

import gc
import gzip
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..engines import open_files
from ..errors import TrustUQAError
from ..evaluate.datasets import data_root
from ..execute import execute, run_query
from ..mapping import Mapper
from ..mapping.dense import default_cache_dir
from ..query.parse import parse
from ..store import GraphStore

__all__ = ["ScaleArgs", "run_scale", "measure", "generate_kg", "replicate_metaqa",
           "generate_table", "entity_names", "p50", "FIELDS"]

FIELDS = ("engine", "facts", "load_s", "reopen_s", "peak_rss_mb", "three_hop_ms", "range_ms",
          "map_entity_ms", "table_question_s")
N_RELATIONS = 40
NUMERIC_RELATIONS = ("founded_year", "population", "height_m", "budget_musd", "rating")
TABLE_ROWS = 431_000
TABLE_COLUMNS = ("Player", "Team", "Position", "Season", "Points", "Games", "City")
_FIRST = ("Amber", "Boris", "Clara", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines",
          "Jonas", "Kenji", "Lucia", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa",
          "Stefan", "Tamsin", "Ulrich", "Vera", "Wendell", "Ximena", "Yusuf", "Zora")
_WORDS = ("North", "River", "Silver", "Oak", "Harbor", "Stone", "Maple", "Falcon", "Cedar",
          "Willow", "Granite", "Meadow", "Summit", "Copper", "Lantern", "Orchard", "Thistle",
          "Juniper", "Beacon", "Hollow", "Ember", "Marsh", "Raven", "Briar", "Alder", "Crescent",
          "Tidewater", "Aurora", "Basalt", "Kestrel", "Larch", "Quarry", "Sable", "Vale")
_KINDS = ("Records", "Institute", "Pictures", "Society", "Trust", "Works", "Company", "Museum",
          "Foundation", "Press", "Studios", "Collective")


class ScaleArgs:
    """What to measure (the CLI's options)."""

    def __init__(self, facts: int = 500_000, engine: str = "memory", kb: str = "generated",
                 replicate: int = 1, repeat: int = 30, table_rows: int = TABLE_ROWS,
                 seed: int = 7) -> None:
        self.facts, self.engine, self.kb, self.replicate = facts, engine, kb, replicate
        self.repeat, self.table_rows, self.seed = repeat, table_rows, seed

    def as_dict(self) -> dict[str, Any]:
        return dict(vars(self))


def p50(values: Sequence[float]) -> float:
    """Median of ``values`` (NaN when empty)."""
    return statistics.median(values) if values else float("nan")


def entity_names(n: int, rng: random.Random) -> list[str]:
    """``n`` distinct multi-word names (people, places, organisations), shuffled by ``rng``."""
    names: list[str] = []
    i = 0
    while len(names) < n:
        a, b = _WORDS[i % len(_WORDS)], _WORDS[(i // len(_WORDS)) % len(_WORDS)]
        k = i // (len(_WORDS) ** 2)
        style = i % 3
        if style == 0:
            name = f"{_FIRST[(i * 7) % len(_FIRST)]} {a}{b.lower()} {k}"
        elif style == 1:
            name = f"{a} {b} {_KINDS[k % len(_KINDS)]} {k // len(_KINDS)}"
        else:
            name = f"Port {a} {b} {k}"
        names.append(name)
        i += 1
    rng.shuffle(names)
    return names


def _cache_dir() -> Path:
    path = default_cache_dir() / "scale"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _write_atomic(path: Path, lines: Any) -> Path:
    """Write ``lines`` into a temporary file next to ``path``, then rename it into place."""
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    with tmp.open("w", encoding="utf-8") as fh:
        fh.writelines(lines)
    tmp.replace(path)
    return path


def generate_kg(n_facts: int, seed: int = 7, folder: Path | None = None) -> Path:
    """A MetaQA-style ``head|rel|tail`` file of ``n_facts`` facts (reused if present): about
    ``n_facts / 5`` entities, :data:`N_RELATIONS` relations of which
    :data:`NUMERIC_RELATIONS` have numeric tails."""
    path = (folder or _cache_dir()) / f"kg_{n_facts}_s{seed}.txt"
    if path.exists():
        return path
    rng = random.Random(seed)
    names = entity_names(max(n_facts // 5, 10), rng)
    rels = list(NUMERIC_RELATIONS) + [f"related_{i}" for i in range(N_RELATIONS
                                                                    - len(NUMERIC_RELATIONS))]

    def lines() -> Any:
        n_ent = len(names)
        for f in range(n_facts):
            h = names[f % n_ent] if f < n_ent else names[rng.randrange(n_ent)]
            r = rels[rng.randrange(len(rels))]
            if r in NUMERIC_RELATIONS:
                tail = str(rng.randrange(1800, 2025)) if r == "founded_year" else \
                    str(rng.randrange(1, 10_000_000))
            else:
                tail = names[rng.randrange(n_ent)]
            yield f"{h}|{r}|{tail}\n"

    return _write_atomic(path, lines())


def replicate_metaqa(k: int, folder: Path | None = None) -> Path:
    """MetaQA's KB ``k`` times: copy ``i > 0`` suffixes every non-numeric name with ``" #i"``."""
    path = (folder or _cache_dir()) / f"metaqa_x{k}.txt"
    if path.exists():
        return path
    source = data_root() / "metaqa" / "kb_partial" / "kb_partial.txt.gz"
    if not source.exists():
        raise TrustUQAError(f"MetaQA's KB is missing: {source}")
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        triples = [line.rstrip("\n").split("|") for line in fh if line.count("|") == 2]

    def lines() -> Any:
        for i in range(k):
            suffix = f" #{i}" if i else ""
            for h, r, t in triples:
                tail = t if t.isdigit() else t + suffix
                yield f"{h}{suffix}|{r}|{tail}\n"

    return _write_atomic(path, lines())


def generate_table(rows: int = TABLE_ROWS, seed: int = 7, folder: Path | None = None) -> Path:
    """A CSV of ``rows`` rows x 7 columns (player seasons), reused if present."""
    path = (folder or _cache_dir()) / f"table_{rows}_s{seed}.csv"
    if path.exists():
        return path
    rng = random.Random(seed)
    players = entity_names(max(rows // 8, 10), rng)
    teams = [f"{w} {k}" for w in _WORDS for k in _KINDS[:6]]
    positions = ("Guard", "Forward", "Center", "Winger", "Keeper")

    def lines() -> Any:
        yield ",".join(TABLE_COLUMNS) + "\n"
        for i in range(rows):
            yield (f"{players[i % len(players)]},{teams[rng.randrange(len(teams))]},"
                   f"{positions[rng.randrange(len(positions))]},{1980 + rng.randrange(45)},"
                   f"{rng.randrange(0, 3000)},{rng.randrange(1, 83)},"
                   f"{_WORDS[rng.randrange(len(_WORDS))]} City\n")

    return _write_atomic(path, lines())


# ------------------------------------------------------------------ child
def _walk(graph: GraphStore, rng: random.Random, hops: int) -> list[tuple[str, str, str]] | None:
    """A random walk of ``hops`` facts (either direction) from a random entity, as
    ``(relation, side, start label)``; None when it gets stuck."""
    pool = graph.entity_pool()
    node = int(pool.ids[rng.randrange(len(pool))])
    start = graph.label(node)
    steps: list[tuple[str, str, str]] = []
    for _ in range(hops):
        out, into = graph.facts_head(node), graph.facts_tail(node)
        if len(out) + len(into) == 0:
            return None
        pick = rng.randrange(len(out) + len(into))
        if pick < len(out):
            fact = int(out[pick])
            steps.append((graph.relation_names[int(graph.rels_of(out[pick:pick + 1])[0])],
                          "head_entity", start))
            node = graph.tail_of(fact)
        else:
            fact = int(into[pick - len(out)])
            steps.append((graph.relation_names[int(graph.rels_of(into[pick - len(out):][:1])[0])],
                          "tail_entity", start))
            node = graph.head_of(fact)
    return steps


def _program(steps: list[tuple[str, str, str]]) -> str:
    lines = []
    for i, (rel, side, start) in enumerate(steps, 1):
        arg = start.replace("'", "\\'") if i == 1 else f"output_of_query{i - 1}"
        lines.append(f"Query{i}: \"get_information(relation='{rel}', {side}='{arg}')\"")
    return "\n".join(lines)


def _exec_ms(graph: GraphStore, mapper: Mapper, text: str) -> tuple[float, int]:
    mapped = mapper.map_program(parse(text))
    t0 = time.perf_counter()
    trace = execute(mapped, graph)
    return (time.perf_counter() - t0) * 1000, len(trace.answer)


def _typo(name: str, rng: random.Random) -> str:
    i = rng.randrange(1, max(len(name) - 1, 2))
    return name[:i] + name[i + 1:]


def _kg_figures(paths: list[Path], args: ScaleArgs) -> dict[str, Any]:
    t0 = time.perf_counter()
    graph = open_files(paths, "kg", args.engine)
    load_s = time.perf_counter() - t0
    rng = random.Random(args.seed)
    mapper = Mapper(graph, encoder=None)
    t0 = time.perf_counter()
    pool = mapper.entities
    pool_s = time.perf_counter() - t0
    names = [graph.label(int(pool.ids[rng.randrange(len(pool))])) for _ in range(args.repeat)]
    exact_ms, typo_ms = [], []
    for name in names:
        t0 = time.perf_counter()
        mapper.map_entity(name)
        exact_ms.append((time.perf_counter() - t0) * 1000)
        typo = _typo(name, rng)
        t0 = time.perf_counter()
        mapper.map_entity(typo)
        typo_ms.append((time.perf_counter() - t0) * 1000)
    hop_ms: list[float] = []
    answers: list[int] = []
    tries = 0
    while len(hop_ms) < args.repeat and tries < args.repeat * 20:
        tries += 1
        steps = _walk(graph, rng, 3)
        if steps is None:
            continue
        ms, n = _exec_ms(graph, mapper, _program(steps))
        hop_ms.append(ms)
        answers.append(n)
    numeric = [r for r in graph.relation_names if r in NUMERIC_RELATIONS or r == "release_year"]
    range_ms = []
    for _ in range(args.repeat if numeric else 0):
        rel = numeric[rng.randrange(len(numeric))]
        value = rng.randrange(1900, 2020) if rel in ("founded_year", "release_year") else \
            rng.randrange(1, 10_000_000)
        text = f"Query1: \"get_information(relation='{rel}', tail_entity>'{value}')\""
        range_ms.append(_exec_ms(graph, mapper, text)[0])
    facts, entities = graph.n_facts, len(pool)
    del graph, mapper, pool  # the reopen comes after, so the peak RSS is that of one store
    gc.collect()
    t0 = time.perf_counter()
    open_files(paths, "kg", args.engine)
    reopen_s = time.perf_counter() - t0
    return {
        "facts": facts, "entities": entities, "load_s": round(load_s, 3),
        "reopen_s": round(reopen_s, 3),
        "reopen_note": "memory: nothing persists, a reopen builds again" if args.engine ==
        "memory" else "",
        "entity_pool_s": round(pool_s, 3), "map_entity_ms": round(p50(exact_ms), 3),
        "map_entity_typo_ms": round(p50(typo_ms), 3),
        "map_entity_typo_first_ms": round(typo_ms[0], 3) if typo_ms else None,
        "three_hop_ms": round(p50(hop_ms), 3),
        "three_hop_questions": len(hop_ms), "three_hop_mean_answers":
        round(statistics.mean(answers), 1) if answers else 0,
        "range_ms": round(p50(range_ms), 3),
    }


def _table_figures(path: Path, args: ScaleArgs) -> dict[str, Any]:
    t0 = time.perf_counter()
    graph = open_files([path], "table", args.engine)
    load_s = time.perf_counter() - t0
    mapper = Mapper(graph, encoder=None)
    text = ("Query1: \"get_information(relation='Team', tail_entity='Harbor Records')\"\n"
            "Query2: \"get_information(relation='Season', tail_entity>'2015')\"\n"
            "Query3: \"set_intersection(set1='output_of_query1', set2='output_of_query2')\"\n"
            "Query4: \"get_information(relation='Points', head_entity='output_of_query3')\"\n"
            "Query5: \"max(set='output_of_query4')\"")
    t0 = time.perf_counter()
    trace = run_query(text, graph, mapper)
    total = time.perf_counter() - t0
    if trace.error:
        raise TrustUQAError(f"the table question failed: {trace.error}")
    return {"table_facts": graph.n_facts, "table_load_s": round(load_s, 3),
            "table_question_s": round(total, 3),
            "table_execute_s": round(sum(v for k, v in trace.timings.items()
                                         if k not in ("parse", "map")), 3),
            "table_map_s": round(trace.timings.get("map", 0.0), 3),
            "table_answer": list(trace.answer)[:3]}


def measure(part: str, args: ScaleArgs) -> dict[str, Any]:
    """Measure one part (``kg`` or ``table``) in this process; adds ``peak_rss_mb``."""
    if part == "kg":
        paths = [replicate_metaqa(args.replicate)] if args.kb == "metaqa" else \
            [generate_kg(args.facts, args.seed)]
        out = _kg_figures(paths, args)
    else:
        out = _table_figures(generate_table(args.table_rows, args.seed), args)
    out["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return out


def _child(part: str, args: ScaleArgs) -> dict[str, Any]:
    """Run :func:`measure` in a fresh Python process and read its JSON line (the size limits
    for uploads and facts are raised there: the files are the benchmark's own)."""
    big = 1 << 40  # the benchmark's own files: no upload-size limits
    env = {**os.environ, "TRUSTUQA_LIMIT_FACTS": str(max(args.facts * args.replicate * 2,
                                                         5_000_000)),
           "TRUSTUQA_LIMIT_UPLOAD_BYTES": str(big), "TRUSTUQA_LIMIT_UNZIPPED_BYTES": str(big)}
    proc = subprocess.run(
        [sys.executable, "-m", "trustuqa_core.bench.scale", part, json.dumps(args.as_dict())],
        capture_output=True, text=True, env=env, check=False)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        raise TrustUQAError(f"the {part} measurement failed: "
                            f"{(proc.stderr.strip().splitlines() or ['no output'])[-1]}")
    result: dict[str, Any] = json.loads(lines[-1])
    if "error" in result:
        raise TrustUQAError(result["error"])
    return result


def run_scale(args: ScaleArgs, table: bool = True) -> dict[str, Any]:
    """All figures: the KG part and (``table``) the table question, each in its own child."""
    kg = _child("kg", args)
    out: dict[str, Any] = {"engine": args.engine, "kb": args.kb if args.kb == "generated" else
                           f"metaqa x{args.replicate}", **kg}
    if table:
        tab = _child("table", args)
        out["table_peak_rss_mb"] = tab.pop("peak_rss_mb")
        out.update(tab)
    else:
        out["table_question_s"] = None
    return out


def main(argv: Sequence[str]) -> int:
    """Child entry point: ``python -m trustuqa_core.bench.scale PART ARGS_JSON``."""
    part, raw = argv
    args = ScaleArgs(**json.loads(raw))
    try:
        print(json.dumps(measure(part, args)))  # noqa: T201 - the parent reads this line
    except TrustUQAError as exc:
        print(json.dumps({"error": str(exc)}))  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
