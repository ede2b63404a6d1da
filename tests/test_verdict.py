"""The trust verdict: one test per reason code, thresholds, recovery, the offline writer that
stops guessing, and the examples under issue #11's "Why" (on data made here)."""

from __future__ import annotations

import dataclasses

import pytest

from trustuqa_core import load_graph, run_query
from trustuqa_core.answer import answer
from trustuqa_core.fallback import FallbackAnswer
from trustuqa_core.recovery import MAX_BINDINGS, run_with_recovery
from trustuqa_core.verdict import (
    REASON_CODES,
    THRESHOLDS,
    Thresholds,
    VoteEvidence,
    judge,
    render_verdict,
)

MEDALS = b"Nation,Gold,Total\nItaly,4,10\nSpain,0,3\nAustria,2,5\n"
SKIERS = (b"Name,Nation,Rank\nTina Maze,Slovenia,1\nMarlies Schild,Austria,2\n"
          b"Julia Mancuso,United States,3\n")
ORDERS = b"OrderID,City,Amount\n1001,Berlin,5\n1002,Berlin,7\n1003,Paris,9\n"
MOVIES = (b"High Anxiety|directed_by|Mel Brooks\nHigh Anxiety|starred_actors|Mel Brooks\n"
          b"High Anxiety|starred_actors|Madeline Kahn\nBlazing Saddles|directed_by|Mel Brooks\n"
          b"Blazing Saddles|starred_actors|Cleavon Little\n"
          b"Memento|directed_by|Christopher Nolan\nInception|directed_by|Christopher Nolan\n"
          b"Dune|written_by|Frank Herbert\n")
CAREERS = (b"Francesco Coco\tmember of sports team\tA.C. Milan\t1995\t2002\n"
           b"Paolo Rossi\tmember of sports team\tJuventus\t1977\t1985\n")
RANKING = b"Rank,Film,Year\n1,Some Like It Hot,1959\n2,Tootsie,1982\n3,Blazing Saddles,1974\n"
STAFF = b"Name,Role\nAnn Lee,Engineer\nBob Stone,Designer\nCid Moss,Manager\n"

#: the rules alone: each code's own rule, as before the calibrated verdict (stop 16), whose
#: combination of the soft codes is tested in test_verdict_calibration.py
RULES = dataclasses.replace(THRESHOLDS, calibrated=False)


def q(*calls: str, target: str | None = None) -> str:
    head = [f"## Target type: {{{target}}}"] if target else []
    return "\n".join(head + [f'Query{i + 1}: "{c}"' for i, c in enumerate(calls)])


def codes(v) -> list[str]:  # noqa: ANN001
    return [r.code for r in v.reasons]


@pytest.fixture(scope="module")
def medals():  # noqa: ANN201
    return load_graph(tables=[MEDALS])


# ------------------------------------------------------------------ one test per reason code
def test_a_clean_answer_is_verified(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity='4')", target="Nation"),
                  medals, question="which nation won 4 gold?")
    v = t.verdict
    assert t.answer == ["Italy"] and v.label == "verified" and v.blocking == ()


def test_no_query(medals) -> None:  # noqa: ANN001
    v = judge(None, "who won?", error="no query could be written")
    assert v.label == "no answer" and codes(v) == ["no_query"]


def test_run_failed(medals) -> None:  # noqa: ANN001
    t = run_query("Query1: get_information(relation='Gold'", medals, question="who?")
    assert t.verdict.label == "no answer" and codes(t.verdict) == ["run_failed"]


def test_empty_answer_points_at_the_step(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity>'20')", target="Nation"),
                  medals, question="which nation won more than 20 gold?")
    r = t.verdict.reasons[0]
    assert t.verdict.label == "no answer" and (r.code, r.step) == ("empty_answer", 1)


