"""Tests for trustuqa_core.evaluate.datasets.

Tests marked ``data`` read small slices of the shared benchmark folder and are skipped, with
the reason, only when that folder does not exist. The others build tiny fake data roots in
``tmp_path`` for the cases the real files do not contain (escapes, Python-repr fields, broken
alignment). Expected values come from the files themselves (read here independently) or from
MANIFEST.md, never from the loaders' own output.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, cast

import pytest

from trustuqa_core.evaluate import datasets
from trustuqa_core.evaluate.datasets import (
    BENCHMARKS,
    DatasetError,
    Example,
    Source,
    data_root,
    load,
    load_cronquestions,
    load_fixed_prompt,
    load_metaqa,
    load_recorded_queries,
    load_webqsp,
    load_webqsp_tog_test,
    load_wikisql,
    load_wtq,
    metaqa_train_qtypes,
    wikisql_header,
    wtq_unescape,
)


def _shared_root() -> tuple[Path | None, str]:
    try:
        return data_root(), ""
    except FileNotFoundError as error:
        return None, str(error)


ROOT, NO_DATA_REASON = _shared_root()


def _count_lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for _ in handle)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------------------------
# data root, dispatch, shapes
# --------------------------------------------------------------------------------------------


def test_data_root_missing_names_the_path(tmp_path: Path, monkeypatch) -> None:
    missing = tmp_path / "nowhere"
    monkeypatch.setenv("TRUSTUQA_DATA", str(missing))
    with pytest.raises(FileNotFoundError, match="nowhere") as error:
        data_root()
    assert "TRUSTUQA_DATA" in str(error.value)
    with pytest.raises(FileNotFoundError, match="nowhere"):
        load("wtq", "train", 1)


def test_data_root_from_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TRUSTUQA_DATA", str(tmp_path))
    assert data_root() == tmp_path


def test_default_data_root_is_next_to_the_repo(monkeypatch) -> None:
    monkeypatch.delenv("TRUSTUQA_DATA", raising=False)
    repo = Path(datasets.__file__).resolve().parents[2]
    expected = repo.parent / "shared" / "data"
    if expected.is_dir():
        assert data_root() == expected
    else:
        with pytest.raises(FileNotFoundError, match=str(expected)):
            data_root()


def test_unknown_benchmark_lists_valid_names(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown benchmark 'squad'") as error:
        load("squad", "dev", root=tmp_path)
    for name in BENCHMARKS:
        assert name in str(error.value)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda root: load_metaqa(4, root=root), "MetaQA hop count"),
        (lambda root: load_webqsp("other", "dev", root=root), "WebQSP kind"),
        (lambda root: load_webqsp("name", "train", root=root), "WebQSP split"),
        (lambda root: load("webqsp", "train", root=root), "WebQSP split"),
        (lambda root: load_wtq("../../etc/passwd", root=root), "invalid WTQ split"),
        (lambda root: load_wtq("train", -1, root=root), "limit must be"),
    ],
)
def test_bad_arguments(tmp_path: Path, call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call(tmp_path)


def test_missing_file_error_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"qa_test\.txt.*withheld"):
        load_metaqa(1, "test", root=tmp_path)
    with pytest.raises(FileNotFoundError, match=r"WebQSP_test\.json"):
        load_webqsp_tog_test(root=tmp_path)


def test_example_is_frozen_and_hashable() -> None:
    example = Example("1", "wtq", "train", "q?", ("a",), (Source(Path("t.csv"), "table"),))
    with pytest.raises(AttributeError):
        example.question = "other"  # type: ignore[misc]
    assert hash(example) == hash(Example("1", "wtq", "train", "q?", ("a",), example.sources))


# --------------------------------------------------------------------------------------------
# WikiSQL
# --------------------------------------------------------------------------------------------


@pytest.mark.data
@pytest.mark.skipif(ROOT is None, reason=NO_DATA_REASON)
class TestSharedData:
    def test_wikisql_alignment_and_answers(self) -> None:
        assert ROOT is not None
        examples = load_wikisql("dev", limit=50)
        assert len(examples) == 50
        with (ROOT / "wikisql/original/dev.jsonl").open(encoding="utf-8") as lines:
            original = [json.loads(next(lines)) for _ in range(50)]
        cg = json.loads((ROOT / "wikisql/trustuqa_cg/WikiSQL_CG/dev.jsonl").read_text("utf-8"))
        seen: dict[str, int] = {}
        for example, record in zip(examples, original, strict=True):
            k = seen.get(record["table_id"], 0)
            seen[record["table_id"]] = k + 1
            cg_question, cg_answers = cg[record["table_id"]][k]
            assert example.question == record["question"] == cg_question
            assert example.metadata["sql"] == record["sql"]
            assert example.metadata["raw_answers"] == cg_answers
            assert example.sources[0].path.name == f"{record['table_id']}.csv"
            assert example.sources[0].kind == "table"
            header = wikisql_header(example.sources[0].path)
            assert record["sql"]["sel"] < len(header)
        # MANIFEST: first dev question and TrustUQA's answer for it
        assert examples[0].question.startswith("What position does the player")
        assert examples[0].answers == ("guard-forward",)
        assert examples[1].answers == ("1",)  # stored as the int 1

    def test_wikisql_header(self) -> None:
        assert ROOT is not None
        table = ROOT / "wikisql/trustuqa_cg/WikiSQL_TB_csv/dev/1-10015132-11.csv"
        assert wikisql_header(table) == [
            "Player",
            "No.",
            "Nationality",
            "Position",
            "Years in Toronto",
            "School/Club Team",
        ]

    def test_wikisql_full_dev_count_and_null_answers(self) -> None:
        examples = load_wikisql("dev")
        assert len(examples) == 8421  # MANIFEST
        nulls = [e for e in examples if e.metadata["null_answer"]]
        assert nulls and all(e.answers == () for e in nulls)
        sqls: list[Any] = [e.metadata["sql"] for e in nulls]
        assert all(sql["agg"] != 0 for sql in sqls)  # only aggregates are NULL
        floats = [e for e in examples if 176.0 in cast(list, e.metadata["raw_answers"])]
        assert floats and all("176" in e.answers for e in floats)

    def test_wtq_train_slice(self) -> None:
        assert ROOT is not None
        examples = load_wtq("train", limit=20)
        assert [e.id for e in examples[:2]] == ["nt-0", "nt-1"]
        assert examples[1].answers == ("Bangkok, Thailand",)  # a comma is not a separator
        by_id = {e.id: e for e in examples}
        assert by_id["nt-9"].answers == ("Siim Ennemuist", "Andri Aganits")
        for example in examples:
            assert example.metadata["table_copy"] == "trustuqa"
            assert example.sources[0].path.is_file()
            assert example.sources[0].path == (
                ROOT / "wtq/trustuqa_cg/WTQ" / str(example.metadata["context"])
            )

    def test_wtq_counts(self) -> None:
        assert len(load("wtq", "random-split-1-dev")) == 2831  # MANIFEST
        assert _count_lines(data_root() / "wtq/data/training.tsv") == 14152 + 1

    def test_metaqa_matches_trustuqa_copy(self) -> None:
        assert ROOT is not None
        examples = load_metaqa(1, "dev", limit=50)
        cg = json.loads((ROOT / "metaqa/trustuqa_cg/MetaQA_CG/dev/1-hop_qa.jsonl").read_text())
        for example in examples:
            record = cg[example.id.removeprefix("dev-")]
            assert example.question == record["question"]
            assert list(example.answers) == record["answer"]
        assert examples[0].metadata["topic_entity"] == "Temuera Morrison"
        assert examples[0].metadata["qtype"] == "actor_to_movie"
        assert examples[0].metadata["question_plain"] == "what movies did Temuera Morrison act in"
        assert examples[0].sources == (Source(ROOT / "metaqa/kb_partial/kb_partial.txt.gz", "kg"),)

    @pytest.mark.parametrize(("hops", "count"), [(1, 9992), (2, 14872), (3, 14274)])
    def test_metaqa_counts(self, hops: int, count: int) -> None:
        assert ROOT is not None
        folder = ROOT / f"metaqa/vanilla/{hops}-hop"
        assert _count_lines(folder / "qa_dev.txt") == count  # MANIFEST
        assert _count_lines(folder / "qa_dev_qtype.txt") == count
        examples = load(f"metaqa-{hops}hop", "dev", 5)
        assert [e.benchmark for e in examples] == [f"metaqa-{hops}hop"] * 5
        assert all(str(e.metadata["qtype"]).count("_to_") == hops for e in examples)

    def test_metaqa_full_1hop(self) -> None:
        assert len(load_metaqa(1, "dev")) == 9992

    def test_metaqa_train_qtypes(self) -> None:
        qtypes = metaqa_train_qtypes(1)
        assert len(qtypes) == 96106  # MANIFEST
        assert "actor_to_movie" in set(qtypes)

    def test_cronquestions(self) -> None:
        examples = load_cronquestions("valid", limit=20)
        first = examples[0]
        assert first.question == "So what was the first team Luca Bucci was playing with?"
        assert first.answers == ("Q2693",)
        assert first.metadata["answer_format"] == "wikidata_id"
        assert str(first.metadata["question_with_ids"]).startswith("So what was the first team Q5")
        assert first.sources[0].kind == "tkg"
        assert first.sources[0].path.name == "kg_test.txt"
        years = [e for e in examples if e.metadata["answer_type"] == "time"]
        assert years and all(a.isdigit() for e in years for a in e.answers)
        assert len(load("cronquestions", "valid")) == 5020  # MANIFEST

    def test_webqsp_dev(self) -> None:
        assert len(load_webqsp("name", "dev")) == 72  # MANIFEST
        assert len(load_webqsp("unname", "dev")) == 237
        examples = load("webqsp", "dev")
        assert len(examples) == 309
        assert {e.metadata["kind"] for e in examples} == {"name", "unname"}
        assert all(e.sources and e.sources[0].path.is_file() for e in examples)
        first = examples[0]
        assert (first.id, first.question) == ("WebQTrn-1682", "when did aldi originate?")
        assert first.answers == ("Essen",)
        assert first.metadata["answer_mids"] == ("m.017gry",)
        assert first.metadata["topic_entities"] == (("ALDI", "m.0246n2"),)
        assert first.sources[0].path.name == "WebQTrn-1682.P0.txt"

    def test_webqsp_literal_answer_without_name(self) -> None:
        # In the file: "answers": [["\"2012-03-16\"", null]] for WebQTrn-2582.
        by_id = {e.id: e for e in load_webqsp("name", "dev")}
        example = by_id["WebQTrn-2582"]
        assert example.answers == ("2012-03-16",)
        assert example.metadata["answer_mids"] == ()

    def test_load_limit_across_webqsp_files(self) -> None:
        examples = load("webqsp", "dev", 75)
        assert len(examples) == 75
        kinds = [e.metadata["kind"] for e in examples]
        assert kinds == ["name"] * 72 + ["unname"] * 3  # 72 name questions come first

    def test_recorded_queries_drop_none(self) -> None:
        assert ROOT is not None
        raw = json.loads((ROOT / "trustuqa_prompts/wtq_train_candidate_demo.json").read_text())
        assert len(raw) == 12931  # MANIFEST
        queries = load_recorded_queries("wtq")
        assert len(queries) == sum(1 for v in raw.values() if v != "None")
        assert "None" not in queries.values()
        assert (
            "count(set='output_of_query3')" in queries["how many italians finished in the top ten?"]
        )

    def test_fixed_prompt(self) -> None:
        messages = load_fixed_prompt("wikisql")
        assert len(messages) == 17  # MANIFEST: system + 8 user/assistant pairs
        assert messages[0]["role"] == "system"
        assert [m["role"] for m in messages[1:3]] == ["user", "assistant"]
        assert len(load_fixed_prompt("metaqa-1hop")) == 27

    def test_unknown_prompt_name(self) -> None:
        with pytest.raises(ValueError, match="metaqa-1hop"):
            load_recorded_queries("metaqa")

    def test_withheld_test_split(self) -> None:
        assert ROOT is not None
        if (ROOT / "wikisql/original/test.jsonl").exists():
            pytest.skip("this data folder has the WikiSQL test split")
        with pytest.raises(FileNotFoundError, match=r"wikisql/original/test\.jsonl"):
            load("wikisql", "test", 1)


# --------------------------------------------------------------------------------------------
# fake roots: the cases the shared files do not contain
# --------------------------------------------------------------------------------------------


def test_wtq_unescape_cases() -> None:
    assert wtq_unescape(r"a\pb") == "a|b"
    assert wtq_unescape(r"line\nbreak") == "line\nbreak"
    assert wtq_unescape(r"back\\slash") == "back\\slash"
    assert wtq_unescape(r"x\\p") == "x\\p"  # an escaped backslash followed by p
    assert wtq_unescape(r"x\\\p") == "x\\|"
    assert wtq_unescape(r"\t") == r"\t"  # unknown escapes are left alone


def _fake_wtq(root: Path, target: str, *, trustuqa_copy: bool) -> None:
    _write(
        root / "wtq/data/training.tsv",
        f"id\tutterance\tcontext\ttargetValue\nnt-0\twhat \\p?\tcsv/200-csv/1.csv\t{target}\n",
    )
    _write(root / "wtq/csv/200-csv/1.csv", '"a","b"\n')
    if trustuqa_copy:
        _write(root / "wtq/trustuqa_cg/WTQ/csv/200-csv/1.csv", "a\tb\n")


def test_wtq_escapes_in_answers(tmp_path: Path) -> None:
    _fake_wtq(tmp_path, r"A\pB|C\\D|E\nF", trustuqa_copy=False)
    (example,) = load_wtq("train", root=tmp_path)
    assert example.answers == ("A|B", "C\\D", "E\nF")
    assert example.question == "what |?"
    assert example.metadata["table_copy"] == "official"
    assert example.sources == (Source(tmp_path / "wtq/csv/200-csv/1.csv", "table"),)


def test_wtq_prefers_trustuqa_copy(tmp_path: Path) -> None:
    _fake_wtq(tmp_path, "x", trustuqa_copy=True)
    (example,) = load_wtq("train", root=tmp_path)
    assert example.metadata["table_copy"] == "trustuqa"
    assert example.metadata["table_format"] == "tsv"
    assert example.sources[0].path == tmp_path / "wtq/trustuqa_cg/WTQ/csv/200-csv/1.csv"


def test_wtq_bad_row(tmp_path: Path) -> None:
    _write(tmp_path / "wtq/data/training.tsv", "id\tutterance\tcontext\ttargetValue\nnt-0\tq\n")
    with pytest.raises(DatasetError, match=r"training\.tsv, line 2: 2 fields"):
        load_wtq("train", root=tmp_path)


def _fake_wikisql(root: Path, cg_question: str) -> None:
    record = {"phase": 1, "table_id": "1-1", "question": "Q one?", "sql": {"sel": 0}}
    second = {**record, "question": "Q two?"}
    _write(root / "wikisql/original/dev.jsonl", f"{json.dumps(record)}\n{json.dumps(second)}\n")
    cg = {"1-1": [["Q one?", ["x", 2.0, None]], [cg_question, [None]]]}
    _write(root / "wikisql/trustuqa_cg/WikiSQL_CG/dev.jsonl", json.dumps(cg))
    _write(root / "wikisql/trustuqa_cg/WikiSQL_TB_csv/dev/1-1.csv", "A\tB\nx\t2\n")


def test_wikisql_fake_answers(tmp_path: Path) -> None:
    _fake_wikisql(tmp_path, "Q two?")
    first, second = load_wikisql("dev", root=tmp_path)
    assert first.answers == ("x", "2")
    assert first.metadata["null_answer"] is True  # None dropped from the answers
    assert second.answers == ()


def test_wikisql_misalignment_is_reported(tmp_path: Path) -> None:
    _fake_wikisql(tmp_path, "Some other question?")
    with pytest.raises(DatasetError, match=r"line 2: question 'Q two\?'.*'Some other question\?'"):
        load_wikisql("dev", root=tmp_path)
    assert len(load_wikisql("dev", limit=1, root=tmp_path)) == 1  # the first line is fine


def test_metaqa_qtype_file_too_short(tmp_path: Path) -> None:
    folder = tmp_path / "metaqa/vanilla/1-hop"
    _write(folder / "qa_dev.txt", "who is [A]\tB\nwho is [C]\tD|E\n")
    _write(folder / "qa_dev_qtype.txt", "x_to_y\n")
    kb = tmp_path / "metaqa/kb_partial/kb_partial.txt.gz"
    kb.parent.mkdir(parents=True)
    with gzip.open(kb, "wt", encoding="utf-8") as handle:
        handle.write("A|r|B\n")
    assert load_metaqa(1, "dev", limit=1, root=tmp_path)[0].answers == ("B",)
    with pytest.raises(DatasetError, match="qa_dev_qtype.txt ends at line 1"):
        load_metaqa(1, "dev", root=tmp_path)


def _fake_webqsp(root: Path, record: dict) -> None:
    _write(
        root / "webqsp/trustuqa_cg/WQSP/question/dev/unname_question.jsonl",
        json.dumps(record) + "\n",
    )


def _webqsp_record(**fields: object) -> dict:
    record: dict[str, object] = {
        "ID": "WebQTrn-1.P0",
        "question": "who?",
        "answers": [["ns:m.01", "Foo"]],
        "kg_tuples": [],
        "entities": [["Bar", "m.02"]],
        "s_expression": "(JOIN r m.02)",
        "sparql": "SELECT ?x",
        "First_step": [],
        "Second_step": [],
    }
    record.update(fields)
    return record


def test_webqsp_python_repr_fields(tmp_path: Path) -> None:
    record = _webqsp_record(
        answers="[['ns:m.01', 'Foo'], ['ns:g.03', ''], ('\"1999\"', None)]",  # Python repr
        entities='[["Bar", "m.02"]]',  # JSON text
        First_step="['people.person.nationality']",
    )
    _fake_webqsp(tmp_path, record)
    (example,) = load_webqsp("unname", "dev", root=tmp_path)
    assert example.answers == ("Foo", "g.03", "1999")
    assert example.metadata["answer_mids"] == ("m.01", "g.03")
    assert example.metadata["topic_entities"] == (("Bar", "m.02"),)
    assert example.metadata["first_step"] == ["people.person.nationality"]
    assert example.sources == ()
    assert example.metadata["subgraph_missing"] is True


def test_webqsp_never_evaluates_code(tmp_path: Path) -> None:
    _fake_webqsp(tmp_path, _webqsp_record(answers="__import__('os').getcwd()"))
    with pytest.raises(DatasetError, match="line 1, answers: not JSON nor a Python literal"):
        load_webqsp("unname", "dev", root=tmp_path)


def test_webqsp_subgraph_source(tmp_path: Path) -> None:
    _fake_webqsp(tmp_path, _webqsp_record())
    subgraph = _write(tmp_path / "webqsp/trustuqa_cg/WQSP/data/dev/WebQTrn-1.P0.txt", "a\tr\tb\n")
    (example,) = load_webqsp("unname", "dev", root=tmp_path)
    assert example.id == "WebQTrn-1"
    assert example.sources == (Source(subgraph, "kg"),)


def test_webqsp_tog_format(tmp_path: Path) -> None:
    records = [
        {
            "QuestionId": "WebQTest-7",
            "RawQuestion": "who influenced x?",
            "answer": ["A", "B"],
            "topic_entity": {"m.078w2": "X"},
        }
    ]
    _write(tmp_path / "webqsp/tog_format/WebQSP_test.json", json.dumps(records))
    subgraph = _write(tmp_path / "webqsp/trustuqa_cg/WQSP/data/test/WebQTest-7.P0.txt", "a\tr\tb\n")
    (example,) = load_webqsp_tog_test(root=tmp_path)
    assert (example.id, example.answers, example.split) == ("WebQTest-7", ("A", "B"), "test")
    assert example.sources == (Source(subgraph, "kg"),)
    assert example.metadata["topic_entity"] == {"m.078w2": "X"}


def test_recorded_queries_shape_checked(tmp_path: Path) -> None:
    _write(tmp_path / "trustuqa_prompts/wtq_train_candidate_demo.json", '{"q": ["not text"]}')
    with pytest.raises(DatasetError, match="expected"):
        load_recorded_queries("wtq", root=tmp_path)
    _write(tmp_path / "trustuqa_prompts/wtq_train_candidate_demo.json", '{"a": "None", "b": "Q"}')
    assert load_recorded_queries("wtq", root=tmp_path) == {"b": "Q"}
