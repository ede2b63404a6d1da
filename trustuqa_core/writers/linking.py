"""Finding a table's parts in a question: column names, cell values, comparison cues.

Used by the table-linking rules (:mod:`.tables` runs them). Everything works on lower-cased
word tokens; column names may be mentioned partly, in another order, or with a verb form
(``affiliated`` names ``Affiliation``).

>>> tokens("Owner(s) (2009), No. 1,000")
['owner', 's', '2009', 'number', '1,000']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from ..lexicon import demonym_entries, pairs, word_set, words
from ..numbers import is_duration, parse_number, parse_quantity
from ..reasoning.cues import RANK_RELATION
from ..store import GraphStore
from ..text import stem, table_words

__all__ = ["Cond", "HAS", "SAME", "Table", "read_table", "tokens", "STOP", "header_mentions",
           "find_values", "find_comparisons", "comparison_column", "comparison_fallback",
           "Mentions", "find_top_n", "demonyms", "number_words", "spans", "mention_positions",
           "is_clock", "country_aliases"]

Mentions = dict[str, tuple[float, int, int]]

STOP = word_set("stop_words")
_GT = words("greater_cues")
_LT = words("less_cues")
_TIME_CUES = word_set("time_cues")


@cache
def demonyms() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Demonym tokens -> country tokens, from ``demonyms.tsv`` (plurals added).

    >>> demonyms()[("germans",)], demonyms()[("south", "korean")]
    (('germany',), ('south', 'korea'))
    """
    table: dict[tuple[str, ...], tuple[str, ...]] = {}
    for country, forms in demonym_entries():
        target = tuple(table_words(country))
        for form in forms:
            words = tuple(table_words(form))
            table.setdefault(words, target)
            table.setdefault(words[:-1] + (words[-1] + "s",), target)
    return table


def tokens(text: str) -> list[str]:
    """Lower-case word and number tokens (accents stripped, ``no.`` -> ``number``, a
    demonym -> its country, so "Germans" in a question finds a cell "Germany").

    >>> tokens("Owner(s) (2009), No. 1,000 Élan")
    ['owner', 's', '2009', 'number', '1,000', 'elan']
    >>> tokens("How many Germans and South Koreans?")
    ['how', 'many', 'germany', 'and', 'south', 'korea']
    """
    words, table, i = _words_keeping_times(text), demonyms(), 0
    out: list[str] = []
    while i < len(words):
        pair = tuple(words[i:i + 2])
        if len(pair) == 2 and pair in table:
            out.extend(table[pair])
            i += 2
        elif (words[i],) in table:
            out.extend(table[(words[i],)])
            i += 1
        else:
            out.append(words[i])
            i += 1
    return out


#: a clock time or duration written with colons (``2:21``, ``1:07.05``, ``1:02:03``): one token,
#: so that "faster than 2:21" is not read as the numbers 2 and 21
_CLOCK_TIME = re.compile(r"(?<![\d:.,])\d{1,2}(?::[0-5]\d){1,2}(?:\.\d+)?(?![\d:])")


def _words_keeping_times(text: str) -> list[str]:
    """:func:`~trustuqa_core.text.table_words`, with each clock time kept as one token.

    >>> _words_keeping_times("faster than 2:21 in total, 1:07.05 in run 1")
    ['faster', 'than', '2:21', 'in', 'total', '1:07.05', 'in', 'run', '1']
    >>> _words_keeping_times("won 2:1 at 3.5")  # a score, not a time
    ['won', '2', '1', 'at', '3.5']
    """
    out: list[str] = []
    last = 0
    for m in _CLOCK_TIME.finditer(text):
        out += table_words(text[last:m.start()])
        out.append(m.group())
        last = m.end()
    return out + table_words(text[last:])


def is_clock(token: str) -> bool:
    """``token`` is a clock time or duration kept whole by :func:`tokens`.

    >>> is_clock("2:21"), is_clock("2"), is_clock("2:1")
    (True, False, False)
    """
    return ":" in token and _CLOCK_TIME.fullmatch(token) is not None


