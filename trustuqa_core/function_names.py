"""Names of the query language's functions, and the many names LLMs use for them (data only).

The executor owns the registry (:mod:`.functions`); this module only says which names exist,
so the parser, mapper, rewrite and executor agree without importing each other. An LLM writes
``calculate_difference``, ``Calculator``, ``comparison`` or ``if``: each alias points at one
closed function. Names found nowhere here stay undefined and go to the LLM fallback.

>>> canonical_function("calculate_difference"), canonical_function("Calculator")
('difference', 'calculate')
>>> canonical_function("get_information"), canonical_function("tell_me_a_story") is None
('get_information', True)
>>> is_reasoning("compare"), is_reasoning("count")
(True, False)
"""

from __future__ import annotations

import re

__all__ = [
    "CORE_FUNCTIONS",
    "REASONING_FUNCTIONS",
    "FUNCTION_ALIASES",
    "IMPLIED_ARGUMENTS",
    "implied_argument",
    "canonical_function",
    "is_defined",
    "is_reasoning",
]

CORE_FUNCTIONS = frozenset(
    {
        "get_information",
        "keep",
        "count",
        "sum",
        "mean",
        "max",
        "min",
        "set_negation",
        "previous_row",
        "next_row",
        "set_union",
        "set_intersection",
        "set_difference",
    }
)
"""The paper's functions (get_information, set operations, aggregates, rows)."""

REASONING_FUNCTIONS = frozenset(
    {
        "compare",
        "if_then_else",
        "add",
        "subtract",
        "difference",
        "multiply",
        "divide",
        "percentage",
        "absolute",
        "calculate",
        "duration",
        "year_difference",
        "day_difference",
        "equals",
        "contains",
        "is_empty",
        "exists",
        "most_frequent",
        "extract_year",
        "extract_month",
        "first",
        "last",
        "distinct",
        "split",
        "extract_number",
        "score_parts",
        "sort",
        "nth_largest",
        "nth_smallest",
        "consecutive",
        "overlaps",
        "row_number",
        "group_by",
        "count_each",
        "groups_of_size",
        "sum_each",
        "filter",
        "decade",
        "is_subset",
    }
)
"""Closed reasoning functions over earlier results (see :mod:`.reasoning`)."""

