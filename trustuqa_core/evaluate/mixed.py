"""The *mixed* benchmark (issue 13; the paper's appendix D.1): questions of five benchmarks
over one graph holding all their data, the source of each question not said.

Questions: the first ``per`` (default 100) answerable questions of WikiSQL (dev), WTQ
(random-split-1-dev), MetaQA-1hop (dev), WebQSP (dev) and CronQuestions (valid, those with
time answers: the others are Wikidata ids with no name map), all from train/dev/valid data.
Data: every question's own table / subgraph, for MetaQA the one-hop neighbourhood of the
topic entities in the KB, for CronQuestions its TKG sample; in the *mix* settings all of it is
one graph (sources named ``<benchmark>/<file>``).

Settings (``--setting``):

- ``unmix-known``: each question over its own data, demos from its own benchmark's pool
  (what ``--mode answer`` does);
- ``unmix-unknown``: its own data, demos from the union of the five pools;
- ``mix-known``: the mixed graph restricted to the question's own sources, its own pool;
- ``mix-unknown``: the mixed graph, routed by :func:`~trustuqa_core.routing.route`, the union
  pool.

Every setting also records the routing decision over the mixed graph (``flags.routed``: the
decision is exactly the question's own source(s); ``flags.routed_kind``: the routed sources
are of the right kind (table / KG / TKG); ``flags.routed_kept``: its own are among the
routed ones; in *mix-unknown* also ``flags.routed_final``: the sources the winning query
finally ran over, after routing by the written query and the second look, are exactly its
own; ``flags.routed_final_or_decided``: the same where a query ran, the question's decision
where none did); ``routing_accuracy`` (with ``final``, the count of ``routed_final``,
``final_or_decided`` and ``no_query``, in *mix-unknown* answer runs) and per-source accuracy
(``groups.source``) are in the summary. Demo hygiene is each benchmark's own
(``benchmark_pool``: questions of the scored split are excluded, WikiSQL dev halves answer
each other).
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..answer import answer, route_decision
from ..demos import DemoPool
from ..errors import SourceError
from ..graph import build_graph
from ..mapping.dense import HashingEncoder, default_encoder
from ..mapping.mapper import Mapper
from ..routing import RouteDecision
from ..sources import SourceFacts
from ..store import GraphStore
from ..subgraph import restrict, source_indices
from ..translate import load_source
from .answer_eval import DEFAULT_ANSWER_SPLITS, AnswerEvaluation
from .datasets import Example, Source, load
from .demo_pools import benchmark_pool
from .outcome import Outcome, Unavailable

__all__ = ["MIXED_BENCHMARKS", "SETTINGS", "TUNE_POOL", "MixedEvaluation", "mixed_examples",
           "mixed_window", "parse_window", "source_name",
           "routing_summary", "product_route", "final_flags", "right_kind"]

MIXED_BENCHMARKS = ("wikisql", "wtq", "metaqa-1hop", "webqsp", "cronquestions")
SETTINGS = ("mix-unknown", "mix-known", "unmix-unknown", "unmix-known")
_MAX_DROPPED = 100


def source_name(benchmark: str, source: Source) -> str:
    """The name a question's source gets in the mixed graph.

    >>> source_name("wtq", Source(Path("/d/wtq/csv/204-csv/772.csv"), "table"))
    'wtq/204-csv/772.csv'
    """
    return f"{benchmark}/{source.path.parent.name}/{source.path.name}" if benchmark == "wtq" \
        else f"{benchmark}/{source.path.name}"


def mixed_examples(per: int = 100, root: Path | str | None = None) -> list[Example]:
    """``per`` answerable questions of each benchmark, interleaved (a ``--limit`` keeps the
    five in balance)."""
    chosen: list[list[Example]] = []
    for b in MIXED_BENCHMARKS:
        picked = [e for e in load(b, DEFAULT_ANSWER_SPLITS[b], root=root)
                  if e.sources and e.answers and e.metadata.get("answer_format") != "wikidata_id"]
        chosen.append(picked[:per])
    return [e for row in zip(*chosen, strict=False) for e in row]


def mixed_window(lo: int, hi: int, root: Path | str | None = None) -> list[Example]:
    """Questions ``lo``..``hi - 1`` of each benchmark's answerable questions (the ones
    :func:`mixed_examples` orders), interleaved; a benchmark with fewer gives what it has
    (WebQSP dev has 307). ``mixed_window(0, 100)`` is the check half, ``(100, 200)`` the tune
    half; the larger tune pool (:data:`TUNE_POOL`) is windows of 100 from 100 to 500, each
    over a mixed graph of its own questions' data, the size of the check half's."""
    rows: list[list[Example]] = []
    for b in MIXED_BENCHMARKS:
        picked = [e for e in load(b, DEFAULT_ANSWER_SPLITS[b], root=root)
                  if e.sources and e.answers and e.metadata.get("answer_format") != "wikidata_id"]
        rows.append(picked[lo:hi])
    return [r[i] for i in range(max(map(len, rows), default=0)) for r in rows if i < len(r)]


def parse_window(text: str) -> tuple[int, int]:
    """``'LO:HI'`` as the window ``(LO, HI)`` of :func:`mixed_window` (``--window``).

    >>> parse_window("100:200")
    (100, 200)
    >>> parse_window("200:100")
    Traceback (most recent call last):
    ...
    ValueError: a window is LO:HI with 0 <= LO < HI, not '200:100'
    """
    lo, sep, hi = text.partition(":")
    if not (sep and lo.strip().isdigit() and hi.strip().isdigit() and int(lo) < int(hi)):
        raise ValueError(f"a window is LO:HI with 0 <= LO < HI, not {text!r}")
    return int(lo), int(hi)


#: the larger tune pool: questions 100-499 of each benchmark, as four windows of 100, each
#: its own mixed graph (never questions 0-99, the check half)
TUNE_POOL = ((100, 200), (200, 300), (300, 400), (400, 500))


def _metaqa_neighbourhood(examples: Sequence[Example]) -> SourceFacts | None:
    """The KB facts touching a MetaQA question's topic entity (one hop)."""
    metaqa = [e for e in examples if e.benchmark == "metaqa-1hop"]
    if not metaqa:
        return None
    topics = {str(e.metadata["topic_entity"]) for e in metaqa}
    path = metaqa[0].sources[0].path
    opener = gzip.open if path.suffix == ".gz" else open
    keep = []
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("|")
            if len(parts) == 3 and (parts[0] in topics or parts[2] in topics):
                keep.append(line if line.endswith("\n") else line + "\n")
    return load_source("".join(keep).encode("utf-8"), "kg", name=_KB_NAME)


