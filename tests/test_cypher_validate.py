"""The read-only Cypher validator: hostile replies (writes, schema changes, procedures, file
access, several statements, comment / case / whitespace tricks) are rejected; read-only queries,
including ones whose string literals or property names contain keywords, pass."""

from __future__ import annotations

import pytest

from trustuqa_core.cypher import CypherValidationError, validate_cypher
from trustuqa_core.errors import TrustUQAError

HOSTILE = [
    "CREATE (n:Node {id: 1})",
    "MATCH (n) DETACH DELETE n",
    "MATCH (n) DELETE n",
    "MATCH (n:Node) SET n.label = 'x' RETURN n",
    "MATCH (n:Node) REMOVE n.num RETURN n",
    "MERGE (n:Node {id: 7}) RETURN n",
    "DROP TABLE Node",
    "CALL show_tables() RETURN *",
    "CALL db.labels()",
    "LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line",
    "LOAD FROM '/etc/passwd' RETURN *",
    "COPY Node FROM '/tmp/evil.csv'",
    "COPY (MATCH (n) RETURN n) TO '/tmp/out.csv'",
    "ALTER TABLE Node ADD evil STRING",
    "INSTALL httpfs",
    "LOAD EXTENSION httpfs",
    "ATTACH '/tmp/other.db' AS other (dbtype lbug)",
    "EXPORT DATABASE '/tmp/dump'",
    "IMPORT DATABASE '/tmp/dump'",
    "BEGIN TRANSACTION",
    "CHECKPOINT",
    "USE other",
    "MATCH (n) RETURN n; MATCH (m) DETACH DELETE m",
    "MATCH (n) RETURN n; RETURN 1",
    # case and whitespace tricks
    "match (n) detach delete n",
    "MATCH (n)\n\tDeLeTe\n n",
    "MATCH (n:Node) sEt n.num = 0",
    # comments hiding or splitting keywords
    "MATCH (n) /* harmless */ DELETE n",
    "MATCH (n) // comment\nDETACH DELETE n",
    "MATCH (n) RETURN n /* ; */ ; CREATE (m)",
    "/* MATCH */ CREATE (n)",
    "// MATCH (n) RETURN n\nCREATE (n)",
    # keywords after a string / backquoted name
    "MATCH (n) WHERE n.label = 'a' CREATE (m)",
    "MATCH (`n`) DELETE `n`",
    "MATCH (n) WHERE n.label = \"x\\\"y\" DELETE n",
    # other clauses outside the allowlist
    "MATCH (n) FOREACH (x IN [1] | CREATE (m))",
    "MATCH (n) RETURN n UNION MATCH (m) RETURN m",
    "CALL { MATCH (n) RETURN n } RETURN 1",
    "MATCH (n) CALL { WITH n DELETE n } RETURN 1",
    "PROFILE MATCH (n) RETURN n",
    "EXPLAIN MATCH (n) RETURN n",
    "CREATE MACRO evil(x) AS x",
    "UNWIND [1] AS x CREATE (n {id: x})",
    "WITH 1 AS x MERGE (n {id: x})",
    # malformed: unterminated literals and comments, empty text
    "MATCH (n) WHERE n.label = 'open RETURN n",
    "MATCH (n) /* never closed RETURN n",
    "MATCH (`n) RETURN n",
    "",
    "   \n  ",
    "RETURN 1\x00; DROP TABLE Node",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_cypher_is_rejected(text: str) -> None:
    with pytest.raises(CypherValidationError):
        validate_cypher(text)


def test_the_hostile_list_is_long_enough() -> None:
    assert len(HOSTILE) >= 30


SAFE = [
    "MATCH (n:Node) RETURN n.label LIMIT 5",
    "MATCH (m:Node)-[f:Fact]->(t:Node) WHERE f.rel = 'directed_by' RETURN DISTINCT t.label",
    "OPTIONAL MATCH (h:Node)-[f:Fact]->(t:Node) WHERE h.id IN $ids "
    "WITH collect(DISTINCT t.id) AS s1 RETURN s1",
    "UNWIND [1, 2] AS x RETURN x ORDER BY x DESC SKIP 1 LIMIT 1",
    "RETURN 1;",
    # keywords inside string literals, comments and property names are not clauses
    "MATCH (n:Node) WHERE n.label = 'Create Your Own Story' RETURN n",
    "MATCH (n:Node) WHERE n.label = \"DROP DEAD GORGEOUS; DELETE\" RETURN n",
    "MATCH (n:Node) WHERE n.label = 'It\\'s a SET piece' RETURN n",
    "MATCH (n:Node) // set up the call\nRETURN n",
    "MATCH (n:Node) /* DELETE nothing */ RETURN n.label",
    "MATCH (n:Node) RETURN n.set, n.`delete`",
    "MATCH (`create`:Node) RETURN `create`.label",
    "MATCH (n:Node) WHERE n.label CONTAINS 'merge' RETURN count(n)",
]


@pytest.mark.parametrize("text", SAFE)
def test_read_only_cypher_passes(text: str) -> None:
    assert validate_cypher(text) == text


def test_rejection_names_the_keyword_and_position() -> None:
    text = "MATCH (n) WHERE n.label = 'SET' SET n.x = 1"
    with pytest.raises(CypherValidationError) as info:
        validate_cypher(text)
    assert info.value.problem == "SET is not allowed (read-only queries only)"
    assert info.value.position == text.index("SET n.x")  # the clause, not the literal
    assert "at character 33" in str(info.value)
    assert isinstance(info.value, TrustUQAError)


def test_too_long_is_rejected() -> None:
    with pytest.raises(CypherValidationError, match="longer than"):
        validate_cypher("RETURN 1 " + " " * 20_000)


def test_string_escapes_are_read_as_ladybug_reads_them() -> None:
    """The validator's idea of where a string ends must be Ladybug's: a backslash escapes the
    quote (so the keyword below is inside the literal), a doubled quote does not."""
    ladybug = pytest.importorskip("ladybug")
    conn = ladybug.Connection(ladybug.Database())
    text = "RETURN 'It\\'s a SET piece; DELETE' AS x"
    assert validate_cypher(text) == text
    assert conn.execute(text).get_all() == [["It's a SET piece; DELETE"]]
    with pytest.raises(CypherValidationError):
        validate_cypher("RETURN 'a\\\\' DELETE n //'")  # \\ is an escaped backslash
