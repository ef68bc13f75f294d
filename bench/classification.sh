#!/usr/bin/env bash
# classification: a 5,000,000-row 10-class scores submission; dropscore native and scikit-learn (pandas read_csv + the
# metric calls) side by side, wall time and peak memory. Run through scripts/bench classification. Env: FAMILY_N, FAMILY_K, BENCH_RUNS.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/families_bench.py classification
