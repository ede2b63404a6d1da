"""The core package imports and runs without Streamlit: only ``trustuqa_app`` (the views beside
``app.py``) may import it.

Two checks: every module of ``trustuqa_core`` is imported in a fresh interpreter where
``import streamlit`` fails (a meta-path blocker installed before anything else), and no source
file under ``trustuqa_core/`` has an ``import streamlit`` anywhere, at the top or inside a
function (an AST scan, so a lazy import cannot hide one). Each check is first shown to catch a
module that does import Streamlit (``trustuqa_app.state``), so neither can pass vacuously.
The same scan checks that no core module imports ``trustuqa_app`` (the views depend on the
core, never the other way round).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORE = REPO / "trustuqa_core"

# Runs in a child interpreter: block Streamlit, then import the named modules (or, with no
# names, every module pkgutil finds in trustuqa_core), and print what happened as JSON.
_PROBE = r"""
import importlib, importlib.abc, json, pkgutil, sys

class BlockStreamlit(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "streamlit" or name.startswith("streamlit."):
            raise ImportError(f"streamlit is blocked in this test ({name})")
        return None

sys.meta_path.insert(0, BlockStreamlit())
for name in [m for m in sys.modules if m == "streamlit" or m.startswith("streamlit.")]:
    del sys.modules[name]

names = sys.argv[1:]
if not names:
    import trustuqa_core
    names = ["trustuqa_core"]
    for info in pkgutil.walk_packages(trustuqa_core.__path__, "trustuqa_core.",
                                      onerror=lambda n: (_ for _ in ()).throw(ImportError(n))):
        if info.name != "trustuqa_core.__main__":  # runs the CLI when imported
            names.append(info.name)
failed = {}
for name in names:
    try:
        importlib.import_module(name)
    except ImportError as exc:
        failed[name] = str(exc)
loaded = sorted(m for m in sys.modules if m == "streamlit" or m.startswith("streamlit."))
print(json.dumps({"imported": names, "failed": failed, "streamlit_loaded": loaded}))
"""


def _probe(*modules: str) -> dict[str, object]:
    """Import ``modules`` (default: all of ``trustuqa_core``) with Streamlit blocked."""
    done = subprocess.run([sys.executable, "-c", _PROBE, *modules], cwd=REPO, text=True,
                          capture_output=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _imports_of(path: Path, package: str) -> list[int]:
    """Line numbers of every ``import package...`` / ``from package... import`` in a file."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(n == package or n.startswith(package + ".") for n in names):
            lines.append(node.lineno)
    return lines


def test_the_blocker_stops_a_module_that_imports_streamlit() -> None:
    result = _probe("trustuqa_app.state")
    failed = result["failed"]
    assert isinstance(failed, dict)
    assert "streamlit is blocked" in failed.get("trustuqa_app.state", "")
    assert result["streamlit_loaded"] == []


def test_every_core_module_imports_without_streamlit() -> None:
    result = _probe()
    imported = result["imported"]
    assert isinstance(imported, list)
    # walk_packages really walked the tree: subpackages and their modules are in the list
    for name in ("trustuqa_core.app_services.runs", "trustuqa_core.app_services.charts",
                 "trustuqa_core.mapping.mapper", "trustuqa_core.evaluate.runner",
                 "trustuqa_core.writers"):
        assert name in imported
    assert result["failed"] == {}
    assert result["streamlit_loaded"] == []


def test_the_scan_finds_streamlit_imports_where_they_are() -> None:
    assert _imports_of(REPO / "trustuqa_app" / "state.py", "streamlit")
    explain_views = _imports_of(REPO / "trustuqa_app" / "explain_views.py", "streamlit")
    assert len(explain_views) == 2  # streamlit and streamlit.components.v1


def test_no_core_source_file_imports_streamlit() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert len(files) > 50
    offenders = {str(f.relative_to(REPO)): lines for f in files
                 if (lines := _imports_of(f, "streamlit"))}
    assert offenders == {}


def test_the_core_never_imports_the_app_package() -> None:
    """One way only: the views use the core, the core never reaches back into the views."""
    assert _imports_of(REPO / "pages" / "2_Ask.py", "trustuqa_app")  # the scan sees them
    offenders = {str(f.relative_to(REPO)): lines for f in sorted(CORE.rglob("*.py"))
                 if (lines := _imports_of(f, "trustuqa_app"))}
    assert offenders == {}
