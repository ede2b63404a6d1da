"""The benchmark report's plotly page shows data strings as typed, never as markup."""

from __future__ import annotations

from trustuqa_core.evaluate.outcome import Outcome, summarise
from trustuqa_core.evaluate.report import report_figure

HOSTILE = "<a href='javascript:alert(1)'>click</a>"


def test_group_names_and_benchmark_are_escaped_in_the_figure() -> None:
    outcomes = [Outcome("1", "wtq", "q?", True, "correct", ["a"], ["a"], 0.1,
                        groups={"table": HOSTILE})]
    fig = report_figure(summarise(outcomes), outcomes,
                        {"benchmark": "b<br>x", "split": "dev", "mode": "replay"})
    labels = [str(x) for trace in fig.data for x in (trace.x or ())]
    assert HOSTILE not in labels and "&lt;a href='javascript:alert(1)'&gt;click&lt;/a&gt;" in labels
    assert "<br>" not in fig.layout.title.text and "b&lt;br&gt;x" in fig.layout.title.text
