"""Writers: template re-binding, table schema linking, LLM writer messages."""

from __future__ import annotations

import socket

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.demos import Demo, DemoPool, Retrieved, initial_demos
from trustuqa_core.execute import run_query
from trustuqa_core.llm.prompts import describe_schema
from trustuqa_core.llm.settings import LLMSettings
from trustuqa_core.mapping import HashingEncoder, Mapper
from trustuqa_core.query import parse, render_program
from trustuqa_core.writers import (
    LLMWriter,
    OfflineWriter,
    WriteRequest,
    link_table,
    make_template,
    plan_program,
    rebind,
)
from trustuqa_core.writers.templates import mentions

KG = (b"Kismet|directed_by|William Dieterle\nJuarez|directed_by|William Dieterle\n"
      b"Dark Victory|directed_by|Edmund Goulding\nDark Victory|starred_actors|Bette Davis\n"
      b"Juarez|starred_actors|Bette Davis\nJuarez|release_year|1939\n"
      b"Dark Victory|release_year|1939\nKismet|release_year|1944\n")
PLAYERS = (b"Player,No.,Nationality,Position,Years in Toronto,School/Club Team,Points\n"
           b"Antonio Lang,21,United States,Guard-Forward,1999-2000,Duke,10\n"
           b"Voshon Lenard,2,United States,Guard,2002-03,Minnesota,32\n"
           b"Martin Lewis,32,United States,Guard-Forward,1996-97,Butler CC (KS),5\n"
           b"Brad Lohaus,33,United States,Forward-Center,1996,Iowa,12\n")


def executed(plan, graph) -> list[str]:  # noqa: ANN001
    """The answer of the program the linker wrote for ``plan`` (empty when it wrote none)."""
    built = plan_program(plan)
    return run_query(render_program(built) if built is not None else "", graph).answer


def linked_answer(question: str, graph) -> list[str]:  # noqa: ANN001
    return executed(link_table(question, graph), graph)


@pytest.fixture(scope="module")
def pool() -> DemoPool:
    return DemoPool(initial_demos(), HashingEncoder(), cache_dir=None)


# -- templates ---------------------------------------------------------------------------
def test_template_swaps_every_occurrence_and_keeps_apostrophes() -> None:
    program = parse("Step1: Find the writer of [I Can't Sleep]\n"
                    "Query1: \"get_information(relation='written_by', head_entity='I Can't Sleep')\"\n"
                    "Query2: \"get_information(relation='written_by', tail_entity='output_of_query1')\"\n"
                    "Query3: \"set_difference(set1='output_of_query2', set2='I Can't Sleep')\"")
    t = make_template("who wrote the films of the writer of [I Can't Sleep]", program)
    assert t is not None and t.key == "who wrote the films of the writer of {}"
    values = t.match("Who wrote the films of the writer of [Some Mother's Son]?")
    assert values == ("Some Mother's Son",)
    text = render_program(rebind(t, values))
    assert text.count("Some Mother's Son") == 3 and "Sleep" not in text
    assert parse(text).query(3).call.args[1].value.value == "Some Mother's Son"


def test_template_rejects_other_questions_and_keeps_constants() -> None:
    program = parse("Query1: \"get_information(relation='row_number', tail_entity='1')\"\n"
                    "Query2: \"get_information(relation='Nation', head_entity='output_of_query1')\"")
    assert make_template("which nation is on top?", program) is None  # no literal in it
    t = make_template("who directed [Kismet]", parse(
        "Query1: \"get_information(relation='directed_by', head_entity='Kismet')\""))
    assert t is not None
    assert t.match("who wrote [Kismet]") is None
    assert t.match("who directed") is None


def test_mentions_find_bracketed_spans_or_graph_entities() -> None:
    graph = load_graph(kgs=[KG])
    entities = Mapper(graph).entities
    assert mentions("who directed [Dark Victory]?", entities) == [
        ("who directed {}", ("Dark Victory",))]
    found = dict(mentions("which films with bette davis were directed by william dieterle",
                          entities))
    assert found["which films with {} were directed by {}"] == ("bette davis", "william dieterle")


