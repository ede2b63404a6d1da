"""The program text format the writers emit: ``## Target type`` plus ``StepN``/``QueryN`` lines.

>>> print(program_text("Player", [("Get every Player", "get_information(relation='Player')")]))
## Target type: {Player}
Step1: Get every Player
Query1: "get_information(relation='Player')"
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["program_text"]


def program_text(target: str | None, steps: Sequence[tuple[str, str]]) -> str:
    """Render ``## Target type`` (unless ``target`` is None) plus ``StepN``/``QueryN`` lines."""
    lines = [f"## Target type: {{{target}}}"] if target is not None else []
    for i, (desc, call) in enumerate(steps, 1):
        lines += [f"Step{i}: {desc}", f'Query{i}: "{call}"']
    return "\n".join(lines)
