"""Execution semantics: bags, sets, rows, time, fallbacks, traces."""

from __future__ import annotations

import pytest

from trustuqa_core import FallbackAnswer, build_graph, load_source, run_query
from trustuqa_core.mapping import Mapper

SCORES = b"""Player,Team,Score,Time
Ann,Reds,10,1:50.10
Bob,Reds,10,1:48.64
Cid,Blues,"1,000",2:01.00
Dee,Blues,7,1:49.00
"""
TKG = b"""Ann Smith\tmember of sports team\tReds FC\t1990\t1994
Ann Smith\tmember of sports team\tBlues FC\t1995\t1999
Ann Smith\tmember of sports team\tGreens FC\t2001\t2003
Bob Jones\tmember of sports team\tBlues FC\t1996\t1997
Cy Young\tposition held\tmayor\t1000\t2000
"""


def q(*lines: str, target: str | None = None) -> str:
    head = [f"## Target type: {{{target}}}"] if target else []
    return "\n".join(head + [f'Query{i}: "{line}"' for i, line in enumerate(lines, 1)])


@pytest.fixture(scope="module")
def scores():
    g = build_graph([load_source(SCORES, "table", "scores.csv")])
    return g, Mapper(g)


@pytest.fixture(scope="module")
def tkg():
    g = build_graph([load_source(TKG, "tkg", "tkg.tsv")])
    return g, Mapper(g)


def run(env, text, **kw):
    g, m = env
    return run_query(text, g, m, **kw)


def test_sum_and_mean_work_on_bags(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Team', tail_entity='Reds')",
            "get_information(relation='Score', head_entity='output_of_query1')",
            "sum(set='output_of_query2')",
        ),
    )
    assert t.answer == ["20"]
    assert len(t.steps[1].output) == 2  # two elements worth 10, not one
    t = run(
        scores,
        q(
            "get_information(relation='Team', tail_entity='Reds')",
            "get_information(relation='Score', head_entity='output_of_query1')",
            "mean(set='output_of_query2')",
        ),
    )
    assert t.answer == ["10"]


def test_count_counts_rows_and_distinct_values_and_zero_is_an_answer(scores) -> None:
    t = run(
        scores,
        q("get_information(relation='Team', tail_entity='Reds')", "count(set='output_of_query1')"),
    )
    assert t.answer == ["2"]
    t = run(scores, q("get_information(relation='Team')", "count(set='output_of_query1')"))
    assert t.answer == ["2"]  # Reds, Blues
    t = run(
        scores,
        q("get_information(relation='Score', tail_entity>'5000')", "count(set='output_of_query1')"),
    )
    assert t.ok and t.answer == ["0"]


def test_max_returns_the_element_with_its_original_text(scores) -> None:
    t = run(scores, q("get_information(relation='Score')", "max(set='output_of_query1')"))
    assert t.answer == ["1,000"]
    t = run(
        scores,
        q(
            "get_information(relation='Score')",
            "min(set='output_of_query1')",
            "get_information(relation='Score', tail_entity='output_of_query2')",
            "get_information(relation='Player', head_entity='output_of_query3')",
        ),
    )
    assert t.answer == ["Dee"]


