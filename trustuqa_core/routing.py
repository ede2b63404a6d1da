"""Source routing: which loaded source(s) a question relies on, from evidence that can be shown.

With several sources in one graph (a table, a KG and a TKG, say), :func:`route` scores each
source by

- **names**: the question's word spans that equal (after :func:`~trustuqa_core.text.normalize`)
  a node of the source, longest spans first; a span found in fewer sources weighs more;
- **label words**: question words (not inside such a span) that are words of a node label of
  the source (``herbert`` of *Frank Herbert*), weighted by how few sources hold the word
  (``ln(n_sources / sources_with_it)``, so a word every source holds counts nothing); words
  asking for an extreme (*most*, *highest*) are not label words; in a source the question
  names no node of, a label word weighs less (``loose_label``: a large graph shares generic
  words with any question);
- **relation words**: question words that are words of the source's relation / column names
  (with the ``kg_relation_words`` synonyms of the lexicon: ``wrote`` -> ``written``); a
  column name made of numbers only (*2008/09*) counts when the question says it, as a name
  of numbers would; a KG of which the question names no node gets half (``loose_relation``);
- **anchors**: a named node (or given entity) that sits in a fact of the source whose relation
  (a KG relation, the cell's column) another question word names: *time zone* of London;
- **centrality**: a given entity's share of the source's facts, relative to the source where
  it is most central (a subgraph built around it beats a table with it in one cell); a given
  entity that is also a named span is counted once, as the name; the given entities are the
  forms of one entity (an id and a name): a source holding any form holds it;
- **time**: a year of the question inside a dated fact of a temporal KG about a node the
  question names; a question asking *when* / *what year* (at its start, or ending in *when*)
  leans to a temporal KG (``when``), unless it also asks for an extreme or the most frequent
  value (*which year had the most wins?*: rows ranked, :data:`WHEN_EXTREME`);
- **layout**: a word referring to a table's layout (*listed*, *chart*, *row*) counts for
  every table;
- **demos**: the similarity of the best demonstration of the source's kind (given by the caller,
  who owns the demo pool: ``answer()`` passes it).

Cells of a repeated header row (a table row at least half of whose cells are column names)
name nothing. Every point of score comes with a line of evidence. The router picks the best
source; when another scores within :data:`UNSURE_RATIO` of it, it is *unsure* and keeps all
the close ones; with no evidence at all it keeps every source.

>>> from trustuqa_core import load_graph
>>> g = load_graph(tables=[b"Name,Department\\nChen Wei,Marketing\\n"],
...                kgs=[b"Dune|written_by|Frank Herbert\\n"])
>>> d = route("who wrote Dune?", g)
>>> d.sources, d.unsure, d.evidence["kg1"][0]
(('kg1',), False, "'dune' names a node of kg1 (1 word)")
>>> route("Which department is Chen Wei in?", g).sources
('table1',)
"""

from __future__ import annotations

import math
import re
import threading
import weakref
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .lexicon import word_map, word_set
from .store import GraphStore
from .text import normalize, stem, table_words
from .trace import ALL_SOURCES, Routing
from .translate.table import ROW_NUMBER

__all__ = ["RouteDecision", "route", "UNSURE_RATIO", "WEIGHTS", "source_words", "name_index",
           "explaining_sources", "relation_word_sources", "words_of_one_other_source"]

#: a source scoring at least this share of the best score makes the decision unsure (0.9: chosen
#: over 0.75 on the tune half of the mixed benchmark, questions 100-199 of each benchmark)
UNSURE_RATIO = 0.9
#: points per kind of evidence (a name counts per word of the span); ``label_word`` (0.5),
#: ``given_entity`` (2.0, was the name weight 1.0), ``anchor`` (4.0) and ``central`` (4.0)
#: chosen on the tune half of the mixed benchmark (questions 100-199 of each benchmark,
#: ``scripts/routing_accuracy.py --half tune``, ``scripts/routing_grid.py``); ``when`` (0.4 ->
#: 4.0), ``layout`` (2.0) and ``loose_label`` (0.75) chosen on the larger tune pool (questions
#: 100-499, ``routing_accuracy.py --half pool``; route8)
WEIGHTS: Mapping[str, float] = {"name_word": 1.0, "number": 0.3, "relation_word": 0.75,
                                "year_in_interval": 1.5, "when": 4.0, "demo": 0.5,
                                "label_word": 0.5, "given_entity": 2.0, "anchor": 4.0,
                                "central": 4.0, "number_span": 1.0, "loose_relation": 0.5,
                                "layout": 2.0, "loose_label": 0.75}
