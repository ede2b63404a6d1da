"""The large-pool paths of LexicalPool (issue #18) give what a full scan gives."""

from __future__ import annotations

import random

import pytest
from rapidfuzz import fuzz, process

from trustuqa_core.bench.scale import entity_names
from trustuqa_core.lexical_pool import LexicalPool, _TrigramIndex, anchored_score, normalize_all
from trustuqa_core.text import normalize

TRICKY = ["007", "0", "1,000", "1000.0", "Café Crème", "a_b", " x", "x  y", "x ", "12 345",
          "inf", "nan", "1e5", "Rock 'n' Roll", "ÅB", "1234567890123456", "123456789012345",
          "-3", "+4", "$5", "12%", "Amber Oak 3", "AMBER OAK", "line\\nbreak", "ǅ", "ß", "İ",
          "", "x\ty", "Ol' Man", "3 March", "1st", "2001", "02", "Kate Winslet", "ﬁsh"]


def _big_pool(n: int = 5000) -> LexicalPool:
    names = entity_names(n, random.Random(3)) + TRICKY + ["Harbor Oak 3", "harbor oak 3"]
    return LexicalPool(range(100, 100 + len(names)), names)


def test_normalize_all_is_normalize() -> None:
    labels = TRICKY + entity_names(3000, random.Random(1))
    assert normalize_all(labels) == [normalize(x) for x in labels]


@pytest.mark.parametrize("text", ["Harbor Oak 3", "harbor oak 3", "HARBOR OAK 3", "1000", "007",
                                  "Café Crème", "nobody here"])
def test_large_pool_exact_and_normalized(text: str) -> None:
    pool = _big_pool()
    assert len(pool) > 2000
    want_exact = tuple(int(i) for i, lab in zip(pool.ids, pool.labels, strict=True)
                       if lab == text)
    want_norm = tuple(int(i) for i, lab in zip(pool.ids, pool.labels, strict=True)
                      if normalize(lab) == normalize(text))
    assert pool.exact(text) == want_exact
    assert pool.normalized(text) == want_norm


@pytest.mark.parametrize("text", ["oak", "Harbor Oak", "oak 3", "records", "zzz qqq", "3"])
def test_large_pool_containing_is_a_scan(text: str) -> None:
    pool = _big_pool()
    needle = f" {normalize(text)} "
    scan = [int(pool.ids[i]) for i, lab in enumerate(pool.norm_labels)
            if len(normalize(text)) >= 3 and needle in f" {lab} "]
    assert pool.containing(text, limit=40) == tuple(scan[:40])


def test_large_pool_fuzzy_finds_what_a_scan_finds() -> None:
    pool = _big_pool()
    rng = random.Random(5)
    agree = 0
    queries = []
    for _ in range(60):
        name = pool.labels[rng.randrange(len(pool))]
        i = rng.randrange(1, max(len(name) - 1, 2))
        queries.append(name[:i] + name[i + 1:])
    for q in queries:
        got = pool.fuzzy(q, 5)
        full = process.extract(normalize(q), pool.norm_labels, scorer=fuzz.ratio, limit=5)
        want = [(int(pool.ids[i]), pool.labels[i], s / 100) for _, s, i in full]
        assert got[0][2] == want[0][2]  # the best score is never lost
        agree += got == want
    assert agree >= 55


def test_small_pool_fuzzy_is_a_full_anchored_wratio_scan() -> None:
    """Every label scored by WRatio, a match inside a word falling back to the whole-string
    scores (anchored_score), best first: the small pool's shortlist loses none of the top 5."""
    labels = entity_names(500, random.Random(2))
    pool = LexicalPool(range(len(labels)), labels)
    needle = "amber oakharbor"
    scored = [(i, anchored_score(needle, normalize(x), fuzz.WRatio(needle, normalize(x))))
              for i, x in enumerate(labels)]
    scored.sort(key=lambda pair: -pair[1])
    want = [(i, labels[i], s / 100) for i, s in scored[:5]]
    got = pool.fuzzy("Amber Oakharbor", 5)
    assert [(i, lab) for i, lab, _ in got] == [(i, lab) for i, lab, _ in want]
    assert [s for *_, s in got] == pytest.approx([s for *_, s in want])
    # a word ending in the needle's last word is not a match at a word start
    plain = process.extract(needle, [normalize(x) for x in labels], scorer=fuzz.WRatio, limit=5)
    assert got != [(i, labels[i], s / 100) for _, s, i in plain]


def test_trigram_index_keeps_the_closest_and_cuts_at_k() -> None:
    labels = [normalize(x) for x in entity_names(4000, random.Random(4))]
    index = _TrigramIndex(labels)
    target = labels[1234]
    near = index.nearest(target[:-1], 50)
    assert len(near) == 50 and 1234 in near.tolist()
    assert near.tolist() == sorted(near.tolist())