_KB_NAME = "metaqa-1hop/kb-neighbourhood.txt"


def _tkg(source: Source, name: str) -> SourceFacts:
    """The CronQuestions TKG sample with the lines the reader rejects blanked (as the
    ``--mode answer`` run does)."""
    lines = source.path.read_text(encoding="utf-8").splitlines(keepends=True)
    for _ in range(_MAX_DROPPED):
        try:
            return load_source("".join(lines).encode("utf-8"), "tkg", name=name)
        except SourceError as exc:
            if exc.line is None or not 0 < exc.line <= len(lines) or not lines[exc.line - 1]:
                raise
            lines[exc.line - 1] = "\n"
    raise SourceError(source.path.name, f"more than {_MAX_DROPPED} malformed lines")


def own_sources(e: Example) -> tuple[str, ...]:
    """The names of a question's own sources in the mixed graph."""
    if e.benchmark == "metaqa-1hop":
        return (_KB_NAME,)
    return tuple(source_name(e.benchmark, s) for s in e.sources)


def topic_entities(e: Example) -> tuple[str, ...]:
    """The topic entities a benchmark gives with a question (MetaQA's bracketed entity,
    WebQSP's linked Freebase ids and names); none for tables and CronQuestions."""
    if e.benchmark == "metaqa-1hop":
        return (str(e.metadata["topic_entity"]),)
    if e.benchmark == "webqsp":
        pairs = e.metadata.get("topic_entities") or ()
        return tuple(str(x) for pair in pairs for x in pair)  # type: ignore[attr-defined]
    return ()


def build_mixed_graph(examples: Sequence[Example]) -> GraphStore:
    """One graph over every question's data (each file once)."""
    facts: list[SourceFacts] = []
    seen: set[str] = set()
    kb = _metaqa_neighbourhood(examples)
    if kb is not None:
        facts.append(kb)
    for e in examples:
        if e.benchmark == "metaqa-1hop":
            continue
        for s in e.sources:
            name = source_name(e.benchmark, s)
            if name in seen:
                continue
            seen.add(name)
            facts.append(_tkg(s, name) if s.kind == "tkg" else load_source(s.path, s.kind,
                                                                            name=name))
    return build_graph(facts)


#: the routing decision ``answer()`` makes (one definition, in :mod:`trustuqa_core.answer`)
product_route = route_decision


def right_kind(graph: GraphStore, routed: Sequence[str], own: Sequence[str]) -> bool:
    """True when the sources ``routed`` are all of the kind(s) of the question's ``own``
    sources (table / KG / TKG) and include each of those kinds: routed to the right *kind*
    of source, whether or not to the right one.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"A\\n1\\n", b"B\\n2\\n"], kgs=[b"x|r|y\\n"])
    >>> right_kind(g, ("table2",), ("table1",)), right_kind(g, ("table1", "kg1"), ("table1",))
    (True, False)
    """
    kinds = {s.name: s.kind for s in graph.sources}
    return bool(routed) and {kinds.get(s) for s in routed} == {kinds.get(s) for s in own}