# -- offline writer ------------------------------------------------------------------------
def test_offline_writer_rebinds_a_kg_demo(pool: DemoPool) -> None:
    graph = load_graph(kgs=[KG])
    result = answer("which films did [Edmund Goulding] direct?", graph, writer="offline",
                    demos=pool)
    assert result.answer == ["Dark Victory"] and result.writer == "offline"
    assert "re-bound demo 'which films did [William Dieterle] direct?'" in result.prompt
    assert "'William Dieterle' -> 'Edmund Goulding'" in result.samples[0].note


def test_offline_writer_uses_a_similar_template_when_none_matches(pool: DemoPool) -> None:
    graph = load_graph(kgs=[KG])
    # "make" names no relation, so graph linking has nothing and a similar template is used
    result = answer("what films did [Edmund Goulding] make", graph, writer="offline",
                    demos=pool)
    assert result.answer == ["Dark Victory"]
    assert "whose template is similar" in result.samples[0].note
    # a question that names the relation is linked before any merely similar template
    linked = answer("what films did [Edmund Goulding] direct", graph, writer="offline",
                    demos=pool)
    assert linked.answer == ["Dark Victory"]
    assert "knowledge-graph linking" in linked.samples[0].note


def test_offline_writer_never_uses_the_question_itself() -> None:
    own = Demo("who directed [Juarez]?", "Query1: \"get_information(relation='release_year', "
               "head_entity='Juarez')\"", (), "kg", "bench:train")  # deliberately wrong
    pool = DemoPool([*initial_demos(), own], HashingEncoder(), cache_dir=None)
    result = answer("Who directed [Juarez]?", load_graph(kgs=[KG]), writer="offline",
                    demos=pool)
    assert result.answer == ["William Dieterle"]
    assert all("bench:train" not in s.note for s in result.samples)


def test_demos_sharing_a_template_outvote_a_wrong_one() -> None:
    def demo(topic: str, relation: str) -> Demo:
        return Demo(f"who directed [{topic}]?", f"Query1: \"get_information(relation="
                    f"'{relation}', head_entity='{topic}')\"", (), "kg", "bench:train")

    wrong = demo("Juarez 2", "release_year")  # the most similar to the question below
    pool = DemoPool([wrong, demo("Kismet", "directed_by"), demo("Dark Victory", "directed_by")],
                    HashingEncoder(), cache_dir=None)
    result = answer("who directed [Juarez]?", load_graph(kgs=[KG]), writer="offline",
                    demos=pool, n=1)
    assert result.demos[0].demo is wrong  # retrieval alone would have used it
    assert result.answer == ["William Dieterle"]
    assert "2 of 3 matching demos write this program" in result.samples[0].note


def test_offline_writer_respects_excluded_origins() -> None:
    scored = Demo("who wrote [Juarez]?", "Query1: \"get_information(relation='directed_by', "
                  "head_entity='Juarez')\"", (), "kg", "bench:dev")
    pool = DemoPool([scored], HashingEncoder(), cache_dir=None)
    graph = load_graph(kgs=[KG])
    used = answer("who wrote [Kismet]?", graph, writer="offline", demos=pool)
    assert used.answer == ["William Dieterle"]  # the (wrong) demo was used: proves the setup
    hidden = answer("who wrote [Kismet]?", graph, writer="offline", demos=pool,
                    exclude_origins=("bench:dev",))
    assert hidden.answer == [] and "no query could be written" in (hidden.error or "")