#: the kinds of source whose relation words count fully only when the question names a node
#: of the source (``loose_relation``, 0.5: 0 / 0.25 / 0.5 gave the same on the tune half)
_ANCHORED_KINDS = frozenset({"kg"})
_MAX_SPAN = 10
_STOP = word_set("function_words") | word_set("kg_stop_words") | word_set("stop_words")
#: words asking for an extreme or the most frequent value (*most*, *least*, *highest*): what
#: the query does with the data, never evidence of which source holds it, even when a node
#: label has the word (*Most Valuable Player Award*; stop 20)
_OPERATION = frozenset(w for name in ("frequency_words", "superlative_max", "superlative_min")
                       for w in word_set(name) if " " not in w)
#: words referring to a table's layout (*listed*, *chart*, *row*): a question saying one is
#: about a table, whichever one (``layout``, once per question, to every table)
_LAYOUT = frozenset({"table", "tables", "chart", "charts", "listed", "row", "rows", "column",
                     "columns"})
#: function words that can still be a table's whole column name ("film", "team")
_COLUMN_ONLY = word_set("column_nouns")
#: whether a question asking *which year* (or *when*) and for an extreme or the most frequent
#: value (*which year had the most competitions?*) still leans to a temporal source (``when``):
#: no (route9), such a question ranks rows by a count or a number, what a table's rows are
#: for; tune pool: WTQ kind 354 -> 356 of 400, WikiSQL, CronQuestions unchanged
WHEN_EXTREME = False
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)")
_WHEN = re.compile(r"^\s*(when\b|(in )?(what|which) year\b)|\bwhen\W*$", re.IGNORECASE)


@dataclass(frozen=True)
class RouteDecision:
    """The sources a question is routed to, every source's score and the evidence for it."""

    sources: tuple[str, ...]
    how: str
    scores: Mapping[str, float] = field(default_factory=dict)
    evidence: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unsure: bool = False
    all_sources: tuple[str, ...] = ()
    #: when several sources fit the written query equally well: the answer it runs to over
    #: each of them alone, normalised (filled by routing by the query)
    alone: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @property
    def narrowed(self) -> bool:
        """True when the decision leaves out some loaded source."""
        return len(self.sources) < len(self.all_sources)

    def routing(self) -> Routing:
        """The decision as the trace records it."""
        return Routing(self.sources, self.how, (), dict(self.scores), dict(self.evidence))

    def fallback(self, reason: str) -> Routing:
        """All sources, after the routed attempt failed (the decision's scores kept)."""
        return Routing(self.all_sources, f"{ALL_SOURCES}: {reason}", (), dict(self.scores),
                       dict(self.evidence))

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "sources": list(self.sources), "how": self.how, "unsure": self.unsure,
            "scores": {k: round(v, 4) for k, v in self.scores.items()},
            "evidence": {k: list(v) for k, v in self.evidence.items()}}
        if self.alone:
            out["alone"] = {k: sorted(v) for k, v in self.alone.items()}
        return out


@dataclass(frozen=True)
class _Index:
    names: dict[str, frozenset[int]]  # normalised node label -> sources holding it
    words: tuple[frozenset[str], ...]  # per source: stems of its relation / column words
    temporal: tuple[bool, ...]
    tokens: dict[str, frozenset[int]]  # word of a node label (3+ letters, no stop word) -> sources
    nodes: dict[str, tuple[int, ...]]  # normalised node label -> node ids (rows left out)
    sizes: tuple[int, ...]  # facts per source
    #: per source: stems of its one-word column names that are not relation words ("film")
    heads: tuple[frozenset[str], ...]
    #: normalised column names made of numbers only (``2008 09``) -> the tables having one
    numeric: dict[str, frozenset[int]]


