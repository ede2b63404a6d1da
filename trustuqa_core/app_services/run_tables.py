"""The tables the Ask page shows about a run: mappings, steps, elements with their witnesses,
evidence, provenance, timings, and the verdict they are judged by (plain rows, no Streamlit).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.app_services.runs import execute_text
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\nBob,Spain\\n"])
>>> run = execute_text("Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\"",
...                    g, None, origin="hand-written")
>>> [r["mapped to"] for r in mapping_rows(run)]
['Nation', 'Italy']
>>> [r["element"] for r in element_rows(run.trace, run.trace.steps[0])]
['table1 row 1']
"""

from __future__ import annotations

import re
from typing import Any

from ..ops import elem_text
from ..results import Scalar
from ..trace import StepTrace, Trace
from ..verdict import Verdict
from .runs import Run, writer_label

__all__ = ["mapping_rows", "candidates_of", "step_summary", "aggregate_values", "timing_rows",
           "run_verdict", "query_label", "element_rows", "evidence_table_rows",
           "provenance_rows", "what_to_try", "overrides_text", "writer_error_line",
           "as_sentence"]


def mapping_rows(run: Run) -> list[dict[str, Any]]:
    """One row per mapped argument: written text, chosen node(s), score, runner-up, margin."""
    rows = []
    mappings = [m for s in run.trace.steps for m in s.mappings]
    if run.trace.target is not None:
        mappings.append(run.trace.target)
    for m in mappings:
        chosen = set(m.labels)
        runner = next((c for c in m.candidates if c.label not in chosen), None)
        rows.append({
            "argument": m.key, "written": m.text,
            "mapped to": ", ".join(m.labels) if m.labels else "(nothing)",
            "method": m.method, "score": round(m.score, 3),
            "runner-up": f"{runner.label} ({runner.score:.2f})" if runner else "—",
            "margin": round(m.margin, 3), "among": m.scope,
            "status": ("overridden" if m.method == "override" else
                       "confirmed" if m.key in run.confirmed else
                       "weak: please check" if m.weak else "ok"),
        })
    return rows


def overrides_text(run: Run) -> str | None:
    """The card's line for a run whose answer rests on the user's mapping overrides (None
    without any): each argument as written and the node the user chose for it.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.app_services.runs import execute_text
    >>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\nBo,United States\\n"])
    >>> q = "Query1: \\"get_information(relation='Nation', tail_entity='USA')\\""
    >>> run = execute_text(q, g, None, origin="hand-written",
    ...                    overrides={"Q1.tail_entity": "United States"})
    >>> print(overrides_text(run))  # doctest: +NORMALIZE_WHITESPACE
    Mapped by you: 'USA' → United States (Q1.tail_entity). The answer rests on this choice.
    """
    if not run.overrides:
        return None
    written = {r["argument"]: r["written"] for r in mapping_rows(run)}
    parts = [f"{written[k]!r} → {v} ({k})" if k in written else f"{k} → {v}"
             for k, v in run.overrides.items()]
    plural = "these choices" if len(parts) > 1 else "this choice"
    return f"Mapped by you: {'; '.join(parts)}. The answer rests on {plural}."


def candidates_of(run: Run, key: str) -> list[str]:
    """Candidate labels of one argument (chosen first), for the override picker."""
    for s in run.trace.steps:
        for m in s.mappings:
            if m.key == key:
                return list(dict.fromkeys([*m.labels, *(c.label for c in m.candidates)]))
    t = run.trace.target
    if t is not None and t.key == key:
        return list(dict.fromkeys([*t.labels, *(c.label for c in t.candidates)]))
    return []


def step_summary(trace: Trace) -> list[dict[str, Any]]:
    """One row per step: number, function, status, output size, seconds."""
    steps = list(trace.steps) + ([trace.target_step] if trace.target_step else [])
    return [{"step": f"Query{s.number}" if s.number else "target type", "function": s.func,
             "status": s.status, "elements": len(s.output), "distinct": len(s.output.distinct()),
             "seconds": round(s.seconds, 4)} for s in steps]


def aggregate_values(trace: Trace, step: StepTrace) -> list[tuple[str, float]]:
    """The numbers an aggregate step (sum/mean/max/min) was computed from, with their labels
    (the row or entity each value belongs to when the graph knows it)."""
    if step.func not in ("sum", "mean", "max", "min", "average", "avg") or not step.number:
        return []
    if trace.program is None:
        return []
    g, out = trace.graph, []
    for ref in trace.program.query(step.number).call.refs():
        src = next((s for s in trace.steps if s.number == ref), None)
        if src is None:
            continue
        for e, w in list(zip(src.output.elems, src.output.witnesses, strict=True))[:200]:
            x = (e.value if isinstance(e.value, float) else None) if isinstance(e, Scalar) \
                else g.numeric(e)
            if x is None:
                continue
            owner = g.label(g.head_of(w[-1])) if w else ""
            out.append((f"{owner}: {elem_text(g, e)}" if owner else elem_text(g, e), x))
    return out


