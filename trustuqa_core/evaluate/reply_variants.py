"""A corpus of reply variants: recorded GPT-3.5 replies rewritten the way other models write.

Real model families wrap the same program differently: Markdown bold labels (``**Query1:**``,
typical of Llama-3.1), numbered lists (``1. Query1:``), a step and its query on one line,
assignment style (``output_of_query1 = get_information(...)``), the paper's ``None`` for an
absent argument, chatty preambles and trailers, code fences, other quotes, other spacing,
list bullets, comments after a query, a JSON object of steps and queries.
Each transform here changes only the *form* of a reply, never its program, so a tolerant
parser must read every variant to the same :class:`~trustuqa_core.query.ast.Program` as the
original -- which :func:`variant_agreement` measures.

>>> reply = ('Step1: Find Italy\\n'
...          'Query1: "get_information(relation=\\'Nation\\', tail_entity=\\'Italy\\')"')
>>> print(TRANSFORMS["bold"](reply, random.Random(0)))
**Step1**: Find Italy
**Query1**: "get_information(relation='Nation', tail_entity='Italy')"
>>> print(TRANSFORMS["assignment"](reply, random.Random(1)))
Step1: Find Italy
output_of_query1 = get_information(relation='Nation', tail_entity='Italy')
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import ParseError
from ..query import parse

__all__ = ["TRANSFORMS", "Variant", "make_variants", "variant_agreement", "AgreementReport"]

Transform = Callable[[str, random.Random], str]

_QUERY = re.compile(r'^Query(\d+)\s*:\s*"(.*)"\s*$')
_STEP = re.compile(r"^Step\s*(\d+)\s*[:.]\s*(.*)$")
_VALUE = re.compile(r"(\w+\s*(?:>=|<=|!=|=|>|<)\s*)'([^'\"\\]*)'(?=\s*[,)])")
_GET_INFO_ARGS = ("head_entity", "tail_entity", "key", "value")

PREAMBLES = (
    "Sure! Here is the query for your question:",
    "To answer this question, we can break it into steps.",
    "Here's how I would query the data step by step.",
    "Let's think about which relations we need first.\nThen we write the queries.",
    "Certainly. Below is the query program.",
)
TRAILERS = (
    "The output of the last query is the answer.",
    "I hope this helps! Let me know if you need anything else.",
    "Note: the final step returns the requested value.",
    "This program first finds the matching rows and then reads the answer from them.",
    "Explanation: each step uses the output of the previous one where needed.",
)


def _map_lines(reply: str, fn: Callable[[str], str]) -> str:
    return "\n".join(fn(line) for line in reply.split("\n"))


def bold(reply: str, rng: random.Random) -> str:
    """``**Query1:** "..."`` / ``**Step1:** ...`` (or ``**Query1**:``)."""
    inside = rng.random() < 0.7

    def one(line: str) -> str:
        m = re.match(r"^(Query|Step)(\d+)\s*:\s*", line)
        if not m:
            return line
        label = f"{m.group(1)}{m.group(2)}"
        head = f"**{label}:** " if inside else f"**{label}**: "
        return head + line[m.end() :]

    return _map_lines(reply, one)


def numbered(reply: str, rng: random.Random) -> str:
    """``1. Step1: ...`` and ``   Query1: ...`` (or ``1) Query1:`` when there are no steps)."""
    has_steps = any(_STEP.match(line) for line in reply.split("\n"))
    sep = rng.choice([".", ")"])

    def one(line: str) -> str:
        if has_steps and (m := _STEP.match(line)):
            return f"{m.group(1)}{sep} {line}"
        if (m := _QUERY.match(line)) and not has_steps:
            return f"{m.group(1)}{sep} {line}"
        if _QUERY.match(line):
            return "   " + line
        return line

    return _map_lines(reply, one)


def one_line(reply: str, rng: random.Random) -> str:
    """A step and its query on one line: ``Step1: Find X. Query1: "..."``."""
    sep = rng.choice([" ", " -> ", " | ", " — ", " ; "])
    lines = reply.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _STEP.match(lines[i])
        if m and i + 1 < len(lines) and (q := _QUERY.match(lines[i + 1])) and (
            q.group(1) == m.group(1)
        ):
            out.append(lines[i].rstrip() + sep + lines[i + 1])
            i += 2
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def assignment(reply: str, rng: random.Random) -> str:
    """``output_of_query1 = get_information(...)``."""
    spaced = rng.random() < 0.8

    def one(line: str) -> str:
        m = _QUERY.match(line)
        if not m:
            return line
        eq = " = " if spaced else "="
        return f"output_of_query{m.group(1)}{eq}{m.group(2)}"

    return _map_lines(reply, one)


def none_args(reply: str, rng: random.Random) -> str:
    """``get_information(..., head_entity=None)``: the paper's notation for an absent argument."""

    def one(line: str) -> str:
        m = _QUERY.match(line)
        if not m or not m.group(2).startswith("get_information(") or not m.group(2).endswith(")"):
            return line
        call = m.group(2)
        absent = [a for a in _GET_INFO_ARGS if not re.search(rf"\b{a}\s*[=<>!]", call)]
        if not absent:
            return line
        extra = ", ".join(f"{a}=None" for a in rng.sample(absent, rng.randint(1, len(absent))))
        return f'Query{m.group(1)}: "{call[:-1]}, {extra})"'

    return _map_lines(reply, one)


