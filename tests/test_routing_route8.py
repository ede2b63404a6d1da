"""Routing, route8: a question asking *when* leans to a temporal source (also *which year* and
a trailing *when*), a word of a table's layout counts for the tables, and label words of a
source the question names no node of weigh less; the larger tune pool of the mixed benchmark;
the cross-source sample's *who acted in Tootsie?*."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.evaluate.mixed import MIXED_BENCHMARKS, TUNE_POOL, mixed_examples, mixed_window
from trustuqa_core.routing import WEIGHTS, route

#: a table with a game column, a TKG of a player's clubs (the CronQuestions shape)
GAMES = b"Player,Games played\nAnna Berg,12\nTom Lind,30\n"
CLUBS = b"Marco Rossi\tmember of sports team\tAC Milan\t1998\t2003\n"


def _games_graph():  # type: ignore[no-untyped-def]
    return load_graph(tables=[GAMES], tkgs=[CLUBS])


@pytest.mark.parametrize("question", [
    "When was Marco Bianchi playing his first game?",  # a player of neither source
    "Which year did Marco Rossi play his first game?",
    "Marco Rossi was playing his last game when",
])
def test_a_question_asking_when_leans_to_the_temporal_source(question: str) -> None:
    """*playing* and *game* are words of the table's column; the question asks for a time,
    which only the TKG's dated facts give."""
    d = route(question, _games_graph())
    assert d.sources == ("tkg1",), (d.how, d.scores)
    assert "the question asks when; tkg1 holds dated facts" in d.evidence["tkg1"]


def test_a_question_not_asking_when_gets_no_when_evidence() -> None:
    d = route("how many games did Tom Lind play?", _games_graph())
    assert d.sources == ("table1",), d.how
    assert not any("asks when" in line for line in d.evidence.get("tkg1", ()))


def test_a_word_of_a_table_layout_counts_for_every_table() -> None:
    """*listed* and *chart* name nothing of any source; they say the question reads a table."""
    medals = b"Nation,Gold\nFrance,3\nItaly,1\n"
    tkg = b"Women's World Cup\twinner\tGermany\t2003\t2003\n"
    g = load_graph(tables=[medals, GAMES], tkgs=[tkg])
    d = route("which nation is listed first in the women's world chart?", g)
    assert d.sources == ("table1",), (d.how, d.scores)
    line = "'listed' refers to a table's layout; table2 is a table"
    assert line in d.evidence["table2"]
    assert not any("layout" in x for x in d.evidence.get("tkg1", ()))
    plain = route("which nation came first in the women's world cup?", g)
    assert not any("layout" in x for x in plain.evidence.get("table1", ()))


def test_label_words_of_an_unnamed_source_weigh_less() -> None:
    """*milan* is a word of a node of both sources; the question names a node (*Tom Lind*) of
    the table only, so the TKG's label word weighs ``loose_label`` of the table's."""
    table = b"Player,Club\nTom Lind,Inter Milan FC\n"
    g = load_graph(tables=[table, b"A,B\nx,y\n"], tkgs=[CLUBS])
    d = route("did Tom Lind like milan?", g)
    full = WEIGHTS["label_word"] * math.log(3 / 2)
    assert "'milan' is a word of a node of tkg1 (the question names no node of it)" \
        in d.evidence["tkg1"]
    assert "'milan' is a word of a node of table1" in d.evidence["table1"]
    assert d.scores["tkg1"] == pytest.approx(WEIGHTS["loose_label"] * full, abs=1e-3)
    assert WEIGHTS["loose_label"] < 1.0


def test_the_tune_pool_leaves_out_the_check_half() -> None:
    assert TUNE_POOL[0] == (100, 200) and all(lo >= 100 for lo, _ in TUNE_POOL)
    assert all(a[1] == b[0] for a, b in zip(TUNE_POOL, TUNE_POOL[1:], strict=False))


@pytest.mark.data
def test_mixed_window_is_the_halves_of_mixed_examples(data_dir: Path) -> None:
    """``mixed_window(0, n)`` is the check half's ``mixed_examples(n)``; a later window takes
    the next questions of each benchmark, interleaved the same way."""
    three = mixed_examples(3, root=data_dir)
    assert [e.id for e in mixed_window(0, 3, root=data_dir)] == [e.id for e in three]
    later = mixed_window(1, 3, root=data_dir)
    n = len(MIXED_BENCHMARKS)
    assert [e.id for e in later] == [e.id for e in three[n:]]


def test_cross_sample_tootsie_is_not_in_the_movie_kg() -> None:
    """The bundled cross-source sample: *Tootsie* is a film of the comedy ranking only (the
    movie KG holds the films of Mel Brooks and Christopher Nolan). The question is routed to
    the table, the one source naming it, and whatever the table gives is not verified: the
    card says *acted* names a relation of the movie KG that the answer's query leaves out."""
    samples = Path(__file__).resolve().parents[1] / "sample_data"
    g = load_graph(tables=[samples / "comedy_ranking.csv"], kgs=[samples / "movies_kg.txt"],
                   tkgs=[samples / "cron_tkg.tsv"])
    assert not any("tootsie" in (samples / f).read_text(encoding="utf-8").casefold()
                   for f in ("movies_kg.txt", "cron_tkg.tsv"))
    a = answer("who acted in Tootsie?", g, writer="offline")
    assert a.routing is not None and a.routing.sources == ("comedy_ranking.csv",)
    assert a.verdict is not None and a.verdict.label != "verified"
    codes = {r.code: r.message for r in a.verdict.reasons}
    assert "movies_kg.txt" in codes.get("word_of_other_source", ""), codes
