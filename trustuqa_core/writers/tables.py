"""Schema linking for tables, the offline writer's heuristic: question words -> a table program.

Cell values found in the question become conditions (``get_information(relation=<column>,
tail_entity='<cell>')``), comparison cues (``more than 12 wins``) become ``>``/``<``
conditions, the column the question asks about becomes the selected column, and cue words
(``how many``, ``average``, ``highest``...) the aggregate. No network, no model.

The reading is an ordered tuple of named rules (:data:`LINK_RULES`, the selected column by
:data:`SELECT_RULES`; :func:`link_rules` lists them), each shown by a case in
``tests/fixtures/linking.txt``; the English words they look for are lists of
``lexicon.txt``. :mod:`.table_program` writes the plan as a query program.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Player,No.,School\\nAnn Lee,21,Duke\\nBo Ray,3,Iowa\\n"])
>>> plan = link_table("What school did player number 21 play for?", g)
>>> plan.select, plan.agg, [(c.column, c.cmp, c.value) for c in plan.conds]
('School', '', [('No.', '=', '21')])
>>> plan.rules
('conditions', 'select/named_at_focus', 'select')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from ..lexicon import pairs, word_map, word_set, words
from ..numbers import parse_month_day, parse_number
from ..reasoning.cues import RANK_RELATION, RANK_WORDS, TIME_ASKED
from ..store import GraphStore
from ..text import stem
from .choices import link_count_choice
from .computed import Computed, column_kind, link_computed, year_column
from .frequency import link_frequent_month
from .linking import (
    STOP,
    Cond,
    Mentions,
    Table,
    comparison_column,
    comparison_fallback,
    find_comparisons,
    find_top_n,
    find_values,
    header_mentions,
    number_words,
    read_table,
    tokens,
)
from .order import ordinal_column, top_is_first_row
from .places import place_bounds
from .properties import property_mentions
from .streaks import link_streak

__all__ = ["Cond", "TablePlan", "LinkState", "LinkRule", "LINK_RULES", "SELECT_RULES",
           "link_rules",
           "link_table", "tokens"]

_AGG_CUES = pairs("aggregate_cues")


@dataclass
class TablePlan:
    """What the linker understood, with the reasons (shown as the writer's explanation)."""

    select: str | None
    agg: str
    conds: list[Cond]
    source: str
    why: list[str] = field(default_factory=list)
    #: ("extreme", column) -- the rows whose column is highest/lowest (``agg``), then
    #: ``select`` of them; ("frequent", column) -- the rows holding the most/least frequent
    #: value of ``select``. None: ``agg`` applies to the selected values.
    ranking: tuple[str, str] | None = None
    #: (column, cell) of a summary row ("Total") left out of aggregates and rankings
    exclude: tuple[str, str] | None = None
    #: "next_row" / "previous_row": the row after/before the one the conditions find
    neighbour: str = ""
    #: a difference / yes-no comparison / duration of the rows' values (writers/computed.py)
    computed: Computed | None = None
    #: names of the linking rules that changed the plan, in order (:func:`link_rules`)
    rules: tuple[str, ...] = ()

    def explain(self) -> str:
        return "; ".join(self.why)




def link_table(question: str, graph: GraphStore, source: int | None = None) -> TablePlan:
    """The best plan over the graph's table sources (or the given one)."""
    indices = [source] if source is not None else [
        i for i, s in enumerate(graph.sources) if s.kind == "table"]
    plans = [_link_one(question, graph, i) for i in indices]
    if not plans:
        return TablePlan(None, "", [], "", ["no table among the sources"])
    return max(plans, key=lambda p: (len(p.conds), p.select is not None))


def _link_one(question: str, graph: GraphStore, index: int) -> TablePlan:
    state = LinkState.start(question, read_table(graph, index))
    for rule in LINK_RULES:
        if rule.apply(state):
            state.fired.append(rule.name)
    plan = TablePlan(state.select, state.agg, state.conds, state.table.name, [],
                     state.ranking, state.exclude, state.neighbour, state.computed)
    plan.why = _reasons(plan)
    plan.rules = tuple(state.fired)
    return plan


@dataclass
class LinkState:
    """What the rules have read of one question over one table so far.

    ``q`` are the question's tokens, ``mentions`` the column names it names; ``covered`` the
    token positions a condition or a full column-name mention uses (not cue words), ``fired``
    the names of the rules that changed something. The other fields become the plan.
    """

    question: str
    q: list[str]
    table: Table
    mentions: Mentions
    conds: list[Cond] = field(default_factory=list)
    covered: set[int] = field(default_factory=set)
    select: str | None = None
    agg: str = ""
    ranking: tuple[str, str] | None = None
    neighbour: str = ""
    exclude: tuple[str, str] | None = None
    computed: Computed | None = None
    fired: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, question: str, table: Table) -> LinkState:
        q = tokens(question)
        return cls(question, q, table, header_mentions(q, table.columns))


@dataclass(frozen=True)
class LinkRule:
    """One step of table linking: ``apply`` reads and updates the state, and says whether it
    changed anything (shown in :func:`link_rules`, checked by ``tests/fixtures/linking.txt``)."""

    name: str
    doc: str
    apply: Callable[[LinkState], bool]


def _rule_conditions(s: LinkState) -> bool:
    """Cell values, comparisons (more than 12) and top N in the question become conditions."""
    s.conds = _conditions(s.q, s.question, s.table, s.mentions)
    s.covered = {i for c in s.conds for i in range(*c.span)}
    s.covered |= {i for m in s.mentions.values() if m[0] >= 1.0 for i in range(m[1], m[2])}
    return bool(s.conds)


def _rule_property_words(s: LinkState) -> bool:
    """Words naming a column by what it measures (*the shortest song* -> ``Length``, *the
    most residents* -> ``Population``) mention it partly (:mod:`.properties`); added after the
    conditions, so they steer what is ranked or compared, not which column a number bounds."""
    found = property_mentions(s.q, s.table, s.mentions)
    s.mentions = {**s.mentions, **found}
    return bool(found)


