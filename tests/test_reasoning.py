"""Reasoning functions: one fixture file per family (tests/fixtures/functions/*.json), each
case a question, a table, a query, the expected answer and notes the step must state; plus
the alias table, the hand-over to the LLM fallback, and the witnesses a computed step keeps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core import build_graph, judge, load_source, run_query
from trustuqa_core.fallback import FallbackAnswer, FallbackRequest
from trustuqa_core.function_names import (
    FUNCTION_ALIASES,
    REASONING_FUNCTIONS,
    canonical_function,
    implied_argument,
    is_defined,
)
from trustuqa_core.functions import FUNCTIONS
from trustuqa_core.mapping import Mapper
from trustuqa_core.reasoning.cues import question_form
from trustuqa_core.reasoning.operands import read_expression

FAMILIES = Path(__file__).parent / "fixtures" / "functions"
CASES = [
    pytest.param(case, id=f"{path.stem}-{i}")
    for path in sorted(FAMILIES.glob("*.json"))
    for i, case in enumerate(json.loads(path.read_text(encoding="utf-8"))["cases"])
]


def _graph(table: str):  # noqa: ANN202
    return build_graph([load_source(table.encode("utf-8"), "table", "t.csv")])


@pytest.mark.parametrize("case", CASES)
def test_family_fixture(case: dict) -> None:
    g = _graph(case["table"])
    t = run_query(case["query"], g, Mapper(g), question=case["question"])
    assert t.error is None, t.error
    assert t.answer == case["answer"]
    last = t.steps[-1]
    assert last.status == "ok" and not last.inferred_note
    notes = " | ".join(last.notes)
    for expected in case["notes"]:
        assert expected in notes, (expected, last.notes)


def test_every_family_has_a_fixture_file() -> None:
    assert {p.stem for p in FAMILIES.glob("*.json")} == {
        "compare", "arithmetic", "duration", "conditional", "yesno", "sets", "text", "sorting", "lookup"
    }


def test_aliases_point_at_registered_functions() -> None:
    assert set(FUNCTIONS) >= REASONING_FUNCTIONS
    for alias, target in FUNCTION_ALIASES.items():
        assert target in FUNCTIONS, alias
    assert canonical_function("calculate_difference") == "difference"
    assert canonical_function("Calculator") == "calculate"
    assert canonical_function("IF") == "if_then_else"
    assert not is_defined("tell_me_a_story")


@pytest.mark.parametrize(("name", "canonical", "implied"), [
    ("consecutive_wins", "consecutive", ("value", "win")),
    ("consecutive_losses", "consecutive", ("value", "loss")),
    ("longest_win_streak", "consecutive", ("value", "win")),
    ("consecutive_ranks", "consecutive", None),
    ("group_by", "group_by", None),
    ("count_by_key", "group_by", None),
    ("group_by_country", "group_by", None),
    ("count_per_state", "group_by", None),
    ("only_element", "distinct", None),
    ("set_unique", "distinct", None),
    ("unique_value", "distinct", None),
    ("calculate_time_duration", "duration", None),
    ("calc_decade", "decade", None),
    ("choose_n", "first", None),
    ("top_n", "first", None),
    ("duration_difference", None, None),
    ("win_percentage", None, None),
    ("bygone", None, None),
])
def test_name_families(name: str, canonical: str | None, implied: tuple | None) -> None:
    assert canonical_function(name) == canonical
    assert implied_argument(name) == implied


def test_computed_step_keeps_operand_witnesses() -> None:
    g = _graph("Nation,Gold\nChina,10\nItaly,4\n")
    t = run_query(
        "Query1: \"get_information(relation='Nation', tail_entity='China')\"\n"
        "Query2: \"get_information(relation='Gold', head_entity='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
        "Query4: \"get_information(relation='Gold', head_entity='output_of_query3')\"\n"
        "Query5: \"subtract(value1='output_of_query2', value2='output_of_query4')\"",
        g,
    )
    assert t.answer == ["6"]
    wits = set(t.steps[-1].output.witnesses[0])
    assert set(t.steps[1].output.witnesses[0]) <= wits
    assert set(t.steps[3].output.witnesses[0]) <= wits
    assert {g.fact_text(f)[2] for f in wits} >= {"10", "4", "China", "Italy"}


def test_unreadable_arguments_go_to_the_fallback_marked_unverified() -> None:
    g = _graph("Nation,Gold\nChina,ten\nItaly,a few\n")
    asked: list[FallbackRequest] = []

    def fallback(req: FallbackRequest) -> FallbackAnswer:
        asked.append(req)
        return FallbackAnswer(["China"], "LLM-inferred, not verified")

    text = (
        "Query1: \"get_information(relation='Nation', tail_entity='China')\"\n"
        "Query2: \"get_information(relation='Gold', head_entity='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
        "Query4: \"get_information(relation='Gold', head_entity='output_of_query3')\"\n"
        "Query5: \"compare(set1='output_of_query2', set2='output_of_query4')\""
    )
    t = run_query(text, g, question="who won more, china or italy?", fallback=fallback)
    assert asked and asked[0].kind == "function"
    assert t.steps[-1].status == "inferred" and t.answer == ["China"]
    assert any("does not read as a number" in n for n in t.steps[-1].notes)
    unanswered = run_query(text, g, question="who won more, china or italy?")
    assert unanswered.error is not None and "cannot read" in unanswered.error.message


def test_division_by_zero_is_a_clear_error() -> None:
    g = _graph("Nation,Gold\nChina,10\nItaly,0\n")
    t = run_query(
        "Query1: \"get_information(relation='Nation', tail_entity='China')\"\n"
        "Query2: \"get_information(relation='Gold', head_entity='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
        "Query4: \"get_information(relation='Gold', head_entity='output_of_query3')\"\n"
        "Query5: \"divide(set1='output_of_query2', set2='output_of_query4')\"",
        g,
    )
    assert t.error is not None and "division by zero" in t.error.message


@pytest.mark.parametrize(
    ("question", "kind", "direction"),
    [
        ("is koli larger than lemmenjoki?", "yesno", ">"),
        ("who was faster? maria paris or susan sloan?", "choice", "<"),
        ("did true romance make more or less money than diabolique?", "pair", ">"),
        ("were more magazines founded before or after 2000?", "pair_choice", ">"),
        ("which yacht launched first: cougar ii or aurora?", "choice", "<"),
        ("in the chart is the hmmwv listed before the ambulance?", "yesno", "<"),
        ("in which year was the hmmwv listed before the ambulance?", "choice", "<"),
        ("is the number in 1917 greater than or less than in 1918?", "pair", ">"),
    ],
)
def test_question_forms(question: str, kind: str, direction: str) -> None:
    form = question_form(question)
    assert (form.kind, form.direction) == (kind, direction)


def test_expressions_are_split_not_evaluated() -> None:
    assert read_expression("__import__('os').system('x')") is None
    assert read_expression("output_of_query1 >= 'ten'")[1] == ">="
    assert read_expression("output_of_query2 * 3")[1] == "*"


def test_evidence_graph_highlights_the_operands_of_a_computed_step() -> None:
    from trustuqa_core.explain import evidence_graph

    g = _graph("Nation,Gold\nChina,10\nItaly,4\nJapan,1\n")
    t = run_query(
        "Query1: \"get_information(relation='Nation', tail_entity='China')\"\n"
        "Query2: \"get_information(relation='Gold', head_entity='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Nation', tail_entity='Italy')\"\n"
        "Query4: \"get_information(relation='Gold', head_entity='output_of_query3')\"\n"
        "Query5: \"difference(set1='output_of_query2', set2='output_of_query4')\"",
        g,
    )
    eg = evidence_graph(t)
    in_step5 = {(e.relation, g.label(e.tail)) for e in eg.edges if 5 in e.steps and e.tail >= 0}
    assert in_step5 == {("Gold", "10"), ("Gold", "4"), ("Nation", "China"), ("Nation", "Italy")}
    computed = [e for e in eg.edges if e.computed]
    assert computed and {n.label for n in eg.nodes if n.id < 0} == {"6"}
    assert "Japan" not in {n.label for n in eg.nodes}


def _lookup(n: int, nation: str, column: str) -> list:
    from trustuqa_core.query.ast import Arg, Call, Query, Ref, Text

    return [
        Query(n, Call("get_information", (Arg("relation", Text("Nation")),
                                          Arg("tail_entity", Text(nation))))),
        Query(n + 1, Call("get_information", (Arg("relation", Text(column)),
                                              Arg("head_entity", Ref(n))))),
    ]


@pytest.mark.parametrize(
    ("question", "op", "answer"),
    [
        ("was italy's gold count above or below japan's?", "<", "less"),
        ("was italy's gold count above or below japan's?", ">=", "more"),
        ("which nation won more gold medals, italy or japan?", "<", "less"),
        (None, "=", "less"),
    ],
)
def test_parser_contract_hoisted_compare_and_if_then_else(question, op, answer) -> None:  # noqa: ANN001
    """The parser hoists ``if A op B then X else Y`` into ``compare`` + ``if_then_else``
    (the contract between the parser and the functions): the branch follows the written
    operator whatever form the question asks for."""
    from trustuqa_core.execute import run_program
    from trustuqa_core.query.ast import Arg, Call, Program, Query, Ref, Text

    g = _graph("Nation,Gold\nItaly,5\nJapan,4\n")
    compare = Query(5, Call("compare", (Arg("set1", Ref(2)), Arg("set2", Ref(4)),
                                        Arg("op", Text(op)))), "part of Query6")
    choose = Query(6, Call("if_then_else", (Arg("condition", Ref(5)), Arg("then", Text("more")),
                                            Arg("else", Text("less")))))
    program = Program((*_lookup(1, "Italy", "Gold"), *_lookup(3, "Japan", "Gold"), compare,
                       choose))
    t = run_program(program, g, question=question)
    assert t.error is None and t.answer == [answer]


def test_a_date_against_a_non_date_is_not_compared() -> None:
    g = _graph('Name,Born\nAnn,16 April 1993\nBea,15 maggio 1985\n')
    t = run_query(
        "Query1: \"get_information(relation='Name', tail_entity='Ann')\"\n"
        "Query2: \"get_information(relation='Born', head_entity='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Name', tail_entity='Bea')\"\n"
        "Query4: \"get_information(relation='Born', head_entity='output_of_query3')\"\n"
        "Query5: \"compare(set1='output_of_query2', set2='output_of_query4')\"",
        g, question="which player is younger, ann or bea?",
    )
    assert t.steps[-1].status == "unanswered"
    assert any("reads as a date" in n for n in t.steps[-1].notes)


def test_extreme_of_scores_reads_the_number_the_question_asks_for() -> None:
    g = _graph("Home team,Score,Away team\nCeltic,2–1,Hearts\nAberdeen,3–0,Rangers\n"
               "Dundee,1–2,Hibernian\n")
    text = (
        "Query1: \"get_information(relation='Score')\"\n"
        "Query2: \"max(set='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Score', tail_entity='output_of_query2')\"\n"
        "Query4: \"get_information(relation='Home team', head_entity='output_of_query3')\""
    )
    home = run_query(text, g, Mapper(g), question="what home team scored the most goals?")
    assert home.answer == ["Aberdeen"]
    assert any("each read as its first number" in n for n in home.steps[1].notes)
    away = run_query(text.replace("Home team", "Away team"), g, Mapper(g),
                     question="which away team scored the most goals?")
    assert away.answer == ["Hibernian"]
    assert any("its second number ('away')" in n for n in away.steps[1].notes)


def test_last_or_first_as_a_lookup_literal_reads_table_order() -> None:
    """``tail_entity>='last season'`` over seasons is the last row (noted); over a column of
    plain numbers "last" is a ranking, so it stays with the comparison's fallback."""
    g = _graph("Season,Population,Place\n2001/02,900,5th\n2002/03,700,3rd\n2003/04,800,2nd\n")
    t = run_query("Query1: \"get_information(relation='Season', tail_entity>='last season')\"\n"
                  "Query2: \"get_information(relation='Place', head_entity='output_of_query1')\"",
                  g, Mapper(g), question="where did they place the last season?")
    assert t.answer == ["2nd"]
    assert "'last' over 'Season': the last row in table order with a value, row 3 ('2003/04')" \
        in t.steps[0].notes
    numbers = run_query("Query1: \"get_information(relation='Population', tail_entity>='last')\"",
                        g, Mapper(g), question="which is the last season for population?")
    assert not numbers.answer and numbers.steps[0].status != "ok"