@dataclass(frozen=True)
class Cond:
    """One condition: ``column <cmp> value`` found at question tokens ``span``."""

    column: str
    cmp: str
    value: str
    span: tuple[int, int]
    #: the rows *not* meeting it ("other than Cyprus", "not from the United Kingdom")
    negated: bool = field(default=False, repr=False)
    #: one of the cells holding the question's word among others ("June" -> "June 3, 1990")
    part: bool = field(default=False, repr=False)
    #: conditions sharing this tag are joined: a row meeting any of them (*the top 10* of a
    #: ranking: the first 10 rows, or a place of 10 or better when places tie)
    either: str | None = field(default=None, repr=False)


#: the comparison of a condition met by the rows having any value in its column (negated:
#: the rows whose cell is blank, :mod:`.no_value`); written as two steps, the column's values
#: and the rows holding one of them (:mod:`.table_program`)
HAS = "has"
#: the comparison of a condition met by the rows whose cell in its column equals the named
#: row's, that row left out (its ``value`` is the named row's condition value,
#: :mod:`.same_as`)
SAME = "same"


def spans(conds: Iterable[Cond]) -> set[int]:
    """The question-token positions the conditions were read from.

    >>> sorted(spans([Cond("No.", "=", "21", (4, 5)), Cond("Year", ">", "1990", (7, 9))]))
    [4, 7, 8]
    """
    return {i for c in conds for i in range(*c.span)}


def mention_positions(mentions: Mentions, at_least: float = 0.0) -> set[int]:
    """The question-token positions of the column-name mentions scoring ``at_least``.

    >>> sorted(mention_positions({"Run 1": (1.02, 3, 5), "Total": (0.6, 7, 8)}, 1.0))
    [3, 4]
    """
    return {i for m in mentions.values() if m[0] >= at_least for i in range(m[1], m[2])}




@dataclass
class Table:
    name: str
    columns: list[str]
    cells: dict[tuple[str, ...], list[tuple[str, str]]]  # token tuple -> [(column, cell label)]
    numeric: dict[str, bool]
    max_len: int
    ranges: dict[str, tuple[float, float]]
    #: columns most of whose cells are clock times or durations (``2:20.54``), which
    #: ``numeric`` (plain numbers) leaves out
    durations: frozenset[str] = frozenset()
    #: distinct cells per column
    sizes: dict[str, int] = field(default_factory=dict)
    #: word -> (column, cell) of the cells of two words or more holding it
    words: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: column -> the cells found in two rows or more (rows can be counted per value)
    repeated: dict[str, frozenset[str]] = field(default_factory=dict)
    #: columns named as places whose numbers never go down from one row to the next (blank
    #: cells aside): the rows are in order of places, a ranking
    in_order: frozenset[str] = frozenset()


def read_table(graph: GraphStore, index: int) -> Table:
    source = graph.sources[index]
    cells: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    numeric: dict[str, bool] = {}
    ranges: dict[str, tuple[float, float]] = {}
    longest = 1
    durations: set[str] = set()
    sizes: dict[str, int] = {}
    repeated: dict[str, frozenset[str]] = {}
    for col in source.columns:
        rel = graph.relation(col)
        if rel is None:
            continue
        tails, counts = graph.tail_counts(rel)
        labels = [graph.label(t) for t in tails]
        repeated[col] = frozenset(label for label, n in zip(labels, counts, strict=True)
                                  if n >= 2)
        sizes[col] = len(set(labels))
        numeric[col] = bool(labels) and sum(parse_number(x) is not None for x in labels) >= (
            0.5 * len(labels))
        values = [v for v in (parse_number(x) for x in labels) if v is not None]
        if numeric[col] and values:
            ranges[col] = (min(values), max(values))
        if _of_times(labels, len(values)):
            durations.add(col)
        for label in labels:
            key = tuple(tokens(label))
            if key and len(key) <= 12:
                cells.setdefault(key, []).append((col, label))
                longest = max(longest, len(key))
    words: dict[str, list[tuple[str, str]]] = {}
    for key, options in cells.items():
        if len(key) >= 2:
            for word in set(key):
                words.setdefault(word, []).extend(options)
    in_order = frozenset(c for c in source.columns if numeric.get(c)
                         and any(RANK_RELATION.match(t) for t in tokens(c))
                         and _rows_in_order(graph, index, c))
    return Table(source.name, list(source.columns), cells, numeric, longest, ranges,
                 frozenset(durations), sizes, words, repeated, in_order)


