"""Answer metrics for the benchmarks: Hits@1 and answer-set metrics.

All functions are pure. WTQ denotation accuracy is
:func:`trustuqa_core.answer_match.denotation_match` (in the core, because demonstrations are
verified with it). The metrics here use :func:`light_normalize` (NFKC, casefold, whitespace
collapse), so that ``"2"`` and ``"2.0"`` stay different; answers are strings, ints or
floats (see :func:`~trustuqa_core.answer_match.as_text`).

>>> hits_at_1(["Paris", "Lyon"], ["lyon"])
False
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from ..answer_match import as_text

__all__ = [
    "light_normalize",
    "hits_at_1",
    "hits_at_1_any",
    "set_equal",
    "prf1",
    "gold_subset_of_prediction",
]


# --------------------------------------------------------------------------------------------
# Hits@1 and answer-set metrics (light normalisation)
# --------------------------------------------------------------------------------------------


def light_normalize(text: str) -> str:
    """NFKC, casefold, collapse and strip whitespace: the comparison key for set metrics.

    >>> light_normalize("  The\u00a0Beatles\\n ")
    'the beatles'
    >>> light_normalize("STRASSE") == light_normalize("Straße")
    True
    """
    return " ".join(unicodedata.normalize("NFKC", as_text(text)).casefold().split())


def _key_set(answers: Iterable[str]) -> set[str]:
    return {light_normalize(a) for a in answers}


def hits_at_1(predicted_in_order: Sequence[str], gold: Sequence[str]) -> bool:
    """Strict Hits@1: the *first* predicted answer is one of the gold answers.

    An empty prediction scores False; an empty gold set is hit only by an empty prediction
    (as in the WebQSP-derived Hits@1 scripts).

    >>> hits_at_1(["Lyon", "Paris"], ["paris"]), hits_at_1(["PARIS", "x"], ["Paris"])
    (False, True)
    """
    if not gold:
        return not predicted_in_order
    if not predicted_in_order:
        return False
    return light_normalize(predicted_in_order[0]) in _key_set(gold)


def hits_at_1_any(predicted: Sequence[str], gold: Sequence[str]) -> bool:
    """Lenient "Hits@1": *any* predicted answer is gold, whatever its rank.

    Several KGQA papers report this under the name Hits@1 when the system returns an
    unranked answer set; it is not comparable with :func:`hits_at_1`. Empty sets are
    treated as in :func:`hits_at_1`.

    >>> hits_at_1_any(["Lyon", "Paris"], ["paris"])
    True
    """
    if not gold:
        return not predicted
    return not _key_set(predicted).isdisjoint(_key_set(gold))


def set_equal(pred: Iterable[str], gold: Iterable[str]) -> bool:
    """Exact match of answer sets (order and duplicates ignored; two empty sets are equal).

    >>> set_equal(["b", "A", "a"], ["a", "B"]), set_equal(["a"], ["a", "b"])
    (True, False)
    """
    return _key_set(pred) == _key_set(gold)


def prf1(pred: Iterable[str], gold: Iterable[str]) -> tuple[float, float, float]:
    """Answer-set precision, recall and F1 for one question (average over questions yourself).

    Duplicates are ignored. Empty sets follow the official WebQSP evaluation script:
    empty gold and empty prediction -> (1, 1, 1); empty gold, some prediction -> (0, 1, 0);
    some gold, empty prediction -> (1, 0, 0).

    >>> prf1(["a", "b", "c", "d"], ["a", "b"])
    (0.5, 1.0, 0.6666666666666666)
    >>> prf1([], []), prf1(["x"], []), prf1([], ["x"]), prf1(["x"], ["y"])
    ((1.0, 1.0, 1.0), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    """
    predicted, expected = _key_set(pred), _key_set(gold)
    if not expected:
        return (1.0, 1.0, 1.0) if not predicted else (0.0, 1.0, 0.0)
    if not predicted:
        return (1.0, 0.0, 0.0)
    hit = len(predicted & expected)
    precision, recall = hit / len(predicted), hit / len(expected)
    f1 = 2 * precision * recall / (precision + recall) if hit else 0.0
    return (precision, recall, f1)


def gold_subset_of_prediction(pred: Iterable[str], gold: Iterable[str]) -> bool:
    """The lenient WebQSP criterion: every gold answer is among the predicted answers.

    Extra predicted answers are allowed. An empty gold set is satisfied only by an empty
    prediction (otherwise any output would pass on questions without a labelled answer).

    >>> gold_subset_of_prediction(["a", "b", "c"], ["B", "a"])
    True
    >>> gold_subset_of_prediction(["a"], ["a", "b"])
    False
    >>> gold_subset_of_prediction(["x"], []), gold_subset_of_prediction([], [])
    (False, True)
    """
    predicted, expected = _key_set(pred), _key_set(gold)
    if not expected:
        return not predicted
    return expected <= predicted
