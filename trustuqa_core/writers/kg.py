"""Linking a question to a knowledge graph, the offline writer's heuristic for KGs and TKGs.

A graph entity the question names, and the relation whose name (or a usual word for it) the
question uses, give a one-hop query in the direction the graph has facts for: ``who directed
Memento?`` -> ``get_information(relation='directed_by', head_entity='Memento')``; ``which
films did Mel Brooks direct?`` -> ``... tail_entity='Mel Brooks'``. On a temporal KG, "when"
with two entities asks for the fact's time, and a year asks for the facts valid then.

>>> from trustuqa_core import load_graph
>>> from trustuqa_core.mapping import Mapper
>>> g = load_graph(kgs=[b"Memento|directed_by|Christopher Nolan\\nMemento|has_genre|Thriller\\n"])
>>> from trustuqa_core.query import render_call
>>> [render_call(p.last.call) for p, _ in link_kg("who directed Memento?", g, Mapper(g))]
["get_information(relation='directed_by', head_entity='Memento')"]
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from ..lexicon import pairs, word_set
from ..mapping.mapper import Mapper
from ..query.ast import Program
from ..query.build import arg, call, program, ref
from ..store import GraphStore
from ..text import letter_words, stem
from .templates import mentions

__all__ = ["link_kg", "link_kg_joint", "relation_scores"]

#: a question word -> words a relation name for it may contain
_USUAL_WORDS: dict[str, set[str]] = {}
for _cues, _parts in pairs("kg_relation_words"):
    for _cue in _cues.split():
        _USUAL_WORDS.setdefault(_cue, set()).update(_parts.split())

_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_STOP = word_set("kg_stop_words")
#: words that join two relations into one condition on the same entity (an intersection)
_JOINING = frozenset({"and", "or", "both", "also", "as"})


def relation_scores(question: str, graph: GraphStore,
                    skip: frozenset[str] | set[str] = frozenset()) -> list[tuple[float, str]]:
    """Relations by how well the question's words name them (best first, score > 0).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(kgs=[b"A|directed_by|B\\nA|written_by|C\\nA|starred_actors|D\\n"])
    >>> relation_scores("who acted in A?", g)[0]
    (0.8, 'starred_actors')
    """
    asked = [w for w in letter_words(question) if w not in _STOP and w not in skip]
    out = []
    for name in graph.relation_names:
        weight = _namer(name)
        score = sum(weight(w) for w in asked)
        if score > 0:
            out.append((score, name))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


def _namer(rel_name: str) -> Callable[[str], float]:
    """How much a question word names the relation: 1 for one of its words (or their stem),
    0.8 for a usual word for it (``acted`` for ``starred_actors``), else 0."""
    parts = set(letter_words(rel_name.replace("_", " ")))
    stems = {stem(p) for p in parts}
    usual = parts | {rel_name}

    def weight(word: str) -> float:
        if word in parts or stem(word) in stems:
            return 1.0
        return 0.8 if _USUAL_WORDS.get(word, set()) & usual else 0.0

    return weight


def _quote(text: str) -> str:
    return text.replace("\n", " ")


def _lookup(description: str, **args: str) -> Program:
    """A one-step program: ``get_information`` with these arguments, in this order."""
    return program(None, [(description, call(
        "get_information", *(arg(name, _quote(value)) for name, value in args.items())))])


def _of_fact_times(head: str, rel_name: str, tail: str, said: str, function: str,
                   then: str) -> Program:
    """Two steps: the times of the facts ``head`` -``rel_name``-> ``tail`` (described as
    ``said``), then ``function`` of them (described as ``then``): ``count``, ``duration``."""
    return program(None, [
        (said, call("get_information", arg("head_entity", _quote(head)),
                    arg("relation", rel_name), arg("tail_entity", _quote(tail)),
                    arg("key", "time"))),
        (then, call(function, arg("set", ref(1))))])


def link_kg(question: str, graph: GraphStore, mapper: Mapper,
            limit: int = 3) -> list[tuple[Program, str]]:
    """One-hop (or TKG time) query candidates as ``(query text, how it was made)``."""
    named, skip = _named_entities(question, mapper)
    if not named:
        return []
    rels = relation_scores(question, graph, skip)[:limit]
    words = set(letter_words(question))
    year = _YEAR.search(question)
    nodes = [n for v in named for n in mapper.entities.normalized(v)]
    if not rels:  # "when was X Member of Y?": the one relation joining the two named nodes
        rels = [(0.5, r) for r in _joining_relations(graph, nodes)][:1]
    out: list[tuple[Program, str]] = []
    for score, rel_name in rels:
        rel = graph.relation(rel_name)
        if rel is None:
            continue
        heads = [graph.label(n) for n in nodes if len(graph.facts_head_rel(n, rel))]
        tails = [graph.label(n) for n in nodes if len(graph.facts_rel_tail(rel, n))]
        why = f"knowledge-graph linking: relation {rel_name!r} (question words score {score:.1f})"
        if graph.is_temporal and heads and tails and _HOW_MANY_TIMES.search(question):
            head, tail = heads[0], tails[0]  # each dated fact X -r-> Y is one time
            out.append((_of_fact_times(head, rel_name, tail,
                                       f"The times of the facts {head} {rel_name} {tail}",
                                       "count", "How many such facts"),
                        f"{why}; 'how many times': the dated facts {head!r} -> {tail!r}, "
                        f"counted"))
        elif graph.is_temporal and heads and tails and _HOW_LONG.search(question):
            head, tail = heads[0], tails[0]
            out.append((_of_fact_times(head, rel_name, tail, f"When was {head} {rel_name} {tail}",
                                       "duration", "The years from its start to its end"),
                        f"{why}; 'how long': the years from the start to the end of the fact "
                        f"{head!r} -> {tail!r}"))
        elif graph.is_temporal and heads and tails and ("when" in words or "year" in words):
            head, tail = heads[0], tails[0]
            order = _time_order(words) or _start_or_end(words)
            key = "time" if order is None else "start_time" if order[0] == "min" else "end_time"
            out.append((_lookup(f"When was {head} {rel_name} {tail}", head_entity=head,
                                relation=rel_name, tail_entity=tail, key=key),
                        f"{why}; the {key.replace('_', ' ')} of the fact {head!r} -> {tail!r}"))
        elif graph.is_temporal and (heads or tails) and (order := _time_order(words)):
            side, node = ("head_entity", heads[0]) if heads else ("tail_entity", tails[0])
            pick, word = order
            out.append((program(None, [
                (f"The times of the {rel_name} facts of {node}",
                 call("get_information", arg(side, _quote(node)), arg("relation", rel_name),
                      arg("key", "time"))),
                (f"The {word} of those times", call(pick, arg("set", ref(1)))),
                (f"The {rel_name} fact of {node} at that time",
                 call("get_information", arg(side, _quote(node)), arg("relation", rel_name),
                      arg("key", "time"), arg("value", ref(2))))]),
                f"{why}; the {word} {rel_name} fact of {node!r} by its time"))
        elif graph.is_temporal and (heads or tails) and year:
            at = year.group(1)
            if heads:
                out.append((_lookup(f"The {rel_name} of {heads[0]} in {at}",
                                    head_entity=heads[0], relation=rel_name, key="time",
                                    value=at),
                            f"{why}; facts of {heads[0]!r} valid in {at}"))
            else:
                out.append((_lookup(f"What had {rel_name} {tails[0]} in {at}",
                                    relation=rel_name, tail_entity=tails[0], key="time",
                                    value=at),
                            f"{why}; facts with {tails[0]!r} valid in {at}"))
        elif heads:
            out.append((_lookup(f"The {rel_name} of {heads[0]}", relation=rel_name,
                                head_entity=heads[0]), f"{why}; {heads[0]!r} as the head"))
        elif tails:
            out.append((_lookup(f"What has {rel_name} {tails[0]}", relation=rel_name,
                                tail_entity=tails[0]), f"{why}; {tails[0]!r} as the tail"))
    both = _two_conditions(rels, graph, mapper, named, question, skip)
    hops = [] if both else _two_hops(rels, graph, mapper, named, question, skip)
    found = both or hops or out  # one hop would leave a named relation (or entity) unread
    if not found and rels and rels[0][0] >= 1.0 and nodes and not graph.is_temporal:
        found = [_unfound_lookup(rels[0], graph.label(nodes[0]))]
    if _HOW_MANY.search(question) and not (graph.is_temporal and "when" in words):
        found = [(_counted(p), f"{why}; counted (the question asks how many)")
                 for p, why in found]
    return found


def _unfound_lookup(rel: tuple[float, str], node: str) -> tuple[Program, str]:
    """The lookup the question asks for when the named entity has no fact of the relation its
    words name ("what genre is Spaceballs?" with no ``has_genre`` fact for it): written anyway,
    so the empty step says what the data lacks instead of "no query could be written".

    >>> p, why = _unfound_lookup((1.0, "has_genre"), "Spaceballs")
    >>> p.last.call.args[1].value.value, why.split("; ")[1]
    ('Spaceballs', "'Spaceballs' has no has_genre fact in the data")
    """
    score, rel_name = rel
    return (_lookup(f"The {rel_name} of {node}", relation=rel_name, head_entity=node),
            f"knowledge-graph linking: relation {rel_name!r} (question words score "
            f"{score:.1f}); {node!r} has no {rel_name} fact in the data")


_HOW_LONG = re.compile(r"\bhow long\b", re.IGNORECASE)
_HOW_MANY = re.compile(r"\bhow many\b(?! times\b)", re.IGNORECASE)
_HOW_MANY_TIMES = re.compile(r"\bhow many times\b", re.IGNORECASE)


def _counted(p: Program) -> Program:
    """``p`` with a last step counting its answer (unless it counts already).

    >>> from trustuqa_core.query import render_program
    >>> print(render_program(_counted(_lookup("The directed_by of X", relation="directed_by",
    ...                                       head_entity="X"))).splitlines()[-1])
    Query2: "count(set='output_of_query1')"
    """
    last = p.queries[-1]
    if last.call.func == "count":
        return p
    steps = [(q.description, q.call) for q in p.queries]
    return program(p.target_type, [*steps, (f"Count output_of_query{last.number}",
                                             call("count", arg("set", ref(last.number))))])


def link_kg_joint(question: str, graph: GraphStore, mapper: Mapper,
                  limit: int = 3) -> list[tuple[Program, str]]:
    """The query for two relations asked of one named entity together ("which films did Mel
    Brooks both write and direct?"), or ``[]``: when there is one, it is the reading (a
    one-hop lookup or a chain would leave the joining unread).

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(kgs=[b"A|directed_by|Ida Park\\nA|written_by|Ida Park\\n"
    ...                     b"B|directed_by|Ida Park\\n"])
    >>> [q.call.func for q in link_kg_joint("which films did Ida Park both write and direct?",
    ...                                      g, Mapper(g))[0][0].queries]
    ['get_information', 'get_information', 'set_intersection']
    """
    named, skip = _named_entities(question, mapper)
    if not named:
        return []
    return _joint(relation_scores(question, graph, skip)[:limit], graph, mapper, named,
                  question)


def _named_entities(question: str, mapper: Mapper) -> tuple[list[str], set[str]]:
    """The graph entities the question names unambiguously, and their words (which then
    name no relation)."""
    found = mentions(question, mapper.entities)
    named = [v for _, values in found if len(values) == 1 for v in values]
    return named, {w for v in named for w in letter_words(v)}


def _joining_relations(graph: GraphStore, nodes: list[int]) -> list[str]:
    """The relations of facts whose head and tail are both among ``nodes``, when there is
    exactly one (a question naming X and Y and no relation word: the fact X-r-Y is meant)."""
    if len(nodes) < 2:
        return []
    ids = np.array(sorted(set(nodes)), dtype=np.int64)
    facts = graph.facts_heads(ids)
    if not len(facts):
        return []
    joined = graph.rels_of(facts)[np.isin(graph.tails_of(facts), ids)]
    names = sorted({graph.relation_names[int(r)] for r in joined})
    return names if len(names) == 1 else []


_FIRST_WORDS = frozenset({"first", "earliest"})
_LAST_WORDS = frozenset({"last", "latest", "recent", "newest"})


def _time_order(words: set[str]) -> tuple[str, str] | None:
    """("min", word) for *first* / *earliest*, ("max", word) for *last* / *latest* / *most
    recent*: a question over a TKG asking for the earliest or latest fact, else None.

    >>> _time_order({"who", "was", "the", "first", "winner"})
    ('min', 'first')
    """
    first = sorted(words & _FIRST_WORDS)
    last = sorted(words & _LAST_WORDS)
    if bool(first) == bool(last):
        return None
    return ("min", first[0]) if first else ("max", last[0])


def _start_or_end(words: set[str]) -> tuple[str, str] | None:
    """("min", verb) for a verb of starting (*join*, *become*), ("max", verb) for one of
    ending (*leave*, *retire*): *when did X become Y?* asks the fact's start.

    >>> _start_or_end({"when", "did", "she", "become", "mayor"}), _start_or_end({"when"})
    (('min', 'become'), None)
    """
    start, end = sorted(words & _START_VERBS), sorted(words & _END_VERBS)
    if bool(start) == bool(end):
        return None
    return ("min", start[0]) if start else ("max", end[0])


_START_VERBS = frozenset({"join", "joined", "joins", "become", "became", "becomes", "start",
                          "started", "starts", "begin", "began", "begins", "enter", "entered"})
_END_VERBS = frozenset({"leave", "left", "leaves", "end", "ended", "ends", "quit", "quits",
                        "retire", "retired", "retires", "stop", "stopped"})


def _attached(graph: GraphStore, mapper: Mapper, named: list[str],
              rel_name: str) -> tuple[str, str] | None:
    """(argument, label) by which a named entity takes part in the relation's facts."""
    rel = graph.relation(rel_name)
    if rel is None:
        return None
    for v in named:
        for n in mapper.entities.normalized(v):
            if len(graph.facts_head_rel(n, rel)):
                return "head_entity", graph.label(n)
            if len(graph.facts_rel_tail(rel, n)):
                return "tail_entity", graph.label(n)
    return None




