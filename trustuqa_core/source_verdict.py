"""An answer judged against every loaded source it was asked over (not only those it read).

:func:`~trustuqa_core.verdict.judge` sees the trace and the part of the data the query ran
over. With several sources loaded, some doubts can only be seen from the whole graph, and
every path that judges an answer shown to a user applies them through
:func:`source_reasons` (``answer()``, and the app's re-runs, hand-written queries and
imported runs), so that a re-run keeps the card it repeats:

- ``word_of_other_source``: a question word the query leaves unexplained names a relation /
  column of one other loaded source (and of none the answer was read from);
- ``mention_elsewhere``: the thing the question names is not in the source that word
  belongs to (*who acted in Tootsie?*: *Tootsie* is a row of the ranking table, not a film
  of the movie KG that holds *acted*), or not in the source the answer was read from, which
  read a loose match in its place;
- ``unlinked_mention``: the thing the question names is in no loaded source, and the query
  read a loose match in its place (*Duck Soup* over the movie KG read *dc*).

The last two only reword and lead a ``check`` that the other reasons already gave (a word of
another source, a weak mapping): the label never changes here except by
``word_of_other_source``, as ``answer()`` judged before.

>>> from trustuqa_core import load_graph, run_query
>>> g = load_graph(tables=[b"Rank,Film\\n1,Tootsie\\n"], kgs=[b"Dune|starred_actors|Ann\\n"])
>>> t = run_query("Query1: \\"get_information(relation='Film', tail_entity='Tootsie')\\"\\n"
...               "Query2: \\"get_information(relation='Rank', head_entity='output_of_query1')\\"",
...               g, question="who acted in Tootsie?")
>>> v = source_reasons(t.verdict, t, g)
>>> v.label, v.codes[0], "word_of_other_source" in v.codes
('check', 'mention_elsewhere', True)
>>> print(v.reasons[0].message)
'Tootsie' is not in kg1, the source 'acted' points to; table1 holds it but has no column for 'acted'
"""

from __future__ import annotations

from collections.abc import Sequence

from .mapping.mapper import Mapping
from .routing import name_index, words_of_one_other_source
from .store import GraphStore
from .text import normalize
from .trace import Trace
from .verdict import Reason, Verdict, with_reasons

__all__ = ["source_reasons", "word_of_other_source", "named_elsewhere", "stand_ins",
           "missing_in"]


def source_reasons(verdict: Verdict, trace: Trace, graph: GraphStore) -> Verdict:
    """``verdict`` (of ``trace``, an answer over ``graph`` or a part of it) with the reasons
    only the whole of ``graph`` shows (see the module docstring); ``verdict`` itself when the
    trace has no answer. ``graph`` is every source the question was asked over: all loaded
    ones, or those the user chose."""
    if not trace.answer or verdict.label == "no answer":
        return verdict
    verdict = word_of_other_source(verdict, trace, graph)
    return _leading(verdict, [*named_elsewhere(verdict, trace, graph),
                              *stand_ins(verdict, trace, graph)])


def _read_from(trace: Trace) -> list[str]:
    """The sources ``trace``'s steps read facts from (none when not recorded)."""
    return list(trace.routing.used) if trace.routing is not None else []


def _unexplained(verdict: Verdict) -> list[str]:
    """The question words ``verdict`` says its query leaves unexplained (the
    ``unexplained_words`` and the asked-for ``focus_unexplained`` word), normalised."""
    out: list[str] = []
    for r in verdict.reasons:
        if r.code in ("unexplained_words", "focus_unexplained") and r.arg:
            out += [normalize(w) for w in r.arg.split(", ")]
    return list(dict.fromkeys(w for w in out if w))


def _other_source_words(verdict: Verdict, trace: Trace, graph: GraphStore) -> dict[str, str]:
    """Unexplained question word -> the one other loaded source whose relation / column
    names it (see :func:`word_of_other_source`)."""
    if len(graph.sources) < 2:
        return {}
    words = _unexplained(verdict)
    used = _read_from(trace)
    if not words or not used:
        return {}
    return words_of_one_other_source(words, graph, used)


def word_of_other_source(verdict: Verdict, trace: Trace, graph: GraphStore) -> Verdict:
    """``verdict`` with the reason ``word_of_other_source`` when, with several sources
    loaded, a question word its query leaves unexplained is a word of a relation / column
    name of another loaded source and of none the answer was read from: *who wrote Chen
    Wei?* answered *Marketing* from a staff table while *wrote* names the books KG's
    ``written_by``.

    Relation and column words only, read as routing reads them
    (:func:`~trustuqa_core.routing.relation_word_sources`); a word of a node label elsewhere
    is not enough, and so is a word naming relations of several other sources (it singles
    out none: on the mixed tune half, *score*, *episode*, *section* named columns of 2-50
    other tables and the 15 verified answers the rule then held back were all right).
    """
    if any(r.code == "word_of_other_source" for r in verdict.reasons):
        return verdict
    single = _other_source_words(verdict, trace, graph)
    if not single:
        return verdict
    kinds = {s.name: s.kind for s in graph.sources}
    read = ", ".join(sorted(_read_from(trace)))
    parts = [f"{w!r} names {'a column' if kinds.get(x) == 'table' else 'a relation'} of {x}"
             for w, x in single.items()]
    message = (f"{'; '.join(parts)}, but the answer was read from {read}, whose query does not "
               f"account for {'it' if len(single) == 1 else 'them'}")
    return with_reasons(verdict, [Reason("word_of_other_source", message, None,
                                         ", ".join(single))])


