"""What the Ask page says and offers when the user picks the sources a question is asked over.

Two things, as plain data (the page escapes and draws them):

- :func:`choice_text`: the line a run asked over chosen sources carries ("Asked over
  roster_2022.csv only (your choice) ...");
- :func:`unsure_sources`: on a card whose verdict has the reason ``source_unsure``, the
  sources involved (the ones the answer was read from, then the ones the reason names), one
  "Answer over <source> only" button each;
- :func:`word_sources`: on a card whose verdict has the reason ``word_of_other_source`` (a
  question word names a relation or column of another loaded source than the one the answer
  was read from), that other source and its words, one "Ask over <source> only" button each
  (:func:`word_source_line` says what the click does);
- :func:`choice_markdown`: the Markdown export's line on a run asked over chosen sources.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..export import md_escape
from ..routing import words_of_one_other_source
from ..source_verdict import missing_in
from ..store import GraphStore
from ..verdict import Verdict
from .runs import Run

__all__ = ["choice_text", "unsure_sources", "word_sources", "word_source_line", "WordSource",
           "choice_markdown", "MAX_SOURCE_BUTTONS", "AUTO_LABEL"]

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



@dataclass(frozen=True)
class WordSource:
    """A loaded source a ``word_of_other_source`` reason points to, and the question's words
    naming one of its relations or columns."""

    name: str
    words: tuple[str, ...]
    #: what the question names that ``name`` holds no node of (the answer's source does):
    #: asked over ``name`` alone, the question will likely find nothing
    missing: tuple[str, ...] = ()


def word_sources(run: Run, verdict: Verdict, graph: GraphStore,
                 limit: int = MAX_SOURCE_BUTTONS) -> list[WordSource]:
    """The sources to offer "Ask over <source> only" for: empty unless ``verdict`` has the
    reason ``word_of_other_source``; else, per word of the reason (its ``arg``), the one loaded
    source of ``graph`` (the whole loaded graph) whose relation or column names it and which
    the answer was not read from, read as the reason reads it
    (:func:`~trustuqa_core.routing.words_of_one_other_source`); within the sources the run was
    asked over; nothing when it was already asked over one chosen source.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.app_services.runs import execute_text
    >>> from trustuqa_core.verdict import Reason, with_reasons
    >>> g = load_graph(tables=[b"Name,Department\\nChen Wei,Marketing\\n"],
    ...                kgs=[b"Dune|written_by|Frank Herbert\\n"])
    >>> q = "Query1: \\"get_information(relation='Department', head_entity='Chen Wei')\\""
    >>> run = execute_text(q, g, None, origin="hand-written", question="who wrote Chen Wei?")
    >>> v = with_reasons(run.trace.verdict, [Reason("word_of_other_source", "...", None,
    ...                                             "wrote")])
    >>> word_sources(run, v, g)
    [WordSource(name='kg1', words=('wrote',), missing=('Chen Wei',))]
    """
    if run.sources is not None and len(run.sources) == 1:
        return []
    words = [w.strip() for r in verdict.reasons if r.code == "word_of_other_source"
             for w in (r.arg or "").split(",") if w.strip()]
    if not words:
        return []
    routing = run.trace.routing
    used = set(routing.used if routing is not None else ())
    asked = set(run.sources) if run.sources is not None else None
    one = words_of_one_other_source(words, graph, used, asked)
    found: dict[str, list[str]] = {}
    for w in dict.fromkeys(words):
        if w in one:
            found.setdefault(one[w], []).append(w)
    return [WordSource(name, tuple(ws), tuple(missing_in(run.trace, graph, name)))
            for name, ws in found.items()][:limit]


def word_source_line(offer: WordSource) -> str:
    """What the card says above an "Ask over <source> only" button: what the click does (the
    reason above it already says which word names what, and where the answer was read).

    >>> print(word_source_line(WordSource("books.txt", ("wrote",))))
    ... # doctest: +NORMALIZE_WHITESPACE
    To answer from books.txt, the source 'wrote' points to: ask over it only. The question is
    answered again from books.txt alone; the other sources stay loaded, and the new answer
    says it was your choice.
    >>> print(word_source_line(WordSource("books.txt", ("wrote",), ("Chen Wei",))))
    ... # doctest: +NORMALIZE_WHITESPACE
    books.txt, the source 'wrote' points to, has nothing named 'Chen Wei': asked over it
    alone, the question will likely find no answer (unless books.txt spells it otherwise).
    To try anyway, ask over it only; the other sources stay loaded, and the new answer says
    it was your choice.
    """
    words = " and ".join(repr(w) for w in offer.words)
    points = "points" if len(offer.words) == 1 else "point"
    if offer.missing:
        named = " and ".join(repr(m) for m in offer.missing)
        return (f"{offer.name}, the source {words} {points} to, has nothing named {named}: "
                f"asked over it alone, the question will likely find no answer (unless "
                f"{offer.name} spells it otherwise). To try anyway, ask over it only; the "
                "other sources stay loaded, and the new answer says it was your choice.")
    return (f"To answer from {offer.name}, the source {words} {points} to: ask over it "
            f"only. The question is answered again from {offer.name} alone; the other "
            "sources stay loaded, and the new answer says it was your choice.")


def choice_markdown(record: Mapping[str, Any]) -> str:
    """The Markdown export's section on a run asked over chosen sources (``asked_over`` of
    its record; empty otherwise); names pass through :func:`~trustuqa_core.export.md_escape`.

    >>> print(choice_markdown({"asked_over": ["books.txt"]}))  # doctest: +NORMALIZE_WHITESPACE
    <BLANKLINE>
    ## Sources chosen by the user
    <BLANKLINE>
    - Asked over books.txt only: the user's choice, not routing's
    <BLANKLINE>
    """
    chosen = record.get("asked_over")
    if not isinstance(chosen, list) or not chosen:
        return ""
    return ("\n## Sources chosen by the user\n\n"
            f"- Asked over {md_escape(', '.join(map(str, chosen)))} only: the user's choice, "
            "not routing's\n")
