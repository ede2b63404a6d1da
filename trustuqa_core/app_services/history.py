"""A session's history of runs: reopen an earlier one, compare two side by side.

The history is a plain list of :class:`~trustuqa_core.app_services.runs.Run` (newest last),
capped at :data:`MAX_RUNS`; a re-run of the same question with an edit or an override is a
new entry (its ``rid`` differs), so earlier versions stay reopenable. A no-answer run names
its suggestion; a run made by adopting one says so, and so does a run asked over sources
the user chose ("Ask over", or a card's "Ask over <source> only").

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.app_services.runs import execute_text
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\n"])
>>> run = execute_text("Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\"",
...                    g, None, origin="hand-written", question="who is italian?")
>>> history = remember([], run)
>>> history_labels(history)[run.rid]
'1 · who is italian? → table1 row 1 · verified · your query'
>>> len(remember(history, run))  # the same run is kept once
1
>>> g2 = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\n", b"Name,Nation\\nBo,Italy\\n"])
>>> run = execute_text("Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\"",
...                    g2, None, origin="hand-written", question="who?", sources=["table2"])
>>> history_labels([run])[run.rid]
'1 · who? → table2 row 1 · verified · your query · over table2 (your choice)'
"""

from __future__ import annotations

from collections.abc import Sequence

from .compare import writer_label
from .run_tables import run_verdict
from .runs import Run

__all__ = ["MAX_RUNS", "remember", "history_labels", "find_run"]

MAX_RUNS = 30


def remember(history: Sequence[Run], run: Run, limit: int = MAX_RUNS) -> list[Run]:
    """``history`` with ``run`` added last (moved there if already present), the oldest
    dropped beyond ``limit``."""
    kept = [r for r in history if r.rid != run.rid]
    return [*kept, run][-limit:]


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def history_labels(history: Sequence[Run]) -> dict[str, str]:
    """One label per run, keyed by ``rid`` and numbered in order of asking: the question, the
    answer, the verdict and who wrote the query (raw text: views escape it)."""
    out = {}
    for i, run in enumerate(history, 1):
        answer = _short(", ".join(run.answer), 40) or "no answer"
        if not run.answer and run.suggestion is not None:
            answer += f" (suggested: {_short(', '.join(run.suggestion.answer), 30)})"
        question = _short(run.question or "(hand-written query)", 60)
        adopted = (f" · adopted suggestion ({_short(', '.join(run.adopted.sources), 30)})"
                   if run.adopted is not None else
                   f" · over {_short(', '.join(run.sources), 30)} (your choice)"
                   if run.sources is not None else "")
        out[run.rid] = (f"{i} · {question} → {answer} · {run_verdict(run).label} · "
                        f"{writer_label(run.origin, run.model)}{adopted}")
    return out


def find_run(history: Sequence[Run], rid: str | None) -> Run | None:
    """The run with id ``rid`` in ``history`` (None when it is not there)."""
    return next((r for r in history if r.rid == rid), None)
