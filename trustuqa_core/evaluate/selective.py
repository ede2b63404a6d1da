"""Selective-prediction figures of a run: how the trust verdict sorts right from wrong.

Each outcome carries its verdict in ``groups["verdict"]`` (``verified`` / ``check`` /
``no answer``) and one flag ``why:<code>`` per blocking reason (``info:<code>`` for reasons
shown but not blocking), so the ordinary summary already breaks accuracy down by verdict
and by reason. :func:`verdict_summary` adds the figures the issue asks for:

* ``verdicts``: ``{verified: {n, correct}, check: {n, correct}, none: {n}}``;
* ``precision_verified``: correct / verified;
* ``coverage``: the share of all correct answers that are ``verified``;
* ``wrong_verified``: wrong-and-verified answers as a share of all evaluated questions;
* ``risk_coverage``: operating points from strictest to loosest (``verified`` only, then
  ``check`` answers with at most 1, 2, ... blocking reasons, then every answer), each with
  the share of questions answered and the error rate among them;
* ``by_half``: the same per ``half`` group (tune / check tables), when outcomes have one;
* ``any_answer``: the same figures with any-answer Hits@1 as correctness, when outcomes carry
  a ``hits1_any`` score (MetaQA), for questions with a gold answer.

>>> from trustuqa_core.evaluate.outcome import Outcome
>>> def o(i, ok, label, *codes):
...     return Outcome(i, "wtq", "?", ok, "correct" if ok else "wrong", ["a"], ["a"], 0.0,
...                    groups={"verdict": label}, flags={f"why:{c}": True for c in codes})
>>> s = verdict_summary([o("1", True, "verified"), o("2", False, "check", "vote_tie"),
...                      o("3", True, "check", "weak_mapping"), o("4", False, "no answer")])
>>> s["verdicts"], s["precision_verified"], s["coverage"], s["wrong_verified"]
({'verified': {'n': 1, 'correct': 1}, 'check': {'n': 2, 'correct': 1}, 'none': {'n': 1}}, \
1.0, 0.5, 0.0)
>>> [(p["label"], p["answered"], p["risk"]) for p in s["risk_coverage"]]
[('verified', 0.25, 0.0), ('check <= 1 reason', 0.75, 0.3333333333333333)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from ..verdict import Verdict
from .outcome import Outcome

__all__ = ["verdict_fields", "verdict_summary", "blocking_count"]


def verdict_fields(verdict: Verdict) -> tuple[dict[str, str], dict[str, bool]]:
    """(groups, flags) recording a verdict on an :class:`Outcome`.

    >>> from trustuqa_core.verdict import Reason
    >>> verdict_fields(Verdict("check", (Reason("vote_tie", "tie"), Reason("user_demo", "u")),
    ...                        ("vote_tie",)))
    ({'verdict': 'check'}, {'why:vote_tie': True, 'info:user_demo': True})
    """
    flags: dict[str, bool] = {}
    for r in verdict.reasons:
        flags[f"{'why' if r.code in verdict.blocking else 'info'}:{r.code}"] = True
        if r.code == "unexplained_words":  # the count, for choosing the threshold
            flags[f"count:unexplained_words:{min(len((r.arg or '').split(', ')), 4)}"] = True
    return {"verdict": verdict.label}, flags


def blocking_count(o: Outcome) -> int:
    """How many distinct blocking reasons an outcome's verdict had."""
    return sum(1 for f, on in o.flags.items() if on and f.startswith("why:"))


def _rate(a: int, b: int) -> float | None:
    return a / b if b else None


def _figures(items: Sequence[Outcome]) -> dict[str, Any]:
    ver = [o for o in items if o.groups.get("verdict") == "verified"]
    chk = [o for o in items if o.groups.get("verdict") == "check"]
    none = [o for o in items if o.groups.get("verdict") == "no answer"]
    correct = sum(o.correct for o in items)
    ver_ok = sum(o.correct for o in ver)
    return {
        "n": len(items),
        "verdicts": {"verified": {"n": len(ver), "correct": ver_ok},
                     "check": {"n": len(chk), "correct": sum(o.correct for o in chk)},
                     "none": {"n": len(none)}},
        "precision_verified": _rate(ver_ok, len(ver)),
        "coverage": _rate(ver_ok, correct),
        "wrong_verified": _rate(len(ver) - ver_ok, len(items)),
        "accuracy_check": _rate(sum(o.correct for o in chk), len(chk)),
    }


def verdict_summary(outcomes: Iterable[Outcome]) -> dict[str, Any]:
    """The selective-prediction figures (see the module docstring); ``{}`` when no outcome
    carries a verdict (ceiling runs)."""
    items = [o for o in outcomes if o.category != "not_evaluable" and "verdict" in o.groups]
    if not items:
        return {}
    out = _figures(items)
    out.pop("n")
    curve = []
    n = len(items)
    kept = [o for o in items if o.groups["verdict"] == "verified"]
    if kept:
        curve.append(_point("verified", kept, n))
    checks = [o for o in items if o.groups["verdict"] == "check"]
    most = max((blocking_count(o) for o in checks), default=0)
    for k in range(1, most + 1):
        kept = kept + [o for o in checks if blocking_count(o) == k]
        if not kept:  # nothing verified and no check with this few reasons: no point yet
            continue
        curve.append(_point(f"check <= {k} reason{'s' if k > 1 else ''}", kept, n))
    out["risk_coverage"] = curve
    halves = sorted({o.groups["half"] for o in items if "half" in o.groups})
    if halves:
        out["by_half"] = {h: _figures([o for o in items if o.groups.get("half") == h])
                          for h in halves}
    if any("hits1_any" in o.scores for o in items):
        lenient = [replace(o, correct=bool(o.gold) and o.scores.get("hits1_any", 0.0) == 1.0)
                   for o in items]
        out["any_answer"] = _figures(lenient)
    return out


def _point(label: str, kept: Sequence[Outcome], n: int) -> dict[str, Any]:
    wrong = sum(not o.correct for o in kept)
    return {"label": label, "answered": len(kept) / n, "risk": wrong / len(kept),
            "n": len(kept), "correct": len(kept) - wrong}
