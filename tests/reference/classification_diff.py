#!/usr/bin/env python3
"""Differential test of dropscore `classification` (docs/specs/families.md sections 1 and 5) against scikit-learn
(pinned in tests/reference/requirements-families.txt): random cases with 2-12 classes, integer or string
labels, hard-label / per-class score / binary score submissions, rows not summing to 1, ties, shuffled rows and
CSV quirks (quoting, BOM, CRLF, `;` delimiter, spaces around ids). Every metric must agree to 1e-12 relative (or
1e-15 absolute near 0), and be null exactly where scikit-learn raises or returns NaN.

Usage: python3 tests/reference/classification_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
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
from sklearn import metrics as M

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORDS = ["cat", "dog", "Zebra", "ant", "éclair", "b", "B", "class 7", "x,y", 'q"t', "10", "z9", "Ωmega", "a-b"]


def make_case(seed):
    r = random.Random(seed)
    k = r.choice([2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 9, 12])
    ints = r.random() < 0.5
    if ints:
        base = r.choice([0, 0, 1, -3, 10])
        classes = sorted(r.sample(range(base, base + 3 * k + 2), k)) if r.random() < 0.4 else list(range(base, base + k))
    else:
        classes = sorted(r.sample(WORDS, k))
    n = r.randint(max(k, 5), 160)
    truth = classes[:] + [r.choice(classes) for _ in range(n - k)]
    r.shuffle(truth)
    ids = [f"id{i}" if r.random() < 0.9 else f"{i:05d}x" for i in range(n)]
    layouts = ["labels", "scores", "scores"] + (["binary", "binary"] if k == 2 else [])
    layout = r.choice(layouts)
    case = {"seed": seed, "classes": classes, "ints": ints, "ids": ids, "truth": truth, "layout": layout, "opts": {}}
    if k == 2 and (not ints or classes != [0, 1]):
        if r.random() < 0.6:
            case["opts"]["positive_label"] = str(r.choice(classes))
    if k >= 3:
        case["opts"]["k"] = str(r.randint(1, k))
    skill = r.random()
    decimals = r.choice([None, None, 1, 2, 3])
    if layout == "labels":
        extra = None
        # An extra integer label in a two-class problem makes a numeric column with a non-class value: the
        # binary score layout (spec section 5), so extras there are strings only.
        if r.random() < 0.15 and not (ints and k == 2):
            extra = (max(classes) + r.randint(1, 5)) if ints else r.choice(["zzz", "AAA", "m"])
        pred = []
        for t in truth:
            u = r.random()
            if u < skill:
                pred.append(t)
            elif extra is not None and u < skill + 0.1:
                pred.append(extra)
            else:
                pred.append(r.choice(classes))
        case["pred"] = pred
    elif layout == "scores":
        rows = []
        kind = r.choice(["dirichlet", "uniform", "big", "ties"])
        for t in truth:
            if kind == "dirichlet":
                w = [r.gammavariate(1.0, 1.0) + (2 * skill if c == t else 0) for c in classes]
                s = sum(w)
                row = [x / s for x in w]
            elif kind == "uniform":
                row = [r.random() * (1.5 if c == t else 1.0) for c in classes]
                row = [min(x, 1.0) for x in row]
            elif kind == "big":
                row = [r.random() * 10 + (3 if c == t else 0) for c in classes]
            else:
                row = [r.choice([0.0, 0.25, 0.5, 0.5, 1.0]) for c in classes]
                if sum(row) == 0:
                    row[r.randrange(k)] = 0.5
            if decimals is not None:
                row = [round(x, decimals) for x in row]
                if sum(row) == 0:
                    row[0] = 1.0
            rows.append(row)
        case["scores"] = rows
    else:
        vals = []
        for t in truth:
            pos = t == classes[1]
            v = min(1.0, max(0.0, r.gauss(0.5 + (skill - 0.3) * (0.4 if pos else -0.4), 0.25)))
            vals.append(round(v, decimals) if decimals else v)
        if all(v in (0.0, 1.0) for v in vals) or (not ints and False):
            vals[0] = 0.5
        case["binary"] = vals
    case["quirks"] = {
        "bom": r.random() < 0.15,
        "crlf": r.random() < 0.25,
        "quote": r.random() < 0.2,
        "semicolon": r.random() < 0.1,
        "spaces": r.random() < 0.1,
    }
    return case


def write_csv(path, header, rows, q):
    d = ";" if q["semicolon"] else ","
    nl = "\r\n" if q["crlf"] else "\n"

    def cell(x):
        s = x if isinstance(x, str) else repr(x) if isinstance(x, float) else str(x)
        if q["quote"] or d in s or '"' in s or "," in s or ";" in s:
            return '"' + s.replace('"', '""') + '"'
        return s

    text = nl.join(d.join(cell(c) for c in row) for row in [header] + rows) + nl
    with open(path, "w", encoding="utf-8-sig" if q["bom"] else "utf-8", newline="") as f:
        f.write(text)


def write_case(case, d):
    q = case["quirks"]
    ids = [(f" {i} " if q["spaces"] else i) for i in case["ids"]]
    write_csv(os.path.join(d, "gt.csv"), ["id", "label"], [[i, str(t)] for i, t in zip(ids, case["truth"])], q)
    order = list(range(len(ids)))
    random.Random(case["seed"] + 1).shuffle(order)
    if case["layout"] == "labels":
        rows = [[ids[i], str(case["pred"][i])] for i in order]
        header = ["id", "prediction"]
    elif case["layout"] == "scores":
        rows = [[ids[i]] + case["scores"][i] for i in order]
        header = ["id"] + [str(c) for c in case["classes"]]
    else:
        rows = [[ids[i], case["binary"][i]] for i in order]
        header = ["id", "score"]
    write_csv(os.path.join(d, "pred.csv"), header, rows, q)


def safe(f):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = float(f())
        return None if math.isnan(v) or math.isinf(v) else v
    except ValueError:
        return None


def readings(case):
    """What the references read from a case: the classes, their count k, the true labels y, the positive label
    (None: none), the layout, the predicted labels (None for one binary score), the score matrix S (None unless
    per-class scores), and every label metric's id set to None."""
    classes = case["classes"]
    k = len(classes)
    y = np.array(case["truth"], dtype=np.int64) if case["ints"] else np.array(case["truth"])
    pos = case["opts"].get("positive_label")
    positive = (int(pos) if case["ints"] else pos) if pos is not None else (1 if case["ints"] and classes == [0, 1] else None)
    layout = case["layout"]
    S = None
    if layout == "labels":
        pred = np.array(case["pred"], dtype=np.int64) if case["ints"] else np.array(case["pred"])
    elif layout == "scores":
        S = np.array(case["scores"], dtype=np.float64)
        pred = np.array(classes)[np.argmax(S, axis=1)]
    else:
        pred = None
    label_ids = ["accuracy", "balanced_accuracy"] + (["f1", "precision", "recall"] if k == 2 else []) + [
        f"{m}_{a}" for m in ["f1", "precision", "recall"] for a in ["macro", "micro", "weighted"]] + [
        "matthews_corrcoef", "cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic"]
    return classes, k, y, positive, layout, pred, S, {m: None for m in label_ids}


