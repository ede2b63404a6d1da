"""UniOQA's translator: question -> Cypher (an LLM, or our offline writer's program) -> ERR.

With an LLM, :class:`CypherWriter` shows the model the graph's relations and retrieved
demonstrations whose Cypher is compiled from their programs
(:func:`~trustuqa_core.cypher.chain.chain_cypher`; demos without a chain form are left out),
and asks for one read-only Cypher query (prompt ``prompts/unioqa_cypher.md``). Offline, the
Cypher is the chain form of the program our offline writer wrote for the question, with its
literals as the writer wrote them. Either way the text then goes through ERR
(:func:`~.err.replace_and_run`): validated, names re-bound to KG candidates, variants run on
Ladybug, the best kept.

>>> extract_cypher("Sure:\\n```cypher\\nMATCH (n:Node) RETURN n.label\\n```\\nDone.")
'MATCH (n:Node) RETURN n.label'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..cypher.chain import chain_cypher
from ..demos import Retrieved
from ..errors import TrustUQAError
from ..llm.client import LLMClient
from ..llm.prompts import describe_schema, render
from ..query import parse
from ..store import GraphStore

__all__ = ["CypherWriter", "extract_cypher", "demo_cypher", "program_cypher"]

_FENCE = re.compile(r"```[A-Za-z]*\s*\n(.*?)```", re.S)


def extract_cypher(reply: str) -> str:
    """The query in a model's reply: the first fenced block, else the whole reply, stripped."""
    m = _FENCE.search(reply)
    return (m.group(1) if m else reply).strip()


def program_cypher(query_text: str) -> str:
    """The chain Cypher of a program text (raises ``ParseError`` / ``CypherCompileError``)."""
    return chain_cypher(parse(query_text))


def demo_cypher(demos: Sequence[Retrieved]) -> list[tuple[str, str]]:
    """(question, Cypher) for the demos whose programs have a chain form, in the given order."""
    out = []
    for r in demos:
        try:
            out.append((r.demo.question, program_cypher(r.demo.query)))
        except TrustUQAError:
            continue
    return out


@dataclass(frozen=True)
class CypherWriter:
    """Asks an OpenAI-compatible model for one Cypher query per question."""

    client: LLMClient

    @property
    def name(self) -> str:
        return f"llm:{self.client.settings.model}"

    def messages(self, question: str, graph: GraphStore, demos: Sequence[Retrieved],
                 privacy: bool = True) -> list[dict[str, str]]:
        """The chat messages: instructions + schema + demos (system), question (user)."""
        schema = describe_schema(graph, question, examples=not privacy).text
        shown = demo_cypher(list(reversed(demos)))  # most similar last, closest to the question
        blocks = "\n\n".join(f"Question: {q}\nCypher:\n{c}" for q, c in shown)
        system = render("unioqa_cypher.md", schema=f"Graph:\n{schema}",
                        demos=f"Examples:\n\n{blocks}" if blocks else "")
        return [{"role": "system", "content": system}, {"role": "user", "content": question}]

    def write(self, question: str, graph: GraphStore, demos: Sequence[Retrieved],
              privacy: bool = True) -> tuple[str, list[dict[str, str]]]:
        """(the query text of the reply, the messages sent)."""
        messages = self.messages(question, graph, demos, privacy)
        reply = self.client.complete(messages, n=1)
        return extract_cypher(reply[0] if reply else ""), messages

