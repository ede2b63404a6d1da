"""Fit the calibrated verdict's weights on the tune halves, and show its frontier.

Input: caches re-judged with the rules alone and the current code, which record each answer's
features and blocking codes::

    python scripts/verdict_rejudge.py --rules --benchmark wikisql CACHE.jsonl --out R/wsq.jsonl
    python scripts/verdict_calibrate.py --fit R/wsq.jsonl R/wtq.jsonl R/wtqtrain.jsonl \\
        R/replay.jsonl --write trustuqa_core/verdict/weights.json

Only rows of the ``tune`` half are read for fitting (``--fit``); one model per writer kind
(``offline``, ``llm``: the ``writer_kind`` each row records). For each kind:

1. the soft codes are the reason codes outside :attr:`Thresholds.hard` carried by at least
   ``--min-support`` tune answers that no hard code blocks (a rarer code keeps its rule);
2. a logistic regression with an L2 penalty (numpy, Newton steps) is fitted on those answers,
   with every doubt's weight (a code, unexplained words, a weak mapping) kept at or below 0;
3. the threshold is the lowest estimate on a grid at which every tune file of that writer has
   ``verified`` precision >= ``--precision`` and wrong-and-verified <= ``--max-wrong`` (with a
   margin of 0.5 and 0.25 points, for the check half's sampling noise); when
   none reaches that, the lowest at which no tune file does worse than its rules on either
   and none has more wrong-and-verified than ``--max-wrong`` (no margin).

``--report`` prints, per file and half, precision / coverage / wrong-and-verified before (the
rules, as recorded) and after (the weights file and :data:`THRESHOLDS`); ``--halves`` says
which halves (the check half is scored once, at the end). ``--frontier`` prints the tune
frontier (threshold -> precision / coverage / wrong-and-verified) per file; with
``--at-coverage 25,30,...`` it also prints, per tune file, the precision of ``verified`` at
those coverages (the answers ranked by their estimate, cut where the coverage is first
reached), and the highest precision at any coverage of at least 10%: two models' frontiers
compare at equal coverage, whatever threshold each would pick.

``--search-bands 0,15,20,25,30,35,40,50,60 --keep-coverage wsq=2`` lists the two-band operating
points of the offline model (tables of at most C rows need one threshold, larger tables
another; C = 0: one threshold for all) at which every tune file keeps at least today's
precision (the packaged weights with :data:`THRESHOLDS`, bands included) and the named file's
coverage falls at most that many points, best ``--maximise`` file's precision first (stop 21:
the bands of :attr:`Thresholds.estimate_bands`). ``--bands ROWS:T,...`` simulates other bands
in ``--report`` / ``--frontier`` (``--bands 1000000:0.88``: one threshold of 0.88).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import itertools
import json
import math
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from trustuqa_core.verdict import THRESHOLDS  # noqa: E402
from trustuqa_core.verdict.calibration import (  # noqa: E402
    NUMERIC,
    WEIGHTS_FILE,
    Model,
    load_models,
    nonpositive,
)
from trustuqa_core.verdict.thresholds import band_threshold  # noqa: E402

Row = dict[str, Any]
Bands = tuple[tuple[int, float], ...]
GRID = [round(0.50 + 0.01 * i, 2) for i in range(50)]


def read(path: Path, metric: str = "") -> list[Row]:
    """The evaluable rows of a re-judged cache, each tagged with its file's name."""
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    rows = [r for r in rows if r.get("category") != "not_evaluable"]
    for r in rows:
        r["_file"] = path.stem
        if metric:
            r["correct"] = bool(r["scores"].get(metric, r["correct"]))
    return rows


def answered(r: Row) -> bool:
    """A row the verdict judged as an answer (the no-answer rows carry no features)."""
    return "calib" in r and r["groups"].get("verdict") != "no answer"


