"""Reply text -> the lines that hold queries, step descriptions and the target type.

Linear time by construction: every line is examined with ``str`` methods and left-to-right
scans (no regular expression with adjacent or nested quantifiers), and the size limits
(``query_chars`` for the reply, ``query_line_chars`` per line) are checked before anything
else looks at the text.

Accepted line shapes (case-insensitive, any of ``- * • > #`` bullets, ``1.`` / ``1)``
numbering and ``**bold**`` / ``__bold__`` markup in front):

* ``Query1: "call(...)"`` (also ``Query 1:``, ``**Query1:** ...``, ``**Query1**: ...``)
* ``Step1: description`` (``:`` or ``.`` after the number); a ``Query1: ...`` on the same
  line after the description is read as a query line of its own
* ``output_of_query1 = call(...)`` (assignment style), ``Query1 = "call(...)"``
* JSON keys: ``"Step1": "description",`` / ``"Query1": "call(...)",``
* ``## Target type: {Year}``
* when no line has a ``QueryN`` label: ``StepN: call(...)`` lines, or else bare calls

>>> scan = scan_reply('1. **Step1:** Find X. **Query1:** "count(set=\\'a\\')"')
>>> scan.steps[1], scan.queries[0].number, scan.queries[0].line[scan.queries[0].start:]
('Find X.', 1, '"count(set=\\'a\\')"')
>>> scan_reply("output_of_query2 = max(set='output_of_query1')").queries[0].number
2
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ParseError
from ..limits import Limits, current_limits

__all__ = ["QueryLine", "ReplyScan", "scan_reply", "check_size", "read_number", "skip_markup"]

_BULLETS = "-*•>+"
_MARKUP = "*_"
_COLONS = ":："
_ASSIGN_PREFIX = "output_of_query"


@dataclass(frozen=True)
class QueryLine:
    """One query found in the reply: its written number (None for a bare call), the 1-based
    line number, the whole line and the index where the call (or its opening quote) starts."""

    number: int | None
    line_no: int
    line: str
    start: int
    step: int | None = None


@dataclass
class ReplyScan:
    """What :func:`scan_reply` found: target type text, step descriptions, query lines."""

    target: str | None = None
    steps: dict[int, str] = field(default_factory=dict)
    queries: list[QueryLine] = field(default_factory=list)


def check_size(reply: str, limits: Limits) -> list[str]:
    """Split ``reply`` into lines after checking the reply and line size limits.

    >>> check_size("a\\r\\nb", current_limits())
    ['a', 'b']
    """
    if len(reply) > limits.query_chars:
        line_no = reply.count("\n", 0, limits.query_chars) + 1
        raise ParseError(
            f"the reply is longer than {limits.query_chars:,} characters "
            "(limit query_chars; an operator can raise it with TRUSTUQA_LIMIT_QUERY_CHARS)",
            "",
            line_no,
            1,
        )
    lines = [ln.removesuffix("\r") for ln in reply.split("\n")]  # not splitlines(): \x0c etc.
    for line_no, line in enumerate(lines, 1):
        if len(line) > limits.query_line_chars:
            raise ParseError(
                f"line longer than {limits.query_line_chars:,} characters (limit "
                "query_line_chars; raise it with TRUSTUQA_LIMIT_QUERY_LINE_CHARS)",
                line[:80] + "...",
                line_no,
                1,
            )
    return lines


def read_number(text: str, pos: int, limits: Limits, line_no: int, line: str) -> tuple[int, int]:
    """The decimal number at ``text[pos:]`` and the index after it (``(-1, pos)`` if none).

    Raises a positioned :class:`ParseError` for a number longer than ``number_digits``.

    >>> read_number("Query12:", 5, current_limits(), 1, "Query12:")
    (12, 7)
    """
    end = pos
    while end < len(text) and text[end].isascii() and text[end].isdigit():
        end += 1
    if end == pos:
        return -1, pos
    if end - pos > limits.number_digits:
        raise ParseError(
            f"a number with {end - pos:,} digits (limit number_digits = "
            f"{limits.number_digits}; raise it with TRUSTUQA_LIMIT_NUMBER_DIGITS)",
            line,
            line_no,
            pos + 1,
        )
    return int(text[pos:end]), end


def skip_markup(text: str, pos: int) -> int:
    """Index of the first character at or after ``pos`` that is not whitespace or ``*``/``_``.

    >>> skip_markup("** x", 0)
    3
    """
    while pos < len(text) and (text[pos].isspace() or text[pos] in _MARKUP):
        pos += 1
    return pos


def _skip_prefix(line: str) -> int:
    """Skip bullets, ``1.`` / ``1)`` numbering and bold markup at the start of a line."""
    pos = 0
    for _ in range(4):  # e.g. "- 1. **" : a few layers at most
        pos = skip_markup(line, pos)
        if line.startswith("##", pos):  # a Markdown heading; "# Query1: ..." is a comment
            while pos < len(line) and line[pos] == "#":
                pos += 1
        while pos < len(line) and line[pos] in _BULLETS:
            pos += 1
        pos = skip_markup(line, pos)
        end = pos
        while end < len(line) and end - pos < 4 and line[end].isdigit():
            end += 1
        if end > pos and end < len(line) and line[end] in ".)" and (
            end + 1 == len(line) or line[end + 1].isspace()
        ):
            pos = end + 1
            continue
        break
    return skip_markup(line, pos)


def _word_at(line: str, pos: int, word: str) -> bool:
    return line[pos : pos + len(word)].lower() == word


def _label(
    line: str, pos: int, word: str, seps: str, limits: Limits, line_no: int
) -> tuple[int, int] | None:
    """``Word <n> [**] <sep>`` at ``pos``: (number, index after the separator), or None."""
    if not _word_at(line, pos, word):
        return None
    p = pos + len(word)
    while p < len(line) and line[p] == " ":
        p += 1
    number, p = read_number(line, p, limits, line_no, line)
    if number < 0:
        return None
    while p < len(line) and (line[p] in _MARKUP or line[p] in " \"'"):
        p += 1
    if p < len(line) and line[p] in seps and line[p : p + 2] != "==":
        return number, skip_markup(line, p + 1)
    return None


def _inline_query(line: str, begin: int, limits: Limits, line_no: int) -> tuple[int, int, int]:
    """A ``QueryN:`` label inside a step line: (label start, number, body start) or -1s."""
    low = line.lower()
    pos = low.find("query", begin)
    while pos >= 0:
        before = line[pos - 1] if pos > 0 else " "
        if not (before.isalnum() or before == "_"):
            found = _label(line, pos, "query", _COLONS, limits, line_no)
            if found:
                return pos, found[0], found[1]
        pos = low.find("query", pos + 5)
    return -1, -1, -1


def _target(text: str) -> str | None:
    left = text.find("{")
    right = text.find("}", left + 1) if left >= 0 else -1
    inner = text[left + 1 : right] if right >= 0 else text.strip().rstrip(",")
    inner = inner.strip().strip("'\"` ").strip()
    return inner or None


def _is_bare_call(line: str, pos: int) -> bool:
    """``name(`` (optionally after one quote) at ``pos``."""
    if pos < len(line) and line[pos] in "\"'`":
        pos = skip_markup(line, pos + 1)
    if pos >= len(line) or not (line[pos].isalpha() or line[pos] == "_"):
        return False
    while pos < len(line) and (line[pos].isalnum() or line[pos] == "_"):
        pos += 1
    while pos < len(line) and line[pos].isspace():
        pos += 1
    return pos < len(line) and line[pos] == "("


def _assignment(line: str, pos: int, limits: Limits, line_no: int) -> tuple[int, int] | None:
    """``output_of_queryN = ...`` at ``pos``: (N, body start) or None."""
    if not _word_at(line, pos, _ASSIGN_PREFIX):
        return None
    number, p = read_number(line, pos + len(_ASSIGN_PREFIX), limits, line_no, line)
    if number < 0:
        return None
    while p < len(line) and line[p] == " ":
        p += 1
    if p < len(line) and line[p] == "=" and line[p + 1 : p + 2] != "=":
        return number, skip_markup(line, p + 1)
    return None


def scan_reply(reply: str, limits: Limits | None = None) -> ReplyScan:
    """Find the target type, step descriptions and query lines of a reply (see module doc)."""
    limits = limits or current_limits()
    lines = check_size(reply, limits)
    scan = ReplyScan()
    bare: list[QueryLine] = []
    step_calls: list[QueryLine] = []  # "Step1: get_information(...)" with no Query labels
    for line_no, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            continue
        pos = _skip_prefix(line)
        keyed = pos < len(line) and line[pos] in "\"'"  # a JSON key: "Query1": "..."
        if keyed:
            pos += 1
        tpos = pos
        while tpos < len(line) and line[tpos] in "# ":
            tpos += 1
        if scan.target is None and _word_at(line, tpos, "target"):
            rest = line[tpos + 6 :].lstrip()
            if rest.lower().startswith("type"):
                rest = rest[4:].lstrip(" *_\"'")
                if rest[:1] and rest[:1] in _COLONS:
                    scan.target = _target(rest[1:])
                    continue
        if step := _label(line, pos, "step", _COLONS + ".", limits, line_no):
            number, body = step
            at, q_number, q_body = _inline_query(line, body, limits, line_no)
            text = line[body:at] if at >= 0 else line[body:]
            if keyed:
                text = _json_string(text)
            scan.steps.setdefault(number, _clean_description(text, one_line=at >= 0))
            if at >= 0:
                scan.queries.append(QueryLine(q_number, line_no, line, q_body, number))
            elif _is_bare_call(line, body):
                step_calls.append(QueryLine(number, line_no, line, body, number))
            continue
        if query := _label(line, pos, "query", _COLONS + "=", limits, line_no):
            scan.queries.append(QueryLine(query[0], line_no, line, query[1]))
            continue
        if assigned := _assignment(line, pos, limits, line_no):
            scan.queries.append(QueryLine(assigned[0], line_no, line, assigned[1]))
            continue
        if _is_bare_call(line, pos):
            bare.append(QueryLine(None, line_no, line, pos))
    if not scan.queries:
        scan.queries = step_calls or bare
    return scan


def _json_string(text: str) -> str:
    """``"Find Italy",`` (a JSON value) -> ``Find Italy``."""
    text = text.strip().removesuffix(",").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    return text


def _clean_description(text: str, one_line: bool) -> str:
    """A step description without bold markup (and, when a query followed it on the same
    line, without the separator written between them)."""
    trailing = "-–—→>|;,*_ " if one_line else "* "
    text = text.strip()
    while text and text[-1] in trailing:
        text = text[:-1].rstrip()
    return text