def _named(trace: Trace) -> list[Mapping]:
    """The mappings of the value / entity literals of ``trace``'s query that its question
    names (the literal's words are words of the question)."""
    question = f" {normalize(trace.question or '')} "
    out = []
    for m in trace.mapped.mappings if trace.mapped is not None else ():
        said = normalize(m.text)
        if m.role in ("value", "entity") and said and not said.startswith("output of query") \
                and f" {said} " in question:
            out.append(m)
    return out


def _holders(graph: GraphStore, texts: Sequence[str]) -> list[str]:
    """The loaded sources holding a node labelled as one of ``texts`` (normalised)."""
    names = name_index(graph)
    found: set[int] = set()
    for t in texts:
        found |= names.get(normalize(t), frozenset())
    return [graph.sources[i].name for i in sorted(found)]


def _kind_word(graph: GraphStore, name: str) -> str:
    kind = next((s.kind for s in graph.sources if s.name == name), "kg")
    return "column" if kind == "table" else "relation"


def missing_in(trace: Trace, graph: GraphStore, source: str) -> list[str]:
    """The things ``trace``'s question names (value literals of its query, as written) that
    no node of the loaded source ``source`` is labelled as, while a source the answer was
    read from holds them (mapped exactly there, say).

    >>> from trustuqa_core import load_graph, run_query
    >>> g = load_graph(tables=[b"Rank,Film\\n1,Tootsie\\n"], kgs=[b"Dune|starred_actors|Ann\\n"])
    >>> t = run_query("Query1: \\"get_information(relation='Film', tail_entity='Tootsie')\\"", g,
    ...               question="who acted in Tootsie?")
    >>> missing_in(t, g, "kg1"), missing_in(t, g, "table1")
    (['Tootsie'], [])
    """
    return list(dict.fromkeys(n.text for n, _ in _lacking(trace, graph, source)))


def _lacking(trace: Trace, graph: GraphStore, source: str) -> list[tuple[Mapping, list[str]]]:
    """The named literals of ``trace`` (:func:`_named`) that ``source`` does not hold while
    sources the answer was read from do, each with those sources."""
    used = _read_from(trace)
    out = []
    for n in _named(trace):
        holders = _holders(graph, [n.text, *n.labels])
        here = [s for s in holders if s in used]
        if source not in holders and here:
            out.append((n, here))
    return out


def named_elsewhere(verdict: Verdict, trace: Trace, graph: GraphStore) -> list[Reason]:
    """``mention_elsewhere`` reasons: a word of the question points to another source
    (``word_of_other_source``) that does not hold the thing the question names, while the
    source the answer was read from does: the data holds no answer to this question, only
    one about something else of the thing named."""
    single = _other_source_words(verdict, trace, graph)
    if not single:
        return []
    out = []
    for word, other in single.items():
        for n, here in _lacking(trace, graph, other):
            what = _kind_word(graph, here[0])
            out.append(Reason("mention_elsewhere", f"{n.text!r} is not in {other}, the source "
                              f"{word!r} points to; {', '.join(here)} holds it but has no "
                              f"{what} for {word!r}", n.query or None, n.key))
    return out


def stand_ins(verdict: Verdict, trace: Trace, graph: GraphStore) -> list[Reason]:
    """Reasons for a thing the question names that the source the answer was read from does
    not hold, when the query read a weak match in its place (a ``weak_mapping`` of that
    argument): ``unlinked_mention`` when no loaded source holds it, ``mention_elsewhere``
    naming the sources that do."""
    weak = {r.arg for r in verdict.reasons if r.code == "weak_mapping"}
    used = _read_from(trace)
    if not weak or not used:
        return []
    out = []
    for m in _named(trace):
        text, labels, method, key, query = m.text, m.labels, m.method, m.key, m.query
        if key not in weak:
            continue
        holders = _holders(graph, [text])
        if any(s in used for s in holders):
            continue
        read = f"the query read {', '.join(repr(x) for x in labels[:3])} in its place " \
               f"(a {method} match)" if labels else "the query matched nothing in its place"
        where = ", ".join(used)
        if holders:
            out.append(Reason("mention_elsewhere", f"{text!r} is not in {where}, which the "
                              f"answer was read from ({', '.join(holders)} holds it): {read}",
                              query or None, key))
        else:
            loaded = [s.name for s in graph.sources]
            nowhere = loaded[0] if len(loaded) == 1 else f"any loaded source ({_few(loaded)})"
            out.append(Reason("unlinked_mention", f"{text!r} is not in {nowhere}: {read}",
                              query or None, key))
    return out


def _few(names: Sequence[str]) -> str:
    """Up to three ``names``, then how many more.

    >>> _few(["a", "b"]), _few(["a", "b", "c", "d"])
    ('a, b', 'a, b, c and 1 more')
    """
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _leading(verdict: Verdict, first: Sequence[Reason]) -> Verdict:
    """``verdict`` with ``first`` leading its reasons and its blocking codes, when it is a
    ``check`` already (these reasons say plainly why; they never make a ``check`` alone)."""
    if not first or verdict.label != "check":
        return verdict
    first = list(dict.fromkeys(first))
    codes = tuple(dict.fromkeys([*(r.code for r in first), *verdict.blocking]))
    return Verdict("check", (*first, *verdict.reasons), codes)