def reference(case):
    """The expected scores: every metric the spec lists for this input, computed with scikit-learn."""
    classes, k, y, positive, layout, pred, S, out = readings(case)
    if pred is not None:
        out["accuracy"] = safe(lambda: M.accuracy_score(y, pred))
        out["balanced_accuracy"] = safe(lambda: M.balanced_accuracy_score(y, pred))
        extra = set(pred.tolist()) - set(classes)
        # precision_recall_fscore_support returns what precision_score, recall_score and f1_score return (they
        # are thin wrappers of it), one call per average.
        if k == 2 and positive is not None and not extra:
            p, rc, f, _ = M.precision_recall_fscore_support(y, pred, pos_label=positive, average="binary")
            out["f1"], out["precision"], out["recall"] = float(f), float(p), float(rc)
        for a in ["macro", "micro", "weighted"]:
            p, rc, f, _ = M.precision_recall_fscore_support(y, pred, average=a, zero_division=0)
            out[f"f1_{a}"], out[f"precision_{a}"], out[f"recall_{a}"] = float(f), float(p), float(rc)
        out["matthews_corrcoef"] = safe(lambda: M.matthews_corrcoef(y, pred))
        out["cohen_kappa"] = safe(lambda: M.cohen_kappa_score(y, pred))
        out["cohen_kappa_linear"] = safe(lambda: M.cohen_kappa_score(y, pred, weights="linear"))
        out["cohen_kappa_quadratic"] = safe(lambda: M.cohen_kappa_score(y, pred, weights="quadratic"))
    if layout == "labels":
        # Score metrics stay in the headline as null (a leaderboard column always names a score).
        more = ["roc_auc", "average_precision", "log_loss", "brier_score"] if k == 2 else [
            "roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovo", "average_precision", "log_loss", "brier_score",
            "top_k_accuracy"]
        out.update({m: None for m in more})
        return out
    if k == 2:
        P = positive if positive is not None else classes[1]
        yb = y == P
        if layout == "binary":
            s = np.array(case["binary"], dtype=np.float64)
        else:
            s = S[:, classes.index(P)]
        out["roc_auc"] = safe(lambda: M.roc_auc_score(yb, s))
        out["average_precision"] = safe(lambda: M.average_precision_score(yb, s))
        out["log_loss"] = safe(lambda: M.log_loss(yb, s) if layout == "binary" else M.log_loss(y, S))
        out["brier_score"] = safe(lambda: M.brier_score_loss(yb, s))
    else:
        # The raw rows: scikit-learn raises (null) unless np.allclose(1, row sums), and scores them as given.
        out["roc_auc_ovr"] = safe(lambda: M.roc_auc_score(y, S, multi_class="ovr"))
        out["roc_auc_ovr_weighted"] = safe(lambda: M.roc_auc_score(y, S, multi_class="ovr", average="weighted"))
        # One-vs-one costs k(k-1) scikit-learn calls: checked on every third case (and all small ones) to keep the
        # script within its time budget; the others compare every other metric.
        if k <= 4 or case["seed"] % 3 == 0:
            out["roc_auc_ovo"] = safe(lambda: M.roc_auc_score(y, S, multi_class="ovo"))
        out["brier_score"] = safe(lambda: M.brier_score_loss(y, S))
        out["average_precision"] = safe(lambda: M.average_precision_score(y, S))
        out["log_loss"] = safe(lambda: M.log_loss(y, S))
        kk = int(case["opts"].get("k", "3"))
        out["top_k_accuracy"] = safe(lambda: M.top_k_accuracy_score(y, S, k=kk))
    return out


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b or abs(a - b) <= 1e-12 * max(abs(a), abs(b)) or abs(a - b) <= 1e-15


