"""A re-run of the same query (a mapping override, its undo, an exported run) runs over the
sources the question was routed to, as the run it repeats did (walk-through ux8: the runner-up
button, then *Undo and re-run*, re-ran a routed question over every loaded source and the
target mapped into another source). An edited query is the user's own and is routed over
every loaded source."""

from __future__ import annotations

from trustuqa_core import load_graph
from trustuqa_core.app_services.runs import execute_text, imported_run, record_of, rerun
from trustuqa_core.store import GraphStore
from trustuqa_core.trace import Routing

QUERY = "Query1: \"get_information(relation='Nation', tail_entity='Italy')\""
ROUTED = Routing(("table1",), "routed to table1 (score 3.00, next 0.10)")


def _graph() -> GraphStore:
    return load_graph(tables=[b"Name,Nation\nAnn,Italy\n", b"Name,Nation\nBob,Italy\n"])


def test_a_routed_run_reads_only_its_sources() -> None:
    g = _graph()
    unrouted = execute_text(QUERY, g, None, origin="offline", question="who is italian?")
    assert sorted(unrouted.answer) == ["table1 row 1", "table2 row 1"]  # the trap: both tables
    routed = execute_text(QUERY, g, None, origin="offline", question="who is italian?",
                          routed=ROUTED)
    assert routed.answer == ["table1 row 1"]
    assert routed.sources is None  # routing chose, not the user
    assert routed.trace.routing is not None and routed.trace.routing.how == ROUTED.how


def test_an_override_and_its_undo_stay_over_the_routed_sources() -> None:
    g = _graph()
    first = execute_text(QUERY, g, None, origin="offline", question="who is italian?",
                         routed=ROUTED)
    override = rerun(first, g, None, overrides={"Q1.tail_entity": "Italy"})
    undone = rerun(override, g, None, overrides={})
    for again in (override, undone):
        assert again.answer == ["table1 row 1"]
        assert again.trace.routing is not None
        assert again.trace.routing.sources == ("table1",)
        assert again.trace.routing.how == ROUTED.how
        assert again.sources is None


def test_a_users_choice_still_wins_over_the_routing() -> None:
    g = _graph()
    chosen = execute_text(QUERY, g, None, origin="offline", sources=["table2"])
    again = rerun(chosen, g, None, overrides={})
    assert again.answer == ["table2 row 1"] and again.sources == ("table2",)


def test_a_routed_source_no_longer_loaded_leaves_the_rerun_unrouted() -> None:
    g = _graph()
    gone = execute_text(QUERY, g, None, origin="offline",
                        routed=Routing(("old.csv",), "routed to old.csv"))
    assert sorted(gone.answer) == ["table1 row 1", "table2 row 1"]


def test_an_exported_routed_run_is_re_run_over_its_sources() -> None:
    g = _graph()
    first = execute_text(QUERY, g, None, origin="offline", question="who is italian?",
                         routed=ROUTED)
    record = record_of(first, [])
    assert "asked_over" not in record
    again = imported_run(record, [], g, None)
    assert again.answer == ["table1 row 1"]
    assert "Same answer as exported." in again.note


def test_an_edited_query_is_the_users_own_and_reads_every_source() -> None:
    g = _graph()
    first = execute_text(QUERY, g, None, origin="offline", question="who is italian?",
                         routed=ROUTED)
    other = "Query1: \"get_information(relation='Name', tail_entity='Bob')\""
    edited = rerun(first, g, None, query=other, origin="edited", overrides={})
    assert edited.answer == ["table2 row 1"]  # Bob is in table2, outside the routed table1
    assert edited.trace.routing is not None and edited.trace.routing.how != ROUTED.how
    same = rerun(first, g, None, query=QUERY, origin="edited", overrides={})  # re-run as is
    assert sorted(same.answer) == ["table1 row 1", "table2 row 1"]
