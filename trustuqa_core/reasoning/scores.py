"""Scores and records: one value holding two numbers (``21–7``, ``W 52–10``, ``22–18``).

The reading (which of the two numbers the question asks for) is
:func:`trustuqa_core.numbers.read_score`, kept there so that the graph operations
(``get_information(relation='Score', tail_entity>'4')``) read scores the same way as the
reasoning functions; this module re-exports it for them.

>>> read_score("W 52–10", None)
(52.0, 'its first number')
"""

from __future__ import annotations

from ..numbers import SCORE, read_score

__all__ = ["SCORE", "read_score"]
