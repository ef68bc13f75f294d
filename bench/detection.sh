#!/usr/bin/env bash
# detection: a COCO-val-sized synthetic set (5,000 images, ~34,000 GT boxes, 80 categories, 500,000 results);
# dropscore native, pycocotools 2.0.8 and faster-coco-eval (when importable) side by side, wall and peak RSS.
# Run through scripts/bench detection. Env: BENCH_RUNS (1), DET_IMAGES (5000), DET_PER_IMAGE (100).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/detection_bench.py