def test_unlinked_mention_names_the_words() -> None:
    g = load_graph(tables=[SKIERS])
    # (USA would be linked: the lexicon reads it as United States, a value of the table)
    v = judge(None, "which skiers are from Japan?", error="nothing written", graph=g)
    r = [r for r in v.reasons if r.code == "unlinked_mention"]
    assert [x.arg for x in r] == ["Japan"] and "Japan" in r[0].message


def test_weak_mapping_names_the_runner_up() -> None:
    g = load_graph(tables=[SKIERS])
    t = run_query(q("get_information(relation='Nation', tail_entity='USA')", target="Name"), g,
                  question="which skiers are from USA?")
    weak = [r for r in t.verdict.reasons if r.code == "weak_mapping"]
    assert t.verdict.label == "check"
    assert weak and weak[0].step == 1 and weak[0].arg == "Q1.tail_entity"
    assert "runner-up" in weak[0].message and "margin" in weak[0].message


def test_llm_inferred(medals) -> None:  # noqa: ANN001
    def fallback(request):  # noqa: ANN001, ANN202
        return FallbackAnswer(["Italy"], "LLM-inferred, not verified")

    t = run_query(q("get_information(relation='Nation')", "pick_best(set='output_of_query1')"),
                  medals, fallback=fallback, question="which nation is the best?")
    assert t.answer == ["Italy"]
    r = next(r for r in t.verdict.reasons if r.code == "llm_inferred")
    assert r.step == 2 and t.verdict.label == "check"


def test_unbound_mention_and_no_condition(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Total')", "count(set='output_of_query1')",
                    target="Total"), medals, question="how many medals did Cid win?")
    assert {"unbound_mention", "no_condition"} <= set(t.verdict.blocking)
    assert next(r for r in t.verdict.reasons if r.code == "unbound_mention").arg == "Cid"


def test_column_dump(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Nation')", target="Nation"), medals,
                  question="which nations are listed?")
    assert "column_dump" in t.verdict.blocking and t.verdict.label == "check"


def test_header_condition() -> None:
    g = load_graph(tables=[b"Team,Lost\nReds,2\nBlues,Lost\n"])
    t = run_query(q("get_information(relation='Lost', tail_entity='Lost')", target="Team"), g,
                  question="which team has lost as lost?")
    r = next(r for r in t.verdict.reasons if r.code == "header_condition")
    assert r.arg == "Q1.tail_entity" and t.verdict.label == "check"


def test_id_aggregate_total_amount_summed_the_order_ids() -> None:
    """Why: "total Amount of orders in Berlin" summed the OrderID column."""
    g = load_graph(tables=[ORDERS])
    t = run_query(q("get_information(relation='City', tail_entity='Berlin')",
                    "get_information(relation='OrderID', head_entity='output_of_query1')",
                    "sum(set='output_of_query2')"), g,
                  question="total Amount of orders in Berlin")
    assert t.answer == ["2003"]
    r = next(r for r in t.verdict.reasons if r.code == "id_aggregate")
    assert (r.step, r.arg) == (3, "Q2.relation") and t.verdict.label == "check"
    right = run_query(q("get_information(relation='City', tail_entity='Berlin')",
                        "get_information(relation='Amount', head_entity='output_of_query1')",
                        "sum(set='output_of_query2')"), g,
                      question="total Amount of orders in Berlin")
    assert right.answer == ["12"] and right.verdict.label == "verified"


def test_type_mismatch(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity='4')", target="Nation"),
                  medals, question="how many gold medals did Italy win?")
    assert "type_mismatch" in t.verdict.blocking


def test_unexplained_words_block_from_the_threshold(medals) -> None:  # noqa: ANN001
    text = q("get_information(relation='Gold', tail_entity='4')", target="Nation")
    t = run_query(text, medals, question="which nation with 4 gold has snowy mountain peaks?")
    r = next(r for r in t.verdict.reasons if r.code == "unexplained_words")
    assert set(r.arg.split(", ")) == {"snowy", "mountain", "peaks"}
    assert t.verdict.label == "check"
    lax = judge(t, t.question, thresholds=dataclasses.replace(RULES, max_unexplained=4))
    assert "unexplained_words" not in lax.blocking


