"""The entity and relation literals of a Cypher text, and the text with them as parameters.

Entity and relation replacement (ERR) needs to know which string literals of a generated
query name an entity (compared with a node's ``label``) and which a relation (compared with
a fact's ``rel``). A literal is a *slot* when the code right before it is ``label =``,
``label <>``, ``label:`` (a property map) or the same with ``rel``; other literals are left
alone. :func:`parameterise` rewrites the text with each slot as a parameter (``$e1``,
``$r1``; equal texts of the same kind share one), so candidates are bound as values, never
pasted into the text.

>>> text = "MATCH (a:Node {label: 'Kismet'})-[f:Fact]->(b) WHERE f.rel = 'direct' RETURN b.label"
>>> [(s.kind, s.text) for s in find_slots(text)]
[('entity', 'Kismet'), ('relation', 'direct')]
>>> parameterise(text)[0]
'MATCH (a:Node {label: $e1})-[f:Fact]->(b) WHERE f.rel = $r1 RETURN b.label'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .validate import code_only

__all__ = ["Slot", "find_slots", "parameterise"]

SlotKind = Literal["entity", "relation"]
_LITERAL = re.compile(r"(['\"])x*\1")
_BEFORE = re.compile(r"\b(label|rel)\s*(?:=|<>|:)\s*$")
_ESCAPE = re.compile(r"\\(.)", re.S)


@dataclass(frozen=True)
class Slot:
    """One entity/relation literal: its ``kind``, unescaped ``text`` and span in the query."""

    kind: SlotKind
    text: str
    start: int
    end: int

    @property
    def key(self) -> tuple[SlotKind, str]:
        """Slots with the same key are bound together (one choice per distinct name)."""
        return self.kind, self.text


def find_slots(text: str) -> list[Slot]:
    """The entity and relation literals of ``text`` in order (raises
    :class:`~.validate.CypherValidationError` for an unterminated literal)."""
    code = code_only(text)
    slots = []
    for m in _LITERAL.finditer(code):
        before = _BEFORE.search(code, max(0, m.start() - 40), m.start())
        if before is None:
            continue
        kind: SlotKind = "entity" if before.group(1) == "label" else "relation"
        raw = text[m.start() + 1 : m.end() - 1]
        slots.append(Slot(kind, _ESCAPE.sub(r"\1", raw), m.start(), m.end()))
    return slots


def parameterise(text: str) -> tuple[str, dict[tuple[SlotKind, str], str]]:
    """``text`` with every slot replaced by a parameter, and the parameter name of each slot
    key (``{("entity", "Kismet"): "e1", ...}``)."""
    names: dict[tuple[SlotKind, str], str] = {}
    out: list[str] = []
    pos = 0
    for slot in find_slots(text):
        if slot.key not in names:
            prefix = "e" if slot.kind == "entity" else "r"
            names[slot.key] = f"{prefix}{sum(1 for k in names if k[0] == slot.kind) + 1}"
        out.extend((text[pos : slot.start], "$" + names[slot.key]))
        pos = slot.end
    out.append(text[pos:])
    return "".join(out), names
