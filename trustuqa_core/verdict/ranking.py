"""Superlatives and rankings: which column a ranking reads, whether the question's
superlative explains it, an extreme taken from a bound, a ranking read backwards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..lexicon import word_set
from ..mentions import (
    selection_cues,
)
from ..query.ast import Arg, Bound, Program, Text
from ..text import normalize
from ..trace import Trace
from ..verdict_record import Reason
from .reading import YEAR, YEAR_VALUE, relation_text, step_texts

_SUPERLATIVES = word_set("superlative_max") | word_set("superlative_min")
#: superlatives whose direction depends on the column ranked (the least time is the fastest,
#: the least year the oldest, the least rank the best): a ranking either way explains them
_RELATIVE_SUPERLATIVES = ("fastest", "quickest", "slowest", "oldest", "newest", "youngest",
                          "best", "worst", "top")
#: superlatives of age or time: a ranking explains them only over years, dates or ages
_AGE_SUPERLATIVES = frozenset({"oldest", "newest", "youngest"})
_AGE_COLUMN = re.compile(r"\b(?:age|born|birth|year|years|date|founded|established|opened|"
                         r"built|released|since|season)\b", re.IGNORECASE)


def ranking_explains(trace: Trace) -> list[str]:
    """The relative superlatives a ranking of ``trace`` explains: all of them, except that
    *oldest* / *newest* / *youngest* need a ranked column of years, dates or ages (*the
    oldest film* is not the film ranked first).

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Rank,Film,Year\\n1,Up,1990\\n2,Jaws,1975\\n"])
    >>> q = "Query1: \\"get_information(relation='{}', tail_entity<='lowest')\\""
    >>> "oldest" in ranking_explains(run_query(q.format("Rank"), g))
    False
    >>> "oldest" in ranking_explains(run_query(q.format("Year"), g))
    True
    """
    columns = _ranked_columns(trace)
    timed = any(_AGE_COLUMN.search(name) or _mostly_years(values) for name, values in columns)
    return [w for w in _RELATIVE_SUPERLATIVES if timed or w not in _AGE_SUPERLATIVES]


def _ranked_columns(trace: Trace) -> list[tuple[str, list[str]]]:
    """(name, values) of each column the program ranks (a comparison with a superlative)."""
    out: list[tuple[str, list[str]]] = []
    for q in trace.program.queries if trace.program is not None else ():
        if not any(_superlative_of(a) for a in q.call.args):
            continue
        rel = _read_relation(trace, q.number)
        if rel is not None:
            out.append((trace.graph.relation_names[rel], _relation_values(trace, rel)))
    return out


def _superlative_of(a: Arg) -> str | None:
    """The superlative word ``a`` compares with (``tail_entity<='lowest'`` -> ``lowest``)."""
    word = a.value.text if isinstance(a.value, Bound) else (
        a.value.value if isinstance(a.value, Text) else "")
    word = word.strip().lower()
    return word if a.cmp != "=" and word in _SUPERLATIVES else None


def _read_relation(trace: Trace, step: int) -> int | None:
    """The one relation step ``step`` was mapped to read (None: none, or several)."""
    found = next((s for s in trace.steps if s.number == step), None)
    rels = [i for m in (found.mappings if found else ()) if m.arg == "relation" for i in m.ids]
    return rels[0] if len(rels) == 1 else None


def _relation_values(trace: Trace, rel: int) -> list[str]:
    """Every value of relation (column) ``rel``, as text."""
    return list(trace.graph.labels(trace.graph.tails_of(trace.graph.facts_rel(rel))))


def _mostly_years(values: Sequence[str]) -> bool:
    """Most values hold a year (``1933``, ``March 3, 1933``)."""
    return bool(values) and 2 * sum(bool(YEAR.search(v)) for v in values) > len(values)


def ranks(program: Program | None) -> bool:
    """The program picks the rows with the highest / lowest value of a column (a comparison
    against a superlative, ``tail_entity<='lowest'``).

    >>> from trustuqa_core.query.parse import parse
    >>> ranks(parse("Query1: \\"get_information(relation='Run 1', tail_entity<='lowest')\\""))
    True
    """
    return any(_superlative_of(a) for q in (program.queries if program is not None else ())
               for a in q.call.args)


#: "at least 3", "at most 5": the superlative inside a bound is no request to pick one row
_BOUND_PHRASE = re.compile(r"\bat\s+(?:least|most)\b|\bno\s+(?:more|less|fewer)\b",
                           re.IGNORECASE)
_RANK_WORDS = _SUPERLATIVES | {"most", "least"}
_SUPERLATIVE_MAX = word_set("superlative_max")


def _rankings(trace: Trace) -> list[tuple[int, str, str, list[str]]]:
    """Every place the program picks an extreme: ``(step, "max" | "min", column, values
    ranked)`` for a ``max`` / ``min`` / ``argmax`` / ``argmin`` step (the values of the step
    it reads, and the column that step reads) and for a comparison with a superlative word
    (``tail_entity<='lowest'``: the column's values).

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Name,Run\\nAnn,62.5\\nBea,61.9\\n"])
    >>> t = run_query("Query1: \\"get_information(relation='Run', tail_entity<='lowest')\\"", g)
    >>> _rankings(t)
    [(1, 'min', 'Run', ['62.5', '61.9'])]
    """
    program = trace.program
    out: list[tuple[int, str, str, list[str]]] = []
    if program is None:
        return out
    by_number = {q.number: q for q in program.queries}
    for q in program.queries:
        func = q.call.func
        if func in ("max", "min", "argmax", "argmin") and q.call.refs():
            ref = q.call.refs()[0]
            out.append((q.number, "max" if func in ("max", "argmax") else "min",
                        relation_text(by_number.get(ref)), step_texts(trace, ref)))
            continue
        for a in q.call.args:
            word = _superlative_of(a)
            if word is None:
                continue
            way = "max" if word in _SUPERLATIVE_MAX else "min"
            rel = _read_relation(trace, q.number)
            values = _relation_values(trace, rel) if rel is not None else []
            out.append((q.number, way, relation_text(q), values))
    return out


def extreme_from_bound(trace: Trace, question: str) -> list[Reason]:
    """The query picks a largest / smallest value although the question's only superlative
    is part of a bound ("which years were the totals **at least** 600,000?" answered by the
    earliest such year): the question asks for every row within the bound."""
    if _BOUND_PHRASE.search(question) is None:
        return []
    rest = _BOUND_PHRASE.sub(" ", question)
    if selection_cues(rest) or any(w in _RANK_WORDS for w in normalize(rest).split()):
        return []
    picks = [p for p in _rankings(trace) if len(set(p[3])) > 1]  # one value: no pick made
    if not picks:
        return []
    step, way, _, _ = picks[0]
    return [Reason("extreme_from_bound", f"Query{step} takes the {way} value, and the "
                   "question's only superlative is part of a bound (at least / at most): it "
                   "asks for every row within the bound, not for the extreme one", step)]


#: superlatives of speed and age whose direction is fixed by what the ranked values are
_FAST = {"fastest", "quickest"}
_SLOW = {"slowest"}
_WANTS_SMALL_YEAR = {"oldest"}
_WANTS_LARGE_YEAR = {"youngest", "newest"}
#: a column of speeds (the fastest is the largest), not of times or places
_SPEED = re.compile(r"speed|velocity|km/h|kph|mph|knots?\b|m/s\b", re.IGNORECASE)


def ranked_backwards(trace: Trace, question: str) -> list[Reason]:
    """A superlative whose direction the ranked column fixes, ranked the other way: the
    *fastest* by the largest time or place (any column but a speed: "which athlete had the
    fastest run?" answered by the highest Run 1), the *slowest* by the smallest, the *oldest*
    by the latest year, the *youngest* / *newest* by the earliest."""
    words = set(normalize(question).split())
    for step, way, column, values in _rankings(trace):
        if not values:
            continue
        speed = _SPEED.search(column) is not None or sum(
            _SPEED.search(v) is not None for v in values) * 2 > len(values)
        years = sum(YEAR_VALUE.match(v) is not None for v in values) * 2 > len(values)
        small = (_FAST if not speed else _SLOW) | (_WANTS_SMALL_YEAR if years else set())
        large = (_SLOW if not speed else _FAST) | (_WANTS_LARGE_YEAR if years else set())
        wrong = sorted(words & (small if way == "max" else large))
        if wrong:
            return [Reason("ranked_backwards", f"the question asks for the {wrong[0]}, and "
                           f"Query{step} takes the {way} of {column or 'the values'}: the "
                           "other end", step, wrong[0])]
    return []