def test_llm_written_queries_exempt_the_offline_writer_signals(medals) -> None:  # noqa: ANN001
    text = q("get_information(relation='Gold', tail_entity='4')", target="Nation")
    t = run_query(text, medals, question="which nation with 4 gold has snowy mountain peaks?")
    assert judge(t, t.question).label == "check"
    llm = judge(t, t.question, writer="llm")
    assert llm.label == "verified" and "unexplained_words" in codes(llm)
    g = load_graph(tables=[SKIERS])
    weak = run_query(q("get_information(relation='Nation', tail_entity='USA')", target="Name"),
                     g, question="which skiers are from USA?")
    assert judge(weak, weak.question, writer="llm").label == "check"  # still blocks


def test_target_unnamed(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Nation', tail_entity='Italy')", target="Total"),
                  medals, question="how did Italy do?")
    assert "target_unnamed" in judge(t, t.question, thresholds=RULES).blocking


def test_count_unclear(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Nation', tail_entity='Italy')", target="Gold"),
                  medals, question="how many gold did Italy win?")
    assert t.answer == ["4"] and "count_unclear" in t.verdict.blocking


def test_echoes_question() -> None:
    g = load_graph(kgs=[MOVIES])
    text = q("get_information(relation='starred_actors', tail_entity='Mel Brooks')",
             "get_information(relation='directed_by', head_entity='output_of_query1')")
    t = run_query(text, g, question="which person directed the movies starred by [Mel Brooks]")
    assert "Mel Brooks" in t.answer
    r = next(r for r in t.verdict.reasons if r.code == "echoes_question")
    assert r.arg == "Mel Brooks" and t.verdict.label == "check"


def test_whole_column_aggregate(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Total')", "max(set='output_of_query1')",
                    target="Total"), medals, question="which nation has the highest total?")
    assert {"whole_column_aggregate", "type_mismatch"} <= set(t.verdict.blocking)


def test_comparison_unbound(medals) -> None:  # noqa: ANN001
    asked = "which nation won more than 2 gold?"
    t = run_query(q("get_information(relation='Gold', tail_entity='2')", target="Nation"),
                  medals, question=asked)
    r = next(r for r in t.verdict.reasons if r.code == "comparison_unbound")
    assert r.arg == "more than" and "comparison_unbound" in t.verdict.blocking
    assert "comparison_unbound" not in judge(t, asked, writer="llm").blocking  # LLM-exempt
    bound = run_query(q("get_information(relation='Gold', tail_entity>'2')", target="Nation"),
                      medals, question=asked)
    assert bound.answer == ["Italy"] and "comparison_unbound" not in codes(bound.verdict)


def test_several_rows(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity<'3')", target="Nation"),
                  medals, question="which nation won fewer than 3 gold?")
    assert sorted(t.answer) == ["Austria", "Spain"]
    assert "several_rows" in t.verdict.blocking
    assert "several_rows" in judge(t, t.question, writer="llm",
                                   thresholds=RULES).blocking  # not exempt
    one = run_query(q("get_information(relation='Gold', tail_entity<'1')", target="Nation"),
                    medals, question="which nation won fewer than 1 gold?")
    assert one.answer == ["Spain"] and "several_rows" not in codes(one.verdict)
    g = load_graph(kgs=[MOVIES])  # a KG relation is many-valued by nature
    kg = run_query(q("get_information(relation='directed_by', tail_entity='Christopher Nolan')"),
                   g, question="which films did [Christopher Nolan] direct?")
    assert len(kg.answer) == 2 and "several_rows" not in codes(kg.verdict)


