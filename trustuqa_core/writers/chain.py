"""Chaining across sources (issue 13): a question that names a value of a table and relations
of a KG and a temporal KG becomes one program hopping table → KG → TKG (or back, or two of the
three).

What is linked, each from its own source only:

- the table: the columns the question names, and a cell value it names in one of them (the key
  that finds the row);
- the KG: the relation its words name best among the KG's relations (``director`` →
  ``directed_by``, :func:`~trustuqa_core.writers.kg.relation_scores`);
- the TKG: the relation its words name best among the TKG's relations, and a value of that
  relation the question names (an award).

With a key cell: rows with the key → the other named column → the KG relation → the TKG
relation (its time for *when*, a ``count`` for *how many*, the KG hop's people who have the
named TKG value for *who among the actors of ...*, else its values), or only to the KG relation
when no TKG relation is named (*who starred in the film ranked 13th*). Without one,
the other way: the TKG value's subjects → what the KG relation links them to → the table rows
holding those → the named column (counted for *how many*). With no table hop, a KG entity the
question names → its KG relation → the TKG relation (*when did the director of Blazing Saddles
receive ...*). A chain is written only when its hops meet in the data (:func:`_joins`), and a
column word inside the TKG value (*Best Music Film*) names no column.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Year,Film\\n1994,Pulp Fiction\\n1995,Heat\\n"],
...                kgs=[b"Pulp Fiction|directed_by|Quentin Tarantino\\n"],
...                tkgs=[b"Quentin Tarantino\\taward received\\tPalme d'Or\\t1994\\t1994\\n"])
>>> from trustuqa_core.query.render import render_call
>>> found = link_chain("When did the director of the Film whose Year is 1994 receive Palme d'Or?",
...                    g)
>>> [render_call(q.call) for q in found[0][0].queries][1:]  # doctest: +NORMALIZE_WHITESPACE
["get_information(relation='Film', head_entity='output_of_query1')",
 "get_information(relation='directed_by', head_entity='output_of_query2')",
 "get_information(head_entity='output_of_query3', relation='award received',
  tail_entity='Palme d'Or', key='time')"]
"""

from __future__ import annotations

import re

import numpy as np

from ..lexicon import word_set
from ..query.ast import Program
from ..query.build import call, get_information, program, ref
from ..store import GraphStore
from ..text import letter_words, normalize, stem
from .kg import relation_scores

__all__ = ["link_chain"]

_MIN_VALUE = 2
_ASKS_YEAR = re.compile(r" (?:in )?(?:which|what) year ")
_ORDINAL = re.compile(r" ([a-z]+) (?:number |no )?(\d+)(?:st|nd|rd|th)? ")
_STOP = word_set("function_words") | word_set("stop_words")


def link_chain(question: str, graph: GraphStore) -> list[tuple[Program, str]]:
    """At most one cross-source program as ``(program, how it was made)``; none when the
    graph lacks a table and a KG / TKG, or the question does not name one of each."""
    kinds = {s.kind for s in graph.sources}
    padded = f" {normalize(question)} "
    # "in which year ..." asks for a time like "when" does, and names no Year column
    asks_year = _ASKS_YEAR.search(padded)
    if asks_year:
        padded = padded[:asks_year.start()] + " when " + padded[asks_year.end():]
    if "table" in kinds and {"kg", "tkg"} & kinds:
        found = _with_table(graph, padded, _token_form(question))
        if found:
            return found
    if {"kg", "tkg"} <= kinds:
        return _kg_to_tkg(graph, padded)
    return []


def _token_form(question: str) -> str:
    """The question normalised token by token, padded: a number keeps its cell form
    (*$108,185,706* → ``108185706``, where the whole question's form has ``108 185 706``)."""
    return f" {' '.join(t for t in (normalize(w) for w in question.split()) if t)} "


