"""Schema linking for tables, the offline writer's heuristic: question words -> a table program.

Cell values found in the question become conditions (``get_information(relation=<column>,
tail_entity='<cell>')``), comparison cues (``more than 12 wins``) become ``>``/``<``
conditions, the column the question asks about becomes the selected column, and cue words
(``how many``, ``average``, ``highest``...) the aggregate. No network, no model.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Player,No.,School\\nAnn Lee,21,Duke\\nBo Ray,3,Iowa\\n"])
>>> plan = link_table("What school did player number 21 play for?", g)
>>> plan.select, plan.agg, [(c.column, c.cmp, c.value) for c in plan.conds]
('School', '', [('No.', '=', '21')])
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..graph import ConditionGraph
from ..numbers import parse_number
from .wikisql import program_text

__all__ = ["Cond", "TablePlan", "link_table", "plan_program", "tokens"]

_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W_]+", re.UNICODE)
_STOP = {"the", "a", "an", "of", "for", "in", "on", "at", "to", "is", "was", "and", "or", "s",
         "by", "with", "what", "which", "who", "when", "where", "how", "name", "did", "does",
         "do", "are", "were", "has", "have", "had", "that", "as", "be", "being", "it", "its"}
_SYNONYMS = {"no": "number", "num": "number", "nos": "number", "pos": "position",
             "pts": "points", "yr": "year", "yrs": "years", "pct": "percentage",
             "avg": "average", "pop": "population", "apps": "appearances", "gp": "games"}
_GT = ("more recent than", "newer than", "since",
       "greater than", "more than", "larger than", "higher than", "bigger than", "over",
       "above", "later than", "after", "exceeds", "exceeding", "at least", "greater",
       "more", "larger", "higher", "bigger", "later")
_LT = ("less than", "fewer than", "smaller than", "lower than", "below", "under",
       "earlier than", "before", "prior to", "older than", "at most", "less", "fewer",
       "smaller", "lower", "earlier", "lesser than", "lesser")
_TIME_CUES = {"after", "later", "later than", "before", "earlier", "earlier than",
              "more recent than", "older than", "newer than", "since", "prior to"}
_AGG_CUES: tuple[tuple[str, str], ...] = (
    ("most recent", "max"), ("average", "mean"), ("mean", "mean"),
    ("how many", "count"), ("number of", "count"), ("total number", "count"), ("count", "count"),
    ("highest", "max"), ("largest", "max"), ("maximum", "max"), ("greatest", "max"),
    ("most", "max"), ("biggest", "max"), ("top", "max"), ("latest", "max"), ("max", "max"),
    ("lowest", "min"), ("smallest", "min"), ("minimum", "min"), ("least", "min"),
    ("fewest", "min"), ("earliest", "min"), ("min", "min"),
    ("sum", "sum"), ("total", "sum"),
)


def tokens(text: str) -> list[str]:
    """Lower-case word and number tokens (accents stripped, ``no.`` -> ``number``).

    >>> tokens("Owner(s) (2009), No. 1,000 Élan")
    ['owner', 's', '2009', 'number', '1,000', 'elan']
    """
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    out = [_SYNONYMS.get(t, t) for t in _TOKEN.findall(text.replace("#", " number "))]
    return out


def _stem(word: str) -> str:
    """A crude stem: plural ``s``, ``es``, ``ed``, ``ing`` and a final ``e`` removed."""
    for suffix in ("ing", "ed", "es", "s", "e"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


@dataclass(frozen=True)
class Cond:
    """One condition: ``column <cmp> value`` found at question tokens ``span``."""

    column: str
    cmp: str
    value: str
    span: tuple[int, int]


@dataclass
class TablePlan:
    """What the linker understood, with the reasons (shown as the writer's explanation)."""

    select: str | None
    agg: str
    conds: list[Cond]
    source: str
    why: list[str] = field(default_factory=list)

    def explain(self) -> str:
        return "; ".join(self.why)


@dataclass
class _Table:
    name: str
    columns: list[str]
    cells: dict[tuple[str, ...], list[tuple[str, str]]]  # token tuple -> [(column, cell label)]
    numeric: dict[str, bool]
    max_len: int
    ranges: dict[str, tuple[float, float]]


def _table(graph: ConditionGraph, index: int) -> _Table:
    source = graph.sources[index]
    cells: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    numeric: dict[str, bool] = {}
    ranges: dict[str, tuple[float, float]] = {}
    longest = 1
    for col in source.columns:
        rel = graph.relation(col)
        if rel is None:
            continue
        labels = [graph.label(t) for t in graph.relation_tails(rel)]
        numeric[col] = bool(labels) and sum(parse_number(x) is not None for x in labels) >= (
            0.5 * len(labels))
        values = [v for v in (parse_number(x) for x in labels) if v is not None]
        if numeric[col] and values:
            ranges[col] = (min(values), max(values))
        for label in labels:
            key = tuple(tokens(label))
            if key and len(key) <= 12:
                cells.setdefault(key, []).append((col, label))
                longest = max(longest, len(key))
    return _Table(source.name, list(source.columns), cells, numeric, longest, ranges)


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


def _header_mentions(q: list[str], columns: Sequence[str]) -> dict[str, tuple[float, int, int]]:
    """column -> (score, start, end) of its best mention in the question tokens.

    The score is the share of the column name's content words found as one run of question
    words, plus a small bonus per word so that longer names win ties.
    """
    stems = [_stem(t) for t in q]
    found: dict[str, tuple[float, int, int]] = {}
    for col in columns:
        words = [_stem(t) for t in tokens(col)]
        content = [w for w in words if w not in _STOP] or words
        if not content:
            continue
        best = (0.0, -1, -1)
        for n in range(len(words), 0, -1):
            for i in range(len(words) - n + 1):
                part = words[i:i + n]
                if all(w in _STOP for w in part):
                    continue
                for j in range(len(stems) - n + 1):
                    if all(_same(a, b) for a, b in zip(stems[j:j + n], part, strict=True)):
                        hits = sum(w not in _STOP for w in part)
                        score = min(hits / len(content), 1.0) + 0.01 * hits
                        if score > best[0]:
                            best = (score, j, j + n)
            if best[0] >= 1.0:
                break
        if best[0] < 1.0 and len(content) > 1:
            best = max(best, _scattered(stems, content))
        if best[0] > 0:
            found[col] = best
    return found


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


def _values(q: list[str], table: _Table, blocked: set[int],
            mentions: dict[str, tuple[float, int, int]]) -> list[Cond]:
    """Cell values occurring in the question, longest first, without overlaps.

    A value lying wholly inside a full mention of a column name is taken as that name, not as
    a value. When several columns hold the value, the column named closest to it wins.
    """
    headers = [(m[1], m[2]) for m in mentions.values() if m[0] >= 1.0]
    hits: list[tuple[int, int, list[tuple[str, str]]]] = []
    for n in range(min(table.max_len, len(q)), 0, -1):
        for i in range(len(q) - n + 1):
            key = tuple(q[i:i + n])
            if key not in table.cells or blocked & set(range(i, i + n)):
                continue
            if (n == 1 and key[0] in _STOP) or any(a <= i and i + n <= b for a, b in headers):
                continue
            hits.append((i, i + n, table.cells[key]))
    taken: set[int] = set()
    conds = []
    for start, end, options in hits:
        if taken & set(range(start, end)):
            continue
        taken |= set(range(start, end))
        col, label = min(options, key=lambda o: _distance((start, end), mentions.get(o[0])))
        conds.append(Cond(col, "=", label, (start, end)))
    return conds


def _distance(span: tuple[int, int], mention: tuple[float, int, int] | None) -> int:
    """Tokens between a value and a column-name mention (99 when not mentioned); partial
    mentions count as farther."""
    if mention is None:
        return 99
    score, a, b = mention
    gap = max(span[0] - b, a - span[1], 0) if b <= span[0] or a >= span[1] else 50
    return gap + round(10 * (1 - score))


def _comparisons(q: list[str], text: str) -> list[tuple[str, float, int, int]]:
    """(cmp, number, token position of the number, position of the cue) for cues like
    ``more than 12``."""
    out = []
    for i, tok in enumerate(q):
        if parse_number(tok) is None:
            continue
        before = " " + " ".join(q[max(0, i - 3):i])
        for cues, cmp in ((_GT, ">"), (_LT, "<")):
            cue = next((c for c in cues if before.endswith(" " + c)), None)
            if cue is not None:
                out.append((cmp, parse_number(tok) or 0.0, i, i - len(cue.split())))
                break
    return out


def link_table(question: str, graph: ConditionGraph, source: int | None = None) -> TablePlan:
    """The best plan over the graph's table sources (or the given one)."""
    indices = [source] if source is not None else [
        i for i, s in enumerate(graph.sources) if s.kind == "table"]
    plans = [_link_one(question, graph, i) for i in indices]
    if not plans:
        return TablePlan(None, "", [], "", ["no table among the sources"])
    return max(plans, key=lambda p: (len(p.conds), p.select is not None))


def _link_one(question: str, graph: ConditionGraph, index: int) -> TablePlan:
    table = _table(graph, index)
    q = tokens(question)
    mentions = _header_mentions(q, table.columns)
    comps = _comparisons(q, question)
    conds: list[Cond] = []
    used_mentions: set[str] = set()
    for cmp, number, pos, cue in comps:
        col = _comparison_column(pos, cue, mentions, table)
        if col is None:
            col = _comparison_fallback(number, " ".join(q[cue:pos]), table, mentions)
        if col is not None:
            conds.append(Cond(col, cmp, q[pos], (pos, pos + 1)))
            used_mentions.add(col)
    blocked = {c.span[0] for c in conds}
    for c in _values(q, table, blocked, mentions):
        conds.append(c)
    covered = {i for c in conds for i in range(*c.span)}
    covered |= {i for m in mentions.values() if m[0] >= 1.0 for i in range(m[1], m[2])}
    agg = _aggregate([t if i not in covered else "_" for i, t in enumerate(q)])
    select = _select(q, mentions, conds, table, agg)
    why = [f"table {table.name}"]
    why += [f"condition {c.column} {c.cmp} {c.value!r} (question words {c.span[0]}-{c.span[1]})"
            for c in conds]
    why.append(f"selected column {select!r}" + (f", aggregate {agg}" if agg else ""))
    return TablePlan(select, agg, conds, table.name, why)


def _comparison_column(pos: int, cue: int, mentions: dict[str, tuple[float, int, int]],
                       table: _Table) -> str | None:
    """The numeric column named just before the cue (``grid less than 14``) or just after the
    number (``more than 12 wins``)."""
    best, dist = None, 99.0
    for col, (_, start, end) in mentions.items():
        if not table.numeric.get(col):
            continue
        d: float
        if end <= cue:
            d = cue - end
        elif start > pos:
            d = start - pos - 1 + 0.5
        else:
            continue
        if d < dist:
            best, dist = col, d
    return best if dist <= 4 else None


def _comparison_fallback(number: float, cue: str, table: _Table,
                         mentions: dict[str, tuple[float, int, int]]) -> str | None:
    """No column named near the cue: a year column for time cues, else the only numeric
    column not mentioned elsewhere whose values span the number."""
    if cue in _TIME_CUES and 1000 <= number <= 2100:
        years = [c for c in table.columns if table.numeric.get(c) and _stem("year") in
                 [_stem(t) for t in tokens(c)]]
        if years:
            return years[0]
    fits = [c for c, (lo, hi) in table.ranges.items() if lo <= number <= hi and c not in mentions]
    return fits[0] if len(fits) == 1 else None


def _aggregate(q: list[str]) -> str:
    text = " " + " ".join(q) + " "
    for cue, agg in _AGG_CUES:
        if f" {cue} " in text:
            return agg
    return ""


_WH_HINTS = {
    "who": {"name", "player", "driver", "winner", "written", "writer", "directed", "director",
            "artist", "candidate", "incumbent", "athlete", "coach", "person", "manager",
            "captain", "actor", "author", "rider", "opponent", "partner", "champion", "leader",
            "composer", "singer", "presenter", "host", "team", "club", "pilot", "owner"},
    "when": {"date", "year", "season", "air", "aired", "airdate", "from", "time", "born",
             "founded", "opened", "premiere", "released", "release", "week"},
    "where": {"venue", "location", "city", "site", "place", "country", "stadium", "state",
              "town", "arena", "ground", "hometown", "circuit", "track"},
}
_WH_VERBS = {"wrote": "written", "write": "written", "directed": "directed",
             "direct": "directed", "born": "born", "aired": "air", "air": "air"}


def _select(q: list[str], mentions: dict[str, tuple[float, int, int]], conds: list[Cond],
            table: _Table, agg: str) -> str | None:
    """The column asked for: a named column not used by a condition, else a column fitting
    the question word (who / when / where), else the first free column."""
    cond_cols = {c.column for c in conds}
    free = {c: m for c, m in mentions.items() if c not in cond_cols}
    focus = _focus(q)
    at_focus = {c: m for c, m in free.items() if m[1] == focus}
    if at_focus:
        return max(at_focus, key=lambda c: at_focus[c][0])
    full = {c: m for c, m in free.items() if m[0] >= 1.0}
    rest = [c for c in table.columns if c not in cond_cols]
    if full:
        plain = {c: m for c, m in full.items() if not set(tokens(c)) <= _CUE_WORDS}
        full = plain or full
        return max(full, key=lambda c: (full[c][0], -full[c][1]))
    hinted = _wh_column(q, rest)
    if hinted is not None:
        return hinted
    if free:
        return max(free, key=lambda c: (free[c][0], -free[c][1]))
    return rest[0] if rest else (table.columns[0] if table.columns else None)


_CUE_WORDS = {"total", "average", "number", "count", "sum", "max", "min", "highest", "lowest",
              "maximum", "minimum", "mean", "amount"}


def _hinted(column: str, hints: set[str]) -> bool:
    words = set(tokens(column))
    return bool(hints & (words | {_stem(w) for w in words}))


_SKIP = {"is", "was", "are", "were", "the", "a", "an", "s", "did", "does", "do", "has", "have",
         "had", "of", "me", "all", "tell", "name", "list", "give", "show"}


def _focus(q: list[str]) -> int:
    """Position of the word the question asks for (``what school ...`` -> ``school``)."""
    for i, w in enumerate(q[:3]):
        if w in ("what", "which", "name", "list", "tell", "give", "show"):
            j = i + 1
            while j < len(q) and q[j] in _SKIP:
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


def plan_program(plan: TablePlan) -> str | None:
    """The query program of a plan (None without a selected column)."""
    if plan.select is None:
        return None
    steps: list[tuple[str, str]] = []
    for c in plan.conds:
        value = c.value.replace("\n", " ")
        steps.append((f"Find the rows whose {c.column} {c.cmp} {value}",
                      f"get_information(relation='{c.column}', tail_entity{c.cmp}'{value}')"))
    if len(steps) > 1:
        refs = ", ".join(f"set{i}='output_of_query{i}'" for i in range(1, len(steps) + 1))
        steps.append(("Keep the rows found by every condition", f"set_intersection({refs})"))
    sel, rows = plan.select, len(steps)
    if plan.agg == "count" and rows:
        steps.append((f"Count output_of_query{rows}", f"count(set='output_of_query{rows}')"))
        return program_text(f"number of {sel}", steps)
    read = (f"get_information(relation='{sel}', head_entity='output_of_query{rows}')" if rows
            else f"get_information(relation='{sel}')")
    steps.append((f"Get the {sel} of the rows" if rows else f"Get every {sel}", read))
    if plan.agg:
        last = len(steps)
        steps.append((f"Apply {plan.agg} to output_of_query{last}",
                      f"{plan.agg}(set='output_of_query{last}')"))
    return program_text(sel, steps)
