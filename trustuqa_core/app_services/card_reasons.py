"""How the answer card words a verdict reason: a short title, where it points, the message.

The verdict's reasons are machine-readable (``code``, ``message``, ``step``, ``arg``); the card
leads with a plain title instead of the code, names the step, and shows ``arg`` only when the
message does not already say it (``source_unsure`` names its sources in the message,
``unexplained_words`` quotes its words). The code stays, small, for whoever searches the docs.
Plain text: the page escapes it.

>>> from trustuqa_core.verdict import Reason
>>> r = Reason("source_unsure", "the answer reads a.csv and b.csv together", None, "a.csv, b.csv")
>>> line = reason_line(r)
>>> line.title, line.where, line.code
('Source unclear', '', 'source_unsure')
>>> line = reason_line(Reason("weak_mapping", "'USA' -> 'Austria' (margin 0.00)", 1,
...                           "Q1.tail_entity"))
>>> line.title, line.where
('Weak mapping', 'Query1 · Q1.tail_entity')
>>> reason_line(Reason("unrouted_source", "routed to a.csv: the query found nothing there",
...                    None, None)).title
'Found only in a source not asked'
>>> reason_line(Reason("some_new_code", "x", None, None)).title
'Some new code'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..verdict import Reason

__all__ = ["ReasonLine", "reason_line", "TITLES"]

#: the card's title per reason code (others: the code in words)
TITLES = {
    "source_unsure": "Source unclear",
    "unrouted_source": "Found only in a source not asked",
    "word_of_other_source": "A word of another source",
    "low_estimate": "Rarely right with this evidence",
    "unexplained_words": "Words the query leaves out",
    "weak_mapping": "Weak mapping",
    "unbound_mention": "A value the query ignores",
    "unlinked_mention": "Words nothing in the data matched",
    "vote_tie": "The vote was a tie",
    "low_agreement": "The samples disagree",
    "recovered": "A runner-up mapping was used",
    "single_query": "One query only",
    "llm_inferred": "LLM-inferred step",
    "answer_column_ambiguous": "Another column answers otherwise",
    "condition_column_ambiguous": "Another column holds the value too",
    "condition_value_narrower": "The question names a longer cell",
    "step_unused": "A condition the answer ignores",
}


@dataclass(frozen=True)
class ReasonLine:
    """One reason as the card shows it."""

    title: str
    where: str
    message: str
    code: str


def reason_line(r: Reason) -> ReasonLine:
    """``r`` worded for the card (see the module docstring)."""
    title = TITLES.get(r.code) or r.code.replace("_", " ").capitalize()
    arg = r.arg or ""
    items = [a.strip() for a in arg.split(",") if a.strip()]
    said = bool(items) and all(a.lower() in r.message.lower() for a in items)
    where = " · ".join(x for x in (f"Query{r.step}" if r.step else "",
                                   "" if said else arg) if x)
    return ReasonLine(title, where, r.message, r.code)