def _rule_partial_values(s: LinkState) -> bool:
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
    named = {i for m in s.mentions.values() if m[0] >= 0.5 for i in range(m[1], m[2])}
    named.add(_focus(s.q))  # the noun asked for ("which is the first city ...") is no value
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
    s.covered |= {i for c in found for i in range(*c.span)}
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
    before = " " + " ".join(w for w in q[max(0, i - 3):i] if w != "the")
    return any(before.endswith(" " + cue) for cue in _COMPARISON_CUES)


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
    | word_set("order_words") | word_set("focus_modifiers") | frozenset(
        w for cue, _ in pairs("aggregate_cues") for w in cue.split())


def _rule_negation(s: LinkState) -> bool:
    """A condition right after *not*, *other than*, *besides*, *except*, *excluding*,
    *aside from* / *apart from* (at most three words between: *not from the United
    Kingdom*, *did not have a top ten*) is negated: the rows that do not meet it."""
    cues = _negation_cues(s.q, s.covered)
    if not cues:
        return False
    changed = False
    for end in cues:
        after = [c for c in s.conds if not c.negated and end <= c.span[0] <= end + 3]
        if not after:
            continue
        first = min(after, key=lambda c: c.span[0])
        between = set(range(end, first.span[0]))
        if any(between & set(range(*c.span)) for c in s.conds):
            continue
        group = [first]  # "besides Wimbledon and the US Open": both left out
        for c in sorted(s.conds, key=lambda c: c.span[0]):
            gap = s.q[group[-1].span[1]:c.span[0]]
            if c.span[0] >= group[-1].span[1] and c.column == first.column and not c.negated \
                    and gap and set(gap) <= _LIST_JOINERS:
                group.append(c)
        s.conds = [replace(c, negated=True) if c in group else c for c in s.conds]
        changed = True
    return changed


_LIST_JOINERS = frozenset({"and", "or", "nor", "the", "a", "an"})
#: words saying the rows meeting what follows are left out
_NEGATION_CUES = (("other", "than"), ("aside", "from"), ("apart", "from"), ("not",),
                  ("besides",), ("except",), ("excluding",), ("excepting",))
_CONTRACTED = frozenset({"didn", "doesn", "don", "wasn", "weren", "isn", "aren", "hasn",
                         "haven", "hadn", "won", "couldn", "wouldn"})


def _negation_cues(q: list[str], covered: set[int]) -> list[int]:
    """The positions right after each negation cue not inside a condition (``didn't`` is
    tokenized ``didn``, ``t``).

    >>> _negation_cues(tokens("how many athletes were from a country other than cyprus?"), set())
    [9]
    >>> _negation_cues(tokens("which team didn't win?"), set())
    [4]
    """
    out = []
    for i in range(len(q)):
        if i in covered:
            continue
        if q[i] == "t" and i and q[i - 1] in _CONTRACTED:
            out.append(i + 1)
            continue
        for cue in _NEGATION_CUES:
            if tuple(q[i:i + len(cue)]) == cue and not covered & set(range(i, i + len(cue))):
                out.append(i + len(cue))
                break
    return out


def _rule_aggregate(s: LinkState) -> bool:
    """The first aggregate cue not inside a condition or a column name (how many, highest);
    *at least* / *at most* bound a number (*at least 100 people*, *at least twice*), they
    ask for no least or most."""
    s.agg = _aggregate([t if i not in s.covered and not _bound_word(s.q, i) else "_"
                        for i, t in enumerate(s.q)])
    return bool(s.agg)


def _bound_word(q: list[str], i: int) -> bool:
    """*least* / *most* in *at least* / *at most*.

    >>> _bound_word(tokens("which nations won at least 6 medals?"), 4)
    True
    """
    return q[i] in ("least", "most") and i > 0 and q[i - 1] == "at"


def _rule_select(s: LinkState) -> bool:
    """The column asked for, by the first of :data:`SELECT_RULES` that finds one (listed as
    ``select/<name>``)."""
    for name, _, choose in SELECT_RULES:
        s.select = choose(s)
        if s.select is not None:
            s.fired.append(f"select/{name}")
            return True
    return False


def _rule_count_reads_column(s: LinkState) -> bool:
    """A count of a numeric column named where the counted noun stands (*how many runs did
    X score?*, *what is the number of silver medals of X?*, *the total number of seats at
    X?*), with equality conditions only, reads the number from that column instead of
    counting rows; two values of one column named with *and* (*X and Y*) add up. Not over a
    column that numbers the rows (*Game*, *No.*, *Rank*, years): *the number of games in May*
    counts."""
    select = s.select
    if (s.agg == "count" and select is not None and s.table.numeric.get(select) and s.conds
            and not _years(s.table.ranges.get(select)) and not _numbers_rows(select)
            and all(c.cmp == "=" and c.column != "row_number" and not c.negated
                    for c in s.conds)
            and select in s.mentions and s.mentions[select][1] in _counted_at(s.q)):
        s.agg = "sum" if _joined_by_and(s.q, s.conds) else ""
        return True
    return False


def _joined_by_and(q: list[str], conds: list[Cond]) -> bool:
    """Two values of one column named with *and* between them (*Argentina and Chile*: their
    numbers add up); with *or* each is asked for (*how many points did A or B score?*).

    >>> c = [Cond("Nation", "=", "Peru", (4, 5)), Cond("Nation", "=", "Chile", (6, 7))]
    >>> _joined_by_and(tokens("how many medals did peru and chile win?"), c)
    True
    >>> _joined_by_and(tokens("how many medals did peru or chile win?"), c)
    False
    """
    for a in conds:
        for b in conds:
            if a.column == b.column and a.span[1] <= b.span[0]:
                between = set(q[a.span[1]:b.span[0]])
                if "and" in between and "or" not in between:
                    return True
    return False


_COUNT_NOUNS = frozenset({"number", "amount", "total", "count"})
_COUNT_FILLERS = frozenset({"the", "total", "combined", "overall"})