def test_a_number_compared_with_records_that_mostly_read_as_no_quantity() -> None:
    """Records with a note (``36–8 (N/A)``) are not quantities, and the one that reads as a
    leading number must not decide the reading: the records are read as scores (noted)."""
    g = _graph("School,Record\nArizona,36–8 (N/A)\nClemson,23 –6 (11–5 0 GB)\n"
               "Penn State,15–4 (N/A)\nUtah,24–7 (8–2 0 GB)\n")
    t = run_query("Query1: \"get_information(relation='Record', tail_entity<'20')\"",
                  g, Mapper(g), question="which was the only team with less than 20 wins?")
    assert t.steps[0].notes == ["values of 'Record' are scores, each read as its first number"]
    assert t.answer == ["t.csv row 3"]


def test_a_number_added_to_several_years_moves_each() -> None:
    """``add(number=<2008, 2009>, value='1')`` is each year plus one (noted), each result
    witnessed by its own cell; amounts that are not positions are summed only when the
    question asks a total (stop 19), else the step is left to the fallback."""
    g = _graph("Season,Runners-up,Gate\n2008,Rovers,100\n2009,Rovers,250\n2010,Owls,90\n")
    t = run_query("Query1: \"get_information(relation='Runners-up', tail_entity='Rovers')\"\n"
                  "Query2: \"get_information(relation='Season', head_entity='output_of_query1')\"\n"
                  "Query3: \"Calculator(function='add', number='output_of_query2', value='1')\"",
                  g, Mapper(g), question="which seasons came after a loss?")
    assert t.answer == ["2009", "2010"]
    assert "each plus 1: 2008 -> 2009, 2009 -> 2010" in t.steps[-1].notes[0]
    assert all(t.steps[-1].output.witnesses)
    gate = run_query("Query1: \"get_information(relation='Runners-up', tail_entity='Rovers')\"\n"
                     "Query2: \"get_information(relation='Gate', head_entity='output_of_query1')\"\n"
                     "Query3: \"Calculator(function='add', number='output_of_query2', value='1')\"",
                     g, Mapper(g), question="what was the total gate plus one?")
    assert gate.answer == ["351"]
    plain = run_query("Query1: \"get_information(relation='Runners-up', tail_entity='Rovers')\"\n"
                      "Query2: \"get_information(relation='Gate', head_entity='output_of_query1')\"\n"
                      "Query3: \"Calculator(function='add', number='output_of_query2', value='1')\"",
                      g, Mapper(g), question="what was the gate plus one?")
    assert not plain.answer and plain.steps[-1].status == "unanswered"


