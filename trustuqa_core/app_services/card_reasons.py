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
('A loose match to the data', 'Query1 · Q1.tail_entity')
>>> reason_line(Reason("unrouted_source", "routed to a.csv: the query found nothing there",
...                    None, None)).title
'Found only in a source not asked'
>>> reason_line(Reason("some_new_code", "x", None, None)).title
'Some new code'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..verdict import Reason, over_chosen

__all__ = ["ReasonLine", "reason_line", "TITLES"]

#: the card's title per reason code: plain words a non-expert reads first (the message says
#: the detail); every code the verdict emits has one (tests/test_card_reason_titles.py)
TITLES = {
    # -- the run --------------------------------------------------------------------------
    "no_query": "No query could be written",
    "run_failed": "The query could not run",
    "empty_answer": "The query found nothing",
    "llm_inferred": "Answered by the LLM, not the data",
    # -- what the question names ------------------------------------------------------------
    "unlinked_mention": "Words nothing in the data matched",
    "weak_mapping": "A loose match to the data",
    "unbound_mention": "A value the query ignores",
    "unexplained_words": "Words the query leaves out",
    "count_words_unexplained": "The count may miss a condition",
    "focus_unexplained": "What is asked for is not read",
    "column_unused": "A column the question names is not used",
    "focus_column_unused": "The column asked for is not read",
    "date_unbound": "A date the query ignores",
    "answer_unused_phrase": "The answer is a phrase of the question",
    "echoes_question": "The answer repeats the question",
    "target_unnamed": "Read from a column the question does not name",
    "target_sibling": "Read from a look-alike column",
    "header_condition": "A column name used as a value",
    "header_answer": "The answer is a column name",
    # -- the query's shape ------------------------------------------------------------------
    "no_condition": "Nothing filters the rows",
    "column_dump": "A whole column as the answer",
    "whole_column_aggregate": "Counted or ranked over everything",
    "id_aggregate": "Arithmetic on an ID column",
    "aggregate_of_one": "A total of a single value",
    "step_unused": "A condition the answer ignores",
    "list_condition": "Cells that list several values",
    "list_condition_aggregate": "Counted over cells that list several values",
    # -- the kind of answer -----------------------------------------------------------------
    "type_mismatch": "Not the kind of answer asked for",
    "many_for_one": "Several answers where one is asked",
    "several_rows": "Several rows match",
    "several_in_cell": "Several values in one cell",
    "placeholder_answer": "The answer marks a missing value",
    "placeholder_unasked": "A missing-value mark where a value is asked",
    "yes_no_answer": "A computed yes / no",
    "choice_unanswered": "None of the options offered",
    "choice_not_among": "None of the options named",
    "duration_as_date": "A date where a duration is asked",
    # -- counting ---------------------------------------------------------------------------
    "count_unclear": "Count or value? Unclear",
    "count_of_one": "Counted a single row",
    "count_of_quantity": "Counted rows: maybe a sum is asked",
    "count_of_named_value": "Counted rows: maybe a cell's value is asked",
    "count_of_target_value": "Counted rows: maybe the cell's number is asked",
    # -- ordering, comparing, ranking -------------------------------------------------------
    "unexplained_cue": "\"First\" or \"highest\" not applied",
    "unexplained_negation": "\"Not\" or \"except\" not applied",
    "unexplained_neighbour": "\"Before\" or \"after\" not applied",
    "position_unread": "\"Above\" or \"below\" not applied",
    "comparison_unbound": "\"More than\" or \"before\" not applied",
    "comparison_unread": "A comparison not made",
    "range_unread": "A range read as its two ends",
    "year_bound_elsewhere": "A year compared with a column of no years",
    "top_n_as_equal": "\"Top N\" read as \"equal to N\"",
    "extreme_from_bound": "\"At least\" read as \"the most\"",
    "ranked_backwards": "Ranked the wrong way round",
    "text_extreme": "Highest or lowest over text",
    "extreme_missing": "Highest or lowest skips blank cells",
    "extreme_not_number": "A number asked, text compared",
    "row_order": "Relies on the table's row order",
    "row_order_vs_time": "The table's order runs against time",
    "neighbour_other_column": "Next row read in another column",
    "same_unlinked": "\"The same as\" not followed",
    # -- ambiguity by execution (stop 17) ---------------------------------------------------
    "answer_column_ambiguous": "Another column answers otherwise",
    "condition_column_ambiguous": "Another column holds the value too",
    "condition_value_narrower": "The question names a longer cell",
    # -- the vote and the examples ----------------------------------------------------------
    "single_query": "One query only",
    "vote_tie": "The vote was a tie",
    "low_agreement": "The samples disagree",
    "recovered": "A runner-up mapping was used",
    "similar_template": "Copied from a differently worded example",
    "user_demo": "Shaped by an example a user confirmed",
    "confirmed_example": "Shaped by your confirmed example",
    "low_estimate": "Rarely right with this evidence",
    # -- sources ----------------------------------------------------------------------------
    "source_unsure": "Source unclear",
    "unrouted_source": "Found only in a source not asked",
    "word_of_other_source": "A word points to another source",
    # -- the noun asked, a count's exact match (stop 23) --------------------------------------
    "number_for_noun": "A number where a thing is asked",
    "name_read_as_column": "\"Name the\" read as the column Name",
    "year_not_year": "A year asked, no year given",
    "by_column_for_passive": "Read who did it, not who it was",
    "count_near_values": "The count skips cells that say more",
    "mention_elsewhere": "Not in the source the question points to",
}


@dataclass(frozen=True)
class ReasonLine:
    """One reason as the card shows it."""

    title: str
    where: str
    message: str
    code: str


def reason_line(r: Reason, over: Sequence[str] | None = None) -> ReasonLine:
    """``r`` worded for the card (see the module docstring). ``over``: the sources the user
    chose to ask over (None: every loaded source); a "not a value of the loaded data" then
    names them, since the sources left out were not searched.

    >>> r = Reason("unlinked_mention", "'Ann' is not a value of the loaded data: override a "
    ...            "mapping", None, "Ann")
    >>> reason_line(r, over=["kg.txt"]).message
    "'Ann' is not a value of kg.txt (the source you asked over): override a mapping"
    >>> reason_line(r).message == r.message
    True
    """
    title = TITLES.get(r.code) or r.code.replace("_", " ").capitalize()
    message = over_chosen(r, over).message
    arg = r.arg or ""
    items = [a.strip() for a in arg.split(",") if a.strip()]
    said = bool(items) and all(a.lower() in r.message.lower() for a in items)
    where = " · ".join(x for x in (f"Query{r.step}" if r.step else "",
                                   "" if said else arg) if x)
    return ReasonLine(title, where, message, r.code)
