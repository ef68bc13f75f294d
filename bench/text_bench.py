#!/usr/bin/env python3
"""HTR bench (bench/text.sh): 1,000,000 synthetic HTR lines (bench/text_gen.py: about 42 million characters,
CER 5-15 % per line), generated once into bench/out/text/ as gt.csv and pred.csv (id,text), then each tool as
one whole process, end to end (reading the CSVs included), BENCH_RUNS times (median wall, highest peak RSS):

  dropscore native   `dropscore text --gt gt.csv --pred pred.csv --set metrics=cer,wer --format json --out
                     report.json` under /usr/bin/time: what an HTR competition configures (examples/text/dropscore.toml:
                     leaderboard metric cer, the report's metrics cer and wer, the metrics jiwer computes here), the
                     per-item rows (character and word edit counts), the plots and the whole JSON report written;
                     with TEXT_ALL_METRICS=1 also a row for every metric of the family (metrics=all: cer, wer, mer,
                     wil, wip, the per-line means, ned, anls, SQuAD's em/f1, jaccard, bleu, chrf, chrf++, ter,
                     rouge1/2/L/Lsum)
  dropscore Chromium the page's worker (www/worker.js, the wasm in www/pkg) in headless Chromium through
                     bench/browser_row.py, with the same options: score time from posting the files (fetched into
                     Blobs first, not timed) to the report parsed in the page; peak RSS of the renderer
  jiwer 4.0.0        the two CSVs read with Python's csv module, then `jiwer.cer(refs, hyps)` and
                     `jiwer.wer(refs, hyps)` (rapidfuzz 3.14.6's C++ edit distance) under /usr/bin/time; its own
                     timing of the two calls is printed beside

and checks that all print the same CER and WER (to 1e-12). Targets: native at least 2x jiwer, the page faster
than jiwer. Env: TEXT_LINES (1000000), BENCH_RUNS (1), BENCH_SKIP_BROWSER=1, TEXT_ALL_METRICS=1, DROPSCORE_BIN.
"""
import json
import os
import re
import statistics
import subprocess
import sys

from browser_row import browser_row

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
N = int(os.environ.get("TEXT_LINES", "1000000"))
RUNS = int(os.environ.get("BENCH_RUNS", "1"))
OUT = os.path.join(ROOT, "bench", "out", "text", str(N))
BIN = os.environ.get("DROPSCORE_BIN", os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                                                   "release", "dropscore"))

JIWER = r'''
import csv, json, sys, time
import jiwer
def column(path):
    with open(path, encoding="utf-8", newline="") as f:
        rows = csv.reader(f)
        next(rows)
        return [r[1] for r in rows]
refs, hyps = column(sys.argv[1]), column(sys.argv[2])
t = time.perf_counter()
cer = jiwer.cer(refs, hyps)
t1 = time.perf_counter()
wer = jiwer.wer(refs, hyps)
t2 = time.perf_counter()
print(json.dumps({"cer": cer, "wer": wer, "cer_seconds": t1 - t, "wer_seconds": t2 - t1}))
'''


CPU = {}


def timed(cmd):
    """Median wall time, peak RSS (MB) and the output of `cmd` under /usr/bin/time; its CPU time (user +
    system, median) goes to CPU[cmd[0]], for a shared machine where wall time depends on the load."""
    walls, cpus, rss, out = [], [], 0, ""
    for _ in range(RUNS):
        p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M %U %S"] + cmd, capture_output=True, text=True)
        line = [l for l in p.stderr.splitlines() if l.startswith("TIME ")]
        if p.returncode != 0 or not line:
            return None, None, p.stderr.strip()[-300:]
        _, e, m, u, s = line[-1].split()
        walls.append(float(e))
        cpus.append(float(u) + float(s))
        rss = max(rss, int(m))
        out = p.stdout
    CPU[cmd[0]] = statistics.median(cpus)
    return statistics.median(walls), rss / 1024, out


def report_scores(path):
    """The report's `scores` object (near its start: the file is hundreds of MB)."""
    with open(path, encoding="utf-8") as f:
        head = f.read(1 << 16)
    return json.loads(re.search(r'"scores":(\{[^{}]*\})', head).group(1))


def main():
    gt, pred = os.path.join(OUT, "gt.csv"), os.path.join(OUT, "pred.csv")
    if not (os.path.exists(gt) and os.path.exists(pred)):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "text_gen.py"), OUT, str(N)], check=True)
    chars = sum(len(l) for l in open(gt, encoding="utf-8")) - N * 13 - 8
    print(f"bench text: {N:,} lines, {chars / 1e6:.1f} M reference characters, gt.csv {os.path.getsize(gt) / 1e6:.0f} MB"
          f" + pred.csv {os.path.getsize(pred) / 1e6:.0f} MB; load average {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores; median of {RUNS} run(s)")
    rows = []
    report = os.path.join(OUT, "report.json")
    native = [BIN, "text", "--gt", gt, "--pred", pred, "--format", "json", "--out", report, "-q"]
    # Leaderboard metric and report metrics as examples/text/dropscore.toml configures an HTR competition.
    htr = ["--set", "metric=cer", "--set", "metrics=cer,wer"]
    w, m, out = timed(native + htr)
    rows.append(("dropscore native (cer, wer)", w, m, report_scores(report) if w else out,
                 f"CPU {CPU.get(BIN, 0):.1f} s (2 threads)" if w else ""))
    native_cpu = CPU.get(BIN)
    w, m, sc = browser_row("text", gt, pred, RUNS, "max_memory=4GiB,metric=cer,metrics=cer,wer")
    rows.append(("dropscore Chromium (cer, wer)", w, m, sc, "score time, 1 thread"))
    if os.environ.get("TEXT_ALL_METRICS") == "1":
        w, m, out = timed(native)
        rows.append(("dropscore native (all 20 metrics)", w, m, report_scores(report) if w else out,
                     f"CPU {CPU.get(BIN, 0):.1f} s (2 threads)" if w else ""))
    w, m, out = timed([sys.executable, "-c", JIWER, gt, pred])
    j = json.loads(out.strip().splitlines()[-1]) if w else out
    note = (f"CPU {CPU.get(sys.executable, 0):.1f} s; cer() {j['cer_seconds']:.1f} s + wer() "
            f"{j['wer_seconds']:.1f} s") if w else ""
    rows.append(("jiwer 4.0.0 (cer, wer)", w, m, j, note))
    base = rows[-1][1]
    print(f"| tool | wall s | peak RSS MB | jiwer / tool | CER | WER | note |")
    print(f"|---|---|---|---|---|---|---|")
    ok = True
    for name, w, m, sc, note in rows:
        if w is None:
            print(f"| {name} | - | - | - | - | - | failed: {sc} |")
            continue
        print(f"| {name} | {w:.2f} | {m:.0f} | {base / w:.2f}x | {sc['cer']!r} | {sc['wer']!r} | {note} |")
        if isinstance(j, dict) and (abs(sc["cer"] - j["cer"]) > 1e-12 or abs(sc["wer"] - j["wer"]) > 1e-12):
            print(f"bench text: {name} differs from jiwer")
            ok = False
    if rows[0][1] and base:
        print(f"native is {base / rows[0][1]:.2f}x jiwer in wall time (target 2x), "
              f"{CPU[sys.executable] / native_cpu:.2f}x in CPU time"
              + (f"; Chromium {base / rows[1][1]:.2f}x (target > 1x)" if rows[1][1] else ""))
    if not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()
