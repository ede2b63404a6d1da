"""A calibrated estimate of how often an answer with this evidence is right.

The verdict's *soft* reasons (doubts such as a word of the question no literal accounts for,
or a count of one row) are weak one at a time: on the tune halves each is carried by right
answers as often as by wrong ones. Here they are combined, with a few cheap numbers read from
the trace, by a logistic model whose weights were fitted on the **tune** halves of the
benchmark caches (``scripts/verdict_calibrate.py``) and are stored, with their provenance, in
``weights.json`` next to this module. One model per writer kind: the offline writer
and LLM-written queries make different mistakes.

Every feature is computable at run time from the trace and its reasons alone (no label):

* ``code:<code>``: 1 when a reason with that code was given (only the codes the model was
  fitted on count; a weight on a code is never positive: a doubt cannot raise the estimate);
* ``unexplained``: how many question words no part of the query accounts for (at most 5);
* ``low_score`` / ``low_margin``: how far the weakest fuzzy mapping falls below a perfect
  score, and how close its runner-up is (0 when every mapping is exact);
* ``target_low_score`` / ``target_low_margin``: the same for the mapping of the target type
  (the column or relation the answer is read from);
* ``steps``: ``log(number of queries)``; ``answers``: ``log(number of answer values)``;
* ``no_condition`` / ``aggregate``: the query has no value condition / computes an aggregate;
* what the question and table look like (:mod:`.context`): ``rows``, ``columns``, ``words``,
  ``cue_kinds``, ``shape:<kind>`` (a model weighs only the features its weights name).

>>> from trustuqa_core.verdict_record import Reason
>>> m = Model("offline", 3.0, {"code:count_of_one": -2.0}, 0.5)
>>> round(m.estimate({}), 3), round(m.estimate({"code:count_of_one": 1.0}), 3)
(0.953, 0.731)
>>> m.contributions({"code:count_of_one": 1.0, "code:single_query": 1.0})
[('code:count_of_one', -2.0)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping as MappingType
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..mapping.mapper import Mapping
from ..trace import Trace
from ..verdict_record import Reason
from .context import CONTEXT, context_features

__all__ = ["Model", "NUMERIC", "PLAIN", "WEIGHTS_FILE", "features", "load_models",
           "model_for", "nonpositive", "describe", "describe_feature"]

#: the package data file holding the fitted models
WEIGHTS_FILE = Path(__file__).with_name("weights.json")
#: the numeric features besides the code indicators, with what each means in words
NUMERIC: dict[str, str] = {
    "unexplained": "unexplained question words",
    "low_score": "a fuzzy mapping below a perfect score",
    "low_margin": "a fuzzy mapping with a close runner-up",
    "target_low_score": "the answer's column or relation matched with a low score",
    "target_low_margin": "the answer's column or relation had a close runner-up",
    "steps": "a query of several steps",
    "answers": "several answer values",
    "no_condition": "no value condition in the query",
    "aggregate": "an aggregate (count, max, sum ...)",
    **CONTEXT,
}
#: the soft codes in a few plain words, for the ``low_estimate`` message (others: the code)
PLAIN: dict[str, str] = {
    "unexplained_words": "question words the query leaves unexplained",
    "count_of_one": "a count of one row",
    "several_rows": "values of several rows",
    "target_unnamed": "a column the question does not name",
    "count_unclear": "'how many' answered by a value",
    "yes_no_answer": "a computed yes / no",
    "unexplained_cue": "an ordinal or superlative no step picks by",
    "whole_column_aggregate": "an aggregate over a whole column",
    "comparison_unbound": "a bound (more than, before ...) nothing compares",
    "column_unused": "a named column the query does not use",
    "count_words_unexplained": "a count that may miss a condition",
    "focus_unexplained": "the asked-for word unexplained",
    "row_order": "a pick by the table's row order",
    "unexplained_negation": "an exclusion (not, except ...) nothing subtracts",
    "aggregate_of_one": "an aggregate over one value",
    "count_of_named_value": "a count of one row whose own column holds the number",
    "count_of_quantity": "a count where a column holds the quantity",
    "list_condition": "a condition on a column of lists",
    "list_condition_aggregate": "a count over a column of lists",
    "neighbour_other_column": "a neighbouring row read in another column",
    "placeholder_answer": "a placeholder answer (n/a, -)",
    "same_unlinked": "'the same ... as' with no join",
    "several_in_cell": "several values in one cell",
    "text_extreme": "a max or min over text",
    "unexplained_neighbour": "before / after with no move to a neighbour",
}
#: features whose weight is kept at or below zero by the fit (each is a doubt)
_DOUBTS = ("unexplained", "low_score", "low_margin", "target_low_score", "target_low_margin")
_STRONG = ("exact", "normalized", "numeric", "override", "time_key")
_AGGREGATES = {"count", "sum", "mean", "average", "avg", "max", "min", "argmax", "argmin",
               "most_frequent", "least_frequent"}


def nonpositive(name: str) -> bool:
    """True for a feature whose fitted weight must not be positive (a doubt).

    >>> nonpositive("code:count_of_one"), nonpositive("unexplained"), nonpositive("answers")
    (True, True, False)
    """
    return name.startswith("code:") or name in _DOUBTS


def features(trace: Trace, reasons: Sequence[Reason], *, skip: str = "low_estimate",
             question: str | None = None, context: bool = True) -> dict[str, float]:
    """The label-free features of an answered ``trace`` with its ``reasons`` (those with code
    ``skip``, the estimate's own reason, are left out) as the answer to ``question`` (the
    trace's own when None); ``context``: with the :mod:`.context` features (a model that
    weighs none of them can skip computing them, see :attr:`Model.weighs_context`).

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Name,Gold\\nAnn,4\\nBea,2\\n"])
    >>> t = run_query("Query1: \\"get_information(relation='Gold', tail_entity='4')\\"", g)
    >>> features(t, [Reason("unexplained_words", "...", None, "snowy, peaks")], question="")
    {'code:unexplained_words': 1.0, 'unexplained': 2.0, 'rows': 1.0986, 'columns': 1.0986}
    """
    out: dict[str, float] = {}
    for r in reasons:
        if r.code != skip:
            out[f"code:{r.code}"] = 1.0
    words = max((len((r.arg or "").split(", ")) for r in reasons
                 if r.code == "unexplained_words"), default=0)
    if words:
        out["unexplained"] = float(min(words, 5))
    mappings = list(trace.mapped.mappings) if trace.mapped is not None else []
    out.update(_weakness([m for m in mappings if m.method not in _STRONG and m.ids], ""))
    target = trace.target
    if target is not None and target.method not in _STRONG and target.ids:
        out.update(_weakness([target], "target_"))
    program = trace.program
    if program is not None and len(program.queries) > 1:
        out["steps"] = round(math.log(len(program.queries)), 4)
    n = len(trace.answer)
    if n > 1:
        out["answers"] = round(math.log(n), 4)
    if not any(m.role in ("value", "entity") for m in mappings):
        out["no_condition"] = 1.0
    if program is not None and any(q.call.func in _AGGREGATES for q in program.queries):
        out["aggregate"] = 1.0
    if context:
        out.update(context_features(trace, question))
    return out


def _weakness(fuzzy: Sequence[Mapping], prefix: str) -> dict[str, float]:
    """``low_score`` (1 - the lowest score) and ``low_margin`` (how far the closest runner-up
    is under a margin of 0.2, scaled to 0..1) of fuzzy mappings; absent when nothing is weak."""
    out: dict[str, float] = {}
    if fuzzy:
        low = min(m.score for m in fuzzy)
        close = min(m.margin for m in fuzzy)
        if low < 1.0:
            out[prefix + "low_score"] = round(min(1.0, 1.0 - low), 4)
        if close < 0.2:
            out[prefix + "low_margin"] = round((0.2 - max(close, 0.0)) / 0.2, 4)
    return out


@dataclass(frozen=True)
class Model:
    """One writer kind's logistic model: ``estimate = sigmoid(bias + sum(w * x))``.

    ``threshold`` is the operating point the fit chose on the tune halves (the verdict's own
    threshold is :attr:`trustuqa_core.verdict.Thresholds.min_estimate`); ``tune`` holds the
    tune-half figures recorded by the fit."""

    writer: str
    bias: float
    weights: dict[str, float]
    threshold: float
    tune: dict[str, Any] = field(default_factory=dict)

    @property
    def soft_codes(self) -> frozenset[str]:
        """The reason codes this model weighs (the soft ones); the rest keep their rule."""
        return frozenset(k.split(":", 1)[1] for k in self.weights if k.startswith("code:"))

    @property
    def weighs_context(self) -> bool:
        """Whether any weight is on a :mod:`.context` feature (the packaged ones: none)."""
        return any(k in CONTEXT for k in self.weights)

    def contributions(self, x: MappingType[str, float]) -> list[tuple[str, float]]:
        """``(feature, weight * value)`` of every non-zero term, most negative first."""
        terms = [(k, self.weights[k] * v) for k, v in x.items()
                 if k in self.weights and self.weights[k] * v != 0.0]
        return sorted(terms, key=lambda t: t[1])

    def estimate(self, x: MappingType[str, float]) -> float:
        """The estimated chance that an answer with features ``x`` is right."""
        z = self.bias + sum(w for _, w in self.contributions(x))
        return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))

    def to_dict(self) -> dict[str, Any]:
        return {"bias": self.bias, "weights": self.weights, "threshold": self.threshold,
                "tune": self.tune}


def load_models(path: Path = WEIGHTS_FILE) -> dict[str, Model]:
    """The models of a weights file, by writer kind (``offline``, ``llm``); none when the
    file is absent (the verdict then keeps its rules)."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: Model(k, float(v["bias"]), {n: float(w) for n, w in v["weights"].items()},
                     float(v["threshold"]), dict(v.get("tune", {})))
            for k, v in data.get("models", {}).items()}