def final_flags(answered: Any, own: Sequence[str], decision: RouteDecision,
                graph: GraphStore | None = None) -> dict[str, bool]:
    """The final-routing flags of one *mix-unknown* answer (``answered``: what ``answer()``
    returned, None when it raised) for a question whose own sources are ``own``:

    - ``routed_final`` (only when a query ran): the sources the winning query finally ran over
      (after the fallback to all sources, routing by the query and the second look) are
      exactly ``own``;
    - ``routed_final_or_decided``: ``routed_final`` where a query ran; where none did (the
      writer wrote nothing that executes, so there is no final routing), the decision made
      before writing, ``decision`` (the question's routing), is exactly ``own``. A separate
      count, not a redefinition of ``routed_final``;
    - with ``graph`` given, where a query ran, ``routed_final_kind``: those sources are of
      the right kind (:func:`right_kind`), and ``routed_final_kept``: ``own`` is among them.

    >>> d = RouteDecision(("t1",), "routed to t1", all_sources=("t1", "t2"))
    >>> final_flags(None, ("t1",), d)
    {'routed_final_or_decided': True}
    """
    final = getattr(getattr(answered, "trace", None), "routing", None)
    if final is None:
        return {"routed_final_or_decided": set(decision.sources) == set(own)}
    exact = set(final.sources) == set(own)
    out = {"routed_final": exact, "routed_final_or_decided": exact}
    if graph is not None:
        out["routed_final_kind"] = right_kind(graph, final.sources, own)
        out["routed_final_kept"] = set(own) <= set(final.sources)
    return out


