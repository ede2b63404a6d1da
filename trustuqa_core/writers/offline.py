"""The offline writer: query programs from demonstrations and schema linking, with no network.

Candidates, in order:

0. *Your confirmed examples* — a demo a user confirmed (origin ``user``) whose question has
   the new question's template, with its entities, the column it names and the direction of
   its ranking re-bound (:mod:`.confirmed`). When there are such candidates, the first
   attempt writes only them (the user checked that query shape); the rest follow on retry.
1. *Template re-binding* — demos whose question has the same template as the new question
   (retrieved ones, then every allowed demo of the pool with a matching template key, most
   similar first) give their query with the literals swapped (:mod:`.templates`). A re-bound
   query is kept only if its relations exist in the graph and its new literals name graph
   values.
2. *Schema linking* (tables) — cell values in the question become conditions, a named column
   the selected column, cue words the aggregate (:mod:`.tables`).
0. *Chaining across sources* (a table with a KG / TKG: :mod:`.chain`) comes first when it
   links a table column, a KG relation and a TKG relation.
3. *Graph linking* (KGs, TKGs; when no demo has the question's template) — a named entity and
   the relation the question's words name (:mod:`.kg`), before demos whose template is
   merely similar.

The writer does not guess: a schema-linking candidate that reads a whole column with no
condition while the question names something no literal of it covers (``which skiers are
from USA?`` with no ``USA`` in the table) is dropped, and the writer's note names the words
it could not link (``could not link 'USA' ...``), so the answer is "no answer" saying why
instead of a column dump.

Attempt ``a`` returns candidates ``a*n .. a*n+n-1``, so retries move on to further candidates;
the vote then picks the answer most candidates agree on.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable

import numpy as np

from ..demos import Demo, DemoPool
from ..errors import ParseError
from ..mentions import (
    find_mentions,
    same_question_form,
    unbound_mentions,
    unexplained_words,
)
from ..numbers import parse_number
from ..query.ast import Program, Text
from ..query.parse import parse
from ..query.render import render_program
from ..store import GraphStore, LabelPool
from ..text import normalize
from .base import WriteRequest, Written
from .blank_cells import blank_note, blank_rows
from .chain import link_chain
from .confirmed import CONFIRMED_NOTE, confirmed_note, rebind_confirmed
from .kg import link_kg, link_kg_joint, relation_scores
from .table_program import plan_program
from .tables import link_table
from .templates import (
    Template,
    make_template,
    mentions,
    rebind,
    template_index,
)

__all__ = ["OfflineWriter", "unlinked_words", "CONFIRMED_NOTE"]


class OfflineWriter:
    """Writes queries without an LLM (see the module docstring).

    Args:
        max_templates: at most this many template demos are tried per question.
        tables: also link table questions to the schema.
        linker_first: put the schema-linking candidate before template candidates (measured
            better on WikiSQL dev: templates come from other tables).
    """

    name = "offline"

    def __init__(self, max_templates: int = 60, tables: bool = True,
                 linker_first: bool = True) -> None:
        self.max_templates = max_templates
        self.tables = tables
        self.linker_first = linker_first

    def candidates(self, request: WriteRequest) -> list[tuple[Program, str]]:
        """Every candidate as ``(query program, how it was made)``, best first."""
        out = self._template_candidates(request)
        self.unlinked: list[str] = []
        self.blank = ""
        if self.tables and any(s.kind == "table" for s in request.graph.sources):
            plan = link_table(request.question, request.graph)
            built = plan_program(plan)
            missing = unlinked_words(request.question, built, request.graph) \
                if built is not None else []
            blank = blank_rows(request.graph, plan.computed) if built is not None else []
            if missing:
                self.unlinked = missing
                built = None
            elif blank and plan.computed is not None:
                self.blank = blank_note(plan.computed.column, blank, plan.source)
                built = None
            if built is not None:
                linked = (built, f"schema linking: {plan.explain()}")
                out = [linked, *out] if self.linker_first or not out else [*out, linked]
        chain = link_chain(request.question, request.graph)
        self.chained = len(chain)
        return chain + out

    def write(self, request: WriteRequest, n: int, attempt: int = 0,
              failed_stage: str = "") -> Written:
        mine = self.confirmed_candidates(request)
        cands = self.candidates(request)
        # a leading group is tried alone first: the user's confirmed examples, else a
        # cross-source chain (the per-source candidates each see one hop of it and would
        # outvote it)
        lead = mine[:n] if mine else cands[:self.chained]
        rest = cands if mine else cands[self.chained:]
        if lead and attempt == 0:
            batch = lead
        else:
            at = attempt - 1 if lead else attempt
            batch = rest[at * n:(at + 1) * n]
        cands = mine + cands
        lines = [f"offline writer (no LLM was called), attempt {attempt + 1}: "
                 f"{len(batch)} of {len(cands)} candidate queries"]
        lines += [f"{i + 1}. {note}" for i, (_, note) in enumerate(batch)]
        notes = [note for _, note in batch]
        if not cands:
            lines.append("no demonstration with the same question template was found"
                         + (" and no table column or value is named in the question"
                            if self.tables else ""))
        if self.unlinked and not batch:
            words = ", ".join(repr(w) for w in self.unlinked)
            lines.append(f"could not link {words} to the data: no column dump is offered as an "
                         "answer")
            notes.append(f"could not link {words} to any value of the loaded data (the "
                         "offline writer does not guess): override a mapping, write the query, "
                         "or configure an LLM")
        if self.blank and not batch:
            lines.append(self.blank)
            notes.append(self.blank)
        return Written([render_program(p) for p, _ in batch], "\n".join(lines), notes)

    # -- confirmed examples ----------------------------------------------------------------
    def confirmed_candidates(self, request: WriteRequest,
                             limit: int = 5) -> list[tuple[Program, str]]:
        """User-confirmed demos re-bound to the question (most similar first); each note
        starts with :data:`CONFIRMED_NOTE`."""
        pool = request.pool
        found = [(r.demo, r.similarity) for r in request.demos if r.demo.origin == "user"]
        if pool is not None and len(pool) and "user" not in request.exclude_origins:
            allowed = pool.allowed(request.kinds or None, request.exclude_origins)
            same = set(pool.same_question(request.question))
            seen = {d.id for d, _ in found}
            pos = [p for p in _user_positions(pool) if allowed[p] and p not in same
                   and pool.demos[p].id not in seen]
            if pos:
                sims = pool.matrix[pos] @ pool.encode_query(request.question)
                found += [(pool.demos[p], float(s)) for p, s in zip(pos, sims, strict=True)]
                found.sort(key=lambda x: -x[1])
        columns = list(request.graph.relation_names)
        out: list[tuple[Program, str]] = []
        for demo, sim in found:
            if pool is not None and pool.verifier(demo) is False:
                continue
            try:
                program = parse(demo.query)
            except ParseError:
                continue
            got = rebind_confirmed(demo.question, program, request.question, columns,
                                   request.mapper.entities)
            if got is None:
                continue
            out.append((got.program, confirmed_note(demo.question, sim, got.swaps)))
            if len(out) >= limit:
                break
        return out

    # -- templates ---------------------------------------------------------------------
    def _template_demos(self, request: WriteRequest) -> list[tuple[Demo, Template | None, float]]:
        """Retrieved demos, then pool demos sharing a template key (most similar first)."""
        found: list[tuple[Demo, Template | None, float]] = [
            (r.demo, None, r.similarity) for r in request.demos]
        pool = request.pool
        if pool is None or len(pool) == 0:
            return found
        index = template_index(pool)
        keys = [k for k, _ in mentions(request.question, request.mapper.entities)]
        positions = {p for k in keys for p in index.by_key.get(k, ())}
        if not positions:
            return found
        allowed = pool.allowed(request.kinds or None, request.exclude_origins)
        same = set(pool.same_question(request.question))
        pos = np.array(sorted(p for p in positions if allowed[p] and p not in same),
                       dtype=np.int64)
        if len(pos) == 0:
            return found
        sims = pool.matrix[pos] @ pool.encode_query(request.question)
        order = pos[np.argsort(-sims, kind="stable")][: self.max_templates]
        seen = {d.id for d, _, _ in found}
        for p in order:
            demo = pool.demos[int(p)]
            if demo.id in seen or pool.verifier(demo) is False:
                continue
            sim = float(pool.matrix[p] @ pool.encode_query(request.question))
            found.append((demo, index.templates[int(p)], sim))
        return found

    def _similar_candidates(self, request: WriteRequest,
                            limit: int = 10) -> list[tuple[Program, str]]:
        """No demo has the question's template: demos whose template is the most similar
        (same number of slots), re-bound by position."""
        pool = request.pool
        if pool is None or len(pool) == 0:
            return []
        index = template_index(pool)
        allowed = pool.allowed(request.kinds or None, request.exclude_origins)
        same = set(pool.same_question(request.question))
        out: list[tuple[Program, str]] = []
        for key, values in mentions(request.question, request.mapper.entities):
            for other, sim in index.similar_keys(key, len(values), k=3):
                for p in index.by_key[other]:
                    demo, template = pool.demos[p], index.templates[p]
                    if not allowed[p] or p in same or template.slots != len(values):
                        continue
                    if not same_question_form(demo.question, request.question):
                        continue  # "how many films did X star in?" answers another question
                    bound = template.in_order(values)
                    if not self._fits(request, template, bound):
                        continue
                    program = rebind(template, bound)
                    if not _roles_fit(request.graph, request.mapper.entities, program):
                        continue  # "who directed [Kismet]?" re-bound with a director
                    swaps = ", ".join(f"{a!r} -> {b!r}" for a, b in zip(template.literals,
                                                                       bound, strict=True))
                    out.append((program,
                                f"re-bound demo {demo.question!r} ({demo.origin}), whose "
                                f"template is similar ({sim:.2f}): {swaps}"))
                    if len(out) >= limit:
                        return out
        return out

    def _template_candidates(self, request: WriteRequest) -> list[tuple[Program, str]]:
        out = self._exact_candidates(request)
        if out:
            return out
        kinds = {s.kind for s in request.graph.sources}
        if kinds & {"kg", "tkg"}:  # relation words in the question beat a similar template
            joint = link_kg_joint(request.question, request.graph, request.mapper)
            if joint:
                return joint  # two relations asked together: a similar template reads one
            out = link_kg(request.question, request.graph, request.mapper)
            if any(_names_a_fact(p) for p, _ in out):
                return out  # the fact joining two named entities: a template reads less
        if "table" in kinds:
            return out  # across tables, a merely similar template misleads more than it helps
        similar = self._similar_candidates(request)
        if out:
            # a template naming one of the two entities a link binds answers less; and when a
            # link accounts for every word of the question ("who starred in Memento?"), a
            # template reading a relation no word names ("who directed [Kismet]?" re-bound)
            # answers another question (while words stay unexplained, the templates' votes
            # are the doubt the vote shows)
            named = {name for _, name in relation_scores(request.question, request.graph)}
            bound = max(len(_entities(p)) for p, _ in out)
            explained = any(not unexplained_words(request.question,
                                                  [*_relations(p), *_entities(p)],
                                                  {q.call.func for q in p.queries})
                            for p, _ in out)
            similar = [(p, why) for p, why in similar if len(_entities(p)) >= bound
                       and (not explained or _relations(p) <= named)]
        return out + similar

    def _exact_candidates(self, request: WriteRequest) -> list[tuple[Program, str]]:
        """Re-bound demos with the question's template, the program most of them write first.

        Benchmark demos carry no answer to re-verify them with, but demos sharing a template
        check each other: the program written by most of them goes first (most similar
        demo first among equals), so a demo whose recorded query is wrong is outvoted.
        """
        found = []
        for demo, template, sim in self._template_demos(request):
            if template is None:
                try:
                    template = make_template(demo.question, parse(demo.query))
                except ParseError:
                    continue
                if template is None:
                    continue
            values = template.match(request.question)
            if values is None or not self._fits(request, template, values):
                continue
            program = rebind(template, values)
            swaps = ", ".join(f"{a!r} -> {b!r}" for a, b in zip(template.literals, values,
                                                               strict=True))
            note = f"re-bound demo {demo.question!r} ({demo.origin}, similarity {sim:.2f}): {swaps}"
            found.append((program, render_program(program, with_steps=False), note))
        support = Counter(calls for _, calls, _ in found)
        found.sort(key=lambda f: -support[f[1]])
        return [(program, f"{note}; {support[calls]} of {len(found)} matching demos write "
                          "this program") for program, calls, note in found]

    unlinked: list[str] = []
    blank = ""

    def _fits(self, request: WriteRequest, template: Template, values: tuple[str, ...]) -> bool:
        """Relations exist in the graph and the new literals name graph values (or numbers)."""
        graph, entities = request.graph, request.mapper.entities
        rel_names = {normalize(r) for r in graph.relation_names}
        for q in template.program.queries:
            for a in q.call.args:
                if a.name in ("relation", "key") and isinstance(a.value, Text):
                    name = a.value.value
                    if normalize(name) not in rel_names and name not in (
                            "time", "start_time", "end_time"):
                        return False
        return all(parse_number(v) is not None or entities.normalized(v) for v in values)


def _lookup_texts(program: Program, names: tuple[str, ...]) -> set[str]:
    """The texts a program's lookups give the arguments ``names`` (references left out).

    >>> from trustuqa_core.query import parse
    >>> p = parse("Query1: \\"get_information(relation='directed_by', tail_entity='Bo')\\"")
    >>> _lookup_texts(p, ("relation",)), _lookup_texts(p, ("head_entity", "tail_entity"))
    ({'directed_by'}, {'Bo'})
    """
    return {a.value.value for q in program.queries if q.call.func == "get_information"
            for a in q.call.args if a.name in names and isinstance(a.value, Text)}


def _relations(program: Program) -> set[str]:
    """The relation names a program's lookups read."""
    return _lookup_texts(program, ("relation",))


