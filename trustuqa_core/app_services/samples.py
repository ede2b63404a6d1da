"""The bundled sample data sets and their example questions (``sample_data/``).

>>> sets = sample_sets()
>>> [s.id for s in sets]
['slalom', 'movies', 'careers', 'cross']
>>> ex = example_questions()
>>> all(set(q.sources) <= {f.file for s in sets for f in s.files} for q in ex)
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ..demos import normalize_question

__all__ = ["SAMPLE_DIR", "SampleFile", "SampleSet", "ExampleQuestion", "sample_sets",
           "example_questions", "questions_for", "find_example", "question_match_key"]

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data"


#: the key two questions are matched on (a typed question against a bundled example or a
#: confirmed answer): accents, case, punctuation and spacing removed — the demos' own key
question_match_key = normalize_question


@dataclass(frozen=True)
class SampleFile:
    """One bundled file and how to read it."""

    file: str
    kind: str

    def read(self, directory: Path = SAMPLE_DIR) -> bytes:
        return (directory / self.file).read_bytes()


@dataclass(frozen=True)
class SampleSet:
    """A named group of bundled files that belong together."""

    id: str
    title: str
    description: str
    files: tuple[SampleFile, ...]


@dataclass(frozen=True)
class ExampleQuestion:
    """A bundled question with a hand-written reference query and the expected answer."""

    id: str
    sample: str
    question: str
    sources: tuple[str, ...]
    query: str
    answer: tuple[str, ...]


def sample_sets(directory: Path = SAMPLE_DIR) -> list[SampleSet]:
    """The sample sets listed in ``samples.json``."""
    data = json.loads((directory / "samples.json").read_text(encoding="utf-8"))
    return [SampleSet(d["id"], d["title"], d["description"],
                      tuple(SampleFile(f["file"], f["kind"]) for f in d["files"])) for d in data]


def example_questions(directory: Path = SAMPLE_DIR) -> list[ExampleQuestion]:
    """Every example question of ``questions.jsonl``."""
    out = []
    with (directory / "questions.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                d = json.loads(line)
                out.append(ExampleQuestion(d["id"], d["sample"], d["question"],
                                           tuple(d["sources"]), d["query"], tuple(d["answer"])))
    return out


def questions_for(loaded: set[str], directory: Path = SAMPLE_DIR) -> list[ExampleQuestion]:
    """Example questions whose sources are all among the ``loaded`` source names."""
    return [q for q in example_questions(directory) if set(q.sources) <= loaded]


def find_example(question: str, loaded: set[str],
                 directory: Path = SAMPLE_DIR) -> ExampleQuestion | None:
    """The example with the same (normalised) question whose data is loaded, if any.

    >>> find_example("How many Italians finished in the top ten", {"giant_slalom.csv"}).id
    'slalom-1'
    """
    key = question_match_key(question)
    return next((q for q in questions_for(loaded, directory)
                 if question_match_key(q.question) == key), None)