#: the stages a run records (``Answer.timings``, ``Trace.timings``), in words
STAGE_WORDS = {"lookup": "look up a confirmed query", "retrieve": "retrieve demonstrations",
               "write": "write the queries", "fallback_llm": "LLM fallback",
               "parse": "read the query", "map": "map the arguments"}
#: recorded beside the timings but not seconds (``llm_calls`` counts requests)
_NOT_SECONDS = {"llm_calls"}


def timing_rows(run: Run) -> list[dict[str, Any]]:
    """Stage timings (in words; a stage that took no time at all, such as an LLM fallback
    never called, is left out), per-step seconds, and the total last (kind ``total``), for a
    chart. Counts recorded beside the timings (``llm_calls``) are not seconds: left out.

    >>> from trustuqa_core import load_graph
    >>> from .runs import execute_text
    >>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\n"])
    >>> run = execute_text("Query1: \\"get_information(relation='Nation')\\"", g, None,
    ...                    origin="offline")
    >>> run.stage_seconds = {"retrieve": 0.01, "write": 0.02, "fallback_llm": 0.0,
    ...                      "llm_calls": 3.0, "total": 0.05}
    >>> [(r["what"], r["kind"]) for r in timing_rows(run)]  # doctest: +NORMALIZE_WHITESPACE
    [('retrieve demonstrations', 'stage'), ('write the queries', 'stage'),
     ('read the query', 'stage'), ('map the arguments', 'stage'), ('Query1', 'step'),
     ('total', 'total')]
    """
    times = {**run.stage_seconds, **run.trace.timings}
    rows = [{"what": STAGE_WORDS.get(k, k), "seconds": v, "kind": "stage"}
            for k, v in times.items()
            if k not in ("execute", "total", *_NOT_SECONDS) and (v or k in ("parse", "map"))]
    rows += [{"what": f"Query{s.number}", "seconds": s.seconds, "kind": "step"}
             for s in run.trace.steps]
    if "total" in times:
        rows.append({"what": "total", "seconds": times["total"], "kind": "total"})
    return rows


def run_verdict(run: Run) -> Verdict:
    """The run's verdict (a writer that wrote nothing: ``no answer`` saying why; no sample's
    answer accepted: the core's verdict, not the shown sample's)."""
    return run.judged()


def what_to_try(run: Run) -> str:
    """What a no-answer card suggests, fitted to the run: asking over every loaded source
    when the user chose some (the others may hold the answer), writing the query by hand when
    none was written (there is nothing to edit or map then), adopting a suggestion when there
    is one, overriding a mapping only when the query has mappings, an LLM when none wrote it.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.app_services.runs import execute_text
    >>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\n"])
    >>> run = execute_text("", g, None, origin="offline")
    >>> run.writer_error = "could not link 'USA'"
    >>> print(what_to_try(run))  # doctest: +NORMALIZE_WHITESPACE
    What to try: write the query yourself (the hand-written query box above), or configure an
    LLM on the Settings page.
    >>> g2 = load_graph(tables=[b"Name\\nAnn\\n", b"Name\\nBo\\n"])
    >>> run = execute_text("", g2, None, origin="offline", sources=["table2"])
    >>> run.writer_error = "could not link 'Ann'"
    >>> print(what_to_try(run))  # doctest: +NORMALIZE_WHITESPACE
    What to try: ask over every loaded source (your choice left out all but table2: the button
    below, or clear "Ask over"), write the query yourself (the hand-written query box above),
    or configure an LLM on the Settings page.
    """
    tries = []
    if run.sources is not None:  # the user's choice left sources out: they may hold it
        tries.append(f"ask over every loaded source (your choice left out all but "
                     f"{', '.join(run.sources)}: the button below, or clear \"Ask over\")")
    if run.suggestion is not None:
        tries.append(f"adopt the suggestion below (it asks again over "
                     f"{', '.join(run.suggestion.sources)})")
    if run.writer_error or not run.query.strip():
        tries.append("write the query yourself (the hand-written query box above)")
    else:
        tries.append("edit the query (Details → Steps)")
        if mapping_rows(run):
            tries.append("override a mapping (Details → Mappings)")
    if run.origin != "llm":
        tries.append("configure an LLM on the Settings page")
    head = ", ".join(tries[:-1])
    return "What to try: " + (f"{head}, or {tries[-1]}." if head else f"{tries[-1]}.")


