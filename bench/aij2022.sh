#!/usr/bin/env bash
# aij2022: FID (d = 2048) from two 10,000 × 2048 float32 activation files and from two .npz statistics files, and
# METEOR on 100,000 captioning pairs; dropscore native, dropscore wasm in headless Chromium, and pytorch-fid's
# formula with NumPy/SciPy (sqrtm) side by side. Run through scripts/bench aij2022 (which builds the CLI and the
# wasm first). Env: BENCH_RUNS (3; FID runs once per tool when 1), AIJ_N (10000), AIJ_D (2048), AIJ_PAIRS (100000).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/aij2022_bench.py
