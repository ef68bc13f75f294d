#!/usr/bin/env python3
"""Differential test of `read_as = pandas` (the default of the `classification` and `regression` families) against
pandas 3.1's `read_csv` (pinned in tests/reference/requirements-kaggle.txt), as Kaggle's metric code reads a
solution and a submission: both files read with `pandas.read_csv`, the submission's rows matched to the
solution's by id (`merge` on the id column), then scikit-learn's metric. Random cases, one section each:

- `ids`: integer ids written `12`, `00012`, `+12` or `12.0` (each file's spelling drawn apart), rows shuffled, some
  repeated under another spelling; regression values, a submission column of `True`/`False` against a 0/1 GT,
  pandas' missing-value strings (`NA`, `null`, `None`, `#N/A`, …). Reference: mean_absolute_error, or a refusal
  (a NaN value, a repeated or unknown id) where dropscore must refuse too (score null, an error).
- `labels`: class labels written `3` or `3.0` (a float column), or booleans (`True`, `false`, …) against 0/1;
  reference: accuracy_score and f1_score(average="macro") on the merged frame, to 1e-12.
- `weights`: option `weight_column`, scikit-learn's `sample_weight` of MAE, MSE, RMSE, MSLE, RMSLE, MAPE, r2 and
  explained variance, to 1e-12.
- `round`: options `one_minus` and `round`: the score `leaderboard` is Python's `round(1 - x, d)` (or
  `round(x, d)`) of the leaderboard metric, exactly; values on exact decimal ties (dyadic errors) included.

Usage: python3 tests/reference/kaggle_pandas_diff.py [--cases N] [--seed S] [--only SECTION] [--bin target/release/dropscore]
"""

import argparse
import io
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
from sklearn import metrics as M

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NA = ["NA", "null", "None", "#N/A", "N/A", "<NA>", "NULL", "n/a", "NaN", "nan", ""]


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b))


def run(binary, family, gt, pred, opts):
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("gt.csv", gt), ("pred.csv", pred)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        cmd = [binary, family, "--gt", os.path.join(d, "gt.csv"), "--pred", os.path.join(d, "pred.csv")]
        for k, v in opts.items():
            cmd += ["--set", f"{k}={v}"]
        p = subprocess.run(cmd + ["--format", "json"], capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"error": f"exit {p.returncode}: {p.stdout[:200]} {p.stderr[:300]}"}


def spell(r, k, style):
    """Integer id `k` as `style` writes it."""
    return {"plain": str(k), "zeros": f"{k:05d}", "plus": f"+{k}", "float": f"{k}.0"}[style]


def reference(gt, pred, metric):
    """Kaggle's reading: both files through pandas.read_csv, matched by id; None for a refusal."""
    sol = pd.read_csv(io.StringIO(gt))
    sub = pd.read_csv(io.StringIO(pred))
    if sub["id"].duplicated().any() or sol["id"].duplicated().any():
        return None
    if set(sub["id"].tolist()) != set(sol["id"].tolist()):
        return None
    merged = sol.merge(sub, on="id", suffixes=("_true", "_pred"))
    y, p = merged["target_true"].to_numpy(), merged["target_pred"].to_numpy()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = float(metric(y, p))
            return v if math.isfinite(v) else None
    except (ValueError, TypeError):
        return None


def ids_case(seed):
    r = random.Random(seed)
    n = r.randint(2, 30)
    keys = r.sample(range(0, 5000), n)
    gt_style, sub_style = r.choice(["plain", "zeros", "plus", "float"]), r.choice(["plain", "zeros", "plus", "float"])
    bools = r.random() < 0.2
    truth = [r.randint(0, 1) if bools else round(r.uniform(-5, 5), 3) for _ in keys]
    preds = [r.choice(["True", "False", "true", "FALSE"]) if bools else str(round(r.uniform(-5, 5), 3)) for _ in keys]
    if r.random() < 0.25:
        preds[r.randrange(n)] = r.choice(NA)
    gt_rows = [f"{spell(r, k, gt_style)},{v}" for k, v in zip(keys, truth)]
    sub_rows = [f"{spell(r, k, sub_style)},{v}" for k, v in zip(keys, preds)]
    if r.random() < 0.15:
        j = r.randrange(n)
        sub_rows.append(f"{spell(r, keys[j], 'zeros' if sub_style != 'zeros' else 'plain')},{preds[j]}")
    r.shuffle(sub_rows)
    gt = "id,target\n" + "\n".join(gt_rows) + "\n"
    pred = "id,target\n" + "\n".join(sub_rows) + "\n"
    return gt, pred, {"metric": "mean_absolute_error"}, {"mean_absolute_error": M.mean_absolute_error}


