"""``ask`` takes the question as its last argument too (walk-through ux8: ``ask --table t.csv
"who won?"`` stopped with "the following arguments are required: --question")."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustuqa_core.cli import main


@pytest.fixture
def staff(tmp_path: Path) -> str:
    table = tmp_path / "staff.csv"
    table.write_text("Name,Salary\nAnn,100\nBob,200\n", encoding="utf-8")
    return str(table)


def test_the_question_as_the_last_argument(staff: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "--table", staff, "--writer", "offline", "what is the salary of Bob?"])
    out = capsys.readouterr().out
    assert code == 0 and "answer: 200" in out


def test_the_question_with_the_option_still_works(staff: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ask", "--table", staff, "--writer", "offline", "--question",
                 "what is the salary of Ann?"])
    assert code == 0 and "answer: 100" in capsys.readouterr().out


def test_no_question_says_how_to_give_one(staff: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--table", staff]) == 2
    err = capsys.readouterr().err
    assert "no question: give it as the last argument" in err and "--question" in err


def test_two_different_questions_are_refused(staff: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "--table", staff, "--question", "who?", "what?"]) == 2
    assert "two different questions" in capsys.readouterr().err
