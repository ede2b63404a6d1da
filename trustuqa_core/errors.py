"""The exception tree of trustuqa_core.

Every error the package raises on purpose derives from :class:`TrustUQAError`, so callers
(the app, the CLI, the benchmark runner) catch exactly one base class in one place.

>>> issubclass(ParseError, TrustUQAError)
True
"""

from __future__ import annotations

__all__ = [
    "TrustUQAError",
    "SourceError",
    "ParseError",
    "MappingError",
    "RewriteError",
    "ExecutionError",
    "NotApplicableError",
    "ModelUnavailableError",
    "LimitError",
    "SourceLimitError",
    "UsageError",
]


class TrustUQAError(Exception):
    """Base class for errors raised by trustuqa_core."""


class SourceError(TrustUQAError):
    """A data file could not be read: names the file, the line (when known) and the problem.

    >>> str(SourceError("kg.tsv", "expected 3 columns, got 2", line=7))
    'kg.tsv, line 7: expected 3 columns, got 2'
    """

    def __init__(self, source: str, problem: str, line: int | None = None) -> None:
        self.source = source
        self.problem = problem
        self.line = line
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {problem}")


class ParseError(TrustUQAError):
    """The LLM query is not valid syntax.

    Carries the offending ``text`` (one query line), its 1-based ``line`` in the reply and
    the 1-based ``column`` of the problem; ``str()`` underlines the column.

    >>> print(ParseError("expected ',' or ')'", "keep(set='a' value<'3')", line=2, column=14))
    line 2, column 14: expected ',' or ')'
      keep(set='a' value<'3')
                   ^
    """

    def __init__(self, message: str, text: str = "", line: int = 1, column: int = 1) -> None:
        self.message = message
        self.text = text
        self.line = line
        self.column = column
        head = f"line {line}, column {column}: {message}"
        if text:
            head += f"\n  {text}\n  {' ' * (column - 1)}^"
        super().__init__(head)


class MappingError(TrustUQAError):
    """An argument could not be mapped to any graph node."""

    def __init__(self, message: str, argument: str = "", candidates: tuple[str, ...] = ()) -> None:
        self.argument = argument
        self.candidates = candidates
        super().__init__(message)


class RewriteError(TrustUQAError):
    """No rewrite rule exists for this argument combination (the message lists the known ones)."""


class ExecutionError(TrustUQAError):
    """An operation failed at a given step (``step`` is the query number as written)."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.step = step
        super().__init__(f"step {step}: {message}" if step is not None else message)


class NotApplicableError(ExecutionError):
    """A defined function cannot read the arguments it was given (an argument shape it does
    not know): the executor hands the step to the LLM fallback, marked unverified."""


class ModelUnavailableError(TrustUQAError):
    """A configured embedding model is not installed (no network download is attempted)."""


class LimitError(TrustUQAError):
    """An input or a computation exceeds a configured limit (see :mod:`trustuqa_core.limits`).

    The message names the limit, what was found and the variable that raises it.
    """


class SourceLimitError(SourceError, LimitError):
    """A data file exceeds a configured limit: names the file, what was found and the limit.

    It is both a :class:`SourceError` (the file is refused, the other files still load) and a
    :class:`LimitError` (an operator can raise the limit).

    >>> err = SourceLimitError("t.csv", "more than 10 rows (TRUSTUQA_LIMIT_TABLE_ROWS=10)")
    >>> isinstance(err, SourceError) and isinstance(err, LimitError), str(err)
    (True, 't.csv: more than 10 rows (TRUSTUQA_LIMIT_TABLE_ROWS=10)')
    """


class UsageError(TrustUQAError):
    """A request is malformed before any data is read: no source given, an empty question, an
    unreadable query file, an override that is not ``ARG=LABEL`` (the CLI exits with 2)."""
