"""Benchmark evaluation: answer metrics (:mod:`.metrics`) and dataset loaders (:mod:`.datasets`).

Import from the submodules directly, e.g.
``from trustuqa_core.evaluate.metrics import denotation_match``.
"""

from __future__ import annotations

__all__: list[str] = []