def test_aggregate_of_one(medals) -> None:  # noqa: ANN001
    one = run_query(q("get_information(relation='Nation', tail_entity='Italy')",
                      "get_information(relation='Gold', head_entity='output_of_query1')",
                      "sum(set='output_of_query2')"), medals,
                    question="what is the total gold of Italy?")
    r = next(r for r in one.verdict.reasons if r.code == "aggregate_of_one")
    assert one.answer == ["4"] and r.step == 3 and "aggregate_of_one" in one.verdict.blocking
    two = run_query(q("get_information(relation='Gold', tail_entity<'3')",
                      "get_information(relation='Total', head_entity='output_of_query1')",
                      "sum(set='output_of_query2')"), medals,
                    question="what is the total of the nations with fewer than 3 gold?")
    assert two.answer == ["8"] and "aggregate_of_one" not in codes(two.verdict)


def test_vote_tie_names_both_answers(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity='4')", target="Nation"),
                  medals, question="which nation won 4 gold?")
    v = judge(t, t.question, vote=VoteEvidence(0.5, 2, True, ("Italy", "Spain")))
    r = next(r for r in v.reasons if r.code == "vote_tie")
    assert v.label == "check" and "'Italy'" in r.message and "'Spain'" in r.message
    assert "first" not in r.message


def test_low_agreement_and_single_query(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity='4')", target="Nation"),
                  medals, question="which nation won 4 gold?")
    low = judge(t, t.question, vote=VoteEvidence(0.4, 5))
    assert low.label == "check" and "low_agreement" in low.blocking
    one = judge(t, t.question, vote=VoteEvidence(1.0, 1))
    assert one.label == "verified" and "single_query" in codes(one)  # shown, not blocking


def test_recovered_binding_is_said_and_checked() -> None:
    g = load_graph(tables=[b"Name,Nation,Year\nAnn,Austria,1990\nBea,Australia,2000\n"])
    text = q("get_information(relation='Nation', tail_entity='Austrlia')",
             "get_information(relation='Year', tail_entity='1990')",
             "set_intersection(set1='output_of_query1', set2='output_of_query2')", target="Name")
    plain = run_query(text, g, question="who is from Austrlia in 1990?")
    assert plain.answer == []
    t = run_with_recovery(text, g, question="who is from Austrlia in 1990?")
    assert t.answer == ["Ann"]
    assert [(x.key, x.first, x.chosen) for x in t.recovery] == [
        ("Q1.tail_entity", "Australia", "Austria")]
    r = next(r for r in t.verdict.reasons if r.code == "recovered")
    assert t.verdict.label == "check" and r.step == 1 and "runner-up" in r.message
    assert t.to_dict()["recovery"][0]["chosen"] == "Austria"
    assert int(t.timings["recovery_tries"]) <= MAX_BINDINGS


def test_recovery_keeps_an_empty_run_when_no_binding_answers(medals) -> None:  # noqa: ANN001
    t = run_with_recovery(q("get_information(relation='Gold', tail_entity>'20')"), medals,
                          question="who won more than 20?")
    assert t.answer == [] and t.recovery == []


def test_similar_template_and_user_demo(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity='4')", target="Nation"),
                  medals, question="which nation won 4 gold?")
    sim = judge(t, t.question, note="re-bound demo 'x' (initial), whose template is similar")
    assert "similar_template" in sim.blocking
    user = judge(t, t.question, demo_origins=["user", "initial"])
    assert user.label == "verified" and "user_demo" in codes(user)


def test_every_reason_code_is_documented_and_thresholds_live_in_one_place() -> None:
    assert THRESHOLDS.blocking <= set(REASON_CODES)
    with pytest.raises(dataclasses.FrozenInstanceError):
        THRESHOLDS.min_margin = 0.0  # type: ignore[misc]
    g = load_graph(tables=[SKIERS])
    t = run_query(q("get_information(relation='Nation', tail_entity='USA')", target="Name"), g)
    assert judge(t, None).label == "check"
    assert judge(t, None, thresholds=Thresholds(blocking=frozenset())).label == "verified"


