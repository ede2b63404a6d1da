"""Speed of dynamic demo retrieval over a 50k-demonstration pool (for ``bench perf``).

The pool holds 50,000 synthetic demos with precomputed 384-d unit vectors (the size of
all-MiniLM-L6-v2's), all of the kind searched for (the worst case: a search multiplies only
the block of the wanted kind) and of two origins, a quarter of them excluded. One timed call
is a whole :meth:`~trustuqa_core.demos.DemoPool.retrieve`: encode the question (the hashing
encoder; encoding one question with MiniLM costs a few ms more and is not included), one
matrix-vector product, the kind / origin / same-question masks, the top-m,
verification lookups (memoised, as in steady state) and the fill with initial demos.

>>> demo_retrieval_ms(3, size=2000) < 1000
True
"""

from __future__ import annotations

import statistics
import time
from functools import lru_cache

import numpy as np

from ..demos import Demo, DemoPool, initial_demos
from ..mapping.dense import HashingEncoder

__all__ = ["demo_retrieval_ms", "synthetic_pool", "POOL_SIZE"]

POOL_SIZE = 50_000
_DIM = 384
_WORDS = ("team", "player", "year", "score", "nation", "film", "director", "gold", "city",
          "season", "record", "total", "rank", "venue", "date", "points", "club", "album")


@lru_cache(maxsize=4)
def synthetic_pool(size: int = POOL_SIZE, seed: int = 0) -> DemoPool:
    """``size`` synthetic demos plus the initial ones, vectors precomputed (built once)."""
    rng = np.random.default_rng(seed)
    demos = [Demo(f"which {_WORDS[i % 18]} had {_WORDS[(i // 18) % 18]} number {i}?",
                  f"Query1: \"get_information(relation='{_WORDS[i % 18]}', tail_entity='{i}')\"",
                  (), "table", "bench:train" if i % 4 else "bench:dev")
             for i in range(size)]
    init = initial_demos()
    encoder = HashingEncoder(dim=_DIM)
    vectors = rng.standard_normal((size, _DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    init_vectors = encoder.encode([d.question for d in init])
    return DemoPool(demos + init, encoder, cache_dir=None,
                    vectors=np.vstack([vectors, init_vectors]), verifier=lambda demo: None)


def demo_retrieval_ms(repeat: int, size: int = POOL_SIZE) -> float:
    """Median milliseconds of one retrieval (k=8 of m=15) over a ``size``-demo pool."""
    pool = synthetic_pool(size)
    questions = [f"how many {_WORDS[i % 18]} did the {_WORDS[(i * 7) % 18]} win in {1990 + i}?"
                 for i in range(max(repeat, 1))]
    pool.retrieve(questions[0], k=8, m=15, kinds=("table",), exclude_origins=("bench:dev",))
    times = []
    for q in questions:
        t0 = time.perf_counter()
        pool.retrieve(q, k=8, m=15, kinds=("table",), exclude_origins=("bench:dev",))
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)