def test_durations_are_compared_with_a_note(scores) -> None:
    t = run(scores, q("get_information(relation='Time')", "min(set='output_of_query1')"))
    assert t.answer == ["1:48.64"]
    assert any("duration" in n for n in t.steps[1].notes)
    t = run(
        scores,
        q(
            "get_information(relation='Time', tail_entity<'1:50.00')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    assert t.answer == ["Bob", "Dee"]


def test_numeric_equality_and_comparisons(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Score', tail_entity='1000')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    assert t.answer == ["Cid"]  # '1000' matches the cell '1,000'
    t = run(
        scores,
        q(
            "get_information(relation='Score', tail_entity>='10')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    assert t.answer == ["Ann", "Bob", "Cid"]
    t = run(
        scores,
        q(
            "get_information(relation='Team', tail_entity!='Reds')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    assert t.answer == ["Cid", "Dee"]


def test_most_least_and_superlatives(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Score', tail_entity>='most')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    assert t.answer == ["Ann", "Bob"]  # 10 occurs twice
    t = run(
        scores,
        q(
            "get_information(relation='Score', tail_entity>='highest')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    assert t.answer == ["Cid"]


def test_set_operations(scores) -> None:
    reds = "get_information(relation='Team', tail_entity='Reds')"
    ten = "get_information(relation='Score', tail_entity='10')"
    names = "get_information(relation='Player', head_entity='output_of_query3')"
    assert run(
        scores,
        q(reds, ten, "set_intersection(set1='output_of_query1', set2='output_of_query2')", names),
    ).answer == ["Ann", "Bob"]
    assert run(
        scores,
        q(
            reds,
            "get_information(relation='Player', tail_entity='Dee')",
            "set_union(set1='output_of_query1', set2='output_of_query2')",
            names,
        ),
    ).answer == ["Ann", "Bob", "Dee"]
    assert run(
        scores,
        q(
            reds,
            "set_negation(set='output_of_query1')",
            "get_information(relation='Player', head_entity='output_of_query2')",
        ),
    ).answer == ["Cid", "Dee"]
    t = run(
        scores,
        q(
            "get_information(relation='Player')",
            "set_difference(set1='output_of_query1', set2='Ann')",
        ),
    )
    assert t.answer == ["Bob", "Cid", "Dee"]


def test_previous_and_next_row_with_bounds(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Player', tail_entity='Bob')",
            "previous_row(set='output_of_query1')",
            "get_information(relation='Player', head_entity='output_of_query2')",
        ),
    )
    assert t.answer == ["Ann"]
    t = run(
        scores,
        q(
            "get_information(relation='Player', tail_entity='Ann')",
            "previous_row(set='output_of_query1')",
        ),
    )
    assert t.answer == [] and t.empty_step == 2
    assert any("first row" in n for n in t.steps[1].notes)
    # row_number arithmetic, the TrustUQA style
    t = run(
        scores,
        q(
            "get_information(relation='Player', tail_entity='Cid')",
            "get_information(relation='row_number', head_entity='output_of_query1')",
            "next_row(set='output_of_query2')",
            "get_information(relation='row_number', tail_entity='output_of_query3')",
            "get_information(relation='Player', head_entity='output_of_query4')",
        ),
    )
    assert t.answer == ["Dee"]


def test_target_type_projects_final_rows(scores) -> None:
    t = run(scores, q("get_information(relation='Team', tail_entity='Blues')", target="player"))
    assert t.answer == ["Cid", "Dee"]
    assert t.target_step is not None and t.target.labels == ("Player",)
    t = run(scores, q("get_information(relation='Team', tail_entity='Blues')"))
    assert t.answer == ["scores.csv row 3", "scores.csv row 4"]


def test_max_over_rows_compares_by_target_type(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Team', tail_entity='Reds')",
            "max(set='output_of_query1')",
            target="Time",
        ),
    )
    assert t.answer == ["1:50.10"]


def test_value_given_as_head_uses_the_rows_that_hold_it(scores) -> None:
    t = run(scores, q("get_information(relation='Score', head_entity='Dee')"))
    assert t.answer == ["7"]
    assert any("not a subject" in n for n in t.steps[0].notes)


def test_rows_given_as_tail_are_read_as_rows(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='row_number', tail_entity='1')",
            "get_information(relation='Team', tail_entity='output_of_query1')",
        ),
    )
    assert t.answer == ["Reds"]
    assert any("holds rows" in n for n in t.steps[1].notes)


def test_empty_step_is_named(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Team', tail_entity='Reds')",
            "get_information(relation='Score', tail_entity>'100')",
            "set_intersection(set1='output_of_query1', set2='output_of_query2')",
        ),
    )
    assert t.answer == [] and t.empty_step == 3
    t = run(
        scores,
        q(
            "get_information(relation='Score', tail_entity>'5000')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    assert t.empty_step == 1 and "Query1" in t.explain_empty()


def test_undefined_function_without_and_with_fallback(scores) -> None:
    text = q(
        "get_information(relation='Team', tail_entity='Reds')",
        "get_information(relation='Player', head_entity='output_of_query1')",
        "pick_first(set='output_of_query2')",
    )
    t = run(scores, text)
    assert not t.ok and t.steps[-1].status == "unanswered"
    assert "pick_first" in t.error.message and "does not define" in t.error.message
    seen = []

    def fallback(req):
        seen.append(req)
        return FallbackAnswer([req.inputs["set"][0]], "LLM-inferred (fake), not verified")

    t = run(scores, text, fallback=fallback)
    assert t.answer == ["Ann"] and t.inferred and t.steps[-1].status == "inferred"
    assert seen[0].kind == "function" and seen[0].inputs["set"] == ["Ann", "Bob"]


def test_step_after_unanswered_step_says_why(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Score')",
            "parse_scores(set='output_of_query1')",
            "max(set='output_of_query2')",
        ),
    )
    assert not t.ok and t.error.step == 3 and "Query2" in t.error.message


def test_non_numeric_comparison_needs_the_fallback(scores) -> None:
    text = q("get_information(relation='Team', tail_entity>'Purples')")
    t = run(scores, text)
    assert not t.ok and "not a number" in t.error.message

    def fallback(req):
        assert (
            req.kind == "compare"
            and req.operator == ">"
            and set(req.candidates) == {"Reds", "Blues"}
        )
        return FallbackAnswer(["Reds"], "LLM-inferred")

    t = run(scores, text, fallback=fallback)
    # the fallback says only 'Reds' is "> Purples": the Reds rows are Ann's (row 1) and Bob's (row 2)
    assert t.answer == ["scores.csv row 1", "scores.csv row 2"] and t.inferred
    assert t.steps[0].status == "inferred"
    two_steps = q(
        "get_information(relation='Team', tail_entity>'Purples')",
        "get_information(relation='Player', head_entity='output_of_query1')",
    )
    t = run(scores, two_steps, fallback=fallback)
    assert t.answer == ["Ann", "Bob"] and t.inferred


def test_answer_provenance_reaches_source_rows(scores) -> None:
    t = run(
        scores,
        q(
            "get_information(relation='Team', tail_entity='Blues')",
            "get_information(relation='Player', head_entity='output_of_query1')",
        ),
    )
    prov = {p["answer"]: p["evidence"] for p in t.answer_provenance()}
    cid = {(e["relation"], e["tail"], e["source"], e["number"]) for e in prov["Cid"]}
    assert ("Team", "Blues", "scores.csv", 3) in cid and ("Player", "Cid", "scores.csv", 3) in cid


def test_time_of_a_fact_and_who_at_a_time(tkg) -> None:
    t = run(
        tkg,
        q(
            "get_information(head_entity='Ann Smith', relation='member of sports team', "
            "tail_entity='Blues FC', key='time')"
        ),
    )
    assert t.answer == ["1995–1999"]
    t = run(
        tkg,
        q(
            "get_information(relation='member of sports team', tail_entity='Blues FC', key='time', "
            "value='1996')"
        ),
    )
    assert t.answer == ["Ann Smith", "Bob Jones"]
    t = run(
        tkg,
        q(
            "get_information(head_entity='Ann Smith', relation='member of sports team', key='time', "
            "value='1992')"
        ),
    )
    assert t.answer == ["Reds FC"]


def test_before_after_flow_with_keep_and_intervals(tkg) -> None:
    # "Which team did Ann Smith play for before Greens FC?" (the paper's CronQuestions style)
    t = run(
        tkg,
        q(
            "get_information(head_entity='Ann Smith', relation='member of sports team', tail_entity='Greens FC', key='time')",
            "min(set='output_of_query1')",
            "get_information(head_entity='Ann Smith', relation='member of sports team', key='time')",
            "keep(set='output_of_query3', value<'output_of_query2')",
            "max(set='output_of_query4')",
            "get_information(head_entity='Ann Smith', relation='member of sports team', key='time', "
            "value='output_of_query5')",
        ),
    )
    assert t.answer == ["Blues FC"]
    assert t.steps[1].output.elems[0].text == "2001" and t.steps[4].output.elems[0].text == "1999"


def test_long_interval_is_not_expanded(tkg) -> None:
    t = run(
        tkg,
        q(
            "get_information(head_entity='Cy Young', relation='position held', key='time')",
            "keep(set='output_of_query1', value>'1990')",
        ),
    )
    assert t.answer == ["1991–2000"]


def test_cross_source_table_to_kg_to_tkg() -> None:
    table = load_source(b"Club,Founder\nReds FC,Ann Smith\n", "table", "clubs.csv")
    kg = load_source(b"Ann Smith|born_in|Leeds\n", "kg", "kg.txt")
    tk = load_source(TKG, "tkg", "tkg.tsv")
    g = build_graph([table, kg, tk])
    t = run_query(
        q(
            "get_information(relation='Club', tail_entity='Reds FC')",
            "get_information(relation='Founder', head_entity='output_of_query1')",
            "get_information(head_entity='output_of_query2', relation='member of sports team', "
            "tail_entity='Greens FC', key='start_time')",
        ),
        g,
        Mapper(g),
    )
    assert t.answer == ["2001"]
    sources = {e["source"] for s in t.to_dict()["steps"] for e in s["evidence"]}
    assert sources == {"clubs.csv", "tkg.tsv"}


def test_time_answers_keep_provenance_through_earlier_steps() -> None:
    table = load_source(b"Club,Founder\nReds FC,Ann Smith\n", "table", "clubs.csv")
    g = build_graph([table, load_source(TKG, "tkg", "tkg.tsv")])
    t = run_query(q("get_information(relation='Club', tail_entity='Reds FC')",
                    "get_information(relation='Founder', head_entity='output_of_query1')",
                    "get_information(head_entity='output_of_query2', relation='member of sports team', "
                    "tail_entity='Greens FC', key='start_time')"), g, Mapper(g))
    (prov,) = t.answer_provenance()
    assert [(e["source"], e["relation"]) for e in prov["evidence"]] == [
        ("clubs.csv", "Club"), ("clubs.csv", "Founder"), ("tkg.tsv", "member of sports team")]


def test_a_comparison_witnesses_each_head_by_its_own_fact() -> None:
    """Heads selected by ``>`` keep the fact that holds their own value (the numeric index
    returns facts in value order; the heads and the facts must stay paired)."""
    from trustuqa_core.sources import SourceFacts

    g = build_graph([SourceFacts("kg", "kg", ["A", "B", "C"], ["y", "y", "y"],
                                 ["1995", "2001", "1984"], [1, 2, 3])])
    out = run_query("Query1: \"get_information(relation='y', tail_entity>'1980')\"", g)
    step = out.steps[0].output
    assert [g.label(e) for e in step.elems] == ["A", "B", "C"]  # in fact order
    assert [[g.fact_text(f)[0] for f in w] for w in step.witnesses] == [["A"], ["B"], ["C"]]


POPULATIONS = b"""Sum,Population (2005),Population (2009)
Alpha,100,130
Beta,200,190
"""


def test_a_tied_target_type_reads_the_column_the_query_looked_up() -> None:
    g = build_graph([load_source(POPULATIONS, "table", "pop.csv")])
    text = q(
        "get_information(relation='Population (2009)')",
        "max(set='output_of_query1')",
        "get_information(relation='Population (2009)', tail_entity='output_of_query2')",
        target="population",
    )
    t = run_query(text, g, Mapper(g))
    assert t.answer == ["190"]  # Beta's 2009 value, not its 2005 value 200
    assert t.target_step is not None
    assert any("ties between" in n for n in t.target_step.notes)


REPEATED = b"""Week,Song,Performer,Album,Performer
1,Timber,Pitbull,True,Avicii
2,I See Fire,Ed Sheeran,High Hopes,Bruce Springsteen
3,I See Fire,Ed Sheeran,High Hopes,Bruce Springsteen
4,Happy,Pharrell,True,Avicii
"""


def test_a_value_missing_from_a_repeated_header_is_looked_up_in_its_repeats() -> None:
    g = build_graph([load_source(REPEATED, "table", "chart.csv")])
    m = Mapper(g)
    t = run_query(q("get_information(relation='Performer', tail_entity='Bruce Springsteen')",
                    "count(set='output_of_query1')"), g, m)
    assert t.answer == ["2"]
    assert any("repeats that header" in n for n in t.steps[0].notes)
    # a value the first column holds is read there only
    t = run_query(q("get_information(relation='Performer', tail_entity='Ed Sheeran')",
                    "get_information(relation='Week', head_entity='output_of_query1')"), g, m)
    assert t.answer == ["2", "3"]
    assert not any("repeats" in n for n in t.steps[0].notes)


SEASONS = b"""Season,Place
2002-03,3
2003-04,1
2004-05,2
"""


def test_a_literal_matched_to_a_row_number_is_named_by_its_own_text() -> None:
    g = build_graph([load_source(SEASONS, "table", "seasons.csv")])
    t = run_query(q("get_information(relation='row_number', tail_entity='2002-03')",
                    "get_information(relation='row_number', tail_entity='2003-04')",
                    "compare(output_of_query1, output_of_query2)"),
                  g, Mapper(g), question="was the team listed first in 2002-03 or 2003-04?")
    assert t.answer and t.answer[0] in ("2002-03", "2003-04")


PLACES = b"""Year,Position
1996,15th (q)
1997,1st
1999,6th
2001,3rd
2002,3rd
"""


def test_an_ordinal_word_matched_to_another_place_is_read_as_its_own_place() -> None:
    g = build_graph([load_source(PLACES, "table", "places.csv")])
    t = run_query(q("get_information(relation='Position', tail_entity='third')",
                    "get_information(relation='Year', head_entity='output_of_query1')"),
                  g, Mapper(g))
    assert t.answer == ["2001", "2002"]


WINS = b"""Pos,Team,Played,Won,Points,Notes
1,FH,18,14,44,Promoted
2,Fylkir,18,9,33,Promoted
3,Selfoss,18,8,30,
"""


def test_a_target_type_matched_loosely_to_row_number_reads_the_column_the_query_names() -> None:
    g = build_graph([load_source(WINS, "table", "wins.csv")])
    text = q("get_information(relation='Won')", "max(set='output_of_query1')",
             "get_information(relation='Won', tail_entity='output_of_query2')",
             target="number of wins")
    t = run_query(text, g, Mapper(g))
    assert t.answer == ["14"]


WINNERS = b"""Year,Winner,Runner-Up
1992,Budivelnyk,Kyiv
1993,Budivelnyk,Azovmash
1994,Kyiv,Budivelnyk
1995,Budivelnyk,Kyiv
"""


def test_rows_of_the_most_frequent_value_are_read_by_that_column_under_a_loose_target() -> None:
    g = build_graph([load_source(WINNERS, "table", "winners.csv")])
    text = q("get_information(relation='Winner', tail_entity>='most')", target="team")
    t = run_query(text, g, Mapper(g))
    assert t.answer == ["Budivelnyk"]
    # an exact target type is kept
    t = run_query(q("get_information(relation='Winner', tail_entity>='most')", target="Year"),
                  g, Mapper(g))
    assert t.answer == ["1992", "1993", "1995"]


TOURS = b"""Date,Tournament,Location
Mar 3,Doral,Florida
Mar 10,Honda,Florida
Mar 17,Bay Hill,Florida
Apr 7,Masters,Georgia
May 5,Byron Nelson,Texas
"""


def test_rows_of_the_largest_group_are_read_by_the_grouped_column_under_a_loose_target() -> None:
    g = build_graph([load_source(TOURS, "table", "tours.csv")])
    text = q("get_information(relation='Tournament')",
             "group_by(set='output_of_query1', key='Location', function='count')",
             "max(set='output_of_query2')",
             "get_information(relation='Location', tail_entity='output_of_query3')",
             target="state")
    t = run_query(text, g, Mapper(g))
    assert t.answer == ["Florida"]
