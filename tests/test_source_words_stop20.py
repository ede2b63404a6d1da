"""Stop 20, second round (issues 11 and 13): an answer read from one source while a question
word its query leaves unexplained names a relation / column of another loaded source is
``check`` with the reason ``word_of_other_source``, never ``verified``.

Made data: the staff table, books KG and politics TKG of ``tests/test_routing.py`` loaded
together; offline writer.
"""

from __future__ import annotations

import pytest
from helpers import office_files, office_graph_of
from test_routing import BOOKS, POLITICS, STAFF

from trustuqa_core import answer, load_graph
from trustuqa_core.app_services.card_reasons import reason_line
from trustuqa_core.routing import relation_word_sources
from trustuqa_core.verdict import THRESHOLDS


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return office_graph_of(office_files(tmp_path_factory.mktemp("words"), STAFF, BOOKS,
                                        POLITICS))


WRONG = [
    ("who wrote Chen Wei?", ["Marketing"], "wrote",
     "'wrote' names a relation of books.txt, but the answer was read from staff.csv, whose "
     "query does not account for it"),
    ("what department wrote Dune?", ["Frank Herbert"], "department",
     "'department' names a column of staff.csv, but the answer was read from books.txt, "
     "whose query does not account for it"),
]


@pytest.mark.parametrize(("question", "given", "word", "message"), WRONG)
def test_a_word_naming_another_source_makes_the_answer_check(graph, question: str,
                                                             given: list[str], word: str,
                                                             message: str) -> None:
    a = answer(question, graph, writer="offline")
    assert a.answer == given  # the answer itself does not change
    assert a.verdict is not None and a.verdict.label == "check"
    reason = next(r for r in a.verdict.reasons if r.code == "word_of_other_source")
    assert reason.arg == word and reason.message == message
    assert "word_of_other_source" in a.verdict.blocking
    assert a.trace is not None and a.trace.judged is a.verdict
    d = a.to_dict()
    assert d["verdict"] == "check"
    assert any(r["code"] == "word_of_other_source" for r in d["reasons"])


@pytest.mark.parametrize(("question", "expected"), [
    ("who wrote Dune?", ["Frank Herbert"]),
    ("which department is Chen Wei in?", ["Marketing"]),
    ("When was Neuromancer released?", ["1984"]),
])
def test_right_answers_stay_verified(graph, question: str, expected: list[str]) -> None:
    a = answer(question, graph, writer="offline")
    assert a.answer == expected
    assert a.verdict is not None and a.verdict.label == "verified"
    assert all(r.code != "word_of_other_source" for r in a.verdict.reasons)


def test_relation_words_only_not_node_labels() -> None:
    g = load_graph(tables=[b"Name,Department\nChen Wei,Marketing\n"],
                   kgs=[b"Dune|written_by|Frank Herbert\nDune|has_genre|Marketing Fiction\n"])
    found = relation_word_sources(["wrote", "written", "department", "herbert", "fiction",
                                   "genre", "the"], g)
    assert found == {"table1": ["department"], "kg1": ["wrote", "written", "genre"]}


def test_one_source_loaded_keeps_the_soft_reason() -> None:
    g = load_graph(tables=[STAFF])
    a = answer("who wrote Chen Wei?", g, writer="offline")
    assert a.verdict is not None
    assert all(r.code != "word_of_other_source" for r in a.verdict.reasons)


def test_the_code_blocks_and_has_a_card_title() -> None:
    assert "word_of_other_source" in THRESHOLDS.blocking
    a = answer("who wrote Chen Wei?", load_graph(tables=[STAFF], kgs=[BOOKS]), writer="offline")
    assert a.verdict is not None and a.verdict.label == "check"
    reason = next(r for r in a.verdict.reasons if r.code == "word_of_other_source")
    assert "names a relation of kg1" in reason.message
    line = reason_line(reason)
    assert line.title == "A word points to another source" and line.where == ""


def test_a_word_naming_several_other_sources_singles_out_none(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # tuned on the mixed tune half: 'score', 'section' named columns of 2-50 other tables
    (tmp_path / "essays.txt").write_bytes(b"On Liberty|written_by|John Stuart Mill\n")
    folder = office_files(tmp_path, STAFF, BOOKS, POLITICS)
    g = load_graph(tables=[folder / "staff.csv"], kgs=[folder / "books.txt",
                                                       folder / "essays.txt"],
                   tkgs=[folder / "politics.tsv"])
    a = answer("who wrote Chen Wei?", g, writer="offline")
    assert a.answer == ["Marketing"] and a.verdict is not None
    assert all(r.code != "word_of_other_source" for r in a.verdict.reasons)
