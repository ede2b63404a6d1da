"""The mixed benchmark's final routing (issue 13, ROUTING.md "Stop 18"): ``routed_final`` is
recorded only when a query ran; ``routed_final_or_decided`` adds, for questions where none ran,
the decision made before writing, as a separate, labelled count (``final`` is not redefined)."""

from __future__ import annotations

from types import SimpleNamespace

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.evaluate.mixed import final_flags, routing_summary
from trustuqa_core.evaluate.outcome import Outcome
from trustuqa_core.routing import RouteDecision, route
from trustuqa_core.trace import Routing


def _decision(*sources: str) -> RouteDecision:
    return RouteDecision(sources, "routed", all_sources=("t1", "t2", "t3"))


def _answered(*sources: str) -> SimpleNamespace:
    return SimpleNamespace(trace=SimpleNamespace(routing=Routing(sources, "how", ())))


def test_final_flags_keep_final_and_the_decision_apart() -> None:
    # a query ran: both flags say where it finally ran, whatever the question decided
    assert final_flags(_answered("t2"), ("t1",), _decision("t1")) == {
        "routed_final": False, "routed_final_or_decided": False}
    assert final_flags(_answered("t1"), ("t1",), _decision("t2")) == {
        "routed_final": True, "routed_final_or_decided": True}
    # no query ran (no trace): no final routing; the decision made before writing is counted
    # in the second flag only
    assert final_flags(SimpleNamespace(trace=None), ("t1",), _decision("t1")) == {
        "routed_final_or_decided": True}
    assert final_flags(None, ("t1",), _decision("t1", "t2")) == {
        "routed_final_or_decided": False}


def _outcome(i: int, source: str, **flags: bool) -> Outcome:
    return Outcome(str(i), "mixed", "q", False, "wrong", [], [], 0.0, groups={"source": source},
                   flags={"routed": True, "routed_kept": True, **flags})


def test_routing_summary_reports_final_and_final_or_decided() -> None:
    outcomes = [
        _outcome(1, "webqsp", routed_final_or_decided=True),  # no query ran, decided right
        _outcome(2, "webqsp", routed_final_or_decided=False),  # no query ran, decided wrong
        _outcome(3, "webqsp", routed_final=False, routed_final_or_decided=False),
        _outcome(4, "wtq", routed_final=True, routed_final_or_decided=True),
    ]
    s = routing_summary(outcomes)
    assert s["source"]["webqsp"]["final"] == 0
    assert s["source"]["webqsp"]["final_or_decided"] == 1
    assert s["source"]["webqsp"]["no_query"] == 2
    assert (s["source"]["wtq"]["final"], s["source"]["wtq"]["final_or_decided"]) == (1, 1)
    assert (s["all"]["final"], s["all"]["final_or_decided"], s["all"]["no_query"]) == (1, 2, 2)
    # outcomes recorded before this flag existed still give ``final``
    old = routing_summary([_outcome(5, "wtq", routed_final=True)])
    assert old["all"]["final"] == 1 and "final_or_decided" not in old["all"]


def test_no_query_question_is_counted_by_its_decision() -> None:
    """Over two made sources, a question the offline writer writes nothing for: the answer has
    no trace, so only the decision made before writing can be reported."""
    g = load_graph(kgs=[b"Dune|written_by|Frank Herbert\n", b"Emma|written_by|Jane Austen\n"])
    q = "what is the capital of France?"
    a = answer(q, g, writer="offline")
    assert a.trace is None and not a.answer
    d = route(q, g)
    assert final_flags(a, tuple(d.sources), d) == {"routed_final_or_decided": True}
    assert final_flags(a, ("kg1",), d) == {"routed_final_or_decided": False}
    # a question a query runs for is counted by where it ran
    a = answer("who wrote Dune?", g, writer="offline")
    assert a.answer == ["Frank Herbert"]
    assert final_flags(a, ("kg1",), route("who wrote Dune?", g)) == {
        "routed_final": True, "routed_final_or_decided": True}
