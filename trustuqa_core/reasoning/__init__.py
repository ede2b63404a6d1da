"""Verified reasoning functions: comparisons, conditionals, arithmetic, durations, yes/no tests.

Deterministic functions over earlier results, registered with the executor next to the set
operations and aggregates. They read numbers, dates, durations and ordinals the way
:mod:`trustuqa_core.numbers` does, state that reading in the step's notes, and keep the
witnesses of their operands. The names LLMs use for them (``calculate_difference``,
``comparison``, ``if``, ...) are mapped onto these by
:data:`trustuqa_core.function_names.FUNCTION_ALIASES`.

>>> sorted(REASONING)[:4]
['absolute', 'add', 'calculate', 'compare']
"""

from __future__ import annotations

from collections.abc import Callable

from ..ops.base import Context
from ..results import Result
from ..rewrite import Op
from .arith import (
    fn_absolute,
    fn_add,
    fn_calculate,
    fn_day_difference,
    fn_difference,
    fn_divide,
    fn_duration,
    fn_multiply,
    fn_percentage,
    fn_subtract,
    fn_year_difference,
)
from .compare import fn_compare, fn_contains, fn_equals, fn_if_then_else
from .filtering import fn_filter
from .group_stats import fn_groups_of_size, fn_sum_each
from .grouping import fn_count_each, fn_group_by
from .sets import (
    fn_decade,
    fn_distinct,
    fn_exists,
    fn_extract_month,
    fn_extract_year,
    fn_first,
    fn_is_empty,
    fn_is_subset,
    fn_last,
    fn_most_frequent,
    fn_overlaps,
    fn_row_number,
)
from .sorting import fn_consecutive, fn_nth_largest, fn_nth_smallest, fn_sort
from .text import fn_extract_number, fn_score_parts, fn_split

__all__ = ["REASONING"]

REASONING: dict[str, Callable[[Context, Op], Result]] = {
    "compare": fn_compare,
    "if_then_else": fn_if_then_else,
    "equals": fn_equals,
    "contains": fn_contains,
    "add": fn_add,
    "subtract": fn_subtract,
    "difference": fn_difference,
    "multiply": fn_multiply,
    "divide": fn_divide,
    "percentage": fn_percentage,
    "absolute": fn_absolute,
    "calculate": fn_calculate,
    "duration": fn_duration,
    "year_difference": fn_year_difference,
    "day_difference": fn_day_difference,
    "is_empty": fn_is_empty,
    "exists": fn_exists,
    "most_frequent": fn_most_frequent,
    "extract_year": fn_extract_year,
    "extract_month": fn_extract_month,
    "first": fn_first,
    "last": fn_last,
    "distinct": fn_distinct,
    "split": fn_split,
    "extract_number": fn_extract_number,
    "score_parts": fn_score_parts,
    "sort": fn_sort,
    "nth_largest": fn_nth_largest,
    "nth_smallest": fn_nth_smallest,
    "consecutive": fn_consecutive,
    "overlaps": fn_overlaps,
    "row_number": fn_row_number,
    "group_by": fn_group_by,
    "count_each": fn_count_each,
    "groups_of_size": fn_groups_of_size,
    "sum_each": fn_sum_each,
    "filter": fn_filter,
    "decade": fn_decade,
    "is_subset": fn_is_subset,
}
