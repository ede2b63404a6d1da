"""Benchmark loaders: WikiSQL, WTQ, MetaQA, CronQuestions, WebQSP -> :class:`Example` lists.

Everything is read from the shared data folder (see its ``MANIFEST.md``), never copied into the
repository. The folder is ``$TRUSTUQA_DATA`` when that is set, else ``<repo>/../shared/data``;
every loader also takes ``root=`` to point somewhere else (tests use small fake roots).

Each loader takes ``split`` and ``limit`` (stop after that many examples; large files are read
line by line, so a small limit reads little). Missing files raise ``FileNotFoundError`` naming
the path; files with an unexpected shape raise :class:`DatasetError` naming file and line.
Test splits are withheld from the shared folder, so ``split="test"`` usually raises.

>>> load("squad", "dev")
Traceback (most recent call last):
...
ValueError: unknown benchmark 'squad'; valid: wikisql, wtq, metaqa-1hop, metaqa-2hop, \
metaqa-3hop, cronquestions, webqsp
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import IO, Any, Literal

__all__ = [
    "BENCHMARKS",
    "RECORDED_QUERY_FILES",
    "FIXED_PROMPT_FILES",
    "Source",
    "Example",
    "DatasetError",
    "data_root",
    "load",
    "load_wikisql",
    "wikisql_header",
    "load_wtq",
    "wtq_unescape",
    "load_metaqa",
    "metaqa_train_qtypes",
    "load_cronquestions",
    "load_webqsp",
    "load_webqsp_tog_test",
    "load_recorded_queries",
    "load_fixed_prompt",
]

BENCHMARKS = (
    "wikisql",
    "wtq",
    "metaqa-1hop",
    "metaqa-2hop",
    "metaqa-3hop",
    "cronquestions",
    "webqsp",
)

_REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Source:
    """One file a question is answered over."""

    path: Path
    kind: Literal["table", "kg", "tkg"]


@dataclass(frozen=True)
class Example:
    """One benchmark question with its gold answers (as strings) and the data to answer it."""

    id: str
    benchmark: str
    split: str
    question: str
    answers: tuple[str, ...]
    sources: tuple[Source, ...]
    metadata: Mapping[str, object] = field(default_factory=dict, hash=False)


class DatasetError(ValueError):
    """A benchmark file does not have the expected shape, or two files disagree."""


# --------------------------------------------------------------------------------------------
# shared helpers
# --------------------------------------------------------------------------------------------


def data_root() -> Path:
    """The benchmark data folder: ``$TRUSTUQA_DATA``, else ``<repo root>/../shared/data``.

    Raises:
        FileNotFoundError: naming the folder, when it does not exist.
    """
    configured = os.environ.get("TRUSTUQA_DATA")
    path = Path(configured).expanduser() if configured else _REPO_ROOT.parent / "shared" / "data"
    if not path.is_dir():
        how = "set by TRUSTUQA_DATA" if configured else "default; set TRUSTUQA_DATA to change it"
        raise FileNotFoundError(f"benchmark data folder not found: {path} ({how})")
    return path


def _base(root: Path | str | None, *parts: str) -> Path:
    if root is None:
        return data_root().joinpath(*parts)
    path = Path(root)
    if not path.is_dir():
        raise FileNotFoundError(f"benchmark data folder not found: {path}")
    return path.joinpath(*parts)


def _require(path: Path, what: str, split: str = "") -> Path:
    """``path`` if it is a file, else FileNotFoundError naming it (and why, for test splits)."""
    if not path.is_file():
        why = ""
        if "test" in split or "unseen" in split:
            why = " (test splits are withheld from the shared data folder; see its MANIFEST.md)"
        raise FileNotFoundError(f"{what} not found: {path}{why}")
    return path


def _open(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def _check_limit(limit: int | None) -> None:
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be >= 0 or None, got {limit}")


def _take(items: Iterable[Example], limit: int | None) -> list[Example]:
    _check_limit(limit)
    return list(islice(items, limit))


def _check_name(value: str, what: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", value):
        raise ValueError(f"invalid {what} {value!r}")
    return value


def _one_of(value: object, allowed: Iterable[object], what: str) -> None:
    allowed = tuple(allowed)
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(map(str, allowed))}")


# --------------------------------------------------------------------------------------------
# WikiSQL
# --------------------------------------------------------------------------------------------


def _wikisql_answer(value: object) -> str:
    """Executed answers are str, int or float: integral floats print without ``.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def wikisql_header(path: Path | str) -> list[str]:
    """The column names of a (tab-separated) ``WikiSQL_TB_csv`` table file."""
    with Path(path).open(encoding="utf-8") as table:
        return table.readline().rstrip("\r\n").split("\t")


