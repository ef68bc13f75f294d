#!/usr/bin/env bash
# segmentation: 500 label maps of 1024x2048 with 19 classes (Cityscapes-sized); dropscore native against the NumPy
# transcription of mmsegmentation's IoUMetric (tests/reference/segmentation_diff.py), wall and peak RSS.
# Run through scripts/bench segmentation. Env: BENCH_RUNS (1), SEG_MAPS (500), SEG_W (2048), SEG_H (1024).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 bench/segmentation_bench.py
