"""The LLM-function fallback (paper 3.2, appendix F): an LLM answers what the executor cannot.

Used for functions the query language does not define and for comparisons / extrema over values
that are not numbers. Answers are marked *LLM-inferred, not verified* (the executor marks the
step ``inferred``). Prompts live in ``prompts/fallback_*.md``. As in the paper, the prompt is
few-shot (two worked examples) and shows the path of steps run so far with their values and the
cells of the table rows they reached (``FallbackRequest.path`` / ``rows``, filled by
:func:`trustuqa_core.fallback.with_context`), so a ``compare`` of ``["1:07.05"]`` and
``["1:09.17"]`` is linked to Tina Maze and Tessa Worley.

Privacy: such a step needs data values in the prompt. With ``privacy=True`` (the default)
nothing is sent; the fallback declines and the step is reported as unanswerable.

>>> from trustuqa_core.fallback import FallbackRequest
>>> fb = LLMFallback(client=None)
>>> fb(FallbackRequest("compare", 2, "get_information(...)", "", {}, ["a", "b"])).note[:8]
'privacy:'
>>> parse_values('Sure: ["Gold", "Silver"]'), parse_values("- Gold\\n- Silver")
(['Gold', 'Silver'], ['Gold', 'Silver'])
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..fallback import FallbackAnswer, FallbackRequest
from ..text import normalize
from .client import LLMClient, LLMError
from .prompts import load_text, render

__all__ = ["LLMFallback", "FallbackCall", "fallback_prompt", "parse_values", "PRIVACY_NOTE"]

PRIVACY_NOTE = ("privacy: data values are not sent to the LLM (privacy switch on), so this "
                "step was not sent and stays unanswerable")
_MAX_VALUES = 200
_PROMPTS = {"function": "fallback_function.md", "compare": "fallback_compare.md",
            "extremum": "fallback_extremum.md"}


@dataclass(frozen=True)
class FallbackCall:
    """One fallback request and what came of it (kept for the answer's record)."""

    query: int
    kind: str
    call: str
    sent: bool
    prompt: str
    values: tuple[str, ...] | None
    note: str
    seconds: float = 0.0


def _lines(values: Sequence[str], limit: int = _MAX_VALUES) -> str:
    shown = [json.dumps(v, ensure_ascii=False) for v in values[:limit]]
    more = f"\n... and {len(values) - limit} more" if len(values) > limit else ""
    return "\n".join(f"- {s}" for s in shown) + more if shown else "- (none)"


def _inputs(inputs: Mapping[str, Sequence[str]]) -> str:
    return "\n".join(f"{name}: {json.dumps(list(vals)[:_MAX_VALUES], ensure_ascii=False)}"
                     for name, vals in inputs.items()) or "(none)"


def fallback_prompt(req: FallbackRequest) -> str:
    """The exact prompt text for a request: the intro with two worked examples
    (``fallback_intro.md``), the steps run so far and the cells of the rows they reached
    (``fallback_context.md``), then the task (choice prompt for a function with candidates)."""
    return "\n\n".join((load_text("fallback_intro.md").strip(), _context(req), _task(req)))


def _context(req: FallbackRequest) -> str:
    path = "\n".join(req.path) or "(none: this is the first step)"
    rows = "\n".join(req.rows) or "(none)"
    return render("fallback_context.md", path=path, rows=rows)


def _task(req: FallbackRequest) -> str:
    common = {"question": req.question or "(not given)", "description": req.description or
              "(not given)", "call": req.call}
    if req.kind == "compare":
        relation = next(iter(req.inputs.get("relation", ())), "")
        return render(_PROMPTS["compare"], relation=relation, operator=req.operator,
                      threshold=req.threshold, candidates=_lines(req.candidates), **common)
    if req.kind == "extremum":
        which = "smallest" if req.operator == "min" else "largest"
        return render(_PROMPTS["extremum"], which=which, candidates=_lines(req.candidates),
                      **common)
    if req.candidates:
        return render("fallback_choice.md", candidates=_lines(req.candidates), **common)
    return render(_PROMPTS["function"], inputs=_inputs(req.inputs), **common)


def parse_values(reply: str) -> list[str]:
    """A JSON list of strings in the reply, else one value per non-empty line. Never evals."""
    start, end = reply.find("["), reply.rfind("]")
    if 0 <= start < end:
        try:
            data = json.loads(reply[start:end + 1])
        except ValueError:
            data = None
        if isinstance(data, list):
            return [str(v).strip() for v in data if str(v).strip()]
    out = []
    for line in reply.splitlines():
        line = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip().strip("\"'`").strip()
        if line and not line.startswith("```"):
            out.append(line)
    return out


def _restrict(values: list[str], candidates: Sequence[str]) -> list[str]:
    """Keep the values that are candidates (exactly, else after normalisation)."""
    exact = set(candidates)
    by_norm = {normalize(c): c for c in candidates}
    out = []
    for v in values:
        c = v if v in exact else by_norm.get(normalize(v))
        if c is not None and c not in out:
            out.append(c)
    return out


@dataclass
class LLMFallback:
    """A :data:`~trustuqa_core.fallback.Fallback` backed by :class:`LLMClient`.

    Args:
        client: the LLM (may be None when ``privacy`` is on: nothing is ever sent).
        privacy: when True no data value is sent and every request is declined.
        calls: a record of every request (prompt, values, note), in order.
    """

    client: LLMClient | None
    privacy: bool = True
    calls: list[FallbackCall] = field(default_factory=list)

    def __call__(self, req: FallbackRequest) -> FallbackAnswer:
        if self.privacy or self.client is None:
            note = PRIVACY_NOTE if self.privacy else "no LLM is configured for the fallback"
            return self._record(req, False, "", None, note)
        prompt = fallback_prompt(req)
        t0 = time.perf_counter()
        try:
            reply = self.client.complete([{"role": "user", "content": prompt}], n=1,
                                         temperature=0.0)[0]
        except LLMError as err:
            return self._record(req, True, prompt, None, f"the LLM fallback failed: {err}",
                                time.perf_counter() - t0)
        seconds = time.perf_counter() - t0
        values = parse_values(reply)
        if req.kind in ("compare", "extremum") or req.candidates:
            values = _restrict(values, req.candidates)
        model = self.client.settings.model
        return self._record(req, True, prompt, values, f"LLM-inferred by {model}, not verified",
                            seconds)

    @property
    def seconds(self) -> float:
        """Time spent waiting for the LLM, over all calls."""
        return sum(c.seconds for c in self.calls)

    def _record(self, req: FallbackRequest, sent: bool, prompt: str,
                values: list[str] | None, note: str, seconds: float = 0.0) -> FallbackAnswer:
        self.calls.append(FallbackCall(req.query, req.kind, req.call, sent, prompt,
                                       tuple(values) if values is not None else None, note,
                                       seconds))
        return FallbackAnswer(values, note, prompt)
