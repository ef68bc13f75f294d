#!/usr/bin/env bash
# falsid: three subsets with 2000×2000 distance CSVs (about 40 MB of text each) and a merged label CSV;
# dropscore native, dropscore wasm in headless Chromium, and NumPy (loadtxt + stable argsort top-k) side by side.
# Run through scripts/bench falsid (which builds the CLI and the wasm first). Env: BENCH_RUNS (3), FALSID_N (2000).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/falsid_bench.py
