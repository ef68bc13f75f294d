#!/usr/bin/env python3
"""Differential test of dropscore's bootstrap intervals for `kaggle` (docs/specs/statistics.md sections 1-2)
against the competitions' published metric code on the repeated sets: unit = solution id, in the order of the
report's items; the draws are `numpy.random.default_rng(seed).integers(0, n, size=(B, n))`; replicate r is the
published code run on the solution and submission in which every drawn id's row is written as many times as
drawn (copies `id~c`, adjacent at the row's place, written out as CSV and read back as the code reads it). The
interval is `numpy.percentile(values, [100(1-c)/2, 100(1+c)/2])`, the standard error `numpy.std(values, ddof=1)`;
a replicate where the published code raises (or gives NaN) is left out and counted, and more than 5 % left out
is no interval.

- The single-competition formulas and AI4Code's Kendall tau: the random cases and the published code of
  tests/reference/kaggle_formulas_diff.py (imported): KL divergence (HMS 2024), the weighted multi-label log loss
  (RSNA 2019), lwlrap (Freesound 2019, scikit-learn's `label_ranking_average_precision_score`), pfbeta (RSNA
  2023), ALASKA2's weighted AUC (scikit-learn's `roc_curve`), the Smartphone Decimeter haversine score (pandas'
  `groupby`, `np.percentile`), IceCube's angular error, OSIC's Laplace log likelihood. Bounds and standard error
  to 1e-12 (relative, or absolute below 1): the replicates are the same sums in another order.
- MAP@k, F1 over label sets, Levenshtein and word Jaccard: the random cases of tests/reference/kaggle_diff.py
  (imported) and its references on the repeated (truth, prediction) rows: ml_metrics' `apk` (Kaggle's MAP@k
  pages), scikit-learn's `f1_score` on `MultiLabelBinarizer` columns fitted on the repeated rows (micro, macro,
  samples), rapidfuzz's Levenshtein distance of the strings and of their words, Tweet Sentiment's `jaccard`.
- RLE masks: the random cases of tests/reference/kaggle_diff.py (imported) and its reference on the repeated
  images: Carvana's `rle_decode`, foreground Dice, mean Dice, the Data Science Bowl's precision over IoU
  thresholds, scikit-learn's `fbeta_score`, SciPy's `directed_hausdorff`.
- PredictionString boxes: the random cases and references of tests/reference/kaggle_pstring_diff.py (imported):
  pycocotools 2.0.8 on the repeated images (box_ap, box_ap50, box_ap75, box_ar100), `voc_eval`'s VOC AP at `iou`
  with the submission's rows in its file order (voc_ap), the Global Wheat notebook (wheat_precision); to 1e-12
  (voc_eval sums the areas with NumPy's pairwise `np.sum`, dropscore left to right as on a file).

Requirements: tests/reference/requirements-kaggle.txt, requirements-kaggle-new.txt (rapidfuzz),
requirements-stats.txt (pycocotools).

Usage: python3 tests/reference/stats_kaggle_diff.py [--cases N] [--mask-cases N] [--box-cases N] [--seed S] [--bin PATH]
"""

import io
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kaggle_formulas_diff as kf  # noqa: E402  (the formulas' published code and random cases)
import kaggle_diff as kd  # noqa: E402  (apk, the Tweet Sentiment jaccard; the random MAP, tag and string cases)
import kaggle_pstring_diff as kp  # noqa: E402  (pycocotools, voc_eval, Global Wheat; the random boxes)
from stats_chalearn_ce_diff import arguments, compare, run_cases  # noqa: E402  (the interval check, the runner)



def repeat_csv(text, weight):
    """Each data row written weight[id] times, copy c's id `id~c`, the copies adjacent."""
    lines = text.splitlines()
    out = [lines[0]]
    for line in lines[1:]:
        i, rest = line.split(",", 1)
        out += [f"{i}~{c},{rest}" for c in range(weight[i])]
    return "\n".join(out) + "\n"


def ids_of(text):
    return [line.split(",", 1)[0] for line in text.splitlines()[1:]]


def frame(text, **kw):
    return pd.read_csv(io.StringIO(text), **kw)


def values(text):
    return frame(text).iloc[:, 1:].to_numpy(dtype=float)


def options(sets):
    return dict(s.split("=", 1) for s in sets)