def _nearer(question: str, label: str, first: str, second: str) -> bool:
    """True when a word naming ``first`` stands strictly nearer the entity ``label`` in the
    question than every word naming ``second``.

    >>> _nearer("which actors starred in films directed by Mel Brooks", "Mel Brooks",
    ...         "directed_by", "starred_actors")
    True
    >>> _nearer("which films directed by Mel Brooks", "Mel Brooks", "directed_by", "directed_by")
    False
    >>> _nearer("which films did Mel Brooks both write and direct", "Mel Brooks", "written_by",
    ...         "directed_by")
    False
    """
    words = letter_words(question)
    starts, _ = _name_places(words, label)
    if not starts:
        return False
    at = starts[0]
    span = range(at, at + len(letter_words(label)))  # the first mention only

    def closest(rel_name: str) -> int | None:
        """Position of the word naming ``rel_name`` nearest the entity (None: no such word)."""
        found = _naming_places(words, rel_name, span)
        return min(found, key=lambda i: abs(i - at)) if found else None

    near, far = closest(first), closest(second)
    if near is None or far is None:
        return False
    if _JOINING & set(words[min(near, far):max(near, far)]):
        return False  # "both write and direct": the two relations are joined, not chained
    return abs(near - at) < abs(far - at)


_PRONOUNS = frozenset({"he", "she", "they", "him", "her", "them", "it"})