def _wikisql_example(
    example_id: str, split: str, record: dict[str, Any], raw: list[object], table: Path
) -> Example:
    return Example(
        id=example_id,
        benchmark="wikisql",
        split=split,
        question=record["question"],
        answers=tuple(_wikisql_answer(a) for a in raw if a is not None),
        sources=(Source(table, "table"),),
        metadata={
            "table_id": record["table_id"],
            "sql": record["sql"],
            "raw_answers": raw,
            "null_answer": None in raw,
            "table_format": "tsv",
        },
    )


def load_wikisql(
    split: str = "dev", limit: int | None = None, *, root: Path | str | None = None
) -> list[Example]:
    """WikiSQL questions (``original/``) with TrustUQA's executed gold answers (``WikiSQL_CG``).

    The two files are matched by table id and question order; the question texts must agree,
    else :class:`DatasetError`. A gold answer of ``None`` (an aggregate over no rows, SQL NULL)
    is dropped, so such questions have ``answers == ()`` and ``metadata["null_answer"]``.
    ``metadata["raw_answers"]`` keeps the answers exactly as stored (ints, floats, None).
    """
    _check_limit(limit)
    base = _base(root, "wikisql")
    _check_name(split, "WikiSQL split")
    questions = _require(base / "original" / f"{split}.jsonl", "WikiSQL questions", split)
    cg_file = base / "trustuqa_cg" / "WikiSQL_CG" / f"{split}.jsonl"
    answers_file = _require(cg_file, "WikiSQL answers", split)
    tables = base / "trustuqa_cg" / "WikiSQL_TB_csv" / split
    with answers_file.open(encoding="utf-8") as handle:
        answers_by_table = json.load(handle)
    position: Counter[str] = Counter()
    examples: list[Example] = []
    with questions.open(encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            if limit is not None and len(examples) >= limit:
                return examples
            record = json.loads(line)
            table_id = record["table_id"]
            k = position[table_id]
            position[table_id] += 1
            pairs = answers_by_table.get(table_id, [])
            if k >= len(pairs) or pairs[k][0] != record["question"]:
                found = repr(pairs[k][0]) if k < len(pairs) else "nothing"
                raise DatasetError(
                    f"{questions}, line {index + 1}: question {record['question']!r} is "
                    f"question {k} of table {table_id}, but {answers_file} has {found} there"
                )
            table = _require(tables / f"{table_id}.csv", "WikiSQL table")
            examples.append(_wikisql_example(f"{split}-{index}", split, record, pairs[k][1], table))
    stored = sum(len(v) for v in answers_by_table.values())
    if stored != len(examples):
        raise DatasetError(f"{questions} has {len(examples)} questions, {answers_file} {stored}")
    return examples


# --------------------------------------------------------------------------------------------
# WikiTableQuestions
# --------------------------------------------------------------------------------------------

_WTQ_SPLITS = {"train": "training", "test": "pristine-unseen-tables"}
_WTQ_ESCAPES = {"n": "\n", "p": "|", "\\": "\\"}


def wtq_unescape(text: str) -> str:
    r"""Undo the WTQ TSV escapes: ``\n`` newline, ``\p`` pipe, ``\\`` backslash.

    One left-to-right pass, so an escaped backslash before ``n`` or ``p`` stays a backslash
    (the official evaluator's chained ``replace`` gets that case wrong; it does not occur in
    the released data).

    >>> wtq_unescape(r"a\pb"), wtq_unescape(r"x\\p"), wtq_unescape(r"1\n2")
    ('a|b', 'x\\p', '1\n2')
    """
    return re.sub(r"\\(.)", lambda m: _WTQ_ESCAPES.get(m[1], m[0]), text, flags=re.DOTALL)


def _wtq_table(base: Path, context: str) -> tuple[Path, dict[str, str]]:
    trustuqa = base / "trustuqa_cg" / "WTQ" / context
    if trustuqa.is_file():
        return trustuqa, {"table_copy": "trustuqa", "table_format": "tsv"}
    official = _require(base / context, "WTQ table")
    return official, {"table_copy": "official", "table_format": "csv"}


def load_wtq(
    split: str = "train", limit: int | None = None, *, root: Path | str | None = None
) -> list[Example]:
    """WikiTableQuestions ``data/<split>.tsv`` (``train`` = ``training``, ``test`` = unseen).

    Target values are split on ``|`` and unescaped (:func:`wtq_unescape`). The source is
    TrustUQA's tab-separated copy of the table when it exists (``metadata["table_copy"] ==
    "trustuqa"``, some headers hand-edited), else the official quoted CSV (``"official"``).
    """
    _check_limit(limit)
    base = _base(root, "wtq")
    name = _check_name(_WTQ_SPLITS.get(split, split), "WTQ split")
    path = _require(base / "data" / f"{name}.tsv", "WTQ split file", name)
    examples: list[Example] = []
    with path.open(encoding="utf-8") as lines:
        header = lines.readline().rstrip("\r\n").split("\t")
        if not {"id", "utterance", "context", "targetValue"} <= set(header):
            raise DatasetError(f"{path}, line 1: unexpected header {header}")
        for number, line in enumerate(lines, start=2):
            if limit is not None and len(examples) >= limit:
                break
            fields = line.rstrip("\r\n").split("\t")
            if len(fields) != len(header):
                problem = f"{len(fields)} fields, not {len(header)}"
                raise DatasetError(f"{path}, line {number}: {problem}")
            row = dict(zip(header, fields, strict=True))
            table, table_info = _wtq_table(base, row["context"])
            examples.append(
                Example(
                    id=row["id"],
                    benchmark="wtq",
                    split=split,
                    question=wtq_unescape(row["utterance"]),
                    answers=tuple(wtq_unescape(v) for v in row["targetValue"].split("|")),
                    sources=(Source(table, "table"),),
                    metadata={"context": row["context"], **table_info},
                )
            )
    return examples


# --------------------------------------------------------------------------------------------
# MetaQA
# --------------------------------------------------------------------------------------------

_TOPIC = re.compile(r"\[([^\]]+)\]")
_KB_NOTE = "kb_partial lacks ~4% of MetaQA's kb.txt: 2- and 3-hop scores are lower bounds"


def _metaqa_rows(qa: Path, qtypes: Path) -> Iterator[tuple[int, str, str]]:
    """(line number, QA line, qtype) in lockstep; the files must have the same length."""
    with _open(qa) as qa_lines, _open(qtypes) as type_lines:
        number = 0
        for number, line in enumerate(qa_lines, start=1):
            qtype = type_lines.readline()
            if not qtype:
                raise DatasetError(f"{qtypes} ends at line {number - 1}, before {qa} does")
            yield number, line.rstrip("\r\n"), qtype.strip()
        if type_lines.readline():
            raise DatasetError(f"{qtypes} has more lines than {qa} ({number})")


def load_metaqa(
    hops: int = 1, split: str = "dev", limit: int | None = None, *, root: Path | str | None = None
) -> list[Example]:
    """MetaQA vanilla ``qa_<split>.txt`` with its line-aligned qtype file, over ``kb_partial``.

    ``question`` keeps the ``[topic entity]`` brackets; ``metadata`` has ``topic_entity``,
    ``qtype``, ``hops`` and ``question_plain`` (brackets removed). Ids are ``<split>-<line
    index>`` from 0, the keys TrustUQA's ``MetaQA_CG`` files use.
    """
    _one_of(hops, (1, 2, 3), "MetaQA hop count")
    base = _base(root, "metaqa")
    folder = base / "vanilla" / f"{hops}-hop"
    _check_name(split, "MetaQA split")
    qa = _require(folder / f"qa_{split}.txt", "MetaQA questions", split)
    qtypes = _require(folder / f"qa_{split}_qtype.txt", "MetaQA qtype file")
    kb = _require(base / "kb_partial" / "kb_partial.txt.gz", "MetaQA KB")
    benchmark = f"metaqa-{hops}hop"

    def examples() -> Iterator[Example]:
        for number, line, qtype in _metaqa_rows(qa, qtypes):
            question, tab, answers = line.partition("\t")
            topic = _TOPIC.search(question)
            if not tab or topic is None:
                raise DatasetError(f"{qa}, line {number}: expected 'question [entity]\\tanswers'")
            yield Example(
                id=f"{split}-{number - 1}",
                benchmark=benchmark,
                split=split,
                question=question,
                answers=tuple(answers.split("|")),
                sources=(Source(kb, "kg"),),
                metadata={
                    "topic_entity": topic[1],
                    "qtype": qtype,
                    "hops": hops,
                    "question_plain": _TOPIC.sub(r"\1", question),
                    "kb_note": _KB_NOTE,
                },
            )

    return _take(examples(), limit)


def metaqa_train_qtypes(hops: int, *, root: Path | str | None = None) -> list[str]:
    """The question types of MetaQA's train split, in file order (the train QA text is absent)."""
    _one_of(hops, (1, 2, 3), "MetaQA hop count")
    path = _base(root, "metaqa", "vanilla", f"{hops}-hop", "qa_train_qtype.txt.gz")
    with _open(_require(path, "MetaQA train qtypes")) as lines:
        return [line.strip() for line in lines if line.strip()]


# --------------------------------------------------------------------------------------------
# CronQuestions (complex subset, SubGTR release)
# --------------------------------------------------------------------------------------------


def load_cronquestions(
    split: str = "valid", limit: int | None = None, *, root: Path | str | None = None
) -> list[Example]:
    """CronQuestions complex questions; the source is TrustUQA's 5,000-fact TKG sample.

    ``question`` is ``paraphrases[0]`` (names filled in). Entity answers are Wikidata ids
    (``metadata["answer_format"] == "wikidata_id"``): no id-to-name map is available, and the
    5k-fact sample covers few of these questions. Time answers are years.
    """
    _check_limit(limit)
    base = _base(root, "cronquestions")
    _check_name(split, "CronQuestions split")
    path = _require(base / "complex_subset_subgtr" / f"{split}.jsonl.gz", "CronQuestions", split)
    kg = _require(base / "trustuqa_cg" / "CronQuestion_CG" / "kg_test.txt", "CronQuestions TKG")

    def examples() -> Iterator[Example]:
        with _open(path) as lines:
            for index, line in enumerate(lines):
                record = json.loads(line)
                question = (record.get("paraphrases") or [record["question"]])[0]
                entity = record["answer_type"] == "entity"
                yield Example(
                    id=f"{split}-{index}",
                    benchmark="cronquestions",
                    split=split,
                    question=question,
                    answers=tuple(str(a) for a in record["answers"]),
                    sources=(Source(kg, "tkg"),),
                    metadata={
                        "answer_type": record["answer_type"],
                        "answer_format": "wikidata_id" if entity else "year",
                        "question_with_ids": record["question"],
                        "question_type": record["type"],
                        "entities": tuple(record["entities"]),
                        "times": tuple(record["times"]),
                        "relations": tuple(record["relations"]),
                        "annotation": record["annotation"],
                        "uniq_id": record["uniq_id"],
                        "unfilled_placeholder": bool(re.search(r"\{\w+\}", question)),
                    },
                )

    return _take(examples(), limit)


# --------------------------------------------------------------------------------------------
# WebQSP
# --------------------------------------------------------------------------------------------

_WEBQSP_STRUCTURED = ("answers", "entities", "kg_tuples", "First_step", "Second_step")
_WEBQSP_KINDS = {"dev": ("name", "unname"), "test": ("name",)}


def _structured(value: object, where: str) -> Any:
    """A list/dict field, parsing it when it is stored as JSON or Python-repr text.

    JSON is tried first; ``ast.literal_eval`` (literals only, never ``eval``) second.
    """
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        pass
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError) as error:
        raise DatasetError(f"{where}: not JSON nor a Python literal: {value[:80]!r}") from error