def _entities(program: Program) -> set[str]:
    """The values a program's lookups name as head or tail entities."""
    return _lookup_texts(program, ("head_entity", "tail_entity"))


def _roles_fit(graph: GraphStore, entities: LabelPool, program: Program) -> bool:
    """Whether every value a lookup names has facts in the role the lookup gives it: a value
    read as the head (tail) of relation R is the head (tail) of some R fact. A demo of a
    similar template re-bound with a value of another kind (a director where the demo named
    a film) fails this, even though the value is in the graph.

    >>> from trustuqa_core import load_graph
    >>> from trustuqa_core.mapping import Mapper
    >>> from trustuqa_core.query import parse
    >>> g = load_graph(kgs=[b"Kismet|directed_by|William Dieterle\\n"])
    >>> lookup = "Query1: \\"get_information(relation='directed_by', head_entity='{}')\\""
    >>> _roles_fit(g, Mapper(g).entities, parse(lookup.format("Kismet")))
    True
    >>> _roles_fit(g, Mapper(g).entities, parse(lookup.format("William Dieterle")))
    False
    """
    for q in program.queries:
        if q.call.func != "get_information":
            continue
        rel_arg = q.call.arg("relation")
        if rel_arg is None or not isinstance(rel_arg.value, Text):
            continue
        rel = graph.relation(rel_arg.value.value)
        if rel is None:
            continue
        for a in q.call.args:
            if a.name not in ("head_entity", "tail_entity") or a.cmp != "=" \
                    or not isinstance(a.value, Text) or a.value.value.startswith("output_of"):
                continue
            nodes = entities.normalized(a.value.value)
            if not nodes:
                continue  # a number or a text the mapper reads later: nothing to check here
            facts = (graph.facts_head_rel if a.name == "head_entity"
                     else lambda n, r: graph.facts_rel_tail(r, n))
            if not any(len(facts(n, rel)) for n in nodes):
                return False
    return True


