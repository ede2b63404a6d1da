"""Demonstrations: a pool of verified (question, query) pairs and dynamic retrieval (paper 3.3).

A :class:`Demo` is ``(question, query, answer, kind, origin)``. Pools: the hand-written initial
demos (``prompts/demos_initial.json``, each with the small source it runs on), demos derived
from benchmark data (the ``*_demos`` loaders at the end of this module), and
questions a user confirmed. A confirmed answer becomes a demo only through
:func:`confirm_demo`, which re-executes its query on the data it came from and refuses it
unless the query alone reproduces the answer. Confirmed demos stay in the user's session
(:func:`with_demos` adds them to a shared pool for that session only); the operator may opt in
to a store shared by all sessions (:class:`UserDemoStore`, a JSONL file), which only ever
returns re-executed demos.

Retrieval: encode the question, take the ``m`` most similar demos of a fitting kind, keep those
whose query re-executes to their labelled answer (when their data is available), stop at ``k``
and fill up with initial demos. A demo whose normalised question equals the question being
answered, or whose origin is excluded (the split being scored), is never returned.

>>> from trustuqa_core.mapping import HashingEncoder
>>> pool = DemoPool(initial_demos(), HashingEncoder(), cache_dir=None)
>>> got = pool.retrieve("How many gold medals did Italy win?", kinds=("table",), k=3)
>>> len(got.demos), any(r.demo.question.startswith("how many gold") for r in got.demos)
(3, False)
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from .errors import TrustUQAError
from .evaluate.metrics import denotation_match
from .execute import run_query
from .graph import ConditionGraph, build_graph
from .llm.prompts import load_text
from .mapping.dense import EmbeddingIndex, Encoder, default_cache_dir
from .translate import load_source

__all__ = [
    "DemoSource",
    "Demo",
    "Retrieved",
    "Retrieval",
    "DemoPool",
    "Verifier",
    "ExecutionVerifier",
    "UserDemoStore",
    "DemoNotReproduced",
    "confirm_demo",
    "with_demos",
    "initial_demos",
    "normalize_question",
    "dedupe",
    "metaqa_demos",
    "webqsp_demos",
    "cronquestions_demos",
    "INITIAL_DEMO_FILES",
    "wtq_demos",
    "wikisql_demos",
    "table_half",
    "benchmark_pool",
    "KINDS_FOR",
]

log = logging.getLogger(__name__)

#: graph kind -> demo kinds that fit it
KINDS_FOR: dict[str, tuple[str, ...]] = {
    "table": ("table",),
    "kg": ("kg",),
    "tkg": ("tkg",),
    "mixed": ("mixed", "table", "kg", "tkg"),
}


def normalize_question(text: str) -> str:
    """Comparison key of a question: accents, case, punctuation and spacing removed.

    >>> normalize_question("Who directed  [Kismet]?") == normalize_question("who directed kismet")
    True
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


@dataclass(frozen=True)
class DemoSource:
    """Data a demo runs on: a file path, or inline ``text`` (initial demos)."""

    kind: str
    name: str
    path: str | None = None
    text: str | None = None

    def load(self) -> Any:
        """The source's facts (raises SourceError / FileNotFoundError)."""
        data: str | bytes = self.text.encode() if self.text is not None else str(self.path)
        return load_source(data, self.kind, self.name)


