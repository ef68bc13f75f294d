#!/usr/bin/env python3
"""Differential test of dropscore's bootstrap intervals (docs/specs/statistics.md) against NumPy + scikit-learn +
SciPy (pinned in tests/reference/requirements-stats.txt): random `classification` cases (also with a
`weight_column`: `sample_weight` = the row's weight × its draw count), `regression` cases, and `detection` cases
against pycocotools on the repeated images (tests/reference/requirements-vision.txt), with a
random seed, B and confidence. The draws are NumPy's `default_rng(seed).integers(0, n, size=(B, n))`; each
replicate is the reference metric with `sample_weight` = the draw counts (scikit-learn's weighted metrics) or on
the repeated rows (one-vs-one ROC AUC, the median, Pearson, Spearman: no weights there); the interval is
`numpy.percentile(values, [100(1-c)/2, 100(1+c)/2])` and `numpy.std(values, ddof=1)` over the defined replicates,
null when more than 5 % are undefined. Every bound must agree to 1e-10 relative (the replicates agree to 1e-12;
a percentile interpolates two of them), `left_out` exactly.

Usage: python3 tests/reference/stats_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
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

import numpy as np
from scipy import stats as S
from sklearn import metrics as M

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
warnings.filterwarnings("ignore")


def write_csv(path, header, rows):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")


def safe(f):
    try:
        v = float(f())
    except (ValueError, ZeroDivisionError, IndexError):
        return None
    return v if math.isfinite(v) else None


def classification_case(r, d, weighted=False):
    """A random case; `weighted`: the GT has a weight column `w` (option weight_column), and a replicate is the
    metric with sample_weight = the row's weight × its draw count."""
    k = r.choice([2, 2, 3, 4])
    n = r.randint(max(k, 6), 60)
    y = list(range(k)) + [r.randrange(k) for _ in range(n - k)]
    r.shuffle(y)
    y = np.array(y)
    layout = r.choice(["labels", "scores"])
    ids = [f"id{i}" for i in range(n)]
    write_csv(os.path.join(d, "gt.csv"), ["id", "label"], zip(ids, y))
    if layout == "labels":
        p = np.array([t if r.random() < 0.7 else r.randrange(k) for t in y])
        write_csv(os.path.join(d, "pred.csv"), ["id", "label"], zip(ids, p))
        P = None
    else:
        raw = np.array([[r.random() + (2.0 if c == t and r.random() < 0.6 else 0.0) for c in range(k)] for t in y])
        raw = np.round(raw, r.choice([1, 2, 6]))  # ties
        raw[raw.sum(axis=1) == 0] = 1.0  # a row of zeros would divide 0 by 0 (a NaN score, refused)
        P = raw / raw.sum(axis=1, keepdims=True)
        P = np.array([[float(v) for v in row] for row in P])
        rows = [[ids[i]] + [repr(float(v)) for v in P[i]] for i in range(n)]
        write_csv(os.path.join(d, "pred.csv"), ["id"] + [str(c) for c in range(k)], rows)
        p = P.argmax(axis=1)
    labels = list(range(k))
    gw = None
    if weighted:
        # Multiples of 1/8: every sum of weights is exact, in any order. With inexact sums, a replicate whose
        # drawn rows hold one class can give Matthews' correlation 0.0 in scikit-learn (its covariances round to 0)
        # and undefined here (they round to ±1 ulp), or the reverse: the weighted metric's own float edge.
        gw = np.array([0.0 if r.random() < 0.1 else r.randint(1, 24) / 8 for _ in range(n)])
        write_csv(os.path.join(d, "gt.csv"), ["id", "label", "w"], zip(ids, y, [repr(float(v)) for v in gw]))

    def metric(mid, w):
        rep = np.repeat(np.arange(n), w)
        if gw is not None:
            if mid == "roc_auc_ovo":
                return None  # scikit-learn raises with sample_weight
            w = w * gw
            if not np.any(w):
                return None  # every weight 0: the weighted report gives no score (most of scikit-learn raises)
        f = {
            "accuracy": lambda: M.accuracy_score(y, p, sample_weight=w),
            "balanced_accuracy": lambda: M.balanced_accuracy_score(y, p, sample_weight=w),
            "f1": lambda: M.f1_score(y, p, pos_label=1, sample_weight=w),
            "precision": lambda: M.precision_score(y, p, pos_label=1, sample_weight=w),
            "recall": lambda: M.recall_score(y, p, pos_label=1, sample_weight=w),
            "matthews_corrcoef": lambda: M.matthews_corrcoef(y, p, sample_weight=w),
            "cohen_kappa": lambda: M.cohen_kappa_score(y, p, sample_weight=w),
            "cohen_kappa_linear": lambda: M.cohen_kappa_score(y, p, weights="linear", sample_weight=w),
            "cohen_kappa_quadratic": lambda: M.cohen_kappa_score(y, p, weights="quadratic", sample_weight=w),
        }
        for avg in ["macro", "micro", "weighted"]:
            f[f"f1_{avg}"] = lambda a=avg: M.f1_score(y, p, average=a, sample_weight=w)
            f[f"precision_{avg}"] = lambda a=avg: M.precision_score(y, p, average=a, sample_weight=w)
            f[f"recall_{avg}"] = lambda a=avg: M.recall_score(y, p, average=a, sample_weight=w)
        if P is not None and k == 2:
            f["roc_auc"] = lambda: M.roc_auc_score(y, P[:, 1], sample_weight=w)
            f["average_precision"] = lambda: M.average_precision_score(y, P[:, 1], sample_weight=w)
            f["log_loss"] = lambda: M.log_loss(y, P, labels=labels, sample_weight=w)
            f["brier_score"] = lambda: M.brier_score_loss(y, P[:, 1], sample_weight=w)
        if P is not None and k > 2:
            f["roc_auc_ovr"] = lambda: M.roc_auc_score(y, P, multi_class="ovr", labels=labels, sample_weight=w)
            f["roc_auc_ovr_weighted"] = lambda: M.roc_auc_score(
                y, P, multi_class="ovr", average="weighted", labels=labels, sample_weight=w
            )
            f["roc_auc_ovo"] = lambda: M.roc_auc_score(y[rep], P[rep], multi_class="ovo")
            yb = np.eye(k)[y]
            f["average_precision"] = lambda: M.average_precision_score(yb, P, sample_weight=w)
            f["log_loss"] = lambda: M.log_loss(y, P, labels=labels, sample_weight=w)
            f["brier_score"] = lambda: M.brier_score_loss(y, P, labels=labels, sample_weight=w)
            f["top_k_accuracy"] = lambda: M.top_k_accuracy_score(y, P, k=3, labels=labels, sample_weight=w)
        g = f.get(mid)
        return "skip" if g is None else safe(g)

    return "classification", n, metric


