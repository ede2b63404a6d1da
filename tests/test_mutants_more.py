"""Value-checking tests written against mutants that mutmut found alive in the core (issue #17).

docs/TESTING.md lists the mutants these kill. Every expected value below was worked out by hand
from the small tables and facts written here; the comments give the reasoning.
"""

from __future__ import annotations

import pytest

from trustuqa_core import FallbackAnswer, build_graph, load_source, run_query
from trustuqa_core.mapping import Mapper

SCORES = b"""Player,Team,Score
Ann,Reds,10
Bob,Reds,10
Cid,Blues,"1,000"
Dee,Blues,7
"""
RACES = b"""Name,Venue,Time,Points
Ann,Oslo,1:50.00,10
Bob,Oslo,1:49.00,20
Cid,Bergen,DNF,5
Dee,Lahti,2:01.00,1:00
"""
CLUBS = b"""Club,City
Reds,Oslo
Blues,Lahti
"""
TKG = b"""Ann Smith\tmember of sports team\tReds FC\t1990\t1994
Ann Smith\tmember of sports team\tBlues FC\t1995\t1999
Ann Smith\tmember of sports team\tGreens FC\t2001\t2003
Bob Jones\tmember of sports team\tBlues FC\t1996\t1997
"""


def q(*lines: str) -> str:
    return "\n".join(f'Query{i}: "{line}"' for i, line in enumerate(lines, 1))


def _env(*sources: tuple[bytes, str, str]):
    g = build_graph([load_source(data, kind, name) for data, kind, name in sources])
    return g, Mapper(g)


@pytest.fixture(scope="module")
def scores():
    return _env((SCORES, "table", "scores.csv"))


@pytest.fixture(scope="module")
def races():
    return _env((RACES, "table", "races.csv"), (CLUBS, "table", "clubs.csv"))


@pytest.fixture(scope="module")
def tkg():
    return _env((TKG, "tkg", "tkg.tsv"))


def run(env, *lines: str, **kw):
    g, m = env
    return run_query(q(*lines), g, m, **kw)


# --- keep(): a set of comparison values, and its error messages -----------------------------
BLUES_SCORES = (
    "get_information(relation='Team', tail_entity='Blues')",
    "get_information(relation='Score', head_entity='output_of_query1')",
    "get_information(relation='Score')",
)


def test_keep_greater_than_a_set_compares_with_its_smallest_value(scores) -> None:
    # Blues scores are {1000, 7}; "> some Blues score" means > 7: of 10, 10, 1000, 7 that keeps
    # 10, 10 and 1000 (shown once each: '10', '1,000').
    t = run(scores, *BLUES_SCORES, "keep(set='output_of_query3', value>'output_of_query2')")
    assert t.answer == ["10", "1,000"]
    assert len(t.steps[3].output) == 3  # a bag: both 10s stay


def test_keep_less_than_a_set_compares_with_its_largest_value(scores) -> None:
    # "< some Blues score" means < 1000: 10, 10 and 7 stay, 1000 goes.
    t = run(scores, *BLUES_SCORES, "keep(set='output_of_query3', value<'output_of_query2')")
    assert t.answer == ["10", "7"]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("keep(set='output_of_query1', value='10')", "keep() needs value with one of > < >= <="),
        ("keep(set='output_of_query1', value>'ten')", "keep(): 'ten' is not a number"),
        (
            "keep(set='output_of_query1', value>'output_of_query2')",
            "keep(): the comparison value is not a number",
        ),
    ],
)
def test_keep_errors_name_the_problem(scores, call: str, message: str) -> None:
    # Query2 is the Team column (Reds, Blues): no number to compare with
    t = run(
        scores,
        "get_information(relation='Score')",
        "get_information(relation='Team')",
        call,
    )
    assert not t.ok and t.error.message == message and t.error.step == 3


