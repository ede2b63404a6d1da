"""The warning of the fallback over all loaded sources (issue #11): the core words it by
whether that second attempt found anything, the same in every channel (the Python API, the
CLI's text and ``--json``); the app no longer rewrites it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.cli import main
from trustuqa_core.graph import GraphStore

SKIERS = b"Skier,Nation,Rank\nAnn Roy,Italy,1\nBo Li,France,2\n"
FILMS = b"Film,Year,Director\nDuck Soup,1933,Leo McCarey\nTootsie,1982,Sydney Pollack\n"
NOTHING = "tried again over all loaded sources: no answer there either"
ANSWERED = "answered over all loaded sources"


@pytest.fixture(scope="module")
def skiers_and_films() -> GraphStore:
    return load_graph(tables=[SKIERS, FILMS])


def test_nothing_anywhere_says_so(skiers_and_films: GraphStore) -> None:
    a = answer("which skier is from Spain?", skiers_and_films, writer="offline")
    assert a.answer == [] and a.routed_attempt is not None  # the fallback ran
    said = [w for w in a.warnings if "the routed attempt over table1" in w]
    assert said and said[0].endswith(NOTHING)
    assert not any(ANSWERED in w for w in a.warnings)


def test_an_answer_over_all_sources_says_it_answered(skiers_and_films: GraphStore) -> None:
    # the routed table holds no 1982; the fallback finds Tootsie in the other table (kept as
    # a suggestion, as the question was not routed there): that attempt did answer
    a = answer("which skier was born in 1982?", skiers_and_films, writer="offline")
    assert a.answer == [] and a.suggestion is not None
    assert a.suggestion.answer == ["Tootsie"]
    said = [w for w in a.suggestion.warnings if "the routed attempt over table1" in w]
    assert said and said[0].endswith("; " + ANSWERED)
    assert not any(NOTHING in w for w in a.suggestion.warnings)


def test_the_cli_json_says_the_same(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    skiers, films = tmp_path / "skiers.csv", tmp_path / "films.csv"
    skiers.write_bytes(SKIERS)
    films.write_bytes(FILMS)
    ask = ["ask", "--table", str(skiers), "--table", str(films), "--writer", "offline",
           "--question", "which skier is from Spain?"]
    main([*ask, "--json"])  # exit code 1: no answer
    record = json.loads(capsys.readouterr().out)
    warnings = record["warnings"]
    assert any(w.endswith(NOTHING) for w in warnings)
    assert not any(ANSWERED in w for w in warnings)


def test_the_cli_text_prints_the_warnings(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    skiers, films = tmp_path / "skiers.csv", tmp_path / "films.csv"
    skiers.write_bytes(SKIERS)
    films.write_bytes(FILMS)
    main(["ask", "--table", str(skiers), "--table", str(films), "--writer", "offline",
          "--question", "which skier is from Spain?"])  # exit code 1: no answer
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("note: ")]
    assert any(line.endswith(NOTHING) for line in notes)
