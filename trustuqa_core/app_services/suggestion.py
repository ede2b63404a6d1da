"""A suggestion from a source the question was not routed to, and the user adopting it.

When the routed source(s) give no answer but an attempt over every loaded source found one in
another source, :func:`trustuqa_core.answer` returns *no answer* with the reason
``unrouted_source`` and that attempt as :attr:`~trustuqa_core.answer.Answer.suggestion`. The
card shows it as what it is (not the answer): its answer, the source(s) it was read from, its
own verdict and reasons, and one click to adopt it by asking the question again over those
sources. The new run keeps an :class:`Adoption`, which the history and the exports show.

Plain data only: the page escapes and draws it.

>>> s = Suggestion(("Marketing",), ("staff.csv",), ("books.txt",), "check",
...                (SuggestedReason("weak_mapping", "Weak mapping", "'Chen Wei' -> ..."),),
...                "Query1: ...")
>>> print(suggestion_line(s))  # doctest: +NORMALIZE_WHITESPACE
Not the answer. The question was routed to books.txt, where the query found nothing; an
attempt over the other loaded sources found this in staff.csv.
>>> adopt_button_label(s)
'Ask again over staff.csv'
>>> a = adoption_of(s, "run1", "who wrote Dune?")
>>> print(adoption_text(a, ["Marketing"]))  # doctest: +NORMALIZE_WHITESPACE
You adopted the suggestion of an earlier run: asked again over staff.csv (it had suggested
Marketing). Same answer as suggested.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..answer import Answer
from ..export import md_escape
from .card_reasons import reason_line

__all__ = ["Suggestion", "SuggestedReason", "Adoption", "suggestion_of", "suggestion_line",
           "adopt_button_label", "adoption_of", "adoption_text", "suggestion_markdown",
           "without_suggestion_message"]


@dataclass(frozen=True)
class SuggestedReason:
    """One reason of the suggestion's own verdict, as the card words it."""

    code: str
    title: str
    message: str


@dataclass(frozen=True)
class Suggestion:
    """An answer read from a source the question was not routed to (not the run's answer)."""

    answer: tuple[str, ...]
    sources: tuple[str, ...]  # the sources it was read from
    routed: tuple[str, ...]  # the sources the question was routed to (which found nothing)
    verdict: str  # its own verdict: verified / check / no answer
    reasons: tuple[SuggestedReason, ...]
    query: str | None
    blocking: tuple[str, ...] = ()
    message: str = ""  # the ``unrouted_source`` reason's message

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON for exports."""
        return {"answer": list(self.answer), "sources": list(self.sources),
                "routed": list(self.routed), "verdict": self.verdict,
                "reasons": [{"code": r.code, "message": r.message} for r in self.reasons],
                "query": self.query}


@dataclass(frozen=True)
class Adoption:
    """A run asked again over a suggestion's sources because the user adopted it."""

    from_rid: str  # the run that showed the suggestion
    question: str
    sources: tuple[str, ...]
    suggested: tuple[str, ...]  # the answer it suggested

    def to_dict(self) -> dict[str, Any]:
        return {"from_run": self.from_rid, "question": self.question,
                "sources": list(self.sources), "suggested_answer": list(self.suggested)}

    @classmethod
    def from_dict(cls, d: Any) -> Adoption | None:
        """An exported adoption read back (None when ``d`` is not one: an uploaded file is
        not trusted to have the right shape).

        >>> Adoption.from_dict({"from_run": "r1", "question": "q", "sources": ["s.csv"],
        ...                     "suggested_answer": ["x"]})
        Adoption(from_rid='r1', question='q', sources=('s.csv',), suggested=('x',))
        >>> Adoption.from_dict({"sources": "s.csv"}) is None
        True
        """
        if not isinstance(d, dict):
            return None
        sources, suggested = d.get("sources"), d.get("suggested_answer")
        if not (isinstance(sources, list) and isinstance(suggested, list)):
            return None
        return cls(str(d.get("from_run", "")), str(d.get("question", "")),
                   tuple(map(str, sources)), tuple(map(str, suggested)))