def test_render_and_dict_shape(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Nation')", target="Nation"), medals,
                  question="which nations are listed?")
    d = t.to_dict()
    assert d["verdict"] == "check"
    assert set(d["reasons"][0]) == {"code", "message", "step", "arg"}
    assert render_verdict(t.verdict).startswith("verdict: check\n  - ")


# ------------------------------------------------------------- the offline writer stops guessing
def test_offline_writer_says_which_words_it_could_not_link() -> None:
    """Why: "which skiers are from USA?" gave the Rank column in the green box. (*USA* now
    finds the cell *United States*, stop 20; a country the table lacks is the case here.)"""
    g = load_graph(tables=[SKIERS])
    a = answer("which skiers are from Japan?", g, writer="offline")
    assert a.answer == [] and a.verdict is not None and a.verdict.label == "no answer"
    assert "Japan" in (a.error or "")
    assert [r.arg for r in a.verdict.reasons if r.code == "unlinked_mention"] == ["Japan"]


def test_offline_cid_is_not_in_the_table() -> None:
    """Why: "how many points did Cid score?" (no Cid in the table) gave 16."""
    g = load_graph(tables=[b"Name,Points\nAnn,10\nBea,6\n"])
    a = answer("how many points did Cid score?", g, writer="offline")
    assert a.verdict is not None and a.verdict.label != "verified"
    assert a.answer == [] or "Cid" in a.verdict.headline()


# --------------------------------------------------------------------- the "Why" examples
def _not_verified_unless(a, right: set[str]) -> None:  # noqa: ANN001
    assert a.verdict is not None
    if a.verdict.label == "verified":
        assert set(a.answer) <= right and a.answer, (a.answer, a.verdict)


def test_hand_query_usa_maps_weakly_and_is_not_green() -> None:
    g = load_graph(tables=[SKIERS])
    t = run_query(q("get_information(relation='Nation', tail_entity='USA')", target="Name"), g,
                  question="which skiers are from USA?")
    assert t.answer != ["Julia Mancuso"] or t.verdict.label != "verified"
    assert t.verdict.label == "check"


def test_mixed_sources_who_wrote_dune() -> None:
    g = load_graph(tables=[STAFF], kgs=[MOVIES], tkgs=[CAREERS])
    a = answer("who wrote Dune?", g, writer="offline")
    _not_verified_unless(a, {"Frank Herbert"})
    assert not set(a.answer) & {"Ann Lee", "Bob Stone", "Cid Moss"} or a.verdict.label != \
        "verified"


def test_mixed_sources_milan_players_and_nolan_films() -> None:
    g = load_graph(tables=[RANKING], kgs=[MOVIES], tkgs=[CAREERS])
    milan = answer("Which A.C. Milan players were at the club in 2000?", g, writer="offline")
    _not_verified_unless(milan, {"Francesco Coco"})
    nolan = answer("which films did Christopher Nolan direct?", g, writer="offline")
    _not_verified_unless(nolan, {"Memento", "Inception"})


def test_tie_is_shown_as_a_tie() -> None:
    g = load_graph(tables=[RANKING], kgs=[MOVIES])
    a = answer("which films did Christopher Nolan direct?", g, writer="offline")
    if a.tie:
        assert a.verdict is not None and a.verdict.label == "check"
        assert len(a.tied) >= 2 and "vote_tie" in a.verdict.blocking


def test_first_hop_is_not_verified_for_a_two_hop_question() -> None:
    """Why: "which actors starred in films directed by Mel Brooks?" gave the films."""
    g = load_graph(kgs=[MOVIES])
    a = answer("which actors starred in films directed by Mel Brooks?", g, writer="offline")
    _not_verified_unless(a, {"Madeline Kahn", "Cleavon Little", "Mel Brooks"})
    films = run_query(q("get_information(relation='directed_by', tail_entity='Mel Brooks')"), g,
                      question="which actors starred in films directed by Mel Brooks?")
    assert films.verdict.label != "verified"


