"""Normalising and splitting English text: the one place for it.

Several readers of a question need words out of it, and they do not all want the same ones, so
each way is a named function here rather than a private copy in each module:

* :func:`normalize` -- the label form literal mapping compares (numbers canonical, accents,
  case and punctuation gone): ``'Café Crème, Ltd.'`` -> ``'cafe creme ltd'``;
* :func:`fold` -- accents stripped and case folded, nothing else;
* :func:`table_words` -- the table linker's words and numbers (``No.`` -> ``number``);
* :func:`letter_words` -- runs of letters and digits, case folded (the KG linker's words);
* :func:`question_key` -- a question without case, brackets, spacing or final punctuation;
* :func:`stem` -- a crude suffix stripper.

>>> normalize("  Café  Crème, Ltd. "), fold("Élan"), table_words("No. 1,000 #2")
('cafe creme ltd', 'elan', ['number', '1,000', 'number', '2'])
>>> letter_words("directed_by Nolan"), stem("directed")
(['directed', 'by', 'nolan'], 'direct')
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .numbers import format_number, parse_number

__all__ = ["normalize", "fold", "table_words", "letter_words", "question_key", "stem",
           "ABBREVIATIONS"]

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_TABLE_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W_]+", re.UNICODE)
_LETTERS = re.compile(r"[^\W_]+", re.UNICODE)

#: abbreviations in column names and questions -> the word the table linker reads
ABBREVIATIONS = {"no": "number", "num": "number", "nos": "number", "pos": "position",
                 "pts": "points", "yr": "year", "yrs": "years", "pct": "percentage",
                 "avg": "average", "pop": "population", "apps": "appearances", "gp": "games"}


def fold(text: str) -> str:
    """Accents stripped (NFKD, combining marks dropped) and case folded.

    >>> fold("Crème BRÛLÉE")
    'creme brulee'
    """
    return _strip_accents(str(text)).casefold()


def _strip_accents(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text if not unicodedata.combining(ch))


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """Case-, accent-, punctuation- and number-format-insensitive form of ``text``.

    >>> normalize("1,000"), normalize("1000.0"), normalize("Rock 'n' Roll")
    ('1000', '1000', 'rock n roll')
    """
    number = parse_number(text)
    if number is not None:
        return format_number(number)
    text = _strip_accents(text)  # before casefold: "\\N" is not a line break
    text = text.replace("\\n", " ").replace("_", " ").casefold()
    text = _PUNCT.sub(lambda m: "" if m.group(0) in "'’.`" else " ", text)
    return " ".join(text.split())


def table_words(text: str) -> list[str]:
    """Folded word and number tokens, ``#`` read as ``number``, abbreviations expanded
    (:data:`ABBREVIATIONS`); underscores split words.

    >>> table_words("Pts (avg) Owner_s 3.5")
    ['points', 'average', 'owner', 's', '3.5']
    """
    return [ABBREVIATIONS.get(t, t)
            for t in _TABLE_TOKEN.findall(fold(text).replace("#", " number "))]


def letter_words(text: str) -> list[str]:
    """Runs of letters and digits, case folded (accents kept, underscores split).

    >>> letter_words("Who directed Amélie?")
    ['who', 'directed', 'amélie']
    """
    return [w.casefold() for w in _LETTERS.findall(text)]


def question_key(text: str) -> str:
    """Case, brackets, spacing and final punctuation removed (slots stay ``{}``).

    >>> question_key("  What movies did [Tom Hanks] act in? ")
    'what movies did tom hanks act in'
    """
    text = text.replace("[", " ").replace("]", " ").casefold()
    return " ".join(text.split()).rstrip(" ?.!")


def stem(word: str) -> str:
    """A crude stem: plural ``s``, ``es``, ``ed``, ``ing`` and a final ``e`` removed.

    >>> [stem(w) for w in ("winners", "played", "scoring", "class", "score")]
    ['winner', 'play', 'scor', 'class', 'scor']
    """
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word
