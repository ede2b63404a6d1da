"""Turning a question into a :class:`~trustuqa_core.ui.runs.Run`: who writes the query.

Order of preference:

1. the LLM layer's :func:`trustuqa_core.answer.answer` (LLM or offline writer, demonstrations,
   self-consistency), when that module is installed;
2. a demonstration the user confirmed in this session for the same question;
3. the hand-written reference query of a bundled example question;
4. otherwise nobody: the user writes the query by hand (the page says so).

Nothing here calls an LLM except through ``answer()``, and only with the writer set to "llm".
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..graph import ConditionGraph
from ..mapping.mapper import Mapper
from .runs import Run, execute_text
from .samples import find_example, question_key

__all__ = ["ask", "answer_function", "Progress"]

Progress = Callable[[str], None]


def answer_function() -> Callable[..., Any] | None:
    """``trustuqa_core.answer.answer`` when the LLM layer provides it, else None."""
    if importlib.util.find_spec("trustuqa_core.answer") is None:
        return None
    module = importlib.import_module("trustuqa_core.answer")
    fn = getattr(module, "answer", None)
    return fn if callable(fn) else None


def ask(question: str, graph: ConditionGraph, mapper: Mapper | None, *,
        loaded: set[str], confirmed: Sequence[dict[str, Any]] = (),
        progress: Progress = lambda _msg: None) -> tuple[Run | None, str]:
    """Answer ``question`` on ``graph`` without an LLM; ``(run, message)``.

    ``run`` is None when no query could be found; ``message`` then says what to do.
    """
    key = question_key(question)
    t0 = time.perf_counter()
    progress("Looking for a verified query for this question")
    demo = next((d for d in confirmed if question_key(d["question"]) == key
                 and set(d.get("sources", [])) <= loaded), None)
    if demo is not None:
        run = execute_text(demo["query"], graph, mapper, origin="confirmed", question=question)
        run.note = "Re-used the query of an answer you confirmed earlier in this session."
    else:
        example = find_example(question, loaded)
        if example is None:
            return None, ("No offline writer is available yet and this is not one of the bundled "
                          "example questions: write the query by hand below, or configure an LLM "
                          "in Settings.")
        progress("Executing the bundled reference query")
        run = execute_text(example.query, graph, mapper, origin="reference", question=question)
        run.note = (f"Bundled example {example.id}: its hand-written reference query was run. "
                    f"Expected answer: {', '.join(example.answer)}.")
    run.stage_seconds = {"writer": time.perf_counter() - t0 - run.stage_seconds.get("execute", 0),
                         **run.stage_seconds}
    return run, ""