def _webqsp_answer(pair: list[object]) -> tuple[str, str | None]:
    """(answer text, MID or None): the name, else the unquoted literal, else the bare MID."""
    ident = str(pair[0])
    name = pair[1] if len(pair) > 1 else None
    if ident.startswith('"'):
        return (str(name) if name else ident.strip('"')), None
    mid = ident.removeprefix("ns:")
    return (str(name) if name else mid), mid


def _webqsp_subgraph(base: Path, split: str, question_id: str) -> tuple[Source, ...]:
    path = base / "trustuqa_cg" / "WQSP" / "data" / split / f"{question_id}.P0.txt"
    return (Source(path, "kg"),) if path.is_file() else ()


def load_webqsp(
    kind: str = "name",
    split: str = "test",
    limit: int | None = None,
    *,
    root: Path | str | None = None,
) -> list[Example]:
    """TrustUQA's WebQSP question files (``name`` or ``unname``) with their P0 subgraphs.

    Answers are the answer names (the bare MID when a name is missing, the unquoted value for
    literals); ``metadata["answer_mids"]`` lists the entity MIDs. List-valued fields stored as
    Python-repr text are parsed with ``ast.literal_eval`` after JSON fails. ``sources`` is
    empty when the question's subgraph file is absent (``metadata["subgraph_missing"]``).
    """
    _check_limit(limit)
    _one_of(kind, ("name", "unname"), "WebQSP kind")
    _one_of(split, tuple(_WEBQSP_KINDS), "WebQSP split")
    base = _base(root, "webqsp")
    path = _require(
        base / "trustuqa_cg" / "WQSP" / "question" / split / f"{kind}_question.jsonl",
        "WebQSP questions",
        split,
    )

    def examples() -> Iterator[Example]:
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                record = json.loads(line)
                where = f"{path}, line {number}"
                fields = {k: _structured(record[k], f"{where}, {k}") for k in _WEBQSP_STRUCTURED}
                answers = [_webqsp_answer(pair) for pair in fields["answers"]]
                question_id = record["ID"].removesuffix(".P0")
                sources = _webqsp_subgraph(base, split, question_id)
                yield Example(
                    id=question_id,
                    benchmark="webqsp",
                    split=split,
                    question=record["question"],
                    answers=tuple(text for text, _ in answers),
                    sources=sources,
                    metadata={
                        "kind": kind,
                        "record_id": record["ID"],
                        "answer_mids": tuple(mid for _, mid in answers if mid),
                        "topic_entities": tuple(tuple(e) for e in fields["entities"]),
                        "s_expression": record.get("s_expression"),
                        "sparql": record.get("sparql"),
                        "first_step": fields["First_step"],
                        "second_step": fields["Second_step"],
                        "subgraph_missing": not sources,
                    },
                )

    return _take(examples(), limit)


