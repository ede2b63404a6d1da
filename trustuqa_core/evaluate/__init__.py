"""Benchmark evaluation: answer metrics (:mod:`.metrics`) and dataset loaders (:mod:`.datasets`).

Import from the submodules directly, e.g.
``from trustuqa_core.evaluate.metrics import hits_at_1``.
"""

from __future__ import annotations

__all__: list[str] = []