def regression_case(r, d):
    n = r.randint(3, 60)
    t = np.array([round(r.uniform(-0.5, 50), r.choice([0, 1, 3])) for _ in range(n)])
    p = np.array([round(v + r.gauss(0, 5), r.choice([0, 2, 6])) for v in t])
    ids = [f"r{i}" for i in range(n)]
    write_csv(os.path.join(d, "gt.csv"), ["id", "target"], [(i, repr(float(v))) for i, v in zip(ids, t)])
    write_csv(os.path.join(d, "pred.csv"), ["id", "target"], [(i, repr(float(v))) for i, v in zip(ids, p)])

    def metric(mid, w):
        tr, pr = np.repeat(t, w), np.repeat(p, w)
        f = {
            "mean_absolute_error": lambda: M.mean_absolute_error(t, p, sample_weight=w),
            "mean_squared_error": lambda: M.mean_squared_error(t, p, sample_weight=w),
            "root_mean_squared_error": lambda: M.root_mean_squared_error(t, p, sample_weight=w),
            "mean_squared_log_error": lambda: M.mean_squared_log_error(t, p, sample_weight=w),
            "root_mean_squared_log_error": lambda: M.root_mean_squared_log_error(t, p, sample_weight=w),
            "mean_absolute_percentage_error": lambda: M.mean_absolute_percentage_error(t, p, sample_weight=w),
            "median_absolute_error": lambda: np.median(np.abs(pr - tr)),
            "max_error": lambda: M.max_error(tr, pr),
            "r2": lambda: M.r2_score(t, p, sample_weight=w) if len(tr) >= 2 else float("nan"),
            "explained_variance": lambda: M.explained_variance_score(t, p, sample_weight=w),
            "pearson": lambda: S.pearsonr(tr, pr).statistic,
            "spearman": lambda: S.spearmanr(tr, pr).statistic,
            # Kaggle's SMAPE, as the protocol and regression_diff.py define it: a row with 0 on both sides adds 0.
            "smape": lambda: 100 / len(tr) * np.sum(np.where(np.abs(tr) + np.abs(pr) == 0, 0.0,
                                                             2 * np.abs(pr - tr) / np.where(np.abs(tr) + np.abs(pr) == 0, 1.0, np.abs(tr) + np.abs(pr)))),
        }
        g = f.get(mid)
        return "skip" if g is None else safe(g)

    return "regression", n, metric


