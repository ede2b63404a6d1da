"""Small test helpers (fixture-file readers, a writer that always writes one query)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trustuqa_core import load_graph
from trustuqa_core.store import GraphStore
from trustuqa_core.writers.base import WriteRequest, Written

FIXTURES = Path(__file__).parent / "fixtures"

#: a race whose top three's Rank cells are blank (medallists), as in giant_slalom.csv, with
#: two runs and their own ranks
RACE_BLANK_TOP3 = (
    b"Rank,Bib,Name,Nation,Run 1,Run 1 rank,Run 2,Run 2 rank,Total\n"
    b",4,Ada Berg,Norway,1:05.10,1,1:10.40,3,2:15.50\n"
    b",7,Bo Lind,United States,1:05.60,3,1:10.20,2,2:15.80\n"
    b",2,Cy Moor,Canada,1:05.40,2,1:10.90,5,2:16.30\n"
    b"4,3,Di Park,Norway,1:06.20,5,1:10.10,1,2:16.30\n"
    b"5,1,Ed Quinn,United Kingdom,1:05.90,4,1:10.70,4,2:16.60\n"
    b"6,5,Flo Ray,Canada,1:07.00,6,1:11.30,6,2:18.30\n"
    b"7,6,Gus Hale,Sweden,1:07.40,7,1:11.80,7,2:19.20\n"
    b"8,8,Hal Ives,Italy,1:08.00,8,1:12.10,8,2:20.10\n"
)


def load_fixture_pairs(name: str) -> list[tuple[str, str, list[str]]]:
    """``(title, input line, expected lines)`` blocks of a ``# title:`` fixture file.

    A line starting with ``!`` is an instruction for the test (kept in the expected list).
    """
    blocks: list[tuple[str, str, list[str]]] = []
    title, lines = "", []
    for raw in (FIXTURES / name).read_text(encoding="utf-8").splitlines() + [""]:
        if raw.startswith("# title:"):
            title = raw.removeprefix("# title:").strip()
        elif raw.startswith("#"):
            continue
        elif raw.strip():
            lines.append(raw)
        elif lines:
            blocks.append((title, lines[0], lines[1:]))
            title, lines = "", []
    return blocks


def office_files(folder: Path, staff: bytes, books: bytes, politics: bytes) -> Path:
    """``staff.csv``, ``books.txt`` and ``politics.tsv`` written into ``folder`` (a table, a
    KG and a TKG of routing tests)."""
    (folder / "staff.csv").write_bytes(staff)
    (folder / "books.txt").write_bytes(books)
    (folder / "politics.tsv").write_bytes(politics)
    return folder


def office_graph_of(folder: Path) -> GraphStore:
    """The three files of :func:`office_files` loaded together."""
    return load_graph(tables=[folder / "staff.csv"], kgs=[folder / "books.txt"],
                      tkgs=[folder / "politics.tsv"])


class FixedWriter:
    """Writes the same query every time, whatever the sources (as an LLM might): tests of
    routing and of the fallback to every source run it deterministically."""

    name = "hand-written"

    def __init__(self, text: str) -> None:
        self.text = text

    def write(self, request: WriteRequest, n: int, attempt: int = 0,
              failed_stage: str = "") -> Written:
        return Written([self.text], "", ["fixed"])


def configure_llm(at: Any, base_url: str, key: str | None = None) -> None:
    """On the Settings page of the AppTest ``at``: the custom OpenAI-compatible server at
    ``base_url`` with model ``fake-model`` (and the API key ``key``, when given)."""
    at.switch_page("pages/4_Settings.py").run()
    at.radio[0].set_value("llm")
    at.selectbox[0].set_value("Custom server")
    at.text_input[0].set_value(base_url)
    at.text_input[1].set_value("fake-model")
    at.button[0].click().run()
    if key:
        next(t for t in at.text_input if t.label == "API key").set_value(key)
        next(b for b in at.button if b.label == "Save key").click().run()
    assert not at.exception
