"""What a table question asks for: its focus word, who / when / where hints, the column read.

The *focus* is the word the question word points at (``what school ...`` -> ``school``); the
selected column is chosen by the first of :data:`SELECT_RULES` that finds one (the column named
there, a synonym of it, a column named in full, the column of times, a column fitting the
verb or *who* / *when* / *where*, the column named best, the first free column). Also here:
the column kinds several readings test (a column of years, of places, of clock times).

>>> from trustuqa_core.writers.linking import tokens
>>> q = tokens("What school did player number 21 play for?")
>>> focus_at(q), q[focus_at(q)]
(1, 'school')
>>> asks_for(q, "School", {"School": (1.01, 1, 2)})
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..lexicon import pairs, word_map, word_set, words
from ..reasoning.cues import RANK_RELATION, TIME_ASKED
from ..text import stem
from .link_state import LinkState
from .linking import Mentions, Table, tokens

__all__ = ["focus_at", "WH_HINTS", "hinted", "asks_for", "holds_years", "rank_like",
           "time_column", "best_named", "rule_select", "SELECT_RULES"]


#: the word a question asks for -> column-name words meaning the same thing
_FOCUS_SYNONYMS = {word: set(same.split()) for word, same in pairs("focus_synonyms")}


_CUE_WORDS = word_set("aggregate_column_words")
_SKIP = word_set("focus_skip")
_MODIFIERS = word_set("focus_modifiers")
_FOCUS_WORDS = words("focus_words")


def focus_at(q: list[str], skip_modifiers: bool = True) -> int:
    """Position of the word the question asks for (``what school ...`` -> ``school``)."""
    for i, w in enumerate(q[:3]):
        if w in _FOCUS_WORDS:
            j = i + 1
            while j < len(q) and (q[j] in _SKIP or skip_modifiers and q[j] in _MODIFIERS):
                j += 1
            return j
        if w == "how" and i + 1 < len(q) and q[i + 1] == "many":
            return i + 2
    return -1


#: who / when / where -> words naming a column of people, of dates, of places
WH_HINTS = {wh: word_set(f"{wh}_columns") for wh in ("who", "when", "where")}
_WH_VERBS = word_map("wh_verbs")


def hinted(column: str, hints: frozenset[str]) -> bool:
    """A word of the column's name (or its stem) is one of ``hints``.

    >>> hinted("Winning driver", WH_HINTS["who"])
    True
    """
    words = set(tokens(column))
    return bool(hints & (words | {stem(w) for w in words}))


def _wh_column(q: list[str], columns: Sequence[str]) -> str | None:
    words = set(q)
    verbs = {_WH_VERBS[w] for w in words if w in _WH_VERBS}
    for col in columns:
        if verbs & set(tokens(col)):
            return col
    for wh in ("who", "when", "where"):
        if wh in words:
            hints = WH_HINTS[wh]
            for col in columns:
                if hinted(col, hints):
                    return col
    return None


def asks_for(q: list[str], column: str, mentions: Mentions,
             who_needs_people: bool = True) -> bool:
    """The question asks for this column: named where the question word points, or a
    synonym of it there, or a "who" question (about a column of people, unless
    ``who_needs_people`` is False)."""
    focus = focus_at(q)
    at = q[focus] if 0 <= focus < len(q) else ""
    return (column in mentions and mentions[column][1] == focus) or bool(
        _FOCUS_SYNONYMS.get(at, set()) & set(tokens(column))) or (
        bool(q) and q[0] == "who" and (not who_needs_people
                                       or hinted(column, WH_HINTS["who"])))


def holds_years(span: tuple[float, float] | None) -> bool:
    """A column of years ("how many years ..." counts them, it does not read one)."""
    return span is not None and span[0] >= 1000 and span[1] <= 2100


def rank_like(column: str) -> bool:
    """A column of places (*Rank*, *Position*, *Run 1 rank*): the smaller, the better."""
    return any(RANK_RELATION.match(t) for t in tokens(column))


def best_named(columns: Iterable[str], mentions: Mentions) -> str:
    """Of ``columns`` (some mentioned), the one named best: the highest score, then the
    earliest mention, then the first given.

    >>> best_named(["Run 1", "Run 2"], {"Run 1": (0.5, 3, 4), "Run 2": (1.02, 6, 8)})
    'Run 2'
    """
    return max(columns, key=lambda c: (mentions[c][0], -mentions[c][1]))


def time_column(table: Table, used: set[str], mentions: Mentions) -> str | None:
    """The column of clock times / durations a question about time means: the one it names
    best, else the one called *Total* / *Time* / *Overall*, else the table's only one."""
    times = [c for c in table.columns if c in table.durations and c not in used]
    said = sorted((c for c in times if mentions.get(c, (0.0,))[0] >= 0.5),
                  key=lambda c: -mentions[c][0])
    if len(said) > 1 and mentions[said[0]][0] > mentions[said[1]][0]:
        said = said[:1]  # "run 1" names Run 1 better than Run 2
    total = [c for c in times if set(tokens(c)) & {"total", "time", "overall"}]
    for group in (said, total, times):
        if len(group) == 1:
            return group[0]
    return None