def _joint(rels: list[tuple[float, str]], graph: GraphStore, mapper: Mapper,
           named: list[str], question: str) -> list[tuple[Program, str]]:
    """"which films did Mel Brooks both write and direct?", "which films directed by Mel
    Brooks did he star in?": two relations the named entity takes part in from the same side,
    asked of it together (joined by *and / both / also / or*, or the entity named again, by
    name or pronoun, after the first relation word): the facts of each, intersected (*or*
    without *both*: joined).

    Only when both relations are named well (score >= 0.8) and the entity is on the same side
    of both (the results are then of one kind: films for ``directed_by`` and ``written_by``).
    """
    strong = [name for score, name in rels[:2] if score >= 0.8]
    if len(strong) != 2:
        return []
    first, second = (_attached(graph, mapper, named, r) for r in strong)
    if first is None or second is None or first[0] != second[0]:
        return []
    way = _joined_by(question, first[1], strong[0], strong[1])
    if way is None:
        return []
    side, label = first
    func = "set_union" if way == "or" else "set_intersection"
    steps = [(f"Facts of {label} by {r}", call("get_information", arg("relation", r),
                                               arg(side, _quote(label)))) for r in strong]
    steps.append((f"Both: {strong[0]} and {strong[1]}" if func == "set_intersection"
                  else f"Either: {strong[0]} or {strong[1]}",
                  call(func, arg("set1", ref(1)), arg("set2", ref(2)))))
    return [(program(None, steps),
             f"knowledge-graph linking, {label!r} in two relations at once: {strong[0]!r} "
             f"{'and' if func == 'set_intersection' else 'or'} {strong[1]!r}")]


