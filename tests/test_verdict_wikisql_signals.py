"""Stop 17: the WikiSQL verdict's new signals (ambiguity by execution, a condition step the
answer ignores) and the reason codes whose reading was made precise, each on a table made
here; every firing case fails on the code before stop 17 (the code did not exist, or the
precise reading was missing)."""

from __future__ import annotations

from trustuqa_core import load_graph, run_query
from trustuqa_core.verdict import REASON_CODES, THRESHOLDS, Thresholds, judge
from trustuqa_core.verdict.ambiguity import MAX_ALTERNATIVES, ambiguity_reasons

RULES = Thresholds(calibrated=False)

FOOTY = (b"Home team,Home team score,Away team,Away team score,Venue,Date\n"
         b"Geelong,10.9 (69),Carlton,11.13 (79),Kardinia Park,4 June 1927\n"
         b"Richmond,12.10 (82),Essendon,8.16 (64),Punt Road Oval,11 June 1927\n")


def _query(*steps: str) -> str:
    return "\n".join(f'Query{i}: "{s}"' for i, s in enumerate(steps, 1))


def _read(condition_rel: str, value: str, target: str) -> str:
    return _query(f"get_information(relation='{condition_rel}', tail_entity='{value}')",
                  f"get_information(relation='{target}', head_entity='output_of_query1')")


def _codes(table: bytes, query: str, question: str) -> list[str]:
    g = load_graph(tables=[table])
    t = run_query(query, g)
    assert t.answer, t.error
    return [r.code for r in judge(t, question, graph=g, thresholds=RULES).reasons]


def test_the_new_codes_are_described_and_block() -> None:
    for code in ("answer_column_ambiguous", "condition_column_ambiguous",
                 "condition_value_narrower", "step_unused"):
        assert code in REASON_CODES
        assert code in THRESHOLDS.blocking
    assert MAX_ALTERNATIVES == 3


def test_answer_column_ambiguous_sibling_the_question_names() -> None:
    query = _read("Away team", "Carlton", "Home team score")
    g = load_graph(tables=[FOOTY])
    t = run_query(query, g)
    v = judge(t, "What did carlton score while away?", graph=g, thresholds=RULES)
    assert "answer_column_ambiguous" in [r.code for r in v.reasons]
    assert v.label == "check"
    reason = next(r for r in v.reasons if r.code == "answer_column_ambiguous")
    assert reason.arg == "Away team score" and "11.13 (79)" in reason.message
    # the question names the home team's score: the reading is not ambiguous
    assert "answer_column_ambiguous" not in _codes(
        FOOTY, query, "What did the home team score when carlton was the away team?")


def test_answer_column_ambiguous_where_and_what_day() -> None:
    query = _read("Home team score", "10.9 (69)", "Home team")
    assert "answer_column_ambiguous" in _codes(FOOTY, query,
                                               "Where did a home team score 10.9 (69)?")
    assert "answer_column_ambiguous" in _codes(FOOTY, query,
                                               "What day did a home team score 10.9 (69)?")
    # "where" inside the question is a relative clause, not a request for a place
    assert "answer_column_ambiguous" not in _codes(
        FOOTY, query, "What home team played the game where the home team scored 10.9 (69)?")


def test_answer_column_ambiguous_longer_sibling_and_asked_noun() -> None:
    table = b"Election,Votes,Vote %,Seats\n1946,13049,19.5,9\n1950,14077,21.0,11\n"
    query = _read("Seats", "9", "Votes")
    assert "answer_column_ambiguous" in _codes(table, query, "Name the vote % for seats of 9")
    assert "answer_column_ambiguous" not in _codes(table, query, "Name the votes for seats of 9")
    tribe = (b"Member,Week Arrived On Main Island,Original Tribe\n"
             b"Sarah Sole,13,Shark\nLottie Moore,6,Eagle\n")
    query = _read("Original Tribe", "Shark", "Member")
    assert "answer_column_ambiguous" in _codes(
        tribe, query, "What week did the member whose original tribe was shark arrive?")
    assert "answer_column_ambiguous" not in _codes(
        tribe, query, "Which member had shark as the original tribe?")


def test_condition_column_ambiguous() -> None:
    table = (b"Date,Visitor,Home,Record\nMarch 1,Pittsburgh,Boston,30-19\n"
             b"March 3,Boston,Pittsburgh,25-18\n")
    query = _read("Visitor", "Pittsburgh", "Record")
    codes = _codes(table, query, "What was their record when they were at Pittsburgh?")
    assert "condition_column_ambiguous" in codes
    # the question names the condition's column: nothing prefers the other one
    assert "condition_column_ambiguous" not in _codes(
        table, query, "What was the record when the visitor was Pittsburgh?")


