#!/usr/bin/env python3
"""Differential test of the Kaggle conventions of the `classification` and `regression` families against the
libraries Kaggle's published metric code calls (pinned in tests/reference/requirements-kaggle.txt), one section
per convention, at least 300 random cases each:

- `scale`: label metrics with more classes than the full confusion matrix is kept for (1,025-2,600 classes;
  per-class counts only, docs/specs/families.md section 1) against scikit-learn 1.9's `accuracy_score`,
  `balanced_accuracy_score`, `precision_recall_fscore_support` (macro, micro, weighted; zero_division=0),
  `matthews_corrcoef` and `cohen_kappa_score` (None, linear, quadratic), to 1e-12 relative.
- `columns`: the mean of a per-column metric over several target columns (mean column-wise ROC AUC as the
  Jigsaw toxic-comment metric, `np.mean([roc_auc_score(y[:, j], p[:, j]) for j])`; mean column-wise RMSE
  (MCRMSE), RMSLE and Spearman, rows whose target is -1 left out of a column), to 1e-12 relative.
- `weights`: the classification columns with a weight column (`weight_column`): per column scikit-learn's
  `roc_auc_score`, `average_precision_score` and `log_loss` with `sample_weight` (integer, float and zero
  weights, a column of zero weights), null where scikit-learn raises or returns NaN, to 1e-12 relative.
- `groups`: a metric per group of rows then their mean: Kaggle's CHAMPS "mean per-type log MAE" (its published
  pandas code, below) and the mean of per-group RMSEs, to 1e-12 relative.

Usage: python3 tests/reference/kaggle_cols_diff.py [--cases N] [--seed S] [--only SECTION] [--bin target/release/dropscore]
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
from scipy import stats
from sklearn import metrics as M

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b)) or abs(a - b) <= 1e-15


def finite(v):
    v = float(v)
    return v if math.isfinite(v) else None


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(str(c) for c in row) + "\n")


def run(binary, family, d, opts):
    cmd = [binary, family, "--gt", os.path.join(d, "gt.csv"), "--pred", os.path.join(d, "pred.csv"), "--format", "json"]
    for k, v in opts.items():
        cmd += ["--set", f"{k}={v}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"error": f"exit {p.returncode}: {p.stdout[:200]} {p.stderr[:300]}"}


# ---------------------------------------------------------------------------------------------------- scale


def scale_case(seed):
    """Many classes, few rows each: integer or string labels, predicted labels outside the GT's classes."""
    r = random.Random(seed)
    k = r.randint(1025, 2600)
    ints = r.random() < 0.5
    classes = list(range(k)) if ints else [f"c{j:05d}" for j in range(k)]
    if ints and r.random() < 0.5:
        classes = sorted(r.sample(range(3 * k), k))
    n = r.randint(k, 3 * k)
    truth = classes[:] + [r.choice(classes) for _ in range(n - k)]
    r.shuffle(truth)
    skill = r.random()
    extra = [max(classes) + 1 + j for j in range(5)] if ints else [f"x{j}" for j in range(5)]
    pred = []
    for t in truth:
        u = r.random()
        if u < skill:
            pred.append(t)
        elif u < skill + 0.05:
            pred.append(r.choice(extra))
        else:
            pred.append(r.choice(classes))
    return {"seed": seed, "truth": truth, "pred": pred}


