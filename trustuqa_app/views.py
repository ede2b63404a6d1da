"""Streamlit views of a run: the answer, each step, the mapping table with overrides.

Every data string shown through Markdown goes through :func:`~trustuqa_core.export.md_escape`;
tables use ``st.dataframe`` and code uses ``st.code``, which never interpret their content.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd
import streamlit as st

from trustuqa_core.app_services.card_reasons import reason_line
from trustuqa_core.app_services.routing_view import routing_view
from trustuqa_core.app_services.run_tables import (
    as_sentence,
    candidates_of,
    element_rows,
    evidence_table_rows,
    mapping_rows,
    overrides_text,
    provenance_rows,
    query_label,
    run_verdict,
    what_to_try,
    writer_error_line,
)
from trustuqa_core.app_services.runs import Run, shaped_by_text, writer_label
from trustuqa_core.app_services.source_choice import (
    choice_text,
    unsure_sources,
    word_source_line,
    word_sources,
)
from trustuqa_core.app_services.suggestion import (
    adopt_button_label,
    adoption_text,
    suggestion_line,
)
from trustuqa_core.export import md_escape
from trustuqa_core.store import GraphStore
from trustuqa_core.trace import Trace
from trustuqa_core.verdict import Reason, Verdict

__all__ = ["answer_card", "query_editor", "steps_view", "provenance_view", "mapping_view",
           "routing_section", "suggestion_panel", "step_anchor", "scroll_to", "VIEW_ANCHOR"]

#: the key of the container around the Details view switch (a reason's "Open the mappings")
VIEW_ANCHOR = "tq_details"

_STATUS_ICON = {"ok": ":material/check_circle:", "empty": ":material/warning:",
                "error": ":material/error:", "unanswered": ":material/help:",
                "inferred": ":material/smart_toy:"}
_STAGE = {"parse": "reading the query", "map": "mapping arguments to the data",
          "rewrite": "turning a call into a plan", "execute": "executing the plan"}


def answer_card(run: Run, on_override: Callable[[dict[str, str]], None] | None = None,
                on_goto: Callable[[str, int | None], None] | None = None,
                on_ask_over: Callable[[str], None] | None = None,
                loaded: Sequence[str] = (),
                on_adopt: Callable[[], None] | None = None,
                graph: GraphStore | None = None,
                on_ask_all: Callable[[], None] | None = None) -> None:
    """The verdict first: green only for ``verified``; amber ``check`` with its reasons (a
    weak mapping with a one-click runner-up override, a link to each step or mapping the
    reasons point at, "Answer over <source> only" for ``source_unsure``, "Ask over <source>
    only" for ``word_of_other_source``); grey ``no answer`` with what to try, and a suggestion
    from a source the question was not routed to as such (``on_adopt`` asks again over that
    source). ``loaded`` names the loaded sources (for a run asked over some); ``graph`` is the
    whole loaded graph (for the sources a ``word_of_other_source`` points to); ``on_ask_all``
    asks again over every loaded source (offered on a no-answer card of a run asked over
    chosen sources)."""
    trace = run.trace
    verdict = run_verdict(run)
    st.subheader("Answer")
    chosen = choice_text(run, loaded)
    if chosen and on_ask_all is not None and run.sources is not None \
            and verdict.label != "no answer":  # (the no-answer box offers it in its own words)
        left, right = st.columns([5, 2], vertical_alignment="center")
        left.caption(":material/filter_alt: " + md_escape(chosen))
        right.button("Ask over all loaded sources", key=f"tq_all_top{run.rid}",
                     on_click=on_ask_all, icon=":material/filter_alt_off:",
                     help="Your \"Ask over\" choice stays for the next questions until you "
                          "clear it: this clears it and answers the question again over every "
                          "loaded source, routed automatically.")
    elif chosen:
        st.caption(":material/filter_alt: " + md_escape(chosen))
    if run.adopted is not None:
        st.caption(":material/call_made: " + md_escape(adoption_text(run.adopted, run.answer)))
    _overrides_line(run, on_override)
    for w in run.warnings:
        st.warning(md_escape(as_sentence(w)))
    answer = _answer_text(run.answer)
    if verdict.label == "verified":
        st.success(answer)
        st.caption(":material/verified: **Verified**: every value the question names is used by "
                   "the query, every mapping is clear, every step ran on the data.")
    elif verdict.label == "check":
        st.warning(f":material/help: **Check before use** — {answer}\n\n" + "\n".join(
            f"- {_reason_text(r)}" for r in verdict.reasons if r.code in verdict.blocking))
        _runner_up_buttons(run, verdict, on_override)
        _goto_buttons(run, verdict, on_goto)
        _source_buttons(run, verdict, loaded, on_ask_over)
        _word_source_buttons(run, verdict, graph, on_ask_over)
    else:
        _no_answer(run, verdict, on_ask_all)
        if run.suggestion is not None:
            suggestion_panel(run, on_adopt)
    _info_reasons(verdict, shown=("unrouted_source",) if run.suggestion is not None else ())
    cols = st.columns(3)
    cols[0].metric("Confidence", "n/a" if run.confidence is None else f"{run.confidence:.0%}",
                   help="Share of the LLM samples that voted for this answer (self-consistency)."
                   " n/a when fewer than two queries voted (e.g. the offline writer wrote one).")
    cols[1].metric("Steps", len(trace.steps))
    cols[2].metric("Evidence facts", len({f for s in trace.steps for f in
                                          s.output.all_witnesses()}))
    refused = run.verdict is not None and bool(trace.answer)  # a sample the vote refused
    note = "" if refused else run.note  # the no-answer box said it already
    st.caption(f"Query written by: {md_escape(writer_label(run.origin, run.model))}. "
               + md_escape(note))
    if run.shaped_by:
        st.caption(":material/thumb_up: " + md_escape(shaped_by_text(run)))
    routing_section(run)


def _overrides_line(run: Run, on_override: Callable[[dict[str, str]], None] | None) -> None:
    """The user's mapping overrides the answer rests on, with a button that undoes them."""
    text = overrides_text(run)
    if text is None:
        return
    left, right = st.columns([5, 1], vertical_alignment="center")
    left.caption(":material/edit: " + md_escape(text))
    if on_override is not None and right.button("Undo and re-run", key=f"tq_undo{run.rid}",
                                                help="Clears your mapping overrides and runs "
                                                     "the query again (no LLM call)."):
        on_override({})


def _answer_text(values: Sequence[str], limit: int = 30) -> str:
    """The answer's values as escaped bold Markdown (the first ``limit``, then how many more)."""
    shown = values[:limit]
    more = f" … and {len(values) - limit} more" if len(values) > limit else ""
    return "**" + "**, **".join(md_escape(a) for a in shown) + "**" + more if shown else ""


_SUGGESTION_VERDICT = {"verified": "verified over the source it read",
                       "check": "check before use", "no answer": "no answer"}


def suggestion_panel(run: Run, on_adopt: Callable[[], None] | None) -> None:
    """A no-answer card's suggestion: clearly not the answer (a blue badge, never green), its
    answer, the source(s) it came from, its own verdict and reasons, the query that found it,
    and one button that asks the question again over those sources."""
    s = run.suggestion
    if s is None:
        return
    with st.container(border=True, key=f"tq_sugg{run.rid}"):
        st.markdown(":blue-background[:material/lightbulb: **Suggestion — not the answer**]")
        st.caption(md_escape(suggestion_line(s)))
        st.markdown(f"Suggested answer (from {md_escape(', '.join(s.sources))}): "
                    + _answer_text(s.answer, 10))
        blocking = [r for r in s.reasons if r.code in s.blocking]
        noted = [r for r in s.reasons if r.code not in s.blocking]
        label = _SUGGESTION_VERDICT.get(s.verdict, s.verdict)
        st.markdown(f"Its own verdict: **{md_escape(label)}**"
                    + "".join(f"\n- **{md_escape(r.title)}**: {md_escape(r.message)} "
                              f":gray[`{r.code}`]" for r in blocking))
        if noted:
            st.caption("Also noted: " + "; ".join(f"**{md_escape(r.title)}**: "
                                                  f"{md_escape(r.message)}" for r in noted))
        if s.query:
            with st.expander("The query that found it"):
                st.code(s.query, language=None, wrap_lines=True)
        if on_adopt is not None:
            st.button(md_escape(adopt_button_label(s)), key=f"tq_adopt{run.rid}",
                      on_click=on_adopt, icon=":material/call_made:",
                      help="Asks the question again over this source alone (\"Ask over\" "
                           "above shows the choice); the new run records that you adopted "
                           "this suggestion, in the history and in its exports.")


def routing_section(run: Run) -> None:
    """The sources the run was asked of; the written query's routing as its own caption; the
    evidence from the question's words and from the written query under their own headings."""
    view = routing_view(run.trace, run.question_routing)
    if view is None:
        return
    st.caption(md_escape(view.line))
    if view.by_query:
        st.caption(":material/alt_route: " + md_escape(view.by_query))
    if view.question:
        with st.expander("Why these sources: the question's words"):
            st.markdown("\n".join(f"- {md_escape(e)}" for e in view.question))
    if view.query:
        with st.expander("Where the written query's arguments map"):
            st.markdown("\n".join(f"- {md_escape(e)}" for e in view.query))


def _reason_text(r: Reason, over: Sequence[str] | None = None) -> str:
    """One reason as Markdown: bold title, where it points, the message, the code (small);
    ``over``: the sources the user chose to ask over (see :func:`reason_line`)."""
    line = reason_line(r, over)
    return (f"**{md_escape(line.title)}**" + (f" ({md_escape(line.where)})" if line.where
                                              else "")
            + f": {md_escape(line.message)} :gray[`{line.code}`]")


def _source_buttons(run: Run, verdict: Verdict, loaded: Sequence[str],
                    on_ask_over: Callable[[str], None] | None) -> None:
    """``source_unsure``: one "Answer over <source> only" button per source involved."""
    names = unsure_sources(run, verdict, loaded) if on_ask_over is not None else []
    if not names or on_ask_over is None:
        return
    st.caption("The data cannot tell which source the question means. Answer it over one:")
    with st.container(horizontal=True, key=f"tq_over{run.rid}"):
        for i, name in enumerate(names):
            st.button(f"Answer over {md_escape(name)} only", key=f"tq_over{run.rid}_{i}",
                      on_click=on_ask_over, args=(name,),
                      help="Answers the question again over this source alone; the other "
                           "loaded sources stay loaded (\"Ask over\" above shows the choice).")


def _word_source_buttons(run: Run, verdict: Verdict, graph: GraphStore | None,
                         on_ask_over: Callable[[str], None] | None) -> None:
    """``word_of_other_source``: per source a question word names (and the answer was not
    read from), what the click does and one "Ask over <source> only" button."""
    if on_ask_over is None or graph is None:
        return
    offers = word_sources(run, verdict, graph)
    if not offers:
        return
    with st.container(key=f"tq_word{run.rid}"):
        for i, offer in enumerate(offers):
            st.caption(":material/alt_route: " + md_escape(word_source_line(offer)))
            st.button(f"Ask over {md_escape(offer.name)} only", key=f"tq_word{run.rid}_{i}",
                      on_click=on_ask_over, args=(offer.name,), icon=":material/filter_alt:",
                      help="Answers the question again over this source alone; the other "
                           "loaded sources stay loaded (\"Ask over\" above shows the choice, "
                           "and the history and exports say it was yours).")


def _runner_up_buttons(run: Run, verdict: Verdict,
                       on_override: Callable[[dict[str, str]], None] | None) -> None:
    """One button per weak mapping: re-run with its runner-up (no LLM call)."""
    if on_override is None:
        return
    for r in verdict.reasons:
        if r.code != "weak_mapping" or not r.arg:
            continue
        options = [c for c in candidates_of(run, r.arg)[1:] if c]
        if options and st.button(md_escape(f"Use {options[0]!r} for {r.arg} and re-run"),
                                 key=f"tq_v{run.rid}_{r.arg}"):
            on_override({**run.overrides, r.arg: options[0]})


def _goto_buttons(run: Run, verdict: Verdict,
                  on_goto: Callable[[str, int | None], None] | None) -> None:
    """Links from the reasons to the step (Steps view) or mapping (Mappings view) they name."""
    if on_goto is None:
        return
    targets: dict[tuple[str, int | None], str] = {}
    for r in verdict.reasons:
        if r.code not in verdict.blocking:
            continue
        if r.arg and (r.arg.startswith("Q") and "." in r.arg or r.arg == "target_type"):
            targets.setdefault(("Mappings", None), "Open the mappings")
        elif r.step:
            targets.setdefault(("Steps", r.step), f"Open Query{r.step}")
    if not targets:
        return
    cols = st.columns(len(targets))
    for col, ((view, step), label) in zip(cols, targets.items(), strict=True):
        col.button(label, key=f"tq_go{run.rid}_{view}_{step}", on_click=on_goto,
                   args=(view, step))


def _no_answer(run: Run, verdict: Verdict,
               on_ask_all: Callable[[], None] | None = None) -> None:
    trace = run.trace
    with st.container(border=True):
        st.markdown(":gray-background[**No answer**]")
        if run.writer_error:
            st.error(md_escape(writer_error_line(run.writer_error)))
        elif trace.error is not None:
            e = trace.error
            where = f" at Query{e.step}" if e.step else ""
            pos = f" (line {e.line}, column {e.column})" if e.line else ""
            st.error(f"No answer: the run stopped while {_STAGE.get(e.stage, e.stage)}{where}"
                     f"{pos}: {md_escape(e.message)}")
        elif run.verdict is not None and trace.answer:  # a refused sample: the note says why
            st.warning(md_escape(run.note))
        else:
            st.warning(md_escape(trace.explain_empty() or "The query ran but found nothing."))
        for r in verdict.reasons:
            if r.code == "unlinked_mention":
                st.markdown(f"- {_reason_text(r, run.sources)}")
        st.caption(md_escape(what_to_try(run)))
        if run.sources is not None and on_ask_all is not None:
            st.button("Ask over all loaded sources", key=f"tq_all{run.rid}",
                      on_click=on_ask_all, icon=":material/filter_alt_off:",
                      help="Clears your \"Ask over\" choice and answers the question again "
                           "over every loaded source, routed automatically.")


def _info_reasons(verdict: Verdict, shown: Sequence[str] = ()) -> None:
    """The non-blocking reasons ("Also noted"), except those the card said already
    (``shown``: e.g. ``unrouted_source``, which the suggestion panel words)."""
    info = [r for r in verdict.reasons if r.code not in verdict.blocking and r.code not in shown
            and r.code not in ("unlinked_mention", "no_query", "run_failed", "empty_answer")]
    if info:
        st.caption("Also noted: " + "; ".join(_reason_text(r) for r in info))
    if any(r.code == "llm_inferred" for r in verdict.reasons):
        st.warning("Some step was answered by the LLM fallback: **LLM-inferred, not verified** "
                   "against the data.")


def query_editor(run: Run, key: str) -> str | None:
    """The query as an editable text; returns the new text when the user re-runs it."""
    text = st.text_area(query_label(run.origin, run.model), run.query, height=220,
                        key=f"{key}_text")
    if st.button("Re-run this query", key=f"{key}_btn", type="primary"):
        return text or ""
    return None


def steps_view(trace: Trace, selected: int | None = None) -> None:
    """Each step: call, mapped call, plan, output set (size, elements, witnesses), evidence.

    The steps the answer depends on (the highlighted path), a selected step and failed or
    empty steps are open; side steps start collapsed."""
    steps = list(trace.steps) + ([trace.target_step] if trace.target_step else [])
    if not steps:
        st.info("No step was executed" + (f": {md_escape(trace.error.message)}"
                                          if trace.error else "."))
        return
    path = trace.needed_steps()
    for s in steps:
        name = f"Query{s.number}" if s.number else "Target type"
        label = f"{name} · {s.func} · {len(s.output.distinct())} result(s) · {s.status}"
        opened = selected == s.number or s.number in path or s.status in ("error", "empty")
        with st.container(key=step_anchor(s.number)), \
                st.expander(label, expanded=opened, icon=_STATUS_ICON.get(s.status)):
            if s.description:
                st.markdown(f"*{md_escape(s.description)}*")
            st.code(f"as written : {s.call}\nas mapped  : {s.mapped_call}", language=None,
                    wrap_lines=True)
            if s.ops:
                st.markdown("**Execution plan**")
                st.code("\n".join(s.ops), language=None, wrap_lines=True)
            for note in s.notes:
                st.info(md_escape(note))
            if s.error:
                st.error(f"Query{s.number} failed: {md_escape(s.error)}")
            if s.inferred_note:
                st.warning(f"LLM-inferred, not verified: {md_escape(s.inferred_note)}")
            out = s.output
            st.markdown(f"**output_of_query{s.number}**: {len(out)} element(s), "
                        f"{len(out.distinct())} distinct")
            if out:
                st.dataframe(pd.DataFrame(element_rows(trace, s)), hide_index=True)
                facts = out.all_witnesses()
                if facts:
                    st.markdown(f"**Evidence** ({len(facts)} fact(s))")
                    st.dataframe(pd.DataFrame(evidence_table_rows(trace, facts)), hide_index=True)


def step_anchor(number: int) -> str:
    """The key of the container around step ``number``'s panel in the Steps view (0: the
    target type), which a reason's "Open QueryN" scrolls to.

    >>> step_anchor(6), step_anchor(0)
    ('tq_step_6', 'tq_step_0')
    """
    return f"tq_step_{int(number)}"


_SCROLL_JS = """<script>
(function () {
  var tries = 0, sel = ".st-key-%s";
  var timer = setInterval(function () {
    var el = document.querySelector(sel);
    if (el) { el.scrollIntoView({behavior: "smooth", block: "start"}); clearInterval(timer); }
    if (++tries > 50) { clearInterval(timer); }
  }, 100);
})();
</script>"""


def scroll_to(anchor: str) -> None:
    """Scroll the page to the container keyed ``anchor`` (one of this module's anchors: the
    script holds no data, only a key made of letters, digits and underscores)."""
    if not anchor.replace("_", "").isalnum():
        raise ValueError(f"not an anchor key: {anchor!r}")
    st.html(_SCROLL_JS % anchor, unsafe_allow_javascript=True)


def provenance_view(trace: Trace) -> None:
    """For each answer element, the source rows / triples behind it."""
    prov = trace.answer_provenance()
    if not prov:
        st.info("No answer elements to trace back.")
        return
    st.dataframe(pd.DataFrame(provenance_rows(prov)), hide_index=True)


def mapping_view(run: Run, key: str, on_override: Callable[[dict[str, str]], None],
                 on_confirm: Callable[[str], None]) -> None:
    """The mapping table and a panel to confirm or fix one argument (re-runs without the LLM)."""
    rows = mapping_rows(run)
    if not rows:
        st.info("This query has no literal arguments to map.")
        return
    frame = pd.DataFrame(rows)
    st.dataframe(frame, hide_index=True, column_order=[
        "argument", "written", "mapped to", "status", "score", "margin", "runner-up", "method",
        "among"], column_config={
        "score": st.column_config.ProgressColumn("score", min_value=0.0, max_value=1.0,
                                                 format="%.2f", width="small"),
        "margin": st.column_config.NumberColumn("margin", format="%.2f", width="small",
                                                help="score minus the runner-up's score"),
        "argument": st.column_config.TextColumn("argument", width="small"),
    })
    weak = [r["argument"] for r in rows if r["status"].startswith("weak")]
    if weak:
        st.warning("Weak mapping(s): " + ", ".join(md_escape(w) for w in weak)
                   + ". Check the runner-up and fix below if needed.")
    st.markdown("#### Check or fix a mapping")
    arg = st.selectbox("Argument", [r["argument"] for r in rows], key=f"{key}_arg",
                       index=rows.index(next((r for r in rows if r["argument"] in weak), rows[0])))
    options = candidates_of(run, arg) + ["(type another label)"]
    choice = st.radio("Map it to", options, key=f"{key}_choice_{arg}", horizontal=True,
                      format_func=md_escape)  # option labels are Markdown: escape data
    typed = ""
    if choice == "(type another label)":
        typed = st.text_input("Exact label of a node or relation in the data", key=f"{key}_typed")
    c1, c2, c3 = st.columns(3)
    if c1.button("Confirm this mapping", key=f"{key}_confirm"):
        on_confirm(arg)
    target = typed.strip() if choice == "(type another label)" else choice
    if c2.button("Apply override and re-run", key=f"{key}_apply", type="primary"):
        if target:
            on_override({**run.overrides, arg: target})
        else:
            st.warning("Type the label to map this argument to.")
    if run.overrides and c3.button("Clear all overrides", key=f"{key}_clear"):
        on_override({})
    if run.overrides:
        st.caption("Overrides in effect: " + "; ".join(
            f"{md_escape(k)} → {md_escape(v)}" for k, v in run.overrides.items()))