def test_condition_value_narrower() -> None:
    table = b"Game,Team,Score\n1,Memphis,W 106-87\n2,@ Memphis,W 91-84\n"
    question = 'What is Score, when Team is "@ Memphis"?'
    assert "condition_value_narrower" in _codes(table, _read("Team", "Memphis", "Score"),
                                                question)
    assert "condition_value_narrower" not in _codes(table, _read("Team", "@ Memphis", "Score"),
                                                    question)


def test_step_unused() -> None:
    table = (b"Game,Record,High assists\n1,32-19,Jason Kidd (12)\n2,33-19,Jason Kidd (7)\n"
             b"3,33-20,Jason Kidd (7)\n")
    ignoring = _query("get_information(relation='Record', tail_entity='32-19')",
                      "get_information(relation='High assists', tail_entity='most')",
                      "get_information(relation='High assists', head_entity='output_of_query2')")
    question = "Who had the most high assists with a record of 32-19?"
    assert "step_unused" in _codes(table, ignoring, question)
    using = _query("get_information(relation='Record', tail_entity='32-19')",
                   "get_information(relation='High assists', head_entity='output_of_query1')")
    assert "step_unused" not in _codes(table, using, question)


def test_ambiguity_reasons_leave_kg_answers_alone() -> None:
    g = load_graph(kgs=[b"Dune\twritten_by\tFrank Herbert\n"])
    t = run_query("Query1: \"get_information(head_entity='Dune', relation='written_by')\"", g)
    assert t.answer == ["Frank Herbert"]
    assert ambiguity_reasons(t, "where was dune written?") == []


def test_type_mismatch_which_noun_names_the_column_read() -> None:
    table = b"Rd,Race\n1,Monaco\n2,Indy\n"
    query = _read("Race", "Indy", "Rd")
    assert "type_mismatch" not in _codes(table, query, "Which Rd took place at the Indy?")
    # the noun names another column: still a thing asked and a number given
    assert "type_mismatch" in _codes(table, query, "Which driver won at the Indy?")


def test_unexplained_words_of_the_question_form() -> None:
    table = b"Team,Won,Drawn\nAnn,10,2\nBea,10,3\nCid,7,1\n"
    count = _query("get_information(relation='Won', tail_entity='10')",
                   "count(set='output_of_query1')")
    g = load_graph(tables=[table])
    v = judge(run_query(count, g), "How many different teams won exactly 10?", graph=g)
    words = next((r.arg or "" for r in v.reasons if r.code == "unexplained_words"), "")
    assert "different" not in words and "exactly" not in words
    value = _read("Team", "Cid", "Drawn")
    words = next((r.arg or "" for r in judge(run_query(value, g), "I want the value of the item "
                                              "drawn for team Cid", graph=g).reasons
                  if r.code == "unexplained_words"), "")
    assert not {"want", "value", "item"} & set(words.split(", "))


def test_comparison_unbound_reads_each_bound() -> None:
    table = b"Game,October,Score\n7,28,6-2\n8,20,2-1\n9,28,3-3\n"
    query = _query("get_information(relation='Game', tail_entity>'6')",
                   "get_information(relation='October', tail_entity='28')",
                   "set_intersection(set1='output_of_query1', set2='output_of_query2')",
                   "get_information(relation='Score', head_entity='output_of_query3')")
    assert "comparison_unbound" in _codes(table, query,
                                          "Name the score for game more than 6 and before "
                                          "october 28")
    assert "comparison_unbound" not in _codes(table, query,
                                              "Name the score for game more than 6 on "
                                              "october 28")


def test_type_mismatch_which_noun_over_a_ranking_and_clock_times() -> None:
    table = b"Game,Record\n12,4-3-5\n13,4-3-6\n14,4-3-6\n"
    query = _query("get_information(relation='Record', tail_entity='4-3-6')",
                   "get_information(relation='Game', head_entity='output_of_query1')",
                   "max(set='output_of_query2')")
    assert "type_mismatch" not in _codes(table, query,
                                         "Which Game is the highest one that has a Record of "
                                         "4-3-6?")
    shows = b"Show Name,Time\nNews,8:30am-12:00pm\nSport,6:30am-7:00am\n"
    assert "type_mismatch" not in _codes(shows, _read("Show Name", "News", "Time"),
                                         "What Time has a Show Name of news?")
    assert "type_mismatch" in _codes(shows, _read("Time", "8:30am-12:00pm", "Show Name"),
                                     "When was the show on at 8:30am-12:00pm?")
