#!/usr/bin/env python3
"""Differential test of dropscore `classification` with a weight column (option `weight_column`) against
scikit-learn's `sample_weight` (pinned in tests/reference/requirements-families.txt): the random cases of
classification_diff.py (2-12 classes, integer or string labels, hard labels / per-class scores / one binary
score, CSV quirks), each GT row given a weight: floats, small integers, many zeros, a few cases with every weight
0. Every metric must agree to 1e-12 relative (or 1e-15 absolute near 0), and be null exactly where scikit-learn
raises or returns NaN (every weight 0; `roc_auc_score(multi_class='ovo')`, which takes no sample_weight).

Usage: python3 tests/reference/classification_weights_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import os
import random
import sys
import tempfile
import warnings
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
from sklearn import metrics as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import classification_diff as base  # noqa: E402  (the cases, the CSV writer, the runner and the comparison)


def with_weights(case):
    """The case with a weight per GT row (`case["w"]`)."""
    r = random.Random(case["seed"] * 7 + 3)
    n = len(case["truth"])
    kind = r.choice(["float", "float", "int", "zeros", "tiny", "all_zero" if r.random() < 0.08 else "int"])
    if kind == "float":
        w = [r.uniform(0.0, 3.0) for _ in range(n)]
    elif kind == "int":
        w = [r.randint(0, 5) for _ in range(n)]
    elif kind == "zeros":
        w = [0.0 if r.random() < 0.6 else r.uniform(0.1, 10.0) for _ in range(n)]
    elif kind == "tiny":
        w = [r.uniform(1e-9, 1e-3) for _ in range(n)]
    else:
        w = [0] * n
    case["w"] = w
    case["wkind"] = kind
    case["opts"]["weight_column"] = "w"
    return case


def write_case(case, d):
    base.write_case(case, d)
    q = case["quirks"]
    ids = [(f" {i} " if q["spaces"] else i) for i in case["ids"]]
    rows = [[i, str(t), w] for i, t, w in zip(ids, case["truth"], case["w"])]
    base.write_csv(os.path.join(d, "gt.csv"), ["id", "label", "w"], rows, q)


def safe(f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = float(f())
        return None if np.isnan(v) or np.isinf(v) else v
    except (ValueError, ZeroDivisionError):
        return None


def reference(case):
    """Every metric the spec lists for this input, computed with scikit-learn and `sample_weight=w`."""
    classes, k, y, positive, layout, pred, S, out = base.readings(case)
    w = np.array(case["w"], dtype=np.float64)
    if pred is not None:
        out["accuracy"] = safe(lambda: M.accuracy_score(y, pred, sample_weight=w))
        out["balanced_accuracy"] = safe(lambda: M.balanced_accuracy_score(y, pred, sample_weight=w))
        extra = set(pred.tolist()) - set(classes)
        if k == 2 and positive is not None and not extra:
            for m, i in [("precision", 0), ("recall", 1), ("f1", 2)]:
                out[m] = safe(lambda i=i: M.precision_recall_fscore_support(
                    y, pred, pos_label=positive, average="binary", sample_weight=w)[i])
        for a in ["macro", "micro", "weighted"]:
            for m, i in [("precision", 0), ("recall", 1), ("f1", 2)]:
                out[f"{m}_{a}"] = safe(lambda a=a, i=i: M.precision_recall_fscore_support(
                    y, pred, average=a, zero_division=0, sample_weight=w)[i])
        out["matthews_corrcoef"] = safe(lambda: M.matthews_corrcoef(y, pred, sample_weight=w))
        for m, kw in [("cohen_kappa", None), ("cohen_kappa_linear", "linear"), ("cohen_kappa_quadratic", "quadratic")]:
            out[m] = safe(lambda kw=kw: M.cohen_kappa_score(y, pred, weights=kw, sample_weight=w))
    if layout == "labels":
        more = ["roc_auc", "average_precision", "log_loss", "brier_score"] if k == 2 else [
            "roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo", "average_precision", "log_loss", "brier_score",
            "top_k_accuracy"]
        out.update({m: None for m in more})
        return out
    if k == 2:
        P = positive if positive is not None else classes[1]
        yb = y == P
        s = np.array(case["binary"], dtype=np.float64) if layout == "binary" else S[:, classes.index(P)]
        out["roc_auc"] = safe(lambda: M.roc_auc_score(yb, s, sample_weight=w))
        out["average_precision"] = safe(lambda: M.average_precision_score(yb, s, sample_weight=w))
        out["log_loss"] = safe(lambda: M.log_loss(yb, s, sample_weight=w) if layout == "binary"
                               else M.log_loss(y, S, sample_weight=w))
        out["brier_score"] = safe(lambda: M.brier_score_loss(yb, s, sample_weight=w))
    else:
        out["roc_auc_ovr"] = safe(lambda: M.roc_auc_score(y, S, multi_class="ovr", sample_weight=w))
        out["roc_auc_ovr_weighted"] = safe(
            lambda: M.roc_auc_score(y, S, multi_class="ovr", average="weighted", sample_weight=w))
        out["roc_auc_ovo"] = safe(lambda: M.roc_auc_score(y, S, multi_class="ovo", sample_weight=w))
        out["brier_score"] = safe(lambda: M.brier_score_loss(y, S, sample_weight=w))
        out["average_precision"] = safe(lambda: M.average_precision_score(y, S, sample_weight=w))
        out["log_loss"] = safe(lambda: M.log_loss(y, S, sample_weight=w))
        kk = int(case["opts"].get("k", "3"))
        out["top_k_accuracy"] = safe(lambda: M.top_k_accuracy_score(y, S, k=kk, sample_weight=w))
    return out


LABEL_METRICS = {
    "accuracy": lambda y, p, w: M.accuracy_score(y, p, sample_weight=w),
    "balanced_accuracy": lambda y, p, w: M.balanced_accuracy_score(y, p, sample_weight=w),
    "matthews_corrcoef": lambda y, p, w: M.matthews_corrcoef(y, p, sample_weight=w),
    "cohen_kappa": lambda y, p, w: M.cohen_kappa_score(y, p, sample_weight=w),
}


def one_label_cases(binary, cases, seed):
    """One label in y_true, float weights, string labels, hard-label submissions: scikit-learn's
    matthews_corrcoef is 0.0 exactly when its n² − t·t is 0, with t and n the sums of its confusion matrix; the
    values must be equal (matthews exactly)."""
    failures = []
    with tempfile.TemporaryDirectory() as d:
        for c in range(cases):
            r = random.Random(seed * 1009 + c)
            n, labels = r.randint(2, 30), "abcde"[: r.randint(2, 5)]
            truth = [labels[0]] * n
            pred = [r.choice(labels) for _ in range(n)]
            w = [round(r.uniform(0.01, 3.0), r.choice([2, 6, 17])) for _ in range(n)]
            base.write_csv(f"{d}/gt.csv", ["id", "label", "w"], [[f"r{i}", truth[i], repr(w[i])] for i in range(n)],
                           {"semicolon": False, "crlf": False, "quote": False, "bom": False})
            base.write_csv(f"{d}/pred.csv", ["id", "label"], [[f"r{i}", pred[i]] for i in range(n)],
                           {"semicolon": False, "crlf": False, "quote": False, "bom": False})
            rep, rc = base.run_one((binary, d, {"opts": {"weight_column": "w"}, "quirks": {"semicolon": False}}))
            got = rep.get("scores") or {}
            for m, f in LABEL_METRICS.items():
                want = safe(lambda f=f: f(np.array(truth), np.array(pred), np.array(w)))
                ok = got.get(m) == want if m == "matthews_corrcoef" else base.close(got.get(m), want)
                if rc != 0 or not ok:
                    failures.append(f"one true label, case {c}: {m} dropscore {got.get(m)!r} sklearn {want!r}")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(base.ROOT, "target", "release", "dropscore")))
    a = ap.parse_args()
    cases = [with_weights(base.make_case(a.seed * 100003 + i)) for i in range(a.cases)]
    failures = []
    compared = nulls = 0
    with tempfile.TemporaryDirectory() as tmp:
        dirs = []
        for i, c in enumerate(cases):
            d = os.path.join(tmp, str(i))
            os.mkdir(d)
            write_case(c, d)
            dirs.append(d)
        with ProcessPoolExecutor(2) as pool:
            refs = list(pool.map(reference, cases, chunksize=20))
        with ThreadPoolExecutor(2) as pool:
            reports = list(pool.map(base.run_one, [(a.bin, d, c) for d, c in zip(dirs, cases)]))
    for c, want, (rep, rc) in zip(cases, refs, reports):
        got = rep.get("scores")
        what = f"case {c['seed']} ({c['layout']}, k={len(c['classes'])}, ints={c['ints']}, weights {c['wkind']})"
        if got is None or rc != 0:
            failures.append(f"{what}: exit {rc}: {str(rep)[:300]}")
            continue
        if set(got) != set(want):
            failures.append(f"{what}: metric ids {sorted(set(got) ^ set(want))} differ")
        for m, v in want.items():
            compared += 1
            nulls += v is None
            if not base.close(got.get(m), v):
                failures.append(f"{what}: {m} dropscore {got.get(m)!r} sklearn {v!r}")
    extra = one_label_cases(a.bin, a.cases // 2, a.seed)
    failures += extra
    for f in failures[:25]:
        print("FAIL", f)
    print(f"classification_weights_diff: {len(cases)} cases, {compared} values compared ({nulls} of them null "
          f"in scikit-learn), and {a.cases // 2} cases of one true label (4 label metrics each); "
          f"{len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
