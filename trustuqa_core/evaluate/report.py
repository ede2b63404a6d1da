"""Run reports: a Markdown summary and an interactive plotly page (accuracy by question
type, failure categories, latency histogram), written next to each other.

The HTML page loads ``plotly.min.js`` from its own folder (written once per folder), so it
works offline and each report stays small.

>>> from trustuqa_core.evaluate.outcome import Outcome, summarise
>>> s = summarise([Outcome("1", "wtq", "q?", False, "wrong", ["a"], ["b"], 0.2)])
>>> print(render_markdown(s, {"benchmark": "wtq", "split": "train", "mode": "replay"})
...       .splitlines()[0])
# wtq (train, replay): 0 / 1 correct (0.0%)
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .outcome import CATEGORY_HELP, Outcome

__all__ = ["report_figure", "plain", "render_markdown", "write_html", "write_report", "percent"]


def percent(x: float | None) -> str:
    """``0.9818`` -> ``'98.2%'``; None -> ``'n/a'``."""
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _cell(text: object, width: int = 120) -> str:
    flat = " ".join(str(text).split()).replace("|", "\\|")
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def render_markdown(summary: Mapping[str, Any], run: Mapping[str, Any]) -> str:
    """The report as Markdown: headline, subsets, failures with an example, groups, latency."""
    head = (f"# {run['benchmark']} ({run['split']}, {run['mode']}): {summary['correct']} / "
            f"{summary['n_evaluated']} correct ({percent(summary['accuracy'])})")
    lines = [head, ""]
    for key in ("writer", "code_version", "command", "finished"):
        if run.get(key):
            lines.append(f"- {key.replace('_', ' ')}: `{run[key]}`")
    if summary["n"] != summary["n_evaluated"]:
        lines.append(f"- {summary['n'] - summary['n_evaluated']} question(s) could not be "
                     "evaluated (category `not_evaluable`) and are left out of the accuracy")
    if summary["scores"]:
        shown = ", ".join(f"{k} {percent(v)}" for k, v in summary["scores"].items())
        lines.append(f"- scores (means over all questions): {shown}")
    lines.append("")
    if summary["flags"]:
        lines += ["## Subsets", "", "| subset | n | correct | accuracy | scores |",
                  "|---|---:|---:|---:|---|"]
        for flag, part in summary["flags"].items():
            scores = ", ".join(f"{k} {percent(v)}" for k, v in part["scores"].items())
            lines.append(f"| {flag} | {part['n']} | {part['correct']} | "
                         f"{percent(part['accuracy'])} | {scores} |")
        lines.append("")
    lines += _verdicts(summary)
    lines += _failures(summary)
    for dim, values in summary["groups"].items():
        lines += [f"## Accuracy by {dim}", "", f"| {dim} | n | correct | accuracy |",
                  "|---|---:|---:|---:|"]
        for value, part in sorted(values.items(), key=lambda kv: -kv[1]["n"]):
            lines.append(f"| {value} | {part['n']} | {part['correct']} | "
                         f"{percent(part['accuracy'])} |")
        lines.append("")
    latency = summary["latency"]
    if latency:
        lines += ["## Latency (seconds per question)", "",
                  "| mean | p50 | p90 | p99 | max | total |", "|---:|---:|---:|---:|---:|---:|",
                  "| " + " | ".join(f"{latency[k]:.4f}" for k in
                                     ("mean", "p50", "p90", "p99", "max", "total")) + " |", ""]
    return "\n".join(lines)


def _verdicts(summary: Mapping[str, Any]) -> list[str]:
    """The trust verdict section: counts and accuracy per verdict, precision, coverage and
    the risk-coverage operating points."""
    v = summary.get("verdicts")
    if not v:
        return []
    lines = ["## Trust verdict", "",
             f"- precision of `verified`: {percent(summary['precision_verified'])}; coverage "
             f"(correct answers marked `verified`): {percent(summary['coverage'])}; wrong and "
             f"`verified`: {percent(summary['wrong_verified'])} of all questions", "",
             "| verdict | n | correct | accuracy |", "|---|---:|---:|---:|"]
    for name, key in (("verified", "verified"), ("check", "check")):
        part = v[key]
        acc = percent(part["correct"] / part["n"]) if part["n"] else "n/a"
        lines.append(f"| {name} | {part['n']} | {part['correct']} | {acc} |")
    lines += [f"| no answer | {v['none']['n']} | | |", ""]
    curve = summary.get("risk_coverage") or []
    if curve:
        lines += ["| operating point | answered | risk (error rate) |", "|---|---:|---:|"]
        lines += [f"| {p['label']} | {percent(p['answered'])} | {percent(p['risk'])} |"
                  for p in curve]
        lines.append("")
    lenient = summary.get("any_answer")
    if lenient:
        lines.append(f"- any-answer Hits@1: precision of `verified` "
                     f"{percent(lenient['precision_verified'])}, coverage "
                     f"{percent(lenient['coverage'])}, wrong and `verified` "
                     f"{percent(lenient['wrong_verified'])}")
    for half, part in (summary.get("by_half") or {}).items():
        lines.append(f"- {half} half: precision of `verified` "
                     f"{percent(part['precision_verified'])}, coverage "
                     f"{percent(part['coverage'])}, wrong and `verified` "
                     f"{percent(part['wrong_verified'])} (n = {part['n']})")
    return lines + [""]


def _failures(summary: Mapping[str, Any]) -> list[str]:
    if not summary["failures"]:
        return []
    n = summary["n"]
    lines = ["## Failures", "", "| category | count | share | meaning | example |",
             "|---|---:|---:|---|---|"]
    for category, count in summary["failures"].items():
        example = (summary["examples"].get(category) or [{}])[0]
        shown = ""
        if example:
            shown = (f"{example['id']}: {example['question']!r} -> {example['answer']} "
                     f"(gold {example['gold']}) {example['detail']}")
        lines.append(f"| {category} | {count} | {percent(count / n)} | "
                     f"{_cell(CATEGORY_HELP.get(category, ''), 90)} | {_cell(shown, 300)} |")
    lines.append("")
    return lines


def write_html(summary: Mapping[str, Any], outcomes: Sequence[Outcome], run: Mapping[str, Any],
               path: Path) -> Path:
    """A plotly page: accuracy by group (first breakdown), failure counts, latency histogram."""
    report_figure(summary, outcomes, run).write_html(path, include_plotlyjs="directory",
                                                     full_html=True)
    return path


def plain(text: object) -> str:
    """Data text made inert for plotly's pseudo-HTML labels (``<a href>``, ``<br>``): ``& < >``
    escaped once (also used by the app's charts).

    >>> plain('<a href="http://x">AT&T</a>')
    '&lt;a href="http://x"&gt;AT&amp;T&lt;/a&gt;'
    """
    return html.escape(str(text), quote=False)


def report_figure(summary: Mapping[str, Any], outcomes: Sequence[Outcome],
                  run: Mapping[str, Any]) -> Any:
    """The plotly figure of :func:`write_html`; every data string in it is escaped."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    dim = next(iter(summary["groups"]), None)
    groups = summary["groups"].get(dim, {}) if dim else {}
    title = f"accuracy by {plain(dim)}" if dim else "accuracy"
    p99 = 1000 * summary["latency"].get("p99", 0.0)
    fig = make_subplots(rows=3, cols=1, subplot_titles=(title, "failure categories",
                                                        f"latency per question (ms, up to "
                                                        f"p99 = {p99:.1f} ms)"),
                        vertical_spacing=0.12)
    names = [plain(g) for g in groups] or [plain(run["benchmark"])]
    values = [groups[g]["accuracy"] or 0 for g in groups] or [summary["accuracy"] or 0]
    counts = [groups[g]["n"] for g in groups] or [summary["n"]]
    fig.add_trace(go.Bar(x=names, y=values, text=[f"n={c}" for c in counts],
                         name="accuracy"), row=1, col=1)
    fig.add_trace(go.Bar(x=[plain(c) for c in summary["failures"]],
                         y=list(summary["failures"].values()), name="failures"), row=2, col=1)
    fig.add_trace(go.Histogram(x=[1000 * o.seconds for o in outcomes if 1000 * o.seconds <= p99],
                               nbinsx=60, name="latency"), row=3, col=1)
    fig.update_yaxes(range=[0, 1], row=1, col=1)
    fig.update_layout(height=1100, showlegend=False,
                      title=plain(f"{run['benchmark']} ({run['split']}, {run['mode']}): "
                                   f"{percent(summary['accuracy'])} of {summary['n_evaluated']}"))
    return fig


def write_report(summary: Mapping[str, Any], outcomes: Sequence[Outcome],
                 run: Mapping[str, Any], out_dir: Path, stem: str) -> dict[str, Path]:
    """Write ``<stem>.md`` and ``<stem>.html`` into ``out_dir``; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    md = out_dir / f"{stem}.md"
    md.write_text(render_markdown(summary, run), encoding="utf-8")
    html = write_html(summary, outcomes, run, out_dir / f"{stem}.html")
    return {"markdown": md, "html": html}