def soft_codes(rows: Sequence[Row], min_support: int) -> frozenset[str]:
    """Codes outside the hard set carried by at least ``min_support`` of the answers no hard
    code blocks, and by at most 95% of them (a code nearly every answer carries, such as the
    offline writer's ``single_query``, says nothing the bias does not); a code outside that
    keeps its rule (so rows it blocks drop out), until stable.

    >>> r = {"calib": {"code:a": 1.0}, "blocking": ["a"], "groups": {}}
    >>> e = {"calib": {}, "blocking": [], "groups": {}}
    >>> sorted(soft_codes([r] * 3 + [e], 3)), sorted(soft_codes([r] * 2 + [e], 3))
    (['a'], [])
    """
    soft = {k[5:] for r in rows for k in r["calib"] if k.startswith("code:")} - THRESHOLDS.hard
    while True:
        free = [r for r in rows if set(r["blocking"]) <= soft]
        support = Counter(k[5:] for r in free for k in r["calib"] if k.startswith("code:"))
        keep = {c for c in soft if min_support <= support[c] <= 0.95 * len(free)}
        if keep == soft:
            return frozenset(soft)
        soft = keep


def design(rows: Sequence[Row], names: Sequence[str]) -> np.ndarray:
    """The feature matrix of ``rows`` over ``names`` (absent features are 0)."""
    x = np.zeros((len(rows), len(names)))
    index = {n: i for i, n in enumerate(names)}
    for j, r in enumerate(rows):
        for k, v in r["calib"].items():
            if k in index:
                x[j, index[k]] = v
    return x


def logistic(x: np.ndarray, y: np.ndarray, l2: float, signs: Sequence[bool],
             iters: int = 50, weight: np.ndarray | None = None) -> tuple[float, np.ndarray]:
    """``(bias, weights)`` of an L2-penalised logistic regression by Newton steps; a weight
    whose ``signs`` entry is True is kept at or below 0 (a constrained weight that would turn
    positive is fixed at 0 and the rest refitted).

    >>> x = np.array([[1.0]] * 20 + [[0.0]] * 20)
    >>> y = np.array([0.0] * 18 + [1.0] * 2 + [1.0] * 19 + [0.0])
    >>> b, w = logistic(x, y, 1.0, [True])
    >>> bool(b > 1 and w[0] < -2)
    True
    >>> float(logistic(x, 1 - y, 1.0, [True])[1][0])
    0.0
    """
    free = np.ones(x.shape[1], dtype=bool)
    sw = np.ones(len(x)) if weight is None else weight
    while True:
        cols = np.flatnonzero(free)
        a = np.hstack([np.ones((len(x), 1)), x[:, cols]])
        beta = np.zeros(a.shape[1])
        penalty = np.full(a.shape[1], l2)
        penalty[0] = 1e-6
        for _ in range(iters):
            p = 1.0 / (1.0 + np.exp(-np.clip(a @ beta, -40, 40)))
            grad = a.T @ (sw * (p - y)) + penalty * beta
            hess = (a * (sw * p * (1 - p))[:, None]).T @ a + np.diag(penalty)
            step = np.linalg.solve(hess, grad)
            beta -= step
            if np.max(np.abs(step)) < 1e-8:
                break
        w = np.zeros(x.shape[1])
        w[cols] = beta[1:]
        bad = [i for i in cols if signs[i] and w[i] > 0]
        if not bad:
            return float(beta[0]), w
        free[bad] = False


def fit(rows: Sequence[Row], writer: str, *, l2: float, min_support: int, precision: float,
        max_wrong: float, balance: bool = False, drop: Sequence[str] = (),
        floors: dict[str, float] | None = None) -> Model:
    """One writer kind's model, fitted on the tune-half ``rows`` of that writer; with
    ``balance``, each input file weighs as much as any other in the fit; the numeric
    features named in ``drop`` are left out; ``floors`` (file stem -> precision, %) raise
    the threshold until that file's tune precision is at least the floor (the precision of
    the verdict the fit replaces: a refit must not lower it)."""
    tune = [r for r in rows if r["groups"].get("half") == "tune"
            and r.get("writer_kind", "offline") == writer]
    answers = [r for r in tune if answered(r)]
    soft = soft_codes(answers, min_support)
    free = [r for r in answers if set(r["blocking"]) <= soft]
    names = [f"code:{c}" for c in sorted(soft)] + [n for n in NUMERIC if n not in drop]
    x, y = design(free, names), np.array([float(r["correct"]) for r in free])
    sizes = Counter(r["_file"] for r in free)
    weight = np.array([len(free) / (len(sizes) * sizes[r["_file"]]) for r in free]) \
        if balance else None
    bias, w = logistic(x, y, l2, [nonpositive(n) for n in names], weight=weight)
    weights = {n: round(float(v), 4) for n, v in zip(names, w, strict=True)
               if n.startswith("code:") or v != 0.0}
    model = Model(writer, round(bias, 4), weights, 0.5)
    threshold = pick_threshold(tune, model, precision, max_wrong)
    for stem, floor in (floors or {}).items():
        part = [r for r in tune if r["_file"] == stem]
        if part:
            threshold = next((t for t in GRID if t >= threshold
                              and (figures(part, model, t)["precision"] or 0.0) >= floor),
                             threshold)
    return Model(writer, model.bias, weights, threshold,
                 {"answers": len(free), "right": int(y.sum()), "l2": l2, "balance": balance,
                  "dropped": list(drop), "floors": dict(floors or {}),
                  "min_support": min_support, "files": sorted({r["_file"] for r in tune}),
                  "points": {f"{t:.2f}": figures(tune, model, t) for t in GRID[::5]}})