def writer_error_line(error: str) -> str:
    """The no-answer card's line on why no query was written (plain text): without saying it
    twice when the error is the generic "no query could be written", and without the advice
    the writer appends (the card's "What to try" gives it, fitted to the run).

    >>> writer_error_line("no query could be written for this question")
    'No query was written for this question.'
    >>> writer_error_line("could not link 'USA' (the offline writer does not guess): override "
    ...                   "a mapping, write the query, or configure an LLM")
    "No query was written: could not link 'USA' (the offline writer does not guess)."
    """
    if error.strip().lower().startswith("no query could be written"):
        return "No query was written for this question."
    return f"No query was written: {_ADVICE.sub('', error).strip().rstrip('.')}."


def as_sentence(text: str) -> str:
    """``text`` as a sentence: its first letter upper case, a full stop when it ends with no
    punctuation (core messages are clauses, written to be embedded).

    >>> as_sentence("the routed attempt over a.csv gave no answer")
    'The routed attempt over a.csv gave no answer.'
    >>> as_sentence("'USA' is not a value?")
    "'USA' is not a value?"
    """
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?)\"'" else text + "."


_ADVICE = re.compile(r":\s*override a mapping\b[^:]*$")


def query_label(origin: str, model: str | None = None) -> str:
    """The query editor's label, naming who wrote the query (as the answer card does).

    >>> query_label("reference")
    'Query — written by: reference query (edit and re-run: no LLM is called)'
    >>> query_label("llm", "gpt-4o-mini")
    'Query — written by: LLM (gpt-4o-mini) (edit and re-run: no LLM is called)'
    """
    return f"Query — written by: {writer_label(origin, model)} (edit and re-run: no LLM is called)"


def _witness_text(trace: Trace, fact: int) -> str:
    """One witness fact, short: ``Nation = Italy (t.csv row 2)`` or ``A —r→ B (kg line 3)``."""
    g = trace.graph
    head, rel, tail = g.fact_text(fact)
    where = str(g.provenance(fact))
    if g.is_row(g.head_of(fact)):
        return f"{rel} = {tail} ({where})"
    return f"{head} —{rel}→ {tail} ({where})"


def element_rows(trace: Trace, step: StepTrace) -> list[dict[str, Any]]:
    """One row per distinct output element of ``step`` (the first 200): its text, kind, how
    many witness facts it has and the newest three of them."""
    g, d = trace.graph, step.output.distinct()
    rows = []
    for e, w in list(zip(d.elems, d.witnesses, strict=True))[:200]:
        kind = "computed" if isinstance(e, Scalar) else "row" if g.is_row(e) else "value"
        shown = list(dict.fromkeys(_witness_text(trace, f) for f in reversed(w)))  # newest first
        rows.append({"element": elem_text(g, e), "kind": kind, "witness facts": len(w),
                     "because of": "; ".join(shown[:3]) + (" …" if len(shown) > 3 else "")})
    return rows


def evidence_table_rows(trace: Trace, facts: list[int]) -> list[dict[str, Any]]:
    """:meth:`~trustuqa_core.trace.Trace.evidence_rows` with the place (source, unit, number)
    in one ``where`` column and a time interval as ``time`` text."""
    rows = trace.evidence_rows(facts)
    for r in rows:
        r["where"] = f"{r.pop('source')} {r.pop('unit')} {r.pop('number')}"
        if "interval" in r:
            a, b = r.pop("interval")
            r["time"] = "…" if a is None else f"{a:g}" + ("" if a == b else f"–{b:g}"
                                                           if b is not None else "–…")
        r.pop("fact", None)
    return rows


def provenance_rows(prov: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per answer element and distinct evidence fact of
    :meth:`~trustuqa_core.trace.Trace.answer_provenance` (a computed value: one empty row)."""
    rows = []
    for p in prov:
        seen = set()
        for e in p["evidence"]:
            if e["fact"] in seen:
                continue
            seen.add(e["fact"])
            rows.append({"answer": p["answer"], "head": e["head"], "relation": e["relation"],
                         "tail": e["tail"], "source": e["source"],
                         "row / line": f"{e['unit']} {e['number']}"})
        if not p["evidence"]:
            rows.append({"answer": p["answer"], "head": "", "relation": "(computed value)",
                         "tail": "", "source": "", "row / line": ""})
    return rows