def _with_table(graph: GraphStore, padded: str, tokens: str) -> list[tuple[Program, str]]:
    """The chains that start or end at a table (see the module docstring); ``tokens`` is
    the question's :func:`_token_form`, where a formatted number is one token."""
    columns = _named_columns(graph, padded)
    plurals = _named_columns(graph, padded, plural=True)  # "films": only for KG → table
    if not plurals:
        return []
    key = (_key_cell(graph, columns, padded) or _key_cell(graph, columns, tokens)
           or _ordinal_key(graph, padded))
    if key is not None:
        columns = _feeding_kg(graph, columns, key[0])
    # the key cell (*Country is Italy*) is no TKG value asked about, even when it is one
    keyless = padded if key is None else padded.replace(
        f" {normalize(key[0])} is {normalize(key[1])} ", f" {normalize(key[0])} ", 1)
    tkg_rels, award = _named_tkg_value(graph, keyless)
    if award is not None:  # a column word inside the TKG value (*Best Music Film*) names none
        outside = padded.replace(f" {normalize(award)} ", "  ", 1)
        columns = [c for c in columns if c in _named_columns(graph, outside)]
        plurals = [c for c in plurals if c in _named_columns(graph, outside, plural=True)]
    # the spans already explained (column names, the key, the TKG value) name no relation
    rest = padded
    for text in sorted((*columns, *(key or ()), award or ""), key=len, reverse=True):
        if normalize(text):
            rest = rest.replace(f" {normalize(text)} ", "  ", 1)
    # "when" asks for the TKG fact's time, not for a KG date relation
    kg_rel = _best_relation(rest.replace(" when ", " "), graph, "kg")
    if key is None and award is None and kg_rel is not None:
        return _kg_to_table(graph, padded, plurals, kg_rel)
    # a value of several TKG relations (won / nominated for the same award): the one the
    # remaining words name, else the first
    named = [name for _, name in relation_scores(rest, graph) if name in tkg_rels]
    tkg_rel = (named[0] if named else tkg_rels[0]) if tkg_rels else _best_relation(
        rest, graph, "tkg")
    if key is not None and award is None and tkg_rel is None and kg_rel is not None:
        return _table_to_kg(graph, columns, key, kg_rel)
    if kg_rel is None or tkg_rel is None:
        return []
    if key is not None:
        others = [c for c in columns if c != key[0]]
        if not others:
            return []
        col_b = others[0]
    elif award is None or not plurals or " when " in padded:  # "when": a time, not cells
        return []
    else:
        col_b = (columns or plurals)[0]  # "which books ...": the column named in the plural
    if not _joins(graph, col_b, kg_rel, tkg_rel):
        return []
    words = set(letter_words(padded))
    if key is not None:
        col_a, a = key
        steps = [(f"Find the rows whose {col_a} is {a}",
                  get_information(relation=col_a, tail_entity=a)),
                 (f"The {col_b} of those rows", get_information(relation=col_b,
                                                                head_entity=ref(1))),
                 (f"Their {kg_rel}", get_information(relation=kg_rel, head_entity=ref(2)))]
        if "when" in words and award is not None:
            steps.append((f"When {tkg_rel} {award}", get_information(
                head_entity=ref(3), relation=tkg_rel, tail_entity=award, key="time")))
        elif "how" in words and "many" in words:
            steps += [(f"Their {tkg_rel}", get_information(head_entity=ref(3),
                                                          relation=tkg_rel)),
                      ("How many", call("count", set=ref(4)))]
        elif "who" in words and award is not None:  # "who among the actors of ... received X"
            steps += [(f"Who {tkg_rel} {award}", get_information(relation=tkg_rel,
                                                                 tail_entity=award)),
                      (f"Those of the {kg_rel} hop", call("set_intersection", set1=ref(3),
                                                          set2=ref(4)))]
        else:
            steps.append((f"Their {tkg_rel}", get_information(head_entity=ref(3),
                                                             relation=tkg_rel)))
        how = (f"chained across sources: table row {col_a}={a!r} → {col_b} → KG {kg_rel!r} → "
               f"TKG {tkg_rel!r}")
        return [(program(None, steps), how)]
    if award is None:  # not reached: without a key cell, a TKG value was required above
        return []
    steps = [(f"Who {tkg_rel} {award}", get_information(relation=tkg_rel, tail_entity=award)),
             (f"What they are {kg_rel} of", get_information(relation=kg_rel,
                                                            tail_entity=ref(1))),
             (f"The rows whose {col_b} is one of those", get_information(
                 relation=col_b, tail_entity=ref(2))),
             (f"Their {col_b}", get_information(relation=col_b, head_entity=ref(3)))]
    if "how" in words and "many" in words:
        steps.append(("How many", call("count", set=ref(4))))
    how = (f"chained across sources: TKG {tkg_rel!r}={award!r} → KG {kg_rel!r} → table "
           f"{col_b}")
    return [(program(None, steps), how)]


