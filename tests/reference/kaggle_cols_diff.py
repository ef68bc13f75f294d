#!/usr/bin/env python3
"""Differential test of the Kaggle conventions of the `classification` and `regression` families against the
libraries Kaggle's published metric code calls (pinned in tests/reference/requirements-kaggle.txt), one section
per convention, at least 300 random cases each:

- `scale`: label metrics with more classes than the full confusion matrix is kept for (1,025-2,600 classes;
  per-class counts only, docs/specs/families.md section 1) against scikit-learn 1.9's `accuracy_score`,
  `balanced_accuracy_score`, `precision_recall_fscore_support` (macro, micro, weighted; zero_division=0),
  `matthews_corrcoef` and `cohen_kappa_score` (None, linear, quadratic), to 1e-12 relative.

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


SECTIONS = {"scale": (scale_case, scale_reference, scale_write)}



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
