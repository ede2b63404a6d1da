"""Routing reported per kind (stop 20): besides the strict figure (exactly the question's own
source), the share routed to sources of the right kind (table / KG / TKG) and the share whose
own source is among the routed, for the question's decision and for the final routing."""

from __future__ import annotations

from types import SimpleNamespace

from trustuqa_core import load_graph
from trustuqa_core.evaluate.mixed import final_flags, right_kind, routing_summary
from trustuqa_core.evaluate.outcome import Outcome
from trustuqa_core.routing import RouteDecision
from trustuqa_core.trace import Routing

GRAPH = load_graph(tables=[b"Name,Team\nAnn,Reds\n", b"Name,Team\nBob,Blues\n"],
                   kgs=[b"Dune|written_by|Frank Herbert\n"],
                   tkgs=[b"Ann\tmember of\tReds\t1990\t1995\n"])


def test_right_kind_needs_every_routed_source_of_the_own_kind() -> None:
    assert right_kind(GRAPH, ("table2",), ("table1",))  # the wrong table, the right kind
    assert right_kind(GRAPH, ("table1", "table2"), ("table1",))
    assert not right_kind(GRAPH, ("table1", "kg1"), ("table1",))  # a KG among the routed
    assert not right_kind(GRAPH, ("tkg1",), ("kg1",))
    assert not right_kind(GRAPH, (), ("kg1",))


def test_final_flags_add_kind_and_kept_when_the_graph_is_given() -> None:
    decision = RouteDecision(("table1",), "routed", all_sources=("table1", "table2", "kg1",
                                                                  "tkg1"))
    ran = SimpleNamespace(trace=SimpleNamespace(routing=Routing(("table2",), "how", ())))
    assert final_flags(ran, ("table1",), decision, GRAPH) == {
        "routed_final": False, "routed_final_or_decided": False,
        "routed_final_kind": True, "routed_final_kept": False}
    assert final_flags(ran, ("table1",), decision) == {  # as before without the graph
        "routed_final": False, "routed_final_or_decided": False}


def _outcome(i: int, source: str, **flags: bool) -> Outcome:
    return Outcome(str(i), "mixed", "q", False, "wrong", [], [], 0.0, groups={"source": source},
                   flags=flags)


def test_summary_reports_exact_kind_and_kept_apart() -> None:
    outcomes = [
        _outcome(1, "wtq", routed=True, routed_kind=True, routed_kept=True),
        _outcome(2, "wtq", routed=False, routed_kind=True, routed_kept=False),  # another table
        _outcome(3, "wtq", routed=False, routed_kind=False, routed_kept=True),  # table + TKG
        _outcome(4, "webqsp", routed=False, routed_kind=False, routed_kept=False,
                 routed_final=False, routed_final_or_decided=False, routed_final_kind=False,
                 routed_final_kept=False),
    ]
    s = routing_summary(outcomes)
    wtq = s["source"]["wtq"]
    assert (wtq["exact"], wtq["kind"], wtq["kept"]) == (1, 2, 2)
    assert wtq["kind_rate"] == 2 / 3 and "final_kind" not in wtq
    assert (s["source"]["webqsp"]["final_kind"], s["source"]["webqsp"]["final_kept"]) == (0, 0)
    assert (s["all"]["exact"], s["all"]["kind"], s["all"]["kept"]) == (1, 2, 2)