def rule_select(s: LinkState) -> bool:
    """The column asked for, by the first of :data:`SELECT_RULES` that finds one (listed as
    ``select/<name>``)."""
    for name, _, choose in SELECT_RULES:
        s.select = choose(s)
        if s.select is not None:
            s.fired.append(f"select/{name}")
            return True
    return False


def _select_named_at_focus(s: LinkState) -> str | None:
    """A free column named where the question word points (what school ...)."""
    free = s.free_mentions()
    # a modifier may name one
    focus, written = focus_at(s.q), focus_at(s.q, skip_modifiers=False)
    at_focus = {c: m for c, m in free.items() if m[1] == written} or {
        c: m for c, m in free.items() if m[1] == focus}
    return max(at_focus, key=lambda c: at_focus[c][0]) if at_focus else None


def _select_focus_synonym(s: LinkState) -> str | None:
    """A free column whose name holds a synonym of the word asked for (country -> Nation)."""
    focus = focus_at(s.q)
    if not (0 <= focus < len(s.q) and s.q[focus] in _FOCUS_SYNONYMS):
        return None
    same = _FOCUS_SYNONYMS[s.q[focus]]
    named = [c for c in s.free_columns() if same & set(tokens(c))]
    return named[0] if named else None


def _select_named_in_full(s: LinkState) -> str | None:
    """A free column named in full anywhere (one not made of cue words only preferred)."""
    full = {c: m for c, m in s.free_mentions().items() if m[0] >= 1.0}
    if not full:
        return None
    plain = {c: m for c, m in full.items() if not set(tokens(c)) <= _CUE_WORDS}
    full = plain or full
    return best_named(full, full)


def _select_time_asked(s: LinkState) -> str | None:
    """"how long did it take X ...?", "what was X's time?": the column of times (named,
    else *Total* / *Time*, else the only one), when the table has one."""
    if not s.table.durations or TIME_ASKED.search(" ".join(s.q)) is None:
        return None
    return time_column(s.table, {c.column for c in s.conds}, s.mentions)


def _select_wh_column(s: LinkState) -> str | None:
    """A free column fitting the question's verb or its who / when / where."""
    return _wh_column(s.q, s.free_columns())


def _select_named_partly(s: LinkState) -> str | None:
    """The free column named best, if only partly."""
    free = s.free_mentions()
    return best_named(free, free) if free else None


def _select_first_column(s: LinkState) -> str | None:
    """The first free column (of text, for *who* / *which* questions: they ask for the rows'
    names, not a rank or a number), else the table's first column."""
    rest = s.free_columns()
    if s.q and s.q[0] in ("who", "which"):
        text = [c for c in rest if not s.table.numeric.get(c) and c not in s.table.durations]
        rest = text or rest
    return rest[0] if rest else (s.table.columns[0] if s.table.columns else None)


#: how the selected column is chosen: the first rule that finds one wins
SELECT_RULES: tuple[tuple[str, str, Callable[[LinkState], str | None]], ...] = tuple(
    (f.__name__.removeprefix("_select_"), " ".join((f.__doc__ or "").split()), f) for f in (
        _select_named_at_focus, _select_focus_synonym, _select_named_in_full,
        _select_time_asked, _select_wh_column, _select_named_partly, _select_first_column))