# --- aggregates: empty sets and values that are not numbers --------------------------------
@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("mean(set='output_of_query1')", "mean() of an empty set"),
        ("max(set='output_of_query1')", "max() of an empty set"),
        ("min(set='output_of_query1')", "min() of an empty set"),
    ],
)
def test_aggregates_of_an_empty_set_fail_with_their_name(scores, call: str, message: str) -> None:
    # no score is above 5000 (the largest is 1,000), so Query1 is empty
    t = run(scores, "get_information(relation='Score', tail_entity>'5000')", call)
    assert not t.ok and t.error.message == message


def test_sum_of_an_empty_set_is_zero(scores) -> None:
    t = run(scores, "get_information(relation='Score', tail_entity>'5000')", "sum(set='output_of_query1')")
    assert t.ok and t.answer == ["0"]


@pytest.mark.parametrize("func", ["sum", "mean", "max()"])
def test_aggregate_over_words_names_itself_and_the_values(scores, func: str) -> None:
    # the Team column of the four rows is Reds, Reds, Blues, Blues: no number anywhere
    t = run(scores, "get_information(relation='Team')", f"{func.rstrip('()')}(set='output_of_query1')")
    assert not t.ok
    assert t.error.message == (
        f"{func} needs numbers, and these values do not read as numbers ('Reds', 'Reds', 'Blues')"
    )


def test_set_intersection_of_one_set_is_an_error(scores) -> None:
    t = run(scores, "get_information(relation='Team')", "set_intersection(set1='output_of_query1')")
    assert not t.ok and t.error.message == "set_intersection() needs at least two sets"


# --- max/min and the LLM fallback -----------------------------------------------------------
def test_max_over_words_asks_the_fallback_only_when_nothing_reads_as_a_number(scores) -> None:
    asked = []

    def fallback(req):
        asked.append(req)
        return FallbackAnswer(["Reds"], "LLM-inferred")

    # all Team values are words: the fallback picks the "max" among Reds and Blues
    t = run(scores, "get_information(relation='Team')", "max(set='output_of_query1')",
            fallback=fallback)
    assert t.answer == ["Reds"] and t.inferred
    assert [(r.kind, r.operator, r.candidates) for r in asked] == [
        ("extremum", "max", ["Reds", "Blues"])
    ]


def test_max_over_mixed_values_uses_the_numbers_and_not_the_fallback(scores) -> None:
    # players (4 words) and scores (10, 10, 1000, 7): the numbers decide, max is 1,000; the
    # four names are left out with a note, and the fallback is never asked
    def fallback(req):
        raise AssertionError("the fallback must not be asked when some values are numbers")

    t = run(
        scores,
        "get_information(relation='Player')",
        "get_information(relation='Score')",
        "set_union(set1='output_of_query1', set2='output_of_query2')",
        "max(set='output_of_query3')",
        fallback=fallback,
    )
    assert t.answer == ["1,000"] and not t.inferred
    assert t.steps[3].notes == [
        "4 value(s) that do not read as numbers were left out of max(): 'Ann', 'Bob', 'Cid'"
    ]


# --- set_negation: the complement within the set's own source ------------------------------
def test_negation_stays_within_the_source_of_the_set(races) -> None:
    # Oslo rows are Ann's and Bob's in races.csv; their complement there is Cid's and Dee's
    # rows. The clubs.csv rows are another source and must not appear.
    t = run(
        races,
        "get_information(relation='Venue', tail_entity='Oslo')",
        "set_negation(set='output_of_query1')",
    )
    assert t.answer == ["races.csv row 3", "races.csv row 4"]


def test_negation_of_an_empty_set_is_every_row_of_every_source(races) -> None:
    # no row has more than 100 points, so the complement is all rows of both tables
    t = run(
        races,
        "get_information(relation='Points', tail_entity>'100')",
        "set_negation(set='output_of_query1')",
    )
    assert t.steps[0].output.elems == ()
    assert sorted(t.answer) == [
        "clubs.csv row 1", "clubs.csv row 2",
        "races.csv row 1", "races.csv row 2", "races.csv row 3", "races.csv row 4",
    ]