def chatty(reply: str, rng: random.Random) -> str:
    """A preamble before the reply and a trailer after it."""
    return f"{rng.choice(PREAMBLES)}\n\n{reply}\n\n{rng.choice(TRAILERS)}"


def fenced(reply: str, rng: random.Random) -> str:
    """The reply in a code fence, or each call in backticks."""
    if rng.random() < 0.5:
        return f"```{rng.choice(['', 'python', 'text'])}\n{reply}\n```"

    def one(line: str) -> str:
        m = _QUERY.match(line)
        return f"Query{m.group(1)}: `{m.group(2)}`" if m else line

    return _map_lines(reply, one)


def quotes(reply: str, rng: random.Random) -> str:
    """Other quotes: none / curly / single around the call, double or curly around values."""
    outer = rng.choice(["none", "curly", "single", "keep"])
    inner = rng.choice(["double", "curly", "keep"])

    def one(line: str) -> str:
        m = _QUERY.match(line)
        if not m:
            return line
        call = m.group(2)
        if inner == "double" and '"' not in call:
            call = _VALUE.sub(lambda v: f'{v.group(1)}"{v.group(2)}"', call)
        elif inner == "curly":
            call = _VALUE.sub(lambda v: f"{v.group(1)}‘{v.group(2)}’", call)
        wrap = {"none": ("", ""), "curly": ("“", "”"), "single": ("'", "'"), "keep": ('"', '"')}
        left, right = wrap[outer]
        return f"Query{m.group(1)}: {left}{call}{right}"

    return _map_lines(reply, one)


def spacing(reply: str, rng: random.Random) -> str:
    """``Query 1:``, ``QUERY1 :``, ``Step 1:``, ``### Step1:`` headings."""
    style = rng.choice(["space", "upper", "heading"])

    def one(line: str) -> str:
        m = re.match(r"^(Query|Step)(\d+)\s*:", line)
        if not m:
            return line
        rest = line[m.end() :]
        if style == "space":
            return f"{m.group(1)} {m.group(2)}:{rest}"
        if style == "upper":
            return f"{m.group(1).upper()}{m.group(2)} :{rest}"
        return f"### {line}" if m.group(1) == "Step" else line

    return _map_lines(reply, one)


def bullets(reply: str, rng: random.Random) -> str:
    """Markdown list items: ``- Step1: ...`` / ``* Query1: ...``."""
    mark = rng.choice(["-", "*", "•"])

    def one(line: str) -> str:
        return f"{mark} {line}" if re.match(r"^(Query|Step)\d+\s*:", line) else line

    return _map_lines(reply, one)