_INDEXES: weakref.WeakKeyDictionary[GraphStore, _Index] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def source_words(names: Sequence[str]) -> frozenset[str]:
    """Stems of the words of relation / column names (function words left out).

    >>> sorted(source_words(["written_by", "Start year", "release_year"]))
    ['releas', 'start', 'written']
    """
    return frozenset(stem(w) for n in names for w in table_words(n) if w not in _STOP)


def column_heads(columns: Sequence[str]) -> frozenset[str]:
    """Stems of the one-word column names that :func:`source_words` leaves out as function
    words (``film``, ``team``): said in a question, they still point at the table with such a
    column.

    >>> sorted(column_heads(["Rank", "Film", "Year", "Name of the film"]))
    ['film']
    """
    out = set()
    for column in columns:
        words = normalize(column).split()
        if len(words) == 1 and words[0] in _COLUMN_ONLY:
            out.add(stem(words[0]))
    return frozenset(out)


def numeric_columns(columns: Sequence[str]) -> frozenset[str]:
    """The normalised column names made of numbers only (a season, a year): relation words are
    letters, so these would name nothing of their table (stop 20).

    >>> sorted(numeric_columns(["Crop", "2008/09", "2010", "Year 1"]))
    ['2008 09', '2010']
    """
    return frozenset(c for c in (normalize(x) for x in columns)
                     if c and c.replace(" ", "").isdigit())


def _index(graph: GraphStore) -> _Index:
    with _LOCK:
        found = _INDEXES.get(graph)
    if found is not None:
        return found
    names: dict[str, set[int]] = {}
    tokens: dict[str, set[int]] = {}
    labels: dict[int, str] = {}
    nodes_of: dict[str, set[int]] = {}
    words, temporal, sizes, heads = [], [], [], []
    numeric: dict[str, set[int]] = {}
    for i, info in enumerate(graph.sources):
        facts = graph.facts_of_source(i)
        nodes = np.unique(np.concatenate([graph.heads_of(facts), graph.tails_of(facts)]))
        for node in nodes.tolist():
            if graph.is_row(node):
                continue
            label = labels.get(node)
            if label is None:
                label = labels[node] = normalize(graph.label(node))
        skip = _header_cells(graph, facts, {normalize(c) for c in info.columns}, labels) \
            if info.kind == "table" else set()
        for node in nodes.tolist():
            if graph.is_row(node) or node in skip:
                continue
            label = labels[node]
            if label and label.count(" ") < _MAX_SPAN:
                names.setdefault(label, set()).add(i)
                nodes_of.setdefault(label, set()).add(node)
            for word in label.split()[:_MAX_SPAN]:
                if word not in _STOP and word not in _OPERATION and len(word) > 2 \
                        and not word.isdigit():
                    tokens.setdefault(word, set()).add(i)
        rels = {graph.relation_names[int(r)] for r in np.unique(graph.rels_of(facts)).tolist()}
        words.append(source_words(sorted(rels | set(info.columns))))
        heads.append(column_heads(info.columns) if info.kind == "table" else frozenset())
        for column in numeric_columns(info.columns) if info.kind == "table" else ():
            numeric.setdefault(column, set()).add(i)
        sizes.append(len(facts))
        temporal.append(info.kind == "tkg" or bool(np.isfinite(graph.intervals_of(facts)[0]).any()))
    index = _Index({k: frozenset(v) for k, v in names.items()}, tuple(words), tuple(temporal),
                   {k: frozenset(v) for k, v in tokens.items()},
                   {k: tuple(sorted(v)) for k, v in nodes_of.items()}, tuple(sizes),
                   tuple(heads), {k: frozenset(v) for k, v in numeric.items()})
    with _LOCK:
        _INDEXES[graph] = index
    return index


def name_index(graph: GraphStore) -> Mapping[str, frozenset[int]]:
    """Normalised node label -> the positions of the sources holding such a node (row nodes
    and repeated header cells left out; built once per graph)."""
    return _index(graph).names


