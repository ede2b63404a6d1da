"""docs/PROMPTS.md shows the prompts a model receives; it must be re-captured whenever the
prompt data changes (a new function in prompts/instructions.md, say), or the page misleads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_prompts_page_is_current() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "capture_prompts.py"),
                           "--check"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