def _counted_at(q: list[str]) -> set[int]:
    """Positions of the counted noun: where the question word points (*how many runs*), and
    after *number of* / *amount of* / *total* (the fillers *the*, *total* skipped).

    >>> sorted(_counted_at(tokens("what is the total number of silver medals of chile?")))
    [3, 6]
    >>> sorted(_counted_at(tokens("how many runs did ted score?")))
    [2]
    """
    found = {_focus(q)}
    for i, w in enumerate(q):
        if w not in _COUNT_NOUNS:
            continue
        j = i + 1
        if w != "total":
            if j >= len(q) or q[j] != "of":
                continue
            j += 1
        while j < len(q) and q[j] in _COUNT_FILLERS | {"number", "of"}:
            j += 1
        found.add(j)
    return found


def _numbers_rows(column: str) -> bool:
    """A column whose numbers name the rows rather than measure them: its name is made of
    such words only (*No.*, *#*, *Game*, *Week*, *Pick*, *Rank*, *Pos.*; not *No. of
    employees*, *Weeks* nor *Second place(s)*).

    >>> _numbers_rows("Pos."), _numbers_rows("Second place(s)"), _numbers_rows("#")
    (True, False, True)
    """
    return set(tokens(column)) <= _ROW_NUMBERING  # "#" has no word: numbers the rows


_ROW_NUMBERING = frozenset({"number", "no", "game", "week", "pick", "episode", "ep", "season",
                            "year", "seed", "heat", "lane", "id", "match", "race", "stage",
                            "order", "overall", "rank", "ranking", "pos", "position", "place",
                            "s"})


def _rule_relative_superlative(s: LinkState) -> bool:
    """*fastest* / *slowest*, *oldest* / *newest* / *youngest* and *best* / *worst* / *top*
    name a direction that depends on the column: over clock times the fastest is the smallest,
    over a speed the largest; over years the oldest is the earliest, over ages the largest;
    over times and ranks the best is the smallest (over other numbers *best* is left alone)."""
    if s.computed is not None:
        return False
    cue = next((w for i, w in enumerate(s.q) if w in _RELATIVE and i not in s.covered), None)
    if cue is None or s.agg and (cue != "top" or s.agg != "max"):
        return False  # "top" is also an aggregate cue (max): over times and ranks, the least
    used = {c.column for c in s.conds}
    ordered = [c for c, m in s.mentions.items() if c not in used and m[0] >= 0.5
               and column_kind(s.table, c)]
    column = s.select if s.select is not None and column_kind(s.table, s.select) and (
        s.select in s.mentions or s.select in s.table.durations) else None
    if column is None and ordered:  # "which driver had the fastest speed?"
        column = max(ordered, key=lambda c: (s.mentions[c][0], -s.mentions[c][1]))
    if cue in _AGE and column is not None and _rank_like(column):
        # "the oldest film in the ranking": an age is read from years or ages, not ranks
        column = year_column(s.table, used, {}) or _age_column(s.table, used) or column
    if column is None and cue in _AGE:  # "which film is the oldest?", "who is the oldest?"
        column = year_column(s.table, used, {}) or _age_column(s.table, used)
    if column is None:
        return False
    if cue in _QUALITY and not (column in s.table.durations or _rank_like(column)):
        return False  # the best points are the most, the best time the least: unknown here
    by_time = column in s.table.durations or _years(s.table.ranges.get(column)) \
        or _rank_like(column)
    s.agg = _RELATIVE[cue] if by_time else ("max" if _RELATIVE[cue] == "min" else "min")
    if column != s.select:
        s.ranking = ("extreme", column)
    return True


#: superlatives whose direction is by time or place (flipped over plain numbers such as
#: speeds and ages); *best* / *worst* / *top* only over times and ranks
_RELATIVE = {"fastest": "min", "quickest": "min", "slowest": "max", "oldest": "min",
             "newest": "max", "youngest": "max", "best": "min", "worst": "max", "top": "min"}
_AGE = frozenset({"oldest", "newest", "youngest"})
_QUALITY = frozenset({"best", "worst", "top"})


def _rank_like(column: str) -> bool:
    """A column of places (*Rank*, *Position*, *Run 1 rank*): the smaller, the better."""
    return any(RANK_RELATION.match(t) for t in tokens(column))


def _age_column(table: Table, used: set[str]) -> str | None:
    """The table's one numeric column called *Age*."""
    ages = [c for c in table.columns if c not in used and table.numeric.get(c)
            and "age" in tokens(c)]
    return ages[0] if len(ages) == 1 else None


def _rule_row_of_extreme(s: LinkState) -> bool:
    """"who had the lowest total?", "which skier had the fastest first run?": the question
    asks for a row (*who*, or *which* / *what* with a word that names no column), and the
    superlative's column is the one it names: the rows holding the extreme, read in the
    column naming them (a column of people for *who*, else the first column of text)."""
    sel = s.select
    if s.ranking is not None or s.agg not in ("max", "min") or sel is None \
            or s.computed is not None or not column_kind(s.table, sel) \
            or s.mentions.get(sel, (0.0,))[0] < 0.5 and sel not in s.table.durations:
        return False
    if not _asks_row(s.q, s.mentions, s.covered):
        return False
    name = _name_column(s, sel)
    if name is None:
        return False
    s.ranking, s.select = ("extreme", sel), name
    return True


def _name_column(s: LinkState, ranked: str) -> str | None:
    """The column naming the rows a question asks for: a column of people for *who*, else
    the first column of text no condition uses (not ``ranked``)."""
    used = {c.column for c in s.conds} | {ranked}
    text = [c for c in s.table.columns if c not in used and not s.table.numeric.get(c)
            and c not in s.table.durations]
    people = [c for c in text if _hinted(c, _WH_HINTS["who"])] if s.q[0] == "who" else []
    return (people or text)[0] if people or text else None