def explaining_sources(words: Sequence[str], graph: GraphStore) -> dict[str, list[str]]:
    """Per source, the ``words`` (of a question, normalised) it could account for: a word of
    one of its relation / column names (stemmed, with the lexicon's synonyms), a word of one
    of its node labels, or (a number, say) a whole node label. Sources accounting for none
    are left out.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Name,Days held\\nAnn,283\\n", b"Season,Rank\\n1993,1st\\n"])
    >>> explaining_sources(["days", "held", "1st", "ann", "283"], g)
    {'table1': ['days', 'held', 'ann', '283'], 'table2': ['1st']}
    """
    index = _index(graph)
    n = len(graph.sources)
    found: dict[int, list[str]] = {}
    for w in dict.fromkeys(words):
        if not w or w in _STOP:
            continue
        stems = {stem(w)} | _SYNONYMS.get(w, set())
        where = {i for i in range(n) if stems & index.words[i]}
        where |= index.tokens.get(w, frozenset()) | index.names.get(w, frozenset())
        for i in sorted(where):
            found.setdefault(i, []).append(w)
    return {graph.sources[i].name: found[i] for i in sorted(found)}


def relation_word_sources(words: Sequence[str], graph: GraphStore) -> dict[str, list[str]]:
    """Per source, the ``words`` (of a question, normalised) that are words of one of its
    relation / column names, read as routing reads them: stemmed, with the lexicon's
    ``kg_relation_words`` synonyms (*wrote* -> *written*), a column noun (*film*) only as a
    table's whole column name. Node labels do not count. Sources naming none are left out.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Name,Department\\nChen Wei,Marketing\\n"],
    ...                kgs=[b"Dune|written_by|Frank Herbert\\n"])
    >>> relation_word_sources(["wrote", "department", "herbert", "marketing"], g)
    {'table1': ['department'], 'kg1': ['wrote']}
    """
    index = _index(graph)
    found: dict[int, list[str]] = {}
    for w in dict.fromkeys(words):
        if not w:
            continue
        stems = {stem(w)} | _SYNONYMS.get(w, set())
        for i in range(len(graph.sources)):
            if (w not in _STOP and stems & index.words[i]) or stem(w) in index.heads[i]:
                found.setdefault(i, []).append(w)
    return {graph.sources[i].name: found[i] for i in sorted(found)}


def words_of_one_other_source(words: Sequence[str], graph: GraphStore, used: Collection[str],
                              among: Collection[str] | None = None) -> dict[str, str]:
    """Of ``words``, each that is a relation / column word
    (:func:`relation_word_sources`) of exactly one loaded source outside ``used`` (the
    sources an answer was read from; only sources in ``among`` count when given) and of none
    in ``used``: the word -> that source.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Name,Department\\nChen Wei,Marketing\\n"],
    ...                kgs=[b"Dune|written_by|Frank Herbert\\n"])
    >>> words_of_one_other_source(["wrote", "department"], g, ["table1"])
    {'wrote': 'kg1'}
    >>> words_of_one_other_source(["wrote"], g, ["table1"], among=["table1"])
    {}
    """
    named = relation_word_sources(words, graph)
    own = {w for s in used for w in named.get(s, ())}
    elsewhere: dict[str, list[str]] = {}
    for source, found in named.items():
        if source in used or (among is not None and source not in among):
            continue
        for w in found:
            if w not in own:
                elsewhere.setdefault(w, []).append(source)
    return {w: sources[0] for w, sources in elsewhere.items() if len(sources) == 1}


def _header_cells(graph: GraphStore, facts: np.ndarray, headers: set[str],
                  labels: Mapping[int, str]) -> set[int]:
    """Cells found only in repeated header rows of a table (rows at least half of whose cells
    are column names, like a second header line): they name no data of the table."""
    number = graph.relation(ROW_NUMBER)
    if number is not None:
        facts = facts[graph.rels_of(facts) != number]
    heads, tails = graph.heads_of(facts), graph.tails_of(facts)
    is_header = np.fromiter((labels.get(t) in headers for t in tails.tolist()), dtype=bool,
                            count=len(tails))
    if not is_header.any():
        return set()
    rows, inverse = np.unique(heads, return_inverse=True)
    cells = np.bincount(inverse, minlength=len(rows))
    named = np.bincount(inverse, weights=is_header, minlength=len(rows))
    header_row = (2 * named >= cells)[inverse]
    return set(tails[header_row].tolist()) - set(tails[~header_row].tolist())