@pytest.mark.parametrize("run", [
    "consecutive(set='output_of_query1')",
    "consecutive(set='output_of_query1', value='win')",
    "consecutive_wins(set='output_of_query1')",
])
def test_consecutive_of_an_empty_set_is_zero_like_count(run: str) -> None:
    """An empty earlier result has no run: ``consecutive`` gives 0, as ``count`` gives 0 of
    the same set, and says the set was empty (before, the step failed)."""
    g = _graph("Year,Venue,Result\n1990,Dublin,W\n1991,Cork,L\n1992,Dublin,W\n")
    lookup = "Query1: \"get_information(relation='Year', key='Venue', value='Galway')\"\n"
    count = run_query(lookup + "Query2: \"count(set='output_of_query1')\"", g, Mapper(g))
    t = run_query(lookup + f"Query2: \"{run}\"", g, Mapper(g),
                  question="how many consecutive games were played in galway?")
    assert t.error is None, t.error
    assert t.answer == count.answer == ["0"]
    assert t.steps[-1].status == "ok"
    assert any("the set is empty" in n for n in t.steps[-1].notes)


_SCORES = ("Dance,Dancer,Score\nQuickstep,Argo Ader,34\nTango,Argo Ader,40\n"
           "Paso doble,Lauri Pedaja,36\nWaltz,Lauri Pedaja,20\n")
