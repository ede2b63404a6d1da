"""The verdict's reasons of stop 15 (issue #11): wrong answers the offline writer's queries
showed as verified on the tune halves. Each code has a case where it fires (and blocks) and
one where it must not; data made here."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.verdict import REASON_CODES, THRESHOLDS

NEW_CODES = ("count_of_named_value", "extreme_not_number", "placeholder_unasked",
             "date_unbound", "answer_unused_phrase", "focus_column_unused")
RACE = (b"Driver,Constructor,Laps,Grid\n"
        b"Ann Lee,BRM,35,1\nBob Stone,Lotus,35,2\nCid Moss,BRM,10,3\n")
SEATS = (b"District,Incumbent,Candidates\n"
         b'Virginia 17,Ann Lee,"Ann Lee (D) 50%, Bob Stone (R) 40%, Dan Roe (I) 10%"\n'
         b"Virginia 18,Cid Moss,Cid Moss (D) unopposed\n")
PLAYERS = b"Player,No.,Years\nKevin Edwards,21,2000-2001\nAnn Lee,4,2001-2002\n"
EVENTS = b"Event,Date\nHardcore TV #15,May 1\nN/A,May 8\nHardcore TV #21,May 15\n"
GAMES = (b"Date,Opponent,Player\nMay 8 1993,Oldham,Le Tissier\nMay 15 1993,Leeds,Le Tissier\n"
         b"May 22 1993,Derby,Ann Lee\n")
SINGLES = (b"Year,Womens singles,Womens doubles\n"
           b"2006,no competition,Claudia Jehle\n2007,Ann Lee,Bea Moss\n")


def q(*calls: str) -> str:
    return "\n".join(f'Query{i + 1}: "{c}"' for i, c in enumerate(calls))


def codes(t) -> list[str]:  # noqa: ANN001
    return [r.code for r in t.verdict.reasons]


def test_new_codes_are_documented_and_block() -> None:
    assert set(NEW_CODES) <= set(REASON_CODES)
    assert set(NEW_CODES) <= THRESHOLDS.blocking
    assert set(NEW_CODES) & THRESHOLDS.llm_exempt == {"date_unbound"}


@pytest.fixture(scope="module")
def race():  # noqa: ANN201
    return load_graph(tables=[RACE])


def test_count_of_named_value_quantity(race) -> None:  # noqa: ANN001
    """WikiSQL dev-6461: "when the driver richard attwood has a constructor of brm, what is
    the number of laps?" counted his one row (1) while his row's Laps holds 10."""
    t = run_query(q("get_information(relation='Driver', tail_entity='Cid Moss')",
                    "count(set='output_of_query1')"), race,
                  question="when the driver cid moss drove, what is the number of laps?")
    assert t.answer == ["1"] and "count_of_named_value" in t.verdict.blocking
    assert next(r for r in t.verdict.reasons if r.code == "count_of_named_value").arg == "Laps"


def test_count_of_named_value_not_for_identifiers_nor_several_rows(race) -> None:  # noqa: ANN001
    # 'Grid' gives every row its own number: "how many grids" counts rows
    grid = run_query(q("get_information(relation='Driver', tail_entity='Cid Moss')",
                       "count(set='output_of_query1')"), race,
                     question="how many grids did cid moss have?")
    assert grid.answer == ["1"] and "count_of_named_value" not in codes(grid)
    several = run_query(q("get_information(relation='Constructor', tail_entity='BRM')",
                          "count(set='output_of_query1')"), race,
                        question="how many laps did brm drivers do?")
    assert several.answer == ["2"] and "count_of_named_value" not in codes(several)


def test_count_of_named_value_list() -> None:
    """WTQ nt-7331: "how many candidates were there for virginia 17 district?" -> 1, while the
    row's Candidates cell lists them."""
    g = load_graph(tables=[SEATS])
    t = run_query(q("get_information(relation='District', tail_entity='Virginia 17')",
                    "count(set='output_of_query1')"), g,
                  question="how many candidates were there for virginia 17 district?")
    assert t.answer == ["1"] and "count_of_named_value" in t.verdict.blocking
    one = run_query(q("get_information(relation='District', tail_entity='Virginia 18')",
                      "count(set='output_of_query1')"), g,
                    question="how many candidates were there for virginia 18 district?")
    assert one.answer == ["1"] and "count_of_named_value" not in codes(one)