def _joined_by(question: str, label: str, first: str, second: str) -> str | None:
    """How the question joins two relations of one entity: ``"and"`` (asked together),
    ``"or"`` (either), or ``None`` (not joined: a chain or one of them).

    >>> _joined_by("which films did Mel Brooks both write and direct", "Mel Brooks",
    ...            "written_by", "directed_by")
    'and'
    >>> _joined_by("which films directed by Mel Brooks did he star in", "Mel Brooks",
    ...            "directed_by", "starred_actors")
    'and'
    >>> _joined_by("which actors starred in films directed by Mel Brooks", "Mel Brooks",
    ...            "starred_actors", "directed_by") is None
    True
    """
    words = letter_words(question)
    starts, taken = _name_places(words, label)
    if not starts:
        return None
    places = [_naming_places(words, rel_name, taken) for rel_name in (first, second)]
    if not all(places):
        return None
    lo = min(min(p) for p in places)
    hi = max(max(p) for p in places)
    between = words[lo:hi + 1]
    if {"both", "and", "also"} & set(between):
        return "and"
    if "or" in between:
        return "or"
    if len(starts) > 1 or _PRONOUNS & set(words[lo:]):
        return "and"  # the entity named again ("... by Mel Brooks did he star in")
    return None


def _name_places(words: list[str], label: str) -> tuple[list[int], set[int]]:
    """Where the words of the entity ``label`` start in ``words``, and every position they
    cover."""
    name = letter_words(label)
    starts = [i for i in range(len(words) - len(name) + 1)
              if name and words[i:i + len(name)] == name]
    return starts, {i + k for i in starts for k in range(len(name))}


