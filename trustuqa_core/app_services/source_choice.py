"""What the Ask page says and offers when the user picks the sources a question is asked over.

Two things, as plain data (the page escapes and draws them):

- :func:`choice_text`: the line a run asked over chosen sources carries ("Asked over
  roster_2022.csv only (your choice) ...");
- :func:`unsure_sources`: on a card whose verdict has the reason ``source_unsure``, the
  sources involved (the ones the answer was read from, then the ones the reason names), one
  "Answer over <source> only" button each.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.app_services.runs import execute_text
>>> g = load_graph(tables=[b"Team\\nReds\\n", b"Team\\nBlues\\n"])
>>> q = "Query1: \\"get_information(relation='Team', tail_entity='Reds')\\""
>>> run = execute_text(q, g, None, origin="hand-written", sources=["table1"])
>>> print(choice_text(run, [s.name for s in g.sources]))  # doctest: +NORMALIZE_WHITESPACE
Asked over table1 only (your choice); left out: table2. Re-runs of this answer (a mapping
override, an edited query) stay over it.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..verdict import Verdict
from .runs import Run

__all__ = ["choice_text", "unsure_sources", "MAX_SOURCE_BUTTONS", "AUTO_LABEL"]

#: at most this many "Answer over <source> only" buttons on one card
MAX_SOURCE_BUTTONS = 5
#: what the "Ask over" control says when nothing is chosen
AUTO_LABEL = "all loaded sources, routed automatically"


def choice_text(run: Run, loaded: Sequence[str]) -> str | None:
    """The card's line for a run asked over the sources the user chose (None otherwise);
    ``loaded`` names every loaded source, so the line can say which were left out."""
    if run.sources is None:
        return None
    chosen = ", ".join(run.sources)
    only = " only" if len(run.sources) == 1 else " only (of the loaded sources)"
    left = [s for s in loaded if s not in run.sources]
    text = f"Asked over {chosen}{only} (your choice)"
    if left:
        shown = ", ".join(left[:5]) + (f" and {len(left) - 5} more" if len(left) > 5 else "")
        text += f"; left out: {shown}"
    return text + (". Re-runs of this answer (a mapping override, an edited query) stay over "
                   + ("it." if len(run.sources) == 1 else "them."))


def _named(arg: str, loaded: Sequence[str]) -> list[str]:
    """The loaded source names a reason's ``arg`` lists (``"a.csv, b.csv"``), in its order;
    a name holding ``", "`` itself is found whole."""
    found: list[tuple[int, str]] = []
    padded = f", {arg}, "
    for name in loaded:
        at = padded.find(f", {name}, ")
        if at >= 0:
            found.append((at, name))
    return [name for _, name in sorted(found)]


def unsure_sources(run: Run, verdict: Verdict, loaded: Sequence[str],
                   limit: int = MAX_SOURCE_BUTTONS) -> list[str]:
    """The sources to offer "Answer over <source> only" for: empty unless ``verdict`` has
    the reason ``source_unsure``; else the sources the answer was read from, then those the
    reason names, each once, only loaded ones, at most ``limit``; nothing when the run was
    already asked over one chosen source.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.app_services.runs import execute_text
    >>> from trustuqa_core.verdict import Reason, with_reasons
    >>> g = load_graph(tables=[b"Team\\nReds\\n", b"Team\\nReds\\n", b"Team\\nBlues\\n"])
    >>> q = "Query1: \\"get_information(relation='Team', tail_entity='Reds')\\""
    >>> run = execute_text(q, g, None, origin="hand-written")
    >>> v = with_reasons(run.trace.verdict, [Reason("source_unsure", "...", None,
    ...                                             "table2, gone.csv")])
    >>> unsure_sources(run, v, ["table1", "table2", "table3"])
    ['table1', 'table2']
    """
    if run.sources is not None and len(run.sources) == 1:
        return []
    reasons = [r for r in verdict.reasons if r.code == "source_unsure"]
    if not reasons:
        return []
    routing = run.trace.routing
    used = [s for s in (routing.used if routing is not None else ()) if s in loaded]
    named = [s for r in reasons for s in _named(r.arg or "", loaded)]
    return list(dict.fromkeys([*used, *named]))[:limit]

