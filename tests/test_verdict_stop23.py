"""Stop 23: reasons for wrong answers shown verified (the noun a question asks for, a year
asked, a passive *who*, a count's exact match, *how long* answered by a span of years), each
on a table made here: the reason fires on the case it exists for, and not on a right answer
to a question of the same form."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.verdict import REASON_CODES, THRESHOLDS, Thresholds, judge
from trustuqa_core.verdict.asked_noun import tables_only

RULES = Thresholds(calibrated=False)
NEW = ("number_for_noun", "name_read_as_column", "year_not_year", "by_column_for_passive",
       "count_near_values")

CUPS = b"Team,Premierships,Year\nToowoomba,3,2005\nIpswich,1,2007\n"
BOWLING = b"Name,Maidens,Overs Bowled\nSehwag,0,13\nKumble,4,20\n"
BIRTHS = b"Year,Live births,Birth rate\n1999,455,11.8\n2000,460,12.0\n"
JUSTICES = (b"Name,Rank,Year appointed,Appointed by\nRivera,Associate Justice,2010,Fortuno\n"
            b"Hernandez,Chief Justice,2004,Calderon\n")
GAMES = (b"Game,Opponent,Result\n1,Braves,W\n2,@ Braves,L\n3,Mets,W\n4,Braves,L\n"
         b"5,@ Braves,W\n")
CAREERS = "Player,Career\nGretzky,1996–99\nLemieux,1984–2006\n".encode()


def _query(*steps: str) -> str:
    return "\n".join(f'Query{i}: "{s}"' for i, s in enumerate(steps, 1))


def _read(rel: str, value: str, target: str) -> str:
    return _query(f"get_information(relation='{rel}', tail_entity='{value}')",
                  f"get_information(relation='{target}', head_entity='output_of_query1')")


def _verdict(table: bytes, query: str, question: str, writer: str = "offline"):  # noqa: ANN202
    g = load_graph(tables=[table])
    t = run_query(query, g)
    assert t.answer, t.error
    return t, judge(t, question, graph=g, thresholds=RULES, writer=writer)


def _codes(table: bytes, query: str, question: str, writer: str = "offline") -> list[str]:
    return [r.code for r in _verdict(table, query, question, writer)[1].reasons]


def test_the_new_codes_are_described_hard_and_block() -> None:
    for code in NEW:
        assert code in REASON_CODES
        assert code in THRESHOLDS.blocking
        assert code in THRESHOLDS.hard


def test_number_for_noun_a_year_answering_which_team() -> None:
    query = _query("get_information(relation='Team', tail_entity='Toowoomba')",
                   "get_information(relation='Year', head_entity='output_of_query1')")
    t, v = _verdict(CUPS, query, "which team has had the most cup premierships?")
    assert t.answer == ["2005"]
    assert "number_for_noun" in [r.code for r in v.reasons]
    assert v.label == "check"
    reason = next(r for r in v.reasons if r.code == "number_for_noun")
    assert "team" in reason.message and "2005" in reason.message


def test_number_for_noun_not_when_the_noun_names_the_column() -> None:
    query = _read("Team", "Toowoomba", "Premierships")
    assert "number_for_noun" not in _codes(CUPS, query,
                                           "what premierships did toowoomba win?")


def test_number_for_noun_not_when_the_answer_is_a_name() -> None:
    query = _read("Year", "2005", "Team")
    assert "number_for_noun" not in _codes(CUPS, query, "which team won in 2005?")


def test_number_for_noun_a_count_answering_what_club() -> None:
    query = _query("get_information(relation='Year', tail_entity='2005')",
                   "count(set='output_of_query1')")
    assert "number_for_noun" in _codes(CUPS, query, "What team has a year of 2005?")


def test_number_for_noun_is_llm_exempt() -> None:
    query = _query("get_information(relation='Team', tail_entity='Toowoomba')",
                   "get_information(relation='Year', head_entity='output_of_query1')")
    _, v = _verdict(CUPS, query, "which team has had the most cup premierships?", "llm")
    assert "number_for_noun" not in v.blocking


def test_name_read_as_column_when_the_word_names_another_column() -> None:
    query = _read("Overs Bowled", "13", "Name")
    t, v = _verdict(BOWLING, query, "Name the maaidens where overs bowled is 13")
    assert t.answer == ["Sehwag"]
    assert "name_read_as_column" in [r.code for r in v.reasons]
    assert v.label == "check"


def test_name_read_as_column_not_for_the_name_of_a_row() -> None:
    query = _read("Overs Bowled", "13", "Name")
    assert "name_read_as_column" not in _codes(BOWLING, query,
                                               "Name the bowler where overs bowled is 13")


def test_year_not_year() -> None:
    query = _read("Live births", "460", "Birth rate")
    t, v = _verdict(BIRTHS, query, "what is the only year that had 460 live births?")
    assert t.answer == ["12.0"]
    assert "year_not_year" in [r.code for r in v.reasons]
    right = _read("Live births", "460", "Year")
    assert "year_not_year" not in _codes(BIRTHS, right,
                                         "what is the only year that had 460 live births?")


def test_by_column_for_passive() -> None:
    query = _query("get_information(relation='Rank', tail_entity='Associate Justice')",
                   "get_information(relation='Appointed by', head_entity='output_of_query1')")
    question = "who was the only associate justice appointed in 2010?"
    t, v = _verdict(JUSTICES, query, question)
    assert t.answer == ["Fortuno"]
    assert "by_column_for_passive" in [r.code for r in v.reasons]
    right = _query("get_information(relation='Rank', tail_entity='Associate Justice')",
                   "get_information(relation='Name', head_entity='output_of_query1')")
    assert "by_column_for_passive" not in _codes(JUSTICES, right, question)


def test_by_column_not_for_an_active_who() -> None:
    query = _read("Name", "Rivera", "Appointed by")
    assert "by_column_for_passive" not in _codes(JUSTICES, query, "who appointed rivera?")


def test_count_near_values_when_other_cells_hold_the_value() -> None:
    query = _query("get_information(relation='Opponent', tail_entity='Braves')",
                   "count(set='output_of_query1')")
    t, v = _verdict(GAMES, query, "how many times were the braves the opponents?")
    assert t.answer == ["2"]
    reason = next(r for r in v.reasons if r.code == "count_near_values")
    assert "@ Braves" in reason.message
    assert v.label == "check"


def test_count_near_values_not_when_the_value_stands_alone() -> None:
    query = _query("get_information(relation='Opponent', tail_entity='Mets')",
                   "count(set='output_of_query1')")
    assert "count_near_values" not in _codes(GAMES, query,
                                             "how many times were the mets the opponents?")


def test_count_near_values_not_for_a_value_read() -> None:
    query = _read("Opponent", "Mets", "Game")
    assert "count_near_values" not in _codes(GAMES, query, "which game was against the mets?")


@pytest.mark.parametrize(("answer_column", "fires"), [("Career", True), ("Player", False)])
def test_how_long_answered_by_a_span_of_years(answer_column: str, fires: bool) -> None:
    query = _read("Player", "Gretzky", answer_column)
    codes = _codes(CAREERS, query, "how long was gretzky's career?")
    assert ("duration_as_date" in codes) is fires


def test_the_noun_reasons_read_tables_only() -> None:
    kg = load_graph(kgs=[b"Heat|release_year|1995\nHeat|directed_by|Michael Mann\n"])
    t = run_query(_query("get_information(relation='release_year', head_entity='Heat')"), kg)
    assert t.answer == ["1995"]
    assert not tables_only(t)
    codes = [r.code for r in judge(t, "which film release is heat?", graph=kg,
                                   thresholds=RULES).reasons]
    assert "number_for_noun" not in codes
    table = load_graph(tables=[CUPS])
    assert tables_only(run_query(_read("Team", "Ipswich", "Year"), table))
