"""A chain program as one Cypher statement with its literals written in the text.

The translator workflow (docs/UNIOQA.md) needs Cypher *as an LLM writes it*: one statement,
entity and relation names as string literals, so that entity and relation replacement (ERR)
can find them and bind each to KG candidates. :func:`chain_cypher` writes that form for the
programs the offline writer produces on KGs — a chain of ``get_information`` lookups, each
reading the previous step, optionally ending in ``set_difference`` with a literal (MetaQA's
"not the topic itself") or ``count``. Every step is its own ``MATCH`` (no edge-uniqueness
between steps) followed by ``WITH DISTINCT`` (no path blow-up). Other shapes raise
:class:`~.compile.CypherCompileError` naming the step. The literals are the program's own
text (not mapped labels): ERR maps them.

>>> from trustuqa_core.query.parse import parse
>>> print(chain_cypher(parse('''
... Query1: "get_information(relation='directed_by', head_entity='Kismet')"
... Query2: "get_information(relation='directed_by', tail_entity='output_of_query1')"
... Query3: "set_difference(set1='output_of_query2', set2='Kismet')"''')))
MATCH (e1:Node)-[f1:Fact]->(n1:Node) WHERE e1.label = 'Kismet' AND f1.rel = 'directed_by'
WITH DISTINCT n1
MATCH (n2:Node)-[f2:Fact]->(n1) WHERE f2.rel = 'directed_by'
WITH DISTINCT n2
WHERE n2.label <> 'Kismet'
RETURN DISTINCT n2.label
"""

from __future__ import annotations

from ..function_names import canonical_function
from ..query.ast import Arg, Program, Ref, Text
from .compile import CypherCompileError

__all__ = ["chain_cypher", "quote"]


def quote(text: str) -> str:
    """A Cypher string literal (backslash escapes for ``\\`` and ``'``).

    >>> quote("Some Mother's Son")
    "'Some Mother\\\\'s Son'"
    """
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _one(args: tuple[Arg, ...], name: str) -> Arg | None:
    found = [a for a in args if a.name == name]
    return found[0] if len(found) == 1 else None


def chain_cypher(program: Program) -> str:
    """One read-only Cypher statement for a chain program (see the module docstring)."""
    lines: list[str] = []
    current: str | None = None  # the variable holding the previous step's nodes
    count = False
    for q in program.queries:
        func, n, args = canonical_function(q.call.func), q.number, q.call.args
        if count:
            raise CypherCompileError(f"Query{n}: {func} after count has no chain form")
        if func == "get_information":
            lines.extend(_lookup(n, args, current))
            current = f"n{n}"
        elif func in ("set_difference", "count") and current is not None:
            first = _one(args, "set1") or _one(args, "set")
            if (first is None or not isinstance(first.value, Ref)
                    or f"n{first.value.step}" != current):
                raise CypherCompileError(f"Query{n}: {func} must read the previous step")
            if func == "count":
                count = True
                continue
            second = _one(args, "set2")
            if second is None or not isinstance(second.value, Text):
                raise CypherCompileError(f"Query{n}: set_difference needs a literal set2")
            lines.append(f"WHERE {current}.label <> {quote(second.value.value)}")
        else:
            raise CypherCompileError(f"Query{n}: {func} has no chain form")
    if current is None:
        raise CypherCompileError("the program has no lookup")
    lines.append(f"RETURN count(DISTINCT {current})" if count
                 else f"RETURN DISTINCT {current}.label")
    return "\n".join(lines)


def _lookup(n: int, args: tuple[Arg, ...], current: str | None) -> list[str]:
    names = sorted(a.name or "" for a in args)
    rel = _one(args, "relation")
    if rel is None or not isinstance(rel.value, Text) or len(names) != 2 or rel.cmp != "=":
        raise CypherCompileError(f"Query{n}: only relation + one entity has a chain form")
    ent = _one(args, "head_entity") or _one(args, "tail_entity")
    if ent is None or ent.cmp != "=":
        raise CypherCompileError(f"Query{n}: only relation + one entity has a chain form")
    conds = []
    if isinstance(ent.value, Ref):
        if current != f"n{ent.value.step}":
            raise CypherCompileError(f"Query{n}: a step must read the previous step")
        anchor = current
    elif isinstance(ent.value, Text):
        anchor = f"e{n}"
        conds.append(f"{anchor}.label = {quote(ent.value.value)}")
    else:
        raise CypherCompileError(f"Query{n}: {ent.name} must be a name or a reference")
    conds.append(f"f{n}.rel = {quote(rel.value.value)}")
    a_node = f"({anchor}:Node)" if anchor.startswith("e") else f"({anchor})"
    if ent.name == "head_entity":
        pattern = f"{a_node}-[f{n}:Fact]->(n{n}:Node)"
    else:
        pattern = f"(n{n}:Node)-[f{n}:Fact]->{a_node}"
    return [f"MATCH {pattern} WHERE {' AND '.join(conds)}", f"WITH DISTINCT n{n}"]