def routing_summary(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Routing accuracy overall and per source (benchmark), from the outcomes' flags
    (``exact``: the question's decision is exactly its own sources, the figure the target
    is judged on; ``kind``: the routed sources are of the right kind; ``kept``: its own are
    among the routed; ``final``: how many the winning query finally ran over exactly, where
    recorded, with ``final_kind`` and ``final_kept`` likewise; ``final_or_decided``: the
    same, counting the question's decision where no query ran; ``no_query``: how many had no
    query that ran)."""
    def part(items: Sequence[Outcome]) -> dict[str, Any]:
        n = len(items)
        exact = sum(1 for o in items if o.flags.get("routed"))
        kept = sum(1 for o in items if o.flags.get("routed_kept"))
        out: dict[str, Any] = {"n": n, "exact": exact, "kept": kept,
                               "accuracy": exact / n if n else None,
                               "kept_rate": kept / n if n else None}
        if any("routed_kind" in o.flags for o in items):  # not in runs recorded before
            kind = sum(1 for o in items if o.flags.get("routed_kind"))
            out.update(kind=kind, kind_rate=kind / n if n else None)
        if any("routed_final_kind" in o.flags for o in items):
            out["final_kind"] = sum(1 for o in items if o.flags.get("routed_final_kind"))
            out["final_kept"] = sum(1 for o in items if o.flags.get("routed_final_kept"))
        if any("routed_final_or_decided" in o.flags for o in items):  # mix-unknown answers
            out["final"] = sum(1 for o in items if o.flags.get("routed_final"))
            out["final_or_decided"] = sum(1 for o in items
                                          if o.flags.get("routed_final_or_decided"))
            out["no_query"] = sum(1 for o in items if "routed_final_or_decided" in o.flags
                                  and "routed_final" not in o.flags)
        elif any("routed_final" in o.flags for o in items):  # runs recorded before
            out["final"] = sum(1 for o in items if o.flags.get("routed_final"))
        return out
    by = {b: part([o for o in outcomes if o.groups.get("source") == b])
          for b in sorted({o.groups.get("source", "") for o in outcomes})}
    return {"all": part(list(outcomes)), "source": by}


class MixedEvaluation:
    """The mixed benchmark in one setting (see the module docstring)."""

    mode, concurrent = "answer", True

    def __init__(self, setting: str, writer: str = "offline", settings: Any = None,
                 root: Path | str | None = None, encoder: str = "minilm", per: int = 100,
                 answer_fn: Callable[..., Any] | None = None,
                 examples: Sequence[Example] | None = None,
                 window: tuple[int, int] | None = None) -> None:
        if setting not in SETTINGS:
            raise Unavailable(f"unknown setting {setting!r}; valid: {', '.join(SETTINGS)}")
        self.setting, self.writer, self.root, self.per = setting, writer, root, per
        self.benchmark, self.split = "mixed", setting
        self.window = window
        if window is not None and window != (0, per):  # another window: its own cache/report
            self.split = f"{setting}-{window[0]}-{window[1]}"
        self.encoder = encoder
        self._examples: list[Example] | None = list(examples) if examples is not None else None
        self._graph: GraphStore | None = None
        self._mapper: Mapper | None = None
        self._pools: dict[str, tuple[DemoPool, Callable[[Example], Any]]] = {}
        self._union: DemoPool | None = None
        self._lock = threading.Lock()
        self._local = threading.local()
        self._answer = answer_fn or answer
        self._inner = {b: AnswerEvaluation(b, None, writer, settings, root,
                                           answer_fn=self._answer_one, encoder=encoder)
                       for b in MIXED_BENCHMARKS}

    # -- data --------------------------------------------------------------------------
    def examples(self) -> list[Example]:
        with self._lock:
            if self._examples is None:
                self._examples = (mixed_window(*self.window, root=self.root)
                                  if self.window is not None
                                  else mixed_examples(self.per, self.root))
            return self._examples

    def graph(self) -> tuple[GraphStore, Mapper]:
        """The mixed graph over all chosen questions' data, built once."""
        examples = self.examples()
        with self._lock:
            if self._graph is None:
                self._graph = build_mixed_graph(examples)
                self._mapper = Mapper(self._graph, None)
            assert self._mapper is not None
            return self._graph, self._mapper

    def _encoder(self) -> Any:
        return HashingEncoder() if self.encoder == "hashing" else default_encoder()

    def pool(self, benchmark: str) -> tuple[DemoPool, Callable[[Example], Any]]:
        with self._lock:
            if benchmark not in self._pools:
                self._pools[benchmark] = benchmark_pool(benchmark, DEFAULT_ANSWER_SPLITS[benchmark],
                                                        self._encoder(), root=self.root)
            return self._pools[benchmark]

    def union_pool(self) -> DemoPool:
        """The five benchmarks' pools as one (each demo once)."""
        pools = [self.pool(b)[0] for b in MIXED_BENCHMARKS]
        with self._lock:
            if self._union is None:
                seen, demos = set(), []
                for p in pools:
                    for d in p.demos:
                        key = (d.question, d.query, d.origin)
                        if key not in seen:
                            seen.add(key)
                            demos.append(d)
                self._union = DemoPool(demos, pools[0].encoder)
            return self._union

    # -- runner protocol ---------------------------------------------------------------
    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        chosen = self.examples()[:limit] if limit is not None else self.examples()
        return [(f"{e.benchmark}:{e.id}", e) for e in chosen]

    def evaluate(self, e: Example) -> Outcome:
        graph, _ = self.graph()
        own = own_sources(e)
        decision = self.route(e, graph)
        self._local.example = e
        self._local.answered = None
        outcome = self._inner[e.benchmark].evaluate(e)
        outcome.id = f"{e.benchmark}:{e.id}"
        outcome.groups = {**outcome.groups, "source": e.benchmark}
        outcome.flags = {**outcome.flags, "routed": set(decision.sources) == set(own),
                         "routed_kept": set(own) <= set(decision.sources),
                         "routed_kind": right_kind(graph, decision.sources, own)}
        if self.setting == "mix-unknown":
            outcome.flags.update(final_flags(self._local.answered, own, decision, graph))
        return outcome

    def route(self, e: Example, graph: GraphStore) -> RouteDecision:
        """The decision ``answer()`` makes for ``e`` over ``graph`` in the *mix-unknown*
        setting (the union demo pool, ``e``'s benchmark's excluded origins, its topic
        entities)."""
        _, exclude_for = self.pool(e.benchmark)
        return product_route(e.question, graph, self.union_pool(), exclude_for(e),
                             topic_entities(e))

    def _answer_one(self, question: str, own_graph: GraphStore, **kwargs: Any) -> Any:
        """``answer()`` for the example being evaluated, in this run's setting."""
        e: Example = self._local.example
        pool, exclude_for = self.pool(e.benchmark)
        known = self.setting.endswith("-known")
        kwargs.update(demos=pool if known else self.union_pool(), exclude_origins=exclude_for(e))
        if self.setting.startswith("unmix"):
            return self._answer(question, own_graph, **kwargs)
        graph, mapper = self.graph()
        if known:
            sub = restrict(graph, source_indices(graph, own_sources(e)))
            kwargs["mapper"] = Mapper(sub, None)
            return self._answer(question, sub, route_sources=False, **kwargs)
        kwargs["mapper"] = mapper
        self._local.answered = self._answer(question, graph, entities=topic_entities(e), **kwargs)
        return self._local.answered