def table_rows(r: Row) -> int:
    """The rows of the table a row's answer read, from its ``rows`` feature (log(1 + n)).

    >>> table_rows({"calib": {"rows": 2.7726}}), table_rows({"calib": {}})
    (15, 0)
    """
    return round(math.expm1(r.get("calib", {}).get("rows", 0.0)))


def needed(r: Row, threshold: float, bands: Bands = ()) -> float:
    """The threshold row ``r`` must reach: its table-size band's, else ``threshold`` (as
    :meth:`Thresholds.needed` does for the offline writer).

    >>> needed({"calib": {"rows": 2.7726}}, 0.9, ((20, 0.85),)), needed({"calib": {}}, 0.9)
    (0.85, 0.9)
    """
    return band_threshold(bands, table_rows(r), threshold)


def decide(r: Row, model: Model | None, threshold: float, bands: Bands = ()) -> bool:
    """Whether the calibrated verdict would mark row ``r`` verified."""
    if not answered(r):
        return False
    if model is None:
        return not r["blocking"]
    if set(r["blocking"]) - (model.soft_codes - THRESHOLDS.hard):
        return False
    return model.estimate(r["calib"]) >= needed(r, threshold, bands)


def figures(rows: Iterable[Row], model: Model | None, threshold: float,
            bands: Bands = ()) -> dict[str, Any]:
    """``{n, verified, precision, coverage, wrong}`` (percentages) of ``rows``."""
    rows = list(rows)
    marks = [decide(r, model, threshold, bands) for r in rows]
    v = sum(marks)
    ok_v = sum(m and r["correct"] for m, r in zip(marks, rows, strict=True))
    ok = sum(r["correct"] for r in rows)
    return {"n": len(rows), "verified": v,
            "precision": round(100 * ok_v / v, 2) if v else None,
            "coverage": round(100 * ok_v / ok, 2) if ok else None,
            "wrong": round(100 * (v - ok_v) / len(rows), 2) if rows else None}


def before(rows: Iterable[Row]) -> dict[str, Any]:
    """The same figures for the verdict the rows record (the rules)."""
    rows = list(rows)
    v = [r for r in rows if r["groups"].get("verdict") == "verified"]
    ok_v, ok = sum(r["correct"] for r in v), sum(r["correct"] for r in rows)
    return {"n": len(rows), "verified": len(v),
            "precision": round(100 * ok_v / len(v), 2) if v else None,
            "coverage": round(100 * ok_v / ok, 2) if ok else None,
            "wrong": round(100 * (len(v) - ok_v) / len(rows), 2) if rows else None}


def pick_threshold(tune: Sequence[Row], model: Model, precision: float,
                   max_wrong: float, margin: float = 0.5) -> float:
    """The lowest grid threshold at which every file's tune rows meet both targets with a
    ``margin`` (points of precision above the target, half of it under the wrong-and-verified
    target: about 1.5 standard errors on a tune half of 2,000 answers); when no
    threshold does, the lowest at which no file does worse than its rules (precision at least
    theirs, wrong-and-verified at most theirs) and no file shows more wrong answers verified
    than the target ``max_wrong`` allows (stop 17: a file whose rules miss that target must
    meet it): the most coverage that costs nothing; the highest grid point when neither
    exists."""
    by_file = [[r for r in tune if r["_file"] == f] for f in sorted({r["_file"] for r in tune})]
    rules = [before(part) for part in by_file]

    def meets(fig: dict[str, Any], p: float | None, w: float | None) -> bool:
        if fig["precision"] is None:  # nothing verified meets no target
            return p is None
        return (p is None or fig["precision"] >= p) and (w is None or fig["wrong"] <= w)

    for t in GRID:
        figs = [figures(part, model, t) for part in by_file]
        if all(meets(f, 100 * precision + margin, 100 * max_wrong - margin / 2) for f in figs):
            return t
    for t in GRID:
        figs = [figures(part, model, t) for part in by_file]
        if all(meets(f, r["precision"], min(r["wrong"], 100 * max_wrong))
               for f, r in zip(figs, rules, strict=True)):
            return t
    return GRID[-1]


