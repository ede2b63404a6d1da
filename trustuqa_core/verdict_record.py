"""The record of a trust verdict: its label and reasons (what a trace stores and shows).

How a verdict is reached is :mod:`trustuqa_core.verdict`; this module only holds the result,
so that the trace can store it without depending on the judge.

>>> v = Verdict("check", (Reason("vote_tie", "a tie"),), ("vote_tie",))
>>> v.verified, v.codes, v.to_dict()["verdict"]
(False, ['vote_tie'], 'check')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Label", "LABELS", "Reason", "Verdict"]

Label = Literal["verified", "check", "no answer"]
LABELS: tuple[Label, ...] = ("verified", "check", "no answer")


@dataclass(frozen=True)
class Reason:
    """Why the verdict is what it is: ``code`` (see :data:`REASON_CODES`), a sentence, and
    the query number (``step``) and argument key or mention (``arg``) it concerns."""

    code: str
    message: str
    step: int | None = None
    arg: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "step": self.step, "arg": self.arg}


@dataclass(frozen=True)
class Verdict:
    """``verified`` / ``check`` / ``no answer`` and the reasons (blocking ones first)."""

    label: Label
    reasons: tuple[Reason, ...] = ()
    blocking: tuple[str, ...] = field(default=(), compare=False)

    @property
    def verified(self) -> bool:
        return self.label == "verified"

    @property
    def codes(self) -> list[str]:
        return [r.code for r in self.reasons]

    def headline(self) -> str:
        """One line for the CLI and the card.

        >>> Verdict("check", (Reason("vote_tie", "a tie"),), ("vote_tie",)).headline()
        'check: a tie'
        """
        shown = [r.message for r in self.reasons if r.code in self.blocking] or [
            r.message for r in self.reasons]
        return self.label + (": " + "; ".join(shown[:3]) if shown else "")

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.label, "reasons": [r.to_dict() for r in self.reasons]}
