"""The trust verdict on an answer: ``verified``, ``check`` or ``no answer``, with reasons.

Computed label-free from the pipeline's own evidence: the trace (steps, mappings with score
and margin, LLM-inferred steps, recovered bindings), the question (what it names, the answer
type it asks for), the vote (agreement, ties) and the demonstrations that shaped the query.
Every :class:`Reason` has a machine-readable ``code`` and points at the ``step`` (query
number) and ``arg`` (argument key or mention) it concerns. A *hard* reason (in
:attr:`Thresholds.hard`, or blocking by its rule and not weighed by the calibration) makes the
verdict ``check`` on its own. The *soft* ones of a table answer are combined by
:mod:`.calibration` into an estimate of how often answers with this evidence were
right on the tune halves; below the threshold of :meth:`Thresholds.needed` (for the offline
writer, one per band of table size) the verdict is ``check`` with the reason ``low_estimate``.
The rest are shown but do not block (a user-confirmed demonstration is a reason to look, not
a proof).

All thresholds live in :data:`THRESHOLDS` (chosen on the tune halves, see docs/RESULTS.md).

The package, one family of reasons a module (each imports only the ones listed after it):

* :mod:`.decide` -- ``judge()``: collects the reasons and decides (hard codes, the calibrated
  estimate); ``render_verdict`` (``over_chosen``), ``with_reasons``, ``judge_alone``,
  ``judged_as``.
* :mod:`.evidence` -- what the run itself says: LLM-inferred or recovered steps, weak mappings,
  a column dump, an aggregate over an id column or of one value, the vote; ``no answer``.
* :mod:`.question` -- what the question names or asks that the query leaves unexplained.
* :mod:`.shape` -- the query's shape against the question (rows, counts, lists, neighbours).
* :mod:`.asked` -- readings the question asks for explicitly: a comparison, a choice among named
  options, a position, a duration, a time bound, a top *n*.
* :mod:`.ranking` -- superlatives and the columns a ranking reads.
* :mod:`.ambiguity` -- ambiguity by execution: runner-up readings run over the same data.
* :mod:`.calibration` (with ``weights.json``) -- the calibrated estimate of the soft reasons.
* :mod:`.reading` -- readings of the trace and the question the families share.
* :mod:`.thresholds`, :mod:`.codes` -- every threshold, every reason code and its meaning.

>>> from trustuqa_core import load_graph, run_query
>>> g = load_graph(tables=[b"Name,Nation\\nAnn,Austria\\nBea,United States\\n"])
>>> t = run_query("Query1: \\"get_information(relation='Nation', tail_entity='USA')\\"", g,
...               question="which skiers are from USA?")
>>> v = judge(t)  # the question the trace records
>>> v.label, [r.code for r in v.reasons]
('check', ['weak_mapping', 'unexplained_words', 'focus_unexplained'])
>>> judge(run_query("Query1: \\"get_information(relation='Nation', tail_entity='Austria')\\"",
...                 g), "who is from Austria?").label
'verified'
"""

from __future__ import annotations

from ..verdict_record import LABELS, Label, Reason, Verdict
from .codes import REASON_CODES
from .decide import judge, judge_alone, judged_as, over_chosen, render_verdict, with_reasons
from .reading import literals
from .thresholds import THRESHOLDS, Thresholds, VoteEvidence

__all__ = ["Verdict", "Reason", "Thresholds", "THRESHOLDS", "VoteEvidence", "judge", "judge_alone",
           "judged_as", "REASON_CODES", "Label", "LABELS", "literals",
           "over_chosen", "render_verdict", "with_reasons"]