def test_extreme_not_number() -> None:
    """WikiSQL dev-729: "what's the highest player number from the list from 2000-2001" took
    the max of the Player names."""
    g = load_graph(tables=[PLAYERS])
    read = "get_information(relation='Player', head_entity='output_of_query1')"
    rows = "get_information(relation='Years', tail_entity='2000-2001')"
    t = run_query(q(rows, read, "max(set='output_of_query2')"), g,
                  question="what's the highest player number from 2000-2001?")
    assert "extreme_not_number" in t.verdict.blocking
    named = run_query(q(rows, read, "max(set='output_of_query2')"), g,
                      question="which player is last by name in 2000-2001?")
    assert "extreme_not_number" not in codes(named)


def test_placeholder_unasked_after_a_move() -> None:
    """WTQ nt-94: "what is the next event after hardcore tv #15?" -> 'N/A' (the next row)."""
    g = load_graph(tables=[EVENTS])
    t = run_query(q("get_information(relation='Event', tail_entity='Hardcore TV #15')",
                    "next_row(set='output_of_query1')",
                    "get_information(relation='Event', head_entity='output_of_query2')"), g,
                  question="what is the next event after hardcore tv #15?")
    assert t.answer == ["N/A"] and "placeholder_unasked" in t.verdict.blocking
    direct = run_query(q("get_information(relation='Date', tail_entity='May 8')",
                         "get_information(relation='Event', head_entity='output_of_query1')"), g,
                       question="what is the event on may 8?")
    assert direct.answer == ["N/A"] and "placeholder_answer" in codes(direct)
    assert "placeholder_unasked" not in codes(direct)


def test_placeholder_unasked_for_a_number() -> None:
    g = load_graph(tables=[b"Club,Wins\nDunfermline,-\nCeltic,3\n"])
    t = run_query(q("get_information(relation='Club', tail_entity='Dunfermline')",
                    "get_information(relation='Wins', head_entity='output_of_query1')"), g,
                  question="how many wins for dunfermline?")
    assert "placeholder_unasked" in t.verdict.blocking


def test_date_unbound() -> None:
    """WTQ nt-7591: "southampton played on may 8th, 1993, who was their opponent?" read the
    Player of every row, the date left unbound."""
    g = load_graph(tables=[GAMES])
    t = run_query(q("get_information(relation='Player', tail_entity='Le Tissier')",
                    "get_information(relation='Opponent', head_entity='output_of_query1')"), g,
                  question="le tissier played on may 8th, 1993, who was the opponent?")
    assert "date_unbound" in t.verdict.blocking
    assert next(r for r in t.verdict.reasons if r.code == "date_unbound").arg == "may 8th, 1993"
    bound = run_query(q("get_information(relation='Date', tail_entity='May 8 1993')",
                        "get_information(relation='Opponent', head_entity='output_of_query1')"),
                      g, question="le tissier played on may 8th, 1993, who was the opponent?")
    assert bound.answer == ["Oldham"] and "date_unbound" not in codes(bound)


def test_answer_unused_phrase() -> None:
    """WikiSQL dev-562: "... the womens singles had no competition ..., what were the womens
    doubles" answered 'no competition' from Womens singles."""
    g = load_graph(tables=[SINGLES])
    question = "in 2006 the womens singles had no competition, what were the womens doubles?"
    t = run_query(q("get_information(relation='Year', tail_entity='2006')",
                    "get_information(relation='Womens singles', head_entity='output_of_query1')"),
                  g, question=question)
    assert t.answer == ["no competition"] and "answer_unused_phrase" in t.verdict.blocking
    right = run_query(q("get_information(relation='Womens singles', "
                        "tail_entity='no competition')",
                        "get_information(relation='Womens doubles', "
                        "head_entity='output_of_query1')"), g, question=question)
    assert right.answer == ["Claudia Jehle"] and "answer_unused_phrase" not in codes(right)
    # the answer is a literal the query used: the question named it as what it looks up
    echo = run_query(q("get_information(relation='Womens singles', tail_entity='Ann Lee')",
                       "get_information(relation='Womens singles', "
                       "head_entity='output_of_query1')"), g,
                     question="who won the womens singles, ann lee?")
    assert "answer_unused_phrase" not in codes(echo)


