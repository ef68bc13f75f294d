"""The headless Chromium row of the Python benches (detection, segmentation): bench/browser_bench.mjs scores the
files in the page's own worker (www/worker.js, the wasm in www/pkg; Debian's /usr/bin/chromium via
playwright-core), the files fetched into Blobs first (not timed). Returns (seconds, peak renderer RSS in MB,
scores of the report) of the fastest run, or (None, None, reason). BENCH_SKIP_BROWSER=1 skips it."""
import json
import os
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def browser_row(protocol, gt, pred, runs=1, set_opts="max_memory=4GiB"):
    if os.environ.get("BENCH_SKIP_BROWSER") == "1":
        return None, None, "skipped (BENCH_SKIP_BROWSER=1)"
    cmd = ["node", os.path.join(ROOT, "bench", "browser_bench.mjs"), "--protocol", protocol, "--gt", gt,
           "--pred", pred, "--runs", str(runs), "--set", set_opts]
    out = subprocess.run(cmd, capture_output=True, text=True)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    if out.returncode != 0 or not rows:
        return None, None, "failed: " + out.stderr.strip()[-300:]
    best = min(rows, key=lambda r: r["score_ms"])
    return best["score_ms"] / 1000, max(r["renderer_hwm_kb"] for r in rows) / 1024, best["scores"]
