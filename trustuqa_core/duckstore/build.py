"""Writing a DuckDB store file: from loaded :class:`~trustuqa_core.sources.SourceFacts` or
straight from triple files with DuckDB's own CSV reader.

Node and fact ids are the ones :func:`~trustuqa_core.graph.build_graph` hands out for the same
sources (facts in source order; nodes numbered by first appearance among the heads, then the
tails; relations by first appearance), so both stores answer with the same ids. A store is
built into a temporary file next to its final path and renamed into place when complete.

>>> from trustuqa_core.sources import SourceFacts
>>> import tempfile, duckdb
>>> path = Path(tempfile.mkdtemp()) / "kg.duckdb"
>>> write_sources(path, [SourceFacts("kg", "kg", ["a", "b"], ["r", "r"], ["b", "c"], [1, 2])])
>>> con = duckdb.connect(str(path), read_only=True)
>>> con.sql("SELECT id, text FROM nodes ORDER BY id").fetchall()
[(0, 'a'), (1, 'b'), (2, 'c')]
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from ..errors import SourceError
from ..graph import encode_sources
from ..numbers import parse_number
from ..sources import SourceFacts
from ..store import SourceInfo
from ..text import normalize
from ..translate.kg import HEADER_WORDS, skipped_warning

__all__ = ["FORMAT_VERSION", "Progress", "quiet", "write_sources", "write_arrays",
           "write_triple_files", "triple_separator", "info_dict", "check_readable"]

FORMAT_VERSION = "1"
"""Bumped whenever the schema changes (it is part of every store's cache key)."""

Progress = Callable[[str, float], None]
"""Called while building with a step name and the fraction done (0..1)."""

_BATCH = 200_000
_HASH_BATCH = 500_000
_ROW = "starts_with(n.text, chr(0) || 'row' || chr(0))"  # sources.ROW_PREFIX

# Labels whose normal form and number SQL computes exactly as text.normalize and
# numbers.parse_number do: printable ASCII starting with a letter (never a number: a number
# may only start with a sign, a currency sign, a digit, a point or a space), and plain digit
# strings of up to 15 digits (exact as doubles). tests/test_duckstore_build.py checks the
# equality on tricky labels.
_PLAIN_WORDS = "regexp_full_match(n.text, '[A-Za-z][ -~]*')"
_PLAIN_DIGITS = "regexp_full_match(n.text, '[0-9]{1,15}')"
_PUNCT = "".join(c for c in map(chr, range(0x21, 0x7F)) if not c.isalnum() and c not in "'.`")
# normalize on such a label: a literal backslash-n and punctuation (underscore included) become
# spaces, ' . ` go, case folds, spaces collapse (translate() drops the extra "from" characters)
_WORDS_NORM = ("trim(regexp_replace(lower(translate(replace(n.text, '\\n', ' '), '"
               + (_PUNCT + "'.`").replace("'", "''") + "', '" + " " * len(_PUNCT) + "')),"
               " ' +', ' ', 'g'))")
_SQL_NORM = ("CASE WHEN n.is_row THEN NULL WHEN n.words THEN " + _WORDS_NORM
             + " WHEN n.digits THEN CAST(CAST(n.text AS BIGINT) AS VARCHAR) ELSE r.norm END")
_SQL_NUM = ("CASE WHEN n.is_row OR n.words THEN NULL"
            " WHEN n.digits THEN CAST(n.text AS DOUBLE) ELSE r.num END")


def quiet(step: str, fraction: float) -> None:
    """The default progress callback: says nothing."""


def write_sources(path: Path, sources: Sequence[SourceFacts], progress: Progress = quiet) -> None:
    """Build the store file at ``path`` from loaded sources (ids as the memory store's)."""
    progress("reading facts", 0.1)
    enc = encode_sources(sources)
    write_arrays(path, [info_dict(i) for i in enc.infos], enc.node_text, enc.relations,
                 enc.head, enc.rel, enc.tail, enc.fact_source, enc.fact_line, enc.start, enc.end,
                 progress)


def write_arrays(path: Path, infos: Sequence[dict[str, object]], node_text: Sequence[str],
                 relations: Sequence[str], head: np.ndarray, rel: np.ndarray, tail: np.ndarray,
                 src: np.ndarray, line: np.ndarray, start: np.ndarray, end: np.ndarray,
                 progress: Progress = quiet) -> None:
    """Build the store file at ``path`` from coded fact columns (node ``i`` is
    ``node_text[i]``, relation ``j`` is ``relations[j]``; NaN where a year is unknown)."""
    facts = pd.DataFrame({"fact": np.arange(len(head), dtype=np.int64), "head": head,
                          "rel": rel, "tail": tail, "src": src, "line": line,
                          "start": start, "end": end})
    nodes = pd.DataFrame({"id": np.arange(len(node_text), dtype=np.int64),
                          "text": pd.Series(list(node_text), dtype=object)})
    relations_df = pd.DataFrame({"id": np.arange(len(relations), dtype=np.int64),
                                 "name": pd.Series(list(relations), dtype=object)})

    def stage(con: duckdb.DuckDBPyConnection) -> None:
        con.register("facts_df", facts)
        con.register("nodes_df", nodes)
        con.register("relations_df", relations_df)
        con.execute("CREATE TEMP TABLE s_facts AS SELECT * FROM facts_df")
        con.execute("CREATE TEMP TABLE s_nodes AS SELECT * FROM nodes_df")
        con.execute("CREATE TEMP TABLE s_relations AS SELECT * FROM relations_df")
        for name in ("facts_df", "nodes_df", "relations_df"):
            con.unregister(name)

    _write(path, infos, stage, progress)


def triple_separator(path: Path) -> str | None:
    """The delimiter of a triple file the native reader handles (tab or ``|``), or ``None``
    when the file needs the Python loader (comma-separated, gzipped, unreadable).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "kb.txt"
    >>> _ = p.write_text("a|r|b\\n")
    >>> triple_separator(p)
    '|'
    """
    if path.suffix.lower() == ".gz":
        return None
    try:
        with path.open("rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return None
    first = head.lstrip(b"\r\n").split(b"\n", 1)[0]
    if first.startswith(b"\xef\xbb\xbf") or b"\x00" in head or b"\x01" in head:
        return None
    return "\t" if b"\t" in first else "|" if b"|" in first else None


def write_triple_files(path: Path, files: Sequence[Path], progress: Progress = quiet) -> bool:
    """Build the store at ``path`` from triple files (tab- or ``|``-separated) with DuckDB's
    CSV reader, mirroring :func:`~trustuqa_core.translate.kg.read_triples`: a header line
    naming the columns is skipped, blank lines keep their line numbers, lines with an empty
    field are left out with a warning, ``|`` lines give further pipes to the tail.

    Returns ``False`` (writing nothing) when a file has a shape only the Python loader
    reports well (a tab line without exactly three fields; no usable facts).
    """
    seps = [triple_separator(f) for f in files]
    if any(s is None for s in seps):
        return False
    names = [f.name for f in files]
    dup = {n for n in names if names.count(n) > 1}
    names = [f"{n} ({i + 1})" if n in dup else n for i, n in enumerate(names)]
    infos: list[dict[str, object]] = []
    ok = True

    def stage(con: duckdb.DuckDBPyConnection) -> None:
        nonlocal ok
        facts_of: list[str] = []  # per file: its kept lines with their fact ids
        offset = 0
        for index, (file, sep) in enumerate(zip(files, seps, strict=True)):
            progress(f"reading {file.name}", 0.05 + 0.3 * index / len(files))
            staged = _stage_triples(con, index, file, str(sep), names[index])
            if staged is None:
                ok = False
                return
            info, first = staged
            infos.append(info)
            # a file kept as one run of lines numbers its facts by line (no sort); a file
            # with gaps was sorted by line, so its row ids count its facts
            fact = f"line - {first} + {offset}" if first is not None else f"rowid + {offset}"
            facts_of.append(f"SELECT {fact} AS fact, src, line, h, r, t FROM s_kept_{index}")
            offset += int(str(info["n_facts"]))
        con.execute("CREATE TEMP VIEW s_lines AS " + " UNION ALL ".join(facts_of))
        progress("numbering nodes", 0.4)
        # nodes by first appearance among the heads (in fact order), then the tails
        con.execute(f"""CREATE TEMP TABLE s_nodes AS
            SELECT row_number() OVER (ORDER BY p) - 1 AS id, text FROM (
              SELECT text, min(p) AS p FROM (
                SELECT h AS text, fact AS p FROM s_lines
                UNION ALL SELECT t, fact + {offset} FROM s_lines)
              GROUP BY text) ORDER BY id""")
        con.execute("""CREATE TEMP TABLE s_relations AS
            SELECT row_number() OVER (ORDER BY p) - 1 AS id, name FROM (
              SELECT r AS name, min(fact) AS p FROM s_lines GROUP BY r)""")
        progress("coding facts", 0.5)
        con.execute("""CREATE TEMP TABLE s_facts AS
            SELECT f.fact, hn.id AS head, r.id AS rel, tn.id AS tail, f.src, f.line,
                   CAST('nan' AS DOUBLE) AS start, CAST('nan' AS DOUBLE) AS "end"
            FROM s_lines f JOIN s_nodes hn ON hn.text = f.h JOIN s_nodes tn ON tn.text = f.t
                 JOIN s_relations r ON r.name = f.r ORDER BY fact""")
        con.execute("DROP VIEW s_lines")
        for index in range(len(files)):
            con.execute(f"DROP TABLE s_kept_{index}")

    _write(path, infos, stage, progress, lambda: ok)
    return ok


_WS = "' \t\r\n\x0b\x0c'"


def _filled(expr: str) -> str:
    """SQL: ``expr`` is not blank (``trim`` only runs when the first character is blank, so
    the common field costs one ``ascii`` call)."""
    return f"(ascii({expr}) NOT IN (0, 9, 10, 11, 12, 13, 32) OR trim({expr}, {_WS}) <> '')"


def _first_line(con: duckdb.DuckDBPyConnection, nonblank: str) -> tuple[int, str] | None:
    row = con.execute(f"SELECT rowid + 1, l FROM s_raw WHERE {nonblank} ORDER BY rowid"
                      " LIMIT 1").fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def _is_header(line: str, sep: str) -> bool:
    """A first line naming the columns (``head|relation|tail``)."""
    fields = line.split(sep)
    if len(fields) < 3:
        return False
    tail = fields[2] if sep == "\t" else sep.join(fields[2:])
    return {c.strip().lower() for c in (fields[0], fields[1], tail)} <= HEADER_WORDS


def _keep_file_order(con: duckdb.DuckDBPyConnection, table: str) -> int | None:
    """The first line of ``table`` when its lines are one run of consecutive lines (fact ids
    then follow from the line numbers, whatever order the rows were written in), else
    ``None`` after sorting the table by line (fact ids are then its row ids).

    A parallel scan with a filter does not keep the file's order (seen at 300k and 10M
    lines: later batches first), so nothing relies on the written order without a sort.
    """
    row = con.execute(f"SELECT count(*), min(line), max(line) FROM {table}").fetchone()
    assert row is not None
    n, lo, hi = int(row[0]), row[1], row[2]
    if n and int(hi) - int(lo) + 1 == n:
        return int(lo)
    con.execute(f"CREATE TEMP TABLE {table}_sorted AS SELECT * FROM {table} ORDER BY line")
    con.execute(f"DROP TABLE {table}")
    con.execute(f"ALTER TABLE {table}_sorted RENAME TO {table}")
    return None


def _stage_triples(con: duckdb.DuckDBPyConnection, index: int, file: Path, sep: str,
                   name: str) -> tuple[dict[str, object], int | None] | None:
    """The kept lines of one triple file into ``s_kept_<index>``; its source description and
    first line (see :func:`_keep_file_order`), or ``None`` when the Python loader should read
    it instead.

    One pass splits, checks and keeps the good lines; only when some non-blank line was not
    kept does a second pass find out why (a wrong width: the Python loader reads the file;
    an empty field: the line is left out with a warning)."""
    con.execute("""CREATE OR REPLACE TEMP TABLE s_raw AS SELECT l FROM read_csv(?,
        columns={'l': 'VARCHAR'}, delim=?, quote='', escape='', header=false,
        auto_detect=false, max_line_size=10000000)""", [str(file), "\x01"])
    nonblank = ("l IS NOT NULL AND (ascii(l) NOT IN (0, 9, 10, 13, 32)"
                " OR trim(l, ' \t\r\n') <> '')")
    first = _first_line(con, nonblank)
    if first is None:
        con.execute("DROP TABLE s_raw")
        return None
    header = first[0] if _is_header(first[1], sep) else 0
    tail = "p[3]" if sep == "\t" else \
        "CASE WHEN len(p) = 3 THEN p[3] ELSE array_to_string(p[3:], '|') END"
    width_ok = "len(p) = 3" if sep == "\t" else "len(p) >= 3"
    split = (f"SELECT rowid + 1 AS line, string_split(l, '{sep}') AS p FROM s_raw"
             f" WHERE {nonblank}")
    filled = f"{_filled('p[1]')} AND {_filled('p[2]')} AND {_filled(tail)}"
    con.execute(f"""CREATE TEMP TABLE s_kept_{index} AS
        SELECT CAST({index} AS INTEGER) AS src, line, p[1] AS h, p[2] AS r, {tail} AS t
        FROM ({split}) WHERE {width_ok} AND line <> {header} AND {filled}""")
    n = _one(con, f"SELECT count(*) FROM s_kept_{index}")
    skipped: list[tuple[int, str]] = []
    if n + (1 if header else 0) < _one(con, f"SELECT count(*) FROM s_raw WHERE {nonblank}"):
        if _one(con, f"SELECT count(*) FROM ({split}) WHERE NOT ({width_ok})"):
            con.execute("DROP TABLE s_raw")
            return None
        why = (f"CASE WHEN NOT {_filled('p[1]')} THEN 'empty head' WHEN NOT {_filled('p[2]')}"
               f" THEN 'empty relation' ELSE 'empty tail' END")
        skipped = [(int(a), str(b)) for a, b in con.execute(
            f"SELECT line, {why} FROM ({split}) WHERE line <> {header} AND NOT ({filled})"
            " ORDER BY line"
        ).fetchall()]
    con.execute("DROP TABLE s_raw")
    if n == 0:
        return None
    return ({"name": name, "kind": "kg", "n_facts": n, "n_rows": 0, "columns": [],
             "path": str(file), "warnings": skipped_warning(name, skipped)},
            _keep_file_order(con, f"s_kept_{index}"))


def _write(path: Path, infos: Sequence[dict[str, object]],
           stage: Callable[[duckdb.DuckDBPyConnection], None], progress: Progress,
           keep: Callable[[], bool] = lambda: True) -> None:
    """Stage tables with ``stage``, then write the final schema into a temporary file that is
    renamed to ``path`` once complete (nothing is left behind on failure or when ``keep``
    says no)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    tmp.unlink()
    spill = tempfile.mkdtemp(prefix="duckspill.", dir=path.parent)
    try:
        con = duckdb.connect(str(tmp), config={"memory_limit": "900MB", "temp_directory": spill,
                                               "preserve_insertion_order": True})
        try:
            stage(con)
            if not keep():
                return
            _finish(con, infos, progress)
        finally:
            con.close()
        if keep():
            os.replace(tmp, path)
    finally:
        for leftover in (tmp, Path(str(tmp) + ".wal")):
            leftover.unlink(missing_ok=True)
        for f in Path(spill).glob("*"):
            f.unlink(missing_ok=True)
        os.rmdir(spill)


def _finish(con: duckdb.DuckDBPyConnection, infos: Sequence[dict[str, object]],
            progress: Progress) -> None:
    """The final tables from the staged ``s_facts``, ``s_nodes`` and ``s_relations``."""
    progress("reading node labels", 0.6)
    digest = hashlib.sha256()
    n_nodes = int(_one(con, "SELECT count(*) FROM s_nodes"))
    for lo in range(0, n_nodes, _HASH_BATCH):
        row = con.execute("SELECT string_agg(text || chr(1), '' ORDER BY id) FROM s_nodes"
                          " WHERE id >= ? AND id < ?", [lo, lo + _HASH_BATCH]).fetchone()
        digest.update(str(row[0] if row else "").encode("utf-8", "surrogatepass"))
    digest.update(b"\x02")
    for (name,) in con.execute("SELECT name FROM s_relations ORDER BY id").fetchall():
        digest.update(name.encode("utf-8", "surrogatepass") + b"\x01")
    # labels SQL can normalise exactly as text.normalize does (see sql_label_columns) are
    # done in SQL; only the others pass through Python
    con.execute("CREATE TEMP TABLE s_read (id BIGINT, norm VARCHAR, num DOUBLE)")
    con.execute("CREATE TEMP TABLE s_slow AS SELECT row_number() OVER (ORDER BY id) - 1 AS k,"
                f" id, text FROM s_nodes n WHERE NOT {_ROW}"
                f" AND NOT ({_PLAIN_WORDS} OR {_PLAIN_DIGITS})")
    n_slow = int(_one(con, "SELECT count(*) FROM s_slow"))
    for lo in range(0, n_slow, _BATCH):
        rows = con.execute("SELECT id, text FROM s_slow WHERE k >= ? AND k < ? ORDER BY k",
                           [lo, lo + _BATCH]).fetchall()
        nums = [parse_number(t) for _, t in rows]
        frame = pd.DataFrame({"id": np.array([i for i, _ in rows], dtype=np.int64),
                              "norm": pd.Series([normalize(t) for _, t in rows], dtype=object),
                              "num": np.array([np.nan if v is None else v for v in nums])})
        con.register("read_df", frame)
        con.execute("INSERT INTO s_read SELECT id, norm, CASE WHEN isnan(num) THEN NULL"
                    " ELSE num END FROM read_df")
        con.unregister("read_df")
    con.execute("DROP TABLE s_slow")
    progress("writing nodes", 0.7)
    con.execute(f"""CREATE TABLE nodes AS
        SELECT n.id, n.text, {_SQL_NORM} AS norm, {_SQL_NUM} AS num,
           CASE WHEN n.is_row THEN CAST(split_part(n.text, chr(0), 3) AS INTEGER) END AS row_src,
           CASE WHEN n.is_row THEN CAST(split_part(n.text, chr(0), 4) AS BIGINT) END AS row_no
        FROM (SELECT id, text, {_ROW} AS is_row, {_PLAIN_WORDS} AS words,
                     {_PLAIN_DIGITS} AS digits FROM s_nodes n) n
        LEFT JOIN s_read r USING (id) ORDER BY n.id""")
    con.execute("DROP TABLE s_read")
    con.execute("DROP TABLE s_nodes")
    con.execute("CREATE TABLE by_text AS SELECT text, id FROM nodes WHERE row_src IS NULL"
                " ORDER BY text, id")
    con.execute("CREATE TABLE by_norm AS SELECT norm, id FROM nodes WHERE row_src IS NULL"
                " ORDER BY norm, id")
    con.execute("CREATE TABLE by_row AS SELECT row_src, row_no, id FROM nodes"
                " WHERE row_src IS NOT NULL ORDER BY row_src, row_no")
    con.execute("CREATE TABLE by_num AS SELECT num, id FROM nodes WHERE num IS NOT NULL"
                " ORDER BY num, id")
    progress("writing the token index", 0.8)
    con.execute("""CREATE TABLE tokens AS SELECT token, id FROM (
        SELECT unnest(list_distinct(string_split(norm, ' '))) AS token, id FROM nodes
        WHERE row_src IS NULL AND norm <> '') WHERE token <> '' ORDER BY token, id""")
    con.execute("CREATE TABLE relations AS SELECT id, name FROM s_relations ORDER BY id")
    progress("writing facts", 0.85)
    con.execute("""CREATE TABLE facts AS SELECT fact, head, rel, tail, src, line,
        CASE WHEN isnan(start) THEN NULL ELSE start END AS start,
        CASE WHEN isnan("end") THEN NULL ELSE "end" END AS "end" FROM s_facts ORDER BY fact""")
    con.execute("DROP TABLE s_facts")
    con.execute("CREATE TABLE hr AS SELECT head, rel, fact FROM facts ORDER BY head, rel, fact")
    con.execute("""CREATE TABLE rt AS SELECT f.rel, f.tail, f.fact, n.num AS tnum
        FROM facts f JOIN nodes n ON n.id = f.tail ORDER BY f.rel, f.tail, f.fact""")
    con.execute("CREATE TABLE tl AS SELECT tail, fact FROM facts ORDER BY tail, fact")
    counts = con.execute("SELECT (SELECT count(*) FROM nodes), (SELECT count(*) FROM facts),"
                         " (SELECT count(*) FROM facts WHERE start IS NOT NULL OR"
                         " \"end\" IS NOT NULL)").fetchone()
    assert counts is not None
    meta = {"version": FORMAT_VERSION, "sources": list(infos), "n_nodes": int(counts[0]),
            "n_facts": int(counts[1]), "is_temporal": bool(counts[2]),
            "content_hash": digest.hexdigest()}
    con.execute("CREATE TABLE meta AS SELECT ? AS value", [json.dumps(meta)])
    con.execute("CHECKPOINT")
    progress("done", 1.0)


def info_dict(s: SourceFacts | SourceInfo) -> dict[str, object]:
    """A source's description as stored in the file's ``meta``."""
    n = len(s) if isinstance(s, SourceFacts) else s.n_facts
    return {"name": s.name, "kind": s.kind, "n_facts": n, "n_rows": s.n_rows,
            "columns": list(s.columns), "path": s.path, "warnings": list(s.warnings)}


def check_readable(files: Sequence[Path]) -> None:
    """Raise :class:`~trustuqa_core.errors.SourceError` for a file that does not exist."""
    for f in files:
        if not f.is_file():
            raise SourceError(f.name, f"no such file: {f}")


def _one(con: duckdb.DuckDBPyConnection, sql: str) -> int:
    row = con.execute(sql).fetchone()
    assert row is not None
    return int(row[0])