STAT_IDS = ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]


def coco_case(r):
    """A random COCO set: boxes on a coarse grid (equal IoUs), scores from a few values (ties within an image and
    across images), crowd boxes, every area range; image ids listed out of order."""
    n_img = r.randint(3, 12)
    ids = r.sample(range(1, 500), n_img)
    anns, dets = [], []
    for img in ids:
        for _ in range(r.randrange(6)):
            b = [r.randrange(4) * 10, r.randrange(4) * 10, 5 + r.randrange(6) * 10, 5 + r.randrange(6) * 10]
            anns.append({"id": len(anns) + 1, "image_id": img, "category_id": r.randint(1, 2), "bbox": b,
                         "area": float(b[2] * b[3]), "iscrowd": int(r.random() < 0.15)})
        for _ in range(r.randrange(9)):
            b = [r.randrange(4) * 10, r.randrange(4) * 10, 5 + r.randrange(6) * 10, 5 + r.randrange(6) * 10]
            dets.append({"image_id": img, "category_id": r.randint(1, 2), "bbox": b,
                         "score": r.choice([0.9, 0.5, 0.5, 0.3, 0.1])})
    cats = [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]
    return {"images": [{"id": i} for i in ids], "annotations": anns, "categories": cats}, dets


def pycocotools_stats(gt, dets, counts):
    """pycocotools' stats on the set in which GT image u (in `images` order) appears counts[u] times: copy c of
    the image of sorted rank s gets id s * 1000 + c + 1 (copies adjacent in sorted order), annotations new ids."""
    import contextlib
    import io
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    rank = {i: s for s, i in enumerate(sorted(x["id"] for x in gt["images"]))}
    images, anns, res = [], [], []
    for img, k in zip(gt["images"], counts):
        for c in range(k):
            new = rank[img["id"]] * 1000 + c + 1
            images.append({"id": new})
            for a in gt["annotations"]:
                if a["image_id"] == img["id"]:
                    anns.append(dict(a, image_id=new, id=len(anns) + 1))
            res += [dict(d, image_id=new) for d in dets if d["image_id"] == img["id"]]
    if not res:
        return [None] * 12  # loadRes fails on an empty list
    with contextlib.redirect_stdout(io.StringIO()):
        g = COCO()
        g.dataset = {"images": images, "annotations": anns, "categories": gt["categories"]}
        g.createIndex()
        e = COCOeval(g, g.loadRes(res), "bbox")
        e.evaluate()
        e.accumulate()
        e.summarize()
    return [None if v == -1 else float(v) for v in e.stats]


