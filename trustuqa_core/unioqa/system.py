"""UniOQA as a second system: translator (Cypher + ERR) and searcher (GRAG), merged.

:func:`unioqa_answer` runs both workflows and merges them with the label-free rule of
:mod:`.merge`. Offline (``writer="offline"``) the translator's Cypher is the chain form of the
program our offline writer wrote (so ERR runs without an LLM) and the searcher does not run
(it needs an LLM). With an LLM client the model writes the Cypher and answers from the
retrieved triples.

>>> from trustuqa_core.graph import build_graph
>>> from trustuqa_core.translate import load_source
>>> g = build_graph([load_source(b"Kismet|directed_by|William Dieterle\\n"
...                              b"Juarez|directed_by|William Dieterle\\n", "kg", "kg.txt")])
>>> a = unioqa_answer("who directed [Kismet]", g, writer="offline")
>>> a.answer, a.decision.reason, a.searcher is None
(['William Dieterle'], 'no_searcher', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..answer import Answer, answer, default_pool
from ..cypher.run import run_cypher_query, store_for
from ..cypher.store import CypherStore
from ..demos import DemoPool
from ..errors import TrustUQAError
from ..llm.client import LLMClient
from ..mapping.dense import Encoder, HashingEncoder
from ..mapping.mapper import Mapper
from ..store import GraphStore
from ..trace import Trace
from ..verdict import Verdict
from .err import ERRResult, replace_and_run
from .grag import SearcherAnswer, retrieve, search
from .merge import Decision, merge
from .translator import CypherWriter, program_cypher

__all__ = ["TranslatorRun", "UniOQAAnswer", "unioqa_answer"]


@dataclass
class TranslatorRun:
    """The translator's Cypher (as written), ERR's result, and its answer.

    ``writer`` is ``llm:<model>`` or ``offline``; ``compiled`` holds the statements our plan
    compiler produced when the offline program has no chain form (then ERR did not run);
    ``trustuqa`` is the offline writer's full TrustUQA answer (its verdict feeds the merge).
    """

    writer: str
    cypher: str = ""
    err: ERRResult | None = None
    compiled: str = ""
    answer: list[str] = field(default_factory=list)
    error: str | None = None
    prompt: list[dict[str, str]] = field(default_factory=list)
    trustuqa: Answer | None = None

    @property
    def replaced(self) -> bool:
        return bool(self.err and self.err.replaced)

    @property
    def verdict(self) -> str | None:
        v = self.trustuqa.verdict if self.trustuqa else None
        return v.label if v else None

    def to_dict(self) -> dict[str, Any]:
        return {"writer": self.writer, "cypher": self.cypher, "compiled": self.compiled,
                "err": self.err.to_dict() if self.err else None, "answer": self.answer,
                "error": self.error, "verdict": self.verdict, "label": "executed"}


@dataclass
class UniOQAAnswer:
    """The merged answer, both workflows and the decision (``trace``/``verdict`` are None:
    the executed run's evidence is in ``translator``)."""

    question: str
    answer: list[str]
    translator: TranslatorRun
    searcher: SearcherAnswer | None
    decision: Decision
    error: str | None = None
    trace: Trace | None = None
    verdict: Verdict | None = None

    @property
    def ok(self) -> bool:
        return bool(self.answer)

    def to_dict(self) -> dict[str, Any]:
        return {"system": "unioqa", "question": self.question, "answer": self.answer,
                "source": self.decision.source, "unverified": self.decision.unverified,
                "reason": self.decision.reason, "reason_text": self.decision.message,
                "translator": self.translator.to_dict(),
                "searcher": self.searcher.to_dict() if self.searcher else None,
                "error": self.error}


def _offline_translator(question: str, graph: GraphStore, mapper: Mapper,
                        store: CypherStore, **kw: Any) -> TranslatorRun:
    run = TranslatorRun("offline")
    run.trustuqa = result = answer(question, graph, writer="offline", mapper=mapper, **kw)
    text = result.trace.query_text if result.trace else ""
    if not text:
        run.error = result.error or "the offline writer wrote no program"
        return run
    try:
        run.cypher = program_cypher(text)
    except TrustUQAError as exc:  # no chain form: our plan compiler, without ERR
        run.error = f"no chain form ({exc}); ran the compiled plan without ERR"
        try:
            compiled = run_cypher_query(text, graph, mapper, store=store)
            run.compiled, run.answer = compiled.cypher.text, compiled.answer
        except TrustUQAError as exc2:
            run.error = f"{run.error}; {type(exc2).__name__}: {exc2}"
        return run
    run.err = replace_and_run(run.cypher, mapper, store)
    run.answer = run.err.answer
    return run


def _llm_translator(question: str, graph: GraphStore, mapper: Mapper, store: CypherStore,
                    client: LLMClient, pool: DemoPool, exclude_origins: Sequence[str],
                    privacy: bool) -> TranslatorRun:
    writer = CypherWriter(client)
    run = TranslatorRun(writer.name)
    demos = pool.retrieve(question, k=8, exclude_origins=exclude_origins, verify=False).demos
    run.cypher, run.prompt = writer.write(question, graph, demos, privacy)
    try:
        run.err = replace_and_run(run.cypher, mapper, store)
    except TrustUQAError as exc:
        run.error = f"{type(exc).__name__}: {exc}"
        return run
    run.answer = run.err.answer
    return run


def unioqa_answer(question: str, graph: GraphStore, writer: str = "offline", *,
                  client: LLMClient | None = None, mapper: Mapper | None = None,
                  demos: DemoPool | None = None, exclude_origins: Sequence[str] = (),
                  privacy: bool = True, encoder: Encoder | None = None,
                  store: CypherStore | None = None, budget: int = 60,
                  settings: Any = None) -> UniOQAAnswer:
    """Answer with UniOQA's two workflows (see the module docstring).

    ``writer``: ``"offline"`` (no LLM: offline translator, no searcher) or ``"openai"`` (needs
    ``client``). ``settings`` is accepted for the benchmark runner's signature and unused.
    """
    mapper = mapper or Mapper(graph)
    store = store or store_for(graph)
    encoder = encoder or HashingEncoder()
    pool = demos or default_pool(encoder)
    if writer == "offline":
        tr = _offline_translator(question, graph, mapper, store, demos=pool,
                                 exclude_origins=exclude_origins, privacy=privacy,
                                 encoder=encoder)
    elif client is None:
        raise TrustUQAError("the openai writer needs an LLM client (settings)")
    else:
        tr = _llm_translator(question, graph, mapper, store, client, pool, exclude_origins,
                             privacy)
    searcher = None
    if client is not None:
        chosen = tr.err.chosen.bindings if tr.err and tr.err.chosen else ()
        retrieval = retrieve(question, graph, mapper, budget=budget,
                             extra_entities=[b.chosen for b in chosen if b.kind == "entity"],
                             relations=[b.chosen for b in chosen if b.kind == "relation"])
        searcher = search(question, retrieval, client)
    decision = merge(tr.answer, searcher.answer if searcher else None, replaced=tr.replaced,
                     verdict=tr.verdict, grounded=bool(searcher and searcher.grounded))
    error = None if decision.answer else (tr.error or "no answer from either workflow")
    return UniOQAAnswer(question, list(decision.answer), tr, searcher, decision, error)
