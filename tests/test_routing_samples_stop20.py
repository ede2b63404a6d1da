"""Stop 20: several sources loaded as a user loads them (the four bundled samples, and small
files made here), each question answered as over its own source alone."""

from pathlib import Path

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer, default_pool, route_decision
from trustuqa_core.routing import route
from trustuqa_core.store import GraphStore

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"
RACE = b"Rank,Name,Nation\n,Ann Ray,Italy\n,Bea Cole,France\n3,Cid Moss,Italy\n4,Dee Fox,Spain\n"
FILMS = b"Rank,Film,Year\n1,Some Like It Hot,1959\n2,Tootsie,1982\n3,Duck Soup,1933\n"
AWARDS = (b"Ann Ray|award_received|Most Valuable Player Award\n"
          b"Bea Cole|award_received|Best Newcomer\n")


@pytest.fixture(scope="module")
def samples() -> GraphStore:
    """The four bundled samples loaded together (two tables, a KG, a TKG)."""
    return load_graph(tables=[SAMPLES / "giant_slalom.csv", SAMPLES / "comedy_ranking.csv"],
                      kgs=[SAMPLES / "movies_kg.txt"], tkgs=[SAMPLES / "cron_tkg.tsv"])


def test_who_finished_second_with_the_four_samples_as_over_the_race_alone(
        samples: GraphStore) -> None:
    alone = answer("who finished second?", load_graph(tables=[SAMPLES / "giant_slalom.csv"]),
                   writer="offline")
    together = answer("who finished second?", samples, writer="offline")
    assert alone.answer == ["Federica Brignone"]
    assert together.answer == alone.answer
    assert together.trace is not None and together.trace.routing is not None
    assert together.trace.routing.used == ("giant_slalom.csv",)
    assert together.trace.routing.how.startswith("routed by the query to giant_slalom.csv")
    assert any("its written query maps best onto giant_slalom.csv" in w
               for w in together.warnings)


def test_a_query_reading_one_table_s_value_and_another_s_column_is_rerouted() -> None:
    """Made-up files: the race's top two have no rank, so ``Rank = 2`` names a film's row
    while ``Name`` is a racer's column; over both tables the query joins nothing."""
    both = load_graph(tables=[RACE, FILMS])
    assert route("who finished second?", both).unsure
    got = answer("who finished second?", both, writer="offline")
    alone = answer("who finished second?", load_graph(tables=[RACE]), writer="offline")
    assert alone.answer and got.answer == alone.answer
    assert got.trace is not None and got.trace.routing is not None
    assert got.trace.routing.used == ("table1",)
    assert any("its written query maps best onto table1" in w for w in got.warnings)


def test_a_failed_fallback_query_is_rerouted_too_and_shown_as_a_suggestion(
        samples: GraphStore) -> None:
    """*who came third?* names nothing of any sample: the KG demonstrations route it to the
    KG and TKG, where nothing is found; the fallback's query, routed by its arguments, is
    answered over the race, which the question was not routed to: a suggestion."""
    got = answer("who came third?", samples, writer="offline")
    assert got.routing is not None and "giant_slalom.csv" not in got.routing.sources
    assert got.answer == []
    assert got.verdict is not None and "unrouted_source" in {r.code for r in got.verdict.reasons}
    assert got.suggestion is not None and got.suggestion.answer == ["Tessa Worley"]


def test_most_in_a_node_label_is_not_evidence_for_a_most_question(samples: GraphStore) -> None:
    decision = route_decision("which country had the most skiers?", samples, default_pool())
    assert "cron_tkg.tsv" not in decision.sources
    assert not any("'most'" in line for lines in decision.evidence.values() for line in lines)
    got = answer("which country had the most skiers?", samples, writer="offline")
    assert got.answer == ["France"]
    assert got.trace is not None and got.trace.routing is not None
    assert got.trace.routing.used == ("giant_slalom.csv",)


def test_superlative_words_of_a_kg_label_do_not_route_made_up_files() -> None:
    graph = load_graph(tables=[RACE], kgs=[AWARDS])
    decision = route("which nation has the most racers?", graph)
    assert decision.sources == ("table1",) or "kg1" not in decision.sources
    assert not any("'most'" in line for lines in decision.evidence.values() for line in lines)
    # the award's own name still routes to the KG: it is a span of the question
    named = route("who received the most valuable player award?", graph)
    assert named.sources == ("kg1",)


def test_a_season_that_is_a_whole_column_name_routes_to_its_table() -> None:
    """*2008/09* is a column of the crops table and a cell of two others: as a column it named
    nothing of its table (relation words are letters), so the cells won."""
    crops = b"Crop,2007/08,2008/09\nWheat,1200,1350\nRice,800,760\n"
    clubs = b"Season,Club,Points\n2008/09,Reds,71\n2009/10,Reds,64\n"
    league = b"Season,Champion\n2008/09,Blues\n2010/11,Greens\n"
    graph = load_graph(tables=[clubs, crops, league])
    decision = route("what is the value for rice in 2008/09?", graph)
    assert decision.sources == ("table2",)
    assert "'2008 09' is the name of a column of table2" in decision.evidence["table2"]
    assert answer("what is the value for rice in 2008/09?", graph,
                  writer="offline").answer == ["760"]