def _asks_row(q: list[str], mentions: dict[str, tuple[float, int, int]],
              covered: set[int]) -> bool:
    """*who ...*, or *which* / *what* followed by a word no column name or condition uses
    (*which skier*; not *what was Ann Lee's earliest round*)."""
    if not q:
        return False
    if q[0] == "who":
        return True
    focus = _focus(q)
    if 0 <= focus < len(q) - 1 and q[focus] in _SUPERLATIVES and q[focus - 1] == "the" \
            and q[focus + 1] not in _SUPERLATIVE_FILLERS | _VALUE_NOUNS \
            and (q[0] == "which" or focus + 2 == len(q)):
        # "which is the longest song?", "what is the longest song?": the noun after the
        # superlative (not "what is the least value for week?" nor a longer "what" question)
        focus += 1
    if q[0] not in ("which", "what") or not 0 <= focus < len(q) or focus in covered \
            or q[focus] in _PRONOUNS:  # "what was her lowest score?" asks her score
        return False
    return not any(start <= focus < end for _, start, end in mentions.values()) \
        and q[focus] not in _AGG_WORDS and q[focus] not in _RELATIVE


_PRONOUNS = frozenset({"her", "his", "their", "its", "my", "our", "your", "the"})
#: nouns after a superlative that ask for a value, not a row (*the least value for week*)
_VALUE_NOUNS = frozenset({"value", "values", "entry", "number", "amount", "figure", "year",
                          "years", "date", "score", "total", "current", "recent"})
_AGG_WORDS = frozenset(w for cue, _ in _AGG_CUES for w in cue.split())


def _rule_ranking(s: LinkState) -> bool:
    """A highest / lowest question asking which row: the extreme of another named numeric
    column, or the most / least frequent value of the asked column."""
    if s.ranking is not None:
        return False
    s.ranking = _ranking(s.q, s.mentions, s.conds, s.table, s.select, s.agg)
    return s.ranking is not None


def _rule_choice(s: LinkState) -> bool:
    """A choice between two named rows (X or Y) with a comparative: the row whose compared
    column is higher / lower."""
    if s.agg in ("count", "sum", "mean"):
        return False
    choice = _choice(s.q, s.mentions, [c for c in s.conds if not (c.negated or c.part)],
                     s.table)
    if not choice:
        return False
    s.select, s.agg, compared = choice
    s.ranking = ("extreme", compared)
    return True


def _rule_neighbour(s: LinkState) -> bool:
    """One row named (by one value, or by several meeting in it: *the world junior
    championships 2002*) and a next / previous cue (not inside a column name, not before a
    number): the row after / before it."""
    if s.agg or s.ranking:
        return False
    named = {i for m in s.mentions.values() for i in range(m[1], m[2])}
    if any(c.negated for c in s.conds):
        return False
    neighbour, cue = _neighbour(s.q, s.conds, s.covered | named)
    if neighbour:
        asked = [c.column for c in s.conds if _asks_for(s.q, c.column, s.mentions)]
        anchor = asked[0] if asked else s.conds[0].column
        if _asks_for(s.q, anchor, s.mentions) or s.select is None or (
                s.mentions.get(s.select, (0.0,))[0] < 0.5 and s.q[0] in _ASKS_NAME
                and not column_kind(s.table, anchor) and not _possessive(s.q, s.conds)):
            # the neighbour's value in the named row's column (also when the column read
            # was only guessed: "who came next after venezuela?" names another nation)
            s.select = anchor
        elif cue not in ("next", "previous"):
            neighbour = ""  # "after" a named row, asking another column: that row's value
    s.neighbour = neighbour
    return bool(neighbour)


def _possessive(q: list[str], conds: list[Cond]) -> bool:
    """A named value followed by *'s* (*who was Catherine Long's previous representative?*):
    the question asks for a relation of that row (its predecessor in some role), which the
    row before it need not hold.

    >>> _possessive(tokens("who was ann long's previous representative?"),
    ...             [Cond("Name", "=", "Ann Long", (2, 4))])
    True
    """
    return any(c.span[1] < len(q) and q[c.span[1]] == "s" for c in conds)


#: question words asking for a name: a neighbour's answer is the named row's kind
_ASKS_NAME = frozenset({"who", "which", "what", "whom"})


def _rule_row_order(s: LinkState) -> bool:
    """A free-standing first / last with nothing else to rank by: the table's row order (by the
    column of years the question reads when it asks for a row: *what was the first game
    released?*); so is *top* (*who is at the top of the list?*) when the column asked for is
    text (:mod:`.order`)."""
    if s.ranking is not None or s.neighbour or s.select is None:
        return False
    named = {i for m in s.mentions.values() if m[0] >= 0.5 for i in range(m[1], m[2])}
    if s.agg == "max" and not column_kind(s.table, s.select) and not _rank_like(s.select) \
            and not ordinal_column(s.table, s.select) and top_is_first_row(s.q, s.covered | named):
        s.agg, s.ranking = "min", ("extreme", "row_number")
        return True
    if s.agg:
        return False
    order = _order_word(s.q, s.covered)
    if not order:
        return False
    s.agg, s.ranking = order, ("extreme", "row_number")
    focus = _focus(s.q)
    if _LISTED & set(s.q):
        return True
    if not _years(s.table.ranges.get(s.select)):
        years = year_column(s.table, {c.column for c in s.conds} | {s.select}, s.mentions)
        if _TIME_VERBS & set(s.q) and years is not None:
            s.ranking = ("extreme", years)  # "the first film released": by its year
        return True
    if 0 <= focus < len(s.q) and s.q[focus] in _TIME_NOUNS:
        s.ranking = None  # "what year was the first game released?": the earliest year
    elif _asks_row(s.q, s.mentions, s.covered) and (name := _name_column(s, s.select)):
        # "what was the first game released?": by the year column the question reads
        s.ranking, s.select = ("extreme", s.select), name
    return True


#: words saying the order asked is the table's (*the first single listed*)
_LISTED = frozenset({"listed", "list", "table", "chart", "shown"})
#: verbs dating a row (*the first film released*): first / last by the year column
_TIME_VERBS = frozenset({"released", "founded", "established", "built", "aired", "published",
                         "completed", "opened", "formed", "created", "constructed",
                         "launched", "introduced", "premiered", "debuted", "issued"})
