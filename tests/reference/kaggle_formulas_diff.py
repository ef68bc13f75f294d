#!/usr/bin/env python3
"""Differential test of the single-competition formulas of the `kaggle` protocol against the competitions'
published metric code (copied below, with its source), on random cases (300 by default):

- `kendall_tau`: Google AI4Code (2022), Kaggle notebook "Competition Metric - Kendall Tau Correlation":
  space-separated cell orders per notebook; predicted orders shuffled, some with a repeated or a left-out
  cell, some with a cell not in the notebook (Python raises: dropscore must refuse). Exact equality.
- `kl_divergence`: HMS - Harmful Brain Activity Classification (2024), Kaggle's metric notebook "Kullback Leibler
  Divergence" (`score`, `kl_divergence`, `kaggle_metric_utilities.verify_valid_probabilities`).
- `weighted_log_loss`: RSNA Intracranial Hemorrhage Detection (2019), the weighted multi-label log loss (weight 2
  for `any`) in its NumPy form (`np.average(loss, axis=1, weights=class_weights)`, then the mean).
- `lwlrap`: Freesound Audio Tagging 2019, its lwlrap Colab notebook: scikit-learn's
  `label_ranking_average_precision_score` weighted by the positive labels, and (cases without ties) the
  notebook's NumPy `calculate_per_class_lwlrap`.
- `pfbeta`: RSNA Screening Mammography Breast Cancer Detection (2023), the published `pfbeta`.
- `weighted_auc`: ALASKA2 Image Steganalysis (2020), `alaska_weighted_auc` (scikit-learn's `roc_curve`, `auc`).
- `haversine`: Google Smartphone Decimeter Challenge (2021), the host's `calc_haversine` and the per-phone mean of
  the 50th and 95th percentile errors, averaged over phones.
- `angular_error`: IceCube - Neutrinos in Deep Ice (2023), the published `angular_dist_score`.
- `laplace_log_likelihood`: OSIC Pulmonary Fibrosis Progression (2020), the evaluation's modified Laplace log
  likelihood (sigma clipped at 70, delta at 1000).
Every formula case compares to 1e-12 (relative, or absolute below 1); a case where the published code raises must
give null and an error in dropscore.

Usage: python3 tests/reference/kaggle_formulas_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
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
from bisect import bisect

import numpy as np
import pandas as pd
import pandas.api.types
from sklearn import metrics
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# From the AI4Code competition's metric notebook, verbatim.
def count_inversions(a):
    inversions = 0
    sorted_so_far = []
    for i, u in enumerate(a):
        j = bisect(sorted_so_far, u)
        inversions += i - j
        sorted_so_far.insert(j, u)
    return inversions


def kendall_tau(ground_truth, predictions):
    total_inversions = 0
    total_2max = 0  # twice the maximum possible inversions across all instances
    for gt, pred in zip(ground_truth, predictions):
        ranks = [gt.index(x) for x in pred]  # rank predicted order in terms of ground truth
        total_inversions += count_inversions(ranks)
        n = len(gt)
        total_2max += n * (n - 1)
    return 1 - 4 * total_inversions / total_2max


def kendall_case(seed):
    r = random.Random(seed)
    notebooks = r.randint(1, 12)
    truth, preds = [], []
    for _ in range(notebooks):
        n = r.choice([0, 1, 2, 3, r.randint(2, 30)])
        cells = [f"{r.getrandbits(32):08x}" for _ in range(n)]
        p = cells[:]
        if r.random() < 0.8:
            r.shuffle(p)
        if p and r.random() < 0.1:
            p.append(r.choice(p))
        if p and r.random() < 0.1:
            p.pop(r.randrange(len(p)))
        if r.random() < 0.03:
            p.append("ffffffffff")
        truth.append(cells)
        preds.append(p)
    try:
        want = kendall_tau(truth, preds)
    except (ValueError, ZeroDivisionError):
        want = None
    gt = "id,cell_order\n" + "".join(f"nb{i},{' '.join(t)}\n" for i, t in enumerate(truth))
    pred = "id,cell_order\n" + "".join(f"nb{i},{' '.join(p)}\n" for i, p in enumerate(preds))
    return gt, pred, want


# ---- HMS - Harmful Brain Activity Classification (2024): Kaggle's "Kullback Leibler Divergence" metric.
class ParticipantVisibleError(Exception):
    pass


def verify_valid_probabilities(df, df_name):
    if not pandas.api.types.is_numeric_dtype(df.values):
        raise ParticipantVisibleError(f"All target values in {df_name} must be numeric")
    if df.min().min() < 0:
        raise ParticipantVisibleError(f"All target values in {df_name} must be at least zero")
    if df.max().max() > 1:
        raise ParticipantVisibleError(f"All target values in {df_name} must be no greater than one")
    if not np.allclose(df.sum(axis=1), 1):
        raise ParticipantVisibleError(f"Target values in {df_name} do not add to one within all rows")


def kl_divergence(solution, submission, epsilon, micro_average, sample_weights):
    for col in solution.columns:
        if not pandas.api.types.is_float_dtype(solution[col]):
            solution[col] = solution[col].astype(float)
        submission[col] = np.clip(submission[col], epsilon, 1 - epsilon)
        y_nonzero_indices = solution[col] != 0
        solution[col] = solution[col].astype(float)
        solution.loc[y_nonzero_indices, col] = solution.loc[y_nonzero_indices, col] * np.log(
            solution.loc[y_nonzero_indices, col] / submission.loc[y_nonzero_indices, col])
        solution.loc[~y_nonzero_indices, col] = 0
    if micro_average:
        return np.average(solution.sum(axis=1), weights=sample_weights)
    else:
        return np.average(solution.mean())


def kl_score(solution, submission, row_id_column_name, epsilon=10**-15, micro_average=True):
    del solution[row_id_column_name]
    del submission[row_id_column_name]
    for col in solution.columns:
        if col not in submission.columns:
            raise ParticipantVisibleError(f"Missing submission column {col}")
    verify_valid_probabilities(solution, "solution")
    verify_valid_probabilities(submission, "submission")
    return kl_divergence(solution, submission, epsilon=epsilon, micro_average=micro_average, sample_weights=None)


# ---- RSNA Intracranial Hemorrhage Detection (2019): weighted multi-label log loss.
def weighted_log_loss_metric(trues, preds, class_weights, epsilon):
    preds = np.clip(preds, epsilon, 1 - epsilon)
    loss = trues * np.log(preds) + (1 - trues) * np.log(1 - preds)
    loss_samples = np.average(loss, axis=1, weights=class_weights)
    return - loss_samples.mean()


# ---- Freesound Audio Tagging 2019: lwlrap (the competition's Colab notebook).
def _one_sample_positive_class_precisions(scores, truth):
    num_classes = scores.shape[0]
    pos_class_indices = np.flatnonzero(truth > 0)
    if not len(pos_class_indices):
        return pos_class_indices, np.zeros(0)
    retrieved_classes = np.argsort(scores)[::-1]
    class_rankings = np.zeros(num_classes, dtype=int)
    class_rankings[retrieved_classes] = range(num_classes)
    retrieved_class_true = np.zeros(num_classes, dtype=bool)
    retrieved_class_true[class_rankings[pos_class_indices]] = True
    retrieved_cumulative_hits = np.cumsum(retrieved_class_true)
    precision_at_hits = (retrieved_cumulative_hits[class_rankings[pos_class_indices]] /
                         (1 + class_rankings[pos_class_indices].astype(float)))
    return pos_class_indices, precision_at_hits


def calculate_per_class_lwlrap(truth, scores):
    num_samples, num_classes = scores.shape
    precisions_for_samples_by_classes = np.zeros((num_samples, num_classes))
    for sample_num in range(num_samples):
        pos_class_indices, precision_at_hits = _one_sample_positive_class_precisions(scores[sample_num, :], truth[sample_num, :])
        precisions_for_samples_by_classes[sample_num, pos_class_indices] = precision_at_hits
    labels_per_class = np.sum(truth > 0, axis=0)
    weight_per_class = labels_per_class / float(np.sum(labels_per_class))
    per_class_lwlrap = (np.sum(precisions_for_samples_by_classes, axis=0) / np.maximum(1, labels_per_class))
    return per_class_lwlrap, weight_per_class


def calculate_overall_lwlrap_sklearn(truth, scores):
    sample_weight = np.sum(truth > 0, axis=1)
    nonzero_weight_sample_indices = np.flatnonzero(sample_weight > 0)
    return metrics.label_ranking_average_precision_score(
        truth[nonzero_weight_sample_indices, :] > 0,
        scores[nonzero_weight_sample_indices, :],
        sample_weight=sample_weight[nonzero_weight_sample_indices])


# ---- RSNA Screening Mammography Breast Cancer Detection (2023): pfbeta.
def pfbeta(labels, predictions, beta):
    y_true_count = 0
    ctp = 0
    cfp = 0
    for idx in range(len(labels)):
        prediction = min(max(predictions[idx], 0), 1)
        if (labels[idx]):
            y_true_count += 1
            ctp += prediction
        else:
            cfp += prediction
    beta_squared = beta * beta
    c_precision = ctp / (ctp + cfp)
    c_recall = ctp / y_true_count
    if (c_precision > 0 and c_recall > 0):
        result = (1 + beta_squared) * (c_precision * c_recall) / (beta_squared * c_precision + c_recall)
        return result
    else:
        return 0


# ---- ALASKA2 Image Steganalysis (2020): alaska_weighted_auc.
def alaska_weighted_auc(y_true, y_valid):
    tpr_thresholds = [0.0, 0.4, 1.0]
    weights = [2, 1]
    fpr, tpr, thresholds = metrics.roc_curve(y_true, y_valid, pos_label=1)
    areas = np.array(tpr_thresholds[1:]) - np.array(tpr_thresholds[:-1])
    normalization = np.dot(areas, weights)
    competition_metric = 0
    for idx, weight in enumerate(weights):
        y_min = tpr_thresholds[idx]
        y_max = tpr_thresholds[idx + 1]
        mask = (y_min < tpr) & (tpr < y_max)
        x_padding = np.linspace(fpr[mask][-1], 1, 100)
        x = np.concatenate([fpr[mask], x_padding])
        y = np.concatenate([tpr[mask], [y_max] * len(x_padding)])
        y = y - y_min
        score = metrics.auc(x, y)
        submetric = score * weight
        competition_metric += submetric
    return competition_metric / normalization


# ---- Google Smartphone Decimeter Challenge (2021): calc_haversine, per-phone p50/p95.
def calc_haversine(lat1, lon1, lat2, lon2):
    RADIUS = 6_367_000
    lat1, lon1, lat2, lon2 = map(np.radians, [lat1, lon1, lat2, lon2])
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    a = np.sin(dlat/2)**2 + np.cos(lat1) * np.cos(lat2) * np.sin(dlon/2)**2
    dist = 2 * RADIUS * np.arcsin(a**0.5)
    return dist


def percentile50(x):
    return np.percentile(x, 50)


def percentile95(x):
    return np.percentile(x, 95)


def smartphone_score(df, gt):
    gt = gt.rename(columns={'latDeg': 'latDeg_gt', 'lngDeg': 'lngDeg_gt'})
    df = df.merge(gt, on=['id'], how='inner')
    df['err'] = calc_haversine(df['latDeg_gt'], df['lngDeg_gt'], df['latDeg'], df['lngDeg'])
    res = df.groupby('phone')['err'].agg([percentile50, percentile95])
    res['p50_p90_mean'] = (res['percentile50'] + res['percentile95']) / 2
    return res['p50_p90_mean'].mean()


# ---- IceCube - Neutrinos in Deep Ice (2023): angular_dist_score.
def angular_dist_score(az_true, zen_true, az_pred, zen_pred):
    if not (np.all(np.isfinite(az_true)) and np.all(np.isfinite(zen_true)) and np.all(np.isfinite(az_pred))
            and np.all(np.isfinite(zen_pred))):
        raise ValueError("All arguments must be finite")
    sa1 = np.sin(az_true)
    ca1 = np.cos(az_true)
    sz1 = np.sin(zen_true)
    cz1 = np.cos(zen_true)
    sa2 = np.sin(az_pred)
    ca2 = np.cos(az_pred)
    sz2 = np.sin(zen_pred)
    cz2 = np.cos(zen_pred)
    scalar_prod = sz1*sz2*(ca1*ca2 + sa1*sa2) + (cz1*cz2)
    scalar_prod = np.clip(scalar_prod, -1, 1)
    return np.average(np.abs(np.arccos(scalar_prod)))


# ---- OSIC Pulmonary Fibrosis Progression (2020): modified Laplace log likelihood.
def laplace_log_likelihood(actual_fvc, predicted_fvc, confidence):
    sd_clipped = np.maximum(confidence, 70)
    delta = np.minimum(np.abs(actual_fvc - predicted_fvc), 1000)
    metric = - np.sqrt(2) * delta / sd_clipped - np.log(np.sqrt(2) * sd_clipped)
    return np.mean(metric)


def fmt(x):
    return repr(float(x))


def table(header, ids, rows):
    return ",".join(header) + "\n" + "".join(f"{i}," + ",".join(r) + "\n" for i, r in zip(ids, rows))


def probs(r, k, zeros):
    v = [0.0 if r.random() < zeros else r.random() for _ in range(k)]
    if sum(v) == 0:
        v[r.randrange(k)] = 1.0
    s = sum(v)
    return [x / s for x in v]


def kl_case(r):
    k, n = r.randint(2, 10), r.randint(1, 40)
    cols = [f"c{j}" for j in range(k)]
    ids = [f"e{i}" for i in range(n)]
    truth = [probs(r, k, 0.4) for _ in range(n)]
    pred = [probs(r, k, 0.2) for _ in range(n)]
    if r.random() < 0.1:
        pred[r.randrange(n)][r.randrange(k)] += 0.01  # a row not adding to one
    if r.random() < 0.05:
        pred[r.randrange(n)][r.randrange(k)] = -0.1
    gt = table(["id"] + cols, ids, [[fmt(x) for x in t] for t in truth])
    sub = table(["id"] + cols, ids, [[fmt(x) for x in p] for p in pred])
    return gt, sub, [], lambda: kl_score(pd.read_csv(io.StringIO(gt)), pd.read_csv(io.StringIO(sub)), "id")


def log_loss_case(r):
    k, n = r.randint(1, 12), r.randint(1, 40)
    cols = ["any"] + [f"sub{j}" for j in range(k - 1)]
    weights = [2.0] + [1.0] * (k - 1) if r.random() < 0.7 else [float(r.randint(0, 3)) for _ in range(k)]
    if sum(weights) == 0:
        weights[0] = 1.0
    eps = r.choice([1e-15, 1e-7])
    truth = np.array([[r.randint(0, 1) for _ in range(k)] for _ in range(n)], dtype=float)
    pred = np.array([[r.choice([0.0, 1.0, r.random(), r.random()]) for _ in range(k)] for _ in range(n)])
    ids = [f"ID_{i}" for i in range(n)]
    gt = table(["ID"] + cols, ids, [[str(int(x)) for x in t] for t in truth])
    sub = table(["ID"] + cols, ids, [[fmt(x) for x in p] for p in pred])
    sets = [f"weights={','.join(fmt(w) for w in weights)}", f"epsilon={eps!r}"]
    return gt, sub, sets, lambda: weighted_log_loss_metric(truth, pred, weights, eps)


def lwlrap_case(r):
    k, n = r.randint(2, 20), r.randint(1, 30)
    ties = r.random() < 0.4
    truth = np.array([[1 if r.random() < 0.25 else 0 for _ in range(k)] for _ in range(n)])
    if ties:
        scores = np.array([[r.choice([0.0, 0.25, 0.5, 1.0]) for _ in range(k)] for _ in range(n)])
    else:
        scores = np.array([[r.random() for _ in range(k)] for _ in range(n)])
    cols = [f"label{j}" for j in range(k)]
    ids = [f"clip{i}.wav" for i in range(n)]
    gt = table(["fname"] + cols, ids, [[str(x) for x in t] for t in truth])
    sub = table(["fname"] + cols, ids, [[fmt(x) for x in s] for s in scores])

    def want():
        if truth.sum() == 0:
            raise ZeroDivisionError
        v = calculate_overall_lwlrap_sklearn(truth, scores)
        if not ties:
            per_class, weight = calculate_per_class_lwlrap(truth, scores)
            assert abs(np.sum(per_class * weight) - v) < 1e-12
        return v
    return gt, sub, [], want


def pfbeta_case(r):
    n = r.randint(1, 60)
    labels = [1 if r.random() < 0.3 else 0 for _ in range(n)]
    preds = [r.choice([0.0, 1.0, r.random(), r.uniform(-0.5, 1.5)]) for _ in range(n)]
    beta = r.choice([1.0, 1.0, 0.5, 2.0])
    ids = [f"{r.randint(1, 99999)}_{i}" for i in range(n)]
    gt = table(["prediction_id", "cancer"], ids, [[str(x)] for x in labels])
    sub = table(["prediction_id", "cancer"], ids, [[fmt(x)] for x in preds])
    return gt, sub, [f"beta={beta!r}"], lambda: pfbeta(labels, preds, beta)


def auc_case(r):
    n = r.randint(2, 200)
    labels = np.array([r.randint(0, 1) for _ in range(n)])
    grid = r.choice([None, 4, 20])
    scores = np.array([r.random() if grid is None else r.randint(0, grid) / grid for _ in range(n)])
    ids = [f"{i:04d}.jpg" for i in range(n)]
    gt = table(["Id", "Label"], ids, [[str(x)] for x in labels])
    sub = table(["Id", "Label"], ids, [[fmt(x)] for x in scores])
    return gt, sub, [], lambda: alaska_weighted_auc(labels, scores)


def haversine_case(r):
    phones = [f"2021-0{r.randint(1, 9)}-trace_Pixel{j}" for j in range(r.randint(1, 12))]
    rows = []
    for i in range(r.randint(1, 120)):
        lat, lng = r.uniform(37.3, 37.5), r.uniform(-122.2, -121.9)
        rows.append((f"{i}", r.choice(phones), lat, lng, lat + r.gauss(0, 1e-4), lng + r.gauss(0, 1e-4)))
    gt = "id,phone,latDeg,lngDeg\n" + "".join(f"{i},{p},{fmt(a)},{fmt(b)}\n" for i, p, a, b, _, _ in rows)
    sub = "id,latDeg,lngDeg\n" + "".join(f"{i},{fmt(c)},{fmt(d)}\n" for i, _, _, _, c, d in rows)
    return gt, sub, [], lambda: smartphone_score(pd.read_csv(io.StringIO(sub), dtype={"id": str}),
                                                 pd.read_csv(io.StringIO(gt), dtype={"id": str}))


def angular_case(r):
    n = r.randint(1, 100)
    t = [(r.uniform(0, 2 * math.pi), r.uniform(0, math.pi)) for _ in range(n)]
    p = [(a + r.gauss(0, 0.3), z + r.gauss(0, 0.3)) if r.random() < 0.8 else (a, z) for a, z in t]
    ids = [str(2000 + i) for i in range(n)]
    gt = table(["event_id", "azimuth", "zenith"], ids, [[fmt(a), fmt(z)] for a, z in t])
    sub = table(["event_id", "azimuth", "zenith"], ids, [[fmt(a), fmt(z)] for a, z in p])
    arr = lambda v, j: np.array([x[j] for x in v])
    return gt, sub, [], lambda: angular_dist_score(arr(t, 0), arr(t, 1), arr(p, 0), arr(p, 1))


def laplace_case(r):
    n = r.randint(1, 80)
    fvc = [float(r.randint(800, 4500)) for _ in range(n)]
    pred = [f + r.gauss(0, 400) for f in fvc]
    conf = [r.choice([r.uniform(0, 120), r.uniform(50, 1500), 70.0]) for _ in range(n)]
    ids = [f"ID00{i:03d}_{r.randint(-12, 133)}" for i in range(n)]
    gt = table(["Patient_Week", "FVC"], ids, [[fmt(f)] for f in fvc])
    sub = table(["Patient_Week", "FVC", "Confidence"], ids, [[fmt(a), fmt(b)] for a, b in zip(pred, conf)])
    return gt, sub, [], lambda: laplace_log_likelihood(np.array(fvc), np.array(pred), np.array(conf))


FORMULA_CASES = {
    "kl_divergence": kl_case,
    "weighted_log_loss": log_loss_case,
    "lwlrap": lwlrap_case,
    "pfbeta": pfbeta_case,
    "weighted_auc": auc_case,
    "haversine": haversine_case,
    "angular_error": angular_case,
    "laplace_log_likelihood": laplace_case,
}


def run(binary, gt, pred, sets):
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("solution.csv", gt), ("submission.csv", pred)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        cmd = [binary, "kaggle", "--gt", os.path.join(d, "solution.csv"), "--pred", os.path.join(d, "submission.csv"),
               "--format", "json"]
        for s in sets:
            cmd += ["--set", s]
        p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(p.stdout), None
    except json.JSONDecodeError:
        return None, f"exit {p.returncode}: {p.stderr[:300]}"


def check_formula(binary, metric, seed):
    gt, pred, sets, want_fn = FORMULA_CASES[metric](random.Random(seed))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = float(want_fn())
        if math.isnan(want):
            want = None
    except (ParticipantVisibleError, ZeroDivisionError, IndexError, ValueError):
        want = None
    out, err = run(binary, gt, pred, sets + [f"metric={metric}"])
    if out is None:
        return [f"{metric} case {seed}: {err}"]
    got = out["scores"].get(metric)
    errors = [x for x in out.get("diagnostics", []) if x.get("severity") == "error"]
    if want is None:
        return [] if got is None else [f"{metric} case {seed}: Python raises, dropscore {got}"]
    if errors or got is None or abs(got - want) > 1e-12 * max(1.0, abs(want)):
        return [f"{metric} case {seed}: Python {want!r}, dropscore {got!r} {errors[:1]}"]
    return []


def check(binary, seed):
    gt, pred, want = kendall_case(seed)
    out, err = run(binary, gt, pred, ["metric=kendall_tau"])
    if out is None:
        return [f"kendall case {seed}: {err}"]
    got = out["scores"].get("kendall_tau")
    errors = [x for x in out.get("diagnostics", []) if x.get("severity") == "error"]
    if want is None:
        return [] if got is None else [f"kendall case {seed}: Python raises, dropscore {got}"]
    if errors or got != want:
        return [f"kendall case {seed}: Python {want}, dropscore {got} {errors[:1]}"]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="one metric (kendall_tau or a formula)")
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
    a = ap.parse_args()
    jobs = []
    if a.only in ("", "kendall_tau"):
        jobs += [(lambda i=i: check(a.bin, a.seed * 100003 + i)) for i in range(a.cases)]
    for m in FORMULA_CASES:
        if a.only in ("", m):
            jobs += [(lambda i=i, m=m: check_formula(a.bin, m, a.seed * 100003 + i)) for i in range(a.cases)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(lambda f: f(), jobs))
    bad = [b for r in results for b in r]
    for b in bad[:20]:
        print(b)
    metrics_run = (1 if a.only in ("", "kendall_tau") else 0) + sum(1 for m in FORMULA_CASES if a.only in ("", m))
    print(f"kaggle_formulas_diff: {len(jobs)} cases ({a.cases} per metric, {metrics_run} metrics), {len(bad)} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
