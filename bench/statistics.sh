#!/usr/bin/env bash
# statistics: B = 1000 bootstrap replicates against scoring once, natively, per protocol with units (wall, peak
# RSS, the ratio and the spec's target). Run through scripts/bench statistics. Env: STATS_PROTOCOLS (detection),
# DET_IMAGES (5000), DET_PER_IMAGE (100), BENCH_RUNS (1).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/statistics_bench.py