#: question words asking for a time, not a row (*what year was the last school founded?*)
_TIME_NOUNS = frozenset({"year", "years", "date", "season", "day", "month", "time"})


def _rule_summary_row(s: LinkState) -> bool:
    """An aggregate or a ranking leaves out a summary row (Total) the question does not name."""
    s.exclude = _summary_row(s.table, s.conds) if (s.agg or s.ranking) else None
    return s.exclude is not None


_YES_NO_START = frozenset({"did", "does", "do", "was", "were", "is", "are", "has", "have",
                           "had"})


def _rule_exists(s: LinkState) -> bool:
    """A yes/no question whose conditions are the whole claim ("did an austrian finish in the
    top five?", "was Tina Maze from Slovenia?"): is there a row meeting them all? Not when it
    also names a column to read, aggregates or ranks (a computed comparison comes next)."""
    if not s.q or s.q[0] not in _YES_NO_START or not s.conds or s.agg or s.ranking \
            or s.neighbour:
        return False
    used = {c.column for c in s.conds}
    if any(c not in used and m[0] >= 1.0 for c, m in s.mentions.items()):
        return False  # "was Ann's total more than ..." reads a column: not a plain existence
    s.agg = "exists"
    return True


def _rule_computed(s: LinkState) -> bool:
    """A difference, a yes/no comparison or a duration of named rows replaces the plain read
    (:mod:`.computed`)."""
    if any(c.negated for c in s.conds):
        return False  # "how many more ... besides X": not the difference of two named rows
    s.computed = link_computed(s.question, s.conds, s.mentions, s.table)
    if s.computed is None:
        return False
    s.agg, s.ranking, s.exclude, s.neighbour = "", None, None, ""
    return True


def _rule_count_choice(s: LinkState) -> bool:
    """Two values of one column offered with *or* and *more* / *fewer* but no column to
    compare (*are there more players from Sweden or Canada?*): the option filling more (fewer)
    rows, counted (:mod:`.choices`)."""
    if s.computed is not None or s.ranking is not None or s.neighbour:
        return False
    s.computed = link_count_choice(s.q, s.conds, s.mentions, s.table)
    if s.computed is None:
        return False
    s.agg, s.exclude = "", None
    return True


def _rule_frequent_month(s: LinkState) -> bool:
    """*Which month had the most games?* with no column of months: the month of the date
    column found in the most rows (:mod:`.frequency`)."""
    if s.computed is not None:
        return False
    s.computed = link_frequent_month(s.q, s.conds, s.table)
    if s.computed is None:
        return False
    s.agg, s.ranking, s.exclude, s.neighbour = "", None, None, ""
    return True


def _rule_place_bounds(s: LinkState) -> bool:
    """*5th or better*, *at least 12th*, *below 10th*, *the top 10* bound a column of places
    (``Position <= 5``), not one place or the first rows (:mod:`.places`)."""
    found = place_bounds(s.q, s.conds, s.table)
    if found is None:
        return False
    s.conds = found
    s.covered |= {i for c in found for i in range(*c.span)}
    return True


def _rule_streak(s: LinkState) -> bool:
    """*How many consecutive games ...*, *the longest winning streak*: the longest run of
    rows next to each other, or of wins / losses in a column of results (:mod:`.streaks`)."""
    found = link_streak(s.question, s.q, s.conds, s.table)
    if found is None:
        return False
    s.computed, s.agg, s.ranking, s.exclude, s.neighbour = found, "", None, None, ""
    return True


def _rule(apply: Callable[[LinkState], bool]) -> LinkRule:
    name = apply.__name__.removeprefix("_rule_")
    return LinkRule(name, " ".join((apply.__doc__ or "").split()), apply)


#: the rules of table linking, in the order they run (each sees what the earlier ones found)
LINK_RULES: tuple[LinkRule, ...] = tuple(_rule(f) for f in (
    _rule_conditions, _rule_property_words, _rule_partial_values, _rule_negation,
    _rule_place_bounds,
    _rule_aggregate, _rule_select,
    _rule_count_reads_column, _rule_relative_superlative, _rule_ranking, _rule_row_of_extreme,
    _rule_choice, _rule_neighbour, _rule_row_order, _rule_summary_row, _rule_exists,
    _rule_computed, _rule_count_choice, _rule_frequent_month, _rule_streak))


def link_rules() -> list[tuple[str, str]]:
    """(rule name, what it does) in the order the rules run, for documentation; the ways of
    choosing the selected column follow ``select`` as ``select/<name>``.

    >>> [name for name, _ in link_rules()][:6]
    ['conditions', 'property_words', 'partial_values', 'negation', 'place_bounds', 'aggregate']
    """
    out = []
    for r in LINK_RULES:
        out.append((r.name, r.doc))
        if r.name == "select":
            out += [(f"select/{name}", doc) for name, doc, _ in SELECT_RULES]
    return out


def _conditions(q: list[str], question: str, table: Table,
                mentions: dict[str, tuple[float, int, int]]) -> list[Cond]:
    """Comparisons (``more than 12 wins``), cell values, and ``top N``, without overlaps."""
    conds: list[Cond] = []
    for cmp, number, pos, cue in find_comparisons(q, question):
        col = comparison_column(pos, cue, mentions, table, number)
        if col is None:
            col = comparison_fallback(number, " ".join(q[cue:pos]), table, mentions)
        if col is not None:
            conds.append(Cond(col, cmp, q[pos], (pos, pos + 1)))
    taken = {i for c in conds for i in range(*c.span)}
    conds += [c for c in _decades(q, table, mentions) if c.span[0] not in taken]
    blocked = {i for c in conds for i in range(*c.span)}
    conds += find_values(q, table, blocked, mentions)
    top = find_top_n(q)  # unless the words are themselves a cell value (an episode title)
    if top is not None and not ({i for c in conds for i in range(*c.span)}
                                & set(range(*top.span))):
        conds.append(top)
    return conds


