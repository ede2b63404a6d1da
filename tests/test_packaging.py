"""`pip install .` ships what the core reads at run time (pyproject's [project] table).

A data file added to ``trustuqa_core`` without a matching ``package-data`` pattern would be
missing from an installed wheel; these tests read pyproject.toml and the package folder, so
they fail as soon as the two disagree.
"""

from __future__ import annotations

import fnmatch
import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _data_files(package: str) -> list[str]:
    """Every non-Python file under the package folder, relative to it (caches left out)."""
    folder = ROOT / package
    return sorted(
        str(path.relative_to(folder))
        for path in folder.rglob("*")
        if path.is_file()
        and path.suffix not in {".py", ".pyc"}
        and "__pycache__" not in path.parts
    )


def test_every_data_file_of_the_core_is_declared_as_package_data() -> None:
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["trustuqa_core"]
    files = _data_files("trustuqa_core")
    assert "verdict/weights.json" in files and "lexicon.txt" in files
    missing = [f for f in files if not any(fnmatch.fnmatchcase(f, p) for p in patterns)]
    assert missing == [], f"not shipped by `pip install .`: {missing}"


def test_the_app_package_has_no_undeclared_data_files() -> None:
    declared = PYPROJECT["tool"]["setuptools"].get("package-data", {}).get("trustuqa_app", [])
    files = _data_files("trustuqa_app")
    missing = [f for f in files if not any(fnmatch.fnmatchcase(f, p) for p in declared)]
    assert missing == [], f"not shipped by `pip install .`: {missing}"


def test_the_console_script_names_a_callable_entry_point() -> None:
    target = PYPROJECT["project"]["scripts"]["trustuqa"]
    module_name, _, attr = target.partition(":")
    entry = getattr(importlib.import_module(module_name), attr)
    table = str(ROOT / "sample_data" / "giant_slalom.csv")
    assert entry(["ask", "--table", table, "--question", "who is from Slovenia?", "--json"]) == 0


def test_dependencies_come_from_the_pinned_requirements_file() -> None:
    files = PYPROJECT["tool"]["setuptools"]["dynamic"]["dependencies"]["file"]
    assert files == ["requirements.txt"]
    pins = [
        line for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert pins and all("==" in line for line in pins), pins
