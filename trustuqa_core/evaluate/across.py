"""The *across* benchmark (issue 13; the paper's appendix D.2): questions that hop from a table
row to a film (table), from the film to a person (MetaQA KB), and from the person to a dated
award or nomination (the CronQuestions temporal KG), each with a gold program and an answer
computed straight from the data files (not by the executor, so the ceiling is a real check).

Generator: for every table of WTQ ``random-split-1-train``/``-dev`` and WikiSQL ``dev`` (in path
order, shuffled with a fixed seed) whose cell ``B``, in a title-like column, is a film of the KB
with a director / writer / actor ``C`` that has an ``award received`` / ``nominated for`` fact in
the TKG, pick a key cell ``A`` of the same row (a column whose value is unique in the table and
names no KB entity) and write questions of the templates round-robin (each film once per
template, at most :data:`_PER_TABLE` per table):

- ``when``  — "When did the director of the Film whose Year is 1994 receive the Oscar?" (the
  TKG facts' time; single-year facts only);
- ``which`` — "Which awards did the director of the Film whose Year is 1994 receive?" (tails);
- ``count`` — "How many awards did …" (``count``; only where no award repeats);
- ``films`` — "Which Film values of the table were directed by someone who received the
  Oscar?" (TKG → KB → table, the other way round);
- ``who``   — "Who among the actors of the Film whose Year is 1994 received the Oscar?" (the
  hop's people holding the fact, ``set_intersection``; only for a hop of two people or more).

Each question is answered over its own table + ``kb_partial`` + the TKG sample as one graph.
Modes: ``ceiling`` runs the gold program; ``answer`` runs the offline writer (``answer()``).

>>> _when_text("director", "Film", "Year", "1994", "award received", "Oscar")
'When did the director of the Film whose Year is 1994 receive Oscar?'
"""

from __future__ import annotations

import gzip
import random
import re
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..answer import answer
from ..errors import TrustUQAError
from ..execute import run_query
from ..graph import build_graph
from ..numbers import parse_number
from ..sources import SourceFacts
from ..store import GraphStore
from ..text import normalize
from ..trace import Trace
from ..translate import load_source
from .datasets import Source, data_root, load
from .outcome import Outcome, Unavailable, classify_trace

__all__ = ["AcrossQuestion", "AcrossEvaluation", "generate", "TEMPLATES"]

TEMPLATES = ("when", "which", "count", "films", "who")
#: KB relation -> (the role's noun, how its films are said to be linked to someone)
KB_ROLES = {"directed_by": ("director", "were directed by"),
            "written_by": ("writer", "were written by"), "starred_actors": ("actor", "starred")}
TKG_VERBS = {"award received": ("receive", "received", "awards"),
             "nominated for": ("get nominated for", "was nominated for", "nominations")}
_TABLE_SPLITS = (("wtq", "random-split-1-train"), ("wtq", "random-split-1-dev"),
                 ("wikisql", "dev"))
_KB = Path("metaqa/kb_partial/kb_partial.txt.gz")
_TKG = Path("cronquestions/trustuqa_cg/CronQuestion_CG/kg_test.txt")
_MAX_KEY = 40
_PER_TABLE = 8


@dataclass(frozen=True)
class AcrossQuestion:
    """One generated question with its gold program, answers and table."""

    id: str
    template: str
    question: str
    query: str
    answers: tuple[str, ...]
    table: Source
    benchmark: str


@dataclass
class _World:
    """The KB and TKG facts the generator needs, read from the files."""

    films: dict[str, list[tuple[str, str]]]  # film -> [(kb relation, person)]
    people: dict[str, list[tuple[str, str, str]]]  # person -> [(tkg relation, award, year)]
    by_award: dict[tuple[str, str], set[str]]  # (tkg relation, award) -> people
    films_of: dict[tuple[str, str], set[str]]  # (kb relation, person) -> films


