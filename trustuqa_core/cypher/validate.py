"""A read-only check for Cypher text written by anyone (an LLM, a user) before it runs.

The text is scanned once: string literals, backquoted names and comments are set aside (so
``'Create Your Own Story'`` or ``// set up`` never trigger a rejection), then every word is
checked. A statement is accepted only when

* it is one statement (one trailing ``;`` at most), not empty, at most ``MAX_CHARS`` long,
  with every string, backquote and comment closed;
* it starts with ``MATCH``, ``OPTIONAL MATCH``, ``WITH``, ``UNWIND`` or ``RETURN``;
* no word (outside literals, and not a ``.property`` name) is a write, schema, procedure,
  import/export, transaction or administration keyword, nor any clause outside the allowlist
  ``MATCH, OPTIONAL MATCH, WHERE, WITH, RETURN, ORDER BY, LIMIT, SKIP, UNWIND, DISTINCT``.

Keywords are matched case-insensitively, so ``cReAtE`` and ``CREATE/**/(`` are caught.

>>> print(validate_cypher("MATCH (:Node)-[f:Fact]->(d:Node) WHERE f.rel = 'set_in' RETURN d.label"))
MATCH (:Node)-[f:Fact]->(d:Node) WHERE f.rel = 'set_in' RETURN d.label
>>> try:
...     validate_cypher("MATCH (n) DETACH DELETE n")
... except CypherValidationError as exc:
...     print(exc)
Cypher rejected at character 11: DETACH is not allowed (read-only queries only)
"""

from __future__ import annotations

import re

from ..errors import TrustUQAError

__all__ = ["CypherValidationError", "validate_cypher", "code_only", "ALLOWED_CLAUSES",
           "FORBIDDEN_WORDS", "MAX_CHARS"]

MAX_CHARS = 20_000
ALLOWED_CLAUSES = frozenset({"MATCH", "OPTIONAL", "WHERE", "WITH", "RETURN", "ORDER", "BY",
                             "LIMIT", "SKIP", "UNWIND", "DISTINCT"})
FORBIDDEN_WORDS = frozenset({
    # writes
    "CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "FOREACH", "TRUNCATE",
    # schema and storage
    "DROP", "ALTER", "RENAME", "COPY", "LOAD", "EXPORT", "IMPORT", "ATTACH", "USE",
    "INSTALL", "UNINSTALL", "EXTENSION", "MACRO", "INDEX", "CONSTRAINT", "DATABASE",
    "CHECKPOINT",
    # procedures, subquery calls, transactions, administration
    "CALL", "YIELD", "BEGIN", "COMMIT", "ROLLBACK", "TRANSACTION", "GRANT", "REVOKE",
    "DENY", "SHOW", "TERMINATE", "START", "STOP", "PROFILE", "EXPLAIN", "UNION", "PERIODIC",
    "FINISH", "INSERT", "UPDATE", "UPSERT",
})
_STARTS = ("MATCH", "OPTIONAL", "WITH", "UNWIND", "RETURN")
_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_PROPERTY_DOT = re.compile(r"(?:[A-Za-z_][A-Za-z_0-9]*|[)\]])\s*\.\s*$")


class CypherValidationError(TrustUQAError):
    """Cypher text that is not a single read-only query; names the problem and where."""

    def __init__(self, problem: str, position: int | None = None) -> None:
        self.problem = problem
        self.position = position
        where = f" at character {position + 1}" if position is not None else ""
        super().__init__(f"Cypher rejected{where}: {problem}")


def code_only(text: str) -> str:
    """``text`` with literals, backquoted names and comments blanked (same length)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" and c != "`" else 1
            if j >= n:
                what = "backquoted name" if c == "`" else "string"
                raise CypherValidationError(f"unterminated {what}", i)
            for k in range(i, j + 1):
                out[k] = " " if k in (i, j) else "x"
            out[i] = out[j] = c if c != "`" else "x"
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise CypherValidationError("unterminated comment", i)
            out[i : j + 2] = " " * (j + 2 - i)
            i = j + 2
        else:
            i += 1
    return "".join(out)


def validate_cypher(text: str) -> str:
    """Return ``text`` when it is one read-only query, else raise :class:`CypherValidationError`."""
    if not isinstance(text, str) or not text.strip():
        raise CypherValidationError("empty query")
    if len(text) > MAX_CHARS:
        raise CypherValidationError(f"query longer than {MAX_CHARS} characters")
    if "\x00" in text:
        raise CypherValidationError("NUL character in the query", text.index("\x00"))
    code = code_only(text)
    body = code.rstrip()
    if body.endswith(";"):
        body = body[:-1]
    if ";" in body:
        raise CypherValidationError("more than one statement", body.index(";"))
    words = list(_WORD.finditer(code))
    if not words or words[0].group().upper() not in _STARTS:
        raise CypherValidationError(
            "a query must start with MATCH, OPTIONAL MATCH, WITH, UNWIND or RETURN",
            words[0].start() if words else None,
        )
    for w in words:
        word = w.group().upper()
        if _PROPERTY_DOT.search(code, max(0, w.start() - 200), w.start()):  # n.set: a key
            continue
        if word in FORBIDDEN_WORDS:
            raise CypherValidationError(
                f"{word} is not allowed (read-only queries only)", w.start()
            )
    return text