def _rows_in_order(graph: GraphStore, index: int, column: str) -> bool:
    """The numbers of ``column`` in table ``index`` never go down from row to row (blank and
    non-number cells skipped; at least two numbers).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Rank,Name\\n,A\\n2,B\\n2,C\\n4,D\\n"])
    >>> _rows_in_order(g, 0, "Rank")
    True
    >>> g = load_graph(tables=[b"Year,Rank\\n2001,3\\n2002,1\\n2003,5\\n"])
    >>> _rows_in_order(g, 0, "Rank")
    False
    """
    rel = graph.relation(column)
    if rel is None:
        return False
    facts = graph.facts_rel(rel)
    found = []
    for head, tail in zip(graph.heads_of(facts).tolist(), graph.tails_of(facts).tolist(),
                          strict=True):
        at = graph.row_position(int(head))
        number = parse_number(graph.label(int(tail)))
        if at is not None and at[0] == index and number is not None:
            found.append((at[1], number))
    numbers = [n for _, n in sorted(found)]
    return len(numbers) >= 2 and all(a <= b for a, b in zip(numbers, numbers[1:], strict=False))


def _of_times(labels: Sequence[str], n_numbers: int) -> bool:
    """A column of times: most cells are clock times (``2:20.54``), or some are and the
    rest plain numbers of seconds (``59.93``, ``1:00.12``: a swimming heat).

    >>> _of_times(["2:20.54", "2:21.02", ""], 0), _of_times(["59.93", "1:00.12", "58.1"], 2)
    (True, True)
    >>> _of_times(["59.93", "60.12", "58.1"], 3), _of_times(["1:00.12", "x", "y"], 0)
    (False, False)
    """
    clocks = sum(is_duration(x) for x in labels)
    return bool(labels) and (2 * clocks >= len(labels) or (
        clocks > 0 and clocks + n_numbers >= 0.9 * len(labels)))


def _same(a: str, b: str) -> bool:
    """Two stemmed words match: equal, or long and sharing most of their beginning."""
    if a == b:
        return True
    short = min(len(a), len(b))
    if short < 5:
        return False
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(5, int(0.8 * short))


def header_mentions(q: list[str], columns: Sequence[str]) -> dict[str, tuple[float, int, int]]:
    """column -> (score, start, end) of its best mention in the question tokens.

    The score is the share of the column name's content words found as one run of question
    words, plus a small bonus per word so that longer names win ties. A number in the name
    may be written as an ordinal nearby ("the second run" names ``Run 2``).

    >>> found = header_mentions(tokens("who had the slower second run?"), ["Run 1", "Run 2"])
    >>> found["Run 2"][0] > 1 > found["Run 1"][0]
    True
    """
    stems = [stem(t) for t in q]
    numbered = [_ORDINALS.get(t, s) for t, s in zip(q, stems, strict=True)]
    found: dict[str, tuple[float, int, int]] = {}
    for col in columns:
        words = [stem(t) for t in tokens(col)]
        content = [w for w in words if w not in STOP] or words
        if not content:
            continue
        best = (0.0, -1, -1)
        for n in range(len(words), 0, -1):
            for i in range(len(words) - n + 1):
                part = words[i:i + n]
                if all(w in STOP for w in part):
                    continue
                for j in range(len(stems) - n + 1):
                    if all(_same(a, b) for a, b in zip(stems[j:j + n], part, strict=True)):
                        hits = sum(w not in STOP for w in part)
                        score = min(hits / len(content), 1.0) + 0.01 * hits
                        if score > best[0]:
                            best = (score, j, j + n)
            if best[0] >= 1.0:
                break
        if best[0] < 1.0 and len(content) > 1:
            best = max(best, _scattered(stems, content))
            if any(w in _ORDINALS.values() for w in content):
                best = max(best, _scattered(numbered, content))
        if best[0] > 0:
            found[col] = best
    return found


