"""The guided step-through of a run: one stage per screen, in the order the pipeline ran.

1. ``demos``: the retrieved demonstrations (similarity, origin, verified) — only when a writer
   retrieved some;
2. ``query``: the query as written, and who wrote it (with the reference query and a diff for
   a bundled example question);
3. ``mapped``: the mapped execution query, each argument's node, score and runner-up — only
   when the query has literal arguments;
4. ``set:N``: one stage per executed step, its ``output_of_queryN`` set (highlighted on the
   evidence graph by the view);
5. ``answer``: the answer, its verdict with the reasons, and where it comes from.

Stages are plain data (titles, captions, rows, code); the Streamlit view only draws them.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.app_services.runs import execute_text
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\nBob,Spain\\n"])
>>> run = execute_text("Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\"",
...                    g, None, origin="hand-written", question="who is italian?")
>>> [s.key for s in run_stages(run)]
['query', 'mapped', 'set:1', 'answer']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .compare import DiffLine, reference_comparison, writer_label
from .run_tables import element_rows, mapping_rows, provenance_rows, run_verdict
from .runs import Run
from .suggestion import suggestion_line

__all__ = ["Stage", "run_stages", "stage_index"]


@dataclass(frozen=True)
class Stage:
    """One screen of the step-through.

    ``kind`` tells the view how to draw it (``demos``, ``query``, ``mapped``, ``set``,
    ``answer``); ``rows`` is a table; ``code`` the query text; ``step`` the step number a
    ``set`` stage highlights on the evidence graph; ``diff`` the reference diff of a query
    stage; ``label`` the verdict label of the answer stage. Text is raw: views escape it.
    """

    key: str
    kind: str
    title: str
    caption: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    code: str = ""
    step: int | None = None
    notes: list[str] = field(default_factory=list)
    diff: list[DiffLine] = field(default_factory=list)
    label: str = ""


def _demos_stage(run: Run) -> Stage | None:
    if not run.demos:
        return None
    rows = [{"similarity": d.get("similarity"), "question": d.get("question", ""),
             "origin": d.get("origin", ""),
             "verified": {True: "re-executed to its answer", False: "rejected",
                          None: "not checked"}.get(d.get("verified")),
             "how": d.get("how", ""), "query": d.get("query", "")} for d in run.demos]
    who = writer_label(run.origin, run.model)
    return Stage("demos", "demos", "1 · Retrieved demonstrations",
                 f"The {len(rows)} verified question/query pairs most similar to the question, "
                 f"shown to the {who} as examples (origin: where each comes from — initial, "
                 "bundled, benchmark, or confirmed by a user).", rows=rows)


def _query_stage(run: Run, number: int) -> Stage:
    who = writer_label(run.origin, run.model)
    notes = [run.note] if run.note else []
    comparison = reference_comparison(run)
    diff: list[DiffLine] = []
    if comparison is not None:
        notes.append(comparison.verdict_line)
        diff = comparison.diff
    return Stage("query", "query", f"{number} · The query as written",
                 f"Written by: {who}.", code=run.query, notes=notes, diff=diff)


def _mapped_stage(run: Run, number: int) -> Stage | None:
    rows = mapping_rows(run)
    if not rows:
        return None
    code = "\n".join(f"Query{s.number}: {s.mapped_call}" for s in run.trace.steps
                     if s.mapped_call)
    weak = [r["argument"] for r in rows if r["status"].startswith("weak")]
    notes = ([f"Weak mapping(s), please check: {', '.join(weak)}."] if weak else [])
    return Stage("mapped", "mapped", f"{number} · The mapped execution query",
                 "Each literal argument mapped onto a node of the data: the chosen node, its "
                 "score and the runner-up it beat.",
                 rows=[{k: r[k] for k in ("argument", "written", "mapped to", "score",
                                          "runner-up", "margin", "status")} for r in rows],
                 code=code, notes=notes)


def _set_stages(run: Run, first: int) -> list[Stage]:
    trace, out = run.trace, []
    for i, s in enumerate(trace.steps):
        notes = list(s.notes) + ([f"Failed: {s.error}"] if s.error else []) + (
            [f"LLM-inferred, not verified: {s.inferred_note}"] if s.inferred_note else [])
        size = len(s.output.distinct())
        out.append(Stage(f"set:{s.number}", "set",
                         f"{first + i} · output_of_query{s.number}",
                         f"{s.func}: {size} distinct element(s), status {s.status}."
                         + (f" {s.description}" if s.description else ""),
                         rows=element_rows(trace, s) if s.output else [],
                         code=f"as written : {s.call}\nas mapped  : {s.mapped_call}",
                         step=s.number, notes=notes))
    return out


def _answer_stage(run: Run, number: int) -> Stage:
    verdict = run_verdict(run)
    notes = [f"{r.code}: {r.message}" if r.code in verdict.blocking else
             f"also noted ({r.code}): {r.message}" for r in verdict.reasons]
    if run.writer_error:
        notes.insert(0, f"No query was written: {run.writer_error}")
    elif run.trace.error is not None:
        notes.insert(0, f"The run stopped: {run.trace.error.message}")
    if run.suggestion is not None:
        notes.insert(0, suggestion_line(run.suggestion) + " Suggested (not the answer): "
                     + ", ".join(run.suggestion.answer[:10]) + ".")
    answer = ", ".join(run.answer[:30]) or "(no answer)"
    return Stage("answer", "answer", f"{number} · The answer",
                 answer, rows=provenance_rows(run.trace.answer_provenance()) if run.answer else [],
                 notes=notes, label=verdict.label)


def run_stages(run: Run) -> list[Stage]:
    """The stages of ``run``'s step-through, in pipeline order, numbered from 1."""
    stages: list[Stage] = []
    demos = _demos_stage(run)
    if demos is not None:
        stages.append(demos)
    stages.append(_query_stage(run, len(stages) + 1))
    mapped = _mapped_stage(run, len(stages) + 1)
    if mapped is not None:
        stages.append(mapped)
    stages += _set_stages(run, len(stages) + 1)
    stages.append(_answer_stage(run, len(stages) + 1))
    return stages


def stage_index(stages: list[Stage], position: int) -> int:
    """``position`` clamped to the stages (Back on the first stays there, Next on the last).

    >>> stage_index([Stage("a", "query", "", "")] * 3, 7), stage_index([], 2)
    (2, 0)
    """
    return max(0, min(position, len(stages) - 1))
