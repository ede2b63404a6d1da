"""Shared fixtures: data location, small graphs, an offline encoder. No test touches the network."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from trustuqa_core import build_graph, load_source
from trustuqa_core.mapping import HashingEncoder, Mapper

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("TRUSTUQA_DATA", REPO.parent / "shared" / "data"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden trace files")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(autouse=True)
def _isolated_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Caches (embeddings, LLM responses) go to a temporary folder, never ~/.cache."""
    monkeypatch.setenv("TRUSTUQA_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """../shared/data (or $TRUSTUQA_DATA); tests needing it are skipped with a reason if absent."""
    if not DATA.is_dir():
        pytest.skip(f"benchmark data folder not found at {DATA} (set TRUSTUQA_DATA)")
    return DATA


@pytest.fixture
def encoder() -> HashingEncoder:
    """A deterministic, dependency-free encoder standing in for the sentence model."""
    return HashingEncoder()


MEDALS = b"""Rank,Nation,Gold,Silver,Bronze,Total
1,China,10,5,3,18
2,Italy,4,6,2,12
3,Japan,4,2,7,13
4,Spain,0,3,1,4
"""


@pytest.fixture(scope="session")
def medals_graph():
    return build_graph([load_source(MEDALS, "table", name="medals.csv")])


@pytest.fixture
def medals(medals_graph):
    """(graph, mapper) for a small medal table."""
    return medals_graph, Mapper(medals_graph, None)
