"""``import``: build a DuckDB store file from data files and print where it is.

The store is content-hash keyed in ``$TRUSTUQA_CACHE/duckdb`` (an unchanged file is only
reopened); ``--name`` also links it as ``NAME.duckdb`` there, for ``--store`` and the app.
Build steps are reported on standard error.

>>> import argparse, tempfile, contextlib, io
>>> from pathlib import Path
>>> folder = Path(tempfile.mkdtemp())
>>> _ = (folder / "kb.txt").write_text("Dune|written_by|Frank Herbert\\n")
>>> args = argparse.Namespace(files=[str(folder / "kb.txt")], kind="kg", name="dune", json=True)
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
...     status = cmd_import(args, cache_dir=folder)
>>> status, json.loads(out.getvalue())["facts"], Path(json.loads(out.getvalue())["path"]).name
(0, 1, 'dune.duckdb')
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from pathlib import Path

from ..duckstore import open_files
from ..errors import UsageError
from .common import print_line

__all__ = ["cmd_import"]

_NAME = re.compile(r"^[\w.-]{1,100}$")


def _progress(step: str, fraction: float) -> None:
    sys.stderr.write(f"  {fraction:4.0%} {step}\n")


def cmd_import(args: argparse.Namespace, cache_dir: str | Path | None = None) -> int:
    """Build (or reopen) the store of ``args.files``; print its path, facts and build time."""
    if args.name is not None and not _NAME.match(args.name):
        raise UsageError(f"--name must be letters, digits, '.', '-' or '_', got {args.name!r}")
    start = time.perf_counter()
    store = open_files(args.files, args.kind, cache_dir=cache_dir, progress=_progress)
    seconds = time.perf_counter() - start
    path = store.path
    if args.name is not None:
        link = path.parent / f"{args.name}.duckdb"
        tmp = link.with_suffix(".link.tmp")
        tmp.unlink(missing_ok=True)
        os.symlink(path.name, tmp)
        os.replace(tmp, link)
        path = link
    info = {"path": str(path), "facts": store.n_facts, "nodes": store.n_nodes,
            "sources": [s.name for s in store.sources], "build_s": round(seconds, 2)}
    store.close()
    if args.json:
        print_line(json.dumps(info))
    else:
        print_line(f"{info['path']}\n{store.n_facts:,} facts, {store.n_nodes:,} nodes, "
                   f"built or reopened in {seconds:.1f} s")
    return 0
