#!/usr/bin/env bash
# lemma: the built-in Russian lemmatiser, words per second, dropscore native and wasm (Node) vs pymorphy3.
# Run through scripts/bench lemma (which builds the CLI, the wasm and the asset first).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench/out
exec python3 bench/lemma_bench.py
