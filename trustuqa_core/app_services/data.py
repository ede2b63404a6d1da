"""Loading user files and bundled samples into one graph, with per-file errors, and the
statistics / previews the Data page shows.

A bad file never stops the others: :func:`load_all` returns the facts of every readable file
and one :class:`~trustuqa_core.errors.SourceError` (file, line, problem) per unreadable one.
Sizes and fact counts are bounded by :mod:`trustuqa_core.limits` (``upload_bytes``, ``facts``).

>>> report = load_all([Upload("t.csv", "table", b"Name,Year\\nAnn,1999\\n"),
...                    Upload("bad.tsv", "kg", b"a\\tb\\n")])
>>> [f.name for f in report.facts], [str(e) for e in report.errors]
(['t.csv'], ['bad.tsv, line 1: expected 3 columns, got 2'])
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd

from ..engines import open_store
from ..errors import SourceError, SourceLimitError, TrustUQAError
from ..export import SourceStamp, fingerprint
from ..limits import current_limits, over_limit
from ..sources import SourceFacts
from ..store import GraphStore
from ..translate import load_sources, source_kind
from ..translate.table import ROW_NUMBER
from .samples import SAMPLE_DIR, SampleSet

__all__ = ["OVERVIEW_FACTS", "overview_source", "Upload", "unique_names", "LoadReport",
           "KIND_LABELS", "guess_kind", "load_all", "loaded_uploads", "sample_uploads", "data_key",
           "relation_stats", "preview_frame", "source_frame"]

log = logging.getLogger(__name__)
KIND_LABELS = {"table": "table (CSV/TSV/XLSX/JSON; every table of a SQLite/DuckDB file; Parquet)",
               "kg": "KG triples (head, relation, tail; or RDF: N-Triples, Turtle)",
               "tkg": "temporal KG quintuples (head, relation, tail, start, end)"}


@dataclass(frozen=True)
class Upload:
    """The bytes of one source file, its name and how to read it.

    ``fmt`` names the table format when the name must not decide it: a database table kept as
    CSV may be called ``t.xlsx`` (empty: the name's suffix decides).
    """

    name: str
    kind: str
    data: bytes = field(repr=False)
    fmt: str = ""

    @cached_property
    def stamp(self) -> SourceStamp:
        """Name, kind, SHA-256 and size (hashed once per upload)."""
        return SourceStamp(self.name, self.kind, fingerprint(self.data), len(self.data))


def unique_names(items: Sequence[Upload]) -> list[Upload]:
    """``items`` with repeated names told apart: the second ``t.csv`` becomes ``t.csv (2)``.

    >>> [u.name for u in unique_names([Upload("t.csv", "table", b""),
    ...                                Upload("t.csv", "table", b""), Upload("k", "kg", b"")])]
    ['t.csv', 't.csv (2)', 'k']
    """
    seen: dict[str, int] = {}
    out = []
    for u in items:
        n = seen.get(u.name, 0)
        seen[u.name] = n + 1
        out.append(u if n == 0 else replace(u, name=f"{u.name} ({n + 1})"))
    return out


@dataclass
class LoadReport:
    """What loading several files produced."""

    facts: list[SourceFacts]
    errors: list[SourceError]
    graph: GraphStore

    @property
    def warnings(self) -> list[str]:
        return [w for f in self.facts for w in f.warnings]


def guess_kind(name: str, data: bytes = b"") -> str:
    """A first guess at how to read a file: spreadsheets and CSV are tables, ``.txt`` / ``.tsv``
    with 3 fields per line are KG triples, with 4-5 fields temporal KG quintuples.

    >>> guess_kind("x.xlsx"), guess_kind("kb.txt", b"a|r|b\\n")
    ('table', 'kg')
    >>> guess_kind("t.tsv", b"a\\tr\\tb\\t1\\t2")
    'tkg'
    >>> guess_kind("shop.sqlite"), guess_kind("films.ttl"), guess_kind("sales.parquet")
    ('table', 'kg', 'table')
    """
    implied = source_kind(name)
    if implied is not None:
        return implied
    suffix = Path(name.lower().removesuffix(".gz")).suffix
    if suffix in (".xlsx", ".xlsm", ".json", ".csv"):
        return "table"
    head = data[:4096].decode("utf-8", "replace").splitlines()[:5]
    first = next((ln for ln in head if ln.strip()), "")
    sep = "\t" if "\t" in first else "|" if "|" in first else ","
    width = len(first.split(sep)) if first else 0
    if width == 3:
        return "kg"
    if width in (4, 5) and suffix != ".csv":
        return "tkg"
    return "table"


def load_all(uploads: Sequence[Upload], engine: str = "memory") -> LoadReport:
    """Read every upload; unreadable ones become errors naming file, line and problem.

    Each file is read on its own: one that fails, for whatever reason, is reported and the
    others still load. A file that would take the graph past the ``facts`` limit is refused.
    A database file (SQLite, DuckDB) gives one source per table. ``engine`` (``memory``,
    ``duckdb``, ``auto``) chooses the store the graph is built on.
    """
    limits = current_limits()
    facts: list[SourceFacts] = []
    errors: list[SourceError] = []
    total = 0
    for up in uploads:
        try:
            parts = load_sources(up.data, up.kind, name=up.name, max_bytes=limits.upload_bytes,
                                 fmt=up.fmt or None)
        except SourceError as err:
            errors.append(err)
            continue
        except TrustUQAError as err:
            errors.append(SourceError(up.name, str(err)))
            continue
        except Exception as exc:  # noqa: BLE001 - one unreadable file must not lose the batch
            log.exception("reading %s failed", up.name)
            detail = str(exc)[:200]
            errors.append(SourceError(up.name, f"could not be read ({type(exc).__name__}: "
                                               f"{detail}); the other files were loaded"))
            continue
        size = sum(len(part) for part in parts)
        if total + size > limits.facts:
            found = f"{total + size:,} facts together with the files before it"
            errors.append(SourceLimitError(up.name, over_limit(found, "facts", limits.facts,
                                                               "facts")))
            continue
        total += size
        facts.extend(parts)
    return LoadReport(facts, errors, open_store(facts, engine))


def loaded_uploads(uploads: Sequence[Upload], report: LoadReport) -> list[Upload]:
    """The uploads that gave sources in ``report``: a file read as itself (``t.csv``) or, for a
    database file, as its tables (``shop.sqlite:staff``).

    >>> ups = [Upload("shop.sqlite", "table", b""), Upload("bad.csv", "table", b"")]
    >>> rep = LoadReport([SourceFacts("shop.sqlite:staff", "table", [], [], [], [])], [],
    ...                  open_store([]))
    >>> [u.name for u in loaded_uploads(ups, rep)]
    ['shop.sqlite']
    """
    names = {f.name for f in report.facts}
    return [u for u in uploads if u.name in names
            or any(n.startswith(u.name + ":") for n in names)]


def sample_uploads(sample: SampleSet, directory: Path = SAMPLE_DIR) -> list[Upload]:
    """The files of a bundled sample set as uploads."""
    return [Upload(f.file, f.kind, f.read(directory)) for f in sample.files]


def data_key(uploads: Sequence[Upload]) -> tuple[tuple[str, str, str], ...]:
    """A hashable key of the loaded content (names, kinds and SHA-256 of the bytes)."""
    return tuple((u.name, u.kind, u.stamp.sha256) for u in uploads)


# ------------------------------------------------------------------------------ statistics
def source_frame(graph: GraphStore) -> pd.DataFrame:
    """One row per loaded source: kind, facts, rows, columns, warnings."""
    kinds = {"table": "table", "kg": "KG", "tkg": "temporal KG"}
    return pd.DataFrame([{"source": s.name, "kind": kinds.get(s.kind, s.kind),
                          "facts": s.n_facts,
                          "rows": str(s.n_rows) if s.kind == "table" else "—",
                          "columns": str(len(s.columns)) if s.kind == "table" else "—",
                          "warnings": len(s.warnings)} for s in graph.sources])


ROW_POSITION = "row position (1 = first row)"


def relation_stats(graph: GraphStore) -> pd.DataFrame:
    """Per relation (column): facts, distinct values, share of numeric values, an example.

    The added ``row_number`` column is described (:data:`ROW_POSITION`) rather than given
    an arbitrary row's number as its example."""
    rows = []
    for rid, name in enumerate(graph.relation_names):
        facts = graph.facts_rel(rid)
        if len(facts) == 0:
            continue
        tails = graph.tails_of(facts)
        srcs = sorted({graph.sources[int(i)].name for i in np.unique(graph.sources_of(facts))})
        rows.append({"relation / column": name, "facts": len(facts),
                     "distinct values": len(np.unique(tails)),
                     "numeric": f"{graph.numeric_fact_count(rid) / len(facts):.0%}",
                     "example value": ROW_POSITION if name == ROW_NUMBER
                     else graph.label(int(tails[0])),
                     "sources": ", ".join(srcs)})
    return pd.DataFrame(rows)


def preview_frame(facts: SourceFacts, limit: int = 50) -> pd.DataFrame:
    """The first ``limit`` rows (tables) or facts (KG / TKG) of a source, as read."""
    if facts.kind == "table":
        by_row: dict[int, dict[str, str]] = {}
        for h, r, t in zip(facts.heads, facts.relations, facts.tails, strict=True):
            row = int(str(h))  # table heads are row numbers
            if row > limit:
                break
            by_row.setdefault(row, {})[r] = t
        cols = [c for c in facts.columns]
        return pd.DataFrame([{c: by_row[i].get(c, "") for c in cols} for i in sorted(by_row)],
                            index=pd.Index(sorted(by_row), name="row"))
    n = min(limit, len(facts))
    frame = {"line": list(facts.lines[:n]), "head": list(facts.heads[:n]),
             "relation": list(facts.relations[:n]), "tail": list(facts.tails[:n])}
    if facts.kind == "tkg" and facts.starts is not None and facts.ends is not None:
        frame["start"] = [_year(x) for x in facts.starts[:n]]
        frame["end"] = [_year(x) for x in facts.ends[:n]]
    return pd.DataFrame(frame).set_index("line")


def _year(x: float | None) -> str:
    return "" if x is None else str(int(x))


OVERVIEW_FACTS = 30  # facts in the Data page overview graph: few enough to label every node
OVERVIEW_REBUILD_FACTS = 200_000  # largest source rebuilt alone for its overview


def overview_source(facts: SourceFacts) -> SourceFacts | None:
    """``facts`` when the source is small enough to be rebuilt as a graph of its own for the
    overview picture (one source per picture keeps it connected, so it fills the frame);
    None for larger sources (the overview is then taken from the whole graph).

    >>> report = load_all([Upload("t.csv", "table", b"Name,Year\\nAnn,1999\\n")])
    >>> overview_source(report.facts[0]) is report.facts[0]
    True
    """
    return facts if len(facts) <= OVERVIEW_REBUILD_FACTS else None