_SCORED = ("Query1: \"get_information(relation='Dancer', tail_entity='Argo Ader')\"\n"
           "Query2: \"get_information(relation='Score', head_entity='output_of_query1')\"\n"
           "Query3: \"get_information(relation='Dancer', tail_entity='Lauri Pedaja')\"\n"
           "Query4: \"get_information(relation='Score', head_entity='output_of_query3')\"\n"
           "Query5: \"compare(value1='output_of_query2', value2='output_of_query4')\"")


def test_several_values_of_a_comparison_are_not_summed_silently() -> None:
    """An operand holding several numbers, in a question that asks no total, has no single
    reading: the step goes to the fallback with the reason (stop 19; before, the scores
    were summed, 74 against 56, and the step looked computed)."""
    g = _graph(_SCORES)
    t = run_query(_SCORED, g, Mapper(g), question="who scored higher, argo ader or lauri pedaja?")
    last = t.steps[-1]
    assert last.status == "unanswered" and not t.answer
    assert any("holds 2 values (34, 40) and the question asks for no total" in n
               for n in last.notes), last.notes
    assert not any("their sum" in n for n in last.notes)


def test_several_values_left_to_the_fallback_are_seen_by_the_verdict() -> None:
    """With a fallback configured, the step is LLM-inferred and the verdict says so."""
    g = _graph(_SCORES)

    def fallback(req: FallbackRequest) -> FallbackAnswer:
        return FallbackAnswer(["Argo Ader"], "LLM-inferred, not verified")

    question = "who scored higher, argo ader or lauri pedaja?"
    t = run_query(_SCORED, g, Mapper(g), question=question, fallback=fallback)
    assert t.steps[-1].status == "inferred" and t.answer == ["Argo Ader"]
    verdict = judge(t, question)
    assert verdict.label != "verified"
    assert "llm_inferred" in {r.code for r in verdict.reasons}