@lru_cache(maxsize=1)
def _packaged() -> dict[str, Model]:
    return load_models()


def model_for(writer: str | None) -> Model | None:
    """The packaged model for a writer (``"llm"`` or anything else: the offline writer),
    loaded once."""
    return _packaged().get("llm" if writer == "llm" else "offline")


def describe_feature(name: str, x: MappingType[str, float],
                     reasons: Sequence[Reason]) -> str:
    """A feature in plain words, for the ``low_estimate`` message.

    >>> describe_feature("unexplained", {"unexplained": 1.0},
    ...                  [Reason("unexplained_words", "", None, "team")])
    "unexplained words: 'team'"
    >>> describe_feature("code:count_of_one", {}, []), describe_feature("code:x_y", {}, [])
    ('a count of one row', 'x_y')
    """
    if name == "unexplained":
        words = next((r.arg for r in reasons if r.code == "unexplained_words"), "") or ""
        return "unexplained words: " + ", ".join(repr(w) for w in words.split(", ") if w)
    if name in NUMERIC:
        return NUMERIC[name]
    code = name.split(":", 1)[1] if name.startswith("code:") else name
    return PLAIN.get(code, code)


def describe(names: Sequence[str], x: MappingType[str, float], reasons: Sequence[Reason],
             most: int = 3) -> str:
    """The first ``most`` features of ``names`` in plain words, the unexplained-words code
    folded into the words themselves.

    >>> describe(["code:unexplained_words", "unexplained", "code:count_of_one"],
    ...          {"unexplained": 1.0}, [Reason("unexplained_words", "", None, "team")])
    "unexplained words: 'team', a count of one row"
    """
    shown = [n for n in names if not (n == "code:unexplained_words" and "unexplained" in x)]
    return ", ".join(describe_feature(n, x, reasons) for n in shown[:most])
