"""What a retry tells the model: the failed program, the error and the step that emptied it.

A note that only names the failing stage lets a model repeat its habit in every sample. The
retry note (``prompts/retry.md``) shows the program that failed, as the model wrote it, the
error, and the first step the answer depends on that came back empty. Under privacy nothing
from the data is added: the program is the model's own text; quoted values in an error
message that the model did not write itself are replaced by ``'…'``; an empty step is shown
as the model wrote it, without the nodes its literals were mapped to.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.execute import run_query
>>> g = load_graph(kgs=[b"Copley Medal|winner|Ann\\n"])
>>> text = ("Query1: \\"get_information(relation='winner', tail_entity='Ann')\\"\\n"
...         "Query2: \\"get_information(relation='winner', head_entity='Copley Medal')\\"\\n"
...         "Query3: \\"set_intersection(set1='output_of_query1', set2='output_of_query2')\\"")
>>> print(retry_note(1, "empty", text, run_query(text, g), privacy=True))
Attempt 2: none of the previous programs for this question gave an answer (the problem was at
the empty stage). This program failed:
Query1: "get_information(relation='winner', tail_entity='Ann')"
Query2: "get_information(relation='winner', head_entity='Copley Medal')"
Query3: "set_intersection(set1='output_of_query1', set2='output_of_query2')"
Query3 `set_intersection(set1='output_of_query1', set2='output_of_query2')` returned nothing:
check the relation's direction (head kind -> tail kind) and the values you used.
Write the program again, following the rules exactly; do not repeat the same mistake.
"""

from __future__ import annotations

import re

from ..trace import Trace
from .prompts import render

__all__ = ["MAX_PROGRAM", "redact", "failure_details", "retry_note"]

MAX_PROGRAM = 1500
_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"|`([^`]*)`")


def redact(message: str, allowed: str) -> str:
    """Quoted parts of ``message`` that do not occur in ``allowed`` become ``'…'``.

    >>> redact("'Italy' is not a known value; 'Nation' has no 'Itly'", "Nation='Itly'")
    "'…' is not a known value; 'Nation' has no 'Itly'"
    """
    def keep(m: re.Match[str]) -> str:
        inner = next(g for g in m.groups() if g is not None)
        return m.group(0) if inner in allowed else "'…'"

    return _QUOTED.sub(keep, message)


def failure_details(text: str, trace: Trace | None, privacy: bool = True,
                    question: str = "") -> str:
    """The lines a retry note adds about one failed sample (see the module docstring)."""
    program = text.strip()
    if len(program) > MAX_PROGRAM:
        program = program[:MAX_PROGRAM] + "\n..."
    lines = ["This program failed:", program]
    allowed = f"{text}\n{question}"
    if trace is not None and trace.error is not None:
        err = trace.error
        where = f" (step {err.step})" if err.step else ""
        message = redact(err.message, allowed) if privacy else err.message
        lines.append(f"Error at the {err.stage} stage{where}: {message}")
    elif trace is not None and trace.empty_step is not None:
        n = trace.empty_step
        step = next(s for s in trace.steps if s.number == n)
        if privacy:
            lines.append(f"Query{n} `{step.call}` returned nothing:\ncheck the relation's "
                         "direction (head kind -> tail kind) and the values you used.")
        else:
            lines.append(trace.explain_empty() or f"Query{n} returned nothing.")
    return "\n".join(lines)


def retry_note(attempt: int, stage: str, text: str = "", trace: Trace | None = None, *,
               privacy: bool = True, question: str = "") -> str:
    """The note for attempt ``attempt`` (0-based) after a round failed at ``stage``."""
    details = failure_details(text, trace, privacy, question) if text else ""
    return render("retry.md", attempt=attempt + 1, stage=stage, details=details)
