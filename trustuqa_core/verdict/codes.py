"""Every reason code and what it means: the card, the CLI and the docs show these texts.
"""

from __future__ import annotations

#: every reason code and what it means (the card, the CLI and the docs show these)
REASON_CODES = {
    "no_query": "no query could be written for the question",
    "run_failed": "the query could not be run (parse, mapping, rewrite or execution error)",
    "empty_answer": "the query ran but found nothing",
    "unlinked_mention": "the question names something the data does not contain",
    "weak_mapping": "a literal was mapped with a low score or a close runner-up",
    "llm_inferred": "a step was answered by the LLM fallback, not by the data",
    "unbound_mention": "the question names something the query does not use",
    "no_condition": "the query reads a whole column or relation with no condition, although "
                    "the question names values",
    "id_aggregate": "an aggregate is computed over an identifier column",
    "column_dump": "the answer is a whole column or relation: no condition and no function",
    "whole_column_aggregate": "an aggregate (count, max, sum, ...) over a whole column or "
                              "relation, with no condition",
    "header_condition": "a condition compares a column with its own name (a header read as a "
                        "value)",
    "unexplained_words": "words of the question that no part of the query accounts for",
    "unexplained_cue": "the question picks with an ordinal or superlative (first, last, "
                       "earliest, highest ...) and no step of the query picks, ranks or "
                       "compares",
    "focus_unexplained": "the word the question asks for (how many caps, what was the score) "
                         "is accounted for by no part of the query",
    "placeholder_answer": "the answer is a cell that only says a value is missing (n/a, -, "
                          "none)",
    "target_sibling": "the question names a column word for word, and the answer is read "
                      "from a longer column that contains its name (Away team score for "
                      "'away team')",
    "many_for_one": "the question asks for one thing (the first ..., the highest ...) and the "
                    "answer holds several",
    "single_query": "only one query answered: there was no vote to agree or disagree",
    "echoes_question": "the answer includes something the question itself names",
    "target_unnamed": "the question names no word of the column the answer is read from",
    "count_unclear": "the question asks 'how many' but the query reads a value instead of "
                     "counting (or counts where a value is asked)",
    "type_mismatch": "the answer is not of the type the question asks for",
    "comparison_unbound": "the question bounds a number (more than, before, at least ...) "
                          "and the query compares nothing",
    "aggregate_of_one": "a sum or mean over a single value (the aggregate does nothing)",
    "several_rows": "the answer holds several values of a table's rows: the conditions did not "
                    "single out one row",
    "header_answer": "the answer is a column name: a header was read as a value",
    "choice_unanswered": "the question asks to choose (yes or no, or between the options it "
                         "names) and the answer is none of them",
    "count_of_one": "'how many' answered by counting one row (or none): the conditions likely "
                    "miss what the question counts",
    "count_words_unexplained": "the query counts rows, and some words of the question are in "
                               "none of its conditions: the count may miss a condition",
    "same_unlinked": "the question asks for what shares a value with a named row ('the same "
                     "... as'), and no step looks rows up by a value read from another step",
    "row_order": "a step picks the first or last row in the table's own order: check that "
                 "the table is ordered as the question means",
    "text_extreme": "a max or min over values most of which read as no number",
    "yes_no_answer": "a computed yes / no, which no row shows directly (measured on the tune "
                     "halves: 15% of them wrong when nothing else is flagged)",
    "extreme_missing": "a max or min that leaves out compared rows with no value (a blank "
                       "cell)",
    "several_in_cell": "the answer is one cell holding several values on separate lines",
    "unexplained_negation": "the question excludes something (not, except, other ...) and "
                            "no step of the query excludes or subtracts",
    "column_unused": "a word of the question names a column the query does not use",
    "list_condition": "a condition matches whole cells of a column whose other cells list "
                      "several values: rows listing the value among others are missed",
    "count_of_quantity": "'how many X' counted rows, while a column named X holds numbers: "
                         "the question may ask for their sum",
    "count_of_named_value": "'how many X' counted one row, and that row's own column named X "
                            "holds a number or a list: the question likely asks for that value "
                            "or the length of that list",
    "extreme_not_number": "the question asks for a number (the highest ... number) and the "
                          "max or min was taken over text, giving no number",
    "placeholder_unasked": "the answer only says a value is missing (n/a, -, none) where the "
                           "question asks for a number, or for the row found by moving to a "
                           "neighbour or an extreme",
    "focus_column_unused": "the word the question asks for names a column (what are the "
                           "meanings ...: Meaning), and the answer is read from another one",
    "date_unbound": "the question names a calendar date (May 8th, 1993) that no literal of "
                    "the query holds",
    "answer_unused_phrase": "the answer is a phrase the question itself states and the query "
                            "does not use: the question likely gives it as a condition",
    "neighbour_other_column": "the row before or after the one found is read in another "
                              "column than the one that found it",
    "unexplained_neighbour": "the question asks for the row before or after another (before, "
                             "after, next, previous ...) and no step of the query moves to a "
                             "neighbouring row or compares",
    "list_condition_aggregate": "a count or ranking over rows found by an equality on a column "
                                "whose cells list several values: rows listing the value among "
                                "others are left out of it",
    "range_unread": "the question names a range of numbers (1941-1949, between 3 and 7) and "
                    "the query compares with neither end: it reads the ends, not what lies "
                    "between",
    "row_order_vs_time": "the question asks what came before or after, and the row before "
                         "or after the one found is taken in the table's order while the "
                         "table's dates run backwards (latest first)",
    "source_unsure": "several loaded sources fit the question and the written query equally "
                     "well and answer it differently: nothing in the data chose the one "
                     "answered from (name it in the question, or ask over that source only: "
                     "'Ask over' on the Ask page, ask --over)",
    "extreme_from_bound": "the query picks the largest or smallest value, and the question's "
                          "only superlative is part of a bound (at least, at most): it asks "
                          "for every row within the bound",
    "ranked_backwards": "the question asks for the fastest / slowest / oldest / youngest, and "
                        "the query ranks times or years the other way",
    "duration_as_date": "the question asks how long (or how old), and the answer is a date: "
                        "when it began, not how long it lasted",
    "comparison_unread": "the question compares with a named row (larger than X) or asks "
                         "for a difference (how much higher), and no step of the query "
                         "compares or computes",
    "choice_not_among": "the question offers options joined by 'or', and the answer shares "
                        "no word with them",
    "position_unread": "the question places a row above or below another, and no step of "
                       "the query moves to a neighbouring row or compares",
    "count_of_target_value": "'how many' counted one row, and that row's cell in the "
                             "query's own target column holds a number or a list: the "
                             "question likely asks for that value",
    "year_bound_elsewhere": "the question bounds a year (after 1879) and the query compares "
                            "that number with a column that holds no years",
    "top_n_as_equal": "the question asks for the top N (every row up to N), and a condition "
                      "keeps only the rows equal to N",
    # -- stop 17 (WikiSQL verdict): ambiguity by execution, verdict/ambiguity.py ------------
    "answer_column_ambiguous": "another column of the table names more of the question than "
                               "the one the answer is read from, and read from the same rows "
                               "it gives another answer",
    "condition_column_ambiguous": "a condition's value is also a cell of another column the "
                                  "question names as well, and the condition put on that "
                                  "column finds another answer",
    "condition_value_narrower": "the question writes a longer cell of the condition's column "
                                "(@ Memphis) than the value the condition holds (Memphis), "
                                "and that cell finds another answer",
    "step_unused": "a condition step of the query is used by no step the answer depends on: "
                   "the answer ignores that condition",
    # -- end of stop 17 ---------------------------------------------------------------------
    "vote_tie": "the samples' vote was a tie between different answers",
    "low_agreement": "too few of the samples agree on the answer",
    "recovered": "a runner-up binding was used because the first choice found nothing",
    "similar_template": "the query re-binds a demonstration whose question differs in form",
    "user_demo": "a demonstration confirmed by a user shaped the query (shown, not a proof)",
    "confirmed_example": "the query is an example you confirmed, re-bound to this question by "
                         "the offline writer (shaped by your confirmed example; shown, not a "
                         "proof)",
    "low_estimate": "the soft reasons together: answers with this evidence were right too "
                    "rarely on the benchmark questions the verdict was calibrated on (the "
                    "calibrated estimate is below its threshold)",
    # -- stop 19 (routing) ------------------------------------------------------------------
    "unrouted_source": "no answer over the sources the question was routed to; an attempt "
                       "over every loaded source answered from one it was not routed to, "
                       "which is shown as a suggestion, not as the answer",
    # -- stop 20, second round (routing) ----------------------------------------------------
    "word_of_other_source": "with several sources loaded, a word of the question that the "
                            "answer's query leaves unexplained names a relation or column of "
                            "one other loaded source (and of no other), not of the one the "
                            "answer was read from",
    # -- stop 23 (verdict) ------------------------------------------------------------------
    "number_for_noun": "the question asks which thing (which team, what ship) and the answer "
                       "is a bare number read from a column that thing does not name (or a "
                       "count)",
    "name_read_as_column": "the question says 'name the X', and the answer is read from the "
                           "column Name: the imperative was read as the column",
    "count_near_values": "the query counts the rows holding exactly one value, and other "
                         "cells of that column hold the value among more words (@ Braves "
                         "for Braves): the count may leave rows out",
    "year_not_year": "the question asks which year, and the answer holds no year",
    "by_column_for_passive": "the question asks who was appointed (inducted, ...), and the "
                             "answer is read from a column 'Appointed by', which holds who "
                             "did it",
    # -- stop 23 (the app with several sources) -------------------------------------------
    "mention_elsewhere": "the thing the question names is not in the source its relation word "
                         "points to (or the answer was read from), while another loaded "
                         "source holds it: that source has no answer to this question",
}