def scale_reference(c):
    y, p = c["truth"], c["pred"]
    out = {"accuracy": M.accuracy_score(y, p)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out["balanced_accuracy"] = M.balanced_accuracy_score(y, p)
        for avg in ["macro", "micro", "weighted"]:
            pr, rc, f1, _ = M.precision_recall_fscore_support(y, p, average=avg, zero_division=0)
            out[f"precision_{avg}"], out[f"recall_{avg}"], out[f"f1_{avg}"] = pr, rc, f1
        out["matthews_corrcoef"] = M.matthews_corrcoef(y, p)
        for w, name in [(None, "cohen_kappa"), ("linear", "cohen_kappa_linear"), ("quadratic", "cohen_kappa_quadratic")]:
            out[name] = M.cohen_kappa_score(y, p, weights=w)
    return {m: finite(v) for m, v in out.items()}


def scale_write(c, d):
    write_csv(os.path.join(d, "gt.csv"), ["id", "label"], [[f"r{i}", t] for i, t in enumerate(c["truth"])])
    write_csv(os.path.join(d, "pred.csv"), ["id", "label"], [[f"r{i}", t] for i, t in enumerate(c["pred"])])
    return "classification", {"metric": "f1_macro"}


# -------------------------------------------------------------------------------------------------- columns

REG = {
    # Kaggle's MCRMSE (Feedback Prize - English Language Learning): np.mean(np.sqrt(np.mean((y - p) ** 2, axis=0)))
    # is the mean of the columns' root_mean_squared_error; the mean of RMSLEs (e.g. Mechanisms of Action-style
    # two-target competitions) the mean of root_mean_squared_log_error; mean column-wise Spearman (Google QUEST)
    # np.nanmean of scipy.stats.spearmanr per column (here np.mean: a NaN column makes the mean null).
    "root_mean_squared_error": M.root_mean_squared_error,
    "mean_absolute_error": M.mean_absolute_error,
    "root_mean_squared_log_error": M.root_mean_squared_log_error,
    "r2": M.r2_score,
    "spearman": lambda t, p: stats.spearmanr(t, p).statistic,
    "pearson": lambda t, p: stats.pearsonr(t, p).statistic,
}


def columns_case(seed):
    r = random.Random(seed)
    family = r.choice(["classification", "regression"])
    m = r.randint(1, 7)
    n = r.randint(8, 300)
    names = r.sample(["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate", "cohesion", "syntax",
                      "vocabulary", "a b", "Ω"], m)
    skip = r.random() < 0.4
    gt, pred = [], []
    for _ in range(n):
        g, q = [], []
        for _ in range(m):
            if family == "classification":
                y = int(r.random() < r.choice([0.05, 0.3, 0.5]))
                v = round(min(1.0, max(0.0, r.gauss(0.3 + 0.3 * y, 0.25))), r.choice([2, 6]))
            else:
                y = round(r.gammavariate(2.0, 1.5), r.choice([0, 2]))
                v = round(max(0.0, y + r.gauss(0, 1)), 3)
            if skip and r.random() < 0.1:
                y = -1
            g.append(y)
            q.append(v)
        gt.append(g)
        pred.append(q)
    order = list(range(m))
    r.shuffle(order)
    return {"seed": seed, "family": family, "names": names, "gt": gt, "pred": pred, "skip": skip,
            "pred_order": order, "star": r.random() < 0.3}


def columns_reference(c):
    gt, pred = np.array(c["gt"], dtype=float), np.array(c["pred"], dtype=float)
    out = {}
    metrics = ["roc_auc", "average_precision", "log_loss"] if c["family"] == "classification" else list(REG)
    per = {k: [] for k in metrics}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, name in enumerate(c["names"]):
            keep = gt[:, j] != -1 if c["skip"] else np.ones(len(gt), bool)
            t, p = gt[keep, j], pred[keep, j]
            for k in metrics:
                try:
                    if k == "roc_auc":
                        v = M.roc_auc_score(t, p)
                    elif k == "average_precision":
                        v = M.average_precision_score(t, p)
                    elif k == "log_loss":
                        v = M.log_loss(t, p)
                    else:
                        v = REG[k](t, p)
                except ValueError:
                    v = float("nan")
                per[k].append(float(v))
                out[f"{k}[{name}]"] = finite(v)
    for k in metrics:
        out[f"mean_{k}"] = finite(np.mean(per[k]))
    return out


def columns_write(c, d):
    names = c["names"]
    write_csv(os.path.join(d, "gt.csv"), ["id"] + names, [[f"q{i:04d}"] + row for i, row in enumerate(c["gt"])])
    order = c["pred_order"]
    rows = [[f"q{i:04d}"] + [row[j] for j in order] for i, row in enumerate(c["pred"])]
    rows.reverse()
    write_csv(os.path.join(d, "pred.csv"), ["id"] + [names[j] for j in order], rows)
    first = "roc_auc" if c["family"] == "classification" else "root_mean_squared_error"
    opts = {"target_columns": "*" if c["star"] else ",".join(names), "metric": f"mean_{first}"}
    if c["skip"]:
        opts["skip_target"] = "-1"
    return c["family"], opts


# -------------------------------------------------------------------------------------------------- weights
# The classification columns with a weight column: each column's roc_auc_score, average_precision_score and
# log_loss with `sample_weight` (the rows left out of a column by skip_target leave their weights out too).


def weights_case(seed):
    r = random.Random(seed)
    c = columns_case(seed)
    while c["family"] != "classification":
        seed += 7919
        c = columns_case(seed)
        r = random.Random(seed)
    kind = r.choice(["int", "float", "zeros", "one_zero_column"])
    n = len(c["gt"])
    if kind == "int":
        w = [r.randint(0, 5) for _ in range(n)]
    else:
        w = [0.0 if kind == "zeros" and r.random() < 0.4 else round(r.uniform(0, 3), r.choice([1, 4])) for _ in range(n)]
    if kind == "one_zero_column":
        w = [0] * n if r.random() < 0.3 else w
    c["weights"] = w
    return c


def weights_reference(c):
    gt, pred = np.array(c["gt"], dtype=float), np.array(c["pred"], dtype=float)
    w = np.array(c["weights"], dtype=float)
    out = {}
    per = {k: [] for k in ("roc_auc", "average_precision", "log_loss")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, name in enumerate(c["names"]):
            keep = gt[:, j] != -1 if c["skip"] else np.ones(len(gt), bool)
            t, p, wj = gt[keep, j], pred[keep, j], w[keep]
            for k, f in (("roc_auc", M.roc_auc_score), ("average_precision", M.average_precision_score),
                         ("log_loss", M.log_loss)):
                try:
                    v = f(t, p, sample_weight=wj)
                except (ValueError, ZeroDivisionError):
                    v = float("nan")
                per[k].append(float(v))
                out[f"{k}[{name}]"] = finite(v)
    for k in per:
        out[f"mean_{k}"] = finite(np.mean(per[k]))
    return out


def weights_write(c, d):
    names = c["names"]
    write_csv(os.path.join(d, "gt.csv"), ["id", "w"] + names,
              [[f"q{i:04d}", c["weights"][i]] + row for i, row in enumerate(c["gt"])])
    order = c["pred_order"]
    rows = [[f"q{i:04d}"] + [row[j] for j in order] for i, row in enumerate(c["pred"])]
    rows.reverse()
    write_csv(os.path.join(d, "pred.csv"), ["id"] + [names[j] for j in order], rows)
    opts = {"target_columns": "*" if c["star"] else ",".join(names), "metric": "mean_roc_auc", "weight_column": "w"}
    if c["skip"]:
        opts["skip_target"] = "-1"
    return "classification", opts


# --------------------------------------------------------------------------------------------------- groups


def champs_metric(y_true, y_pred, types, floor=1e-9):
    """Kaggle's "Predicting Molecular Properties" (CHAMPS) metric as published in its evaluation kernel:
    the mean over coupling types of the log of the type's MAE (floored at 1e-9)."""
    maes = (y_true - y_pred).abs().groupby(types).mean()
    return np.log(maes.map(lambda x: max(x, floor))).mean()


def groups_case(seed):
    r = random.Random(seed)
    types = r.sample(["1JHC", "1JHN", "2JHC", "2JHH", "2JHN", "3JHC", "3JHH", "3JHN", "a", "Ω"], r.randint(1, 8))
    n = r.randint(len(types), 400)
    rows = []
    for i in range(n):
        t = types[i] if i < len(types) else r.choice(types)
        y = round(r.gauss(0, 30), r.choice([1, 3]))
        p = y if r.random() < 0.05 else round(y + r.gauss(0, r.choice([0.5, 3, 10])), 3)
        rows.append((f"m{i:05d}", t, y, p))
    r.shuffle(rows)
    return {"seed": seed, "rows": rows}


def groups_reference(c):
    import pandas as pd
    df = pd.DataFrame(c["rows"], columns=["id", "type", "y", "p"])
    out = {"mean_log_mean_absolute_error": finite(champs_metric(df["y"], df["p"], df["type"]))}
    rm = []
    for t, g in df.groupby("type"):
        out[f"mean_absolute_error[{t}]"] = finite(M.mean_absolute_error(g["y"], g["p"]))
        rm.append(M.root_mean_squared_error(g["y"], g["p"]))
    out["mean_root_mean_squared_error"] = finite(np.mean(rm))
    return out


def groups_write(c, d):
    write_csv(os.path.join(d, "gt.csv"), ["id", "type", "scalar_coupling_constant"], [[a, t, y] for a, t, y, _ in c["rows"]])
    write_csv(os.path.join(d, "pred.csv"), ["id", "scalar_coupling_constant"], [[a, p] for a, _, _, p in c["rows"]])
    return "regression", {"group_column": "type", "metric": "mean_log_mean_absolute_error"}


SECTIONS = {"scale": (scale_case, scale_reference, scale_write),
            "columns": (columns_case, columns_reference, columns_write),
            "groups": (groups_case, groups_reference, groups_write),
            "weights": (weights_case, weights_reference, weights_write)}


def run_section(name, binary, n, seed):
    make, reference, write = SECTIONS[name]
    cases = [make(seed * 100003 + i) for i in range(n)]
    failures, compared = [], 0
    with ProcessPoolExecutor(2) as pool:
        refs = list(pool.map(reference, cases, chunksize=10))
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for i, c in enumerate(cases):
            d = os.path.join(tmp, str(i))
            os.mkdir(d)
            family, opts = write(c, d)
            jobs.append((binary, family, d, opts))
        with ThreadPoolExecutor(2) as pool:
            reports = list(pool.map(lambda j: run(*j), jobs))
    for c, want, rep in zip(cases, refs, reports):
        got = rep.get("scores")
        if got is None:
            failures.append(f"{name} case {c['seed']}: {rep.get('error', rep.get('diagnostics'))}"[:400])
            continue
        for m, w in want.items():
            compared += 1
            if not close(got.get(m), w):
                failures.append(f"{name} case {c['seed']}: {m} dropscore {got.get(m)!r} reference {w!r}")
    return len(cases), compared, failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--only", choices=sorted(SECTIONS))
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    a = ap.parse_args()
    failures, total, compared = [], 0, 0
    for name in [a.only] if a.only else list(SECTIONS):
        n, v, f = run_section(name, a.bin, a.cases, a.seed)
        print(f"kaggle_cols_diff {name}: {n} cases, {v} values compared, {len(f)} failures")
        total, compared, failures = total + n, compared + v, failures + f
    for f in failures[:25]:
        print("FAIL", f)
    print(f"kaggle_cols_diff: {total} cases, {compared} values compared, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
