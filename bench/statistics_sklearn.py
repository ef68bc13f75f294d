#!/usr/bin/env python3
"""The bootstrap of bench/statistics_bench.py written with NumPy + scikit-learn, for the side-by-side row: the same
draws as dropscore (`numpy.random.default_rng(seed).integers(0, n, size=(B, n))`, one row per replicate), each
replicate's weights `numpy.bincount(row, minlength=n)` passed as `sample_weight` (docs/specs/statistics.md section 1).

Usage: statistics_sklearn.py classification|regression GT PRED B REPLICATES_RUN
Reads both CSVs with pandas (ids aligned), scores once, then runs REPLICATES_RUN of the B replicates (the first ones:
the same draws) and prints one JSON line: read_s, one_s (scoring once), replicate_s (per replicate), the percentile
interval of the headline metric over the replicates run (for the check against dropscore when all B ran).
Metrics: classification (binary): accuracy, ROC AUC, average precision, log loss, Brier; regression: MAE, MSE,
RMSE, R², explained variance, MAPE (the scikit-learn metrics that take sample_weight).
"""
import json
import sys
import time
import warnings

import numpy as np
import pandas as pd
from sklearn import metrics as M

warnings.simplefilter("ignore")
family, gt, pred, B, run = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
t0 = time.perf_counter()
g = pd.read_csv(gt, dtype={"id": str}).set_index("id")
p = pd.read_csv(pred, dtype={"id": str}).set_index("id").reindex(g.index)
t1 = time.perf_counter()

if family == "classification":
    y = g["label"].to_numpy()
    s = p["1"].to_numpy()
    proba = np.stack([p["0"].to_numpy(), s], axis=1)
    label = proba.argmax(axis=1)
    head = "roc_auc"

    def score(w):
        return {
            "accuracy": M.accuracy_score(y, label, sample_weight=w),
            "roc_auc": M.roc_auc_score(y, s, sample_weight=w),
            "average_precision": M.average_precision_score(y, s, sample_weight=w),
            "log_loss": M.log_loss(y, proba, sample_weight=w),
            "brier_score": M.brier_score_loss(y, s, sample_weight=w),
        }
else:
    y = g["target"].to_numpy()
    yhat = p["prediction"].to_numpy()
    head = "root_mean_squared_error"

    def score(w):
        return {
            "mean_absolute_error": M.mean_absolute_error(y, yhat, sample_weight=w),
            "mean_squared_error": M.mean_squared_error(y, yhat, sample_weight=w),
            "root_mean_squared_error": M.root_mean_squared_error(y, yhat, sample_weight=w),
            "r2": M.r2_score(y, yhat, sample_weight=w),
            "explained_variance": M.explained_variance_score(y, yhat, sample_weight=w),
            "mean_absolute_percentage_error": M.mean_absolute_percentage_error(y, yhat, sample_weight=w),
        }

one = score(None)
t2 = time.perf_counter()
n = len(y)
rng = np.random.default_rng(0)
values = []
for r in range(run):
    w = np.bincount(rng.integers(0, n, size=n), minlength=n)
    values.append(score(w)[head])
t3 = time.perf_counter()
low, high = np.percentile(values, [2.5, 97.5]) if values else (None, None)
print(json.dumps({
    "read_s": t1 - t0, "one_s": t2 - t1, "replicate_s": (t3 - t2) / max(run, 1), "replicates_run": run,
    "metric": head, "value": one[head], "low": float(low) if run == B else None,
    "high": float(high) if run == B else None,
}))