def load_webqsp_tog_test(
    limit: int | None = None, *, root: Path | str | None = None
) -> list[Example]:
    """All 1,639 WebQSP test questions in the ToG format (answer names, topic-entity MIDs)."""
    _check_limit(limit)
    base = _base(root, "webqsp")
    path = _require(base / "tog_format" / "WebQSP_test.json", "WebQSP ToG test file", "test")
    with path.open(encoding="utf-8") as handle:
        records = json.load(handle)
    examples = []
    for record in records[:limit]:
        sources = _webqsp_subgraph(base, "test", record["QuestionId"])
        examples.append(
            Example(
                id=record["QuestionId"],
                benchmark="webqsp",
                split="test",
                question=record["RawQuestion"],
                answers=tuple(str(a) for a in record["answer"]),
                sources=sources,
                metadata={
                    "kind": "tog",
                    "topic_entity": dict(record.get("topic_entity", {})),
                    "subgraph_missing": not sources,
                },
            )
        )
    return examples


# --------------------------------------------------------------------------------------------
# TrustUQA's recorded prompts and demonstrations
# --------------------------------------------------------------------------------------------

RECORDED_QUERY_FILES = {
    "wtq": "wtq_train_candidate_demo.json",
    "metaqa-1hop": "MetaQA/train_candidate_demo_1hop.json",
    "metaqa-2hop": "MetaQA/train_candidate_demo_2hop.json",
    "metaqa-3hop": "MetaQA/train_candidate_demo_3hop.json",
    "webqsp-name": "WQSP/wqsp_name_train_candidate_demo.json",
    "webqsp-unname": "WQSP/wqsp_unname_train_candidate_demo.json",
    "wikisql": "wikisql_train_candidate_demo.json",  # >= 4 MiB: absent from the shared folder
    "cronquestions": "cronquestion_train_candidate_demo.json",  # absent as well
}
FIXED_PROMPT_FILES = {
    "wikisql": "wikisql.json",
    "wtq": "WTQ.json",
    "cronquestions": "CronQuestion.json",
    "metaqa-1hop": "MetaQA/1hop.json",
    "metaqa-2hop": "MetaQA/2hop.json",
    "metaqa-3hop": "MetaQA/3hop.json",
    "webqsp-name": "WQSP/WQSP_name.json",
    "webqsp-unname": "WQSP/WQSP_unname.json",
}