def _decades(q: list[str], table: Table,
             mentions: dict[str, tuple[float, int, int]]) -> list[Cond]:
    """"in the 1970s" -> the year column from 1970 to 1979 (two inclusive conditions; "the
    1800s" from 1800 to 1899): the numeric column named just before, else the table's year
    column.

    >>> t = Table("t", ["Film", "Year"], {}, {"Film": False, "Year": True}, 1,
    ...           {"Year": (1933.0, 1982.0)})
    >>> [(c.column, c.cmp, c.value) for c in _decades(tokens("films of the 1970s"), t, {})]
    [('Year', '>=', '1970'), ('Year', '<=', '1979')]
    >>> [(c.cmp, c.value) for c in _decades(tokens("films made before the 1970s"), t, {})]
    [('<', '1970')]
    >>> [(c.cmp, c.value) for c in _decades(tokens("films made after the 1970s"), t, {})]
    [('>', '1979')]
    """
    out: list[Cond] = []
    for i in range(len(q) - 1):
        w = q[i]
        if q[i + 1] != "s" or len(w) != 4 or not w.isdigit() or w[3] != "0":
            continue
        start = int(w)
        span = 99 if w.endswith("00") else 9  # "the 1800s" is the century
        col = comparison_column(i, i, mentions, table, start) or comparison_fallback(
            start, "since", table, mentions)
        if col is None:
            continue
        before = " " + " ".join(t for t in q[max(0, i - 4):i] if t != "the")
        cue = next((c for c in _DECADE_CUES if before.endswith(" " + c)), "")
        if cue == "since":  # "since the 1970s": from its start on
            out.append(Cond(col, ">=", w, (i, i + 2)))
        elif cue in _LATER:  # "after the 1970s": past its end
            out.append(Cond(col, ">", str(start + span), (i, i + 2)))
        elif cue:  # "before the 1970s": ahead of its start
            out.append(Cond(col, "<", w, (i, i + 2)))
        else:
            out += [Cond(col, ">=", w, (i, i + 1)),
                    Cond(col, "<=", str(start + span), (i + 1, i + 2))]
    return out


_LATER = words("greater_cues")
#: comparison cues before a decade, longest first ("later than the 1970s", "before the 1800s")
_DECADE_CUES = sorted(set(_LATER) | set(words("less_cues")), key=lambda c: -len(c))


def _asks_for(q: list[str], column: str, mentions: dict[str, tuple[float, int, int]],
              who_needs_people: bool = True) -> bool:
    """The question asks for this column: named where the question word points, or a
    synonym of it there, or a "who" question (about a column of people, unless
    ``who_needs_people`` is False)."""
    focus = _focus(q)
    at = q[focus] if 0 <= focus < len(q) else ""
    return (column in mentions and mentions[column][1] == focus) or bool(
        _FOCUS_SYNONYMS.get(at, set()) & set(tokens(column))) or (
        bool(q) and q[0] == "who" and (not who_needs_people
                                        or _hinted(column, _WH_HINTS["who"])))


def _reasons(plan: TablePlan) -> list[str]:
    """What the linker understood, in words (the offline writer's note)."""
    why = [f"table {plan.source}"]
    why += [f"condition {c.column} {c.cmp} {c.value!r} (question words {c.span[0]}-{c.span[1]})"
            for c in plan.conds]
    why.append(f"selected column {plan.select!r}" + (f", aggregate {plan.agg}" if plan.agg
                                                     else ""))
    if plan.ranking is not None and plan.ranking[0] == "extreme":
        why.append(f"the rows with the {plan.agg} {plan.ranking[1]!r}")
    elif plan.ranking is not None:
        why.append(f"the {'most' if plan.agg == 'max' else 'least'} frequent {plan.select!r}")
    if plan.exclude is not None:
        why.append(f"leaving out the summary row {plan.exclude[0]} = {plan.exclude[1]!r}")
    if plan.neighbour:
        why.append(f"then the {'next' if plan.neighbour == 'next_row' else 'previous'} row")
    if plan.computed is not None:
        why.append(f"computed: {plan.computed.kind}, {plan.computed.why}")
    return why


_NEXT = word_set("next_words")
_PREVIOUS = word_set("previous_words")


def _neighbour(q: list[str], conds: list[Cond], covered: set[int]) -> tuple[str, str]:
    """("next_row", cue) for "the next single after X" (one row named, no number after the
    cue), ("previous_row", cue) for "the album listed before X", else ("", "").

    >>> c = [Cond("Event", "=", "Worlds", (4, 5)), Cond("Year", "=", "2002", (5, 6))]
    >>> _neighbour(tokens("what competition came after worlds 2002?"), c, {4, 5})
    ('next_row', 'after')
    """
    if not conds or any(c.cmp != "=" for c in conds) or len({c.column for c in conds}) \
            < len(conds):
        return "", ""  # one row: equalities on different columns
    for i, word in enumerate(q):
        if i in covered or word not in _NEXT | _PREVIOUS:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        if nxt and parse_number(nxt) is not None and (i + 1) not in covered:
            continue  # a cue before a number is a comparison
        return ("next_row" if word in _NEXT else "previous_row"), word
    return "", ""


_MORE = word_set("more_words")
_LESS = word_set("less_words")
_TIME_CHOICE = word_set("time_choice_words")


