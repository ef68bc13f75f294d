#!/usr/bin/env bash
# text: 1,000,000 HTR lines (bench/text_gen.py) scored by dropscore native and in headless Chromium against
# jiwer 4.0.0's cer and wer (bench/text_bench.py), then the 100,000-segment BLEU bench against sacreBLEU 2.6.0
# (bench/textgen.py). Run through scripts/bench text. Env: TEXT_LINES, TEXTGEN_SEGMENTS, BENCH_RUNS,
# BENCH_SKIP_BROWSER=1, DROPSCORE_BIN.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
python3 -m pip install -q -r tests/reference/requirements-text.txt -r tests/reference/requirements-textgen.txt
rc=0
python3 bench/text_bench.py || rc=1
echo
python3 bench/textgen.py || rc=1
exit $rc