def test_a_demonym_is_bound_by_its_country_and_is_in_the_data() -> None:
    """Found in the browser: 'German skiers' answered with Nation='Germany' was marked
    'the query does not use German'. A demonym counts as bound by (and present as) its country."""
    graph = load_graph(tables=[b"Name,Nation,Run 1\nAnn,Germany,1:08.04\nBea,Italy,1:09.00\n"
                               b"Cid,Germany,1:08.94\n"])
    q = ("Query1: \"get_information(relation='Nation', tail_entity='Germany')\"\n"
         "Query2: \"get_information(relation='Run 1', head_entity='output_of_query1')\"")
    trace = run_query(q, graph)
    verdict = judge(trace, "what were the Run 1 times of the German skiers?", graph=graph)
    assert "unbound_mention" not in {r.code for r in verdict.reasons}
    assert sorted(trace.answer) == ["1:08.04", "1:08.94"]
    empty = run_query("Query1: \"get_information(relation='Nation', tail_entity='Spain')\"", graph)
    none = judge(empty, "which German skiers were from Spain?", graph=graph)
    assert none.label == "no answer"
    assert "German" not in {r.arg for r in none.reasons if r.code == "unlinked_mention"}


# ------------------------------------------------- question cues the query must explain
SAMPLES = __import__("pathlib").Path(__file__).resolve().parents[1] / "sample_data"


def test_first_copley_winner_on_the_cross_sample_is_not_verified() -> None:
    """Found by hand: the comedy table + movie KG + careers TKG, offline writer, "who was the
    first winner of the Copley Medal?" listed all six winners as verified (the unexplained
    'first' was one word, below ``max_unexplained``)."""
    g = load_graph(tables=[SAMPLES / "comedy_ranking.csv"], kgs=[SAMPLES / "movies_kg.txt"],
                   tkgs=[SAMPLES / "cron_tkg.tsv"])
    a = answer("who was the first winner of the Copley Medal?", g, writer="offline")
    _not_verified_unless(a, {"Alexander von Humboldt"})
    if len(set(a.answer)) > 1:
        assert a.verdict is not None and "many_for_one" in a.verdict.blocking
        assert "first" in a.verdict.headline()


def test_an_unexplained_ordinal_blocks_on_its_own(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity='4')", target="Nation"),
                  medals, question="which nation was the first to win 4 gold?")
    v = t.verdict
    assert t.answer == ["Italy"] and v.label == "check"
    assert [r.arg for r in v.reasons if r.code == "unexplained_cue"] == ["first"]
    assert ("unexplained_cue", None) in [(r.code, r.step) for r in v.reasons]


def test_an_explained_superlative_stays_verified(medals) -> None:  # noqa: ANN001
    t = run_query(q("get_information(relation='Gold', tail_entity>='highest')", target="Nation"), medals,
                  question="which nation won the highest gold?")
    assert t.answer == ["Italy"], t.answer
    # the rules: one unexplained word ('won') passes them; the calibrated estimate (stop 17:
    # threshold 0.88) holds that word back, which is not what this test is about
    v = judge(t, t.question, thresholds=RULES)
    assert v.label == "verified", v
    assert {"unexplained_cue", "many_for_one"}.isdisjoint(codes(t.verdict))


def test_many_for_one_names_the_cue_and_the_count() -> None:
    g = load_graph(tkgs=[SAMPLES / "cron_tkg.tsv"])
    t = run_query(q("get_information(head_entity='Copley Medal', relation='winner')"), g,
                  question="who was the earliest winner of the Copley Medal?")
    reasons = [r for r in t.verdict.reasons if r.code == "many_for_one"]
    assert len(set(t.answer)) == 6 and t.verdict.label == "check"
    assert reasons and reasons[0].arg == "earliest" and "6 values" in reasons[0].message