def _synonyms() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for keys, values in word_map("kg_relation_words").items():
        for k in keys.split():
            out.setdefault(k, set()).update(stem(v) for v in values.replace("_", " ").split())
    return out


_SYNONYMS = _synonyms()


def _name_spans(tokens: list[str], index: _Index) -> list[tuple[int, int, str, frozenset[int]]]:
    """Maximal spans ``(start, end, text, sources)`` of the question naming a node."""
    found = []
    for i in range(len(tokens)):
        for j in range(min(len(tokens), i + _MAX_SPAN), i, -1):
            text = " ".join(tokens[i:j])
            if j - i == 1 and (text in _STOP or len(text) < 2):
                continue
            where = index.names.get(text)
            if where:
                found.append((i, j, text, where))
                break
    return [s for s in found
            if not any(o[0] <= s[0] and s[1] <= o[1] and o[1] - o[0] > s[1] - s[0]
                       for o in found)]


def route(question: str, graph: GraphStore,
          demo_similarity: Mapping[str, float] | None = None,
          entities: Sequence[str] = ()) -> RouteDecision:
    """Score every source of ``graph`` for ``question`` and decide (see the module docstring).

    ``demo_similarity`` maps a source kind (``table``/``kg``/``tkg``) to the cosine similarity
    of the best demonstration of that kind; ``entities`` are entity texts or ids known to be
    in the question (a benchmark's topic entity), counted like a named span of one word.
    """
    names = tuple(s.name for s in graph.sources)
    if len(names) < 2:
        return RouteDecision(names, ALL_SOURCES, {}, {}, False, names)
    index = _index(graph)
    n = len(names)
    scores = [0.0] * n
    evidence: list[list[str]] = [[] for _ in range(n)]
    tokens = normalize(question).split()
    spans = {text: where for _, _, text, where in _name_spans(tokens, index)}
    # the given entities are the forms of one topic entity (a benchmark's linked id and its
    # name): a source holding any form holds the entity
    forms = {x: index.names.get(x, frozenset())
             for x in dict.fromkeys(normalize(x) for x in entities)}
    holding = frozenset().union(*forms.values()) if forms else frozenset()
    for text, where in spans.items():
        words = text.count(" ") + 1
        number = text.replace(" ", "").isdigit()
        also = holding - where if text in forms else frozenset()
        where = where | also
        idf = 1.0 + math.log(n / len(where))
        points = (WEIGHTS["name_word"] * words if not number else WEIGHTS["number"]
                  if words == 1 else WEIGHTS["number_span"] * words) * idf
        for i in where:
            scores[i] += points
            evidence[i].append(
                f"'{text}' names a node of {names[i]} ({words} word{'s' if words > 1 else ''})"
                if i not in also else
                f"'{text}' names the given entity, a node of {names[i]} as "
                f"'{_form_in(forms, i)}'")
    padded = f" {' '.join(tokens)} "
    for text, where in index.numeric.items():  # a number that is a whole column name
        if f" {text} " not in padded:
            continue
        words = text.count(" ") + 1
        idf = 1.0 + math.log(n / len(where))
        points = (WEIGHTS["number"] if words == 1 else WEIGHTS["number_span"] * words) * idf
        for i in where:
            scores[i] += points
            evidence[i].append(f"'{text}' is the name of a column of {names[i]}")
    if holding and not any(x in spans for x in forms):  # one mention, one count
        for i in sorted(holding):
            scores[i] += WEIGHTS["given_entity"] * (1.0 + math.log(n / len(holding)))
            evidence[i].append(f"the given entity '{_form_in(forms, i)}' is a node of "
                               f"{names[i]}")
    content = [w for w in re.findall(r"[a-z]+", question.casefold()) if w not in _STOP]
    given = [x for x, where in forms.items() if where]
    shares: dict[int, tuple[float, str]] = {}
    for text in dict.fromkeys([*spans, *given]):
        _anchor(graph, index, text, content, text in given, scores, evidence, names, shares)
    if shares and WEIGHTS["central"]:  # relative to the source where any form is most central
        best = max(share for share, _ in shares.values())
        for i, (share, text) in sorted(shares.items()):
            scores[i] += WEIGHTS["central"] * share / best
            evidence[i].append(f"the given entity '{text}' is in {share:.1%} of the facts of "
                               f"{names[i]}")
    named = {w for text in spans for w in text.split()}
    named_in = holding.union(*spans.values())
    for w in dict.fromkeys(tokens):
        where = index.tokens.get(w, frozenset())
        if not where or w in named or len(where) == n:  # the index holds no stop words
            continue
        points = WEIGHTS["label_word"] * math.log(n / len(where))
        for i in where:
            loose_label = i not in named_in
            scores[i] += points * (WEIGHTS["loose_label"] if loose_label else 1.0)
            evidence[i].append(f"'{w}' is a word of a node of {names[i]}" + (
                " (the question names no node of it)" if loose_label else ""))
    # relation / column words; a function word such as "film" only as a whole column name
    # (the two lists share no word: every column noun is a function word)
    # a KG is read from a named node: its relation words alone (no node of it named) weigh less
    loose = [1.0 if graph.sources[i].kind not in _ANCHORED_KINDS or i in named_in
             else WEIGHTS["loose_relation"] for i in range(n)]
    for w in dict.fromkeys([*content, *(t for t in tokens if t in _COLUMN_ONLY)]):
        if w in _COLUMN_ONLY:
            holders = [i for i in range(n) if stem(w) in index.heads[i]]
            said = "the name of a column"
        else:
            stems = {stem(w)} | _SYNONYMS.get(w, set())
            holders = [i for i in range(n) if stems & index.words[i]]
            said = "a word of a relation"
        for i in holders:
            scores[i] += WEIGHTS["relation_word"] * (1.0 + math.log(n / len(holders))) * loose[i]
            evidence[i].append(f"'{w}' is {said} of {names[i]}" + (
                "" if loose[i] == 1.0 else " (the question names no node of it)"))
    years = [int(y) for y in _YEAR.findall(question)]
    when = bool(_WHEN.search(question)) and (
        WHEN_EXTREME or not any(w in _OPERATION for w in tokens))
    about = [*spans, *given]
    for i in range(n):
        if not index.temporal[i]:
            continue
        for y in years:  # in a dated fact about a node the question names, not just any
            dated = _dated_about(graph, index, i, y, about)
            if dated is not None:
                scores[i] += WEIGHTS["year_in_interval"]
                evidence[i].append(f"the year {y} falls in a dated fact of {names[i]} about "
                                   f"'{dated}'")
        if when:
            scores[i] += WEIGHTS["when"]
            evidence[i].append(f"the question asks when; {names[i]} holds dated facts")
    layout = next((w for w in tokens if w in _LAYOUT), None)
    for i, info in enumerate(graph.sources):
        if layout is not None and info.kind == "table" and WEIGHTS["layout"]:
            scores[i] += WEIGHTS["layout"]
            evidence[i].append(f"'{layout}' refers to a table's layout; {names[i]} is a table")
        sim = (demo_similarity or {}).get(info.kind)
        if sim is not None and sim > 0:
            scores[i] += WEIGHTS["demo"] * sim
            evidence[i].append(f"best {info.kind} demonstration similarity {sim:.2f}")
    return _decide(names, scores, evidence)