def _naming_places(words: list[str], rel_name: str, skip: set[int] | range) -> list[int]:
    """Positions of the words naming the relation ``rel_name`` (outside ``skip``)."""
    weight = _namer(rel_name)
    return [i for i, w in enumerate(words) if i not in skip and w not in _STOP and weight(w)]


def _naming_words(question: str, rel_name: str) -> set[str]:
    """The question's words that name the relation (see :func:`_namer`).

    >>> sorted(_naming_words("who directed and wrote A?", "directed_by"))
    ['directed']
    """
    weight = _namer(rel_name)
    return {w for w in letter_words(question) if w not in _STOP and weight(w) > 0}


def _two_named(rels: list[tuple[float, str]], question: str,
               skip: frozenset[str] | set[str] = frozenset()) -> tuple[str, str] | None:
    """The two best relations when the question's words name both (score >= 0.8) and not with
    the same words (one word naming both, "won": award received / winner, means one relation).

    >>> _two_named([(1.0, "directed_by"), (1.0, "starred_actors")],
    ...            "films starring A directed by B")
    ('directed_by', 'starred_actors')
    >>> _two_named([(1.0, "directed_by"), (0.5, "written_by")], "films directed by B") is None
    True
    """
    strong = [name for score, name in rels[:2] if score >= 0.8]
    if len(strong) != 2 or _naming_words(question, strong[0]) - skip == _naming_words(
            question, strong[1]) - skip:
        return None
    return strong[0], strong[1]