def precision_at(rows: Sequence[Row], model: Model | None, coverage: float) -> float | None:
    """The precision of ``verified`` when the answers ``model`` may verify (no rule blocks
    them) are taken in order of their estimate until ``coverage`` (%) of the right answers of
    ``rows`` is reached; None when it is never reached.

    >>> rows = [{"calib": {"code:a": x}, "blocking": ["a"] if x else [], "groups": {},
    ...          "correct": ok} for x, ok in [(0, True), (0, True), (1, False), (1, True)]]
    >>> m = Model("offline", 2.0, {"code:a": -3.0}, 0.5)
    >>> precision_at(rows, m, 50), precision_at(rows, m, 100), precision_at(rows, None, 50)
    (100.0, 75.0, None)
    """
    right = sum(r["correct"] for r in rows)
    if model is None or not right:
        return None
    soft = model.soft_codes - THRESHOLDS.hard
    free = [r for r in rows if answered(r) and not set(r["blocking"]) - soft]
    ranked = sorted(free, key=lambda r: -model.estimate(r["calib"]))
    ok = 0
    for i, r in enumerate(ranked, 1):
        ok += r["correct"]
        if ok >= coverage / 100 * right:
            return round(100 * ok / i, 2)
    return None


def _arrays(rows: Sequence[Row], model: Model) -> tuple[np.ndarray, ...]:
    """Per row: the estimate (-1 where a rule blocks or there is no answer), right or not,
    and the table's rows."""
    soft = model.soft_codes - THRESHOLDS.hard
    est = np.array([model.estimate(r["calib"]) if answered(r)
                    and not set(r["blocking"]) - soft else -1.0 for r in rows])
    return (est, np.array([bool(r["correct"]) for r in rows]),
            np.array([table_rows(r) for r in rows]))


def band_search(tune: Sequence[Row], model: Model, floors: dict[str, dict[str, Any]],
                keep: dict[str, float], cutoffs: Sequence[int], grid: Sequence[float]
                ) -> list[dict[str, Any]]:
    """Every two-band operating point ``(cutoff, small, large)``: tables of at most
    ``cutoff`` rows need ``small``, larger ones ``large`` (cutoff 0: one threshold), that
    meets the bar on each tune file of ``floors`` (precision at least the floor's, and for
    the files of ``keep``, coverage at most ``keep[file]`` points under the floor's); each
    with its per-file figures.

    >>> rows = [{"calib": {"rows": r}, "blocking": [], "groups": {}, "correct": ok,
    ...          "_file": "a"} for r, ok in [(1.0, True), (1.0, True), (4.0, False)]]
    >>> m = Model("offline", 0.0, {"rows": -1.0}, 0.5)
    >>> floor = {"a": {"precision": 50.0, "coverage": 100.0}}
    >>> [(p["cutoff"], p["small"], p["large"]) for p in band_search(rows, m, floor, {"a": 0},
    ...                                                             [0, 5], [0.2, 0.3])]
    [(0, 0.2, 0.2), (5, 0.2, 0.2), (5, 0.2, 0.3)]
    """
    files = {f: _arrays([r for r in tune if r["_file"] == f], model) for f in floors}
    out = []
    for cutoff, small, large in itertools.product(cutoffs, grid, grid):
        if cutoff == 0 and small != large:
            continue
        point: dict[str, Any] = {"cutoff": cutoff, "small": small, "large": large}
        ok = True
        for f, (est, right, size) in files.items():
            marks = est >= np.where(size <= cutoff, small, large)
            v, ok_v = int(marks.sum()), int((marks & right).sum())
            fig = {"precision": round(100 * ok_v / v, 2) if v else None,
                   "coverage": round(100 * ok_v / max(int(right.sum()), 1), 2),
                   "wrong": round(100 * (v - ok_v) / max(len(est), 1), 2), "verified": v,
                   "n": len(est)}
            floor = floors[f]
            if fig["precision"] is None or fig["precision"] < (floor["precision"] or 0.0) \
                    or (f in keep and fig["coverage"] < floor["coverage"] - keep[f]):
                ok = False
                break
            point[f] = fig
        if ok:
            out.append(point)
    return out