def _feeding_kg(graph: GraphStore, columns: list[str], key_column: str) -> list[str]:
    """``columns`` without the non-key ones none of whose cells is a KG head, when another
    non-key one has such cells: in *the director of the English title whose Year is 1995*
    over a table with a Director column, *director* names the KG hop and *English title* the
    column that leads to it."""
    kg = [i for i, s in enumerate(graph.sources) if s.kind == "kg"]
    heads = np.concatenate([graph.heads_of_source(i) for i in kg]) if kg else np.array([])

    def feeds(column: str) -> bool:
        rel = graph.relation(column)
        return rel is not None and bool(np.isin(graph.relation_tails(rel), heads).any())

    feeding = [c for c in columns if c == key_column or feeds(c)]
    return feeding if len(feeding) < len(columns) and len(feeding) > 1 else columns


def _table_to_kg(graph: GraphStore, columns: list[str], key: tuple[str, str],
                 kg_rel: str) -> list[tuple[Program, str]]:
    """Table → KG (no TKG hop named): *Who starred in the film ranked 13th in the comedy
    ranking?* — the key's rows, the other named column, its ``kg_rel``; only when cells of
    that column are heads of ``kg_rel``."""
    col_a, a = key
    others = [c for c in columns if c != col_a]
    if not others or not _joins(graph, others[0], kg_rel, None):
        return []
    col_b = others[0]
    steps = [(f"Find the rows whose {col_a} is {a}",
              get_information(relation=col_a, tail_entity=a)),
             (f"The {col_b} of those rows", get_information(relation=col_b,
                                                            head_entity=ref(1))),
             (f"Their {kg_rel}", get_information(relation=kg_rel, head_entity=ref(2)))]
    how = f"chained across sources: table row {col_a}={a!r} → {col_b} → KG {kg_rel!r}"
    return [(program(None, steps), how)]


def _kg_to_tkg(graph: GraphStore, padded: str) -> list[tuple[Program, str]]:
    """KG → TKG: *When did the director of Blazing Saddles receive the Grammy Award for Best
    Music Film?* — a KG entity the question names, the KG relation its other words name
    (the entity its head), then the TKG relation (its time for *when*, a ``count`` for *how
    many*, else its values); only when the KG hop's tails are subjects of that TKG fact."""
    tkg_rels, award = _named_tkg_value(graph, padded)
    rest = padded.replace(f" {normalize(award)} ", "  ", 1) if award else padded
    kg_rel = _best_relation(rest.replace(" when ", " "), graph, "kg")
    kg = graph.relation(kg_rel) if kg_rel is not None else None
    if kg is None or kg_rel is None:
        return []
    entity = _named_head(graph, rest, kg)
    if entity is None:
        return []
    rest = rest.replace(f" {normalize(entity[1])} ", "  ", 1)
    named = [name for _, name in relation_scores(rest, graph) if name in tkg_rels]
    tkg_rel = (named[0] if named else tkg_rels[0]) if tkg_rels else _best_relation(
        rest, graph, "tkg")
    tkg = graph.relation(tkg_rel) if tkg_rel is not None else None
    if tkg is None or tkg_rel is None:
        return []
    hop = graph.tails_of(graph.facts_head_rel(entity[0], kg))
    subjects = graph.facts_rel(tkg) if award is None else graph.facts_rel_tail(
        tkg, graph.entity(award) or -1)
    if not np.isin(hop, graph.heads_of(subjects)).any():
        return []
    words = set(letter_words(padded))
    steps = [(f"The {kg_rel} of {entity[1]}", get_information(head_entity=entity[1],
                                                              relation=kg_rel))]
    if "when" in words and award is not None:
        steps.append((f"When {tkg_rel} {award}", get_information(
            head_entity=ref(1), relation=tkg_rel, tail_entity=award, key="time")))
    else:
        steps.append((f"Their {tkg_rel}", get_information(head_entity=ref(1),
                                                         relation=tkg_rel)))
        if "how" in words and "many" in words:
            steps.append(("How many", call("count", set=ref(2))))
    how = f"chained across sources: KG {entity[1]!r} {kg_rel!r} → TKG {tkg_rel!r}"
    return [(program(None, steps), how)]