def test_the_asked_for_single_winner_is_verified() -> None:
    g = load_graph(tkgs=[SAMPLES / "cron_tkg.tsv"])
    sample = next(x for x in __import__("json").loads("[" + ",".join(
        (SAMPLES / "questions.jsonl").read_text().splitlines()) + "]")
        if x["question"] == "who was the first winner of the Copley Medal?")
    t = run_query(sample["query"], g, question=sample["question"])
    assert t.answer == ["Alexander von Humboldt"]
    assert t.verdict.label == "verified", t.verdict


def test_an_ordinal_cell_value_explains_the_ordinal_word() -> None:
    g = load_graph(tables=[b"Driver,Place\nAnn,1st\nBea,2nd\n"])
    t = run_query(q("get_information(relation='Place', tail_entity='1st')", target="Driver"),
                  g, question="which driver finished first?")
    assert t.answer == ["Ann"] and "unexplained_cue" not in codes(t.verdict)


def test_focus_unexplained_how_many_caps_counted_rows() -> None:
    """WikiSQL tune half: "... has how many Caps?" was answered by counting rows (1)."""
    g = load_graph(tables=[b"Player,Position,Caps\nPaddy Wallace,Fly-half,9\nAnn Lee,Wing,3\n"])
    t = run_query(q("get_information(relation='Player', tail_entity='Paddy Wallace')",
                    "count(set='output_of_query1')"), g,
                  question="How many caps did Paddy Wallace win?")
    assert t.answer == ["1"]
    assert [r.arg for r in t.verdict.reasons if r.code == "focus_unexplained"] == ["caps"]
    # shown, not blocking: on WikiSQL's tune half it cost 40 right answers for 11 wrong ones
    assert "focus_unexplained" not in t.verdict.blocking
    right = run_query(q("get_information(relation='Player', tail_entity='Paddy Wallace')",
                        "get_information(relation='Caps', head_entity='output_of_query1')"), g,
                      question="How many caps did Paddy Wallace win?")
    assert right.answer == ["9"] and "focus_unexplained" not in codes(right.verdict)


def test_placeholder_answer() -> None:
    g = load_graph(tables=[b"Member,Week\nAnn,n/a\nBea,3\n"])
    t = run_query(q("get_information(relation='Member', tail_entity='Ann')",
                    "get_information(relation='Week', head_entity='output_of_query1')"), g,
                  question="what week did Ann leave?")
    assert t.answer == ["n/a"] and "placeholder_answer" in codes(t.verdict)
    # shown, not blocking by its rule: WikiSQL's tune half counts 'N/A' read from a cell as
    # right (the calibrated estimate weighs it with the rest: stop 17's threshold 0.88 lists
    # it under low_estimate here)
    assert "placeholder_answer" not in judge(t, t.question, thresholds=RULES).blocking


def test_target_sibling_away_team_read_from_away_team_score() -> None:
    g = load_graph(tables=[b"Home team,Home team score,Away team,Away team score\n"
                           b"Geelong,10.8 (68),St Kilda,8.16 (64)\n"
                           b"Carlton,9.9 (63),Essendon,7.7 (49)\n"])
    question = "What was the away team when the home team scored 10.8 (68)?"
    wrong = run_query(q("get_information(relation='Home team score', tail_entity='10.8 (68)')",
                        "get_information(relation='Away team score', "
                        "head_entity='output_of_query1')", target="Away team score"), g,
                      question=question)
    assert wrong.answer == ["8.16 (64)"] and "target_sibling" in wrong.verdict.blocking
    right = run_query(q("get_information(relation='Home team score', tail_entity='10.8 (68)')",
                        "get_information(relation='Away team', head_entity='output_of_query1')",
                        target="Away team"), g, question=question)
    assert right.answer == ["St Kilda"] and "target_sibling" not in codes(right.verdict)