def provenance(paths: Sequence[Path], caches: Sequence[str] = ()) -> dict[str, Any]:
    """What the weights were fitted from: the code's commit, the inputs' hashes (and the
    ``bench run`` caches they re-judge), the date."""
    root = Path(__file__).resolve().parents[1]
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], check=True,
                                capture_output=True, text=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                     "trustuqa_core"], check=True, capture_output=True,
                                    text=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", False
    return {"code": commit + ("+dirty" if dirty else ""), "halves": ["tune"],
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "inputs": {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in paths},
            "caches": list(caches)}


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def _line(fig: dict[str, Any]) -> str:
    return (f"{_pct(fig['precision'])} / {_pct(fig['coverage'])} / {_pct(fig['wrong'])}% "
            f"({fig['verified']} of {fig['n']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--fit", action="store_true", help="fit on the tune halves")
    parser.add_argument("--write", type=Path, default=None, help="write the weights here")
    parser.add_argument("--report", action="store_true", help="before / after per half")
    parser.add_argument("--frontier", action="store_true", help="tune frontier per file")
    parser.add_argument("--at-coverage", default="", metavar="C1,C2,...",
                        help="with --frontier: precision at these coverages (%%) per file")
    parser.add_argument("--halves", default="tune", help="halves to report (tune,check)")
    parser.add_argument("--metric", default="", help="count this score as correct (MetaQA: "
                        "hits1_any)")
    parser.add_argument("--weights", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--min-support", type=int, default=20)
    parser.add_argument("--balance", action="store_true", help="weigh each file alike")
    parser.add_argument("--drop", nargs="*", default=[], choices=list(NUMERIC),
                        help="numeric features to leave out")
    parser.add_argument("--caches", nargs="*", default=[], help="the bench run caches the "
                        "inputs re-judge (recorded in the provenance)")
    parser.add_argument("--floor", nargs="*", default=[], metavar="STEM=PERCENT",
                        help="raise the threshold until that input file's tune precision is "
                        "at least PERCENT (the precision of the verdict being replaced)")
    parser.add_argument("--bands", default=None, metavar="ROWS:T,...",
                        help="offline threshold per table-size band (tables of at most ROWS "
                        "rows need T) in --report / --frontier; default: Thresholds'")
    parser.add_argument("--search-bands", default="", metavar="C1,C2,...",
                        help="list the two-band operating points (tables of at most C rows "
                        "/ larger; 0: one threshold) of the offline model that keep every "
                        "tune file's precision at least today's (the packaged weights and "
                        "Thresholds), best --maximise precision first")
    parser.add_argument("--keep-coverage", nargs="*", default=[], metavar="STEM=POINTS",
                        help="with --search-bands: that file's tune coverage may fall at most "
                        "POINTS under today's")
    parser.add_argument("--maximise", default="wtq", help="with --search-bands: rank by this "
                        "file's tune precision")
    parser.add_argument("--kinds", default="", help="with --fit: refit only these writer kinds "
                        "(comma-separated); the others keep the --weights file's model")
    parser.add_argument("--precision", type=float, default=0.97)
    parser.add_argument("--max-wrong", type=float, default=0.02)
    args = parser.parse_args()
    rows = [r for p in args.files for r in read(p, args.metric)]
    models = load_models(args.weights)
    if args.fit:
        tune = [r for r in rows if r["groups"].get("half") == "tune"]
        kinds = sorted({r.get("writer_kind", "offline") for r in tune if answered(r)})
        if args.kinds:
            kinds = [k for k in kinds if k in args.kinds.split(",")]
        models = {**models, **{k: fit(tune, k, l2=args.l2, min_support=args.min_support,
                         precision=args.precision, max_wrong=args.max_wrong,
                         balance=args.balance, drop=args.drop,
                         floors={a.split("=")[0]: float(a.split("=")[1]) for a in args.floor})
                  for k in kinds}}
        for k, m in models.items():
            if k not in kinds:
                continue
            print(f"{k}: threshold {m.threshold:.2f}, bias {m.bias:+.3f}, "
                  f"{m.tune['answers']} tune answers")
            for n, w in sorted(m.weights.items(), key=lambda t: t[1]):
                print(f"  {n:34s} {w:+.3f}")
            for f in sorted({r["_file"] for r in tune if answered(r)
                             and r.get("writer_kind", "offline") == k}):
                part = [r for r in tune if r["_file"] == f]
                print(f"  at its threshold, {f} (tune): {_line(figures(part, m, m.threshold))}")
        if args.write:
            data = {"about": "weights of the calibrated verdict (trustuqa_core/"
                    "verdict/calibration.py), fitted by scripts/verdict_calibrate.py on tune "
                    "halves only", "provenance": provenance(args.files, args.caches),
                    "models": {k: m.to_dict() for k, m in models.items()}}
            args.write.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            print(f"wrote {args.write}")
    thresholds = {"offline": THRESHOLDS.min_estimate, "llm": THRESHOLDS.min_estimate_llm}
    bands: dict[str, Bands] = {"offline": THRESHOLDS.estimate_bands, "llm": ()}
    if args.bands is not None:
        bands["offline"] = tuple((int(a.split(":")[0]), float(a.split(":")[1]))
                                 for a in args.bands.split(",") if a)
    if args.search_bands:
        today = load_models(WEIGHTS_FILE).get("offline")
        tune = [r for r in rows if r["groups"].get("half") == "tune"
                and r.get("writer_kind", "offline") == "offline"]
        stems = sorted({r["_file"] for r in tune if answered(r)})
        floors = {f: figures([r for r in tune if r["_file"] == f], today,
                             THRESHOLDS.min_estimate, THRESHOLDS.estimate_bands)
                  for f in stems}
        for f in stems:
            print(f"today {f} (tune): {_line(floors[f])}")
        points = band_search(tune, models["offline"], floors,
                             {a.split("=")[0]: float(a.split("=")[1])
                              for a in args.keep_coverage},
                             [int(c) for c in args.search_bands.split(",")],
                             [round(0.70 + 0.005 * i, 3) for i in range(59)])
        points.sort(key=lambda p: (-p[args.maximise]["precision"],
                                   *(-p[f]["coverage"] for f in stems)))
        print(f"{len(points)} operating points meet the bar; the best 15 by {args.maximise}:")
        for p in points[:15]:
            print(f"  rows<={p['cutoff']}: {p['small']:.3f}, else {p['large']:.3f}: "
                  + "; ".join(f"{f} {_line(p[f])}" for f in stems))
    if args.frontier:
        for f in sorted({r["_file"] for r in rows}):
            part = [r for r in rows if r["_file"] == f and r["groups"].get("half") == "tune"]
            kind = part[0].get("writer_kind", "offline") if part else "offline"
            print(f"{f} (tune, {kind} model): threshold -> precision / coverage / wrong ✓")
            print(f"  rules (before)  {_line(before(part))}")
            for t in GRID[::2]:
                fig = figures(part, models.get(kind), t, bands[kind] if kind == "offline"
                              and args.bands is not None else ())
                print(f"  {t:.2f}            {_line(fig)}")
            if args.at_coverage:
                at = [float(c) for c in args.at_coverage.split(",")]
                best = max((p for c in range(10, 101) if (p := precision_at(
                    part, models.get(kind), c)) is not None), default=None)
                print("  precision at coverage: " + ", ".join(
                    f"{c:g}% -> {_pct(precision_at(part, models.get(kind), c))}" for c in at)
                    + f"; best at >= 10%: {_pct(best)}")
    if args.report:
        for f in sorted({r["_file"] for r in rows}):
            for half in args.halves.split(","):
                part = [r for r in rows if r["_file"] == f
                        and (half == "all" or r["groups"].get("half") == half)]
                kind = part[0].get("writer_kind", "offline") if part else "offline"
                after = figures(part, models.get(kind), thresholds[kind], bands[kind])
                print(f"{f:10s} {half:6s} before {_line(before(part))}  after {_line(after)}")


if __name__ == "__main__":
    main()
