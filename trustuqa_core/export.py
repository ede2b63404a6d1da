"""Export a whole run (question, prompt, samples, query, mappings, plan, sets, evidence, answer)
as JSON or as a readable Markdown report, and load an exported JSON to re-run it without the LLM
(:func:`rerun_record`: the re-run keeps the exported question, writer and routing).

Data strings are untrusted: the Markdown report escapes them (HTML and Markdown syntax), and
CSV exports defuse cells that a spreadsheet would run as formulas. Nothing secret is exported:
the record never holds LLM settings beyond the model name, and :func:`to_json` /
:func:`to_markdown` redact any secret they are given as a last line of defence.

>>> rec = {"format": FORMAT, "version": VERSION, "query": "Query1: \\"count(set='x')\\"",
...        "overrides": {"Q1.set": "x"}}
>>> load_record(to_json(rec))["overrides"]
{'Q1.set': 'x'}
>>> md_escape("<b>*bold*</b>")
'&lt;b&gt;\\\\*bold\\\\*&lt;/b&gt;'
>>> defuse_cell("=HYPERLINK(1)"), defuse_cell("-3")
("'=HYPERLINK(1)", '-3')
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import html
import io
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import LimitError, TrustUQAError
from .fallback import Fallback
from .mapping.mapper import Mapper
from .recovery import run_with_recovery
from .store import GraphStore
from .trace import ALL_SOURCES, WRITERS, Routing, Trace, writer_kind
from .translate.text import load_json

__all__ = ["FORMAT", "VERSION", "ExportError", "SourceStamp", "build_record", "to_json",
           "to_markdown", "to_csv", "load_record", "compare_sources", "md_escape", "defuse_cell",
           "fingerprint", "rerun_record", "routing_text"]

FORMAT = "trustuqa-run"
VERSION = 1
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#!|~$])")
_MD_LEADING = re.compile(r"^(\d+)([.)])|^([-+=])")
#: where GitHub-flavoured Markdown turns plain text into a link (``http://``, ``www.``, an
#: e-mail address): Streamlit's Markdown finds these after reading backslash escapes, so an
#: invisible zero-width space goes in the way instead (a data value is shown, never a link)
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?<=\bwww)(?=\.)|(?<=\w)(?=@\w)", re.IGNORECASE)
MAX_IMPORT_BYTES = 20 * 1024 * 1024


class ExportError(TrustUQAError):
    """An exported run cannot be read (not JSON, wrong format, missing fields)."""


@dataclass(frozen=True)
class SourceStamp:
    """What identifies a loaded source: name, kind, content hash and size."""

    name: str
    kind: str
    sha256: str
    size: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "sha256": self.sha256, "size": self.size}


def fingerprint(data: bytes) -> str:
    """SHA-256 hex digest of a file's bytes.

    >>> fingerprint(b"")[:8]
    'e3b0c442'
    """
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------------ building
def build_record(
    trace_dict: Mapping[str, Any],
    *,
    question: str | None,
    sources: Sequence[SourceStamp],
    overrides: Mapping[str, str] | None = None,
    origin: str = "hand",
    prompt: Sequence[Mapping[str, str]] | None = None,
    data_sent: str = "",
    samples: Sequence[Mapping[str, Any]] = (),
    confidence: float | None = None,
    demos: Sequence[Mapping[str, Any]] = (),
    model: str | None = None,
    feedback: str | None = None,
) -> dict[str, Any]:
    """One JSON-able record of a run (``trace_dict`` is :meth:`Trace.to_dict`)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "question": question,
        "origin": origin,
        "model": model,
        "sources": [s.to_dict() for s in sources],
        "prompt": [dict(m) for m in prompt] if prompt else None,
        "data_sent": data_sent,
        "demos": [dict(d) for d in demos],
        "samples": [dict(s) for s in samples],
        "confidence": confidence,
        "query": trace_dict.get("query", ""),
        "overrides": dict(overrides or {}),
        "answer": list(trace_dict.get("answer", [])),
        "verdict": trace_dict.get("verdict"),
        "reasons": [dict(r) for r in trace_dict.get("reasons", [])],
        "writer": trace_dict.get("writer"),
        "routing": trace_dict.get("routing"),
        "feedback": feedback,
        "trace": dict(trace_dict),
    }