def _named_head(graph: GraphStore, padded: str, rel: int) -> tuple[int, str] | None:
    """The longest span of the question naming a node that is a head of ``rel``, as
    ``(node, label)``."""
    words = padded.split()
    pool = graph.entity_pool()
    for size in range(min(len(words), 10), 0, -1):
        for i in range(len(words) - size + 1):
            text = " ".join(words[i:i + size])
            if size == 1 and (text in _STOP or len(text) < 3):
                continue
            for node in pool.normalized(text):
                if len(graph.facts_head_rel(node, rel)):
                    return node, graph.label(node)
    return None


def _joins(graph: GraphStore, column: str, kg_rel: str, tkg_rel: str | None) -> bool:
    """Whether the hops meet in the data: some cell of the table ``column`` is a head of
    ``kg_rel`` whose tail is a head of ``tkg_rel`` (when given; node ids are shared across
    sources). Without this, words that merely name a column, a KG relation and a TKG value of
    unrelated sources (*first time*: a column Time, a relation date_of_first_publication)
    chain."""
    col, kg = graph.relation(column), graph.relation(kg_rel)
    tkg = graph.relation(tkg_rel) if tkg_rel is not None else None
    if col is None or kg is None or (tkg_rel is not None and tkg is None):
        return False
    facts = graph.facts_rel(kg)
    heads = graph.heads_of(facts)
    on_table = np.isin(heads, graph.relation_tails(col))
    if tkg is None:
        return bool(on_table.any())
    persons = graph.heads_of(graph.facts_rel(tkg))
    return bool(np.isin(graph.tails_of(facts)[on_table], persons).any())


def _named_columns(graph: GraphStore, padded: str, plural: bool = False) -> list[str]:
    """Table columns the question names as whole words (with ``plural``, also as their plural:
    *films*), in the order it names them."""
    found = []
    for s in graph.sources:
        if s.kind != "table":
            continue
        for col in s.columns:
            norm = normalize(col)
            if not norm or graph.relation(col) is None:
                continue
            forms = (f" {norm} ", f" {norm}s ") if plural else (f" {norm} ",)
            at = min((a for a in (padded.find(f) for f in forms) if a >= 0), default=-1)
            if at >= 0:
                found.append((at, col))
    return [c for _, c in sorted(set(found))]


def _ordinal_key(graph: GraphStore, padded: str) -> tuple[str, str] | None:
    """A key cell named as ``<column word> <number>``: *ranked 6th*, *rank 6*, *number 10*
    (the column whose one-word name has the word's stem, holding that number)."""
    for m in _ORDINAL.finditer(padded):
        word, number = stem(m.group(1)), m.group(2)
        for s in graph.sources:
            if s.kind != "table":
                continue
            for col in s.columns:
                norm = normalize(col)
                rel = graph.relation(col)
                if rel is None or " " in norm or stem(norm) != word:
                    continue
                if graph.value_pool(rel).exact(number):
                    return col, number
    return None


def _names_table(graph: GraphStore, padded: str) -> bool:
    """Whether the question names a loaded table itself: a word of its file name (*the comedy
    ranking* of ``comedy_ranking.csv``) or the word *table*."""
    if " table " in padded:
        return True
    words = {stem(w) for w in padded.split() if w not in _STOP and len(w) > 2}
    for s in graph.sources:
        if s.kind == "table":
            name = normalize(s.name.rsplit(".", 1)[0])
            if words & {stem(w) for w in name.split() if w not in _STOP and len(w) > 2}:
                return True
    return False


