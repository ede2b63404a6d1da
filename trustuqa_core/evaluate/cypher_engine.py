"""``bench run --engine cypher``: the MetaQA ceiling and replay, executed by Ladybug.

:class:`CypherEngine` wraps :class:`~.ceilings.MetaQACeiling` or :class:`~.replay.MetaQAReplay`:
each item is first evaluated as usual (which gives the gold / expected answers and our
executor's answer), then the same mapped program (the gold program with the topic pinned, or
the recorded query) is compiled to Cypher (:mod:`trustuqa_core.cypher`) and run on the
embedded store; the outcome is re-scored with Ladybug's answer. ``engine_agrees`` flags
whether both engines gave the same answer set; a program with no Cypher translation is the
failure category ``no_cypher``. The mode is ``<mode>-cypher`` so reports and the resumable
cache never mix the two engines.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cypher.compile import CypherCompileError
from ..cypher.run import run_mapped
from ..errors import TrustUQAError
from ..query.parse import parse
from .ceilings import MetaQACeiling, metaqa_scores, topic_overrides
from .datasets import Example
from .graphs import source_graph
from .metaqa_gold import qtype_program
from .outcome import Outcome, Unavailable
from .replay import MetaQAReplay

__all__ = ["CypherEngine", "ENGINES"]

ENGINES = ("executor", "cypher")


class CypherEngine:
    """A MetaQA ceiling or replay whose programs run on Ladybug (see the module docstring)."""

    concurrent = False

    def __init__(self, inner: Any) -> None:
        if not isinstance(inner, MetaQACeiling | MetaQAReplay):
            raise Unavailable("--engine cypher runs the MetaQA ceiling and replay only "
                              "(KG programs compiled to Cypher)")
        self.inner = inner
        self.benchmark, self.split = inner.benchmark, inner.split
        self.mode = f"{inner.mode}-cypher"

    def items(self, limit: int | None = None) -> list[tuple[str, Any]]:
        return list(self.inner.items(limit))

    def _mapped(self, item: Any) -> tuple[Any, Any] | None:
        """(graph, mapped program) of an item, or None (topic not in the KB); raises the
        parse / mapping errors of a recorded query."""
        if isinstance(item, Example):
            graph, mapper = source_graph(item.sources[0])
            meta: Any = item.metadata
            topic = meta["topic_entity"]
            if graph.entity(topic) is None:
                return None
            program = qtype_program(meta["qtype"], topic)
            return graph, mapper.map_program(program, topic_overrides(program, topic))
        replay = self.inner
        assert isinstance(replay, MetaQAReplay)  # the constructor admits only these two
        replay._prepare()  # the replay's KB source is known once prepared
        graph, mapper = source_graph(replay._source)
        return graph, mapper.map_program(parse(item[1]))

    def evaluate(self, item: Any) -> Outcome:
        outcome = self.inner.evaluate(item)
        try:
            found = self._mapped(item)
            if found is None:
                return replace(outcome, flags={**outcome.flags,
                                               "engine_agrees": not outcome.answer})
            run = run_mapped(found[1], found[0])
        except CypherCompileError as exc:
            return replace(outcome, correct=False, category="no_cypher", answer=[],
                           detail=str(exc), flags={**outcome.flags, "engine_agrees": False})
        except TrustUQAError as exc:
            return replace(outcome, correct=False, category="error", answer=[],
                           detail=f"{type(exc).__name__}: {exc}",
                           flags={**outcome.flags, "engine_agrees": False})
        scores = metaqa_scores(run.answer, outcome.gold)
        correct = bool(outcome.gold) and bool(scores["hits1"])
        agrees = sorted(set(outcome.answer)) == run.answer
        category = "correct" if correct else (outcome.category if agrees else "engine_differs")
        return replace(outcome, correct=correct, category=category, answer=run.answer,
                       seconds=run.seconds, scores=scores,
                       flags={**outcome.flags, "engine_agrees": agrees},
                       query=run.cypher.text)
