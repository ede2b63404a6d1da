"""Demo pools derived from benchmark data, kept hygienic for scoring.

Recorded TrustUQA queries (MetaQA, WebQSP, WTQ), the fixed CronQuestions prompt and WikiSQL's
gold SQL as demos; :func:`benchmark_pool` builds the pool for one benchmark split with the
scored split's questions excluded (WikiSQL: dev split by table, :func:`demo_half`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..demos import Demo, DemoPool, DemoSource, initial_demos, normalize_question
from ..mapping.dense import Encoder
from .datasets import (
    DatasetError,
    load,
    load_fixed_prompt,
    load_metaqa,
    load_recorded_queries,
    load_wikisql,
    load_wtq,
    wikisql_header,
)
from .wikisql_demos import sql_to_demo_text

__all__ = ["metaqa_demos", "webqsp_demos", "cronquestions_demos", "wtq_demos", "wikisql_demos",
           "demo_half", "benchmark_pool", "ExcludeFor"]


def _origin(question: str, default: str, scored: set[str], scored_origin: str) -> str:
    """``scored_origin`` when the question (normalised) belongs to the split being scored."""
    return scored_origin if normalize_question(question) in scored else default


def metaqa_demos(hops: int, *, root: str | Path | None = None, scored: Iterable[str] = (),
                 scored_origin: str = "") -> list[Demo]:
    """TrustUQA's recorded MetaQA train queries (no answers: they cannot be re-verified).

    Demos whose question is in ``scored`` (texts of the split being scored) get the origin
    ``scored_origin`` so that they can be excluded; the others ``metaqa-<h>hop:train``.
    """
    keys = {normalize_question(q) for q in scored}
    origin = f"metaqa-{hops}hop:train"
    kb = _metaqa_kb(root)
    return [Demo(q, text, (), "kg", _origin(q, origin, keys, scored_origin), kb)
            for q, text in load_recorded_queries(f"metaqa-{hops}hop", root=root).items()]


def _metaqa_kb(root: str | Path | None) -> tuple[DemoSource, ...]:
    """MetaQA's KB as a demo source (so a recorded query is checked to run and be non-empty
    on it), or nothing when the file is absent."""
    try:
        examples = load_metaqa(1, "dev", 1, root=root)
    except (DatasetError, OSError):
        return ()
    kb = examples[0].sources[0].path if examples and examples[0].sources else None
    return (DemoSource("kg", kb.name, str(kb)),) if kb is not None else ()


def cronquestions_demos(*, root: str | Path | None = None) -> list[Demo]:
    """The demonstrations of TrustUQA's fixed CronQuestions prompt (recorded GPT-3.5 queries;
    the question is the first line of each user turn), origin ``cronquestions:prompt``. The
    recorded train queries are not available (see the data MANIFEST)."""
    messages = load_fixed_prompt("cronquestions", root=root)
    out = []
    for user, reply in zip(messages, messages[1:], strict=False):
        if user["role"] != "user" or reply["role"] != "assistant":
            continue
        found = re.search(r"Question:\s*(.+)", user["content"])
        if found:
            out.append(Demo(found.group(1).strip(), reply["content"].strip(), (), "tkg",
                            "cronquestions:prompt"))
    return out


def webqsp_demos(kind: str = "name", *, root: str | Path | None = None,
                 scored: Iterable[str] = (), scored_origin: str = "") -> list[Demo]:
    """TrustUQA's recorded WebQSP train queries (``name`` or ``unname``), no answers."""
    keys = {normalize_question(q) for q in scored}
    return [Demo(q, text, (), "kg", _origin(q, "webqsp:train", keys, scored_origin))
            for q, text in load_recorded_queries(f"webqsp-{kind}", root=root).items()]


def wtq_demos(*, root: str | Path | None = None, scored: Iterable[str] = (),
              scored_origin: str = "") -> list[Demo]:
    """TrustUQA's recorded WTQ train queries with the question's table and gold answer
    (so they can be re-verified). A question asked of several tables takes the first."""
    keys = {normalize_question(q) for q in scored}
    examples: dict[str, Any] = {}
    for ex in load_wtq("train", root=root):
        examples.setdefault(ex.question, ex)
    out = []
    for q, text in load_recorded_queries("wtq", root=root).items():
        found = examples.get(q)
        sources = ((DemoSource("table", found.sources[0].path.name,
                                str(found.sources[0].path)),) if found is not None else ())
        out.append(Demo(q, text, tuple(found.answers) if found is not None else (), "table",
                        _origin(q, "wtq:train", keys, scored_origin), sources))
    return out


def wikisql_demos(examples: Iterable[Any], origin: str) -> list[Demo]:
    """WikiSQL examples (``evaluate.datasets.Example``) as demos: SQL converted to programs."""
    out = []
    for ex in examples:
        path = ex.sources[0].path
        text = sql_to_demo_text(ex.metadata["sql"], wikisql_header(path))
        out.append(Demo(ex.question, text, tuple(ex.answers), "table", origin,
                        (DemoSource("table", path.name, str(path)),),
                        {"table_id": ex.metadata.get("table_id")}))
    return out


def demo_half(table_id: str) -> str:
    """``"a"`` or ``"b"``: a fixed split of WikiSQL tables (first byte of sha1 of the id).

    >>> demo_half("1-10015132-11") in ("a", "b")
    True
    """
    return "a" if hashlib.sha1(table_id.encode("utf-8")).digest()[0] % 2 == 0 else "b"


ExcludeFor = Callable[[Any], tuple[str, ...]]


def benchmark_pool(benchmark: str, split: str, encoder: Encoder, *,
                   root: str | Path | None = None) -> tuple[DemoPool, ExcludeFor]:
    """A hygienic demo pool for scoring ``benchmark``/``split``, and the origins to exclude
    for each example (pass both to ``answer(demos=..., exclude_origins=...)``).

    Demos whose question (normalised) occurs in the scored split get that split's origin and
    are excluded. WikiSQL has no train split here: dev is split by table id
    (:func:`demo_half`) and each half is answered with demos from the other half only.
    """
    init = initial_demos()
    origin = f"{benchmark}:{split}"
    scored = [e.question for e in load(benchmark, split, root=root)] if benchmark != (
        "wikisql") else []
    demos: list[Demo]
    if benchmark.startswith("metaqa-"):
        demos = metaqa_demos(int(benchmark[7]), root=root, scored=scored, scored_origin=origin)
    elif benchmark == "wtq":
        demos = wtq_demos(root=root, scored=scored, scored_origin=origin)
    elif benchmark == "cronquestions":
        demos = cronquestions_demos(root=root)
    elif benchmark == "webqsp":
        demos = [d for kind in ("name", "unname") for d in
                 webqsp_demos(kind, root=root, scored=scored, scored_origin=origin)]
    elif benchmark == "wikisql":
        every = [e for e in load_wikisql("dev", root=root) if e.answers]
        demos = [d for h in "ab" for d in wikisql_demos(
            [e for e in every if demo_half(str(e.metadata["table_id"])) == h],
            f"wikisql:dev-half-{h}")]
        pool = DemoPool(init + demos, encoder)
        if split != "dev":
            return pool, lambda example: ()
        return pool, lambda example: (
            f"wikisql:dev-half-{demo_half(example.metadata['table_id'])}",)
    else:
        demos = []
    return DemoPool(init + demos, encoder), lambda example: (origin,)