def _choice(q: list[str], mentions: dict[str, tuple[float, int, int]], conds: list[Cond],
            table: Table) -> tuple[str, str, str] | None:
    """A choice between named rows: (column naming them, max|min, column compared).

    ``who scored more points, Larry Johnson or Charlie Ward?`` -> ("Player", "max", "Points");
    ``which album was released later, A or B?`` compares a year column (or the row order).
    """
    if any(c.cmp != "=" for c in conds):
        return None
    counts = Counter(c.column for c in conds)
    named = next((c for c, n in counts.items() if n >= 2), None)
    if named is None:
        return None
    words = set(q)
    compared = [c for c, m in mentions.items() if c not in counts and column_kind(table, c)
                and m[0] >= 0.5]
    best = max(compared, key=lambda c: (mentions[c][0], -mentions[c][1])) if compared else None
    by_rank = _rank_choice(q, table, set(counts), best)
    if by_rank is not None:
        return named, *by_rank
    by_time = _speed_choice(words, table, set(counts), mentions)
    if by_time is not None and (best is None or mentions.get(by_time[1], (0.0,))[0]
                                >= mentions[best][0]):
        return named, *by_time
    agg = "max" if words & _MORE else "min" if words & _LESS else ""
    order = "" if agg else "min" if _FIRST in words else "max" if _LAST in words else ""
    if not (agg or order):
        return None
    if best is not None and not order:
        return named, agg, best
    if order:  # "which came first, A or B?": by their year, else by the table's order
        agg = order
    if order or words & _TIME_CHOICE:
        years = [c for c in table.columns if c not in counts and _years(table.ranges.get(c))]
        return named, agg, years[0] if years else "row_number"
    return None


_RANK_CHOICE = frozenset({"higher", "lower", "better", "worse", "above", "below", "ahead",
                          "behind"})
_SPEED = {**dict.fromkeys(("faster", "quicker", "fastest", "quickest"), "min"),
          **dict.fromkeys(("slower", "slowest"), "max")}


def _rank_choice(q: list[str], table: Table, used: set[str],
                 compared: str | None) -> tuple[str, str] | None:
    """(min|max, rank column) for "which finished higher, A or B?": over a rank column
    (``Rank``, ``Position``, ``Place``) the better row has the *smaller* number, so *higher*,
    *better*, *above*, *ahead* ask for the minimum. The rank column is the compared column the
    question names, else the table's one rank column of numbers.

    >>> t = Table("t", ["Rank", "Nation"], {}, {"Rank": True}, 1, {})
    >>> _rank_choice(tokens("which ranked higher, italy or japan?"), t, {"Nation"}, "Rank")
    ('min', 'Rank')
    >>> _rank_choice(tokens("which won more, italy or japan?"), t, {"Nation"}, "Rank") is None
    True
    """
    word = next((w for w in q if w in _RANK_CHOICE), None)
    if word is None:
        return None
    if compared is None:
        ranks = [c for c in table.columns if c not in used and table.numeric.get(c)
                 and RANK_RELATION.match(c)]
        if len(ranks) != 1:
            return None
        compared = ranks[0]
    if not RANK_RELATION.match(compared):
        return None
    return ("min" if RANK_WORDS[word] == "<" else "max"), compared


def _speed_choice(words: set[str], table: Table, used: set[str],
                  mentions: dict[str, tuple[float, int, int]]) -> tuple[str, str] | None:
    """(min|max, time column) for "who was faster, A or B?": the faster row has the smaller
    time. The time column is one of clock times / durations: the one the question names, else
    one called *Total* or *Time*, else the table's only one.

    >>> t = Table("t", ["Name", "Run 1", "Total"], {}, {}, 1, {}, frozenset({"Run 1", "Total"}))
    >>> _speed_choice({"who", "was", "faster"}, t, {"Name"}, {})
    ('min', 'Total')
    """
    word = next((w for w in words if w in _SPEED), None)
    if word is None:
        return None
    column = _time_column(table, used, mentions)
    return (_SPEED[word], column) if column is not None else None


def _time_column(table: Table, used: set[str],
                 mentions: dict[str, tuple[float, int, int]]) -> str | None:
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


def _summary_row(table: Table, conds: list[Cond]) -> tuple[str, str] | None:
    """A "Total" row of the table (not one the question itself asks about)."""
    asked = {c.value for c in conds}
    for key in (("total",), ("totals",)):
        for column, label in table.cells.get(key, []):
            if label not in asked:
                return column, label
    return None


_FREQUENCY_WORDS = word_set("frequency_words")
_FIRST, _LAST = words("order_words")
_ORDER_NOUNS = word_set("order_nouns")


def _order_word(q: list[str], covered: set[int]) -> str:
    """"min" for a free-standing *first*, "max" for *last* (the table's row order), else "".

    >>> _order_word(tokens("who won the first championship?"), set())
    'min'
    >>> _order_word(tokens("what is his last name?"), set()), _order_word(["first", "5"], set())
    ('', '')
    """
    for i, word in enumerate(q):
        if word not in (_FIRST, _LAST) or i in covered:
            continue
        nxt = q[i + 1] if i + 1 < len(q) else ""
        if nxt in _ORDER_NOUNS or nxt.isdigit() or nxt in number_words():
            continue
        return "min" if word == _FIRST else "max"
    return ""


def _ranking(q: list[str], mentions: dict[str, tuple[float, int, int]], conds: list[Cond],
             table: Table, select: str | None, agg: str) -> tuple[str, str] | None:
    """Does the question ask *which row* ranks first rather than for the extreme value?

    ``which nation won the most silver medals`` -> ("extreme", "Silver"): the asked-for column
    (Nation) is named where the question word points, and another, numeric, column is named.
    ``which nation has the most athletes`` (no such column) -> ("frequent", "Nation").
    """
    if agg not in ("max", "min") or select is None:
        return None
    if not _asks_for(q, select, mentions, who_needs_people=False):
        return None
    cond_cols = {c.column for c in conds}
    at = mentions.get(select)
    after = _after_superlative(q)
    compared = [c for c, m in mentions.items() if c != select and c not in cond_cols
                and column_kind(table, c) and (m[0] >= 0.5 or m[1] in after)
                and (at is None or m[2] <= at[1] or m[1] >= at[2])]  # not inside its name
    if compared:
        return "extreme", max(compared, key=lambda c: (mentions[c][0], -mentions[c][1]))
    if _FREQUENCY_WORDS & set(q) and (not table.numeric.get(select) or (
            table.repeated.get(select) and at is not None and at[1] == _focus(q))):
        return "frequent", select  # "which year had the most films?": years repeat
    return None


_SUPERLATIVES = frozenset(cue for cue, agg in _AGG_CUES if agg in ("max", "min")
                          and " " not in cue)
