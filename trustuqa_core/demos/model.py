"""The demonstration model: a (question, query, answer, kind, origin) pair and its data.

A :class:`Demo` may carry the small sources it runs on (:class:`DemoSource`), so that its
query can be re-executed; :func:`normalize_question` is the key under which two questions are
"the same" (a demo is never retrieved for its own question).

>>> d = Demo("Who directed [Kismet]?", "Query1: ...", ("Ann",), "kg", "initial")
>>> Demo.from_json(d.to_json()) == d, len(d.id)
(True, 16)
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..translate import load_source

__all__ = ["KINDS_FOR", "normalize_question", "DemoSource", "Demo", "dedupe"]

#: graph kind -> demo kinds that fit it
KINDS_FOR: dict[str, tuple[str, ...]] = {
    "table": ("table",),
    "kg": ("kg",),
    "tkg": ("tkg",),
    "mixed": ("mixed", "table", "kg", "tkg"),
}


def normalize_question(text: str) -> str:
    """Comparison key of a question: accents, case, punctuation and spacing removed.

    >>> normalize_question("Who directed  [Kismet]?") == normalize_question("who directed kismet")
    True
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())



@dataclass(frozen=True)
class DemoSource:
    """Data a demo runs on: a file path, or inline ``text`` (initial demos)."""

    kind: str
    name: str
    path: str | None = None
    text: str | None = None

    def load(self) -> Any:
        """The source's facts (raises SourceError / FileNotFoundError)."""
        data: str | bytes = self.text.encode() if self.text is not None else str(self.path)
        return load_source(data, self.kind, self.name)


@dataclass(frozen=True)
class Demo:
    """One demonstration. ``answer`` may be empty (unknown); ``sources`` may be empty."""

    question: str
    query: str
    answer: tuple[str, ...]
    kind: str
    origin: str
    sources: tuple[DemoSource, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def id(self) -> str:
        """A stable content id."""
        raw = "\x01".join((self.origin, self.question, self.query))
        return hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def to_json(self) -> dict[str, Any]:
        """Plain-JSON form (the user store's line format)."""
        return {"question": self.question, "query": self.query, "answer": list(self.answer),
                "kind": self.kind, "origin": self.origin,
                "sources": [s.__dict__ for s in self.sources], **self.meta}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Demo:
        known = {"question", "query", "answer", "kind", "origin", "sources"}
        return cls(str(data["question"]), str(data["query"]),
                   tuple(str(a) for a in data.get("answer", ())), str(data.get("kind", "table")),
                   str(data.get("origin", "user")),
                   tuple(DemoSource(**s) for s in data.get("sources", ())),
                   {k: v for k, v in data.items() if k not in known})


def dedupe(demos: Iterable[Demo]) -> list[Demo]:
    """Demos with duplicate ids dropped (first kept)."""
    out: dict[str, Demo] = {}
    for d in demos:
        out.setdefault(d.id, d)
    return list(out.values())