# --- most / least frequent, largest / smallest ---------------------------------------------
def test_most_and_least_frequent_values(races) -> None:
    # Venue: Oslo twice (Ann, Bob); Bergen and Lahti once each (Cid, Dee)
    most = run(races, "get_information(relation='Venue', tail_entity='most')",
               "get_information(relation='Name', head_entity='output_of_query1')")
    assert most.answer == ["Ann", "Bob"]
    assert most.steps[0].notes == ["most frequent value(s) of 'Venue': 'Oslo' (2 times)"]
    least = run(races, "get_information(relation='Venue', tail_entity='least')",
                "get_information(relation='Name', head_entity='output_of_query1')")
    assert least.answer == ["Cid", "Dee"]
    assert least.steps[0].notes == [
        "least frequent value(s) of 'Venue': 'Bergen', 'Lahti' (1 times)"
    ]


def test_superlative_uses_plain_numbers_when_most_values_are_numbers(races) -> None:
    # Points: 10, 20, 5 and '1:00'. Three of four are plain numbers, so only they compete:
    # highest 20 (Bob), lowest 5 (Cid). Read as a duration, '1:00' (60 s) would wrongly win.
    hi = run(races, "get_information(relation='Points', tail_entity>='highest')",
             "get_information(relation='Name', head_entity='output_of_query1')")
    assert hi.answer == ["Bob"] and hi.steps[0].notes == ["the max of 'Points' is '20'"]
    lo = run(races, "get_information(relation='Points', tail_entity<='lowest')",
             "get_information(relation='Name', head_entity='output_of_query1')")
    assert lo.answer == ["Cid"] and lo.steps[0].notes == ["the min of 'Points' is '5'"]


def test_superlative_over_durations_says_how_it_read_them(races) -> None:
    # Time: 1:50.00, 1:49.00, DNF, 2:01.00 -> the longest is 2:01.00 (Dee)
    t = run(races, "get_information(relation='Time', tail_entity>='highest')",
            "get_information(relation='Name', head_entity='output_of_query1')")
    assert t.answer == ["Dee"]
    assert t.steps[0].notes == ["the max of 'Time' is '2:01.00' (read as duration)"]


def test_superlative_of_words_is_an_error(races) -> None:
    t = run(races, "get_information(relation='Venue', tail_entity>='highest')")
    assert not t.ok
    assert t.error.message == "no value of 'Venue' is a number, so none is the max"


def test_loose_comparison_with_a_set_of_durations(races) -> None:
    # Oslo times are 1:50.00 and 1:49.00; "Time > either of them" keeps 1:50.00 (Ann, > 1:49)
    # and 2:01.00 (Dee); DNF cannot be read, and the note says so.
    t = run(
        races,
        "get_information(relation='Venue', tail_entity='Oslo')",
        "get_information(relation='Time', head_entity='output_of_query1')",
        "get_information(relation='Time', tail_entity>'output_of_query2')",
        "get_information(relation='Name', head_entity='output_of_query3')",
    )
    assert t.answer == ["Ann", "Dee"]
    assert t.steps[2].notes == [
        "values of 'Time' compared as duration; 1 value(s) could not be read"
    ]


# --- time conditions on a temporal graph ----------------------------------------------------
# Ann Smith: Reds FC 1990-1994, Blues FC 1995-1999, Greens FC 2001-2003.
@pytest.mark.parametrize(
    ("key", "cmp", "year", "teams"),
    [
        ("start_time", ">", "1994", ["Blues FC", "Greens FC"]),  # starts 1995, 2001
        ("start_time", "=", "1995", ["Blues FC"]),
        ("end_time", "<", "1999", ["Reds FC"]),  # ends 1994
        ("end_time", "<=", "1999", ["Reds FC", "Blues FC"]),  # ends 1994, 1999
        ("end_time", ">=", "1999", ["Blues FC", "Greens FC"]),  # ends 1999, 2003
        ("time", ">", "1999", ["Greens FC"]),  # valid some time after 1999: ends 2003
        ("time", ">=", "1999", ["Blues FC", "Greens FC"]),  # valid in or after 1999
        ("time", "<", "1995", ["Reds FC"]),  # valid some time before 1995: starts 1990
        ("time", "<=", "1995", ["Reds FC", "Blues FC"]),  # valid in or before 1995
    ],
)
def test_time_conditions_on_facts(tkg, key: str, cmp: str, year: str, teams: list[str]) -> None:
    t = run(
        tkg,
        f"get_information(head_entity='Ann Smith', relation='member of sports team', "
        f"key='{key}', value{cmp}'{year}')",
    )
    assert t.answer == teams