#: ordinal words as the numbers a column name writes them with ("second run" -> ``Run 2``)
_ORDINALS = {w: str(i + 1) for i, w in enumerate(
    ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
     "tenth"))} | {f"{i}{s}": str(i) for i, s in ((1, "st"), (2, "nd"), (3, "rd"), (4, "th"),
                                                  (5, "th"), (6, "th"), (7, "th"), (8, "th"),
                                                  (9, "th"), (10, "th"))}


def _scattered(stems: list[str], content: list[str], window: int = 7) -> tuple[float, int, int]:
    """All content words of a name found within a few question words, in any order
    (``score of the home team`` names ``Home team score``)."""
    spots = []
    for w in content:
        hits = [i for i, t in enumerate(stems) if _same(t, w)]
        if not hits:
            return (0.0, -1, -1)
        spots.append(hits)
    best = (0.0, -1, -1)
    for first in spots[0]:
        near = [min(h, key=lambda i: abs(i - first)) for h in spots]
        lo, hi = min(near), max(near) + 1
        if hi - lo <= window and len(set(near)) == len(near):
            score = 1.0 + 0.01 * len(content) - 0.001 * (hi - lo)
            best = max(best, (score, lo, hi))
    return best


#: question words that are cues, not values, when they only match a cell in another form
_CUES = word_set("value_cues")


def _stemmed_cells(table: Table) -> dict[tuple[str, ...], list[tuple[str, str]]]:
    """Cells by the stems of their words, for words of at least four letters (``Winner`` is
    found by ``winners``; short words and numbers only as written)."""
    out: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    for key, options in table.cells.items():
        if all(len(w) >= 4 and not w[0].isdigit() for w in key):
            out.setdefault(tuple(stem(w) for w in key), []).extend(options)
    return out


def find_values(q: list[str], table: Table, blocked: set[int],
            mentions: dict[str, tuple[float, int, int]]) -> list[Cond]:
    """Cell values occurring in the question, longest first, without overlaps.

    A value lying wholly inside a full mention of a column name is taken as that name, not as
    a value. When several columns hold the value, the column named closest to it wins.
    """
    headers = [(m[1], m[2]) for m in mentions.values() if m[0] >= 1.0]
    hits: list[tuple[int, int, list[tuple[str, str]]]] = []
    stemmed = _stemmed_cells(table)
    for n in range(min(table.max_len, len(q)), 0, -1):
        for i in range(len(q) - n + 1):
            key = tuple(q[i:i + n])
            # the cell's own words first, else the same words in another (plural) form
            options = table.cells.get(key) or (
                None if set(key) & _CUES else stemmed.get(tuple(stem(w) for w in key))) or (
                _alias_cells(key, table))
            if not options or blocked & set(range(i, i + n)):
                continue
            if (n == 1 and key[0] in STOP) or any(a <= i and i + n <= b for a, b in headers):
                continue
            hits.append((i, i + n, options))
    taken: set[int] = set()
    conds = []
    for start, end, options in hits:
        if taken & set(range(start, end)):
            continue
        taken |= set(range(start, end))
        col, label = min(options, key=lambda o: _distance((start, end), mentions.get(o[0])))
        conds.append(Cond(col, "=", label, (start, end)))
    return conds