def kendall(gt, sub, sets):
    cells = lambda t: [line.split(",", 1)[1].split() for line in t.splitlines()[1:]]
    return kf.kendall_tau(cells(gt), cells(sub))


def weighted_log_loss(gt, sub, sets):
    o = options(sets)
    weights = [float(x) for x in o["weights"].split(",")]
    return kf.weighted_log_loss_metric(values(gt), values(sub), weights, float(o["epsilon"]))


def lwlrap(gt, sub, sets):
    truth = values(gt)
    if truth.sum() == 0:
        raise ZeroDivisionError
    return kf.calculate_overall_lwlrap_sklearn(truth, values(sub))


def laplace(gt, sub, sets):
    t, p = values(gt), values(sub)
    return kf.laplace_log_likelihood(t[:, 0], p[:, 0], p[:, 1])


# The published code on the repeated CSV texts (solution, submission, the case's options).
FORMULAS = {
    "kendall_tau": kendall,
    "kl_divergence": lambda g, s, o: kf.kl_score(frame(g), frame(s), "id"),
    "weighted_log_loss": weighted_log_loss,
    "lwlrap": lwlrap,
    "pfbeta": lambda g, s, o: kf.pfbeta(values(g)[:, 0], values(s)[:, 0], float(options(o)["beta"])),
    "weighted_auc": lambda g, s, o: kf.alaska_weighted_auc(values(g)[:, 0].astype(int), values(s)[:, 0]),
    "haversine": lambda g, s, o: kf.smartphone_score(frame(s, dtype={"id": str}), frame(g, dtype={"id": str})),
    "angular_error": lambda g, s, o: kf.angular_dist_score(*values(g).T, *values(s).T),
    "laplace_log_likelihood": laplace,
}


def published(metric, gt, sub, sets):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = float(FORMULAS[metric](gt, sub, sets))
    except (kf.ParticipantVisibleError, ZeroDivisionError, IndexError, ValueError):
        return None
    return None if math.isnan(v) else v


def run(binary, gt, sub, sets):
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("solution.csv", gt), ("submission.csv", sub)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        cmd = [binary, "kaggle", "--gt", f"{d}/solution.csv", "--pred", f"{d}/submission.csv", "--format", "json",
               "-q"]
        for s in sets:
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True)
    return json.loads(p.stdout)


def stats_sets(r):
    B, seed, conf = r.choice([20, 40, 60]), r.randrange(2**32), r.choice([0.9, 0.95, 0.99])
    return B, seed, conf, [f"bootstrap={B}", f"seed={seed}", f"confidence={conf}"]


def formula_case(binary, metric, case_seed):
    r = random.Random(case_seed)
    if metric == "kendall_tau":
        gt, sub, _ = kf.kendall_case(case_seed)
        sets = []
    else:
        gt, sub, sets, _ = kf.FORMULA_CASES[metric](r)
    B, seed, conf, stats = stats_sets(r)
    rep = run(binary, gt, sub, sets + [f"metric={metric}"] + stats)
    if rep["scores"].get(metric) is None:
        return 0, []
    units = [it["id"] for it in rep["items"]]
    if sorted(units) != sorted(ids_of(gt)):
        return 0, [f"{metric} case {case_seed}: the report's ids are not the solution's"]
    draws = np.random.default_rng(seed).integers(0, len(units), size=(B, len(units)))
    vals = []
    for row in draws:
        weight = dict(zip(units, map(int, np.bincount(row, minlength=len(units)))))
        vals.append(published(metric, repeat_csv(gt, weight), repeat_csv(sub, weight), sets))
    return compare(f"{metric} case {case_seed}", rep, metric, vals, B, seed, conf, "row")