_USER_POSITIONS: weakref.WeakKeyDictionary[DemoPool, list[int]] = weakref.WeakKeyDictionary()


def _names_a_fact(program: Program) -> bool:
    """One lookup binding both ends of a fact the question names (``get_information(
    head_entity='Ed Fitz', relation=..., tail_entity='Member of ...', key='end_time')``)."""
    if len(program.queries) != 1:
        return False
    names = {a.name for a in program.queries[0].call.args if isinstance(a.value, Text)}
    return {"head_entity", "tail_entity"} <= names


def _user_positions(pool: DemoPool) -> list[int]:
    """Positions of a pool's user-confirmed demos (cached per pool)."""
    found = _USER_POSITIONS.get(pool)
    if found is None:
        found = [p for p, d in enumerate(pool.demos) if d.origin == "user"]
        _USER_POSITIONS[pool] = found
    return found


_CONDITION_ARGS = ("head_entity", "tail_entity", "value", "entity")


def unlinked_words(question: str, program: Program, graph: GraphStore | None = None
                   ) -> list[str]:
    """What ``question`` names that ``program`` neither conditions on nor uses, when the
    program has no condition at all (a column dump); else ``[]``. A capitalised cue word
    (*Most*, *Less*) names something only when ``graph`` holds it as a value.

    >>> from trustuqa_core.query import get_information, program
    >>> unlinked_words("which skiers are from USA?",
    ...                program(None, [("", get_information(relation="Rank"))]))
    ['USA']
    >>> unlinked_words("which skiers are from Italy?", program(None, [
    ...     ("", get_information(relation="Nation", tail_entity="Italy"))]))
    []
    """
    if _has_condition(program):
        return []
    lits = [program.target_type or ""] + [str(a.value) for q in program.queries
                                          for a in q.call.args if isinstance(a.value, Text)]
    held = None if graph is None else _held_by(graph)
    return [m.text for m in unbound_mentions(find_mentions(question, held), lits)]


def _held_by(graph: GraphStore) -> Callable[[str], bool]:
    """Whether ``graph`` holds a text as a value (as written, lower-case, capitalised or
    upper-case)."""
    return lambda text: any(graph.entity(t) is not None
                            for t in (text, text.lower(), text.title(), text.upper()))


def _has_condition(program: Program) -> bool:
    return any(a.name in _CONDITION_ARGS and isinstance(a.value, Text)
               for q in program.queries for a in q.call.args)
