#!/usr/bin/env bash
# kws: the 125 MB synthetic ICFHR'14 XML and its TREC run; dropscore vs rusteval, trec_eval, pytrec_eval.
# Run through scripts/bench kws (which builds the CLI and the wasm first).
set -euo pipefail
cd "$(dirname "$0")/.."
# Inputs (bench/out is not committed): the 125 MB synthetic XML, unzipped once, and its TREC run conversion.
mkdir -p bench/out
xml=bench/out/SYNTH_TRACK_I_Bentham.xml
run=bench/out/SYNTH_TRACK_I_Bentham.run
gz=tests/data/kws/synthetic/SYNTH_TRACK_I_Bentham.xml.gz
if [ ! -s "$xml" ] || [ "$gz" -nt "$xml" ]; then
  echo "bench: unzipping $gz"
  gunzip -c "$gz" > "$xml.tmp" && mv "$xml.tmp" "$xml"
fi
if [ ! -s "$run" ] || [ "$xml" -nt "$run" ] || [ target/release/dropscore -nt "$run" ]; then
  echo "bench: converting $xml to a TREC run (dropscore kws convert)"
  target/release/dropscore kws convert --pred "$xml" --out-run "$run.tmp" && mv "$run.tmp" "$run"
fi
ls -l "$xml" "$run"

exec python3 bench/kws_bench.py