def list_values(metric, sets, pairs):
    """kaggle_diff's reference of `metric` on the (truth, prediction) rows `pairs` (None: undefined)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if metric == "map":
            return float(np.mean([kd.apk(t.split(), p.split(), int(sets["k"])) for t, p in pairs]))
        if metric.startswith("f1_"):
            yt, yp = [set(t.split()) for t, _ in pairs], [set(p.split()) for _, p in pairs]
            mlb = kd.MultiLabelBinarizer().fit(yt + yp)
            return float(kd.f1_score(mlb.transform(yt), mlb.transform(yp), average=metric[3:]))
    if metric == "levenshtein":
        return float(np.mean([kd.Levenshtein.distance(t, p) for t, p in pairs]))
    if metric == "sequence_levenshtein":
        return float(np.mean([kd.Levenshtein.distance(t.split(), p.split()) for t, p in pairs]))
    jac = []
    for t, p in pairs:
        try:
            jac.append(kd.jaccard(t, p))
        except ZeroDivisionError:
            if sets["empty"] != "skip":
                jac.append(1.0 if sets["empty"] == "one" else 0.0)
    return float(np.mean(jac)) if jac else None


def list_case(binary, make, case_seed):
    gh, sol, ph, sub, sets, _ = make(case_seed)
    r = random.Random(case_seed)
    B, seed, conf, stats = stats_sets(r)
    text = lambda header, rows: ",".join(header) + "\n" + "".join(",".join(row) + "\n" for row in rows)
    rep = run(binary, text(gh, sol), text(ph, sub), [f"{k}={v}" for k, v in sets.items()] + stats)
    truth, pred = dict(sol), dict(sub)
    units = [it["id"] for it in rep["items"]]
    draws = np.random.default_rng(seed).integers(0, len(units), size=(B, len(units)))
    repeated = []
    for row in draws:
        counts = np.bincount(row, minlength=len(units))
        repeated.append([(truth[u], pred[u]) for u, k in zip(units, counts) for _ in range(k)])
    checked, errors = 0, []
    for metric in rep.get("intervals", {}):
        vals = [list_values(metric, sets, pairs) for pairs in repeated]
        k, e = compare(f"{make.__name__} {case_seed} {sets}", rep, metric, vals, B, seed, conf, "row")
        checked, errors = checked + k, errors + e
    return checked, errors


def mask_case(binary, case_seed):
    """kaggle_diff's random RLE masks (metric=hausdorff: the five mask metrics in one report); replicate r is
    kaggle_diff's reference (Carvana's rle_decode, the Data Science Bowl kernel, scikit-learn's fbeta_score,
    SciPy's directed_hausdorff) on the images repeated as drawn."""
    gh, sol, ph, sub, sets, _ = kd.mask_case(case_seed)
    r = random.Random(case_seed)
    B, seed, conf, stats = stats_sets(r)
    text = lambda header, rows: ",".join(header) + "\n" + "".join(",".join(row) + "\n" for row in rows)
    rep = run(binary, text(gh, sol), text(ph, sub), [f"{k}={v}" for k, v in sets.items()] + stats)
    shape = {}
    for row in sol:
        shape[row[0]] = (int(row[3]), int(row[2])) if len(row) > 2 else (int(sets["height"]), int(sets["width"]))
    masks = lambda rows: {i: [kd.rle_decode(x, shape[i]) for j, x in rows if j == i] for i in shape}
    truth, pred = masks([row[:2] for row in sol]), masks(sub)
    units = [it["id"] for it in rep["items"]]
    if sorted(units) != sorted(shape):
        return 0, [f"masks case {case_seed}: the report's ids are not the solution's"]
    columns = {}
    for row in np.random.default_rng(seed).integers(0, len(units), size=(B, len(units))):
        counts = np.bincount(row, minlength=len(units))
        images = [(truth[u], pred[u], shape[u]) for u, k in zip(units, counts) for _ in range(k)]
        for metric, v in kd.mask_reference(images, sets["empty"], float(sets["beta"])).items():
            columns.setdefault(metric, []).append(v)
    checked, errors = 0, []
    for metric, vals in columns.items():
        if rep["scores"].get(metric) is None:
            if rep.get("intervals", {}).get(metric) is not None:
                errors.append(f"masks case {case_seed}: an interval for an undefined {metric}")
            continue
        k, e = compare(f"masks case {case_seed} {sets}", rep, metric, vals, B, seed, conf, "row")
        checked, errors = checked + k, errors + e
    return checked, errors