def comments(reply: str, rng: random.Random) -> str:
    """A comment after each query: ``Query1: "..."  # finds the rows``."""
    marker = rng.choice(["#", "//", "--"])

    def one(line: str) -> str:
        m = _QUERY.match(line)
        return f"{line}  {marker} step {m.group(1)} of the plan" if m else line

    return _map_lines(reply, one)


def json_object(reply: str, rng: random.Random) -> str:
    """A JSON object: ``{"Target type": "...", "Step1": "...", "Query1": "call(...)", ...}``.

    Replies whose text would need JSON escapes (a ``"`` or a backslash) are left as they are.
    """
    entries: list[tuple[str, str]] = []
    for line in reply.split("\n"):
        if m := re.match(r"^#*\s*Target type\s*:\s*(.*?)\s*$", line, re.IGNORECASE):
            entries.append(("Target type", m.group(1)))
        elif m := _STEP.match(line):
            entries.append((f"Step{m.group(1)}", m.group(2).strip()))
        elif m := _QUERY.match(line):
            entries.append((f"Query{m.group(1)}", m.group(2)))
    if any('"' in text or "\\" in text for _, text in entries):
        return reply
    indent = " " * rng.choice([2, 4])
    return "{\n" + ",\n".join(f'{indent}"{key}": "{text}"' for key, text in entries) + "\n}"


TRANSFORMS: dict[str, Transform] = {
    "bold": bold,
    "numbered": numbered,
    "one_line": one_line,
    "assignment": assignment,
    "none_args": none_args,
    "chatty": chatty,
    "fenced": fenced,
    "quotes": quotes,
    "spacing": spacing,
    "bullets": bullets,
    "comments": comments,
    "json": json_object,
}


@dataclass(frozen=True)
class Variant:
    """One variant: the original's key, the transforms applied (in order) and the text."""

    key: str
    transforms: tuple[str, ...]
    original: str
    text: str


def make_variants(
    replies: Iterable[tuple[str, str]], seed: int = 0, combos: int = 1
) -> list[Variant]:
    """Every transform applied alone to each reply, plus ``combos`` random combinations of
    2-4 transforms per reply. Replies must parse (unparsable ones are skipped).

    >>> vs = make_variants([("q", 'Query1: "count(set=\\'a\\')"')], seed=1)
    >>> len(vs), vs[0].transforms
    (13, ('bold',))
    """
    rng = random.Random(seed)
    out: list[Variant] = []
    names = list(TRANSFORMS)
    for key, reply in replies:
        try:
            parse(reply)
        except ParseError:
            continue
        for name in names:
            out.append(Variant(key, (name,), reply, TRANSFORMS[name](reply, rng)))
        for _ in range(combos):
            chosen = rng.sample(names, rng.randint(2, 4))
            # a JSON object first (it reads the QueryN lines), wrapping transforms last
            chosen.sort(key=lambda n: (n != "json", n in ("chatty", "fenced")))
            text = reply
            for name in chosen:
                text = TRANSFORMS[name](text, rng)
            out.append(Variant(key, tuple(chosen), reply, text))
    return out


@dataclass
class AgreementReport:
    """How many variants parse to the same program as their original, per transform."""

    total: int
    same: int
    by_transform: dict[str, tuple[int, int]]
    failures: list[tuple[Variant, str]]

    @property
    def rate(self) -> float:
        return self.same / self.total if self.total else 0.0


def variant_agreement(variants: Iterable[Variant]) -> AgreementReport:
    """Parse each variant and its original; count identical programs."""
    total = same = 0
    by: dict[str, list[int]] = {}
    failures: list[tuple[Variant, str]] = []
    for v in variants:
        total += 1
        expected = parse(v.original)
        try:
            got = parse(v.text)
            ok = got == expected
            why = "" if ok else "parsed to a different program"
        except ParseError as exc:
            ok, why = False, str(exc).split("\n")[0]
        same += ok
        for name in v.transforms:
            counts = by.setdefault(name, [0, 0])
            counts[0] += ok
            counts[1] += 1
        if not ok:
            failures.append((v, why))
    return AgreementReport(total, same, {k: (a, b) for k, (a, b) in by.items()}, failures)