def _two_conditions(rels: list[tuple[float, str]], graph: GraphStore, mapper: Mapper,
                    named: list[str], question: str,
                    skip: frozenset[str] | set[str] = frozenset()) -> list[tuple[Program, str]]:
    """"which films starring Gene Wilder were directed by Mel Brooks?": two named entities,
    each next to the word of its own relation, and both on the same side of their facts; the
    things asked for are those both facts share (``set_intersection``). ``[]`` unless exactly
    one pairing of the two entities with the two relations fits.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(kgs=[b"A|starred_actors|Ann\\nA|directed_by|Bo\\nB|starred_actors|Ann\\n"
    ...                     b"C|directed_by|Bo\\nC|starred_actors|Bo\\n"])
    >>> q = "which films starring Ann were directed by Bo?"
    >>> m = Mapper(g)
    >>> p, why = _two_conditions(relation_scores(q, g), g, m, ["ann", "bo"], q)[0]
    >>> [x.call.func for x in p.queries]
    ['get_information', 'get_information', 'set_intersection']
    >>> why.split(": ")[1]
    "'Ann' (starred_actors) and 'Bo' (directed_by)"
    """
    pair = _two_named(rels, question, skip)
    people = list(dict.fromkeys(named))
    if pair is None or len(people) != 2:
        return []
    fits = []
    for (r1, r2) in (pair, pair[::-1]):
        one, two = _attached(graph, mapper, people[:1], r1), _attached(graph, mapper,
                                                                        people[1:], r2)
        if one is not None and two is not None and one[0] == two[0]:
            fits.append(((r1, one), (r2, two)))  # both facts end in the same kind of node
    if len(fits) == 2:  # the data allows both pairings: the words next to each name decide
        fits = [f for f in fits if _nearer(question, f[0][1][1], f[0][0], f[1][0])
                and _nearer(question, f[1][1][1], f[1][0], f[0][0])]
    if len(fits) != 1:
        return []
    (r1, (side, a)), (r2, (_, b)) = fits[0]
    return [(program(None, [
        (f"What has {r1} {a}", call("get_information", arg("relation", r1), arg(side, _quote(a)))),
        (f"What has {r2} {b}", call("get_information", arg("relation", r2), arg(side, _quote(b)))),
        ("Keep what both have", call("set_intersection", arg("set1", ref(1)), arg("set2", ref(2)))),
    ]), f"knowledge-graph linking, two conditions: {a!r} ({r1}) and {b!r} ({r2})")]


def _two_hops(rels: list[tuple[float, str]], graph: GraphStore, mapper: Mapper,
              named: list[str], question: str,
              skip: frozenset[str] | set[str] = frozenset()) -> list[tuple[Program, str]]:
    """"what genres are the films directed by Mel Brooks": the question names two relations;
    the first hop is the one that touches the named entity (when both do, the one whose word
    stands nearer the entity's name: "actors in films *directed* by Mel Brooks", where Mel
    Brooks also acts), the other is read from its results (both directions are written: the
    one the data lacks finds nothing and casts no vote)."""
    pair = _two_named(rels, question, skip)
    if pair is None:
        return []
    out: list[tuple[Program, str]] = []
    for first, second in (pair, pair[::-1]):
        start = _attached(graph, mapper, named, first)
        if start is None:
            continue
        if _attached(graph, mapper, named, second) is not None and not _nearer(
                question, start[1], first, second):
            continue  # both touch the entity: only the relation named next to it comes first
        side, label = start
        for way in ("head_entity", "tail_entity"):
            out.append((program(None, [
                (f"Follow {first} from {label}",
                 call("get_information", arg("relation", first), arg(side, _quote(label)))),
                (f"Follow {second} from those",
                 call("get_information", arg("relation", second), arg(way, ref(1))))]),
                f"knowledge-graph linking, two hops: {label!r} -> {first!r} -> {second!r}"))
    return out
