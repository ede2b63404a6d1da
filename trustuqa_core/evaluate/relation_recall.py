"""Gold-relation recall of the relations a prompt shows, on big graphs.

A prompt lists the relations of a big graph within a token budget
(:data:`~trustuqa_core.llm.prompts.RELATION_TOKENS`); a question whose gold relations are not
among them cannot be answered by any model. This measures, per question, whether *all* its gold
relations are shown:

- ``webqsp``: the WebQSP dev questions over one KG merged from every dev subgraph (hundreds of
  Freebase relations); gold relations are the ``ns:domain.type.property`` names of the
  question's SPARQL; the question's entity is the dataset's topic entity (its MID is the node
  label, as in the paper's prompts, which give ``TopicEntityName``).
- ``cronquestions``: the complex valid questions over the 5k-fact TKG sample; gold relations
  are Wikidata property ids, named by :data:`WIKIDATA_RELATIONS`; entities are found in the
  question text by the mapper.

The slot shares of :mod:`~trustuqa_core.llm.relations` are a tuned rule, so they are chosen
on one half of the questions and scored on the other: :func:`question_half` puts each
question in ``tune`` or ``check`` by a hash of its id (the same hash as the WTQ table
halves), and :func:`share_grid` scores a grid of shares on whichever cases it is given.

>>> WIKIDATA_RELATIONS["P54"]
'member of sports team'
>>> question_half("WebQTrn-1682") in ("tune", "check")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..graph import build_graph
from ..llm.budget import estimate_tokens
from ..llm.prompts import MAX_RELATIONS, RELATION_TOKENS, describe_schema
from ..llm.relations import SHARES, Ranking, Shares, fill, linked_entities, rank_relations
from ..mapping.dense import EmbeddingIndex, Encoder
from ..mapping.mapper import Mapper
from ..store import GraphStore
from ..translate import load_source
from .answer_eval import cronquestions_graph
from .datasets import load
from .replay import table_half

__all__ = ["WIKIDATA_RELATIONS", "Case", "gold_relations", "RecallResult", "webqsp_cases",
           "cron_cases",
           "merged_webqsp_graph", "cron_graph", "relation_recall", "question_half", "in_half",
           "rankings", "recall_of", "share_grid", "GRID", "Miss", "why_missed"]

#: the shares tried on the tune half: (1-hop, 2-hop, largest relations)
GRID = tuple(Shares(a, b, c) for a in (0.4, 0.5, 0.6, 0.7, 0.8) for b in (0.1, 0.2, 0.3)
             for c in (0.0, 0.05, 0.1) if a + b + c <= 1.0)

#: Wikidata property ids of the CronQuestions questions -> the relation names of its KG
WIKIDATA_RELATIONS = {"P39": "position held", "P166": "award received",
                      "P54": "member of sports team", "P108": "employer", "P26": "spouse",
                      "P1411": "nominated for", "P69": "educated at"}
_FREEBASE = re.compile(r"ns:([a-z_0-9]+(?:\.[a-z_0-9]+){2,})")


@dataclass(frozen=True)
class Case:
    """One question: its text, gold relation names, and entity texts given with it."""

    id: str
    question: str
    gold: tuple[str, ...]
    entities: tuple[str, ...] = ()
    in_data: bool = True


@dataclass
class RecallResult:
    """How many questions had every gold relation shown (``missed``: id -> missing names);
    ``n_in_data`` / ``hits_in_data``: the same over the questions whose gold relations all
    occur in their own data (a relation the data lacks cannot be shown by any choice)."""

    benchmark: str
    n: int
    hits: int
    relations: int
    shown: int
    missed: dict[str, tuple[str, ...]]
    n_in_data: int = 0
    hits_in_data: int = 0
    n_in_graph: int = 0
    hits_in_graph: int = 0
    schema_tokens: tuple[int, ...] = ()
    counts: dict[str, int] | None = None  # case id -> relations shown
    gold_in_graph: int = 0  # gold relations (over all cases) that the graph has
    gold_shown: int = 0  # ... and that the prompt showed

    @property
    def recall(self) -> float:
        return self.hits / self.n if self.n else 0.0

    @property
    def recall_in_graph(self) -> float:
        """Recall over the questions whose gold relations are all in the graph (the others
        are unreachable: no choice of relations can show a relation the graph lacks)."""
        return self.hits_in_graph / self.n_in_graph if self.n_in_graph else 0.0

    @property
    def relation_level(self) -> float:
        """Share of the gold relations in the graph that were shown (each relation counted,
        not each question: a smoother figure for comparing rules on the tune half)."""
        return self.gold_shown / self.gold_in_graph if self.gold_in_graph else 0.0

    @property
    def mean_tokens(self) -> float:
        """Mean estimated tokens of the schema block (:func:`~trustuqa_core.llm.budget.
        estimate_tokens`), over the questions."""
        return float(np.mean(self.schema_tokens)) if self.schema_tokens else 0.0

    @property
    def recall_in_data(self) -> float:
        return self.hits_in_data / self.n_in_data if self.n_in_data else 0.0


def _sequence(value: object, key: str) -> tuple[Any, ...] | list[Any]:
    """``Example.metadata[key]`` (typed ``object``) as the tuple :func:`load` stores there."""
    if not isinstance(value, (tuple, list)):
        raise TypeError(f"metadata[{key!r}] is {type(value).__name__}, not a tuple")
    return value


def gold_relations(sparql: str) -> tuple[str, ...]:
    """The Freebase relations a WebQSP SPARQL query uses, whole, in first-use order
    (entity MIDs such as ``ns:m.0d05w3`` have two parts and are not relations).

    >>> gold_relations("ns:m.09c7w0 ns:base.aareas.schema.administrative_area.capital ?x . "
    ...                "?x ns:location.location.containedby ns:m.0d0x8 .")
    ('base.aareas.schema.administrative_area.capital', 'location.location.containedby')
    """
    return tuple(dict.fromkeys(_FREEBASE.findall(sparql)))


def webqsp_cases(root: Path | str | None = None, limit: int | None = None) -> list[Case]:
    """WebQSP dev questions with SPARQL gold relations and their topic-entity MIDs."""
    out = []
    for e in load("webqsp", "dev", limit, root=root):
        gold = gold_relations(str(e.metadata.get("sparql") or ""))
        topics = _sequence(e.metadata.get("topic_entities", ()), "topic_entities")
        mids = tuple(str(t[1]) for t in topics if len(t) > 1)
        if gold and e.sources:
            lines = e.sources[0].path.read_text(encoding="utf-8").splitlines()
            own = {parts[1] for line in lines if len(parts := line.split("\t")) >= 3}
            out.append(Case(e.id, e.question, gold, mids, all(g in own for g in gold)))
    return out


def merged_webqsp_graph(root: Path | str | None = None) -> GraphStore:
    """One KG of every WebQSP dev subgraph (the files of :func:`webqsp_cases`)."""
    paths = sorted({s.path for e in load("webqsp", "dev", root=root) for s in e.sources})
    data = b"".join(p.read_bytes().rstrip(b"\n") + b"\n" for p in paths)
    return build_graph([load_source(data, "kg", "webqsp-dev-merged")])


def cron_cases(root: Path | str | None = None, limit: int | None = None) -> list[Case]:
    """CronQuestions valid questions whose gold properties have a known name (every one of
    them names a relation of the TKG sample)."""
    out = []
    for e in load("cronquestions", "valid", limit, root=root):
        rels = _sequence(e.metadata["relations"], "relations")
        if rels and all(r in WIKIDATA_RELATIONS for r in rels):
            out.append(Case(e.id, e.question, tuple(WIKIDATA_RELATIONS[r] for r in rels)))
    return out


def cron_graph(root: Path | str | None = None) -> GraphStore:
    """The CronQuestions TKG sample (malformed lines blanked, as the benchmark does)."""
    examples = load("cronquestions", "valid", 1, root=root)
    return cronquestions_graph(examples[0].sources[0])[0]


class _Batched:
    """An encoder that encodes the benchmark's questions in one batch up front (the prompt
    path encodes one question per call, which is ~100x slower for thousands of questions);
    any other text goes to the wrapped encoder. Same name, so cached vectors are shared."""

    def __init__(self, encoder: Encoder, texts: Sequence[str]) -> None:
        self.encoder = encoder
        self.name = encoder.name
        unique = list(dict.fromkeys(texts))
        vectors = encoder.encode(unique) if unique else np.zeros((0, 0), dtype=np.float32)
        self._known = dict(zip(unique, vectors, strict=True))

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if texts and all(t in self._known for t in texts):
            return np.stack([self._known[t] for t in texts])
        return self.encoder.encode(texts)


def _each(cases: Sequence[Case], graph: GraphStore, mapper: Mapper,
          encoder: Encoder | None, limit: int, tokens: int
          ) -> Iterator[tuple[Case, tuple[str, ...], int]]:
    for case in cases:
        schema = describe_schema(graph, case.question, examples=False, encoder=encoder,
                                 max_relations=limit, relation_tokens=tokens, mapper=mapper,
                                 entities=case.entities)
        yield case, schema.relations, estimate_tokens(schema.text)


def relation_recall(benchmark: str, cases: Sequence[Case], graph: GraphStore,
                    encoder: Encoder | None = None, limit: int = MAX_RELATIONS,
                    tokens: int = RELATION_TOKENS) -> RecallResult:
    """Share of ``cases`` whose gold relations are all among the relations shown (at most
    ``limit`` relations within ``tokens`` tokens of relation lines, as prompts are built)."""
    mapper = Mapper(graph, None)
    if encoder is not None:
        encoder = _Batched(encoder, [c.question for c in cases])
    hits, hits_in_data, hits_in_graph, shown, missed = 0, 0, 0, 0, {}
    sizes: list[int] = []
    counts: dict[str, int] = {}
    gold_in_graph = gold_shown = 0
    for case, rels, size in _each(cases, graph, mapper, encoder, limit, tokens):
        shown = max(shown, len(rels))
        known = [g for g in case.gold if graph.relation(g) is not None]
        gold_in_graph += len(known)
        gold_shown += sum(g in rels for g in known)
        counts[case.id] = len(rels)
        sizes.append(size)
        lost = tuple(g for g in case.gold if g not in rels)
        if lost:
            missed[case.id] = lost
        else:
            hits += 1
            hits_in_data += case.in_data
            hits_in_graph += 1
    n_in_graph = sum(all(graph.relation(g) is not None for g in c.gold) for c in cases)
    return RecallResult(benchmark, len(cases), hits, len(graph.relation_names), shown, missed,
                        sum(c.in_data for c in cases), hits_in_data, n_in_graph, hits_in_graph,
                        tuple(sizes), counts, gold_in_graph, gold_shown)


@dataclass(frozen=True)
class Miss:
    """Why one gold relation of a question was not shown: ``not in graph`` (unreachable),
    ``no entity linked`` (no anchors, so no hop tiers), ``beyond 3 hops`` (tier 3), or
    ``ranked below the cut`` (in tier ``tier``, ``rank`` places into that tier)."""

    case: str
    relation: str
    reason: str
    tier: int | None = None
    rank: int | None = None


def why_missed(ranked: Sequence[tuple[Case, list[str], Ranking]], shares: Shares = SHARES,
               limit: int | Mapping[str, int] = MAX_RELATIONS) -> list[Miss]:
    """One :class:`Miss` per gold relation not shown, for the cases of :func:`rankings`
    (``limit``: relations shown, one count or per case id, e.g. ``RecallResult.counts``).

    >>> why_missed([])
    []
    """
    out = []
    for case, rels, ranking in ranked:
        n = limit if isinstance(limit, int) else limit[case.id]
        shown = set(fill(ranking, n, shares)) if len(rels) > n else set(range(len(rels)))
        place = {j: p for p, j in enumerate(ranking.order)}
        for gold in case.gold:
            if gold not in rels:
                out.append(Miss(case.id, gold, "not in graph"))
                continue
            j = rels.index(gold)
            if j in shown:
                continue
            tier = ranking.tier[j]
            rank = sum(ranking.tier[k] == tier for k in ranking.order[:place[j]])
            reason = ("no entity linked" if all(t == 3 for t in ranking.tier) else
                      "beyond 3 hops" if tier == 3 else "ranked below the cut")
            out.append(Miss(case.id, gold, reason, tier, rank))
    return out


def question_half(question_id: str) -> str:
    """``"tune"`` or ``"check"``: a fixed split of questions by a hash of their id."""
    return table_half(question_id)


def in_half(cases: Sequence[Case], half: str) -> list[Case]:
    """The cases of one half (``"tune"``, ``"check"``), or all of them (``"all"``)."""
    if half not in ("tune", "check", "all"):
        raise ValueError(f"half must be tune, check or all, not {half!r}")
    return [c for c in cases if half == "all" or question_half(c.id) == half]


def rankings(cases: Sequence[Case], graph: GraphStore, encoder: Encoder | None = None
             ) -> list[tuple[Case, list[str], Ranking]]:
    """Each case with the graph's relations and their ranking for it, computed once so that
    many share settings can be scored cheaply (a one-source graph, as both benchmarks are)."""
    facts = np.concatenate([graph.facts_of_source(i) for i in range(len(graph.sources))])
    used, first = np.unique(graph.rels_of(np.sort(facts)), return_index=True)
    rels = [graph.relation_names[r] for r in used[np.argsort(first)]]  # first-use, as prompts
    index = EmbeddingIndex([re.sub(r"[._]+", " ", r) for r in rels], encoder) \
        if encoder is not None else None
    mapper = Mapper(graph, None)
    return [(c, rels, rank_relations(graph, rels, c.question, encoder=encoder, index=index,
                                     anchors=linked_entities(c.question, mapper, c.entities)))
            for c in cases]


def recall_of(ranked: Sequence[tuple[Case, list[str], Ranking]], shares: Shares = SHARES,
              limit: int = MAX_RELATIONS) -> tuple[int, int]:
    """(questions with every gold relation shown, questions) under ``shares``."""
    hits = 0
    for case, rels, ranking in ranked:
        shown = {rels[j] for j in fill(ranking, limit, shares)} if len(rels) > limit \
            else set(rels)
        hits += all(g in shown for g in case.gold)
    return hits, len(ranked)


def share_grid(ranked: Sequence[tuple[Case, list[str], Ranking]],
               grid: Sequence[Shares] = GRID, limit: int = MAX_RELATIONS
               ) -> list[tuple[Shares, int]]:
    """Hits per share setting, best first; the first is the choice. Among settings tied for
    the most hits the one nearest the middle of the tie (coordinate-wise median, L1 distance;
    rounded to 9 digits so float noise does
    not decide; then grid order) comes first, so a flat optimum is not decided by the grid's corner.

    >>> share_grid([], [Shares(0.4, 0.1, 0.0), Shares(0.5, 0.2, 0.0), Shares(0.6, 0.3, 0.0)])[0]
    (Shares(one_hop=0.5, two_hop=0.2, size=0.0), 0)
    """
    scored = [(s, recall_of(ranked, s, limit)[0]) for s in grid]
    top = max((h for _, h in scored), default=0)
    tied = [s for s, h in scored if h == top]
    mid = [float(np.median([s[k] for s in tied])) for k in range(3)] if tied else [0.0] * 3

    def key(item: tuple[int, tuple[Shares, int]]) -> tuple[float, float, int]:
        i, (s, h) = item
        far = round(sum(abs(a - b) for a, b in zip(s, mid, strict=True)), 9) if h == top else 0.0
        return (-h, far, i)

    return [x for _, x in sorted(enumerate(scored), key=key)]
