"""Parts of cells: question words that are words of a few short cells of one column.

*In june* finds the dates *June 3* and *June 10*, *the 1990 season* the cell *1990–91*,
*october 1921* the cells holding both words; the rows holding any of them become the
condition (:func:`rule_partial_values`, after the whole cells of :mod:`.conditions`).

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.writers.linking import read_table
>>> g = load_graph(tables=[b"Date,Opponent\\nJune 3,Iowa\\nJune 10,Ohio\\nJuly 1,Utah\\n"
...                        b"July 8,Iowa\\nMay 2,Ohio\\n"])
>>> s = LinkState.start("how many games were in june?", read_table(g, 0))
>>> rule_partial_values(s), [(c.column, c.value, c.part) for c in s.conds]
(True, [('Date', 'june', True)])
"""

from __future__ import annotations

from ..lexicon import word_set, words
from ..numbers import parse_month_day
from .aggregates import AGG_WORDS
from .asking import focus_at
from .conditions import cue_before
from .link_state import LinkState
from .linking import STOP, Cond, Table, number_words, spans, tokens

__all__ = ["rule_partial_values"]


def rule_partial_values(s: LinkState) -> bool:
    """Question words left unlinked that are words of a few short cells of a single column
    (*in june* -> the dates *June 3* and *June 10*, *the 1990 season* -> *1990–91*, *october
    1921* -> the cells holding both words; *manchester united* with no cell holding both is
    no value): the rows holding any of those cells; next to a value found whole, only a month
    or a year (*Zogby polls in August*). Not the noun asked for, a word of a
    column name, a cue, an ordinal or a function word, nor one right after a comparison
    (*before september* is a range: a month or a year there), nor one in half or more of the
    column's cells. A single word is written as it is (``tail_entity='june'``): the mapping
    shows it matched by containment, and more than one cell matched is a weak mapping the
    verdict reports; a run of words names the cells holding all of them."""
    named = s.named(0.5)
    named.add(focus_at(s.q))  # the noun asked for ("which is the first city ...") is no value
    exact = any(c.cmp == "=" for c in s.conds)  # then only a month or a year narrows them
    free = [i for i, w in enumerate(s.q) if i not in s.covered and i not in named
            and _partial_word(w) and not (_after_comparison(s.q, i) and _time_word(w))
            and (not exact or _time_word(w))]
    found: list[Cond] = []
    k = 0
    while k < len(free):
        start, cells = free[k], _short_cells(s.table, s.q[free[k]])
        end = start + 1  # adjacent words narrow the cells down ("october 1921")
        while k + 1 < len(free) and free[k + 1] == end and cells:
            more = _short_cells(s.table, s.q[end])
            if not more:
                break  # "the 1990 season": the next word is in no cell
            # "manchester united": one name, and no cell holds it whole -> no value
            cells, end, k = [c for c in cells if c in more], end + 1, k + 1
        k += 1
        columns = {c for c, _ in cells}
        if len(columns) != 1 or not 0 < len(cells) <= _MAX_PARTIAL:
            continue
        column = next(iter(columns))
        if 2 * len(cells) >= s.table.sizes.get(column, 0):
            continue  # a word most cells share ("FC", "County") picks out nothing
        if end - start == 1:  # the word itself: the mapper finds the cells containing it
            found.append(Cond(column, "=", s.q[start], (start, end), part=True))
        else:  # the cells holding every word of the run, named
            found += [Cond(column, "=", label, (start, end), part=True) for _, label in cells]
    if not found:
        return False
    s.conds = s.conds + found
    s.covered |= spans(found)
    return True


_MAX_PARTIAL = 8
_MAX_CELL_WORDS = 4


def _short_cells(table: Table, word: str) -> list[tuple[str, str]]:
    """(column, cell) of the cells of two to four words holding ``word`` (longer cells are
    notes and sentences: a word of them names nothing)."""
    return [(c, label) for c, label in table.words.get(word, [])
            if len(tokens(label)) <= _MAX_CELL_WORDS]


def _time_word(word: str) -> bool:
    """A year or a month name (after a comparison they bound a range)."""
    return word.isdigit() or parse_month_day(word) is not None


def _after_comparison(q: list[str], i: int) -> bool:
    """The word follows a comparison cue (*before september*, *after 1983*, *prior to*)."""
    return bool(cue_before(q, i, _COMPARISON_CUES, 3))


_COMPARISON_CUES = tuple(words("greater_cues")) + tuple(words("less_cues")) + (
    "previous to", "until", "till", "through", "between")


def _partial_word(word: str) -> bool:
    """A word that may pick cells out: a year, or three letters or more that is not a
    function word, a cue, an ordinal or a number word."""
    if word.isdigit():
        return len(word) == 4 and 1000 <= int(word) <= 2100
    return len(word) >= 3 and word.isalpha() and word not in STOP and word not in _PARTIAL_STOP \
        and word not in number_words()


_PARTIAL_STOP = word_set("value_cues") | word_set("focus_skip") | word_set("ordinal_words") \
    | word_set("order_words") | word_set("focus_modifiers") | AGG_WORDS
