"""Who wrote a query, and how two queries or two runs compare (plain data, no Streamlit).

Every query the app shows carries a label naming its author: ``LLM (<model>)``, ``offline
writer``, ``reference query``, ``your query``, ``re-bound from your confirmed example``, ...
Nothing that an LLM did not write is ever labelled as an LLM's query.

>>> writer_label("llm", "gpt-4o-mini"), writer_label("offline"), writer_label("edited")
('LLM (gpt-4o-mini)', 'offline writer', 'your query')
>>> [(r.kind, r.text) for r in query_diff("a\\nb", "a\\nc")]
[('same', 'a'), ('removed', 'b'), ('added', 'c')]
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from .run_tables import run_verdict
from .runs import WRITER_LABELS, Run, writer_label

__all__ = ["WRITER_LABELS", "writer_label", "DiffLine", "query_diff", "ReferenceComparison",
           "reference_comparison", "same_answer", "compare_runs"]

@dataclass(frozen=True)
class DiffLine:
    """One line of a query diff: ``same`` (in both), ``removed`` (only in the first query) or
    ``added`` (only in the second)."""

    kind: str
    text: str


def _lines(query: str) -> list[str]:
    return [line.strip() for line in query.strip().splitlines() if line.strip()]


def query_diff(first: str, second: str) -> list[DiffLine]:
    """A line diff (difflib) of two queries, whitespace at line ends ignored; the text is
    returned as is (views escape it)."""
    a, b = _lines(first), _lines(second)
    out: list[DiffLine] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            out += [DiffLine("same", t) for t in a[i1:i2]]
            continue
        out += [DiffLine("removed", t) for t in a[i1:i2]]
        out += [DiffLine("added", t) for t in b[j1:j2]]
    return out


def same_answer(first: list[str], second: list[str]) -> bool:
    """True when two answers hold the same values (order and repeats ignored).

    >>> same_answer(["b", "a"], ["a", "b", "a"]), same_answer(["a"], [])
    (True, False)
    """
    return set(first) == set(second)


@dataclass(frozen=True)
class ReferenceComparison:
    """The writer's query beside a bundled example's reference query."""

    writer: str
    writer_query: str
    writer_answer: list[str]
    reference_query: str
    reference_answer: list[str]
    diff: list[DiffLine]
    identical: bool
    same: bool

    @property
    def verdict_line(self) -> str:
        """One sentence: do both queries give the same answer?"""
        if self.identical:
            return f"The {self.writer} wrote the reference query itself: same answer."
        if self.same:
            return (f"Both give the same answer ({_short(self.writer_answer)}), with "
                    "different queries.")
        return (f"Different answers: the {self.writer}'s query gives "
                f"{_short(self.writer_answer)}, the reference query gives "
                f"{_short(self.reference_answer)}.")


def _short(answer: list[str], n: int = 5) -> str:
    if not answer:
        return "no answer"
    more = f" … ({len(answer)} values)" if len(answer) > n else ""
    return ", ".join(answer[:n]) + more


def reference_comparison(run: Run) -> ReferenceComparison | None:
    """The run's query compared with its example's reference query (None without one)."""
    if run.reference is None or run.origin == "reference":
        return None
    ref_answer = list(run.reference_answer or [])
    diff = query_diff(run.reference, run.query)
    return ReferenceComparison(writer_label(run.origin, run.model), run.query, list(run.answer),
                               run.reference, ref_answer, diff,
                               all(d.kind == "same" for d in diff),
                               same_answer(list(run.answer), ref_answer))


def compare_runs(first: Run, second: Run) -> list[dict[str, Any]]:
    """Two runs side by side: one row per aspect (question, who wrote the query, the query,
    the answer, the verdict and its reasons, number of steps), with whether they agree."""
    def facts(run: Run) -> dict[str, str]:
        verdict = run_verdict(run)
        reasons = "; ".join(dict.fromkeys(r.code for r in verdict.reasons
                                          if r.code in verdict.blocking))
        return {"question": run.question or "(no question)",
                "written by": writer_label(run.origin, run.model),
                "query": run.query.strip(),
                "answer": ", ".join(run.answer) or "(no answer)",
                "verdict": verdict.label + (f" ({reasons})" if reasons else ""),
                "steps": str(len(run.trace.steps))}

    a, b = facts(first), facts(second)
    return [{"aspect": k, "run A": a[k], "run B": b[k], "same": a[k] == b[k]} for k in a]