def _kg_to_table(graph: GraphStore, padded: str, columns: list[str],
                 kg_rel: str) -> list[tuple[Program, str]]:
    """KG → table: *Which films in the comedy ranking were directed by Mel Brooks?* — the KG
    heads of ``kg_rel`` whose value the question names, kept when they are values of the named
    table column. Only when the question names the table itself and some of those heads are
    in the column (otherwise it is a question about the KG alone)."""
    rel = graph.relation(kg_rel)
    if rel is None or not _names_table(graph, padded):
        return []
    pool = graph.value_pool(rel)
    if len(pool) > 50_000:
        return []
    named = [label for label in pool.labels
             if len(normalize(label)) >= _MIN_VALUE and f" {normalize(label)} " in padded]
    if not named:
        return []
    value = max(named, key=lambda label: (len(normalize(label)), label))
    node = graph.entity(value)
    if node is None:
        return []
    heads = {normalize(x) for x in graph.labels(graph.heads_of(graph.facts_rel_tail(rel, node)))}
    for col in columns:
        col_rel = graph.relation(col)
        if col_rel is None:
            continue
        cells = {normalize(x) for x in graph.labels(graph.relation_tails(col_rel))}
        if heads & cells:
            steps = [(f"What is {kg_rel} {value}", get_information(relation=kg_rel,
                                                                    tail_entity=value)),
                     (f"The rows whose {col} is one of those", get_information(
                         relation=col, tail_entity=ref(1))),
                     (f"Their {col}", get_information(relation=col, head_entity=ref(2)))]
            how = f"chained across sources: KG {kg_rel!r}={value!r} → table {col}"
            return [(program(None, steps), how)]
    return []


def _key_cell(graph: GraphStore, columns: list[str], padded: str) -> tuple[str, str] | None:
    """The longest cell value the question names after ``<column> is``, in that column."""
    best: tuple[int, str, str] | None = None
    for col in columns:
        rel = graph.relation(col)
        if rel is None:
            continue
        pool = graph.value_pool(rel)
        if len(pool) > 5000:
            continue
        for label in pool.labels:
            norm = normalize(label)
            if norm and f" {normalize(col)} is {norm} " in padded and (
                    best is None or len(norm) > best[0]):
                best = (len(norm), col, label)
    return None if best is None else (best[1], best[2])


def _best_relation(question: str, graph: GraphStore, kind: str) -> str | None:
    """The relation of a ``kind`` source the question's words name best (one it names word
    for word, *nominated for*, before the others)."""
    names = [name for _, name in relation_scores(question, graph)]
    padded = f" {normalize(question)} "
    verbatim = [name for name in names if f" {normalize(name)} " in padded]
    for name in dict.fromkeys([*verbatim, *names]):
        rel = graph.relation(name)
        facts = graph.facts_rel(rel) if rel is not None else None
        if facts is not None and len(facts) and any(
                graph.sources[int(i)].kind == kind for i in set(graph.sources_of(facts[:50]))):
            return name
    return None


def _named_tkg_value(graph: GraphStore, padded: str) -> tuple[list[str], str | None]:
    """``(relations, value)``: the longest value of a TKG relation the question names as
    whole words (not as a role, *the director of*) and every TKG relation it is a value of
    (``([], None)`` when none)."""
    tkg = [i for i, s in enumerate(graph.sources) if s.kind == "tkg"]
    rels = {int(r) for i in tkg for r in set(graph.rels_of(graph.facts_of_source(i)).tolist())}
    found: dict[str, list[str]] = {}
    for rel in sorted(rels):
        pool = graph.value_pool(rel)
        if len(pool) > 50_000:
            continue
        for label in pool.labels:
            norm = normalize(label)
            # "the director of the Play ...": a role naming the hop, not a value asked about
            if len(norm) >= _MIN_VALUE and f" {norm} " in padded and \
                    f" the {norm} of " not in padded:
                found.setdefault(label, []).append(graph.relation_names[rel])
    if not found:
        return [], None
    best = max(found, key=lambda label: (len(normalize(label)), label))
    return found[best], best