def _prompt_json(name: str, files: Mapping[str, str], root: Path | str | None) -> object:
    _one_of(name, files, "prompt file name")
    path = _require(_base(root, "trustuqa_prompts", files[name]), "TrustUQA prompt file")
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)


def load_recorded_queries(name: str, *, root: Path | str | None = None) -> dict[str, str]:
    """TrustUQA's recorded GPT-3.5 query programs: {train question: query text}.

    ``name`` is a key of :data:`RECORDED_QUERY_FILES`. Entries whose value is the string
    ``"None"`` (TrustUQA stored that where it kept no query for the question: 6,813 of the
    12,931 WTQ entries) are dropped.
    """
    data = _prompt_json(name, RECORDED_QUERY_FILES, root)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise DatasetError(f"{RECORDED_QUERY_FILES[name]}: expected {{question: query text}}")
    return {q: text for q, text in data.items() if text.strip() != "None"}


def load_fixed_prompt(name: str, *, root: Path | str | None = None) -> list[dict[str, str]]:
    """A fixed few-shot prompt: chat messages ``{"role", "content"}`` (a key of
    :data:`FIXED_PROMPT_FILES`)."""
    data = _prompt_json(name, FIXED_PROMPT_FILES, root)
    roles = {"system", "user", "assistant"}
    if not isinstance(data, list) or not all(
        isinstance(m, dict) and m.get("role") in roles and isinstance(m.get("content"), str)
        for m in data
    ):
        raise DatasetError(f"{FIXED_PROMPT_FILES[name]}: expected a list of chat messages")
    return [{"role": m["role"], "content": m["content"]} for m in data]


