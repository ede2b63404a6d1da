"""Tests written to kill five mutants that the rest of the suite let live (issue #17).

Each test runs on a table or graph written out here, and each expected value was worked out
by hand from that data (the comments show how), never copied from the code's output.
"""

from __future__ import annotations

import numpy as np
import pytest

from trustuqa_core import build_graph, load_source, run_query
from trustuqa_core.errors import ParseError
from trustuqa_core.mapping import Mapper
from trustuqa_core.query import parse

SCORES = b"""Player,Team,Score,Time
Ann,Reds,10,1:50.10
Bob,Reds,10,1:48.64
Cid,Blues,"1,000",2:01.00
Dee,Blues,7,1:49.00
"""


def q(*lines: str) -> str:
    return "\n".join(f'Query{i}: "{line}"' for i, line in enumerate(lines, 1))


@pytest.fixture(scope="module")
def scores():
    g = build_graph([load_source(SCORES, "table", "scores.csv")])
    return g, Mapper(g)


# --- mutant 1: the loose '>' of ops/select.py (durations, dates, ordinals) turned into '<' ---


def test_loose_greater_than_compares_durations_in_the_right_direction(scores) -> None:
    # 'Time' is read as durations (m:ss): Ann 110.10 s, Bob 108.64 s, Cid 121.00 s, Dee 109.00 s.
    # Time > 1:50 (110 s) keeps Ann (110.10) and Cid (121.00); Bob and Dee are below 110 s.
    g, m = scores
    t = run_query(
        q(
            "get_information(relation='Time', tail_entity>'1:50')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
        g,
        m,
    )
    assert t.answer == ["Ann", "Cid"]
    assert any("duration" in n for n in t.steps[0].notes)


def test_loose_less_than_and_at_most_on_durations(scores) -> None:
    # Time < 1:49 (109 s): only Bob (108.64 s). Time <= 1:49: Bob and Dee (exactly 109.00 s).
    g, m = scores
    lt = run_query(
        q(
            "get_information(relation='Time', tail_entity<'1:49')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
        g,
        m,
    )
    assert lt.answer == ["Bob"]
    le = run_query(
        q(
            "get_information(relation='Time', tail_entity<='1:49')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
        g,
        m,
    )
    assert le.answer == ["Bob", "Dee"]
    ge = run_query(
        q(
            "get_information(relation='Time', tail_entity>='1:49')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
        g,
        m,
    )
    # >= 109 s: Ann 110.10, Cid 121.00 and Dee 109.00 (equal); Bob 108.64 is below.
    assert ge.answer == ["Ann", "Cid", "Dee"]


# --- mutant 2: the margin measured to the last candidate instead of the runner-up ---


class _FixedEncoder:
    """An encoder whose cosine similarities are chosen by hand.

    The query text maps to the unit vector e1; each listed label maps to
    ``(c, sqrt(1 - c^2), 0)``, so its cosine with the query is exactly ``c``; any other label
    (e.g. the ``row_number`` relation every table has) maps to e3, cosine 0.
    """

    name = "fixed-test-encoder"

    def __init__(self, query: str, cosines: dict[str, float]) -> None:
        self.query = query
        self.cosines = cosines

    def encode(self, texts):
        rows = []
        for text in texts:
            c = self.cosines.get(text)
            if text == self.query:
                rows.append([1.0, 0.0, 0.0])
            elif c is None:
                rows.append([0.0, 0.0, 1.0])
            else:
                rows.append([c, (1 - c * c) ** 0.5, 0.0])
        return np.asarray(rows, dtype=np.float32)


def test_margin_is_measured_to_the_runner_up_not_the_last_candidate(tmp_path) -> None:
    # Three columns (plus the row_number relation every table gets, cosine 0 here); the literal
    # 'qqq' shares no letters with any of them (rapidfuzz WRatio 0), so only the dense cosines
    # chosen here count: Alpha 0.90, Beta 0.60, Gamma 0.30, row_number 0.
    # Dense picks Alpha (0.90); the runner-up is Beta (0.60), so the margin is 0.90 - 0.60 = 0.30
    # (the last candidate, row_number at 0, would give 0.90).
    g = build_graph([load_source(b"Alpha,Beta,Gamma\n1,2,3\n", "table", "abc.csv")])
    enc = _FixedEncoder("qqq", {"Alpha": 0.9, "Beta": 0.6, "Gamma": 0.3})
    m = Mapper(g, enc, cache_dir=tmp_path).map_relation("qqq")
    assert m.method == "dense"
    assert m.labels == ("Alpha",)
    assert m.score == pytest.approx(0.9, abs=1e-5)
    assert [c.label for c in m.candidates[:3]] == ["Alpha", "Beta", "Gamma"]
    assert [c.method for c in m.candidates[:3]] == ["dense"] * 3
    assert m.margin == pytest.approx(0.3, abs=1e-5)
    # 0.90 is above the weak score (0.75) and 0.30 above the weak margin (0.05): not weak.
    assert not m.weak


def test_close_runner_up_makes_the_mapping_weak(tmp_path) -> None:
    # Alpha 0.90 vs Beta 0.88: margin 0.02 < 0.05, so the choice is flagged weak even though
    # the last candidates (Gamma 0.30, row_number 0) are far away.
    g = build_graph([load_source(b"Alpha,Beta,Gamma\n1,2,3\n", "table", "abc.csv")])
    enc = _FixedEncoder("qqq", {"Alpha": 0.9, "Beta": 0.88, "Gamma": 0.3})
    m = Mapper(g, enc, cache_dir=tmp_path).map_relation("qqq")
    assert m.margin == pytest.approx(0.02, abs=1e-5)
    assert m.weak


# --- mutant 3: a value without its closing quote accepted by the parser ---


@pytest.mark.parametrize(
    "text",
    [
        "Query1: \"get_information(relation='Nation', tail_entity='Italy)\"",
        "get_information(relation='Nation', tail_entity='Italy)",
    ],
)
def test_unclosed_quote_is_rejected(text: str) -> None:
    with pytest.raises(ParseError):
        parse(text)


def test_closed_quote_still_parses() -> None:
    # the control case: the same call with its quote closed parses to one query
    prog = parse("get_information(relation='Nation', tail_entity='Italy')")
    assert len(prog.queries) == 1
    assert [a.value.value for a in prog.queries[0].call.args] == ["Nation", "Italy"]


# --- mutant 4: next_row / previous_row dropping the anchor row's witness ---


def test_next_row_keeps_the_anchor_rows_fact_as_witness(scores) -> None:
    # Bob is data row 2, so the next row is Cid's (row 3). The only evidence that row 3 is "the
    # row after Bob" is the fact (row 2, Player, Bob): it must stay the witness.
    g, m = scores
    t = run_query(
        q(
            "get_information(relation='Player', tail_entity='Bob')",
            "next_row(set='output_of_query1')",
            "get_information(relation='Player', head_entity='output_of_query2')",
        ),
        g,
        m,
    )
    assert t.answer == ["Cid"]
    out = t.steps[1].output
    assert [g.label(e) for e in out.elems] == ["scores.csv row 3"]
    assert [[g.fact_text(f) for f in w] for w in out.witnesses] == [
        [("scores.csv row 2", "Player", "Bob")]
    ]
    assert [str(g.provenance(f)) for f in out.witnesses[0]] == ["scores.csv row 2"]


def test_previous_row_keeps_the_anchor_rows_fact_as_witness(scores) -> None:
    # Dee is row 4; the previous row is Cid's (row 3), witnessed by (row 4, Player, Dee).
    g, m = scores
    t = run_query(
        q(
            "get_information(relation='Player', tail_entity='Dee')",
            "previous_row(set='output_of_query1')",
            "get_information(relation='Player', head_entity='output_of_query2')",
        ),
        g,
        m,
    )
    assert t.answer == ["Cid"]
    out = t.steps[1].output
    assert [g.label(e) for e in out.elems] == ["scores.csv row 3"]
    assert [[g.fact_text(f) for f in w] for w in out.witnesses] == [
        [("scores.csv row 4", "Player", "Dee")]
    ]


# --- mutant 5: the dense stage switched off (with a hand-made encoder; tests/test_dense_real.py
# does the same with the real MiniLM model) ---


def test_dense_stage_binds_a_value_no_lexical_stage_reaches(tmp_path) -> None:
    # 'zzz' has no exact, normalised, numeric, contained or fuzzy match among Italy/Spain
    # (fuzzy scores ~0); the encoder says 'zzz' is 0.95 close to Spain and 0.1 to Italy, so only
    # the dense stage can bind it, to Spain, with margin 0.85.
    g = build_graph([load_source(b"Nation,Gold\nItaly,3\nSpain,5\n", "table", "n.csv")])
    enc = _FixedEncoder("zzz", {"Italy": 0.1, "Spain": 0.95, "Nation": 0.99, "Gold": 0.0})
    m = Mapper(g, enc, cache_dir=tmp_path)
    t = run_query(
        q(
            "get_information(relation='Nation', tail_entity='zzz')",
            "get_information(relation='Gold', head_entity='output_of_query1')",
        ),
        g,
        m,
    )
    tail = next(x for x in t.steps[0].mappings if x.arg == "tail_entity")
    assert tail.method == "dense"
    assert tail.labels == ("Spain",)
    assert tail.margin == pytest.approx(0.85, abs=1e-5)
    assert t.answer == ["5"]