@dataclass(frozen=True)
class Demo:
    """One demonstration. ``answer`` may be empty (unknown); ``sources`` may be empty."""

    question: str
    query: str
    answer: tuple[str, ...]
    kind: str
    origin: str
    sources: tuple[DemoSource, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def id(self) -> str:
        """A stable content id."""
        raw = "\x01".join((self.origin, self.question, self.query))
        return hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form (the user store's line format)."""
        return {"question": self.question, "query": self.query, "answer": list(self.answer),
                "kind": self.kind, "origin": self.origin,
                "sources": [s.__dict__ for s in self.sources], **self.meta}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Demo:
        known = {"question", "query", "answer", "kind", "origin", "sources"}
        return cls(str(data["question"]), str(data["query"]),
                   tuple(str(a) for a in data.get("answer", ())), str(data.get("kind", "table")),
                   str(data.get("origin", "user")),
                   tuple(DemoSource(**s) for s in data.get("sources", ())),
                   {k: v for k, v in data.items() if k not in known})


@dataclass(frozen=True)
class Retrieved:
    """A demo chosen for a question: its similarity, and whether it was re-verified."""

    demo: Demo
    similarity: float
    verified: bool | None
    how: str  # "retrieved" | "filled" | "rejected"


@dataclass(frozen=True)
class Retrieval:
    """The result of :meth:`DemoPool.retrieve`: chosen demos, rejected ones, and how many
    candidates were looked at."""

    demos: list[Retrieved]
    rejected: list[Retrieved]
    considered: int


Verifier = Callable[[Demo], "bool | None"]


@dataclass
class ExecutionVerifier:
    """Re-executes a demo's query on its own data; True when it yields the labelled answer.

    A demo without an answer (recorded queries) must run without error and give a non-empty
    answer on its own data. ``None`` (cannot tell) when the demo has no sources or its data
    cannot be read.
    Results are memoised per demo id; the last ``max_graphs`` graphs are kept.
    """

    max_graphs: int = 16
    _memo: dict[str, bool | None] = field(default_factory=dict, repr=False)
    _graphs: OrderedDict[tuple[DemoSource, ...], ConditionGraph] = field(
        default_factory=OrderedDict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __call__(self, demo: Demo) -> bool | None:
        if demo.id in self._memo:
            return self._memo[demo.id]
        result = self._check(demo)
        with self._lock:
            self._memo[demo.id] = result
        return result

    def _check(self, demo: Demo) -> bool | None:
        from .evaluate.metrics import denotation_match
        from .execute import run_query

        if not demo.sources:
            return None
        try:
            graph = self.graph(demo.sources)
        except (TrustUQAError, OSError) as err:
            log.info("cannot verify demo %s: %s", demo.id, err)
            return None
        trace = run_query(demo.query, graph)
        if not demo.answer:
            return trace.error is None and bool(trace.answer)
        return denotation_match(trace.answer, demo.answer)

    def graph(self, sources: tuple[DemoSource, ...]) -> ConditionGraph:
        """The graph of a demo's sources (cached)."""
        with self._lock:
            graph = self._graphs.get(sources)
            if graph is not None:
                self._graphs.move_to_end(sources)
                return graph
        graph = build_graph([s.load() for s in sources])
        with self._lock:
            self._graphs[sources] = graph
            while len(self._graphs) > self.max_graphs:
                self._graphs.popitem(last=False)
        return graph


class DemoPool:
    """Demos with their question embeddings, searchable by cosine similarity.

    Demos are kept grouped by kind (``demos`` is in that order), so a search for one kind
    multiplies only that kind's block of the matrix.

    Args:
        demos: the pool (initial demos are also used to fill up).
        encoder: encodes questions; embeddings of each origin group are cached on disk
            (``cache_dir``), keyed by the content hash of the group's questions.
        cache_dir: None disables the disk cache; default ``$TRUSTUQA_CACHE``.
        vectors: precomputed unit vectors, one row per demo (skips encoding).
        verifier: re-execution check (default :class:`ExecutionVerifier`).
    """

    def __init__(self, demos: Sequence[Demo], encoder: Encoder, *,
                 cache_dir: Path | None | str = "default", vectors: np.ndarray | None = None,
                 verifier: Verifier | None = None) -> None:
        order = sorted(range(len(demos)), key=lambda i: demos[i].kind)  # stable
        self.demos = [demos[i] for i in order]  # grouped by kind: one block per kind
        self.encoder = encoder
        directory = default_cache_dir() if cache_dir == "default" else cache_dir
        self.cache_dir = Path(directory) if directory is not None else None
        self.verifier: Verifier = verifier or ExecutionVerifier()
        if vectors is not None and vectors.shape[0] != len(self.demos):
            raise ValueError("vectors must have one row per demo")
        self.matrix = (np.ascontiguousarray(vectors[order], dtype=np.float32)
                       if vectors is not None else self._encode())
        self._blocks: dict[str, slice] = {}
        for i, d in enumerate(self.demos):
            start = self._blocks[d.kind].start if d.kind in self._blocks else i
            self._blocks[d.kind] = slice(start, i + 1)
        self._norm = [normalize_question(d.question) for d in self.demos]
        self._by_norm: dict[str, list[int]] = {}
        for i, key in enumerate(self._norm):
            self._by_norm.setdefault(key, []).append(i)
        self._kinds = np.array([d.kind for d in self.demos], dtype=object)
        self._origins = np.array([d.origin for d in self.demos], dtype=object)
        self._initial = np.array([d.origin == "initial" for d in self.demos], dtype=bool)
        self._masks: dict[tuple[tuple[str, ...], tuple[str, ...]], np.ndarray] = {}
        self._queries: dict[str, np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.demos)

    def _encode(self) -> np.ndarray:
        dim = None
        blocks: dict[str, np.ndarray] = {}
        groups: dict[str, list[int]] = {}
        for i, d in enumerate(self.demos):
            groups.setdefault(d.origin, []).append(i)
        for origin, idx in groups.items():
            index = EmbeddingIndex([self.demos[i].question for i in idx], self.encoder,
                                   self.cache_dir)
            blocks[origin] = np.asarray(index.vectors, dtype=np.float32)
            dim = blocks[origin].shape[1]
        matrix = np.zeros((len(self.demos), dim or 1), dtype=np.float32)
        for origin, idx in groups.items():
            matrix[idx] = blocks[origin]
        return matrix

    def encode_query(self, question: str) -> np.ndarray:
        """The question's vector (memoised)."""
        vec = self._queries.get(question)
        if vec is None:
            vec = np.asarray(self.encoder.encode([question])[0], dtype=np.float32)
            if len(self._queries) < 10_000:
                self._queries[question] = vec
        return vec

    def allowed(self, kinds: Sequence[str] | None, exclude_origins: Sequence[str]) -> np.ndarray:
        """Boolean mask of demos of the given kinds whose origin is not excluded (cached)."""
        key = (tuple(kinds or ()), tuple(sorted(exclude_origins)))
        mask = self._masks.get(key)
        if mask is None:
            mask = np.ones(len(self.demos), dtype=bool)
            if kinds:
                mask &= np.isin(self._kinds, list(kinds))
            if exclude_origins:
                mask &= ~np.isin(self._origins, list(exclude_origins))
            self._masks[key] = mask
        return mask

    def same_question(self, question: str) -> list[int]:
        """Positions of demos whose normalised question equals ``question``'s."""
        return self._by_norm.get(normalize_question(question), [])

    def similar(self, question: str, m: int, kinds: Sequence[str] | None = None,
                exclude_origins: Sequence[str] = ()) -> list[tuple[int, float]]:
        """The ``m`` most similar allowed demos as ``(position, cosine)``, best first."""
        if not self.demos or m <= 0:
            return []
        query = self.encode_query(question)
        if kinds:  # only the blocks of the wanted kinds are multiplied
            scores = np.full(len(self.demos), -np.inf, dtype=np.float32)
            for kind in set(kinds) & set(self._blocks):
                block = self._blocks[kind]
                scores[block] = self.matrix[block] @ query
        else:
            scores = self.matrix @ query
        scores = np.where(self.allowed(kinds, exclude_origins), scores, -np.inf)
        scores[self.same_question(question)] = -np.inf
        m = min(m, len(scores))
        top = np.argpartition(-scores, m - 1)[:m]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(i), float(scores[i])) for i in top if np.isfinite(scores[i])]

    def retrieve(self, question: str, *, k: int = 8, m: int = 15,
                 kinds: Sequence[str] | None = None, exclude_origins: Sequence[str] = (),
                 verify: bool = True, fill: bool = True) -> Retrieval:
        """Up to ``k`` demos for ``question`` (see the module docstring)."""
        chosen: list[Retrieved] = []
        rejected: list[Retrieved] = []
        found = self.similar(question, m, kinds, exclude_origins)
        for pos, sim in found:
            demo = self.demos[pos]
            ok = self.verifier(demo) if verify else None
            if ok is False:
                rejected.append(Retrieved(demo, sim, False, "rejected"))
                continue
            chosen.append(Retrieved(demo, sim, ok, "retrieved"))
            if len(chosen) >= k:
                break
        if fill and len(chosen) < k:
            chosen += self._fill(question, k - len(chosen), kinds, chosen)
        return Retrieval(chosen, rejected, len(found))

    def _fill(self, question: str, need: int, kinds: Sequence[str] | None,
              chosen: list[Retrieved]) -> list[Retrieved]:
        have = {r.demo.id for r in chosen}
        mask = self._initial & self.allowed(kinds, ())
        mask[self.same_question(question)] = False
        idx = np.flatnonzero(mask)
        if len(idx) == 0:
            return []
        sims = self.matrix[idx] @ self.encode_query(question)
        order = idx[np.argsort(-sims, kind="stable")]
        out: list[Retrieved] = []
        for pos in order:
            demo = self.demos[int(pos)]
            if demo.id not in have and len(out) < need:
                out.append(Retrieved(demo, float(self.matrix[pos] @ self.encode_query(question)),
                                     None, "filled"))
        return out


#: the bundled demo files, each with the small sources its demos run on
INITIAL_DEMO_FILES = ("demos_initial.json", "demos_more.json")


def initial_demos() -> list[Demo]:
    """The hand-written demos of ``prompts/demos_initial.json`` and ``demos_more.json`` (the
    richer pool: every function and argument pattern, every source kind), origin
    ``initial``."""
    out = []
    for name in INITIAL_DEMO_FILES:
        data = json.loads(load_text(name))
        sources = {key: DemoSource(s["kind"], s["name"], text=s["text"])
                   for key, s in data["sources"].items()}
        out += [Demo(d["question"], d["query"], tuple(d["answer"]), d["kind"], "initial",
                     tuple(sources[s] for s in d["sources"])) for d in data["demos"]]
    return out


class DemoNotReproduced(TrustUQAError):
    """A confirmed answer whose query, re-executed on its data, does not give that answer."""


def confirm_demo(question: str, query: str, answer: Sequence[str], graph: ConditionGraph,
                 kind: str, *, mapper: Any = None, data: Sequence[str] = ()) -> Demo:
    """A user-confirmed answer as a demo (origin ``user``), once its query reproduces it.

    The query is re-executed on ``graph`` (the data the answer came from) with no mapping
    override: an answer that only a manual override, an edit or a stale run produced is
    refused. ``data`` (content hashes of the sources) is recorded with the demo.

    Raises:
        DemoNotReproduced: the re-executed query fails or gives another answer.

    >>> g = build_graph([load_source(b"Name,Nation\\nAnn,Italy\\n", "table", "t.csv")])
    >>> q = "Query1: \\"get_information(relation='Nation', head_entity='Ann')\\""
    >>> confirm_demo("Where is Ann from?", q, ["Italy"], g, "table").meta["verified"]
    True
    >>> confirm_demo("Where is Ann from?", q, ["Spain"], g, "table")
    Traceback (most recent call last):
    ...
    trustuqa_core.demos.DemoNotReproduced: the query, re-executed on its data, gives Italy, \
not the confirmed answer Spain
    """
    if not question.strip() or not answer:
        raise DemoNotReproduced("only a question with an answer can become a demonstration")
    trace = run_query(query, graph, mapper)
    if trace.error is not None:
        raise DemoNotReproduced(f"the query no longer runs on its data: {trace.error.message}")
    got = trace.answer
    if not denotation_match(got, list(answer)):
        raise DemoNotReproduced(
            f"the query, re-executed on its data, gives {', '.join(got) or 'nothing'}, not the "
            f"confirmed answer {', '.join(answer)}")
    return Demo(question, query, tuple(answer), kind, "user",
                meta={"verified": True, "data": list(data)})


def with_demos(pool: DemoPool, extra: Sequence[Demo]) -> DemoPool:
    """``pool`` plus ``extra`` demos (one session's confirmed answers): only the new
    questions are encoded; ``pool`` itself is not changed (it may be shared by sessions)."""
    if not extra:
        return pool
    vectors = np.asarray(pool.encoder.encode([d.question for d in extra]), dtype=np.float32)
    return DemoPool([*pool.demos, *extra], pool.encoder, cache_dir=pool.cache_dir,
                    vectors=np.vstack([pool.matrix, vectors]), verifier=pool.verifier)


class UserDemoStore:
    """Questions a user marked correct: one JSON object per line, appended atomically.

    Used only when the operator shares confirmed demos between sessions
    (``shared_user_demos``); by default they stay in the session. Default path:
    ``$TRUSTUQA_CACHE/user_demos.jsonl``. Each append is a single ``write`` of one complete
    line under an exclusive lock, then fsync; readers skip a damaged line with a warning
    instead of failing, and :meth:`load` returns only demos :func:`confirm_demo` verified.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_dir() / "user_demos.jsonl"
        self._lock = threading.Lock()

    def add(self, demo: Demo) -> None:
        """Append one demo (origin forced to ``user``; a timestamp is recorded).

        Raises:
            DemoNotReproduced: the demo was not verified by :func:`confirm_demo`.
        """
        if demo.meta.get("verified") is not True:
            raise DemoNotReproduced("only a demo verified by confirm_demo() can be shared")
        record = {**demo.to_json(), "origin": "user",
                  "added": datetime.now(UTC).isoformat(timespec="seconds")}
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                _lock_file(fd)
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)

    def load(self) -> list[Demo]:
        """Every stored, verified demo, in the order added (others are skipped, logged)."""
        if not self.path.is_file():
            return []
        out = []
        with self.path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                try:
                    demo = Demo.from_json(json.loads(line))
                except (ValueError, KeyError, TypeError) as err:
                    log.warning("%s line %d skipped: %s", self.path, number, type(err).__name__)
                    continue
                if demo.meta.get("verified") is not True:
                    log.warning("%s line %d skipped: not a re-executed demo", self.path, number)
                    continue
                out.append(demo)
        return out

    def signature(self) -> tuple[float, int]:
        """(mtime, size) of the file, to notice changes cheaply."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return (0.0, 0)
        return (st.st_mtime, st.st_size)


def _lock_file(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: O_APPEND alone
        return
    fcntl.flock(fd, fcntl.LOCK_EX)


def dedupe(demos: Iterable[Demo]) -> list[Demo]:
    """Demos with duplicate ids dropped (first kept)."""
    out: dict[str, Demo] = {}
    for d in demos:
        out.setdefault(d.id, d)
    return list(out.values())


# -- demos derived from benchmark data ------------------------------------------------------
def _origin(question: str, default: str, scored: set[str], scored_origin: str) -> str:
    """``scored_origin`` when the question (normalised) belongs to the split being scored."""
    return scored_origin if normalize_question(question) in scored else default


def metaqa_demos(hops: int, *, root: str | Path | None = None, scored: Iterable[str] = (),
                 scored_origin: str = "") -> list[Demo]:
    """TrustUQA's recorded MetaQA train queries (no answers: they cannot be re-verified).

    Demos whose question is in ``scored`` (texts of the split being scored) get the origin
    ``scored_origin`` so that they can be excluded; the others ``metaqa-<h>hop:train``.
    """
    from .evaluate.datasets import load_recorded_queries

    keys = {normalize_question(q) for q in scored}
    origin = f"metaqa-{hops}hop:train"
    kb = _metaqa_kb(root)
    return [Demo(q, text, (), "kg", _origin(q, origin, keys, scored_origin), kb)
            for q, text in load_recorded_queries(f"metaqa-{hops}hop", root=root).items()]


def _metaqa_kb(root: str | Path | None) -> tuple[DemoSource, ...]:
    """MetaQA's KB as a demo source (so a recorded query is checked to run and be non-empty
    on it), or nothing when the file is absent."""
    from .evaluate.datasets import DatasetError, load_metaqa

    try:
        examples = load_metaqa(1, "dev", 1, root=root)
    except (DatasetError, OSError):
        return ()
    kb = examples[0].sources[0].path if examples and examples[0].sources else None
    return (DemoSource("kg", kb.name, str(kb)),) if kb is not None else ()


def cronquestions_demos(*, root: str | Path | None = None) -> list[Demo]:
    """The demonstrations of TrustUQA's fixed CronQuestions prompt (recorded GPT-3.5 queries;
    the question is the first line of each user turn), origin ``cronquestions:prompt``. The
    recorded train queries are not available (see the data MANIFEST)."""
    from .evaluate.datasets import load_fixed_prompt

    messages = load_fixed_prompt("cronquestions", root=root)
    out = []
    for user, reply in zip(messages, messages[1:], strict=False):
        if user["role"] != "user" or reply["role"] != "assistant":
            continue
        found = re.search(r"Question:\s*(.+)", user["content"])
        if found:
            out.append(Demo(found.group(1).strip(), reply["content"].strip(), (), "tkg",
                            "cronquestions:prompt"))
    return out


def webqsp_demos(kind: str = "name", *, root: str | Path | None = None,
                 scored: Iterable[str] = (), scored_origin: str = "") -> list[Demo]:
    """TrustUQA's recorded WebQSP train queries (``name`` or ``unname``), no answers."""
    from .evaluate.datasets import load_recorded_queries

    keys = {normalize_question(q) for q in scored}
    return [Demo(q, text, (), "kg", _origin(q, "webqsp:train", keys, scored_origin))
            for q, text in load_recorded_queries(f"webqsp-{kind}", root=root).items()]


def wtq_demos(*, root: str | Path | None = None, scored: Iterable[str] = (),
              scored_origin: str = "") -> list[Demo]:
    """TrustUQA's recorded WTQ train queries with the question's table and gold answer
    (so they can be re-verified). A question asked of several tables takes the first."""
    from .evaluate.datasets import load_recorded_queries, load_wtq

    keys = {normalize_question(q) for q in scored}
    examples: dict[str, Any] = {}
    for ex in load_wtq("train", root=root):
        examples.setdefault(ex.question, ex)
    out = []
    for q, text in load_recorded_queries("wtq", root=root).items():
        found = examples.get(q)
        sources = ((DemoSource("table", found.sources[0].path.name,
                                str(found.sources[0].path)),) if found is not None else ())
        out.append(Demo(q, text, tuple(found.answers) if found is not None else (), "table",
                        _origin(q, "wtq:train", keys, scored_origin), sources))
    return out


def wikisql_demos(examples: Iterable[Any], origin: str) -> list[Demo]:
    """WikiSQL examples (``evaluate.datasets.Example``) as demos: SQL converted to programs."""
    from .evaluate.datasets import wikisql_header
    from .writers.wikisql import sql_to_program

    out = []
    for ex in examples:
        path = ex.sources[0].path
        text = sql_to_program(ex.metadata["sql"], wikisql_header(path))
        out.append(Demo(ex.question, text, tuple(ex.answers), "table", origin,
                        (DemoSource("table", path.name, str(path)),),
                        {"table_id": ex.metadata.get("table_id")}))
    return out


def table_half(table_id: str) -> str:
    """``"a"`` or ``"b"``: a fixed split of WikiSQL tables (first byte of sha1 of the id).

    >>> table_half("1-10015132-11") in ("a", "b")
    True
    """
    return "a" if hashlib.sha1(table_id.encode("utf-8")).digest()[0] % 2 == 0 else "b"


ExcludeFor = Callable[[Any], tuple[str, ...]]


def benchmark_pool(benchmark: str, split: str, encoder: Encoder, *,
                   root: str | Path | None = None) -> tuple[DemoPool, ExcludeFor]:
    """A hygienic demo pool for scoring ``benchmark``/``split``, and the origins to exclude
    for each example (pass both to ``answer(demos=..., exclude_origins=...)``).

    Demos whose question (normalised) occurs in the scored split get that split's origin and
    are excluded. WikiSQL has no train split here: dev is split by table id
    (:func:`table_half`) and each half is answered with demos from the other half only.
    """
    from .evaluate.datasets import load, load_wikisql

    init = initial_demos()
    origin = f"{benchmark}:{split}"
    scored = [e.question for e in load(benchmark, split, root=root)] if benchmark != (
        "wikisql") else []
    demos: list[Demo]
    if benchmark.startswith("metaqa-"):
        demos = metaqa_demos(int(benchmark[7]), root=root, scored=scored, scored_origin=origin)
    elif benchmark == "wtq":
        demos = wtq_demos(root=root, scored=scored, scored_origin=origin)
    elif benchmark == "cronquestions":
        demos = cronquestions_demos(root=root)
    elif benchmark == "webqsp":
        demos = [d for kind in ("name", "unname") for d in
                 webqsp_demos(kind, root=root, scored=scored, scored_origin=origin)]
    elif benchmark == "wikisql":
        every = [e for e in load_wikisql("dev", root=root) if e.answers]
        demos = [d for h in "ab" for d in wikisql_demos(
            [e for e in every if table_half(str(e.metadata["table_id"])) == h],
            f"wikisql:dev-half-{h}")]
        pool = DemoPool(init + demos, encoder)
        if split != "dev":
            return pool, lambda example: ()
        return pool, lambda example: (
            f"wikisql:dev-half-{table_half(example.metadata['table_id'])}",)
    else:
        demos = []
    return DemoPool(init + demos, encoder), lambda example: (origin,)