def detection_case(binary, case_seed):
    """`detection` intervals against pycocotools on the repeated sets of NumPy's draws."""
    r = random.Random(case_seed)
    B, seed, conf = r.choice([20, 40]), r.randrange(2**32), r.choice([0.9, 0.95])
    gt, dets = coco_case(r)
    if not dets:
        return 0, []
    with tempfile.TemporaryDirectory() as d:
        json.dump(gt, open(f"{d}/gt.json", "w"))
        json.dump(dets, open(f"{d}/res.json", "w"))
        opts = ["--set", f"bootstrap={B}", "--set", f"seed={seed}", "--set", f"confidence={conf}"]
        out = subprocess.run([binary, "detection", "--gt", f"{d}/gt.json", "--pred", f"{d}/res.json", "--format",
                              "json", "-q"] + opts, capture_output=True, text=True)
        rep = json.loads(out.stdout)
    n = len(gt["images"])
    draws = np.random.default_rng(seed).integers(0, n, size=(B, n))
    values = [pycocotools_stats(gt, dets, np.bincount(row, minlength=n)) for row in draws]
    errors = []
    for mid, iv in rep.get("intervals", {}).items():
        defined = np.array([v[STAT_IDS.index(mid)] for v in values if v[STAT_IDS.index(mid)] is not None])
        left = B - len(defined)
        if left > 0.05 * B or len(defined) == 0:
            want = (None, None, None)
        else:
            lo, hi = np.percentile(defined, [100 * (1 - conf) / 2, 100 * (1 + conf) / 2])
            want = (float(lo), float(hi), float(np.std(defined, ddof=1)))
        got = (iv["low"], iv["high"], iv["se"])
        if iv["left_out"] != left or not all(close(a, b) for a, b in zip(got, want)):
            errors.append(f"detection case {case_seed} {mid}: got {got} left {iv['left_out']}, want {want} left {left}")
    return len(rep.get("intervals", {})), errors


def close(a, b, rel=1e-10):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-14


def run_case(binary, case_seed, weighted=False):
    """A random classification or regression case; `weighted`: a classification case with a weight column."""
    r = random.Random(case_seed)
    B = r.choice([40, 100, 200])
    seed = r.randrange(2**32)
    conf = r.choice([0.9, 0.95, 0.99])
    with tempfile.TemporaryDirectory() as d:
        if weighted:
            proto, n, metric = classification_case(r, d, weighted=True)
        else:
            proto, n, metric = (classification_case if r.random() < 0.6 else regression_case)(r, d)
        opts = ["--set", f"bootstrap={B}", "--set", f"seed={seed}", "--set", f"confidence={conf}"]
        if proto == "classification":
            opts += ["--set", "k=3"]
        if weighted:
            opts += ["--set", "weight_column=w"]
        out = subprocess.run(
            [binary, proto, "--gt", f"{d}/gt.csv", "--pred", f"{d}/pred.csv", "--format", "json"] + opts,
            capture_output=True,
            text=True,
        )
        rep = json.loads(out.stdout)
    draws = np.random.default_rng(seed).integers(0, n, size=(B, n))
    counts = [np.bincount(row, minlength=n) for row in draws]
    errors = []
    st = rep.get("statistics")
    if st != {"unit": "row", "strata": None, "bootstrap": B, "seed": seed, "confidence": conf}:
        errors.append(f"statistics {st}")
    for mid, iv in rep.get("intervals", {}).items():
        values = [metric(mid, w) for w in counts]
        if "skip" in values:
            continue
        defined = np.array([v for v in values if v is not None])
        left = B - len(defined)
        if left > 0.05 * B or len(defined) == 0:
            want = (None, None, None)
        else:
            lo, hi = np.percentile(defined, [100 * (1 - conf) / 2, 100 * (1 + conf) / 2])
            want = (float(lo), float(hi), float(np.std(defined, ddof=1)))
        got = (iv["low"], iv["high"], iv["se"])
        if iv["left_out"] != left or not all(close(a, b) for a, b in zip(got, want)):
            errors.append(f"{proto} case {case_seed} {mid}: got {got} left {iv['left_out']}, want {want} left {left}")
    return proto, len(rep.get("intervals", {})), errors


