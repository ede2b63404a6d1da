"""``answer(..., sources=[...])``: the Python API's way to ask over some loaded sources only
(the CLI's ``ask --over`` and the app's "Ask over" share its ``over_sources``)."""

from __future__ import annotations

import pytest

from trustuqa_core import load_graph
from trustuqa_core.answer import answer
from trustuqa_core.errors import UsageError


@pytest.fixture(scope="module")
def two_rosters():
    return load_graph(tables=[b"Name,Team\nAnn Roy,Reds\nBo Li,Blues\n",
                              b"Name,Team\nCy Ode,Reds\nDi Moe,Greens\n"])


def test_only_the_named_source_is_asked(two_rosters) -> None:
    everywhere = answer("who plays for the Reds?", two_rosters, writer="offline")
    assert sorted(everywhere.answer) == ["Ann Roy", "Cy Ode"]
    only = answer("who plays for the Reds?", two_rosters, writer="offline", sources=["table2"])
    assert only.answer == ["Cy Ode"]
    assert only.trace is not None
    assert all(s.name == "table2" for s in only.trace.graph.sources)


def test_every_source_named_is_the_whole_graph(two_rosters) -> None:
    a = answer("who plays for the Reds?", two_rosters, writer="offline",
               sources=["table1", "table2"])
    assert sorted(a.answer) == ["Ann Roy", "Cy Ode"]


def test_a_source_that_is_not_loaded_is_named(two_rosters) -> None:
    with pytest.raises(UsageError, match="no loaded source named 'gone.csv'; loaded: table1, table2"):
        answer("who plays for the Reds?", two_rosters, writer="offline", sources=["gone.csv"])