# alias (lower case) -> canonical name; mined from the recorded GPT-3.5 queries (docs/FUNCTIONS.md)
FUNCTION_ALIASES: dict[str, str] = {
    # comparison of two values or sets
    "comparison": "compare",
    "compare_values": "compare",
    "compare_count": "compare",
    "compare_counts": "compare",
    "compare_dates": "compare",
    "compare_date": "compare",
    "compare_scores": "compare",
    "compare_numbers": "compare",
    "compare_sets": "compare",
    "compare_rows": "compare",
    "compare_years": "compare",
    "compare_time": "compare",
    "compare_times": "compare",
    "set_comparison": "compare",
    "set_max": "compare",
    "compare_greater": "compare",
    "compare_greater_than": "compare",
    "compare_inequality": "compare",
    "compare_amount": "compare",
    "compare_amounts": "compare",
    "compare_position": "compare",
    "compare_positions": "compare",
    "greater_than": "compare",
    "less_than": "compare",
    "greater": "compare",
    "is_greater": "compare",
    "check_condition": "compare",
    "check": "compare",
    # conditionals
    "if": "if_then_else",
    "if_else": "if_then_else",
    "ifelse": "if_then_else",
    "conditional": "if_then_else",
    # arithmetic
    "plus": "add",
    "addition": "add",
    "sum_values": "add",
    "minus": "subtract",
    "subtraction": "subtract",
    "sub": "subtract",
    "calculate_difference": "difference",
    "calc_difference": "difference",
    "calculate_score_difference": "difference",
    "difference_between": "difference",
    "abs_difference": "difference",
    "absolute_difference": "difference",
    "diff": "difference",
    "product": "multiply",
    "times": "multiply",
    "division": "divide",
    "ratio": "divide",
    "calculate_ratio": "divide",
    "calculate_percentage": "percentage",
    "percent": "percentage",
    "abs": "absolute",
    "absolute_value": "absolute",
    "calculator": "calculate",
    "calculation": "calculate",
    "arithmetic": "calculate",
    "math": "calculate",
    "compute": "calculate",
    # durations between dates and years
    "calculate_duration": "duration",
    "calculate_years": "duration",
    "time_difference": "duration",
    "years_between": "year_difference",
    "calculate_year_difference": "year_difference",
    "date_difference": "year_difference",
    # yes/no and strings
    "equal": "equals",
    "is_equal": "equals",
    "same": "equals",
    "is_same": "equals",
    "is_in": "contains",
    "check_membership": "contains",
    "in": "contains",
    "includes": "contains",
    "substring": "contains",
    "check_empty": "is_empty",
    "empty": "is_empty",
    "exist": "exists",
    "check_exists": "exists",
    "any": "exists",
    # most frequent value
    "mode": "most_frequent",
    "most": "most_frequent",
    "argmax": "most_frequent",
    "count_occurrences": "most_frequent",
    "most_common": "most_frequent",
    "frequency": "most_frequent",
    # dates, rows, sets
    "average": "mean",
    "avg": "mean",
    "get_year": "extract_year",
    "year": "extract_year",
    "get_month": "extract_month",
    "month": "extract_month",
    "first_row": "first",
    "random": "first",  # "name a track ...": any one element; the first in table order
    "choose": "first",
    "choose_one": "first",
    "pick": "first",
    "only": "distinct",  # "what was the only show she hosted?": the set itself
    "find_max": "max",
    "get_max": "max",
    "maximum": "max",
    "find_min": "min",
    "get_min": "min",
    "minimum": "min",
    "check_equal": "equals",
    "time_duration": "duration",
    "calculate_time_difference": "difference",
    "last_row": "last",
    "unique": "distinct",
    "count_unique": "count",  # count already counts distinct elements
    "count_distinct": "count",
    # the value itself: value(set='output_of_query2') in an expression
    "value": "distinct",
    "get_value": "distinct",
    "check_equality": "equals",
    "split_string": "split",
    "get_number": "extract_number",
    # the same operations under other names (mined from the tune half's fallback steps)
    "is_not_empty": "exists",
    "not_empty": "exists",
    "size": "count",
    "get_any": "first",
    "arg_max": "most_frequent",
    "count_occurrence": "most_frequent",
    "get_highest_frequency_entity": "most_frequent",
    "get_duration": "duration",
    "is_greater_than": "compare",
    "set_equals": "equals",
    # Stop 13: more names of the same operations (the tune half's fallback steps)
    "calculate_sum": "add",
    "time_difference_in_seconds": "difference",
    "calculate_years_difference": "year_difference",
    "years_difference": "year_difference",
    "calculate_comparison": "compare",
    "if_greater_than": "compare",
    "if_less_than": "compare",
    "if_greater_or_equal": "compare",
    "if_less_or_equal": "compare",
    "is_less_than": "compare",
    "earlier": "compare",
    "earlier_date": "compare",
    "is_earlier": "compare",
    "later": "compare",
    "later_date": "compare",
    "is_later": "compare",
    "most_occurrences": "most_frequent",
    "most_frequent_value": "most_frequent",
    "check_inclusion": "contains",
    "check_contains": "contains",
    "set_contains": "contains",
    "is_included": "contains",
    "conditions": "if_then_else",
    "convert_to_yes_no": "if_then_else",
    "to_yes_no": "if_then_else",
    "days_difference": "day_difference",
    "days_between": "day_difference",
    "calculate_days": "day_difference",
    "calculate_days_difference": "day_difference",
    "date_difference_in_days": "day_difference",
    "consecutive_count": "consecutive",
    "consecutive_years_count": "consecutive",
    "count_consecutive": "consecutive",
    "max_consecutive": "consecutive",
    "longest_streak": "consecutive",
    "longest_run": "consecutive",
    "check_intersection": "overlaps",
    "has_intersection": "overlaps",
    "intersects": "overlaps",
    "calculate_frequency": "most_frequent",
    "find_max_frequency": "most_frequent",
    "get_row_number": "row_number",
    "sort_values": "sort",
    "sorted": "sort",
    "order_by": "sort",
    "sort_by": "sort",
    # Stop 14: every element of one set in another
    "subset": "is_subset",
    "issubset": "is_subset",
    "is_subset_of": "is_subset",
    "check_subset": "is_subset",
    "all_in": "is_subset",
    "is_all_in": "is_subset",
    "contains_all": "is_subset",
    # Stop 14: rows of a set kept by one column's value
    "filter_by": "filter",
    "filter_rows": "filter",
    "where": "filter",
    "select_where": "filter",
    "filter_set": "filter",
    "nth_highest": "nth_largest",
    "nth_max": "nth_largest",
    "second_max": "nth_largest",
    "second_highest": "nth_largest",
    "second_largest": "nth_largest",
    "nth_lowest": "nth_smallest",
    "nth_min": "nth_smallest",
    "second_min": "nth_smallest",
    "second_lowest": "nth_smallest",
    "second_smallest": "nth_smallest",
}

# a name that carries an argument (``if_greater_than(a, b)`` compares with ``>``;
# ``second_max(set)`` is the largest but one): the rewrite adds that argument when the call
# does not give it
IMPLIED_ARGUMENTS: dict[str, tuple[str, str]] = {
    "if_greater_than": ("operator", ">"),
    "if_less_than": ("operator", "<"),
    "if_greater_or_equal": ("operator", ">="),
    "if_less_or_equal": ("operator", "<="),
    "is_less_than": ("operator", "<"),
    "less_than": ("operator", "<"),
    "greater_than": ("operator", ">"),
    "is_greater_than": ("operator", ">"),
    "earlier": ("operator", "<"),
    "earlier_date": ("operator", "<"),
    "is_earlier": ("operator", "<"),
    "later": ("operator", ">"),
    "later_date": ("operator", ">"),
    "is_later": ("operator", ">"),
    "second_max": ("n", "2"),
    "second_highest": ("n", "2"),
    "second_largest": ("n", "2"),
    "second_min": ("n", "2"),
    "second_lowest": ("n", "2"),
    "second_smallest": ("n", "2"),
}