def _redact(text: str, secrets: Iterable[str]) -> str:
    for s in secrets:
        if s and len(s) >= 4:
            text = text.replace(s, "***")
    return text


def to_json(record: Mapping[str, Any], secrets: Iterable[str] = ()) -> str:
    """The record as pretty JSON (any given secret string is replaced by ``***``)."""
    return _redact(json.dumps(record, ensure_ascii=False, indent=2, default=str), secrets)


# ------------------------------------------------------------------------------ escaping
def md_escape(text: object) -> str:
    """Make untrusted text inert in Markdown: HTML-escape, then backslash-escape syntax.

    Newlines become spaces and a leading ``1.`` / ``-`` / ``+`` is escaped, so a value cannot
    start a heading, a list or a rule; ``$`` is escaped so Streamlit does not render LaTeX.
    A web address or an e-mail address gets an invisible zero-width space where Markdown
    would make it a link (:data:`_AUTOLINK`).

    >>> md_escape("1. $5 [x](y)")
    '1\\\\. \\\\$5 \\\\[x\\\\]\\\\(y\\\\)'
    >>> md_escape("see https://a.io, www.b.org or me@c.net") == (
    ...     "see https:\u200b//a.io, www\u200b.b.org or me\u200b@c.net")
    True
    """
    s = html.escape(str(text), quote=False).replace("\r", " ").replace("\n", " ")
    s = _AUTOLINK.sub("\u200b", _MD_SPECIAL.sub(r"\\\1", s))
    return _MD_LEADING.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", s)