_SUPERLATIVE_FILLERS = frozenset({"the", "number", "of", "amount", "total"})


def _after_superlative(q: list[str]) -> set[int]:
    """Positions of the word a superlative is about (*the least density* -> *density*), even
    when it names a column only partly (``Density (/km²)``; *at least* is no superlative).

    >>> sorted(_after_superlative(tokens("which city has the least amount of density?")))
    [7]
    """
    out = set()
    for i, w in enumerate(q):
        if w in _SUPERLATIVES and not _bound_word(q, i):
            j = i + 1
            while j < len(q) and q[j] in _SUPERLATIVE_FILLERS:
                j += 1
            out.add(j)
    return out


def _years(span: tuple[float, float] | None) -> bool:
    """A column of years ("how many years ..." counts them, it does not read one)."""
    return span is not None and span[0] >= 1000 and span[1] <= 2100


def _aggregate(q: list[str]) -> str:
    """The aggregate of the first cue in the question (``the highest number of`` -> max,
    ``how many ... highest`` -> count); at one position the longer cue wins."""
    text = " " + " ".join(q) + " "
    found = [(text.find(f" {cue} "), -len(cue), agg) for cue, agg in _AGG_CUES
             if f" {cue} " in text]
    return min(found)[2] if found else ""


_WH_HINTS = {wh: word_set(f"{wh}_columns") for wh in ("who", "when", "where")}
_WH_VERBS = word_map("wh_verbs")


def _free(s: LinkState) -> dict[str, tuple[float, int, int]]:
    """Column-name mentions of columns no condition uses (a negated one may be asked for:
    *what other partner did he have besides X?*)."""
    used = {c.column for c in s.conds if not c.negated}
    return {c: m for c, m in s.mentions.items() if c not in used}


def _rest(s: LinkState) -> list[str]:
    """Columns no condition uses (but a negated one), in table order."""
    used = {c.column for c in s.conds if not c.negated}
    return [c for c in s.table.columns if c not in used]


def _select_named_at_focus(s: LinkState) -> str | None:
    """A free column named where the question word points (what school ...)."""
    free = _free(s)
    focus, written = _focus(s.q), _focus(s.q, skip_modifiers=False)  # a modifier may name one
    at_focus = {c: m for c, m in free.items() if m[1] == written} or {
        c: m for c, m in free.items() if m[1] == focus}
    return max(at_focus, key=lambda c: at_focus[c][0]) if at_focus else None


def _select_focus_synonym(s: LinkState) -> str | None:
    """A free column whose name holds a synonym of the word asked for (country -> Nation)."""
    focus = _focus(s.q)
    if not (0 <= focus < len(s.q) and s.q[focus] in _FOCUS_SYNONYMS):
        return None
    same = _FOCUS_SYNONYMS[s.q[focus]]
    named = [c for c in _rest(s) if same & set(tokens(c))]
    return named[0] if named else None


def _select_named_in_full(s: LinkState) -> str | None:
    """A free column named in full anywhere (one not made of cue words only preferred)."""
    full = {c: m for c, m in _free(s).items() if m[0] >= 1.0}
    if not full:
        return None
    plain = {c: m for c, m in full.items() if not set(tokens(c)) <= _CUE_WORDS}
    full = plain or full
    return max(full, key=lambda c: (full[c][0], -full[c][1]))


def _select_time_asked(s: LinkState) -> str | None:
    """"how long did it take X ...?", "what was X's time?": the column of times (named,
    else *Total* / *Time*, else the only one), when the table has one."""
    if not s.table.durations or TIME_ASKED.search(" ".join(s.q)) is None:
        return None
    return _time_column(s.table, {c.column for c in s.conds}, s.mentions)


def _select_wh_column(s: LinkState) -> str | None:
    """A free column fitting the question's verb or its who / when / where."""
    return _wh_column(s.q, _rest(s))


def _select_named_partly(s: LinkState) -> str | None:
    """The free column named best, if only partly."""
    free = _free(s)
    return max(free, key=lambda c: (free[c][0], -free[c][1])) if free else None


def _select_first_column(s: LinkState) -> str | None:
    """The first free column (of text, for *who* / *which* questions: they ask for the rows'
    names, not a rank or a number), else the table's first column."""
    rest = _rest(s)
    if s.q and s.q[0] in ("who", "which"):
        text = [c for c in rest if not s.table.numeric.get(c) and c not in s.table.durations]
        rest = text or rest
    return rest[0] if rest else (s.table.columns[0] if s.table.columns else None)


#: how the selected column is chosen: the first rule that finds one wins
SELECT_RULES: tuple[tuple[str, str, Callable[[LinkState], str | None]], ...] = tuple(
    (f.__name__.removeprefix("_select_"), " ".join((f.__doc__ or "").split()), f) for f in (
        _select_named_at_focus, _select_focus_synonym, _select_named_in_full,
        _select_time_asked, _select_wh_column, _select_named_partly, _select_first_column))


#: the word a question asks for -> column-name words meaning the same thing
_FOCUS_SYNONYMS = {word: set(same.split()) for word, same in pairs("focus_synonyms")}

_CUE_WORDS = word_set("aggregate_column_words")


def _hinted(column: str, hints: frozenset[str]) -> bool:
    words = set(tokens(column))
    return bool(hints & (words | {stem(w) for w in words}))


_SKIP = word_set("focus_skip")
_MODIFIERS = word_set("focus_modifiers")
_FOCUS_WORDS = words("focus_words")


def _focus(q: list[str], skip_modifiers: bool = True) -> int:
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


def _wh_column(q: list[str], columns: Sequence[str]) -> str | None:
    words = set(q)
    verbs = {_WH_VERBS[w] for w in words if w in _WH_VERBS}
    for col in columns:
        if verbs & set(tokens(col)):
            return col
    for wh in ("who", "when", "where"):
        if wh in words:
            hints = _WH_HINTS[wh]
            for col in columns:
                if _hinted(col, hints):
                    return col
    return None
