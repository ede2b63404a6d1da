"""The verdict reason ``source_unsure``: with several sources loaded, an answer is not shown
verified when another source fits the written query as well and answers it differently, or
when the answer merges sources each of which answers otherwise alone."""

from __future__ import annotations

from helpers import FixedWriter

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.query import parse
from trustuqa_core.routing import route
from trustuqa_core.routing_by_query import route_by_query

#: two rosters of one schema (two seasons); a third table of another schema
Y2019 = b"Name,Team,Season\nAnn,Reds,2019\nCid,Blues,2019\n"
Y2020 = b"Name,Team,Season\nBob,Reds,2020\nDee,Greens,2020\n"
CITIES = b"City,Country,Mayor\nParis,France,Hidalgo\nRome,Italy,Gualtieri\n"
REDS = "Query1: \"get_information(relation='Team', tail_entity='Reds')\"\n" \
       "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\""


def _codes(a) -> tuple[str, ...]:
    return a.verdict.blocking


def test_route_by_query_keeps_each_tied_sources_own_answer() -> None:
    g = load_graph(tables=[Y2019, Y2020, CITIES])
    d = route_by_query(parse(REDS), g, route("who plays for the Reds?", g))
    assert d.alone == {"table1": frozenset({"ann"}), "table2": frozenset({"bob"})}
    assert d.to_dict()["alone"] == {"table1": ["ann"], "table2": ["bob"]}


def test_one_source_fitting_best_leaves_nothing_alone() -> None:
    g = load_graph(tables=[Y2019, Y2020, CITIES])
    q = parse("Query1: \"get_information(relation='Team', tail_entity='Greens')\"\n"
              "Query2: \"get_information(relation='Name', head_entity='output_of_query1')\"")
    d = route_by_query(q, g, route("who plays for the Greens?", g))
    assert d.sources == ("table2",) and d.alone == {}


def test_a_count_merging_two_rosters_is_not_verified() -> None:
    """Each season alone counts 1 Reds player; read together they count 2, which neither
    table says: the data cannot tell whether the question means both."""
    g = load_graph(tables=[Y2019, Y2020])
    a = answer("how many players do the Reds have?", g, writer="offline")
    assert a.answer == ["2"]
    assert "source_unsure" in _codes(a) and a.verdict.label == "check"
    why = next(r for r in a.verdict.reasons if r.code == "source_unsure")
    assert "table1 and table2" in why.message and why.arg == "table1, table2"
    assert a.to_dict()["reasons"][0]["code"] in a.verdict.blocking


def test_another_source_answering_otherwise_is_named() -> None:
    """The question's words ('2019') choose the first roster, while the written query (the
    team only) fits the second one as well and answers Bob there."""
    g = load_graph(tables=[Y2019, Y2020])
    a = answer("who played for the Reds in the 2019 season?", g, writer=FixedWriter(REDS),
               n=1, retries=0)
    assert a.answer == ["Ann"]
    assert a.verdict.label == "check" and "source_unsure" in _codes(a)
    why = next(r for r in a.verdict.reasons if r.code == "source_unsure")
    assert why.arg == "table2" and "only the question's words chose table1" in why.message


def test_a_query_pinning_its_source_stays_verified() -> None:
    g = load_graph(tables=[Y2019, Y2020])
    for q in ("who plays for the Greens?", "who plays for the Reds in 2020?"):
        a = answer(q, g, writer="offline")
        assert "source_unsure" not in {r.code for r in a.verdict.reasons}, q
    a = answer("who plays for the Greens?", g, writer="offline")
    assert a.answer == ["Dee"] and a.verdict.label == "verified"


def test_one_source_loaded_is_never_source_unsure() -> None:
    g = load_graph(tables=[Y2019])
    a = answer("how many players do the Reds have?", g, writer="offline")
    assert a.answer == ["1"] and "source_unsure" not in {r.code for r in a.verdict.reasons}


CITIES_RANKED = b"Rank,City\n1,Tokyo\n2,Delhi\n"
NATIONS_RANKED = b"Rank,Nation\n1,Japan\n2,India\n"
RANK_1_CITY = "Query1: \"get_information(relation='Rank', tail_entity='1')\"\n" \
              "Query2: \"get_information(relation='City', head_entity='output_of_query1')\""


def test_a_column_only_the_writer_picked_does_not_choose_the_source() -> None:
    """'what is ranked #1?' fits both ranking tables; the query reads City, a column of one
    of them the question never names, and its value 1 is in both: nothing in the question
    or in the query's values chose the cities."""
    g = load_graph(tables=[CITIES_RANKED, NATIONS_RANKED])
    assert route("what is ranked #1?", g).unsure
    a = answer("what is ranked #1?", g, writer=FixedWriter(RANK_1_CITY), n=1, retries=0)
    assert a.answer == ["Tokyo"] and a.verdict.label == "check"
    why = next(r for r in a.verdict.reasons if r.code == "source_unsure")
    assert why.arg == "table2" and "no value of the written query" in why.message


def test_a_column_the_question_names_or_a_value_of_one_source_chooses_it() -> None:
    g = load_graph(tables=[CITIES_RANKED, NATIONS_RANKED])
    a = answer("which city is ranked #1?", g, writer=FixedWriter(RANK_1_CITY), n=1, retries=0)
    assert a.answer == ["Tokyo"] and a.verdict.label == "verified", a.verdict.reasons
    by_value = "Query1: \"get_information(relation='City', tail_entity='Delhi')\"\n" \
               "Query2: \"get_information(relation='Rank', head_entity='output_of_query1')\""
    a = answer("what rank is Delhi?", g, writer=FixedWriter(by_value), n=1, retries=0)
    assert a.answer == ["2"]
    assert "source_unsure" not in {r.code for r in a.verdict.reasons}
