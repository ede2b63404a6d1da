"""Question words that name a table's column by what it measures (offline linker).

*Which is the shortest song?* ranks by ``Length``, *which bridge is longer, A or B?* compares
``Length``, *who is the tallest player?* ``Height``, *the heaviest ship* ``Tonnage``, *which
township has the most residents?* ``Population``, *which team had the most wins?* ``Won`` /
``W``, *the least medals* (in a table of gold, silver and bronze) ``Total``. None of these
words is in the column's name, so the header matcher misses them; here each names the first
column (in table order) of numbers or times whose name holds one of its column words, as a
partial mention (:data:`SCORE`), unless that column is named already (even partly) or a
column of numbers or times is named at that word or the next (*the shortest time*). What was
read is visible in the query: the column the ranking or comparison reads.

>>> from trustuqa_core.writers.linking import Table, tokens
>>> t = Table("t", ["Title", "Length"], {}, {}, 1, {}, frozenset({"Length"}))
>>> property_mentions(tokens("which is the shortest song?"), t, {})
{'Length': (0.6, 3, 4)}
"""

from __future__ import annotations

from .computed import column_kind
from .linking import Mentions, Table, mention_positions, tokens

__all__ = ["property_mentions", "SCORE"]

#: the score of a mention by a property word: named partly (enough for a ranking, below a
#: full name, so a column the question names in words wins)
SCORE = 0.6

_LENGTH = frozenset({"length", "time", "duration", "distance", "running"})
_HEIGHT = frozenset({"height"})
_WEIGHT = frozenset({"weight", "tonnage", "mass", "displacement"})
_PEOPLE = frozenset({"population", "inhabitants", "residents"})
#: question word -> the words a column it names has in its name
PROPERTY_WORDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("longest", "longer", "shortest", "shorter"), _LENGTH),
    **dict.fromkeys(("tallest", "taller", "height"), _HEIGHT),
    **dict.fromkeys(("heaviest", "heavier", "lightest", "lighter"), _WEIGHT),
    **dict.fromkeys(("people", "residents", "inhabitants", "populous", "populated"), _PEOPLE),
    "wins": frozenset({"won", "w", "wins"}),
    "losses": frozenset({"lost", "l", "losses"}),
    "draws": frozenset({"drawn", "d", "draws", "drew"}),
}
#: a medal table's total is what *medals* counts
_MEDAL_COLUMNS = frozenset({"gold", "silver", "bronze"})


def property_mentions(q: list[str], table: Table, mentions: Mentions) -> Mentions:
    """column -> (:data:`SCORE`, start, end) for the property words of ``q`` (module doc) that
    name a column not yet mentioned at least partly (``mentions``)."""
    taken = mention_positions(mentions, 0.5)
    measured = {i for c, m in mentions.items() if column_kind(table, c) is not None
                for i in range(m[1], m[2])}
    out: Mentions = {}
    for i, word in enumerate(q):
        if i in taken or i + 1 in measured:
            continue  # "the shortest time": the next word names the column ranked
        if word == "medals" and _MEDAL_COLUMNS & set(q):
            continue  # "the most gold medals": the Gold column
        column = _column_for(word, table)
        if column is None or column in mentions or column in out:
            continue
        out[column] = (SCORE, i, i + 1)
    return out


def _column_for(word: str, table: Table) -> str | None:
    """The first column of numbers or times the property word names, else None.

    >>> t = Table("t", ["Nation", "Gold", "Silver", "Bronze", "Total"], {}, {
    ...     "Gold": True, "Silver": True, "Bronze": True, "Total": True}, 1, {})
    >>> _column_for("medals", t), _column_for("wins", t)
    ('Total', None)
    """
    if word == "medals":
        names = {w for c in table.columns for w in tokens(c)}
        wanted = frozenset({"total"}) if names >= _MEDAL_COLUMNS else frozenset()
    else:
        wanted = PROPERTY_WORDS.get(word, frozenset())
    if not wanted:
        return None
    return next((c for c in table.columns if wanted & set(tokens(c))
                 and column_kind(table, c) is not None and not _DATING & set(tokens(c))), None)


#: a column named by these dates the rows (``Year(s) won``), it measures nothing
_DATING = frozenset({"year", "years", "date", "season", "seasons"})