# Stop 14: name *families*, where part of the name is the operation and the rest names what
# it works on: ``consecutive_losses``, ``consecutive_wins``, ``win_streak`` (the longest run,
# of the word's value when the word is a game result); ``group_by``, ``count_by_key``,
# ``group_by_country`` (the grouping column's value of each row, for max/min to count)
_CONSECUTIVE_FAMILY = re.compile(
    r"^(?:(?:longest|max|most|count|find|get|calculate)_)*"
    r"(?:consecutive_(?P<what>[a-z0-9_]+)|(?P<streak>[a-z0-9_]+?)_(?:streak|run)s?)$"
)
# durations and decades under made-up verbs: ``calculate_time_duration``, ``calc_decade``
# the first n elements: ``choose_n``, ``first_n``, ``top_n``, ``take_n``, ``head``
_FIRST_N_FAMILY = re.compile(r"^(?:choose|first|top|take|pick|select|get_first|get_top)_n$"
                             r"|^(?:head|take|limit)$")
_DURATION_FAMILY = re.compile(r"^(?:calculate|calc|get|compute|find|measure)_(?:time_)?"
                              r"(?:duration|span|time_span|period|length)$")
# the two numbers of a score: ``parse_points``, ``parse_score``, ``split_score``
_SCORE_FAMILY = re.compile(r"^(?:parse|split|extract|get|read)_(?:points|scores?|results?)$")
_DECADE_FAMILY = re.compile(r"^(?:(?:calculate|calc|get|compute|find|extract|to)_)?decades?$")
# "who is the only player ...?": the set itself (``only_element``, ``set_unique``)
_ONLY_FAMILY = re.compile(r"^(?:get_|find_|set_|the_)?(?:only|unique|single|sole)"
                          r"(?:_(?:element|value|one|item|entity|member|result))?$")
_GROUP_FAMILY = re.compile(r"^(?:group|count|aggregate)_(?:by|per)(?:_\w+)?$|^groupby$")
RESULT_WORDS: dict[str, str] = {
    "win": "win", "wins": "win", "won": "win", "victory": "win", "victories": "win",
    "loss": "loss", "losses": "loss", "lost": "loss", "defeat": "loss", "defeats": "loss",
    "draw": "draw", "draws": "draw", "tie": "tie", "ties": "tie",
}
"""A game result a run can be of (``consecutive_losses``), by its singular."""


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def _family(key: str) -> str | None:
    """The function a name of a family stands for (``consecutive_wins`` -> ``consecutive``)."""
    if _CONSECUTIVE_FAMILY.match(key):
        return "consecutive"
    if _GROUP_FAMILY.match(key):
        return "group_by"
    if _ONLY_FAMILY.match(key):
        return "distinct"
    if _FIRST_N_FAMILY.match(key):
        return "first"
    if _DURATION_FAMILY.match(key):
        return "duration"
    if _DECADE_FAMILY.match(key):
        return "decade"
    if _SCORE_FAMILY.match(key):
        return "score_parts"
    return None


def implied_argument(name: str) -> tuple[str, str] | None:
    """The (argument, value) a function's name carries, or ``None``.

    >>> implied_argument("if_greater_than"), implied_argument("compare") is None
    (('operator', '>'), True)
    >>> implied_argument("consecutive_losses"), implied_argument("longest_win_streak")
    (('value', 'loss'), ('value', 'win'))
    """
    key = _key(name)
    if key in IMPLIED_ARGUMENTS:
        return IMPLIED_ARGUMENTS[key]
    m = _CONSECUTIVE_FAMILY.match(key)
    if m is not None and key not in FUNCTION_ALIASES:
        word = (m.group("what") or m.group("streak") or "").split("_")[-1]
        if word in RESULT_WORDS:
            return ("value", RESULT_WORDS[word])
    return None


def canonical_function(name: str) -> str | None:
    """The defined function ``name`` stands for, or ``None`` when the language lacks it.

    Case and ``-``/space are ignored (``Calculator``, ``calculate-difference``).
    """
    key = _key(name)
    if key in CORE_FUNCTIONS or key in REASONING_FUNCTIONS:
        return key
    return FUNCTION_ALIASES.get(key) or _family(key)


def is_defined(name: str) -> bool:
    """True when the executor can run ``name`` without the LLM fallback."""
    return canonical_function(name) is not None


def is_reasoning(name: str) -> bool:
    """True for the reasoning functions (their literal arguments are read, not mapped)."""
    return canonical_function(name) in REASONING_FUNCTIONS
