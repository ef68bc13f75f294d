#!/usr/bin/env python3
"""Differential test of dropscore `regression` (docs/specs/families.md sections 2 and 5) against scikit-learn and
SciPy (pinned in tests/reference/requirements-families.txt): random cases (1-400 rows, integer-valued or
continuous targets, ties, constant columns, values in (-1, 0) and <= -1, zero targets for MAPE, shuffled rows,
CSV quirks). Every metric must agree to 1e-12 relative (or 1e-15 absolute near 0) and be null exactly where the
library raises or returns NaN.

Usage: python3 tests/reference/regression_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
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
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy import stats
from sklearn import metrics as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classification_diff import close, write_csv  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def make_case(seed):
    r = random.Random(seed)
    n = r.choice([1, 2, 3, r.randint(4, 30), r.randint(30, 400)])
    kind = r.choice(["normal", "positive", "ints", "const_t", "const_p", "zeros", "neg", "perfect", "noise"])
    t, p = [], []
    scale = 10.0 ** r.randint(-3, 4)
    for _ in range(n):
        if kind == "ints":
            a = float(r.randint(0, 5))
            b = float(r.randint(0, 5)) if r.random() < 0.5 else a + r.choice([0.5, -0.5, 0.0])
        elif kind == "positive":
            a = r.uniform(0, 100) * scale
            b = a * r.uniform(0.7, 1.3)
        elif kind == "neg":
            a = r.uniform(-0.99, 2.0)
            b = r.uniform(-1.5, 2.0)
        elif kind == "noise":
            a = r.gauss(0, 1) * scale
            b = r.gauss(0, 1) * scale
        elif kind == "zeros":
            a = r.choice([0.0, 0.0, 1.0, -2.0])
            b = r.choice([0.0, 0.5, 1.0])
        else:
            a = r.gauss(0, 1) * scale
            b = a + r.gauss(0, 0.5) * scale
        t.append(a)
        p.append(b)
    if kind == "const_t":
        t = [t[0]] * n
    if kind == "const_p":
        p = [p[0]] * n
    if kind == "perfect":
        p = t[:]
    if r.random() < 0.05:
        # Predictions near binary64's limit: the means overflow to inf (scikit-learn's value, null in JSON with
        # regression.not_finite naming it).
        for j in r.sample(range(n), max(1, n // 3)):
            p[j] = r.choice([1e308, -1e308, 1.7e308])
    if r.random() < 0.3:
        t = [round(x, 2) for x in t]
        p = [round(x, 2) for x in p]
    ids = [f"r{i}" for i in range(n)]
    q = {"bom": r.random() < 0.15, "crlf": r.random() < 0.25, "quote": r.random() < 0.2,
         "semicolon": r.random() < 0.1, "spaces": r.random() < 0.1}
    return {"seed": seed, "t": t, "p": p, "ids": ids, "quirks": q, "header": r.choice(["prediction", "pred", "value"])}


def raw(f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(f())
    except ValueError:
        return None


def unnamed_non_finite(case, rep):
    """The metrics whose library value is inf or NaN but that no diagnostic names (a silent null)."""
    t = np.array(case["t"], dtype=np.float64)
    p = np.array(case["p"], dtype=np.float64)
    named = " ".join(d["message"] for d in rep.get("diagnostics", [])
                     if d["code"] in ("regression.not_finite", "regression.log_undefined"))
    fns = {
        "mean_absolute_error": lambda: M.mean_absolute_error(t, p),
        "mean_squared_error": lambda: M.mean_squared_error(t, p),
        "root_mean_squared_error": lambda: M.root_mean_squared_error(t, p),
        "mean_absolute_percentage_error": lambda: M.mean_absolute_percentage_error(t, p),
        "r2": lambda: M.r2_score(t, p),
        "explained_variance": lambda: M.explained_variance_score(t, p),
    }
    out = []
    for m, f in fns.items():
        v = raw(f)
        if v is not None and not math.isfinite(v) and m not in named:
            out.append(f"{m} ({v})")
    return out


def safe(f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = float(f())
        return None if math.isnan(v) or math.isinf(v) else v
    except ValueError:
        return None


def reference(case):
    t = np.array(case["t"], dtype=np.float64)
    p = np.array(case["p"], dtype=np.float64)
    n = len(t)

    def smape():
        a, f = t, p
        den = np.abs(a) + np.abs(f)
        terms = np.where(den == 0, 0.0, 2 * np.abs(f - a) / np.where(den == 0, 1.0, den))
        return 100 / len(a) * np.sum(terms)

    return {
        "mean_absolute_error": safe(lambda: M.mean_absolute_error(t, p)),
        "mean_squared_error": safe(lambda: M.mean_squared_error(t, p)),
        "root_mean_squared_error": safe(lambda: M.root_mean_squared_error(t, p)),
        "mean_squared_log_error": safe(lambda: M.mean_squared_log_error(t, p)),
        "root_mean_squared_log_error": safe(lambda: M.root_mean_squared_log_error(t, p)),
        "mean_absolute_percentage_error": safe(lambda: M.mean_absolute_percentage_error(t, p)),
        "median_absolute_error": safe(lambda: M.median_absolute_error(t, p)),
        "max_error": safe(lambda: M.max_error(t, p)),
        "r2": safe(lambda: M.r2_score(t, p)),
        "explained_variance": safe(lambda: M.explained_variance_score(t, p)),
        "pearson": safe(lambda: stats.pearsonr(t, p).statistic) if n >= 2 else None,
        "spearman": safe(lambda: stats.spearmanr(t, p).statistic),
        "smape": safe(smape),
    }


def run_one(args):
    binary, d, case = args
    cmd = [binary, "regression", "--gt", os.path.join(d, "gt.csv"), "--pred", os.path.join(d, "pred.csv"), "--format", "json"]
    if case["quirks"]["semicolon"]:
        cmd += ["--set", "delimiter=;"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), p.returncode
    except json.JSONDecodeError:
        return {"error": p.stdout + p.stderr}, p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    a = ap.parse_args()
    cases = [make_case(a.seed * 100003 + i) for i in range(a.cases)]
    failures, compared = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for i, c in enumerate(cases):
            d = os.path.join(tmp, str(i))
            os.mkdir(d)
            q = c["quirks"]
            ids = [(f" {x} " if q["spaces"] else x) for x in c["ids"]]
            write_csv(os.path.join(d, "gt.csv"), ["id", "target"], [[x, v] for x, v in zip(ids, c["t"])], q)
            order = list(range(len(ids)))
            random.Random(c["seed"] + 1).shuffle(order)
            write_csv(os.path.join(d, "pred.csv"), ["id", c["header"]], [[ids[j], c["p"][j]] for j in order], q)
            jobs.append((a.bin, d, c))
        with ThreadPoolExecutor(2) as pool:
            reports = pool.map(run_one, jobs)
            refs = [reference(c) for c in cases]
            reports = list(reports)
    for c, want, (rep, rc) in zip(cases, refs, reports):
        got = rep.get("scores")
        if got is None or rc != 0:
            failures.append(f"case {c['seed']}: exit {rc}: {str(rep)[:300]}")
            continue
        if set(got) != set(want):
            failures.append(f"case {c['seed']}: metric ids {sorted(set(got) ^ set(want))} differ")
        for m, w in want.items():
            compared += 1
            if not close(got.get(m), w):
                failures.append(f"case {c['seed']} (n={len(c['t'])}): {m} dropscore {got.get(m)!r} reference {w!r}")
        silent = unnamed_non_finite(c, rep)
        if silent:
            failures.append(f"case {c['seed']}: null without a diagnostic where the library returns {', '.join(silent)}")
    for f in failures[:25]:
        print("FAIL", f)
    print(f"regression_diff: {len(cases)} cases, {compared} values compared, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
