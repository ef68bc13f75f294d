#!/usr/bin/env bash
# fest: 3 manuscripts x 15 pages of 1344x2016 (about 40 lines each) and one 6000x8000 page, generated into
# bench/out/fest; dropscore native, dropscore wasm in headless Chromium, and the Python official-style
# implementation (OpenCV + NumPy) side by side. Run through scripts/bench fest (which builds the CLI and the wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d bench/out/fest/set ] || [ ! -f bench/out/fest/big/pred/001.png ] || [ bench/fest_gen.py -nt bench/out/fest/set ]; then
  rm -rf bench/out/fest
  python3 bench/fest_gen.py bench/out/fest
fi
exec python3 bench/fest_bench.py