def compare_case(binary, case_seed):
    """`dropscore compare regression`: Δ, its paired interval, p_bootstrap, p_randomization and wins/ties/losses
    against NumPy (exchanges from default_rng(seed + 1).integers(0, 2, size=(R, n)))."""
    r = random.Random(case_seed)
    B, R = r.choice([50, 200]), r.choice([100, 500])
    seed, conf = r.randrange(2**32), r.choice([0.9, 0.95])
    metric = r.choice(["mean_absolute_error", "root_mean_squared_error", "r2", "mean_squared_error"])
    with tempfile.TemporaryDirectory() as d:
        _, n, _ = regression_case(r, d)
        os.rename(f"{d}/pred.csv", f"{d}/a.csv")
        t = np.array([float(l.split(",")[1]) for l in open(f"{d}/gt.csv").read().splitlines()[1:]])
        a = np.array([float(l.split(",")[1]) for l in open(f"{d}/a.csv").read().splitlines()[1:]])
        b = np.round(t + np.array([r.gauss(0, 5) for _ in range(n)]), 3)
        write_csv(f"{d}/b.csv", ["id", "target"], [(f"r{i}", repr(float(v))) for i, v in enumerate(b)])
        opts = ["--set", f"bootstrap={B}", "--set", f"seed={seed}", "--set", f"confidence={conf}"]
        opts += ["--set", f"permutations={R}", "--set", f"metric={metric}"]
        out = subprocess.run(
            [binary, "compare", "regression", "--gt", f"{d}/gt.csv", "--pred", f"{d}/a.csv", "--vs", f"{d}/b.csv"]
            + opts + ["--format", "json", "-q"],
            capture_output=True,
            text=True,
        )
        c = json.loads(out.stdout)["compare"]
    f = {
        "mean_absolute_error": lambda t, p, w=None: M.mean_absolute_error(t, p, sample_weight=w),
        "mean_squared_error": lambda t, p, w=None: M.mean_squared_error(t, p, sample_weight=w),
        "root_mean_squared_error": lambda t, p, w=None: M.root_mean_squared_error(t, p, sample_weight=w),
        "r2": lambda t, p, w=None: M.r2_score(t, p, sample_weight=w),
    }[metric]
    ea, eb = np.abs(a - t), np.abs(b - t)
    ties = int(sum(eq(-x, -y) for x, y in zip(ea, eb)))
    wins = int(sum(1 for x, y in zip(ea, eb) if not eq(-x, -y) and x < y))
    return check_compare(
        f"compare case {case_seed} {metric}", c, lambda p, w=None: f(t, p, w), (a, b), (seed, B, R, conf), (wins, ties)
    )


def eq(x, y):
    """Equal within 1e-12 relative, as dropscore's paired test compares two values."""
    return x == y or abs(x - y) <= 1e-12 * max(abs(x), abs(y))


def check_compare(name, c, f, ab, settings, wins_ties):
    """The errors of `dropscore compare`'s report `c` against NumPy: `f(pred, sample_weight)` the metric, `ab`
    the two submissions' predictions; Δ and its percentile interval over the paired replicates (draws
    `default_rng(seed).integers(0, n, size=(B, n))`, the replicates where both are defined), p_bootstrap,
    p_randomization (exchanges `default_rng(seed + 1).integers(0, 2, size=(R, n))`) and wins/ties/losses."""
    (a, b), (seed, B, R, conf), (wins, ties) = ab, settings, wins_ties
    n = len(a)
    full = f(a) - f(b)
    draws = np.random.default_rng(seed).integers(0, n, size=(B, n))
    pairs = [(f(a, np.bincount(row, minlength=n)), f(b, np.bincount(row, minlength=n))) for row in draws]
    pairs = [(x, y) for x, y in pairs if math.isfinite(x) and math.isfinite(y)]
    lo, hi = np.percentile([x - y for x, y in pairs], [100 * (1 - conf) / 2, 100 * (1 + conf) / 2])
    if eq(f(a), f(b)):
        p_boot = 1.0
    else:
        p_boot = sum(0.5 if eq(x, y) else float((x > y) != (full > 0)) for x, y in pairs) / len(pairs)
    flips = np.random.default_rng(seed + 1).integers(0, 2, size=(R, n)) == 1
    rounds = [f(np.where(fl, b, a)) - f(np.where(fl, a, b)) for fl in flips]
    p_rand = (1 + sum(1 for x in rounds if abs(x) >= abs(full) or eq(abs(x), abs(full)))) / (1 + R)
    errors = []
    for what, got, want in [("delta", c["delta"], full), ("low", c["low"], lo), ("high", c["high"], hi)]:
        if not close(got, float(want)):
            errors.append(f"{name} {what}: got {got}, want {want}")
    if c["p_bootstrap"] != p_boot or c["p_randomization"] != p_rand:
        errors.append(f"{name}: p {c['p_bootstrap']} {c['p_randomization']}, want {p_boot} {p_rand}")
    if (c["wins"], c["ties"], c["losses"]) != (wins, ties, n - wins - ties):
        errors.append(f"{name}: wins/ties/losses {c['wins']} {c['ties']} {c['losses']}, want {wins} {ties}")
    return errors


