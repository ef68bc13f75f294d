#!/usr/bin/env bash
# kaggle-cols: Kaggle's conventions in the classification and regression families. Macro F1 over 100,000
# classes and 2,000,000 rows (per-class counts), and 1,000,000 rows × 6 target columns mean column-wise ROC AUC;
# dropscore native against pandas.read_csv + scikit-learn, wall time and peak memory side by side. Run through
# scripts/bench kaggle_cols. Env: BENCH_RUNS, KCOLS_CASES (default "macro_f1 column_auc").
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/kaggle_cols.py ${KCOLS_CASES:-macro_f1 column_auc}
