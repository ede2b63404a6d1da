"""Plotly figures for the app: vote shares, timings, aggregate inputs, TKG timelines, stats.

Each function takes plain rows and returns a ``plotly.graph_objects.Figure`` (no Streamlit),
so they are easy to test. Plotly reads ``<a href>``, ``<b>``... in titles, tick labels, hover
texts and legend names as markup, so every text that comes from data (column names, answer
values, fact labels, benchmark ids) goes through :func:`plain` first: escaped once, it is shown
as the literal text.

>>> fig = vote_figure([{"answer": ["2002"], "status": "answered"},
...                    {"answer": [], "status": "parse_error"}])
>>> [round(x, 2) for x in fig.data[0].x]
[0.5, 0.5]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

from ..evaluate.report import plain

__all__ = ["vote_figure", "timing_figure", "values_figure", "timeline_figure",
           "relations_figure", "metric_figure", "risk_coverage_figure"]

_LAYOUT: dict[str, Any] = {"margin": {"l": 10, "r": 10, "t": 40, "b": 10},
                           "template": "plotly_white", "height": 300}
_STATUS_COLORS = {"kept": "#2b8a3e", "excluded": "#adb5bd"}
_TIMING_COLORS = {"stage": "#1f77b4", "step": "#ff9f1c", "total": "#adb5bd"}


def _short(text: str, limit: int = 48) -> str:
    """Shortened to ``limit`` characters, then escaped (see :func:`plain`)."""
    return plain(text if len(text) <= limit else text[: limit - 1] + "…")


def vote_figure(samples: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Share of samples per executed answer (failed samples grouped by why they failed)."""
    counts: Counter[str] = Counter()
    for s in samples:
        if s.get("status") == "answered":
            counts[", ".join(map(str, s.get("answer", []))) or "(empty)"] += 1
        else:
            counts[f"no vote: {s.get('status', 'failed')}"] += 1
    total = max(sum(counts.values()), 1)
    labels = [k for k, _ in counts.most_common()]
    fig = go.Figure(go.Bar(x=[counts[k] / total for k in labels], y=[_short(k) for k in labels],
                           orientation="h", marker_color=["#1f77b4" if not k.startswith("no vote")
                                                          else "#adb5bd" for k in labels],
                           hovertext=[plain(k) for k in labels], texttemplate="%{x:.0%}",
                           textposition="auto"))
    fig.update_layout(title="Vote shares of the samples", xaxis_tickformat=".0%",
                      **{**_LAYOUT, "height": 110 + 45 * len(labels)})
    fig.update_yaxes(autorange="reversed")
    return fig


def timing_figure(rows: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Seconds per stage and per step."""
    fig = go.Figure(go.Bar(x=[r["seconds"] for r in rows], y=[plain(r["what"]) for r in rows],
                           orientation="h",
                           marker_color=[_TIMING_COLORS.get(r["kind"], "#ff9f1c")
                                         for r in rows],
                           texttemplate="%{x:.3f} s", textposition="auto"))
    fig.update_layout(title="Where the time went (stages blue, query steps orange, total grey)",
                      xaxis_title="seconds", **_LAYOUT)
    fig.update_yaxes(autorange="reversed")
    return fig


def values_figure(values: Sequence[tuple[str, float]], title: str) -> go.Figure:
    """The values an aggregate was computed from."""
    fig = go.Figure(go.Bar(x=[_short(v[0], 30) for v in values], y=[v[1] for v in values],
                           marker_color="#1f77b4", hovertext=[plain(v[0]) for v in values]))
    fig.update_layout(title=plain(title), **_LAYOUT)
    return fig


def timeline_figure(rows: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Facts as year intervals, coloured by whether the time condition kept them; the years
    the condition asked for are dashed lines."""
    fig = go.Figure()
    for year in sorted({y for r in rows for y in r.get("condition_years", ())}):
        fig.add_vline(x=year + 0.5, line_dash="dash", line_color="#d62728",
                      annotation_text=plain(f"asked: {year:g}"), annotation_position="top")
    for status in ("kept", "excluded"):
        part = [r for r in rows if r["status"] == status]
        if not part:
            continue
        starts = [r["start"] if r["start"] is not None else r["end"] for r in part]
        ends = [r["end"] if r["end"] is not None else r["start"] for r in part]
        fig.add_trace(go.Bar(
            y=[_short(r["fact"], 60) for r in part], base=starts,
            x=[max(e - s, 0) + 1 for s, e in zip(starts, ends, strict=True)], orientation="h",
            name=status, marker_color=_STATUS_COLORS[status],
            hovertext=[plain(f"{r['fact']} ({r['source']})") for r in part]))
    fig.update_layout(title="Facts kept and excluded by the time condition", barmode="overlay",
                      xaxis_title="year", xaxis_tickformat="d",
                      **{**_LAYOUT, "height": 140 + 26 * len(rows)})
    years = [y for r in rows for y in (r["start"], r["end"]) if y is not None]
    if years and max(years) - min(years) < 8:
        fig.update_xaxes(dtick=1, range=[min(years) - 2, max(years) + 3])
    fig.update_yaxes(autorange="reversed")
    return fig


def relations_figure(rows: Sequence[Mapping[str, Any]], limit: int = 25) -> go.Figure:
    """Facts per relation / column (the largest ``limit``)."""
    top = sorted(rows, key=lambda r: -r["facts"])[:limit]
    fig = go.Figure(go.Bar(x=[r["facts"] for r in top],
                           y=[_short(str(r["relation / column"]), 40) for r in top],
                           orientation="h", marker_color="#1f77b4"))
    fig.update_layout(title="Facts per relation / column",
                      **{**_LAYOUT, "height": 80 + 22 * len(top)})
    fig.update_yaxes(autorange="reversed")
    return fig


def metric_figure(counts: Mapping[str, float], title: str) -> go.Figure:
    """A bar per outcome (correct, wrong, error stage...)."""
    fig = go.Figure(go.Bar(x=[plain(k) for k in counts], y=list(counts.values()),
                           marker_color="#1f77b4"))
    fig.update_layout(title=plain(title), **_LAYOUT)
    return fig


def risk_coverage_figure(curve: Sequence[Mapping[str, Any]]) -> go.Figure:
    """Selective prediction: for each operating point (``verified`` only, then ``check``
    answers with at most k blocking reasons), the share of questions answered (x) and the
    error rate among them (y).

    >>> fig = risk_coverage_figure([{"label": "verified", "answered": 0.5, "risk": 0.02},
    ...                             {"label": "check <= 1 reason", "answered": 0.8,
    ...                              "risk": 0.1}])
    >>> list(fig.data[0].x), list(fig.data[0].text)
    ([0.5, 0.8], ['verified', 'check &lt;= 1 reason'])
    """
    fig = go.Figure(go.Scatter(x=[p["answered"] for p in curve], y=[p["risk"] for p in curve],
                               text=[plain(p["label"]) for p in curve], mode="lines+markers+text",
                               textposition="top left", marker_color="#e8590c"))
    fig.update_layout(title="Risk–coverage: error rate of the answers kept", **_LAYOUT)
    # a little room around [0, 1] x [0, worst]: a point at 100% answered or 0% errors (all
    # verified and right) sat on the frame, half drawn
    top = max([0.1, *(p["risk"] * 1.15 for p in curve)])
    fig.update_xaxes(title="share of questions answered", range=[-0.03, 1.08], tickformat=".0%")
    fig.update_yaxes(title="error rate among them", range=[-0.03 * top * 3, top],
                     tickformat=".0%")
    return fig
