"""Demo pools and dynamic retrieval (paper 3.3).

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

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..llm.prompts import load_text
from ..mapping.dense import EmbeddingIndex, Encoder, default_cache_dir
from .model import Demo, DemoSource, normalize_question
from .verify import ExecutionVerifier, Verifier

__all__ = ["Retrieved", "Retrieval", "DemoPool", "INITIAL_DEMO_FILES", "initial_demos",
           "with_demos"]


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



def with_demos(pool: DemoPool, extra: Sequence[Demo]) -> DemoPool:
    """``pool`` plus ``extra`` demos (one session's confirmed answers): only the new
    questions are encoded; ``pool`` itself is not changed (it may be shared by sessions)."""
    if not extra:
        return pool
    vectors = np.asarray(pool.encoder.encode([d.question for d in extra]), dtype=np.float32)
    return DemoPool([*pool.demos, *extra], pool.encoder, cache_dir=pool.cache_dir,
                    vectors=np.vstack([pool.matrix, vectors]), verifier=pool.verifier)