@pytest.mark.parametrize(("year", "members"), [("1996", ["Ann Smith", "Bob Jones"]),
                                               ("1998", ["Ann Smith"]), ("2000", [])])
def test_who_was_in_a_team_in_a_year(tkg, year: str, members: list[str]) -> None:
    # Blues FC: Ann 1995-1999, Bob 1996-1997
    t = run(
        tkg,
        f"get_information(relation='member of sports team', tail_entity='Blues FC', key='time', "
        f"value='{year}')",
    )
    assert t.answer == members


# --- second round: mutants the first version of this file still let live ------------------
def test_keep_at_least_a_set_compares_with_its_smallest_value(scores) -> None:
    # ">= some Blues score" means >= 7: all four scores 10, 10, 1000, 7 stay
    t = run(scores, *BLUES_SCORES, "keep(set='output_of_query3', value>='output_of_query2')")
    assert t.answer == ["10", "1,000", "7"]


def test_plain_numeric_comparison_is_not_read_loosely(scores) -> None:
    # Score > 8: Ann 10, Bob 10, Cid 1,000 (Dee has 7). All scores are plain numbers, so no
    # loose reading happens and no "compared as ..." note is written.
    t = run(scores, "get_information(relation='Score', tail_entity>'8')",
            "get_information(relation='Player', head_entity='output_of_query1')")
    assert t.answer == ["Ann", "Bob", "Cid"]
    assert t.steps[0].notes == []


def test_loose_less_than_a_set_of_durations_uses_every_value(races) -> None:
    # Oslo times are 1:50.00 and 1:49.00; "Time < either of them" means < 1:50.00, which only
    # Bob's 1:49.00 is (it is not below 1:49.00 itself, so each threshold must count)
    t = run(
        races,
        "get_information(relation='Venue', tail_entity='Oslo')",
        "get_information(relation='Time', head_entity='output_of_query1')",
        "get_information(relation='Time', tail_entity<'output_of_query2')",
        "get_information(relation='Name', head_entity='output_of_query3')",
    )
    assert t.answer == ["Bob"]


def test_frequency_note_lists_at_most_five_values() -> None:
    # A twice; B, C, D, E, F, G once each: six least-frequent values, the note names five
    env = _env((b"Venue\nA\nA\nB\nC\nD\nE\nF\nG\n", "table", "v.csv"))
    t = run(env, "get_information(relation='Venue', tail_entity='least')")
    assert len(t.answer) == 6
    assert t.steps[0].notes == [
        "least frequent value(s) of 'Venue': 'B', 'C', 'D', 'E', 'F' (1 times)"
    ]


@pytest.mark.parametrize(("cmp", "year"), [(">", "1980"), ("<", "2010"), ("=", "1992")])
def test_a_fact_without_dates_never_meets_a_time_condition(cmp: str, year: str) -> None:
    # Purples FC has no dates: whatever the condition, only dated facts can meet it
    # (> 1980 and < 2010: all three dated teams; = 1992: Reds FC, 1990-1994)
    env = _env((TKG + b"Ann Smith\tmember of sports team\tPurples FC\t\t\n", "tkg", "t.tsv"))
    t = run(env, f"get_information(head_entity='Ann Smith', relation='member of sports team', "
                 f"key='time', value{cmp}'{year}')")
    assert "Purples FC" not in t.answer
    assert t.answer == (["Reds FC"] if cmp == "=" else ["Reds FC", "Blues FC", "Greens FC"])
