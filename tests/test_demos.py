"""Demonstrations: the initial pool runs, retrieval is hygienic, the user store is safe."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence

import numpy as np
import pytest

from trustuqa_core.answer_match import denotation_match
from trustuqa_core.demos import (
    Demo,
    DemoPool,
    DemoSource,
    ExecutionVerifier,
    UserDemoStore,
    initial_demos,
    normalize_question,
)
from trustuqa_core.evaluate.datasets import load_metaqa
from trustuqa_core.evaluate.demo_pools import metaqa_demos
from trustuqa_core.execute import run_query
from trustuqa_core.mapping import HashingEncoder
from trustuqa_core.query import parse

ALL_FUNCTIONS = {"get_information", "set_union", "set_intersection", "set_difference",
                 "set_negation", "count", "sum", "mean", "max", "min", "keep", "previous_row",
                 "next_row"}


class CountingEncoder(HashingEncoder):
    """A hashing encoder that counts the texts it encodes."""

    def __init__(self) -> None:
        super().__init__()
        self.encoded = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.encoded += len(texts)
        return super().encode(texts)


@pytest.fixture(scope="module")
def initial() -> list[Demo]:
    return initial_demos()


# -- the initial pool --------------------------------------------------------------------
def test_every_initial_demo_reexecutes_to_its_answer(initial: list[Demo]) -> None:
    verifier = ExecutionVerifier()
    failed = []
    for demo in initial:
        trace = run_query(demo.query, verifier.graph(demo.sources))
        if not denotation_match(trace.answer, demo.answer):
            failed.append((demo.question, trace.answer, trace.error))
    assert failed == []


def test_initial_demos_cover_every_function_and_kind(initial: list[Demo]) -> None:
    used = {q.call.func for d in initial for q in parse(d.query).queries}
    assert used >= ALL_FUNCTIONS
    assert {d.kind for d in initial} == {"table", "kg", "tkg", "mixed"}
    texts = " ".join(d.query for d in initial)
    for feature in ("'most'", "key='time'", "key='start_time'", "key='end_time'",
                    "tail_entity>", "tail_entity<", "value<=", "value>"):
        assert feature in texts, feature


def test_verifier_rejects_a_demo_whose_query_is_wrong(initial: list[Demo]) -> None:
    good = initial[0]
    bad = Demo(good.question, good.query, ("999",), good.kind, "test", good.sources)
    verifier = ExecutionVerifier()
    assert verifier(good) is True
    assert verifier(bad) is False
    assert verifier(Demo("q", "Query1: \"count(set='x')\"", (), "kg", "test")) is None


# -- retrieval -----------------------------------------------------------------------------
def _pool(demos: list[Demo], **kw) -> DemoPool:
    return DemoPool(demos, HashingEncoder(), cache_dir=None, **kw)


def test_retrieval_never_returns_the_question_itself(initial: list[Demo]) -> None:
    pool = _pool(initial)
    question = "Which films did [William Dieterle] direct?"  # an initial demo, other case
    got = pool.retrieve(question, k=8, m=15, kinds=("kg",))
    assert got.demos
    assert all(normalize_question(r.demo.question) != normalize_question(question)
               for r in got.demos)


def test_retrieval_excludes_origins_and_fills_with_initial(initial: list[Demo]) -> None:
    scored = Demo("how many gold medals did Japan win?", initial[0].query, ("4",), "table",
                  "bench:dev", initial[0].sources)
    train = Demo("how many gold medals did China win?", initial[0].query.replace(
        "Italy", "China"), ("10",), "table", "bench:train", initial[0].sources)
    pool = _pool([*initial, scored, train])
    got = pool.retrieve("how many gold medals did Spain win?", k=4, m=2, kinds=("table",),
                        exclude_origins=("bench:dev",))
    assert "bench:dev" not in [r.demo.origin for r in got.demos]
    retrieved = [r for r in got.demos if r.how == "retrieved"]
    assert train in [r.demo for r in retrieved] and len(retrieved) == 2
    assert all(r.verified is True for r in retrieved)
    filled = [r for r in got.demos if r.how == "filled"]
    assert len(filled) == 2 and all(r.demo.origin == "initial" for r in filled)
    assert all(r.demo.kind == "table" for r in got.demos)
    assert len({r.demo.id for r in got.demos}) == 4


def test_retrieval_drops_demos_that_do_not_reexecute(initial: list[Demo]) -> None:
    wrong = Demo("how many gold medals did China win?", initial[0].query, ("10",), "table",
                 "bench:train", initial[0].sources)  # the query still asks about Italy
    pool = _pool([*initial, wrong])
    got = pool.retrieve("how many gold medals did Spain win?", k=2, m=5, kinds=("table",))
    assert wrong not in [r.demo for r in got.demos]
    assert [r.demo for r in got.rejected] == [wrong]


def test_question_embeddings_are_cached_on_disk(initial: list[Demo], tmp_path) -> None:
    first, second = CountingEncoder(), CountingEncoder()
    a = DemoPool(initial, first, cache_dir=tmp_path)
    b = DemoPool(initial, second, cache_dir=tmp_path)
    assert first.encoded == len(initial) and second.encoded == 0
    assert np.allclose(a.matrix, b.matrix)
    DemoPool([*initial, Demo("new?", "Query1: \"count(set='x')\"", (), "kg", "user")],
             second, cache_dir=tmp_path)
    assert second.encoded == 1  # only the changed origin group is encoded again


def test_pool_rejects_vectors_of_the_wrong_shape(initial: list[Demo]) -> None:
    with pytest.raises(ValueError, match="one row per demo"):
        DemoPool(initial, HashingEncoder(), cache_dir=None, vectors=np.zeros((2, 8)))


# -- user store ------------------------------------------------------------------------
def test_user_store_round_trip_and_damaged_lines(tmp_path, caplog) -> None:
    store = UserDemoStore(tmp_path / "sub" / "user.jsonl")
    demo = Demo("Who won?", "Query1: \"get_information(relation='Winner')\"", ("Ann",),
                "table", "whatever", (DemoSource("table", "t.csv", path="/x/t.csv"),),
                {"verified": True})  # as confirm_demo() makes them
    store.add(demo)
    with store.path.open("a", encoding="utf-8") as handle:
        handle.write('{"question": "half a line')  # an interrupted writer
    loaded = store.load()
    assert [d.question for d in loaded] == ["Who won?"]
    assert loaded[0].origin == "user" and loaded[0].sources == demo.sources
    assert "skipped" in caplog.text


def test_user_store_skips_a_line_nested_too_deep(tmp_path, caplog) -> None:
    store = UserDemoStore(tmp_path / "user.jsonl")
    demo = Demo("Who won?", "Query1: \"get_information(relation='Winner')\"", ("Ann",),
                "table", "whatever", (), {"verified": True})
    with store.path.open("w", encoding="utf-8") as handle:
        handle.write("[" * 200_000 + "\n")  # json.loads would raise RecursionError here
    store.add(demo)
    assert [d.question for d in store.load()] == ["Who won?"]
    assert "line 1 skipped: LimitError" in caplog.text


def test_user_store_concurrent_appends_keep_whole_lines(tmp_path) -> None:
    store = UserDemoStore(tmp_path / "user.jsonl")
    long_query = "Query1: \"get_information(relation='" + "x" * 5000 + "')\""

    def add(i: int) -> None:
        for j in range(20):
            store.add(Demo(f"q{i}-{j}", long_query, (str(j),), "kg", "user",
                           meta={"verified": True}))

    threads = [threading.Thread(target=add, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = store.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 160
    assert all(json.loads(line)["query"] == long_query for line in lines)


def test_user_store_default_path_is_under_the_cache_dir(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path))
    assert UserDemoStore().path == tmp_path / "user_demos.jsonl"


# -- benchmark pools ---------------------------------------------------------------------
@pytest.mark.data
def test_metaqa_pool_relabels_scored_questions(data_dir) -> None:
    dev = {normalize_question(e.question) for e in load_metaqa(1, "dev")}
    demos = metaqa_demos(1, root=data_dir, scored=dev, scored_origin="metaqa-1hop:dev")
    relabelled = [d for d in demos if d.origin == "metaqa-1hop:dev"]
    assert len(relabelled) >= 1000  # the audit found 1,192 word-for-word repeats
    assert all(normalize_question(d.question) in dev for d in relabelled)
    assert not any(normalize_question(d.question) in dev for d in demos
                   if d.origin != "metaqa-1hop:dev")
