"""The trust loop: after one thumbs-up, same-template questions over other columns, entities
and ranking directions are answered by the re-bound confirmed query (issue 15).

Expected answers are computed from the CSV with pandas, not written into the test.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import pytest

from trustuqa_core import load_graph
from trustuqa_core.app_services.ask import ask, bundled_demos
from trustuqa_core.app_services.runs import execute_text, shaped_by_text
from trustuqa_core.app_services.samples import SAMPLE_DIR
from trustuqa_core.demos import DemoPool, confirm_demo, initial_demos, with_demos
from trustuqa_core.mapping import HashingEncoder
from trustuqa_core.mapping.mapper import Mapper
from trustuqa_core.query import parse, render_program
from trustuqa_core.store import GraphStore
from trustuqa_core.writers.confirmed import column_named, rebind_confirmed

SLALOM = SAMPLE_DIR / "giant_slalom.csv"


def _argext(column: str, how: str, frame: pd.DataFrame) -> list[str]:
    values = pd.to_numeric(frame[column], errors="coerce")
    best = values.max() if how == "highest" else values.min()
    return sorted(frame.loc[values == best, "Name"].astype(str))


def _extreme_query(column: str, func: str = "max") -> str:
    return ("## Target type: {Name}\n"
            f"Step1: Get every {column}\nQuery1: \"get_information(relation='{column}')\"\n"
            f"Step2: Find the largest {column}\nQuery2: \"{func}(set='output_of_query1')\"\n"
            f"Step3: Find the rows whose {column} is output_of_query2\n"
            f"Query3: \"get_information(relation='{column}', tail_entity='output_of_query2')\"\n"
            "Step4: Get the Name of those rows\n"
            "Query4: \"get_information(relation='Name', head_entity='output_of_query3')\"")


@pytest.fixture(scope="module")
def base_pool() -> DemoPool:
    """The pool every session shares (no user demo in it)."""
    return DemoPool(initial_demos() + bundled_demos(), HashingEncoder())


def _confirm(question: str, query: str, graph: GraphStore, mapper: Mapper,
             pool: DemoPool) -> DemoPool:
    """A thumbs-up in one session: the run is re-executed and kept in that session's pool."""
    run = execute_text(query, graph, mapper, origin="edited", question=question)
    assert run.answer, run.trace.error
    return with_demos(pool, [confirm_demo(question, query, run.answer, graph, "table",
                                          mapper=mapper)])


def _ask(question: str, graph: GraphStore, mapper: Mapper, pool: DemoPool,
         confirmed: Sequence[dict[str, object]] = ()) -> tuple[str, list[str], list[str]]:
    run, _ = ask(question, graph, mapper, loaded={s.name for s in graph.sources},
                 demos=pool, writer="offline", confirmed=confirmed)
    assert run is not None
    return run.origin, sorted(run.answer), run.shaped_by


SAME_TEMPLATE = [("Who had the lowest bib?", "Bib", "lowest"),
                 ("Who had the highest run 1 rank?", "Run 1 rank", "highest"),
                 ("who had the lowest Run 2 rank", "Run 2 rank", "lowest"),
                 ("Who had the highest number of bib?", "Bib", "highest")]


def test_one_thumbs_up_answers_same_template_questions_on_bundled_data(
        base_pool: DemoPool) -> None:
    graph = load_graph(tables=[SLALOM])
    mapper = Mapper(graph, encoder=None)
    frame = pd.read_csv(SLALOM, dtype=str)
    confirmed = "Who had the highest bib?"
    mine = _confirm(confirmed, _extreme_query("Bib"), graph, mapper, base_pool)
    rebound = 0
    for question, column, how in SAME_TEMPLATE:
        origin, got, shaped = _ask(question, graph, mapper, mine)
        if origin == "rebound" and got == _argext(column, how, frame):
            assert shaped == [confirmed]
            rebound += 1
    assert rebound >= 3, f"only {rebound} of 4 answered by the re-bound confirmed query"
    # another session (the shared pool, no sharing enabled) does not see this session's demo
    others = [_ask(q, graph, mapper, base_pool)[0] for q, _, _ in SAME_TEMPLATE]
    assert "rebound" not in others


STAFF = (b"Name,Salary,Projects,Office\nAnn Roe,50000,3,Oslo\nBob Sy,45000,7,Rome\n"
         b"Cid Ota,62000,2,Oslo\nDee Park,48000,5,Rome\n")


