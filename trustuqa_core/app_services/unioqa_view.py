"""What the Ask page's UniOQA view shows, as plain data (issue 14, item 5).

:func:`unioqa_view` answers a question with :func:`trustuqa_core.unioqa.unioqa_answer` (the
offline translator with no LLM; the LLM's Cypher and the GRAG searcher with one) and turns the
result into rows and texts: the Cypher as written and after ERR, every ERR variant (its
bindings, score, answer or error, and which one was kept), the GRAG triples retrieved for the
question's entities, the translator's executed answer and the searcher's LLM-read one, and the
merge decision with its reason. With no LLM the searcher cannot answer, but its retrieval needs
none: the triples it would be given are retrieved anyway and shown, marked as not read.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> from trustuqa_core.mapping.mapper import Mapper
>>> g = build_graph([load_source(b"Kismet|directed_by|William Dieterle\\n"
...                              b"Kismet|release_year|1944\\n", "kg", "kg.txt")])
>>> v = unioqa_view("who directed [Kismet]", g, Mapper(g, encoder=None))
>>> v.answer, v.decision, v.searcher_ran, [t["relation"] for t in v.triples]
(['William Dieterle'], 'no_searcher', False, ['directed_by', 'release_year'])
>>> v.variants[0]["kept"], v.variants[0]["bindings"]
(True, "'Kismet' -> 'Kismet' (1.00); 'directed_by' -> 'directed_by' (1.00)")
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import TrustUQAError
from ..llm.client import LLMClient
from ..mapping.mapper import Mapper
from ..store import GraphStore
from ..unioqa import UniOQAAnswer, unioqa_answer
from ..unioqa.grag import Retrieval, retrieve, supported
from ..unioqa.merge import REASONS

__all__ = ["UniOQAView", "unioqa_view", "view_of", "SOURCE_LABELS"]

#: how the view names the source of the kept answer
SOURCE_LABELS = {"translator": "executed (translator: Cypher after ERR, run on Ladybug)",
                 "searcher": "LLM-read, not executed (searcher: GRAG)",
                 "none": "no answer"}


@dataclass
class UniOQAView:
    """One UniOQA answer as the page shows it (every string is data: escape it as HTML)."""

    question: str
    answer: list[str]
    source: str
    unverified: bool
    decision: str
    reason: str
    writer: str
    cypher: str = ""
    rebuilt: str = ""
    compiled: str = ""
    translator_answer: list[str] = field(default_factory=list)
    translator_error: str | None = None
    translator_verdict: str | None = None
    variants: list[dict[str, Any]] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    triples: list[dict[str, Any]] = field(default_factory=list)
    candidates: int = 0
    searcher_ran: bool = False
    searcher_answer: list[str] = field(default_factory=list)
    searcher_note: str = ""
    error: str | None = None
    record: dict[str, Any] = field(default_factory=dict)

    @property
    def source_label(self) -> str:
        return SOURCE_LABELS.get(self.source, self.source)


def unioqa_view(question: str, graph: GraphStore, mapper: Mapper, *,
                client: LLMClient | None = None, budget: int = 60,
                **kw: Any) -> UniOQAView:
    """Answer ``question`` with UniOQA (offline unless ``client`` is given) and build the
    view; ``kw`` goes to :func:`~trustuqa_core.unioqa.unioqa_answer` (``demos``,
    ``privacy``, ``encoder``). A failure becomes a view with ``error`` set."""
    writer = "openai" if client is not None else "offline"
    try:
        result = unioqa_answer(question, graph, writer, client=client, mapper=mapper,
                               budget=budget, **kw)
    except TrustUQAError as exc:
        return UniOQAView(question, [], "none", False, "error", str(exc), writer,
                          error=f"{type(exc).__name__}: {exc}")
    return view_of(result, graph, mapper, budget)


def view_of(result: UniOQAAnswer, graph: GraphStore, mapper: Mapper,
            budget: int = 60) -> UniOQAView:
    """The view of an answer already computed (the retrieval is redone when the searcher did
    not run, so its triples can be shown)."""
    tr = result.translator
    err = tr.err
    chosen = err.variants.index(err.chosen) if err and err.chosen else None
    variants = []
    for i, v in enumerate(err.variants if err else ()):
        variants.append({
            "variant": i + 1, "kept": i == chosen,
            "bindings": "; ".join(f"{b.original!r} -> {b.chosen!r} ({b.score:.2f})"
                                  for b in v.bindings),
            "score": round(v.score, 3), "answer": ", ".join(v.answer[:10])
            + (f" … (+{len(v.answer) - 10})" if len(v.answer) > 10 else ""),
            "error": v.error or "", "ms": round(v.seconds * 1000, 1)})
    view = UniOQAView(
        result.question, list(result.answer), result.decision.source,
        result.decision.unverified, result.decision.reason,
        REASONS.get(result.decision.reason, result.decision.reason), tr.writer,
        cypher=tr.cypher, rebuilt=err.rebuilt_cypher if err else "", compiled=tr.compiled,
        translator_answer=list(tr.answer), translator_error=tr.error,
        translator_verdict=tr.verdict, variants=variants, error=result.error,
        record=result.to_dict())
    searcher = result.searcher
    if searcher is not None:
        retrieval, answers = searcher.retrieval, list(searcher.answer)
        view.searcher_ran, view.searcher_answer = True, answers
        view.searcher_note = ("LLM-read, not executed: the LLM answered from the triples "
                              "below" + (f" ({searcher.error})" if searcher.error else ""))
    else:
        bound = err.chosen.bindings if err and err.chosen else ()
        retrieval = retrieve(result.question, graph, mapper, budget=budget,
                             extra_entities=[b.chosen for b in bound if b.kind == "entity"],
                             relations=[b.chosen for b in bound if b.kind == "relation"])
        answers = []
        view.searcher_note = ("The searcher needs an LLM: with none configured it gave no "
                              "answer. The triples it would read are retrieved anyway and "
                              "shown below (not read by anyone).")
    view.entities = list(retrieval.entities)
    view.candidates = retrieval.candidates
    view.triples = _triple_rows(retrieval, answers + view.translator_answer)
    return view


def _triple_rows(retrieval: Retrieval, answers: list[str]) -> list[dict[str, Any]]:
    """One row per retrieved triple: its parts, its sentence and the answers it names."""
    support = supported(list(dict.fromkeys(answers)), retrieval.triples)
    named: dict[int, list[str]] = {}
    for answer, rows in support.items():
        for i in rows:
            named.setdefault(i, []).append(answer)
    return [{"rank": i + 1, "head": t.head, "relation": t.relation, "tail": t.tail,
             "sentence": t.sentence, "names": ", ".join(named.get(i, []))}
            for i, t in enumerate(retrieval.triples)]
