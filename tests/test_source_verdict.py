"""An answer is judged against every source it was asked over, on every path (issues 11 item 4,
13 items 4-5): ``answer()`` and the app's re-runs (a mapping override, its undo, an edited
query, an exported run) give the same source reasons; a question naming something that is
not in the source its relation word belongs to says so first.

Data: the staff table, books KG and politics TKG of ``tests/test_routing.py`` ("who wrote
Chen Wei?" is answered 'Marketing' from the staff table while *wrote* names the books KG's
``written_by``), and the bundled samples (*cross*: comedy ranking + movie KG + TKG;
*movies*: the movie KG alone). Offline writer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import office_files, office_graph_of
from test_routing import BOOKS, POLITICS, STAFF

from trustuqa_core import load_graph, run_query
from trustuqa_core.app_services.ask import ask
from trustuqa_core.app_services.data import load_all, sample_uploads
from trustuqa_core.app_services.run_tables import run_verdict
from trustuqa_core.app_services.runs import execute_text, imported_run, record_of, rerun
from trustuqa_core.app_services.samples import sample_sets
from trustuqa_core.cli import main
from trustuqa_core.source_verdict import source_reasons
from trustuqa_core.store import GraphStore

OFFICE = {"staff.csv", "books.txt", "politics.tsv"}
#: reasons of the vote, which a re-run of one query has no vote to give
VOTE = {"single_query", "vote_tie", "low_agreement"}


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> GraphStore:
    return office_graph_of(office_files(tmp_path_factory.mktemp("sv"), STAFF, BOOKS, POLITICS))


def _sample(sample: str) -> GraphStore:
    chosen = next(s for s in sample_sets() if s.id == sample)
    return load_all(sample_uploads(chosen)).graph


@pytest.fixture(scope="module")
def cross() -> GraphStore:
    return _sample("cross")


def _codes(run_codes: list[str]) -> list[str]:
    return [c for c in run_codes if c not in VOTE]


def test_every_re_run_judges_the_sources_as_the_first_answer_did(office: GraphStore) -> None:
    first, _ = ask("who wrote Chen Wei?", office, None, loaded=OFFICE, writer="offline")
    assert first is not None and first.answer == ["Marketing"]
    asked = run_verdict(first)
    assert "word_of_other_source" in asked.codes and asked.label == "check"
    key = next(m.key for m in first.trace.mapped.mappings if m.text == "Chen Wei")
    override = rerun(first, office, None, overrides={key: "Chen Wei"})
    undone = rerun(override, office, None, overrides={})
    edited = rerun(first, office, None, query=first.query)
    imported = imported_run(record_of(first, []), [], office, None)
    for again in (override, undone, edited, imported):
        v = run_verdict(again)
        assert again.answer == ["Marketing"]
        assert (v.label, _codes(v.codes)) == (asked.label, _codes(asked.codes))
        assert v.reasons[0] == asked.reasons[0]


def test_a_run_over_sources_the_user_chose_is_judged_over_those_only(office: GraphStore) -> None:
    chosen, _ = ask("who wrote Chen Wei?", office, None, loaded=OFFICE, writer="offline",
                    sources=["staff.csv"])
    again = rerun(chosen, office, None, overrides={})
    for run in (chosen, again):
        assert run.sources == ("staff.csv",) and run.answer == ["Marketing"]
        assert "word_of_other_source" not in run_verdict(run).codes


def test_a_film_the_movie_kg_lacks_is_said_first_over_the_cross_sample(cross: GraphStore) -> None:
    run, _ = ask("who acted in Tootsie?", cross, None, loaded={s.name for s in cross.sources},
                 writer="offline")
    assert run is not None
    v = run_verdict(run)
    assert v.label == "check"
    assert (v.reasons[0].code, v.reasons[0].message) == (
        "mention_elsewhere", "'Tootsie' is not in movies_kg.txt, the source 'acted' points to; "
        "comedy_ranking.csv holds it but has no column for 'acted'")
    assert v.blocking[0] == "mention_elsewhere"


def test_a_film_the_table_holds_with_its_own_column_is_not_flagged(cross: GraphStore) -> None:
    run, _ = ask("when was Duck Soup released?", cross, None,
                 loaded={s.name for s in cross.sources}, writer="offline")
    assert run is not None and run.answer == ["1933"]
    assert "mention_elsewhere" not in run_verdict(run).codes


def test_a_film_no_source_holds_read_as_a_loose_match_says_so_first() -> None:
    movies = _sample("movies")
    run = execute_text("Query1: \"get_information(relation='release_year', "
                       "head_entity='Duck Soup')\"", movies, None, origin="hand-written",
                       question="when was Duck Soup released?")
    v = run_verdict(run)
    assert run.answer and v.label == "check"
    first = v.reasons[0]
    assert first.code == "unlinked_mention"
    assert first.message.startswith("'Duck Soup' is not in movies_kg.txt: the query read ")
    assert "weak_mapping" in v.codes


def test_a_loose_match_held_by_another_source_names_it(cross: GraphStore) -> None:
    routed = execute_text("Query1: \"get_information(relation='release_year', "
                          "head_entity='Duck Sop')\"", cross, None, origin="hand-written",
                          question="when was Duck Sop released?")
    v = run_verdict(routed)
    assert "mention_elsewhere" not in v.codes  # 'Duck Sop' is in no source: nothing to name
    run = execute_text("Query1: \"get_information(relation='release_year', "
                       "head_entity='Tootsie')\"", _sample("movies"), None,
                       origin="hand-written", question="when was Tootsie released?")
    assert run_verdict(run).reasons[0].message.startswith("'Tootsie' is not in movies_kg.txt")


def test_a_named_value_the_answer_source_holds_adds_nothing() -> None:
    g = load_graph(tables=[b"Rank,Film\n1,Tootsie\n2,Duck Soup\n"],
                   kgs=[b"Tootsie|starred_actors|Dustin Hoffman\n"])
    t = run_query("Query1: \"get_information(relation='starred_actors', "
                  "head_entity='Tootsie')\"", g, question="who acted in Tootsie?")
    assert t.answer == ["Dustin Hoffman"]
    assert source_reasons(t.verdict, t, g) == t.verdict


def test_no_answer_is_left_as_it_is() -> None:
    g = load_graph(tables=[b"Rank,Film\n1,Tootsie\n"], kgs=[b"Dune|starred_actors|Ann\n"])
    t = run_query("Query1: \"get_information(relation='Film', tail_entity='Heat')\"", g,
                  question="who acted in Heat?")
    assert not t.answer
    assert source_reasons(t.verdict, t, g) is t.verdict


def test_the_cli_query_judges_against_every_loaded_source(capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    sample = Path(__file__).resolve().parents[1] / "sample_data"
    code = main(["query", "--table", str(sample / "comedy_ranking.csv"),
                 "--kg", str(sample / "movies_kg.txt"), "--question", "who acted in Tootsie?",
                 "--query", "Query1: \"get_information(relation='Film', tail_entity='Tootsie')\""
                 "\nQuery2: \"get_information(relation='Rank', head_entity='output_of_query1')\""])
    out = capsys.readouterr().out
    assert code == 0
    reasons = [line for line in out.splitlines() if line.startswith("  - ")]
    assert reasons[0].startswith("  - mention_elsewhere")
    assert "'Tootsie' is not in movies_kg.txt" in reasons[0]
    assert any(line.startswith("  - word_of_other_source") for line in reasons)