def suggestion_of(a: Answer) -> Suggestion | None:
    """The suggestion of ``a`` (see the module docstring), or None when it has none."""
    s = a.suggestion
    if s is None or not s.answer:
        return None
    routing = s.trace.routing if s.trace is not None else None
    verdict = s.judged()
    routed = tuple(a.routing.sources) if a.routing is not None else ()
    used = tuple(routing.used) if routing is not None else ()
    message = next((r.message for r in (a.verdict.reasons if a.verdict else ())
                    if r.code == "unrouted_source"), "")
    reasons = tuple(SuggestedReason(r.code, reason_line(r).title, r.message)
                    for r in verdict.reasons)
    return Suggestion(tuple(s.answer), tuple(x for x in used if x not in routed) or used,
                      routed, verdict.label, reasons,
                      s.trace.query_text if s.trace is not None else None,
                      tuple(verdict.blocking), message)


def _names(names: Sequence[str]) -> str:
    return ", ".join(names) if names else "the sources it was routed to"


def suggestion_line(s: Suggestion) -> str:
    """The sentence that says what the suggestion is and where it comes from."""
    return (f"Not the answer. The question was routed to {_names(s.routed)}, where the query "
            f"found nothing; an attempt over the other loaded sources found this in "
            f"{_names(s.sources)}.")


def adopt_button_label(s: Suggestion) -> str:
    """The label of the button that adopts ``s``."""
    return f"Ask again over {', '.join(s.sources)}"


def adoption_of(s: Suggestion, rid: str, question: str) -> Adoption:
    """What a run made by adopting ``s`` (shown on run ``rid``) records."""
    return Adoption(rid, question, s.sources, s.answer)


def adoption_text(a: Adoption, answer: Sequence[str]) -> str:
    """The card's line for a run made by adopting a suggestion; ``answer`` is that run's."""
    shown = ", ".join(a.suggested[:5]) + (" …" if len(a.suggested) > 5 else "")
    same = sorted(answer) == sorted(a.suggested)
    outcome = ("Same answer as suggested." if same else
               "No answer over it." if not answer else
               "The answer differs from the suggestion.")
    return (f"You adopted the suggestion of an earlier run: asked again over "
            f"{', '.join(a.sources)} (it had suggested {shown}). {outcome}")


def without_suggestion_message(texts: Sequence[str], s: Suggestion | None) -> list[str]:
    """``texts`` (warnings) without the ``unrouted_source`` message the suggestion panel
    already shows.

    >>> without_suggestion_message(["a", "b"], None)
    ['a', 'b']
    """
    if s is None or not s.message:
        return list(texts)
    return [t for t in texts if t != s.message]


def suggestion_markdown(record: dict[str, Any]) -> str:
    """The export's Markdown section on a suggestion or an adoption (empty when neither);
    every data string passes through :func:`~trustuqa_core.export.md_escape`.

    >>> print(suggestion_markdown({"suggestion": {"answer": ["*x*"], "sources": ["s.csv"],
    ...     "routed": ["k.txt"], "verdict": "check", "reasons": [], "query": "Q"}}))
    ... # doctest: +NORMALIZE_WHITESPACE
    <BLANKLINE>
    ## Suggestion (not the answer)
    <BLANKLINE>
    - **Suggested answer:** \\*x\\* (from s.csv; the question was routed to k.txt)
    - **Its own verdict:** check
    <BLANKLINE>
    """
    lines: list[str] = []
    s = record.get("suggestion")
    if s:
        lines += ["", "## Suggestion (not the answer)", "",
                  f"- **Suggested answer:** {', '.join(md_escape(x) for x in s['answer'])} "
                  f"(from {md_escape(', '.join(s['sources']))}; the question was routed to "
                  f"{md_escape(', '.join(s['routed']))})",
                  f"- **Its own verdict:** {md_escape(s['verdict'])}"]
        lines += [f"- reason `{md_escape(r['code'])}`: {md_escape(r['message'])}"
                  for r in s["reasons"]]
    a = record.get("adopted_suggestion")
    if a:
        lines += ["", "## Adopted suggestion", "",
                  f"- Asked again over {md_escape(', '.join(a['sources']))} because the user "
                  f"adopted the suggestion of run {md_escape(a['from_run'])} "
                  f"(suggested: {', '.join(md_escape(x) for x in a['suggested_answer'])})"]
    return "\n".join(lines) + ("\n" if lines else "")