def _read_world(root: Path) -> _World:
    people: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    by_award: dict[tuple[str, str], set[str]] = defaultdict(set)
    with (root / _TKG).open(encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t") + ["", ""]
            if len(parts) >= 5 and parts[1] in TKG_VERBS:
                single = parts[3] if parts[3] and parts[3] == parts[4] else ""
                people[parts[0]].append((parts[1], parts[2], single))
                by_award[(parts[1], parts[2])].add(parts[0])
    films: dict[str, list[tuple[str, str]]] = defaultdict(list)
    films_of: dict[tuple[str, str], set[str]] = defaultdict(set)
    with gzip.open(root / _KB, "rt", encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("|")
            if len(parts) == 3 and parts[1] in KB_ROLES:
                films[parts[0]].append((parts[1], parts[2]))
                films_of[(parts[1], parts[2])].add(parts[0])
    return _World(dict(films), dict(people), dict(by_award), dict(films_of))


def _when_text(role: str, col_b: str, col_a: str, a: str, rel: str, award: str) -> str:
    return f"When did the {role} of the {col_b} whose {col_a} is {a} {TKG_VERBS[rel][0]} {award}?"


def _chain(col_a: str, a: str, col_b: str, kb_rel: str) -> list[str]:
    return [f"get_information(relation='{_q(col_a)}', tail_entity='{_q(a)}')",
            f"get_information(relation='{_q(col_b)}', head_entity='output_of_query1')",
            f"get_information(relation='{kb_rel}', head_entity='output_of_query2')"]


def _q(text: str) -> str:
    return text.replace("'", "\\'")


def _program(calls: list[str]) -> str:
    return "\n".join(f'Query{i}: "{c}"' for i, c in enumerate(calls, 1))


def _key_cell(facts: SourceFacts, row: int, col_b: str, world: _World) -> tuple[str, str] | None:
    """A (column, value) of ``row`` whose value is unique in its column and not a KB name."""
    by_col: dict[str, list[str]] = defaultdict(list)
    mine: dict[str, str] = {}
    for h, r, t in zip(facts.heads, facts.relations, facts.tails, strict=True):
        by_col[r].append(t)
        if int(str(h)) == row:
            mine[r] = t
    for col in facts.columns:
        value = mine.get(col)
        if (col == col_b or not value or value in world.films or len(value) > _MAX_KEY
                or not _plain(col) or not _plain(value)
                or col.lower() in ("row_number", "#") or by_col[col].count(value) != 1
                or not normalize(value)):
            continue
        return col, value
    return None


def _film_cells(facts: SourceFacts, world: _World) -> list[tuple[int, str, str]]:
    """``(row, column, film)`` of cells naming a KB film: not numbers, only in title-like
    columns (*Film*, *Title*, *Nominated work*; not *Song title*, *Works number*), so that a
    team, a place or a song that shares a film's name is not read as the film."""
    found = []
    for h, col, text in zip(facts.heads, facts.relations, facts.tails, strict=True):
        if (text in world.films and parse_number(text) is None and len(text) >= 4
                and _TITLE.search(col) and not _NOT_TITLE.search(col) and _plain(col)):
            found.append((int(str(h)), col, text))
    return sorted(found, key=lambda x: x[0])


_TITLE = re.compile(r"\b(?:film|title|movie|work|play|show|series|picture)s?\b", re.IGNORECASE)
_NOT_TITLE = re.compile(r"song|single|album|number|episode|book|novel", re.IGNORECASE)


def _plain(column: str) -> bool:
    """A column name a question can say: one line, no braces or quotes."""
    return not any(c in column for c in '\n{}[]"\\')


def _questions_for(facts: SourceFacts, table: Source, benchmark: str, world: _World,
                   template: str, used: set[tuple[str, ...]]) -> AcrossQuestion | None:
    for row, col_b, film in _film_cells(facts, world):
        for kb_rel in sorted({r for r, _ in world.films[film]}):
            people = sorted({p for r, p in world.films[film] if r == kb_rel})
            awards = [(p, *a) for p in people for a in world.people.get(p, [])]
            # which/count project the relation from the people: every one of them must have a
            # fact of it, else the executor reads a person with none as a value and expands it
            # (a documented repair) and the gold would be ambiguous; when/films select facts
            rels = sorted({a[1] for a in awards})
            rel = next((r for r in rels if template in ("when", "films", "who") or all(
                any(a[0] == p and a[1] == r for a in awards) for p in people)), None)
            if rel is None:
                continue
            key = _key_cell(facts, row, col_b, world)
            if key is None:
                continue
            chosen = [a for a in awards if a[1] == rel]
            # when/films ask about one award: each award of the film's people is a question
            firsts = (sorted({a[2] for a in chosen}) if template in ("when", "films", "who")
                      else [""])
            for award in firsts:
                if (film, template, award) in used:
                    continue
                ordered = sorted(chosen, key=lambda a: a[2] != award)
                made = _make(template, key, col_b, film, kb_rel, ordered, facts, world)
                if made is not None:
                    question, calls, answers = made
                    used.add((film, template, award))
                    return AcrossQuestion("", template, question, _program(calls),
                                          tuple(answers), table, benchmark)
    return None


def _make(template: str, key: tuple[str, str], col_b: str, film: str, kb_rel: str,
          awards: list[tuple[str, str, str, str]], facts: SourceFacts,
          world: _World) -> tuple[str, list[str], list[str]] | None:
    col_a, a = key
    role = KB_ROLES[kb_rel][0]
    rel, award = awards[0][1], awards[0][2]
    calls = _chain(col_a, a, col_b, kb_rel)
    same = [x for x in awards if x[1] == rel]
    if template == "when":
        years = [y for _, r, d, y in awards if r == rel and d == award]
        if not years or "" in years:
            return None
        calls.append(f"get_information(head_entity='output_of_query3', relation='{rel}', "
                     f"tail_entity='{_q(award)}', key='time')")
        return _when_text(role, col_b, col_a, a, rel, award), calls, sorted(set(years))
    noun = TKG_VERBS[rel][2]
    subject = f"the {role} of the {col_b} whose {col_a} is {a}"
    if template == "who":
        return _who(calls, f"{role}s of the {col_b} whose {col_a} is {a}", (kb_rel, film),
                    (rel, award), world)
    if template == "which":
        calls.append(f"get_information(head_entity='output_of_query3', relation='{rel}')")
        return (f"Which {noun} did {subject} {TKG_VERBS[rel][0]}?", calls,
                sorted({d for _, _, d, _ in same}))
    if template == "count":
        if len({d for _, _, d, _ in same}) != len(same):
            return None
        calls += [f"get_information(head_entity='output_of_query3', relation='{rel}')",
                  "count(set='output_of_query4')"]
        return f"How many {noun} did {subject} {TKG_VERBS[rel][0]}?", calls, [str(len(same))]
    # films: TKG -> KB -> table
    people = world.by_award.get((rel, award), set())
    linked = {f for p in people for f in world.films_of.get((kb_rel, p), set())}
    cells = sorted({t for r, t in zip(facts.relations, facts.tails, strict=True)
                    if r == col_b and t in linked})
    if not cells:
        return None
    calls = [f"get_information(relation='{rel}', tail_entity='{_q(award)}')",
             f"get_information(relation='{kb_rel}', tail_entity='output_of_query1')",
             f"get_information(relation='{_q(col_b)}', tail_entity='output_of_query2')",
             f"get_information(relation='{_q(col_b)}', head_entity='output_of_query3')"]
    text = (f"Which {col_b} values of the table {KB_ROLES[kb_rel][1]} someone who "
            f"{TKG_VERBS[rel][1]} {award}?")
    return text, calls, cells


def _who(calls: list[str], group: str, hop: tuple[str, str], fact: tuple[str, str],
         world: _World) -> tuple[str, list[str], list[str]] | None:
    """*Who among the actors of the Title whose Rank is 2 received X?*: the hop's people
    (at least two, else the question gives its answer away) that have the TKG fact."""
    (kb_rel, film), (rel, award) = hop, fact
    people = {p for r, p in world.films[film] if r == kb_rel}
    found = sorted(people & world.by_award.get((rel, award), set()))
    if len(people) < 2 or not found:
        return None
    calls += [f"get_information(relation='{rel}', tail_entity='{_q(award)}')",
              "set_intersection(set1='output_of_query3', set2='output_of_query4')"]
    text = f"Who among the {group} {TKG_VERBS[rel][1]} {award}?"
    return text, calls, found


def _tables(root: Path) -> Iterator[tuple[str, Source]]:
    seen: set[Path] = set()
    found: list[tuple[str, Source]] = []
    for benchmark, split in _TABLE_SPLITS:
        for e in load(benchmark, split, root=root):
            for s in e.sources:
                if s.kind == "table" and s.path not in seen:
                    seen.add(s.path)
                    found.append((benchmark, s))
    found.sort(key=lambda x: str(x[1].path))
    random.Random(13).shuffle(found)
    yield from found


def generate(n: int = 300, root: Path | str | None = None) -> list[AcrossQuestion]:
    """``n`` questions (templates round-robin, one question per table), deterministic."""
    base = Path(root) if root is not None else data_root()
    world = _read_world(base)
    out: list[AcrossQuestion] = []
    asked: set[str] = set()
    for benchmark, table in _tables(base):
        if len(out) >= n:
            break
        if not any(film in world.films for film in _cells(table)):
            continue
        try:
            facts = load_source(table.path, "table")
        except TrustUQAError:
            continue
        used: set[tuple[str, ...]] = set()
        for _ in range(_PER_TABLE):
            template = TEMPLATES[len(out) % len(TEMPLATES)]
            for t in (template, *[x for x in TEMPLATES if x != template]):
                q = _questions_for(facts, table, benchmark, world, t, used)
                if q is not None and q.question not in asked:
                    asked.add(q.question)
                    out.append(AcrossQuestion(f"across-{len(out) + 1}", q.template, q.question,
                                              q.query, q.answers, q.table, q.benchmark))
                    break
            else:
                break
            if len(out) >= n:
                break
    return out


def _cells(table: Source) -> set[str]:
    """Every comma/tab/line-separated piece of a table file (a cheap pre-filter; WikiSQL's
    and TrustUQA's WTQ ``.csv`` files are tab-separated)."""
    text = table.path.read_text(encoding="utf-8", errors="replace")
    return {c.strip().strip('"') for line in text.splitlines() for c in _SPLIT.split(line)}


_SPLIT = re.compile(r"[,\t]")


class AcrossEvaluation:
    """The across benchmark in ``ceiling`` or ``answer`` mode (runner protocol)."""

    concurrent = False  # CPU-bound: one question at a time, the table's graph reused

    def __init__(self, mode: str, root: Path | str | None = None, n: int = 300) -> None:
        if mode not in ("ceiling", "answer"):
            raise Unavailable("across runs with --mode ceiling or --mode answer")
        self.mode, self.root, self.n = mode, root, n
        self.benchmark, self.split = "across", "generated"
        self._questions: list[AcrossQuestion] | None = None
        self._kb: list[SourceFacts] | None = None
        self._last: tuple[Path, GraphStore] | None = None
        self._lock = threading.Lock()

    def questions(self) -> list[AcrossQuestion]:
        with self._lock:
            if self._questions is None:
                self._questions = generate(self.n, self.root)
            return self._questions

    def _graph(self, q: AcrossQuestion) -> GraphStore:
        base = Path(self.root) if self.root is not None else data_root()
        with self._lock:
            if self._kb is None:
                self._kb = [load_source(base / _KB, "kg", name="kb_partial.txt"),
                            load_source(base / _TKG, "tkg", name="cron_tkg.txt")]
            if self._last is not None and self._last[0] == q.table.path:
                return self._last[1]
            graph = build_graph([load_source(q.table.path, "table"), *self._kb])
            self._last = (q.table.path, graph)
            return graph

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        chosen = self.questions()[:limit] if limit is not None else self.questions()
        return [(q.id, q) for q in chosen]

    def evaluate(self, q: AcrossQuestion) -> Outcome:
        graph = self._graph(q)
        t0 = time.perf_counter()
        trace: Trace | None
        if self.mode == "ceiling":
            trace = run_query(q.query, graph, question=q.question, writer="gold")
        else:
            trace = answer(q.question, graph, "offline").trace
        query = trace.query_text if trace is not None else ""
        seconds = time.perf_counter() - t0
        got = list(trace.answer) if trace is not None else []
        correct = sorted({normalize(x) for x in got}) == sorted({normalize(x)
                                                                 for x in q.answers})
        category, detail = ("correct", "") if correct else (
            classify_trace(trace) if trace is not None else ("empty", "no query was written"))
        return Outcome(q.id, "across", q.question, correct, category, got, list(q.answers),
                       seconds, groups={"template": q.template, "table_from": q.benchmark},
                       detail=detail, query=query)