# --------------------------------------------------------------------------------------------
# dispatch
# --------------------------------------------------------------------------------------------


def load(
    benchmark: str, split: str, limit: int | None = None, *, root: Path | str | None = None
) -> list[Example]:
    """Load ``limit`` examples (all when None) of one benchmark split.

    ``webqsp`` reads the ``name`` then the ``unname`` questions for ``dev``, and only the
    ``name`` questions for ``test`` (TrustUQA's test unname file is in no snapshot; use
    :func:`load_webqsp_tog_test` for the whole test set).
    """
    _one_of(benchmark, BENCHMARKS, "benchmark")
    return _LOADERS[benchmark](split, limit, root)


def _load_webqsp_split(split: str, limit: int | None, root: Path | str | None) -> list[Example]:
    _one_of(split, tuple(_WEBQSP_KINDS), "WebQSP split")
    _check_limit(limit)
    examples: list[Example] = []
    for kind in _WEBQSP_KINDS[split]:
        left = None if limit is None else limit - len(examples)
        examples += load_webqsp(kind, split, left, root=root)
    return examples


_Loader = Callable[[str, int | None, Path | str | None], list[Example]]
_LOADERS: dict[str, _Loader] = {
    "wikisql": lambda split, limit, root: load_wikisql(split, limit, root=root),
    "wtq": lambda split, limit, root: load_wtq(split, limit, root=root),
    "metaqa-1hop": lambda split, limit, root: load_metaqa(1, split, limit, root=root),
    "metaqa-2hop": lambda split, limit, root: load_metaqa(2, split, limit, root=root),
    "metaqa-3hop": lambda split, limit, root: load_metaqa(3, split, limit, root=root),
    "cronquestions": lambda split, limit, root: load_cronquestions(split, limit, root=root),
    "webqsp": _load_webqsp_split,
}