def test_the_issue_example_salary_to_projects_and_lowest(base_pool: DemoPool) -> None:
    graph = load_graph(tables=[STAFF])
    mapper = Mapper(graph, encoder=None)
    frame = pd.read_csv(pd.io.common.BytesIO(STAFF), dtype=str)
    mine = _confirm("Who has the highest salary?", _extreme_query("Salary"), graph, mapper,
                    base_pool)
    for question, column, how in [("Who has the highest number of projects?", "Projects",
                                   "highest"),
                                  ("Who has the lowest salary?", "Salary", "lowest"),
                                  ("Who has the fewest projects?", "Projects", "lowest")]:
        origin, got, _ = _ask(question, graph, mapper, mine)
        assert (origin, got) == ("rebound", _argext(column, how, frame)), question


def test_an_entity_slot_and_a_column_slot_together(base_pool: DemoPool) -> None:
    graph = load_graph(tables=[STAFF])
    mapper = Mapper(graph, encoder=None)
    query = ("Query1: \"get_information(relation='Office', tail_entity='Oslo')\"\n"
             "Query2: \"get_information(relation='Salary', head_entity='output_of_query1')\"\n"
             "Query3: \"sum(set='output_of_query2')\"")
    mine = _confirm("What is the total salary in Oslo?", query, graph, mapper, base_pool)
    origin, got, _ = _ask("What is the total projects in Rome?", graph, mapper, mine)
    frame = pd.read_csv(pd.io.common.BytesIO(STAFF))
    assert origin == "rebound"
    assert got == [str(frame.loc[frame.Office == "Rome", "Projects"].sum())]


def test_rebinding_refuses_what_the_data_does_not_name() -> None:
    program = parse(_extreme_query("Salary"))
    cols = ["Name", "Salary", "Projects"]
    assert rebind_confirmed("Who has the highest salary?", program,
                            "Who has the highest shoe size?", cols, None) is None
    assert rebind_confirmed("Who has the highest salary?", program,
                            "Where is the highest salary paid?", cols, None) is None
    assert column_named("projects or salary", cols) is None


def test_a_direction_flip_swaps_most_and_least() -> None:
    program = parse("Query1: \"get_information(relation='Office', tail_entity='most')\"")
    got = rebind_confirmed("Which office has the most staff?", program,
                           "which office has the least staff", ["Office"], None)
    assert got is not None
    assert "tail_entity='least'" in render_program(got.program)


def test_the_card_text_names_the_example() -> None:
    graph = load_graph(tables=[STAFF])
    run = execute_text(_extreme_query("Salary"), graph, None, origin="rebound")
    run.shaped_by = ["Who has the *highest* salary?"]
    assert shaped_by_text(run) == "Shaped by your confirmed example: “Who has the *highest* salary?”"


def test_step_descriptions_follow_the_swap() -> None:
    """The step-through shows the re-bound query's own words, not the confirmed one's."""
    got = rebind_confirmed("Who has the highest salary?", parse(_extreme_query("Salary")),
                           "who has the lowest number of projects", ["Name", "Salary",
                                                                      "Projects"], None)
    assert got is not None
    text = render_program(got.program)
    assert "Find the smallest Projects" in text and "Salary" not in text
    assert text.startswith("## Target type: {Name}")


def test_the_verdict_of_a_rebound_answer_names_the_confirmed_example(
        base_pool: DemoPool) -> None:
    """The re-bound run's verdict carries ``confirmed_example`` ("shaped by your confirmed
    example: ...", informative, not blocking) end to end: answer() -> Trace -> JSON record;
    an answer not re-bound from a confirmed example carries no such reason."""
    graph = load_graph(tables=[STAFF])
    mapper = Mapper(graph, encoder=None)
    confirmed = "Who's got the highest salary?"
    mine = _confirm(confirmed, _extreme_query("Salary"), graph, mapper, base_pool)
    run, _ = ask("Who's got the fewest projects?", graph, mapper, loaded={"table1"}, demos=mine,
                 writer="offline")
    assert run is not None and run.origin == "rebound"
    reasons = {r.code: r for r in run.trace.verdict.reasons}
    assert reasons["confirmed_example"].message == (
        f"shaped by your confirmed example: “{confirmed}”")
    assert "confirmed_example" not in run.trace.verdict.blocking
    record = [r for r in run.trace.to_dict()["reasons"] if r["code"] == "confirmed_example"]
    assert [(r["arg"], r["message"]) for r in record] == [
        (confirmed, f"shaped by your confirmed example: “{confirmed}”")]
    plain, _ = ask("Who has the fewest projects?", graph, mapper, loaded={"table1"},
                   demos=base_pool, writer="offline")
    assert plain is not None and plain.origin != "rebound"
    assert "confirmed_example" not in {r.code for r in plain.trace.verdict.reasons}