def test_offline_writer_makes_no_network_call(pool: DemoPool, monkeypatch) -> None:
    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("the offline writer opened a connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    graph = load_graph(tables=[PLAYERS])
    result = answer("What school did player number 21 play for?", graph, writer="offline",
                    demos=pool)
    assert result.answer == ["Duke"]


def test_offline_writer_retries_move_to_further_candidates(pool: DemoPool) -> None:
    graph = load_graph(tables=[PLAYERS])
    request = WriteRequest("what position does Brad Lohaus play?", graph, Mapper(graph),
                           describe_schema(graph), [], pool)
    writer = OfflineWriter()
    everything = writer.candidates(request)
    first, second = writer.write(request, 1, 0), writer.write(request, 1, 1)
    assert first.texts == [render_program(everything[0][0])]
    assert second.texts == [render_program(p) for p, _ in everything[1:2]]
    assert "offline writer (no LLM was called)" in str(first.prompt)


# -- table schema linking -------------------------------------------------------------------
@pytest.mark.parametrize(("question", "select", "agg", "conds", "answer_"), [
    ("What position does the player who played for butler cc (ks) play?", "Position", "",
     [("School/Club Team", "=", "Butler CC (KS)")], ["Guard-Forward"]),
    ("How many players scored more than 10 points?", "Player", "count",
     [("Points", ">", "10")], ["2"]),
    ("What is the average points of players from the United States?", "Points", "mean",
     [("Nationality", "=", "United States")], ["14.75"]),
    ("Who is the player that wears number 33?", "Player", "", [("No.", "=", "33")],
     ["Brad Lohaus"]),
    ("What is the highest number of points for a guard?", "Points", "max",
     [("Position", "=", "Guard")], ["32"]),
    # a demonym finds the country's cells
    ("How many Americans scored more than 10 points?", "Player", "count",
     [("Points", ">", "10"), ("Nationality", "=", "United States")], ["2"]),
    # "top three" / "first 3": the rows up to that position
    ("What is the lowest number of points among the top three?", "Points", "min",
     [("row_number", "<=", "3")], ["5"]),
])
def test_schema_linking(question: str, select: str, agg: str, conds: list, answer_: list) -> None:
    graph = load_graph(tables=[PLAYERS])
    plan = link_table(question, graph)
    assert (plan.select, plan.agg) == (select, agg)
    assert [(c.column, c.cmp, c.value) for c in plan.conds] == conds
    assert executed(plan, graph) == answer_


def test_top_n_that_is_a_cell_value_stays_a_value() -> None:
    graph = load_graph(tables=[b"Week,Theme,Result\nTop 10,1960s,Eliminated\n"
                               b"Top 3,Billboard,Advanced\n"])
    plan = link_table("What was the result of the Top 3 week?", graph)
    assert [(c.column, c.cmp, c.value) for c in plan.conds] == [("Week", "=", "Top 3")]
    assert executed(plan, graph) == ["Advanced"]


MEDALS = b"Nation,Gold,Silver\nItaly,3,16\nSpain,5,2\nItaly,1,1\nKenya,0,4\nPeru,2,9\n"


@pytest.mark.parametrize(("question", "ranking", "answer_"), [
    # the asked-for column is named (or a synonym of it), another numeric one is compared
    ("which nation won the most silver medals?", ("extreme", "Silver"), ["Italy"]),
    ("what country won the fewest gold medals?", ("extreme", "Gold"), ["Kenya"]),
    # conditions first, then the top-ranked rows among them
    ("which nation won more than 1 gold and the most silver?", ("extreme", "Silver"),
     ["Italy"]),
    ("which nation with more than 2 gold won the least silver?", ("extreme", "Silver"),
     ["Spain"]),
    # no other column: the most frequent value
    ("which nation has the most entries?", ("frequent", "Nation"), ["Italy"]),
    # the extreme value itself is asked for: no ranking
    ("what is the highest number of silver medals?", None, ["16"]),
])
def test_schema_linking_ranks_rows(question: str, ranking, answer_: list) -> None:
    graph = load_graph(tables=[MEDALS])
    plan = link_table(question, graph)
    assert plan.ranking == ranking
    assert executed(plan, graph) == answer_


@pytest.mark.parametrize(("question", "answer_"), [
    ("who won the first championship?", ["Ann"]),
    ("who was the last champion in paris?", ["Cid"]),
    ("who won in 1995?", ["Bob"]),  # no order word: the rows the conditions find
])
def test_first_and_last_follow_the_row_order(question: str, answer_: list) -> None:
    graph = load_graph(tables=[b"Year,Champion,Venue\n1994,Ann,Paris\n1995,Bob,Rome\n"
                               b"1996,Cid,Paris\n"])
    assert linked_answer(question, graph) == answer_


@pytest.mark.parametrize(("question", "answer_"), [
    ("what season has the most goals?", ["2005"]),  # not the Total row
    ("how many seasons are listed?", ["3"]),
    ("what is the average number of goals?", ["5.333333333"]),
    ("how many goals in total?", ["16"]),  # the question asks for the Total row itself
    ("how many goals in 2005?", ["9"]),  # "how many <column>" of one row: read the number
    ("how many seasons had between 3 and 10 goals?", ["2"]),
    ("how many seasons had at least 5 goals?", ["2"]),
])
def test_summary_rows_and_comparisons(question: str, answer_: list) -> None:
    graph = load_graph(tables=[b"Season,Goals,Apps\n2004,5,20\n2005,9,30\n2006,2,11\n"
                               b"Total,16,61\n"])
    assert linked_answer(question, graph) == answer_


@pytest.mark.parametrize(("question", "answer_"), [
    ("who scored more points, larry johnson or charlie ward?", ["Larry Johnson"]),
    ("who scored fewer points, larry johnson or charlie ward?", ["Charlie Ward"]),
    ("which player came later, larry johnson or charlie ward?", ["Charlie Ward"]),
    ("how many points did larry johnson or charlie ward score?", ["645", "433"]),
    ("who played after larry johnson?", ["Charlie Ward"]),
    ("which player is listed before al bo?", ["Charlie Ward"]),
    ("who played after 1992?", ["Larry Johnson", "Charlie Ward"]),  # a comparison, no row
])
def test_choices_between_rows_and_neighbouring_rows(question: str, answer_: list) -> None:
    graph = load_graph(tables=[b"Player,Points,Year\nLarry Johnson,645,1993\n"
                               b"Charlie Ward,433,1995\nAl Bo,12,1990\n"])
    assert linked_answer(question, graph) == answer_


@pytest.mark.parametrize(("question", "answer_"), [
    ("What was the record after the game against Washington?", ["21-15"]),  # that game's
    ("what team came next after washington?", ["Utah"]),
    ("what was the next record after game 37?", ["22-15"]),
])
def test_after_means_the_next_row_only_for_the_same_kind(question: str, answer_: list) -> None:
    graph = load_graph(tables=[b"Game,Team,Record\n36,Boston,20-15\n37,Washington,21-15\n"
                               b"38,Utah,22-15\n"])
    assert linked_answer(question, graph) == answer_


def test_a_column_named_with_a_modifier_is_still_the_focus() -> None:
    graph = load_graph(tables=[b"Round,First leg,Second leg\nSemi-final,1-0 (a),1-1 (h)\n"])
    plan = link_table("What was the first leg of the semi-final?", graph)
    assert plan.select == "First leg" and plan.ranking is None


def test_cell_values_are_found_in_another_word_form() -> None:
    graph = load_graph(tables=[b"Outcome,Year\nWinner,1990\nRunner-up,1991\nWinner,1992\n"])
    plan = link_table("how many winners are there?", graph)
    assert [(c.column, c.value) for c in plan.conds] == [("Outcome", "Winner")]
    assert executed(plan, graph) == ["2"]


MOVIES = (b"Young Frankenstein|starred_actors|Gene Wilder\nYoung Frankenstein|directed_by|Mel Brooks\n"
      b"Blazing Saddles|directed_by|Mel Brooks\nBlazing Saddles|has_genre|Western\n")
EVENTS = (b"Mel Brooks\taward received\tGrammy Award\t2002\t2002\n"
       b"Ann Lee\tposition held\tMayor\t1958\t1963\nAnn Lee\tposition held\tSenator\t1964\t1970\n"
       b"Bo Ray\tmember of sports team\tA.C. Milan\t1995\t2002\n"
       b"Cy Dee\tmember of sports team\tA.C. Milan\t2003\t2005\n")


@pytest.mark.parametrize(("source", "question", "answer_"), [
    ("kg", "who acted in Young Frankenstein?", ["Gene Wilder"]),
    ("kg", "which films did Mel Brooks direct?", ["Young Frankenstein", "Blazing Saddles"]),
    ("kg", "what genres are the films directed by Mel Brooks?", ["Western"]),  # two hops
    ("tkg", "when did Mel Brooks receive the Grammy Award?", ["2002"]),
    ("tkg", "which position did Ann Lee hold in 1961?", ["Mayor"]),
    ("tkg", "who played for A.C. Milan in 2002?", ["Bo Ray"]),
])
def test_offline_writer_links_kg_questions_without_a_template(source: str, question: str,
                                                               answer_: list) -> None:
    graph = load_graph(**{f"{source}s": [MOVIES if source == "kg" else EVENTS]})
    pool = DemoPool([], HashingEncoder(), cache_dir=None)  # no demo to re-bind
    result = answer(question, graph, writer="offline", mapper=Mapper(graph), demos=pool)
    assert result.answer == answer_
    assert "knowledge-graph linking" in result.samples[0].note


# -- LLM writer ------------------------------------------------------------------------------
class StubClient:
    """Stands in for LLMClient: records the messages, returns canned texts."""

    def __init__(self, texts: list[str]) -> None:
        self.settings = LLMSettings("http://127.0.0.1:9/v1", "stub-model")
        self.texts = texts
        self.sent: list[list[dict[str, str]]] = []

    def complete(self, messages, n=1, temperature=None):  # noqa: ANN001, ANN201
        self.sent.append(messages)
        return self.texts[:n]


def test_llm_writer_messages_have_demos_schema_and_retry_note(pool: DemoPool) -> None:
    graph = load_graph(tables=[PLAYERS])
    question = "Who wears number 2?"
    got = pool.retrieve(question, k=2, m=5, kinds=("table",))
    request = WriteRequest(question, graph, Mapper(graph), describe_schema(graph, question),
                           got.demos, pool)
    client = StubClient(["x", "y"])
    writer = LLMWriter(client)  # type: ignore[arg-type]
    assert writer.name == "llm:stub-model"
    written = writer.write(request, 2)
    msgs = written.prompt
    assert written.texts == ["x", "y"] and client.sent == [msgs]
    assert [m["role"] for m in msgs] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert msgs[-1]["content"].endswith("Question: Who wears number 2?")
    assert "Columns (name: example value)" in msgs[-1]["content"]
    assert msgs[-2]["content"] == got.demos[0].demo.query  # most similar demo last
    assert "Table medals.csv" in msgs[1]["content"] or "Table races.csv" in msgs[1]["content"]
    retry = writer.messages(request, attempt=1, failed_stage="map")
    assert "Attempt 2" in retry[-1]["content"] and "map stage" in retry[-1]["content"]


def test_retrieved_demos_keep_their_order() -> None:
    # Three demos stored far-first. By shared words with the question: the first repeats all of
    # it plus "in 1990", the second shares "how many ... medals", the third no content word.
    # Retrieval must return them best first, whatever the pool order.
    def demo(question: str) -> Demo:
        return Demo(question, "Query1: \"count(set='x')\"", (), "table", "bench:train")

    far, mid, near = (demo("who directed the film heat?"), demo("how many medals were won?"),
                      demo("how many gold medals did spain win in 1990?"))
    got = DemoPool([far, mid, near], HashingEncoder(), cache_dir=None).retrieve(
        "how many gold medals did spain win?", k=3, verify=False, fill=False)
    assert [r.demo for r in got.demos] == [near, mid, far]
    sims = [r.similarity for r in got.demos]
    assert sims[0] > sims[1] > sims[2]
    assert all(isinstance(r, Retrieved) and r.how == "retrieved" for r in got.demos)
