"""Merge the translator's executed answer and the searcher's LLM-read answer without labels.

UniOQA's DDA keeps whichever answer set has the higher F1 *against the gold answer*: an
oracle no live system has. :func:`merge` decides from what is known at answer time, in order:

1. ``no_searcher``: the searcher did not answer -> the executed answer (possibly empty).
2. ``no_translator``: execution gave nothing -> the searcher's answer (unverified); the
   reason says whether it is grounded (every answer named by a retrieved triple).
3. ``agree``: the two share an answer -> the executed answer (it carries evidence).
4. ``trusted_execution``: they disagree, and the executed run is trustworthy — ERR kept the
   query's own names (nothing replaced) or the trust verdict is ``verified`` -> executed.
5. ``grounded_searcher``: they disagree, the executed run needed replacements and is not
   verified, and the searcher's answer is grounded -> the searcher's answer.
6. ``default_execution``: otherwise the executed answer.

:func:`bna` is the baseline the paper compares with ("searcher only when execution is
empty").

>>> merge(["Drama"], ["drama", "Music"], replaced=True, verdict="check", grounded=True).reason
'agree'
>>> merge(["Comedy"], ["Drama"], replaced=True, verdict="check", grounded=True).source
'searcher'
>>> merge([], ["Drama"], replaced=False, verdict="no answer", grounded=False).reason
'no_translator'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..text import normalize

__all__ = ["Decision", "merge", "bna", "REASONS"]

REASONS = {
    "no_searcher": "the searcher gave no answer: the executed answer stands",
    "no_translator": "execution gave no answer: the searcher's (unverified) answer is used",
    "agree": "the searcher agrees with the executed answer",
    "trusted_execution": "the answers differ; the executed query needed no replacement or "
                         "its verdict is verified",
    "grounded_searcher": "the answers differ; the executed query needed replacements and is "
                         "not verified, while every searcher answer is in a retrieved triple",
    "default_execution": "the answers differ and the searcher's answer is not grounded",
}


@dataclass(frozen=True)
class Decision:
    """Which answer was kept (``translator``, ``searcher`` or ``none``) and why."""

    source: str
    answer: tuple[str, ...]
    reason: str

    @property
    def message(self) -> str:
        return REASONS[self.reason]

    @property
    def unverified(self) -> bool:
        """True when the kept answer was read by an LLM, not executed."""
        return self.source == "searcher"


def _pick(source: str, answer: Sequence[str], reason: str) -> Decision:
    return Decision(source if answer else "none", tuple(answer), reason)


def merge(translator: Sequence[str], searcher: Sequence[str] | None, *, replaced: bool,
          verdict: str | None, grounded: bool) -> Decision:
    """The label-free decision (see the module docstring)."""
    if not searcher:
        return _pick("translator", translator, "no_searcher")
    if not translator:
        return _pick("searcher", searcher, "no_translator")
    if {normalize(a) for a in translator} & {normalize(a) for a in searcher}:
        return _pick("translator", translator, "agree")
    if not replaced or verdict == "verified":
        return _pick("translator", translator, "trusted_execution")
    if grounded:
        return _pick("searcher", searcher, "grounded_searcher")
    return _pick("translator", translator, "default_execution")


def bna(translator: Sequence[str], searcher: Sequence[str] | None) -> Decision:
    """The baseline: the executed answer, the searcher's only when execution is empty."""
    if translator or not searcher:
        return _pick("translator", translator, "no_searcher")
    return _pick("searcher", searcher, "no_translator")
