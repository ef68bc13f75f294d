#!/usr/bin/env bash
# chalearn-ce: 100 categories x 30,000 images (3 M GT + 3 M submission lines); dropscore native (folders and zips),
# dropscore wasm in headless Chromium (zips), and the NumPy VOC-style AP side by side.
# Run through scripts/bench chalearn-ce (which builds the CLI and the wasm first).
# Env: BENCH_RUNS (3), CHALEARN_CATS (100), CHALEARN_IMAGES (30000), BENCH_SKIP_BROWSER=1.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/chalearn-ce_bench.py