def test_most_frequent_accounts_for_most() -> None:
    g = load_graph(tables=[SAMPLES / "giant_slalom.csv"])
    a = answer("which nation had the most skiers in the top twenty?", g, writer="offline")
    assert a.verdict is not None and "unexplained_cue" not in codes(a.verdict)


def test_a_count_of_names_does_not_depend_on_the_target_mapping() -> None:
    """WikiSQL tune half: 'How many schools did player number 3 play at?' counted the rows
    and was amber only because the target 'number of School' mapped fuzzily."""
    g = load_graph(tables=[b"Player,No.,School,Points\nAnn,3,Duke,10\nBea,4,Yale,12\n"])
    text = "\n".join(["## Target type: {number of School}",
                      "Query1: \"get_information(relation='No.', tail_entity='3')\"",
                      "Query2: \"count(set='output_of_query1')\""])
    t = run_query(text, g, question="How many schools did player number 3 play at?")
    assert t.answer == ["1"] and t.target is not None and t.target.method == "fuzzy"
    assert "weak_mapping" not in codes(t.verdict)
    numbers = text.replace("number of School", "number of Points")
    n = run_query(numbers, g, question="How many points did player number 3 score?")
    assert "weak_mapping" in n.verdict.blocking  # 'how many points' may ask for the value


def test_a_number_inside_a_cell_literal_is_bound() -> None:
    g = load_graph(tables=[b'Team,Location Attendance\nDetroit,"Philips Arena 18,227"\n'
                           b'Boston,"TD Garden 18,624"\n'])
    t = run_query(q("get_information(relation='Location Attendance', "
                    "tail_entity='Philips Arena 18,227')", target="Team"), g,
                  question="What is the team located at philips arena 18,227?")
    assert t.answer == ["Detroit"] and "unbound_mention" not in codes(t.verdict)


def test_who_answered_by_a_date_is_a_type_mismatch() -> None:
    g = load_graph(tables=[b"Husband,Became Dauphine,Ceased to be Dauphine\n"
                           b"Louis,14 February 1451,22 July 1461\n"])
    question = "who is the husband when ceased to be dauphine is 22 july 1461?"
    wrong = run_query(q("get_information(relation='Ceased to be Dauphine', "
                        "tail_entity='22 July 1461')",
                        "get_information(relation='Became Dauphine', "
                        "head_entity='output_of_query1')"), g, question=question)
    assert wrong.answer == ["14 February 1451"] and "type_mismatch" in wrong.verdict.blocking
    right = run_query(q("get_information(relation='Ceased to be Dauphine', "
                        "tail_entity='22 July 1461')",
                        "get_information(relation='Husband', head_entity='output_of_query1')"),
                      g, question=question)
    assert right.answer == ["Louis"] and "type_mismatch" not in codes(right.verdict)


def test_when_as_a_condition_asks_with_its_later_clause() -> None:
    g = load_graph(tables=[b"No. in series,Director\n1,Peter Lydon\n2,Ann Lee\n"])
    t = run_query(q("get_information(relation='No. in series', tail_entity='1')",
                    "get_information(relation='Director', head_entity='output_of_query1')"), g,
                  question="When 1 is the number in series who is the director?")
    assert t.answer == ["Peter Lydon"] and "type_mismatch" not in codes(t.verdict)


def test_a_cue_inside_a_name_asks_for_nothing() -> None:
    """MetaQA names films 'The Last Run' or 'The Fastest Gun Alive': the cue is part of the
    name, so several answers are not 'many for one' (bracketed or, as a literal, unbracketed)."""
    g = load_graph(kgs=[b"The Last Run|starred_actors|George C. Scott\n"
                        b"The Last Run|starred_actors|Tony Musante\n"])
    for question in ("who acted in [The Last Run]", "who acted in the Last Run"):
        t = run_query(q("get_information(head_entity='The Last Run', relation='starred_actors')"),
                      g, question=question)
        assert len(t.answer) == 2, question
        assert {"many_for_one", "unexplained_cue"}.isdisjoint(codes(t.verdict)), question