_REL_STEMS: weakref.WeakKeyDictionary[GraphStore, dict[int, frozenset[str]]] = \
    weakref.WeakKeyDictionary()


def _rel_stems(graph: GraphStore, rel: int) -> frozenset[str]:
    with _LOCK:
        cache = _REL_STEMS.setdefault(graph, {})
    found = cache.get(rel)
    if found is None:
        found = cache[rel] = source_words([graph.relation_names[rel]])
    return found


def _anchor(graph: GraphStore, index: _Index, text: str, content: Sequence[str], given: bool,
            scores: list[float], evidence: list[list[str]], names: tuple[str, ...],
            shares: dict[int, tuple[float, str]]) -> None:
    """Points for the sources where the node named ``text`` sits in a fact whose relation (a
    KG relation, a table's column) a question word names (``anchor``); for a form of the given
    entity, its share of each source's facts goes into ``shares`` (the largest per source)."""
    ids = np.asarray(index.nodes.get(text, ()), dtype=np.int64)
    if not len(ids):
        return
    facts = np.concatenate([graph.facts_heads(ids), *[graph.facts_tail(int(t)) for t in ids]])
    if not len(facts):
        return
    srcs, rels = graph.sources_of(facts), graph.rels_of(facts)
    own = set(text.split())
    wanted = {w: {stem(w)} | _SYNONYMS.get(w, set()) for w in content if w not in own}
    for i in np.unique(srcs).tolist():
        mask = srcs == i
        stems: set[str] = set()
        for r in np.unique(rels[mask]).tolist():
            stems |= _rel_stems(graph, int(r))
        matched = [w for w, ws in wanted.items() if ws & stems]
        if matched and WEIGHTS["anchor"]:
            scores[i] += WEIGHTS["anchor"] * len(matched)
            evidence[i].append(f"'{text}' is in a fact of {names[i]} whose relation is named by "
                               + ", ".join(f"'{w}'" for w in matched))
        share = int(mask.sum()) / max(index.sizes[i], 1)
        if given and share > shares.get(i, (-1.0, ""))[0]:
            shares[i] = (share, text)