def run_one(args):
    binary, d, case = args
    cmd = [binary, "classification", "--gt", os.path.join(d, "gt.csv"), "--pred", os.path.join(d, "pred.csv"), "--format", "json"]
    opts = dict(case["opts"])
    if case["quirks"]["semicolon"]:
        opts["delimiter"] = ";"
    for kk, v in opts.items():
        cmd += ["--set", f"{kk}={v}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), p.returncode
    except json.JSONDecodeError:
        return {"error": p.stdout + p.stderr}, p.returncode


def fixed_cases():
    """Hand-written cases where the submission's shape or scikit-learn's checks decide: (name, GT rows, submission
    header and rows, options, the expected scores computed here with scikit-learn). Each failed before dropscore
    read a column by what the metric needs and checked multi-class rows as scikit-learn 1.9 does."""
    r = random.Random(5)
    y = [r.randint(0, 1) for _ in range(60)]
    p = [round(min(1, max(0, r.gauss(0.35 + 0.3 * t, 0.25))), 4) for t in y]
    hard = [int(v > 0.5) for v in p]
    churn = [[f"c{i}", t] for i, t in enumerate(y)]
    auc = {"label_column": "churn", "metric": "roc_auc"}
    cases = [
        # A probability column named as the GT's label column is a score column.
        ("churn_scores", ["customer_id", "churn"], churn, ["customer_id", "churn"], [[f"c{i}", v] for i, v in enumerate(p)],
         auc, {"roc_auc": M.roc_auc_score(y, p), "average_precision": M.average_precision_score(y, p),
               "log_loss": M.log_loss(y, p), "brier_score": M.brier_score_loss(y, p)}),
        # Hard 0/1 labels to an AUC competition: scikit-learn scores them as scores (labels metrics stay).
        ("churn_hard", ["customer_id", "churn"], churn, ["customer_id", "churn"], [[f"c{i}", v] for i, v in enumerate(hard)],
         auc, {"roc_auc": M.roc_auc_score(y, hard), "accuracy": M.accuracy_score(y, hard),
               "brier_score": M.brier_score_loss(y, hard)}),
        # A third column does not switch the score column off.
        ("churn_third_column", ["customer_id", "churn"], churn, ["customer_id", "churn", "note"],
         [[f"c{i}", v, "x"] for i, v in enumerate(p)], auc, {"roc_auc": M.roc_auc_score(y, p)}),
    ]
    # Multi-class rows within np.allclose of 1 are scored raw (renormalising changes the ranking), rows
    # further off make scikit-learn raise (null).
    y3 = ["a", "b", "c", "a"]
    raw = [[0.4, 0.3, 0.300001], [0.3999998, 0.4, 0.2000002], [0.2, 0.2, 0.6], [0.5, 0.25, 0.25]]
    off = [[0.4, 0.3, 0.3], [0.3, 0.4, 0.3], [0.2, 0.2, 0.599], [0.5, 0.25, 0.25]]
    for name, rows in [("ovr_raw_rows", raw), ("ovr_rows_off", off)]:
        S = np.array(rows)
        want = {m: safe(lambda mc=mc, av=av: M.roc_auc_score(y3, S, multi_class=mc, average=av))
                for m, mc, av in [("roc_auc_ovr", "ovr", "macro"), ("roc_auc_ovr_weighted", "ovr", "weighted"),
                                  ("roc_auc_ovo", "ovo", "macro")]}
        want["brier_score"] = safe(lambda: M.brier_score_loss(y3, S))
        want["log_loss"] = safe(lambda: M.log_loss(y3, S))
        cases.append((name, ["id", "label"], [[f"i{j}", t] for j, t in enumerate(y3)], ["id", "a", "b", "c"],
                      [[f"i{j}"] + row for j, row in enumerate(rows)], {}, want))
    # A ground truth of one class (0 or 1), as a test subset may be: scikit-learn still scores the binary
    # problem (pos_label=1; zero_division's 0.0 after its warning), a score column stays a score column, and
    # roc_auc (NaN) and log_loss (raises) are null.
    for c in (0, 1):
        ys = [c] * 6
        for name, vals in [("labels", [0, 1, 0, 0, 1, 0]), ("same_labels", [c] * 6)]:
            want = {m: safe(lambda f=f: f(ys, vals)) for m, f in
                    [("f1", M.f1_score), ("precision", M.precision_score), ("recall", M.recall_score),
                     ("accuracy", M.accuracy_score)]}
            want["f1_macro"] = safe(lambda: M.f1_score(ys, vals, average="macro", zero_division=0))
            cases.append((f"single_class_{c}_{name}", ["id", "label"], [[f"i{j}", t] for j, t in enumerate(ys)],
                          ["id", "label"], [[f"i{j}", v] for j, v in enumerate(vals)], {}, want))
        sc = [0.2, 0.7, 0.4, 0.9, 0.1, 0.55]
        want = {"roc_auc": safe(lambda: M.roc_auc_score(ys, sc)),
                "average_precision": safe(lambda: M.average_precision_score(ys, sc)),
                "brier_score": safe(lambda: M.brier_score_loss(ys, sc)), "log_loss": None}
        cases.append((f"single_class_{c}_scores", ["id", "label"], [[f"i{j}", t] for j, t in enumerate(ys)],
                      ["id", "score"], [[f"i{j}", v] for j, v in enumerate(sc)], {}, want))
    return cases


def run_fixed(binary):
    failures = []
    with tempfile.TemporaryDirectory() as d:
        for name, gh, gt, ph, pred, opts, want in fixed_cases():
            q = {"semicolon": False, "crlf": False, "quote": False, "bom": False}
            write_csv(os.path.join(d, "gt.csv"), gh, [[str(c) for c in row] for row in gt], q)
            write_csv(os.path.join(d, "pred.csv"), ph, [[str(c) for c in row] for row in pred], q)
            cmd = [binary, "classification", "--gt", os.path.join(d, "gt.csv"), "--pred", os.path.join(d, "pred.csv"),
                   "--format", "json"]
            for kk, v in opts.items():
                cmd += ["--set", f"{kk}={v}"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            try:
                got = json.loads(p.stdout)["scores"]
            except (json.JSONDecodeError, KeyError):
                failures.append(f"{name}: exit {p.returncode}: {p.stderr[:300]}")
                continue
            for m, w in want.items():
                w = None if w is None else safe(lambda w=w: w)
                if not close(got.get(m), w):
                    failures.append(f"{name}: {m} dropscore {got.get(m)!r} sklearn {w!r}")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    a = ap.parse_args()
    cases = [make_case(a.seed * 100003 + i) for i in range(a.cases)]
    failures = []
    compared = 0
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
            reports = list(pool.map(run_one, [(a.bin, d, c) for d, c in zip(dirs, cases)]))
    for c, want, (rep, rc) in zip(cases, refs, reports):
        got = rep.get("scores")
        if got is None or rc != 0:
            failures.append(f"case {c['seed']}: exit {rc}: {str(rep)[:300]}")
            continue
        if set(got) != set(want) | ({"roc_auc_ovo"} if "roc_auc_ovr" in want else set()):
            failures.append(f"case {c['seed']} ({c['layout']}, k={len(c['classes'])}): metric ids {sorted(set(got) ^ set(want))} differ")
        for m, w in want.items():
            compared += 1
            if not close(got.get(m), w):
                failures.append(f"case {c['seed']} ({c['layout']}, k={len(c['classes'])}, ints={c['ints']}): {m} dropscore {got.get(m)!r} sklearn {w!r}")
    fixed = run_fixed(a.bin)
    failures += fixed
    for f in failures[:25]:
        print("FAIL", f)
    print(f"classification_diff: {len(cases)} cases, {compared} values compared, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
