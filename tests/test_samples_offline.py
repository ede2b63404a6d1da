"""Every bundled sample question (sample_data/questions.jsonl, the app's "Try a sample" list)
is answered right by the offline writer over its own sources, without its reference query:
what a user sees with no API key after "Let the writer try"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustuqa_core import answer, load_graph

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"
KINDS = {".csv": "tables", ".txt": "kgs", ".tsv": "tkgs"}
ROWS = [json.loads(line) for line in (SAMPLES / "questions.jsonl").read_text(
    encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("row", [r for r in ROWS if r["sample"] != "cross"],
                         ids=lambda r: r["id"])
def test_the_offline_writer_answers_the_sample_question(row: dict) -> None:
    files: dict[str, list[Path]] = {"tables": [], "kgs": [], "tkgs": []}
    for name in row["sources"]:
        files[KINDS[Path(name).suffix]].append(SAMPLES / name)
    got = answer(row["question"], load_graph(**files), writer="offline")
    assert sorted(x.lower() for x in got.answer) == sorted(x.lower() for x in row["answer"]), (
        got.trace.query_text if got.trace else got.error)
    assert got.verdict.label in ("verified", "check")
