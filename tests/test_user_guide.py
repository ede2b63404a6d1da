"""docs/USER_GUIDE.md's pictures: each one it shows exists, is a PNG of modest size, and each
picture in docs/img is shown somewhere (no stale files)."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"
MAX_BYTES = 200 * 1024


def test_every_picture_of_the_guide_exists_and_is_small() -> None:
    guide = (DOCS / "USER_GUIDE.md").read_text(encoding="utf-8")
    shown = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", guide)
    assert shown, "the guide shows no picture"
    for rel in shown:
        path = DOCS / rel
        assert path.is_file(), f"{rel} is missing"
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), f"{rel} is not a PNG"
        assert len(data) <= MAX_BYTES, f"{rel} is {len(data):,} bytes (at most {MAX_BYTES:,})"
    unused = {p.name for p in (DOCS / "img").glob("*")} - {Path(r).name for r in shown}
    assert not unused, f"pictures in docs/img that the guide does not show: {sorted(unused)}"
