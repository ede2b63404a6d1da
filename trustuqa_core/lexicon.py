"""Word lists the pipeline shares, read from data files beside this module.

Today: demonyms (``demonyms.tsv``: a country and the words for its people), used by the offline
writer's linker and by the trust verdict, so both read "German" as "Germany" the same way.

>>> country_of("Germans"), country_of("South Korean"), country_of("Skiers")
('Germany', 'South Korea', None)
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .text import normalize

__all__ = ["demonym_entries", "country_of"]

_DEMONYMS = Path(__file__).with_name("demonyms.tsv")


@cache
def demonym_entries() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(country, (demonym, ...))`` pairs as written in ``demonyms.tsv`` (no plurals added).

    >>> dict(demonym_entries())["Germany"]
    ('german',)
    """
    entries = []
    for line in _DEMONYMS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        country, forms = line.split("\t")
        entries.append((country.strip(), tuple(f.strip() for f in forms.split(",") if f.strip())))
    return tuple(entries)


@cache
def _by_demonym() -> dict[str, str]:
    table: dict[str, str] = {}
    for country, forms in demonym_entries():
        for form in forms:
            table.setdefault(normalize(form), country)
            table.setdefault(normalize(form) + "s", country)
    return table


def country_of(word: str) -> str | None:
    """The country whose people ``word`` names (singular or plural), else None."""
    return _by_demonym().get(normalize(word))
