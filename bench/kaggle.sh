#!/usr/bin/env bash
# kaggle: 5,000 run-length-encoded 768 × 768 masks (mean Dice) and MAP@12 over 1,000,000 customers; dropscore
# native against the published Python (NumPy rle_decode + Dice; ml_metrics apk), wall time and peak memory side by
# side. Run through scripts/bench kaggle. Env: KAGGLE_MASKS, KAGGLE_CUSTOMERS, BENCH_RUNS.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/kaggle_bench.py