def _form_in(forms: Mapping[str, frozenset[int]], source: int) -> str:
    """The first form of the given entity that is a node of ``source``."""
    return next(x for x, where in forms.items() if source in where)


def _dated_about(graph: GraphStore, index: _Index, source: int, year: int,
                 texts: Sequence[str]) -> str | None:
    """The first of ``texts`` (named nodes) in a fact of ``source`` dated around ``year``."""
    for text in texts:
        ids = np.asarray(index.nodes.get(text, ()), dtype=np.int64)
        if not len(ids):
            continue
        facts = np.concatenate([graph.facts_heads(ids), *[graph.facts_tail(int(t)) for t in ids]])
        facts = facts[graph.sources_of(facts) == source]
        if len(facts) and _year_in(graph, facts, year):
            return text
    return None


def _year_in(graph: GraphStore, facts: np.ndarray, year: int) -> bool:
    start, end = graph.intervals_of(facts)
    lo = np.where(np.isnan(start), -np.inf, start)
    hi = np.where(np.isnan(end), np.where(np.isnan(start), -np.inf, np.inf), end)
    return bool(((lo <= year) & (year <= hi)).any())


def _decide(names: tuple[str, ...], scores: list[float],
            evidence: list[list[str]]) -> RouteDecision:
    by_name = {names[i]: round(scores[i], 4) for i in range(len(names))}
    shown = {names[i]: tuple(evidence[i]) for i in range(len(names)) if evidence[i]}
    top = max(scores)
    if top <= 0:
        return RouteDecision(names, f"{ALL_SOURCES}: no evidence for any source", by_name,
                             shown, True, names)
    close = tuple(names[i] for i in sorted(range(len(names)), key=lambda i: -scores[i])
                  if scores[i] >= UNSURE_RATIO * top)
    if len(close) == 1:
        rest = sorted(scores, reverse=True)[1]
        how = f"routed to {close[0]} (score {top:.2f}, next {rest:.2f})"
        return RouteDecision(close, how, by_name, shown, False, names)
    how = f"unsure between {', '.join(close)} (scores within {UNSURE_RATIO:.0%} of {top:.2f})"
    if len(close) == len(names):
        how = f"{ALL_SOURCES}: {how}"
    return RouteDecision(close, how, by_name, shown, True, names)