def test_a_total_asked_sums_and_interleaved_positions_are_not_ordered() -> None:
    """"the total score" sums each operand (noted); row positions that interleave (rows 1, 3
    against rows 2, 4) have no order, so "before" is left to the fallback."""
    g = _graph(_SCORES)
    total = run_query(_SCORED, g, Mapper(g),
                      question="who had the higher total score, argo ader or lauri pedaja?")
    assert total.answer == ["Argo Ader"]
    assert any("the question asks a total ('total'): compare() uses their sum, 74" in n
               for n in total.steps[-1].notes)
    g2 = _graph("Winner\nLions\nBears\nLions\nBears\n")
    rows = run_query(
        "Query1: \"get_information(relation='Winner', tail_entity='Lions')\"\n"
        "Query2: \"get_information(relation='row_number', head_entity='output_of_query1')\"\n"
        "Query3: \"get_information(relation='Winner', tail_entity='Bears')\"\n"
        "Query4: \"get_information(relation='row_number', head_entity='output_of_query3')\"\n"
        "Query5: \"compare(set1='output_of_query2', set2='output_of_query4', op='<')\"",
        g2, Mapper(g2), question="did the lions win before the bears?")
    assert rows.steps[-1].status == "unanswered"
    assert any("interleave" in n for n in rows.steps[-1].notes), rows.steps[-1].notes


_DRIVERS = "Year,Driver,Constructor\n1987,Ayrton Senna,Lotus\n1988,Alain Prost,McLaren\n" \
           "1990,Alain Prost,Ferrari\n1991,Ayrton Senna,McLaren\n"


@pytest.mark.parametrize(("year", "expected"), [("1988", ["McLaren"]), ("1990", ["Ferrari"]),
                                                ("1991", [])])
def test_rows_intersected_with_values_read_off_rows_keep_those_rows_values(
        year: str, expected: list[str]) -> None:
    """``get_information(relation='Constructor', tail_entity='output_of_query1', key='Year',
    value=…)`` over the Prost rows: the Constructor values of the Prost rows of that year
    (stop 23; before, rows and values shared nothing and the step was empty). A year
    without a Prost row stays empty."""
    g = _graph(_DRIVERS)
    q = ("Query1: \"get_information(relation='Driver', tail_entity='Alain Prost')\"\n"
         "Query2: \"get_information(relation='Constructor', tail_entity='output_of_query1', "
         f"key='Year', value='{year}')\"")
    t = run_query(q, g, Mapper(g), question=f"what did prost drive in {year}?")
    assert t.answer == expected
    kept = any("keeps the values of the rows in both" in n for n in t.steps[-1].notes)
    assert kept is bool(expected)