def _code_span(text: object) -> str:
    """Inline code with the text as written: no Markdown escaping inside (a code span shows
    backslashes literally), delimited by more backticks than any run inside it.

    >>> _code_span("select_extreme(x)"), _code_span("a`b")
    ('`select_extreme(x)`', '`` a`b ``')
    """
    s = str(text).replace("\r", " ").replace("\n", " ")
    longest = max((len(m) for m in re.findall(r"`+", s)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if longest or s[:1] == " " or s[-1:] == " " else ""
    return f"{ticks}{pad}{s}{pad}{ticks}"


def _fence(text: str, lang: str = "") -> str:
    """A fenced code block long enough that ``text`` cannot close it."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{text}\n{ticks}"


_FORMULA_START = frozenset("=+-@\u2212")
_CONTROL_START = frozenset("\t\r\n")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?%?")


def defuse_cell(value: object) -> str:
    """Prefix text a spreadsheet would run as a formula with ``'`` so it is shown, not run.

    A cell is defused when its first character, after any leading whitespace and read in its
    compatibility form (full-width ``＝ ＋ － ＠`` count as ``= + - @``), starts a formula,
    or when it starts with a tab, CR or LF. Plain numbers such as ``-3`` stay as they are.

    >>> defuse_cell("-2+3+cmd|' /C calc'!A0"), defuse_cell("\uff1d1+1"), defuse_cell("-2.5")
    ("'-2+3+cmd|' /C calc'!A0", "'＝1+1", '-2.5')
    >>> defuse_cell("  =1+1"), defuse_cell(None)
    ("'  =1+1", '')
    """
    s = "" if value is None else str(value)
    if s[:1] in _CONTROL_START:
        return "'" + s
    stripped = s.lstrip()
    first = unicodedata.normalize("NFKC", stripped[:1])[:1]
    if first in _FORMULA_START and not _PLAIN_NUMBER.fullmatch(stripped):
        return "'" + s
    return s


def to_csv(rows: Sequence[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    """Rows as CSV text (RFC 4180, CRLF line ends) with every cell defused.

    Cells holding a CR or LF are quoted, so each row reads back as one row.

    >>> to_csv([{"a": "Ann", "b": "x\\ny"}]).split("\\r\\n")
    ['a,b', 'Ann,"x\\ny"', '']
    """
    cols = list(columns) if columns else list(dict.fromkeys(k for r in rows for k in r))
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow([defuse_cell(c) for c in cols])
    for r in rows:
        w.writerow([defuse_cell(r.get(c, "")) for c in cols])
    return buf.getvalue()


# ------------------------------------------------------------------------------ markdown
def _table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    out = ["| " + " | ".join(md_escape(h) for h in header) + " |",
           "|" + "---|" * len(header)]
    out += ["| " + " | ".join(md_escape(c) for c in r) + " |" for r in rows]
    return out


def _mapping_rows(trace: Mapping[str, Any]) -> list[list[object]]:
    rows = []
    for s in trace.get("steps", []):
        for m in s.get("mappings", []):
            cands = m.get("candidates", [])
            chosen = ", ".join(m.get("labels", [])) or "(none)"
            runner = next((c["label"] for c in cands if c["label"] not in m.get("labels", [])), "")
            rows.append([m["key"], m["text"], chosen, m["method"], f"{m['score']:.2f}", runner,
                         f"{m['margin']:.2f}", "WEAK" if m.get("weak") else ""])
    return rows


def _step_lines(s: Mapping[str, Any]) -> list[str]:
    out = [f"### Query{s['number']}: {md_escape(s['func'])} ({md_escape(s['status'])})", ""]
    if s.get("description"):
        out += [md_escape(s["description"]), ""]
    out += ["Mapped call:", "", _fence(s["mapped_call"]), ""]
    if s.get("ops"):
        out += ["Plan: " + "; ".join(_code_span(o) for o in s["ops"]), ""]
    shown = s.get("output", [])[:30]
    more = f" … and {s['distinct'] - len(shown)} more" if s.get("distinct", 0) > len(shown) else ""
    out += [f"Output ({_count(s.get('size', 0), 'element')}, {s.get('distinct', 0)} distinct): "
            + (", ".join(md_escape(x) for x in shown) or "(empty)") + more, ""]
    for note in s.get("notes", []) + ([s["error"]] if s.get("error") else []):
        out += [f"> {md_escape(note)}", ""]
    ev = s.get("evidence", [])[:15]
    if ev:
        out += _table(["head", "relation", "tail", "source"],
                      ([e["head"], e["relation"], e["tail"], f"{e['source']} {e['unit']} "
                        f"{e['number']}"] for e in ev)) + [""]
    return out


def to_markdown(record: Mapping[str, Any], secrets: Iterable[str] = ()) -> str:
    """A readable report of a run; every data string is escaped (:func:`md_escape`)."""
    trace = record.get("trace", {})
    answer = ", ".join(md_escape(a) for a in record.get("answer", [])) or "(no answer)"
    conf = record.get("confidence")
    lines = ["# TrustUQA run report", "",
             f"- **Question:** {md_escape(record.get('question') or '(none: hand-written query)')}",
             f"- **Answer:** {answer}",
             f"- **Verdict:** {md_escape(record.get('verdict') or 'n/a')}",
             f"- **Confidence:** {'n/a' if conf is None else f'{conf:.0%}'}",
             f"- **Query written by:** {md_escape(_origin_text(record))}",
             *([f"- **Writer:** {md_escape(_writer_text(record.get('writer')))}"]
               if _writer_text(record.get("writer")) != _origin_text(record) else []),
             f"- **Sources:** {md_escape(routing_text(record.get('routing')))}",
             f"- **Created:** {md_escape(record.get('created', ''))}", ""]
    for r in record.get("reasons") or []:
        where = ", ".join(x for x in (f"Query{r['step']}" if r.get("step") else "",
                                      str(r.get("arg") or "")) if x)
        lines.append(f"- reason {_code_span(r.get('code', ''))}"
                     f"{f' ({md_escape(where)})' if where else ''}: "
                     f"{md_escape(r.get('message', ''))}")
    if record.get("reasons"):
        lines.append("")
    if trace.get("error"):
        e = trace["error"]
        lines += [f"> **Stopped at {md_escape(e.get('stage'))}:** {md_escape(e.get('message'))}",
                  ""]
    if trace.get("explanation"):
        lines += [f"> {md_escape(trace['explanation'])}", ""]
    lines += ["## Data", ""] + _table(["source", "kind", "sha256"], (
        [s["name"], s["kind"], s["sha256"][:16]] for s in record.get("sources", []))) + [""]
    lines += ["## What the LLM saw", "", md_escape(record.get("data_sent") or "No LLM was called."),
              ""]
    for m in record.get("prompt") or []:
        lines += [f"**{md_escape(m.get('role', ''))}**", "", _fence(str(m.get("content", ""))), ""]
    if record.get("samples"):
        lines += ["## Samples and vote", ""] + _table(["#", "answer", "status"], (
            [i + 1, ", ".join(map(str, s.get("answer", []))), s.get("status", "")]
            for i, s in enumerate(record["samples"]))) + [""]
    lines += ["## Query", "", _fence(record.get("query", "")), ""]
    if record.get("overrides"):
        lines += ["User overrides: " + "; ".join(f"{md_escape(k)} → {md_escape(v)}"
                                                 for k, v in record["overrides"].items()), ""]
    mrows = _mapping_rows(trace)
    if mrows:
        lines += ["## Mappings", ""] + _table(
            ["argument", "written", "mapped to", "method", "score", "runner-up", "margin",
             "weak?"],
            mrows) + [""]
    lines += ["## Steps", ""]
    for s in trace.get("steps", []):
        lines += _step_lines(s)
    lines += ["## Answer provenance", ""]
    for p in trace.get("answer_provenance", [])[:50]:
        lines += [f"- **{md_escape(p['answer'])}**"]
        lines += [f"  - {md_escape(e['head'])} — {md_escape(e['relation'])} — "
                  f"{md_escape(e['tail'])} ({md_escape(e['source'])} {e['unit']} {e['number']})"
                  for e in p.get("evidence", [])[:10]]
    return _redact("\n".join(lines) + "\n", secrets)


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless one.

    >>> _count(1, "element"), _count(3, "element")
    ('1 element', '3 elements')
    """
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _origin_text(record: Mapping[str, Any]) -> str:
    """Who wrote an exported run's query, in words (its ``origin``, the LLM's model named).

    >>> _origin_text({"origin": "offline"}), _origin_text({"origin": "edited"})
    ('the offline writer', 'you (edited query)')
    >>> _origin_text({"origin": "llm", "model": "gpt-4o"}), _origin_text({})
    ('the LLM (gpt-4o)', 'n/a')
    """
    origin = record.get("origin")
    if origin == "llm" and record.get("model"):
        return _writer_text(f"llm:{record['model']}")
    return _writer_text(origin)


def _writer_text(writer: object) -> str:
    """The writer of an exported trace in words (an unknown name is shown as written).

    >>> _writer_text("llm:gpt-4o"), _writer_text("offline"), _writer_text(None)
    ('the LLM (gpt-4o)', 'the offline writer', 'n/a')
    """
    if not isinstance(writer, str):
        return "n/a"
    try:
        kind = writer_kind(writer)
    except ValueError:
        return writer
    model = writer.partition(":")[2]
    return WRITERS[kind or ""] + (f" ({model})" if model else "")


def routing_text(routing: object) -> str:
    """The sources of a trace (its ``routing`` as a dict, e.g. from an export) and how they were
    chosen, in one line (the Markdown export and the app's "Asked of" line).

    >>> routing_text({"sources": ["a.csv", "b.csv"], "how": "all loaded sources",
    ...                "used": ["b.csv"]})
    'a.csv, b.csv — all loaded sources; facts read from: b.csv'
    >>> routing_text({"sources": ["a.csv"], "how": "routed to a.csv (score 0.80, next 0.20)"})
    'a.csv — routed to a.csv (score 0.80, next 0.20); facts read from: (none)'
    """
    if not isinstance(routing, Mapping):
        return "n/a"
    sources = ", ".join(map(str, routing.get("sources", []))) or "(none)"
    used = ", ".join(map(str, routing.get("used", []))) or "(none)"
    how = routing.get("how", "")
    return f"{sources} — {how}; facts read from: {used}" if how else \
        f"{sources}; facts read from: {used}"


# ------------------------------------------------------------------------------ loading
def load_record(data: str | bytes) -> dict[str, Any]:
    """Parse and check an exported run; raises :class:`ExportError` naming the problem."""
    if len(data) > MAX_IMPORT_BYTES:
        raise ExportError(f"file is larger than {MAX_IMPORT_BYTES // 2**20} MB")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ExportError("not UTF-8 text") from None
    try:
        rec = load_json(data)
    except json.JSONDecodeError as exc:
        raise ExportError(f"not valid JSON (line {exc.lineno}, column {exc.colno}: "
                          f"{exc.msg})") from None
    except LimitError as exc:
        raise ExportError(str(exc)) from None
    if not isinstance(rec, dict) or rec.get("format") != FORMAT:
        raise ExportError(f"not a TrustUQA run export (expected \"format\": \"{FORMAT}\")")
    if not isinstance(rec.get("version"), int) or rec["version"] > VERSION:
        raise ExportError(f"unsupported export version {rec.get('version')!r} "
                          f"(this app reads up to {VERSION})")
    if not isinstance(rec.get("query"), str) or not rec["query"].strip():
        raise ExportError("the export has no query text")
    over = rec.get("overrides") or {}
    if not isinstance(over, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                             for k, v in over.items()):
        raise ExportError("\"overrides\" must map argument keys to labels")
    rec["overrides"] = over
    if not isinstance(rec.get("sources", []), list):
        raise ExportError("\"sources\" must be a list")
    return rec


def compare_sources(exported: Sequence[Mapping[str, Any]],
                    current: Sequence[SourceStamp]) -> list[str]:
    """Differences between the data a run was made on and the data loaded now (empty: same).

    >>> a = SourceStamp("t.csv", "table", "ab", 3)
    >>> compare_sources([a.to_dict()], [a])
    []
    >>> compare_sources([a.to_dict()], [SourceStamp("t.csv", "table", "cd", 3)])
    ['t.csv: the loaded file has different content']
    """
    now = {s.name: s for s in current}
    then = {str(s.get("name")): s for s in exported if isinstance(s, Mapping)}
    out = []
    for name, s in then.items():
        if name not in now:
            out.append(f"{name}: used by the exported run but not loaded now")
        elif s.get("sha256") != now[name].sha256:
            out.append(f"{name}: the loaded file has different content")
    out += [f"{name}: loaded now but not used by the exported run" for name in now
            if name not in then]
    return out


def rerun_record(record: Mapping[str, Any], graph: GraphStore, mapper: Mapper | None = None,
                 *, fallback: Fallback | None = None) -> Trace:
    """Run an exported query again on ``graph`` (no LLM writes anything): with its overrides,
    its question, its writer and its routing (routing over all loaded sources is decided
    again on the data loaded now). ``record`` is what :func:`load_record` returned.

    >>> from trustuqa_core import load_graph
    >>> g = load_graph(tables=[b"Name,Nation\\nAnn,Italy\\n"])
    >>> rec = load_record(to_json(build_record(
    ...     {"query": "Query1: \\"get_information(relation='Nation', tail_entity='Italy')\\"",
    ...      "writer": "llm:m"}, question="who is Italian?", sources=[])))
    >>> t = rerun_record(rec, g)
    >>> t.answer, t.question, t.writer, t.routing.how
    (['table1 row 1'], 'who is Italian?', 'llm:m', 'all loaded sources')
    """
    question = record.get("question")
    writer = record.get("writer")
    try:
        writer_kind(writer if isinstance(writer, str) else None)
        routing = Routing.from_dict(record["routing"]) if record.get("routing") else None
    except ValueError as exc:
        raise ExportError(str(exc)) from None
    if routing is not None and routing.how == ALL_SOURCES:
        routing = None  # every source loaded now
    return run_with_recovery(record["query"], graph, mapper, overrides=record.get("overrides"),
                             fallback=fallback,
                             question=question if isinstance(question, str) else None,
                             writer=writer if isinstance(writer, str) else None,
                             routing=routing)
