"""Word lists the pipeline shares, read once from data files beside this module.

* ``lexicon.txt``: every English word list of the offline writer and the trust verdict (cue
  words, comparison cues, superlatives, aggregates, stop words...), each under a name; code
  asks for a list by name (:func:`words`, :func:`word_set`, :func:`pairs`, :func:`word_map`).
* ``demonyms.tsv``: a country and the words for its people, used by the offline writer's
  linker and by the trust verdict, so both read "German" as "Germany" the same way.

>>> country_of("Germans"), country_of("South Korean"), country_of("Skiers")
('Germany', 'South Korea', None)
>>> words("greater_cues")[:2], word_map("wh_verbs")["wrote"]
(('more recent than', 'newer than'), 'written')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .text import normalize

__all__ = ["WordList", "parse_lexicon", "word_lists", "words", "word_set", "pairs", "word_map",
           "demonym_entries", "country_of"]

_DEMONYMS = Path(__file__).with_name("demonyms.tsv")
_LEXICON = Path(__file__).with_name("lexicon.txt")
_ARROW = " -> "


@dataclass(frozen=True)
class WordList:
    """One named list of ``lexicon.txt``: what it is for, and its entries in order."""

    name: str
    doc: str
    entries: tuple[str, ...]


def parse_lexicon(text: str) -> dict[str, WordList]:
    """The lists of a lexicon file (see the comment at the top of ``lexicon.txt``).

    >>> lists = parse_lexicon("# c\\n[cues] what\\nmore than, over\\nmore\\n[map] x\\na -> b c\\n")
    >>> lists["cues"].entries, lists["map"].entries
    (('more than', 'over', 'more'), ('a -> b c',))
    >>> parse_lexicon("word\\n")
    Traceback (most recent call last):
    ValueError: lexicon line 1: 'word' comes before any [name]
    """
    lists: dict[str, WordList] = {}
    name, doc, entries = "", "", list[str]()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if "]" not in line:
                raise ValueError(f"lexicon line {number}: no ']' after the list name")
            if name:
                lists[name] = WordList(name, doc, tuple(entries))
            name, _, doc = line[1:].partition("]")
            name, doc, entries = name.strip(), doc.strip(), list[str]()
            if not name or name in lists:
                raise ValueError(f"lexicon line {number}: list name {name!r} empty or repeated")
            continue
        if not name:
            raise ValueError(f"lexicon line {number}: {line!r} comes before any [name]")
        parts = [line] if _ARROW.strip() in line else line.split(",")
        entries += [p.strip() for p in parts if p.strip()]
    if name:
        lists[name] = WordList(name, doc, tuple(entries))
    return lists


@cache
def _lists() -> dict[str, WordList]:
    return parse_lexicon(_LEXICON.read_text(encoding="utf-8"))


def word_lists() -> tuple[WordList, ...]:
    """Every list of ``lexicon.txt``, in file order.

    >>> len(word_lists()) > 20, word_lists()[0].name
    (True, 'superlative_max')
    """
    return tuple(_lists().values())


def words(name: str) -> tuple[str, ...]:
    """The entries of list ``name`` in order (KeyError naming the known lists if absent).

    >>> words("order_words")
    ('first', 'last')
    """
    found = _lists().get(name)
    if found is None:
        raise KeyError(f"no word list {name!r} in {_LEXICON.name}; known: "
                       + ", ".join(sorted(_lists())))
    return found.entries


@cache
def word_set(name: str) -> frozenset[str]:
    """The entries of list ``name`` as a set.

    >>> "latest" in word_set("cues_max")
    True
    """
    return frozenset(words(name))


def pairs(name: str) -> tuple[tuple[str, str], ...]:
    """The ``key -> value`` entries of list ``name`` in order.

    >>> pairs("aggregate_cues")[0]
    ('most recent', 'max')
    """
    out = []
    for entry in words(name):
        key, arrow, value = entry.partition(_ARROW)
        if not arrow:
            raise ValueError(f"word list {name!r}: entry {entry!r} is not 'key -> value'")
        out.append((key.strip(), value.strip()))
    return tuple(out)


def word_map(name: str) -> dict[str, str]:
    """The ``key -> value`` entries of list ``name`` as a dict (a repeated key: the last)."""
    return dict(pairs(name))


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


@cache
def _by_spoken_code() -> dict[str, str]:
    """A code a question may write for a country (``country_code_words``: *USA*, *the UK*)
    -> the country (the first of ``country_codes`` listing it), keyed lower-case with its
    dots kept: *U.S.* is a code, *us* a word."""
    table: dict[str, str] = {}
    for said in words("country_code_words"):
        bare = said.lower().removeprefix("the ")
        for country, codes in pairs("country_codes"):
            if any(c.strip().lower() == bare for c in codes.split(",")):
                table.setdefault(said.lower(), country)
                break
    return table


def country_of(word: str) -> str | None:
    """The country whose people ``word`` names (singular or plural), or that a code a
    question may write for it names (``country_code_words``), else None.

    >>> country_of("USA"), country_of("the UK"), country_of("u.s."), country_of("us")
    ('United States', 'United Kingdom', 'United States', None)
    """
    return _by_demonym().get(normalize(word)) or _by_spoken_code().get(word.strip().lower())
