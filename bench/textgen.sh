#!/usr/bin/env bash
# textgen: corpus BLEU of 100,000 translation segments, dropscore's sacreBLEU (src/metrics/sacrebleu, native) vs
# sacreBLEU 2.6.0's corpus_bleu in Python. Run through scripts/bench textgen. Env: TEXTGEN_SEGMENTS, BENCH_RUNS.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
exec python3 bench/textgen.py