def weighted_compare_case(binary, case_seed):
    """`dropscore compare classification` with a `weight_column`: Δ, its paired interval, p_bootstrap,
    p_randomization (rows exchanged, each keeping its GT weight) and wins/ties/losses (rows right or wrong)
    against scikit-learn with sample_weight = the row's weight (× its draw count in a replicate)."""
    r = random.Random(case_seed)
    B, R = r.choice([50, 200]), r.choice([100, 300])
    seed, conf = r.randrange(2**32), r.choice([0.9, 0.95])
    metric = r.choice(["accuracy", "f1_macro", "balanced_accuracy", "cohen_kappa"])
    n, labels = r.randrange(20, 80), ["ant", "bee", "cat"][: r.choice([2, 3])]
    t = [r.choice(labels) for _ in range(n)]
    w = np.array([r.choice([0.25, 0.5, 1.0, 1.5, 2.0, 3.125]) for _ in range(n)])
    a = np.array([y if r.random() < 0.7 else r.choice(labels) for y in t])
    b = np.array([y if r.random() < 0.55 else r.choice(labels) for y in t])
    t = np.array(t)
    with tempfile.TemporaryDirectory() as d:
        write_csv(f"{d}/gt.csv", ["id", "label", "w"], [(f"r{i}", t[i], w[i]) for i in range(n)])
        write_csv(f"{d}/a.csv", ["id", "label"], [(f"r{i}", a[i]) for i in range(n)])
        write_csv(f"{d}/b.csv", ["id", "label"], [(f"r{i}", b[i]) for i in range(n)])
        opts = ["--set", "weight_column=w", "--set", f"bootstrap={B}", "--set", f"seed={seed}"]
        opts += ["--set", f"confidence={conf}", "--set", f"permutations={R}", "--set", f"metric={metric}"]
        out = subprocess.run(
            [binary, "compare", "classification", "--gt", f"{d}/gt.csv", "--pred", f"{d}/a.csv", "--vs", f"{d}/b.csv"]
            + opts + ["--format", "json", "-q"],
            capture_output=True,
            text=True,
        )
        c = json.loads(out.stdout)["compare"]
    f = {
        "accuracy": lambda p, sw: M.accuracy_score(t, p, sample_weight=sw),
        "f1_macro": lambda p, sw: M.f1_score(t, p, average="macro", zero_division=0, sample_weight=sw),
        "balanced_accuracy": lambda p, sw: M.balanced_accuracy_score(t, p, sample_weight=sw),
        "cohen_kappa": lambda p, sw: M.cohen_kappa_score(t, p, sample_weight=sw),
    }[metric]
    ra, rb = a == t, b == t
    wins, ties = int(np.sum(ra & ~rb)), int(np.sum(ra == rb))
    return check_compare(
        f"weighted compare case {case_seed} {metric}",
        c,
        lambda p, counts=None: f(p, w if counts is None else w * counts),
        (a, b),
        (seed, B, R, conf),
        (wins, ties),
    )


def want_interval(values, B, conf):
    """The interval of `values` (None = undefined replicate) as docs/specs/statistics.md section 2 defines it."""
    defined = np.array([v for v in values if v is not None and not math.isnan(v)])
    left = B - len(defined)
    if left > 0.05 * B or len(defined) == 0:
        return (None, None, None), left
    lo, hi = np.percentile(defined, [100 * (1 - conf) / 2, 100 * (1 + conf) / 2])
    return (float(lo), float(hi), float(np.std(defined, ddof=1))), left


def check_intervals(name, rep, values_of, B, conf):
    """Each interval of the report against `values_of(metric id)` (one value per replicate)."""
    errors = []
    for mid, iv in rep.get("intervals", {}).items():
        want, left = want_interval(values_of(mid), B, conf)
        got = (iv["low"], iv["high"], iv["se"])
        if iv["left_out"] != left or not all(close(a, b) for a, b in zip(got, want)):
            errors.append(f"{name} {mid}: got {got} left {iv['left_out']}, want {want} left {left}")
    return errors


