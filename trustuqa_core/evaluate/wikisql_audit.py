"""A mechanical audit of WikiSQL's gold answers: the gold SQL re-executed with typed comparisons.

WikiSQL's gold answers were produced on SQLite tables where numbers written with thousands
separators stayed text, so ``crowd > '24,000'`` compared strings and kept a crowd of 19,475,
and ``AVG(crowd)`` read ``55,000`` as 55 (see :mod:`.wikisql_sqlite`). The audit re-executes
each question's *own gold SQL*, converted to a program as for the executor ceiling
(:func:`.ceilings.wikisql_outcome`), with our executor, which compares numbers by value, and
asks whether a prediction matches that typed answer. It is measurement only: the official
score stays the dataset's gold; the typed match is reported beside it, as a separately named
column. Annotation errors in the SQL itself (``COUNT`` where the question asks for a value, a
wrong selected column) are not corrected: the audit re-executes the SQL as written.

>>> typed_match(["55000"], ["55000.0"]), typed_match(["55000"], ["55"])
(True, False)
>>> typed_match([], []), typed_match(["0"], [])
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .ceilings import wikisql_outcome
from .datasets import Example
from .wikisql_gold import wikisql_match

__all__ = ["AuditFigures", "typed_gold", "typed_match", "audit_figures"]

#: ceiling categories of a gold program that did not run to an answer
_DID_NOT_RUN = frozenset({"parse", "mapping", "rewrite", "llm_function", "execute", "error"})


def typed_gold(example: Example) -> list[str] | None:
    """The answer of ``example``'s gold SQL run by our executor (numbers compared by value);
    None when the gold program fails to run."""
    outcome = wikisql_outcome(example)
    if outcome.category in _DID_NOT_RUN:
        return None
    return [str(a) for a in outcome.answer]


def typed_match(pred: Sequence[str], typed: Sequence[str] | None) -> bool:
    """True when ``pred`` matches the typed re-execution ``typed`` (WikiSQL's match rules; an
    empty typed answer is SQL NULL, matched by an empty prediction)."""
    if typed is None:
        return False
    return wikisql_match(pred, list(typed) or [None])


@dataclass(frozen=True)
class AuditFigures:
    """Precision of ``verified`` and wrong-and-verified share, against two references.

    ``official``: the dataset's gold answers; ``typed``: the typed re-execution of the gold
    SQL. ``artefacts`` counts the wrong-and-verified answers (official) that match the typed
    re-execution.

    >>> f = AuditFigures(n=10, verified=4, right_official=3, right_typed=4, artefacts=1)
    >>> for part in f.text().split(" | "):
    ...     print(part)
    n=10 verified=4
    official: precision 75.00% wrong-verified 10.00%
    typed re-execution: precision 100.00% wrong-verified 0.00%
    wrong-verified matching the typed gold: 1
    """

    n: int
    verified: int
    right_official: int
    right_typed: int
    artefacts: int

    def text(self) -> str:
        """One printable line."""
        def part(ok: int) -> str:
            p = f"{ok / self.verified:.2%}" if self.verified else "n/a"
            w = f"{(self.verified - ok) / self.n:.2%}" if self.n else "n/a"
            return f"precision {p} wrong-verified {w}"
        return (f"n={self.n} verified={self.verified} | official: {part(self.right_official)} | "
                f"typed re-execution: {part(self.right_typed)} | "
                f"wrong-verified matching the typed gold: {self.artefacts}")


def audit_figures(rows: Iterable[Mapping[str, Any]]) -> AuditFigures:
    """Figures of cached outcomes each carrying ``correct`` (official), ``typed_correct`` and
    ``groups.verdict``.

    >>> rs = [{"correct": False, "typed_correct": True, "groups": {"verdict": "verified"}},
    ...       {"correct": True, "typed_correct": True, "groups": {"verdict": "check"}}]
    >>> audit_figures(rs).artefacts
    1
    """
    rows = list(rows)
    verified = [r for r in rows if r["groups"].get("verdict") == "verified"]
    return AuditFigures(
        n=len(rows), verified=len(verified),
        right_official=sum(bool(r["correct"]) for r in verified),
        right_typed=sum(bool(r["typed_correct"]) for r in verified),
        artefacts=sum(1 for r in verified if not r["correct"] and r["typed_correct"]))
