"""Reasons from the query's shape against the question: several rows for one asked, a list
held in one cell, counts of a quantity or of a named value, a neighbour read in another
column, row order standing in for time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..mentions import (
    CUES,
    names_any,
)
from ..numbers import parse_number, parse_quantity
from ..query.ast import Program, Query, Ref, Text
from ..results import Scalar
from ..store import GraphStore
from ..text import normalize
from ..trace import Trace
from ..translate.table import ROW_NUMBER
from ..verdict_record import Reason
from .reading import (
    ASKS_COUNT,
    COUNTED,
    LIST_SPLIT,
    NEIGHBOURS,
    TIME_HEADER,
    YEAR,
    YES_NO_ANSWERS,
    clip,
    identifies_rows,
    literals,
    names_column,
    offers_choice,
    relation_text,
    step_texts,
)

_YES_NO = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had)\b", re.IGNORECASE)
_SAME = re.compile(r"\bsame\b", re.IGNORECASE)
_EXTREMES = {"max", "min"}


def _rows_without_value(trace: Trace, read: Query | None) -> int:
    """How many rows ``read`` (``get_information(relation=C, head_entity=REF)``) was asked
    for that have no C value at all (a blank cell): a max / min over the values it gives
    silently leaves those rows out ("who finished higher, A or B?" when A's rank is blank)."""
    if read is None or read.call.func != "get_information":
        return 0
    head = read.call.arg("head_entity")
    if head is None or not isinstance(head.value, Ref):
        return 0
    step = next((s for s in trace.steps if s.number == read.number), None)
    rows_step = next((s for s in trace.steps if s.number == head.value.step), None)
    if step is None or rows_step is None:
        return 0
    rel_ids = [i for m in step.mappings if m.arg == "relation" for i in m.ids]
    if len(rel_ids) != 1:
        return 0
    graph = trace.graph
    rows = [e for e in rows_step.output.elems if not isinstance(e, Scalar) and graph.is_row(e)]
    return sum(len(graph.facts_head_rel(r, rel_ids[0])) == 0 for r in rows)


def shape_reasons(trace: Trace, question: str, answer: Sequence[str],
                   loose: Sequence[str]) -> list[Reason]:
    """What the shape of the query or of the answer says it does not answer: a header read
    as a value, a choice answered by neither option, a count of one row, the same-as
    question with no join, a pick by row order or by alphabetical order, a cell of several
    values."""
    out: list[Reason] = []
    program = trace.program
    if program is None or not program.queries:
        return out
    last = program.queries[-1]
    step = trace.target_step.number if trace.target_step else None
    headers = {normalize(r) for r in trace.graph.relation_names}
    cells = trace.final is not None and not any(isinstance(e, Scalar)
                                                for e in trace.final.elems)
    if cells and all(normalize(a) in headers for a in answer):  # a computed 'no' is no header
        out.append(Reason("header_answer", f"the answer ({clip(', '.join(answer), 40)}) is "
                          "the name of a column, not a value of it", step))
    asked = f" {normalize(question)} "
    in_question = any(f" {normalize(a)} " in asked for a in answer if normalize(a))
    yes_no = {normalize(a) for a in answer} <= YES_NO_ANSWERS
    choice = offers_choice(question, literals(program, trace.mapped.mappings
                                               if trace.mapped else ()))
    if (choice and not in_question and not yes_no) or (
            _YES_NO.match(question) and not choice and not yes_no):
        out.append(Reason("choice_unanswered", "the question asks to choose ("
                          + ("between the options it names" if choice else "yes or no")
                          + f"), and the answer ({clip(', '.join(answer), 40)}) is none of "
                          "them", step))
    if last.call.func == "count" and ASKS_COUNT.search(question):
        if len(answer) == 1 and answer[0] in ("0", "1"):
            out.append(Reason("count_of_one", f"Query{last.number} counts {answer[0]} row"
                              f"{'' if answer[0] == '1' else 's'}: check that its conditions "
                              "are what the question counts", last.number))
        if loose:
            out.append(Reason("count_words_unexplained", f"Query{last.number} counts rows, "
                              "and " + ", ".join(repr(w) for w in loose) + " is in none of "
                              "its conditions: the count may miss one", last.number))
    joins = any(isinstance(a.value, Ref) and a.name == "tail_entity"
                for q in program.queries for a in q.call.args)
    tables_only = bool(trace.graph.sources) and all(x.kind == "table"
                                                    for x in trace.graph.sources)
    if _SAME.search(question) and not joins and tables_only:  # a KG joins by its hops
        out.append(Reason("same_unlinked", "the question asks for what has the same value as "
                          "a named row, and no step looks rows up by a value another step read",
                          step))
    for q in program.queries:
        if q.call.func not in _EXTREMES:
            continue
        refs = q.call.refs()
        source = next((p for p in program.queries if refs and p.number == refs[0]), None)
        relation = source.call.arg("relation") if source is not None else None
        if relation is not None and isinstance(relation.value, Text) \
                and relation.value.value == "row_number":
            which = "last" if q.call.func == "max" else "first"
            out.append(Reason("row_order", f"Query{q.number} takes the {which} "
                              "row in the table's order: check that the table is ordered as the "
                              "question means (by date, by rank ...)", q.number))
            continue
        missing = _rows_without_value(trace, source)
        if missing:
            out.append(Reason("extreme_missing", f"Query{q.number} takes the {q.call.func} "
                              f"of output_of_query{refs[0]}, and {missing} of the rows it "
                              f"compares {'has' if missing == 1 else 'have'} no value there: "
                              "left out of the comparison", q.number))
        values = step_texts(trace, refs[0]) if refs else []
        if values and sum(parse_number(v) is None and parse_quantity(v) is None
                          for v in values) * 2 > len(values):
            out.append(Reason("text_extreme", f"Query{q.number} takes the {q.call.func} of "
                              "values most of which are not numbers (nor dates, times or "
                              "numbers with a unit)",
                              q.number))
            if _ASKS_NUMBER.search(question) and all(parse_number(a) is None for a in answer):
                out.append(Reason("extreme_not_number", f"the question asks for a number, and "
                                  f"Query{q.number} takes the {q.call.func} of text: the "
                                  f"answer ({clip(', '.join(answer), 40)}) is no number",
                                  q.number))
    excluding = [w for w in loose if w in CUES.get("set_difference", frozenset())]
    if excluding:
        out.append(Reason("unexplained_negation", f"the question says {excluding[0]!r}, and no "
                          "step of the query leaves rows out to account for it", None,
                          excluding[0]))
    out += unused_columns(trace, loose)
    listed = _list_conditions(trace)
    out += listed
    out += _list_condition_aggregate(program, listed)
    out += _count_of_quantity(trace, question, last)
    out += _count_of_named_value(trace, question, last, answer)
    out += _neighbour_other_column(program)
    out += _row_order_vs_time(trace, program, question)
    if any("\n" in a or "\\n" in a for a in answer):
        out.append(Reason("several_in_cell", "the answer is one cell holding several values on "
                          "separate lines: check which the question asks for", step))
    return out


def unused_columns(trace: Trace, loose: Sequence[str]) -> list[Reason]:
    """Unexplained question words that name a column the query does not use ("who was
    their opponent?" read from 'Player' while the table has 'Opponent'): the word, or its
    singular, is a whole word of the column's name ("maps" names 'Maps', "signed" names
    'Date signed'; "play" does not name 'Player'). The added ``row_number`` is no column."""
    used = {normalize(x) for m in (trace.mapped.mappings if trace.mapped else ())
            for x in m.labels}
    for word in loose:
        forms = {word, _singular(word)}
        named = next((r for r in trace.graph.relation_names
                      if r != ROW_NUMBER and normalize(r) not in used
                      and forms & {_singular(t) for t in re.findall(r"[a-z0-9]+",
                                                                    normalize(r))}), None)
        if named is not None:
            kind = relation_word(trace.graph, named)
            return [Reason("column_unused", f"the question says {word!r}, which names the "
                           f"{kind} {named!r}, and the query does not use that {kind}",
                           None, named)]
    return []


def relation_word(graph: GraphStore, name: str) -> str:
    """How to call the relation ``name`` to a user: ``column`` when a loaded table has it as
    a column, else ``relation`` (a graph's edge label).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Film,Year\\nHeat,1995\\n"], kgs=[b"Heat|directed_by|Mann\\n"])
    >>> relation_word(g, "Year"), relation_word(g, "directed_by")
    ('column', 'relation')
    """
    tables = (s for s in graph.sources if s.kind == "table")
    return "column" if any(name in s.columns for s in tables) else "relation"


def _singular(word: str) -> str:
    """A plural noun's singular, roughly ("municipalities" -> "municipality", "matches" ->
    "match", "maps" -> "map"); other words as they are."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


def _list_conditions(trace: Trace) -> list[Reason]:
    """Equality conditions on a column whose cells list several values ("Dari Persian,
    Pashto"): the condition finds only the cells equal to the value, not those listing it."""
    out: list[Reason] = []
    for s in trace.steps:
        relations = [m for m in s.mappings if m.role == "relation" and len(m.ids) == 1]
        values = [m for m in s.mappings if m.role == "value" and m.labels]
        if len(relations) != 1 or not values:
            continue
        facts = trace.graph.facts_rel(relations[0].ids[0])
        if not len(facts):
            continue
        cells = set(trace.graph.labels(sorted(set(trace.graph.tails_of(facts).tolist()))))
        for m in values:
            want = {normalize(x) for x in m.labels}
            listing = next((c for c in cells if normalize(c) not in want and len(
                parts := [normalize(x) for x in LIST_SPLIT.split(c) if x.strip()]) > 1
                and want & set(parts)), None)
            if listing is not None:
                out.append(Reason("list_condition", f"Query{s.number} keeps the cells of "
                                  f"{relations[0].labels[0]!r} equal to {m.labels[0]!r}; cells "
                                  f"such as {clip(listing, 40)!r} list it among others and "
                                  "are not counted", s.number, m.key))
                break
    return out


#: functions whose answer depends on every row a condition keeps
_OVER_ROWS = {"count", "most_frequent", "max", "min", "sum", "mean", "argmax", "argmin"}


def _list_condition_aggregate(program: Program, listed: Sequence[Reason]) -> list[Reason]:
    """A ``list_condition`` step whose rows are then counted, added up or ranked ("how many
    provinces have Pashto as one of their languages?"): the rows listing the value among
    others are missing, so the answer itself is off, not just one row among several."""
    steps = {r.step for r in listed if r.step is not None}
    if not steps:
        return []
    reach = set(steps)
    for q in program.queries:  # the steps that read a listed step's rows, directly or not
        if reach & set(q.call.refs()):
            reach.add(q.number)
    for q in program.queries:
        if q.call.func in _OVER_ROWS and q.number in reach - steps:
            return [Reason("list_condition_aggregate", f"Query{q.number} applies "
                           f"{q.call.func} to rows kept by an equality on a column whose cells "
                           "list several values: the rows listing it among others are left "
                           "out", q.number)]
    return []


def _count_of_quantity(trace: Trace, question: str, last: Query) -> list[Reason]:
    """'how many penalties' answered by counting rows while a column named 'Penalties' holds
    numbers: the question may ask for their sum."""
    counted = COUNTED.search(question)
    if last.call.func != "count" or counted is None or not ASKS_COUNT.search(question):
        return []
    noun = counted.group(1).lower()
    if noun in _STOP_COUNTED:
        return []
    for name in trace.graph.relation_names:
        rel = trace.graph.relation(name)
        if rel is None or not names_any(noun, name) or names_column(trace.graph, name):
            continue
        if trace.graph.numeric_fact_count(rel) == 0:
            continue
        return [Reason("count_of_quantity", f"the question asks how many {noun!r} and "
                       f"{name!r} holds numbers: Query{last.number} counts rows instead of "
                       "adding them up", last.number, name)]
    return []


_STOP_COUNTED = {"times", "time", "years", "year", "people", "total", "number", "of", "the"}
#: a question asking for a number: "the highest player number", "how many", "how much"
_ASKS_NUMBER = re.compile(r"\bnumber\b|\bhow (?:many|much)\b", re.IGNORECASE)


def _count_of_named_value(trace: Trace, question: str, last: Query,
                          answer: Sequence[str]) -> list[Reason]:
    """'how many laps did Fittipaldi do?' answered 1 by counting his one row, while that row's
    column 'Laps' holds 35 (or 'how many candidates ... virginia 17?' while the row's
    'Candidates' cell lists five names): the count of one row answers what the row says.

    Columns that number their rows ('Game', 'Grid') are left out: "the number of games on
    june 12" counts the games. A list has three items or more, each with a letter (a date
    'May 8, 1993' or a member 'Sarah Sole 23, Devon' is no list)."""
    counted = COUNTED.search(question)
    if last.call.func != "count" or list(answer) != ["1"] or counted is None \
            or not ASKS_COUNT.search(question) or not last.call.refs():
        return []
    noun = counted.group(1).lower()
    rows_step = next((s for s in trace.steps if s.number == last.call.refs()[0]), None)
    if noun in _STOP_COUNTED or rows_step is None:
        return []
    graph = trace.graph
    rows = [e for e in rows_step.output.elems if not isinstance(e, Scalar) and graph.is_row(e)]
    used = {i for m in (trace.mapped.mappings if trace.mapped else ()) if m.arg == "relation"
            for i in m.ids}
    if len(rows) != 1:
        return []
    for name in graph.relation_names:
        rel = graph.relation(name)
        if rel is None or rel in used or name == ROW_NUMBER or not names_any(noun, name):
            continue
        cells = graph.labels(graph.tails_of(graph.facts_head_rel(rows[0], rel)))
        if len(cells) != 1:
            continue
        cell = cells[0]
        items = [x for x in LIST_SPLIT.split(cell) if x.strip()]
        listed = len(items) >= 3 and all(re.search(r"[^\W\d_]", x) for x in items)
        number = parse_number(cell)
        if number is not None and number != 1 and not identifies_rows(graph, rel):
            what = f"holds {cell}"
        elif number is None and listed:
            what = f"lists {len(items)} values"
        else:
            continue
        return [Reason("count_of_named_value", f"Query{last.number} counts one row, and that "
                       f"row's {name!r} {what}: the question may ask for that, not for the "
                       "number of rows", last.number, name)]
    return []


def _neighbour_other_column(program: Program) -> list[Reason]:
    """The row before / after the found one, read in another column than the one that found
    it ("previous to Tom Andrews, who was elected?" reading Electorate, not Member)."""
    by_number = {q.number: q for q in program.queries}
    out: list[Reason] = []
    for q in program.queries:
        if q.call.func not in NEIGHBOURS or not q.call.refs():
            continue
        found = by_number.get(q.call.refs()[0])
        readers = [r for r in program.queries if q.number in r.call.refs()
                   and r.call.func == "get_information"]
        first, then = relation_text(found), [relation_text(r) for r in readers]
        if first and then and all(t and normalize(t) != normalize(first) for t in then):
            out.append(Reason("neighbour_other_column", f"Query{q.number} moves to the "
                              f"{'next' if q.call.func == 'next_row' else 'previous'} row of "
                              f"the one found by {first!r}, and reads {then[0]!r}: check that "
                              "the table's order is the one the question means", q.number))
    return out


#: words asking for before / after in time ("next" also means "next to" in a list)
_TIME_CUE = re.compile(r"\b(?:previous|prior|preceding|preceded|before|earlier|after|later|"
                       r"following|followed|succeeded|succeeding)\b", re.IGNORECASE)


def _row_order_vs_time(trace: Trace, program: Program, question: str) -> list[Reason]:
    """The row before / after the found one is taken in the table's order, while the
    question asks before / after in time and the table's year or date column runs backwards
    ("which team won previous to Crettyard?" on a table listing the latest year first).
    "next to", "listed above" ask for the table's order and do not count; a table whose
    dates are merely unordered is left alone (on WTQ's tune half its order was the one
    meant)."""
    if _TIME_CUE.search(question) is None:
        return []
    for q in program.queries:
        if q.call.func not in NEIGHBOURS or not q.call.refs():
            continue
        found = next((s for s in trace.steps if s.number == q.call.refs()[0]), None)
        rows = [trace.graph.row_position(e) for e in (found.output.elems if found else ())
                if not isinstance(e, Scalar)]
        for source in sorted({p[0] for p in rows if p is not None}):
            column, order = _time_order(trace.graph, source)
            if order == "descending":
                return [Reason("row_order_vs_time", f"Query{q.number} takes the "
                               f"{'next' if q.call.func == 'next_row' else 'previous'} row in "
                               f"the table's order, and the table's {column!r} runs backwards "
                               "(latest first): the row above is the later one", q.number,
                               column)]
    return []


def _time_order(graph: GraphStore, source: int) -> tuple[str, str]:
    """``(column, order)`` of a source's time column (a header naming a year, date or season,
    else the first column whose cells nearly all hold a year): ``ascending``, ``descending``
    or ``unordered`` by the first year of each cell, in row order; ``("", "none")`` when the
    source has no such column or fewer than three rows with a year."""
    best: tuple[str, list[int]] | None = None
    for rel in graph.relations_of_source(source).tolist():
        name = graph.relation_names[int(rel)]
        facts = graph.facts_rel(int(rel))
        facts = facts[graph.sources_of(facts) == source]
        if not len(facts):
            continue
        years: dict[int, int] = {}
        for head, cell in zip(graph.heads_of(facts).tolist(),
                              graph.labels(graph.tails_of(facts)), strict=True):
            pos, year = graph.row_position(head), YEAR.search(cell)
            if pos is not None and year is not None:
                years.setdefault(pos[1], int(year.group(1)))
        named = TIME_HEADER.search(name) is not None
        if len(years) < 3 or not (named or len(years) * 5 >= len(facts) * 4):
            continue
        if best is None or named:
            best = (name, [years[r] for r in sorted(years)])
        if named:
            break
    if best is None:
        return "", "none"
    seq = best[1]
    up = sum(b > a for a, b in zip(seq, seq[1:], strict=False))
    down = sum(b < a for a, b in zip(seq, seq[1:], strict=False))
    return best[0], ("ascending" if not down else "descending" if not up else "unordered")