def segmentation_case(binary, case_seed):
    """`segmentation` intervals against the NumPy transcription of mmsegmentation's IoUMetric
    (tests/reference/segmentation_diff.py) on the repeated label maps of NumPy's draws: image u (files
    img{u:03}.png, the report's order) appears counts[u] times."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import segmentation_diff as SD

    r = random.Random(case_seed)
    B, seed, conf = r.choice([30, 60]), r.randrange(2**32), r.choice([0.9, 0.95])
    C, ignore, reduce, pairs, bad = SD.make_case(r)
    if bad is not None:
        return 0, []
    n = len(pairs)
    with tempfile.TemporaryDirectory() as d:
        for sub in ("gt", "pred"):
            os.mkdir(f"{d}/{sub}")
        for u, (g, p) in enumerate(pairs):
            SD.write(f"{d}/gt/img{u:03}.png", g, "L8")
            SD.write(f"{d}/pred/img{u:03}.png", p, "L8")
        opts = ["--set", f"num_classes={C}", "--set", f"ignore_index={ignore}",
                "--set", f"reduce_zero_label={'true' if reduce else 'false'}"]
        opts += ["--set", f"bootstrap={B}", "--set", f"seed={seed}", "--set", f"confidence={conf}"]
        out = subprocess.run([binary, "segmentation", "--gt", f"{d}/gt", "--pred", f"{d}/pred", "--format", "json",
                              "-q"] + opts, capture_output=True, text=True)
        rep = json.loads(out.stdout)
    draws = np.random.default_rng(seed).integers(0, n, size=(B, n))
    values = []
    for row in draws:
        counts = np.bincount(row, minlength=n)
        repeated = [pairs[u] for u in range(n) for _ in range(counts[u])]
        summary = SD.reference(repeated, C, ignore, reduce)[0]
        values.append({k: (None if math.isnan(v) else float(v)) for k, v in summary.items()})
    errors = []
    if rep.get("statistics", {}).get("unit") != "image":
        errors.append(f"segmentation case {case_seed}: statistics {rep.get('statistics')}")
    errors += check_intervals(f"segmentation case {case_seed}", rep, lambda m: [v[m] for v in values], B, conf)
    return len(rep.get("intervals", {})), errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--detection-cases", type=int, default=6)
    ap.add_argument("--segmentation-cases", type=int, default=10)
    ap.add_argument("--weighted-cases", type=int, default=10)
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release/dropscore"))
    a = ap.parse_args()
    binary = a.bin if os.path.isabs(a.bin) else os.path.join(ROOT, a.bin)
    bad, intervals = 0, 0
    for c in range(a.cases):
        proto, k, errors = run_case(binary, a.seed * 100003 + c)
        intervals += k
        for e in errors[:5]:
            print(e)
        bad += bool(errors)
    for c in range(a.weighted_cases):
        proto, k, errors = run_case(binary, a.seed * 500009 + c, weighted=True)
        intervals += k
        for e in errors[:5]:
            print(e)
        bad += bool(errors)
    for c in range(a.detection_cases):
        k, errors = detection_case(binary, a.seed * 300007 + c)
        intervals += k
        for e in errors[:5]:
            print(e)
        bad += bool(errors)
    for c in range(a.segmentation_cases):
        k, errors = segmentation_case(binary, a.seed * 400009 + c)
        intervals += k
        for e in errors[:5]:
            print(e)
        bad += bool(errors)
    compared = max(1, a.cases // 4)
    for c in range(compared):
        errors = compare_case(binary, a.seed * 200003 + c)
        for e in errors[:5]:
            print(e)
        bad += bool(errors)
    for c in range(a.weighted_cases):
        errors = weighted_compare_case(binary, a.seed * 600011 + c)
        for e in errors[:5]:
            print(e)
        bad += bool(errors)
    compared += a.weighted_cases
    print(f"stats_diff: {a.cases} cases, {a.weighted_cases} weighted classification cases, {a.detection_cases} detection and {a.segmentation_cases} segmentation cases, {intervals} intervals, {compared} comparisons, {bad} cases differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