def labels_case(seed):
    r = random.Random(seed)
    n = r.randint(2, 40)
    keys = r.sample(range(1, 10000), n)
    kind = r.choice(["ints", "floats", "bools"])
    if kind == "bools":
        truth = [r.choice(["True", "False"]) for _ in keys]
        truth[0], truth[-1] = "True", "False"
        preds = [r.choice(["0", "1"]) if r.random() < 0.5 else r.choice(["true", "FALSE"]) for _ in keys]
        if r.random() < 0.5:
            preds = [r.choice(["True", "False", "true", "false", "TRUE"]) for _ in keys]
        else:
            preds = [r.choice(["0", "1"]) for _ in keys]
    else:
        classes = sorted(r.sample(range(0, 9), r.randint(2, 5)))
        truth = [str(r.choice(classes)) for _ in keys]
        truth[0], truth[-1] = str(classes[0]), str(classes[-1])
        if kind == "floats":
            truth = [t + ".0" for t in truth]
        # Predicted labels among the solution's classes (a label outside two classes would make the column a
        # binary score, a rule of its own, tested in classification_diff.py).
        present = sorted({t.removesuffix(".0") for t in truth}, key=int)
        preds = [r.choice(present) for _ in keys]
        if r.random() < 0.5:
            preds = [p + ".0" for p in preds]
    gt = "id,target\n" + "\n".join(f"{k},{t}" for k, t in zip(keys, truth)) + "\n"
    pred = "id,target\n" + "\n".join(f"{k:04d},{p}" for k, p in zip(keys, preds)) + "\n"
    f1 = lambda y, p: M.f1_score(y, p, average="macro", zero_division=0)
    return gt, pred, {"metric": "accuracy"}, {"accuracy": M.accuracy_score, "f1_macro": f1}


WEIGHTED = {
    "mean_absolute_error": M.mean_absolute_error,
    "mean_squared_error": M.mean_squared_error,
    "root_mean_squared_error": M.root_mean_squared_error,
    "mean_squared_log_error": M.mean_squared_log_error,
    "root_mean_squared_log_error": M.root_mean_squared_log_error,
    "mean_absolute_percentage_error": M.mean_absolute_percentage_error,
    "r2": M.r2_score,
    "explained_variance": M.explained_variance_score,
}


def weights_case(seed):
    r = random.Random(seed)
    n = r.randint(1, 40)
    rows = [(i, round(r.uniform(0, 9), 3), round(r.uniform(0, 9), 3), r.choice([0, 0.5, 1, 2, round(r.uniform(0, 5), 3)])) for i in range(n)]
    if r.random() < 0.3:
        rows = [(i, t, p, 1) for i, t, p, _ in rows]
    gt = "id,target,w\n" + "".join(f"{i},{t},{w}\n" for i, t, _, w in rows)
    pred = "id,target\n" + "".join(f"{i},{p}\n" for i, _, p, _ in rows)
    def weighted(f):
        return lambda y, p: f(y, p, sample_weight=[w for *_, w in rows])
    return gt, pred, {"weight_column": "w"}, {k: weighted(f) for k, f in WEIGHTED.items()}


def round_case(seed):
    r = random.Random(seed)
    n = r.randint(1, 4)
    # Dyadic targets and predictions: mean absolute errors of few bits, often an exact decimal tie.
    t = [r.randint(0, 64) / 2 ** r.randint(0, 6) for _ in range(n)]
    p = [r.randint(0, 64) / 2 ** r.randint(0, 6) for _ in range(n)]
    d, one_minus = r.randint(0, 6), r.random() < 0.5
    gt = "id,target\n" + "".join(f"{i},{v!r}\n" for i, v in enumerate(t))
    pred = "id,target\n" + "".join(f"{i},{v!r}\n" for i, v in enumerate(p))
    def lb(y, q):
        x = M.mean_absolute_error(y, q)
        return round(1 - x if one_minus else x, d)
    opts = {"metric": "mean_absolute_error", "round": str(d), "one_minus": str(one_minus).lower()}
    return gt, pred, opts, {"leaderboard": lb}


SECTIONS = {
    "ids": ("regression", ids_case),
    "labels": ("classification", labels_case),
    "weights": ("regression", weights_case),
    "round": ("regression", round_case),
}


def check(binary, section, seed):
    family, make = SECTIONS[section]
    gt, pred, opts, metrics = make(seed)
    out = run(binary, family, gt, pred, opts)
    if "error" in out:
        return [f"{section} case {seed}: {out['error']}"]
    bad = []
    for name, metric in metrics.items():
        want = reference(gt, pred, metric)
        got = out["scores"].get(name)
        errors = [d for d in out.get("diagnostics", []) if d.get("severity") == "error"]
        if want is None and (got is None or errors):
            continue
        if want is not None and errors:
            bad.append(f"{section} case {seed} {name}: pandas {want}, dropscore refuses: {errors[0].get('message')}")
        elif not close(got, want) or (section == "round" and got != want):
            bad.append(f"{section} case {seed} {name}: pandas {want}, dropscore {got}\n{gt}\n{pred}")
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only")
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
    a = ap.parse_args()
    sections = [a.only] if a.only else list(SECTIONS)
    jobs = [(s, a.seed * 100003 + i) for s in sections for i in range(a.cases)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(lambda j: check(a.bin, *j), jobs))
    bad = [b for r in results for b in r]
    for b in bad[:20]:
        print(b)
    print(f"kaggle_pandas_diff: {len(jobs)} cases ({', '.join(sections)}), {len(bad)} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