@cache
def country_aliases() -> dict[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Token keys of a country -> the keys it may be written as instead (``lexicon.txt``
    lists ``country_codes`` and ``country_code_words``): a country's name -> its codes, and a
    code a question may use for it (``usa``, ``the us``) -> the country's name.

    >>> aliases = country_aliases()
    >>> aliases[("germany",)], aliases[("usa",)], aliases[("the", "us")]
    ((('ger',),), (('united', 'states'),), (('united', 'states'),))
    >>> ("us",) in aliases, ("can",) in aliases  # words of their own: only as a cell's code
    (False, False)
    """
    spoken = {tuple(tokens(w)) for w in words("country_code_words")}
    out: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
    for country, codes in pairs("country_codes"):
        name = tuple(tokens(country))
        for code in codes.split(","):
            key = tuple(tokens(code))
            out.setdefault(name, []).append(key)
            for said in spoken:
                if said[-len(key):] == key and said[:-len(key)] in ((), ("the",)):
                    out.setdefault(said, []).append(name)
    return {k: tuple(dict.fromkeys(v)) for k, v in out.items()}


def _alias_cells(key: tuple[str, ...], table: Table) -> list[tuple[str, str]] | None:
    """The cells holding ``key``'s country under another name (*USA* finds ``United
    States``, *Germany* or *Germans* finds ``GER``), when no cell holds it as written."""
    for alias in country_aliases().get(key, ()):
        if alias in table.cells:
            return table.cells[alias]
    return None


def _distance(span: tuple[int, int], mention: tuple[float, int, int] | None) -> int:
    """Tokens between a value and a column-name mention (99 when not mentioned); partial
    mentions count as farther."""
    if mention is None:
        return 99
    score, a, b = mention
    gap = max(span[0] - b, a - span[1], 0) if b <= span[0] or a >= span[1] else 50
    return gap + round(10 * (1 - score))


_NUMBER_WORDS = {w: i for i, w in enumerate(words("number_words"))}


def number_words() -> dict[str, int]:
    """English number words up to twenty -> their value."""
    return _NUMBER_WORDS


_TOP_WORDS = words("top_words")


def find_top_n(q: list[str]) -> Cond | None:
    """"top ten" / "first 5" -> the rows up to that position (``row_number <= N``).

    >>> find_top_n(tokens("how many italians finished in the top ten?"))
    Cond(column='row_number', cmp='<=', value='10', span=(6, 8))
    >>> find_top_n(tokens("who finished first?")) is None
    True
    """
    for i, word in enumerate(q[:-1]):
        if word not in _TOP_WORDS:
            continue
        nxt = q[i + 1]
        n = _NUMBER_WORDS.get(nxt) if not nxt.isdigit() else int(nxt)
        if n is not None and 1 < n <= 1000:
            return Cond("row_number", "<=", str(n), (i, i + 2))
    return None


def find_comparisons(q: list[str], text: str) -> list[tuple[str, float, int, int]]:
    """(cmp, number, token position of the number, position of the cue) for cues like
    ``more than 12``."""
    out: list[tuple[str, float, int, int]] = []
    taken: set[int] = set()
    for i, tok in enumerate(q):
        number = parse_number(tok)
        clock = number is None and is_clock(tok)
        if clock and (reading := parse_quantity(tok)) is not None:
            number = reading[0]  # "faster than 2:21": 141 seconds
        if number is None or i in taken:
            continue
        between = next((j for j in range(i - 1, max(-1, i - 4), -1) if q[j] == "between"
                        and all(w in _BETWEEN_FILLERS for w in q[j + 1:i])), None)
        if between is not None and i + 2 < len(q) and q[i + 1] == "and" and (
                (upper := _bound(q[i + 2], clock)) is not None):
            out += [(">=", number, i, between), ("<=", upper, i + 2, between)]  # inclusive
            taken.add(i + 2)
            continue
        before = " " + " ".join(q[max(0, i - 3):i])
        after = " ".join(q[i + 1:i + 3])
        if after in _OR_MORE or after in _OR_LESS:
            out.append((">=" if after in _OR_MORE else "<=", number, i, i))
            continue
        cue_kinds: tuple[tuple[Sequence[str], str], ...] = (
            (_AT_LEAST, ">="), (_AT_MOST, "<="), (_GT, ">"), (_LT, "<"))
        if clock:  # over times the faster is the smaller: "faster than 2:21" is "< 2:21"
            cue_kinds = ((_FASTER, "<"), (_SLOWER, ">"), *cue_kinds)
        for cues, cmp in cue_kinds:
            cue = next((c for c in cues if before.endswith(" " + c)), None)
            if cue is not None:
                out.append((cmp, number, i, i - len(cue.split())))
                break
    return out


def _bound(token: str, clock: bool) -> float | None:
    """The upper bound of *between A and B*: a number, or (when A is a clock time) a clock
    time in seconds (*between 2:30 and 2:40*: 160).

    >>> _bound("12", False), _bound("2:40", True), _bound("2:40", False), _bound("x", True)
    (12.0, 160.0, None, None)
    """
    if clock:
        reading = parse_quantity(token) if is_clock(token) else None
        return None if reading is None else reading[0]
    return parse_number(token)


_BETWEEN_FILLERS = word_set("between_fillers")
_FASTER = ("faster than", "quicker than", "better than")
_SLOWER = ("slower than", "worse than")
_AT_LEAST = words("at_least_cues")
_AT_MOST = words("at_most_cues")
_OR_MORE = word_set("or_more_cues")
_OR_LESS = word_set("or_less_cues")


def comparison_column(pos: int, cue: int, mentions: dict[str, tuple[float, int, int]],
                      table: Table, number: float | None = None, *,
                      clock: bool = False) -> str | None:
    """The numeric column named just before the cue (``grid less than 14``) or just after the
    number (``more than 12 wins``); for a ``clock`` time (``faster than 2:21 in total``) the
    column of times named there, else the table's only column of times."""
    best, dist, named = None, 99.0, 0.0
    for col, (score, start, end) in mentions.items():
        if clock:
            if col not in table.durations:
                continue
        elif not table.numeric.get(col) or (
                number is not None and not _plausible(number, table.ranges.get(col))):
            continue  # a year is no number of wins
        d: float
        if end <= cue:
            d = cue - end
        elif cue < start and end <= pos:  # named between the cue and the number
            d = 0
        elif start > pos:
            d = start - pos - 1 + 0.5
        else:
            continue
        if d < dist or (d == dist and score > named):  # "second run": Run 2 over Run 1
            best, dist, named = col, d, score
    if clock and dist > 4 and len(table.durations) == 1:
        return next(iter(table.durations))
    return best if dist <= 4 else None


def _plausible(number: float, span: tuple[float, float] | None) -> bool:
    """Within an order of magnitude of a column's values.

    >>> _plausible(1992, (0, 12)), _plausible(30, (0, 12)), _plausible(2, (1990, 2010))
    (False, True, False)
    """
    if span is None:
        return True
    lo, hi = span
    return min(lo, 0) - 1 <= number <= max(abs(hi), 1) * 10 + 1 and (
        lo <= 0 or number >= lo / 10 - 1)


def comparison_fallback(number: float, cue: str, table: Table,
                         mentions: dict[str, tuple[float, int, int]]) -> str | None:
    """No column named near the cue: a year column for time cues, else the only numeric
    column not mentioned elsewhere whose values span the number."""
    if cue in _TIME_CUES and 1000 <= number <= 2100:
        years = [c for c in table.columns if table.numeric.get(c) and stem("year") in
                 [stem(t) for t in tokens(c)]]
        if years:
            return years[0]
    fits = [c for c, (lo, hi) in table.ranges.items() if lo <= number <= hi and c not in mentions]
    return fits[0] if len(fits) == 1 else None