def test_focus_column_unused() -> None:
    """WikiSQL dev-2382: "what are the meanings of the flag whose name transliterates to
    dvojka?" read the Flag column while the table has Meaning."""
    g = load_graph(tables=[b"Flag,Name,Meaning\n2 dvojka,dvojka,decimal digit 2\n"
                           b"7 semerka,semerka,decimal digit 7\n"])
    rows = "get_information(relation='Name', tail_entity='dvojka')"
    question = "what are the meanings of the flag whose name is dvojka?"
    t = run_query(q(rows, "get_information(relation='Flag', head_entity='output_of_query1')"),
                  g, question=question)
    assert "focus_column_unused" in t.verdict.blocking
    assert next(r for r in t.verdict.reasons if r.code == "focus_column_unused").arg == "Meaning"
    right = run_query(q(rows,
                        "get_information(relation='Meaning', head_entity='output_of_query1')"),
                      g, question=question)
    assert right.answer == ["decimal digit 2"] and "focus_column_unused" not in codes(right)


def test_who_answered_by_a_date() -> None:
    """WTQ nt-10982: "who was the only person elected in 1871?" -> 'elected July 10, 1871'."""
    g = load_graph(tables=[b"Name,Elected,Term began\nJohn Jordan,\"elected July 10, 1871\",1871\n"
                           b"Ann Lee,\"elected May 1, 1875\",1875\n"])
    rows = "get_information(relation='Term began', tail_entity='1871')"
    question = "who was the only person elected in 1871?"
    t = run_query(q(rows, "get_information(relation='Elected', head_entity='output_of_query1')"),
                  g, question=question)
    assert "type_mismatch" in t.verdict.blocking
    right = run_query(q(rows, "get_information(relation='Name', head_entity='output_of_query1')"),
                      g, question=question)
    assert right.answer == ["John Jordan"] and "type_mismatch" not in codes(right)


def test_focus_column_unused_not_for_counts() -> None:
    """An LLM's "how many cities are listed?" counts rows: the focus 'cities' names the City
    column, which a count need not read."""
    g = load_graph(tables=[b"City,Country\nOslo,Norway\nBergen,Norway\n"])
    t = run_query(q("get_information(relation='Country', tail_entity='Norway')",
                    "count(set='output_of_query1')"), g, question="how many cities are listed?")
    assert t.answer == ["2"] and "focus_column_unused" not in codes(t)


def test_answer_unused_phrase_not_for_options() -> None:
    """"did tom burke run as country or alp party?" is answered by one of its own words."""
    g = load_graph(tables=[b"Member,Party\nTom Burke,ALP\nAnn Lee,Country\n"])
    t = run_query(q("get_information(relation='Member', tail_entity='Tom Burke')",
                    "get_information(relation='Party', head_entity='output_of_query1')"), g,
                  question="did tom burke run as country or alp party?")
    assert t.answer == ["ALP"] and "answer_unused_phrase" not in codes(t)


def test_focus_column_unused_not_for_total_number_of() -> None:
    """"what is the total number of gold medals italy earned?" read from Gold is right: 'total'
    only says how to count, though the table has a Total column."""
    g = load_graph(tables=[b"Nation,Gold,Total\nItaly,10,20\nSpain,2,5\n"])
    t = run_query(q("get_information(relation='Nation', tail_entity='Italy')",
                    "get_information(relation='Gold', head_entity='output_of_query1')"), g,
                  question="what is the total number of gold medals italy earned?")
    assert t.answer == ["10"] and "focus_column_unused" not in codes(t)