def box_case(binary, case_seed):
    r = random.Random(case_seed)
    gt_rows, sub_rows, opts = kp.make_case(r)
    B, seed, conf, stats = stats_sets(r)
    classes, xyxy = opts["classes"] == "true", opts["box_format"] == "xyxy"
    gt = [kp.parse(x, classes, False, xyxy) for x in gt_rows]
    sub = [kp.parse(x, classes, True, xyxy) for x in sub_rows]
    order = list(range(len(sub_rows)))
    r.shuffle(order)  # the submission's rows in another order than the solution's
    with tempfile.TemporaryDirectory() as d:
        kp.write(f"{d}/solution.csv", gt_rows, range(len(gt_rows)))
        kp.write(f"{d}/submission.csv", sub_rows, order)
        gt_text, sub_text = open(f"{d}/solution.csv").read(), open(f"{d}/submission.csv").read()
    sets = ["metric=box_ap"] + [f"{k}={v}" for k, v in opts.items()] + stats
    rep = run(binary, gt_text, sub_text, sets)
    image = {f"im{i:04d}": i for i in range(len(gt_rows))}
    units = [image[it["id"]] for it in rep["items"]]
    draws = np.random.default_rng(seed).integers(0, len(units), size=(B, len(units)))
    columns = {}
    for row in draws:
        w = [0] * len(gt_rows)
        for u, k in zip(units, np.bincount(row, minlength=len(units))):
            w[u] = int(k)
        # The repeated images (solution order, copies adjacent); the submission's rows in file order, each
        # written as many times as its image is drawn.
        copies = [i for i in range(len(gt_rows)) for _ in range(w[i])]
        first = {}
        for at, i in enumerate(copies):
            first.setdefault(i, at)
        rep_gt, rep_sub = [gt[i] for i in copies], [sub[i] for i in copies]
        rep_order = [first[i] + c for i in order for c in range(w[i])]
        ref = kp.coco_stats(rep_gt, rep_sub) if any(rep_sub) else None
        ref = {k: (None if v == -1 else v) for k, v in (ref or {}).items()}
        ref["voc_ap"] = kp.voc_map(rep_gt, rep_sub, float(opts["iou"]), rep_order)
        ref["wheat_precision"] = kp.wheat(rep_gt, rep_sub, opts["empty"])
        for k, v in ref.items():
            columns.setdefault(k, []).append(v)
    checked, errors = 0, []
    for metric, vals in columns.items():
        if rep["scores"].get(metric) is None or len(vals) < B:
            continue
        k, e = compare(f"boxes case {case_seed} {opts}", rep, metric, vals, B, seed, conf, "row")
        checked, errors = checked + k, errors + e
    return checked, errors


def main():
    a, binary = arguments(cases=5, mask_cases=20, box_cases=8)  # --cases: per formula, Kendall tau, MAP, label sets, strings
    seeds = [a.seed * 100057 + c for c in range(a.cases)]
    k, bad = run_cases(lambda m=m, s=s: formula_case(binary, m, s) for m in FORMULAS for s in seeds)
    print(f"stats_kaggle_diff: {a.cases} cases of each of {len(FORMULAS)} formulas, {k} intervals against the "
          f"published code on the repeated files, {bad} cases differ")
    makes = (kd.map_case, kd.tags_case, kd.strings_case)
    list_seeds = [a.seed * 100063 + c for c in range(a.cases)]
    k, list_bad = run_cases(lambda m=m, s=s: list_case(binary, m, s) for m in makes for s in list_seeds)
    print(f"stats_kaggle_diff: {a.cases} cases each of MAP@k, label sets and strings, {k} intervals against "
          f"kaggle_diff's references on the repeated rows, {list_bad} cases differ")
    k, mask_bad = run_cases(lambda c=c: mask_case(binary, a.seed * 100067 + c) for c in range(a.mask_cases))
    print(f"stats_kaggle_diff: {a.mask_cases} RLE mask cases, {k} intervals against kaggle_diff's references "
          f"(rle_decode, the Data Science Bowl kernel, fbeta_score, directed_hausdorff) on the repeated images, "
          f"{mask_bad} cases differ")
    k, box_bad = run_cases(lambda c=c: box_case(binary, a.seed * 100069 + c) for c in range(a.box_cases))
    print(f"stats_kaggle_diff: {a.box_cases} PredictionString cases, {k} intervals against pycocotools, voc_eval "
          f"and the Global Wheat notebook on the repeated images, {box_bad} cases differ")
    sys.exit(1 if bad or list_bad or mask_bad or box_bad else 0)


if __name__ == "__main__":
    main()
