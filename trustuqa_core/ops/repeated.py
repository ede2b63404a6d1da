"""Columns whose header repeats: a table laid out in several blocks side by side
(``Sheriff | Start of term | Sheriff | Start of term``) or naming one header twice
(``Performer`` of the song, ``Performer`` of the album). The graph names the repeats
``Sheriff (2)``, ``Sheriff (3)``; a query naming ``Sheriff`` means all of them.
"""

from __future__ import annotations

import re

from ..store import GraphStore

__all__ = ["repeated_columns"]

_REPEAT = re.compile(r"^(.*) \((\d+)\)$")


def repeated_columns(g: GraphStore, rel: int) -> list[int]:
    """The other relations with the same header as ``rel``: ``Sheriff (2)``, ``Sheriff (3)``
    for ``Sheriff`` (and ``Sheriff`` and ``Sheriff (3)`` for ``Sheriff (2)``), in header order;
    empty when the header does not repeat.

    >>> from types import SimpleNamespace
    >>> g = SimpleNamespace(relation_names=("Sheriff", "Year", "Sheriff (2)", "Year (2)",
    ...                                     "Sheriff (3)", "Score (1)"))
    >>> repeated_columns(g, 0), repeated_columns(g, 2), repeated_columns(g, 5)
    ([2, 4], [0, 4], [])
    """
    names = g.relation_names
    base = _base(names[rel])
    out = [i for i, name in enumerate(names) if i != rel and _base(name) == base]
    if not any(_REPEAT.match(names[i]) for i in [rel, *out]) or not out:
        return []
    return out if any(names[i] == base for i in [rel, *out]) else []


def _base(name: str) -> str:
    m = _REPEAT.match(name)
    return m.group(1) if m and int(m.group(2)) >= 2 else name
