#!/usr/bin/env python3
"""statistics bench (docs/specs/statistics.md section 6): for each protocol with bootstrap units, dropscore native
scoring once and with `--set bootstrap=1000`, each as one process under /usr/bin/time (wall, peak RSS), and the
ratio against the spec's target (5x one score for classification, regression, kws, segmentation; 20x for detection).
For classification and regression, beside them: the same bootstrap written with NumPy + scikit-learn
(bench/statistics_sklearn.py: the same draws, sample_weight = the draw counts; its replicate time measured on
STATS_PY_REPLICATES replicates and scaled to B; with all B run, its headline interval is checked against
dropscore's), and the page's bootstrap in headless Chromium (bench/browser_bench.mjs: the score, then the
intervals it computes after the headline; BENCH_SKIP_BROWSER=1 skips it).

Inputs: classification, STATS_N rows (1,000,000) binary, two probability columns (labels from the argmax: every
label metric, ROC AUC, average precision, log loss, Brier); regression, STATS_N rows (every regression metric);
kws, bench/kws.sh's input (the Bentham ICFHR'14 relevance judgements, 95 queries, and the 125 MB synthetic
run of tests/data/kws/synthetic, unzipped once into bench/out; preset icfhr14); detection, the COCO-val-sized
synthetic set of bench/detection_bench.py (DET_IMAGES images, default 5,000, DET_PER_IMAGE);
segmentation, the label maps of bench/segmentation_bench.py at STATS_SEG_MAPS (500) maps of STATS_SEG_SIZE (512)
pixels square, 19 classes.
Each row: wall and CPU time (user + system) of one score and of B = 1000, their ratios, peak RSS; the Chromium row
(for the protocols whose input is two files, and segmentation with its folders zipped) is the page's score then its
intervals, against native one score.
Env: BENCH_RUNS (1), STATS_PROTOCOLS (classification,regression,kws,segmentation,detection), STATS_N,
STATS_PY_REPLICATES (1000), DET_IMAGES, STATS_TEXT_LINES (100,000), DROPSCORE_BIN, BENCH_SKIP_BROWSER. Also
measurable, without a spec target: falsid, chalearn-ce, text (their benches' inputs).

Measured 2026-11-27 08:42 UTC (load 1.0-1.4), BENCH_SKIP_BROWSER=1:
  kws: one score 0.37 s wall (0.26 s CPU), B = 1000 0.65 s (0.40 s CPU), 1.8x wall, 1.5x CPU (target 5x); peak
  9 / 10 MiB. A replicate is 95 weighted sums of per-query values (0.1 ms).
  segmentation, 500 maps of 512 x 512, 19 classes: one score 1.94 s (1.35 s CPU), B = 1000 1.84 s (1.19 s CPU),
  0.9x (target 5x: a replicate sums 500 per-map 19 x 19 confusion matrices, within the noise of one score);
  peak 9 / 9 MiB.
  detection, 1,000 images / 100,000 results: one score 0.31 s (0.35 s CPU), B = 1000 24.9 s (15.1 s CPU), 80x
  wall, 43x CPU (target 20x); peak 35 / 44 MiB. 89 % of it in the replicates' sweeps (perf).
After the detection sweep of all IoU thresholds at once (metrics/coco/weighted_sweep.rs), 09:27-09:32 UTC, load
6-10 (a wasm build beside it: the walls wait for a core, the CPU times count): detection 1,000 images: one score
1.10 s wall (0.32 s CPU), B = 1000 32.1 s (10.2 s CPU; 8.96 s at load 6, was 15.1), 29x wall, 32x CPU (target 20x,
not met at this size: the one score is mostly fixed costs); peak 35 / 36 MiB. 5,000 images / 500,000 results: one
score 11.0 s (3.14 s CPU), B = 1000 111.8 s (32.9 s CPU), 10.2x wall, 10.5x CPU (was 17.5x); peak 134 / 134 MiB.
No spec target, 09:32-09:39 UTC, load 10-11 (same inputs as their benches):
  falsid, 3 subsets x 2,000 images (bench/falsid_bench.py): one score 4.12 s (1.02 s CPU), B = 1000 2.90 s
  (0.87 s CPU), 0.9x CPU; peak 127 / 128 MiB.
  chalearn-ce, 100 categories x 30,000 images (bench/chalearn-ce_bench.py): one score 2.48 s (0.76 s CPU), B = 1000
  258 s (79.4 s CPU: 79 ms per replicate), 104x; peak 39 / 243 MiB. The slow one.
  text, 100,000 lines of bench/text_gen.py (STATS_TEXT_LINES), default metrics: one score 13.9 s (4.50 s CPU),
  B = 1000 56.2 s (19.0 s CPU), 4.2x CPU; peak 91 / 218 MiB.
Chromium 156 (headless, the page's worker and whole engine: www/pkg from scripts/build-wasm's cargo build of this
tree, wasm-bindgen; not wasm-opt'd, as build-wasm leaves the whole engine), 09:49 UTC, load 12:
  kws: one score 1.96 s (open 0.66 s, score 1.30 s), with B = 1000 2.45 s (open 0.67, score with the replicates
  1.65, the page's intervals 0.13), 1.25x the page's one score, 6.6x native one score; renderer peak 395 / 396 MiB.
  classification, 1,000,000 rows, B = 1000: not finished after 10.5 min (6.6 min of renderer CPU, load 12), stopped;
  native B = 1000 is 17.8 s on a quiet machine, so the page's replicate is well over 20x slower than native.
  Regression not run (no time left). The cause was not the bootstrap: on wasm32 every id got the same hash tag in
  src/formats/id_index.rs, so reading the CSV was quadratic. After the fix, 11:13 UTC, load 3-6 (wasm-opt'd
  modules): classification one score 1.85 s in the page (native 1.94 s wall at that load), B = 1000 35.3 s (19x the
  page's one score); renderer peak 391 / 397 MiB.
After the detection sweep's false-positive blocks and the chalearn-ce curve without expansion (this tree,
native, 12:39-12:41 UTC, load 10-11.6 with a cargo build beside it: the walls wait for a core, the CPU times count;
every interval identical to main's binary on the same input, detection 1,000 images and chalearn-ce B = 100):
  detection 1,000 images / 100,000 results: one score 0.72 s wall (0.30 s CPU), B = 1000 10.08 s (5.03 s CPU),
  14.0x wall, 16.8x CPU (target 20x: met; was 32x CPU); peak 35 / 35 MiB. Main's binary at the same load: B = 1000
  6.87 s CPU. What a replicate spends now (perf, B = 200): the true positives of the sweep (a bucket per recall
  threshold), the reads of the 101-point precision into pycocotools' array order (a strided write per point),
  the weighted sums of the false-positive blocks.
  detection 5,000 images / 500,000 results: one score 3.76 s (1.68 s CPU), B = 1000 41.2 s (18.9 s CPU), 10.9x
  wall, 11.3x CPU (was 10.5x with a slower one score: 17 ms per replicate, was 30); peak 134 / 135 MiB.
  chalearn-ce 100 categories x 30,000 images: one score 1.35 s (0.82 s CPU), B = 1000 13.5 s (6.42 s CPU: 5.6 ms
  per replicate, was 79), 10x wall, 7.8x CPU (was 104x); peak 39 / 285 MiB. A replicate reads the once-sorted
  ranking packed in a u32 per line (unit, label, tie start) and one weight per line; the AP's curve keeps only the
  positives and the ends of the stretches of negatives between them (src/protocols/chalearn_ce/units_curve.rs).
Chromium 156 for the rows never run (www/pkg of main's scripts/build-wasm at 11:00 UTC, wasm-opt'd modules, with the
id_index fix; this tree's bootstrap code for these two protocols is main's), 12:41-12:47 UTC, load 10.6-11.9:
  regression, 1,000,000 rows, B = 1000: one score 3.25 s in the page (4.00 s in a first run), B = 1000 130.7 s
  (score 4.2 s, the page's intervals 126.4 s: 126 ms per replicate; a first run 118.1 s), 40x the page's one score
  (30x in the first run); renderer peak 377 / 336 MiB (wasm memory 561 MiB). Native at load 11.5-13.7 was 100 s
  wall (36.1 s CPU), so the page is about native's wall at this load; the 5x target is not met in either.
  segmentation, 500 maps of 512 x 512, 19 classes, the two folders as zips (stored): one score 2.05 s in the page
  (native on the zips 2.08 s wall, 0.98 s CPU), B = 1000 2.59 s (score 2.49 s, intervals 0.07 s), 1.26x the page's
  one score; renderer peak 166 / 168 MiB (wasm memory 114.5 MiB). The bench's own row (STATS_PROTOCOLS=segmentation,
  12:47 UTC, load 11): native 1.97 / 1.96 s (0.91 / 0.88 s CPU), Chromium 2.12 / 2.26 s, 1.1x, peak 167 / 168 MiB.

Measured 2026-11-26 (2 shared cores, load ~10, so walls are noisy; the ratio is what counts): detection, 5,000
images / 500,000 results: one score 7.46 s, B = 1000 130.9 s, 17.5x (target 20x), peak RSS 134 / 140 MiB;
1,000 images / 100,000 results: 0.86 s, 41.9 s, 48.8x (fixed costs of one score weigh less there).

Measured 2026-11-27 06:48-06:56 UTC (2 shared cores, load 8-11: the walls are mostly waiting for a core, so the CPU
times are quoted too), 1,000,000 rows, STATS_PY_REPLICATES=20, BENCH_SKIP_BROWSER=1:
  classification: one score 6.72 s wall (1.8 s CPU), B = 1000 77.2 s wall (28.7 s CPU: 27 ms per replicate, was
  46), 11.5x wall, 16x CPU; peak 287 / 285 MiB; NumPy + scikit-learn 3.0 s per replicate (peak 461 MiB), 39x slower.
  regression: one score 5.63 s wall (1.3 s CPU), B = 1000 114.2 s wall (37.8 s CPU: 36 ms per replicate, was 82),
  20.3x wall, 28x CPU; peak 316 / 316 MiB; NumPy + scikit-learn 289 ms per replicate (peak 382 MiB), 3x slower
  (its metrics are the 6 weighted means only; dropscore's replicate also has the median, Pearson and Spearman).
The same at 07:10 UTC, load 1.2-1.7 (STATS_PY_REPLICATES=5): classification one score 2.06 s, B = 1000 17.78 s,
8.6x, peak 287 / 287 MiB, scikit-learn 1.39 s per replicate (78x slower); regression 1.84 s, 22.47 s, 12.2x, peak
316 / 316 MiB, scikit-learn 142 ms per replicate (6x slower).
After the replicates in blocks of four (each column read once per block) and the one-pass ROC AUC / AP, measured
2026-11-27 09:48 UTC under load 11.5-13.7 (so walls are mostly waiting; CPU = user + sys): classification one score
3.83 s wall (1.53 s CPU), B = 1000 50.8 s wall (20.1 s CPU: 18.6 ms per replicate, was 27 at load 8-11), 13x CPU,
peak 157 / 218 MiB; regression 4.18 s (1.72 s CPU), 100.0 s (36.1 s CPU: 34 ms per replicate, was 36), 21x CPU,
peak 166 / 212 MiB. At load 6, B = 200: 16.6 ms (classification) and 31.7 ms (regression) CPU per replicate.
The targets (5x) are not met: one score itself got faster (1.2-1.5 s CPU); what a replicate spends now is the
reads of the weights in sorted order (ROC sweep; regression's median and Spearman walks) and the divisions of the
curve points.
After regression's walks in sorted order run once per block of four replicates (the block's draw counts side by
side: one read at random serves four; src/protocols/regression/units_quad.rs), 2026-11-27 12:41 UTC, load 10-12:
regression one score 2.36 s wall (1.07 s CPU), B = 1000 71.1 s wall (26.7 s CPU: 25.6 ms per replicate, was 34),
25x CPU, peak 168 / 227 MiB; A/B at B = 200 against main at the same load: 6.1 vs 6.9-7.5 s CPU. Classification
unchanged: the same four-at-a-time ROC sweep measured no faster (B = 200: 4.8-5.4 vs 4.4-5.1 s CPU; its four
curves, 8 MB each at a million rows, leave the cache) and was not kept. Where a classification replicate goes
(perf, B = 200-300, ~14 ms CPU per replicate at load 5-10): the ROC sweep with its reads in sorted order 25 %,
the curve's three divisions per point (~630,000 points) and their pairwise sums 22 %, the draws 16 % (~3 ms:
PCG64 + NumPy's bounded integers and the random increments), the confusion matrix and the means 11 %. The 5x
target (about 6 ms per replicate beside one score's 1.5 s) is out of reach this way: the draws and the divisions
alone take ~5 ms. This branch's final build, 13:17-13:19 UTC, load 8.5-9.3: regression one score 2.36 s (1.34 s CPU),
B = 1000 51.6 s (29.9 s CPU), 22x CPU, peak 166 / 225 MiB; classification one score 2.84 s (1.66 s CPU), B = 1000
34.0 s (19.8 s CPU), 12x CPU, peak 157 / 219 MiB.
After the curve's divisions in vector loops (AVX2 where the CPU has it), the one-vs-rest sweep as one running sum,
and regression's first pass with its counters in locals and no byte copies (branch cspeed), 2026-11-27
16:06-16:08 UTC, BENCH_SKIP_BROWSER=1, the previous binary then this one back to back (load 1.5-5.7; one score is
now 0.6-0.8 s CPU, so the ratios are against a much smaller one score than above): classification one score
0.81 -> 0.66 s wall (0.77 -> 0.59 s CPU), B = 1000 8.25 -> 6.52 s wall (8.09 -> 6.29 s CPU: 7.3 -> 5.7 ms per
replicate), 10.7x CPU; regression one score 0.65 -> 0.61 s (0.57 -> 0.56 s CPU), B = 1000 14.25 -> 12.33 s
(11.80 -> 11.36 s CPU: 11.2 -> 10.8 ms per replicate; an alternating A/B at B = 400, load 3.5-4.7, gave
5.3-5.5 -> 4.6-4.9 s CPU), 20x CPU; peak 214 / 216 MiB at B = 1000. Every interval byte-identical to the previous
binary's. What a replicate spends now (perf, B = 300): classification, the ROC sweep with its gather of the
weights in sorted order 27 %, the draws 19 % (the random increments of 1,000,000 byte counts, a core's whole
1 MiB L2), the confusion matrix and means 11 %, the curve's divisions and terms 12 %; regression, the walks in
sorted order (gathers of the four replicates' weights and ranks at random, a 16 MB rank table) 31 %, the first
pass 29 % (32 weighted sums per row for a block of four, spilled to the stack), the draws 10 %, the second pass
6 %.
Then regression's largest drawn error read off the rows sorted by |t - p| instead of a masked max per row in the
first pass (most of that pass's time), 16:17-16:18 UTC, load 1.9-2.0, STATS_PY_REPLICATES=2, the previous binary
then this one: classification one score 0.83 / 0.94 s wall (0.88 / 0.97 s CPU), B = 1000 4.39 -> 3.81 s wall
(8.01 -> 6.65 s CPU: 7.1 -> 5.7 ms per replicate), 5.3x -> 4.1x wall (target 5x: met in wall on 2 idle cores),
9.1x -> 6.9x CPU; regression one score 0.58 / 0.62 s (0.64 / 0.70 s CPU), B = 1000 6.31 -> 4.40 s wall
(11.97 -> 8.06 s CPU: 11.3 -> 7.4 ms per replicate), 10.9x -> 7.1x wall, 18.7x -> 11.5x CPU; peak 213 / 216 MiB.
main after both branches merged (56a5149: the replicates above, and the CSV reading of branch kspeed, which makes
one score faster too), 2026-11-27 16:56 UTC, idle machine (load 1.0-1.4), three runs each, median: classification
one score 0.61 s wall (0.53-0.89; 0.57-0.99 s CPU), B = 1000 3.61 s wall (3.58-3.77; 6.4-6.8 s CPU), 5.9x wall
(target 5x: missed again, by a faster one score: the replicates alone cost 3.0 s wall, 6 ms CPU each);
regression one score 0.53 s (0.50-0.62), B = 1000 4.68 s (4.60-4.94; 8.5-9.0 s CPU), 8.8x wall; peak 157 / 220
and 167 / 222 MiB. At this session's start, on the same idle machine, main's binary (60559a4): classification
0.72 / 4.25 s (5.9x), regression 0.62 / 6.45 s (10.4x).
Next session (4ba7bc2: classification's block of four sweeps each sorted column once with the weights written at
their sorted place, and one row pass for the confusion counts and means; regression's Spearman sweeps without a
branch per row and its second pass folded into the first with shifted sums; the drawing thread computing a block
itself when the queue is full), 2026-11-27 19:48 UTC, idle (load 1.0-1.5), A/B with the previous
main (6bb6c8f) in the same minutes, three runs each, best: classification one score 0.49 s wall (0.53 s CPU),
B = 1000 2.76 s wall (4.7 s CPU: 4.2 ms per replicate, was 5.7), 5.6x wall (previous 3.47 / 0.53 s: 6.5x);
regression one score 0.47-0.65 s (the machine's speed varied between runs by a third), B = 1000 3.04-3.30 s
(5.4-5.9 s CPU: ~5 ms per replicate, was 7.4), 4.9-6.5x wall (previous 4.24-4.33 s: 6.6-9.4x); peak 162 / 265
MiB (classification: four curves per worker) and 168 / 208 MiB. The draws (NumPy's PCG64 and bounded integers,
1,000,000 random byte increments) are now a quarter of classification's replicate CPU; four-lane LCG batches
measured no faster (the increments, not the generator, bound them). The other protocols, the same binary,
20:18-20:20 UTC, idle: kws one score 0.14 s, B = 1000 0.14 s (1.0x), peak 8 / 9 MiB; segmentation 0.59 / 0.60 s
(1.0x), 9 / 9 MiB; detection 1,000 images 0.13 / 1.19 s (9.2x wall, 13.5x CPU; target 20x), 35 / 35 MiB.
The page (headless Chromium, one thread; www/pkg of a fresh scripts/build-wasm of 05825ca), 20:20 UTC, idle:
classification 1,000,000 rows one score 0.71 s (open 0.11, score 0.60), with B = 1000 9.11 s (the intervals
8.44 s after the headline: 12.8x the page's one score, was 35.3 s / 19x at 11:13), renderer peak 391 / 427 MB;
regression one score 0.73 s, with B = 1000 12.78 s (intervals 12.06 s: 17.5x), renderer peak 383 / 392 MB.
Next session (f901c70: the draws reach the protocols as bytes, never widened; regression's Spearman sweeps in 64
bits with the next chunk's random reads prefetched, the median walk starting near the middle; classification's row
pass with each column's replicate sums side by side; and scoring once no longer builds the units), 2026-11-27
23:07 UTC, idle (load 0.6-1.3), alternating with the session's start (cf6a25d), three runs each: classification
one score 0.41-0.44 s wall (start 0.53-0.76: the units are no longer built), B = 1000 2.55-2.62 s (start
2.78-2.93), 4.05-4.21 s CPU (start 4.50-4.61), 5.8-6.4x wall; regression one score 0.35-0.48 s (start 0.48-0.49),
B = 1000 2.61-2.86 s (start 3.19-3.33), 4.51-4.69 s CPU (start 5.62-5.77: ~4.2 ms per replicate, was 5.2), 5.5-8x
wall, median 7.4x. Peak: classification 134 / 229 MiB (start 161 / 265), regression 104 / 173 MiB (start 169 /
208). The ratios grew though both bootstraps got faster: the one score lost the units' sorts. The page (headless
Chromium, www/pkg of the CI run's build of f901c70), 23:07 UTC, idle: classification score 0.57-0.59 s, intervals
6.99 s after it (was 8.44 s), renderer peak 434 MB; regression 0.64-0.66 s, intervals 9.10-9.31 s (was 12.06 s),
391 MB.
Next session (76e3af9: the draws 32 PCG64 steps at a time with AVX-512 IFMA, src/stats/numpy_rng_wide.rs, 0.55
against 1.13 ns a draw; classification's curve divisions by the totals as a reciprocal and two FMAs, exact, and
its units built side by side; regression's moments pass over the interleaved weights and eight replicates a block,
Replicate::block), 2026-11-28 01:45 UTC, idle (load 1.2-1.6), five rounds alternating with the session's start
(fb15d7d), medians: classification one score 0.47 s wall (start 0.51), B = 1000 2.29 s (2.22-2.37; start 2.85),
3.97 s CPU (start 4.76): 4.9x (start 5.6x); regression one score 0.39 s (start 0.44), B = 1000 1.93 s (1.87-2.10;
start 3.05), 3.35 s CPU (start 5.46): 5.0x (start 6.9x). Peak: classification 125 / 221 MiB, regression 100 /
193 MiB (start 102 / 169: eight replicates' interleaved weights).
"""
import gzip
import importlib
import json
import os
import shutil
import statistics
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import detection_bench  # noqa: E402
from browser_row import browser_row  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "bench", "out", "statistics")
BIN = os.environ.get("DROPSCORE_BIN", os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
RUNS = int(os.environ.get("BENCH_RUNS", "1"))
N = int(os.environ.get("STATS_N", "1000000"))
PY_REPLICATES = int(os.environ.get("STATS_PY_REPLICATES", "1000"))
B = 1000
TARGETS = {"classification": 5, "regression": 5, "kws": 5, "segmentation": 5, "detection": 20}


def timed(cmd):
    """(median wall s, median CPU s = user + system, peak RSS MiB) of RUNS runs under /usr/bin/time."""
    walls, cpus, peaks = [], [], []
    for _ in range(RUNS):
        p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %U %S %M"] + cmd, capture_output=True, text=True)
        line = [x for x in p.stderr.splitlines() if x.startswith("TIME ")][-1].split()
        if p.returncode != 0:
            sys.exit(f"{cmd}: exit {p.returncode}: {p.stderr[-2000:]}")
        walls.append(float(line[1]))
        cpus.append(float(line[2]) + float(line[3]))
        peaks.append(int(line[4]) / 1024)
    return statistics.median(walls), statistics.median(cpus), max(peaks)


def inputs(protocol):
    os.makedirs(OUT, exist_ok=True)
    if protocol == "detection":
        n = detection_bench.N_IMG
        gt, res = os.path.join(OUT, f"instances-{n}.json"), os.path.join(OUT, f"results-{n}.json")
        if not (os.path.exists(gt) and os.path.exists(res)):
            detection_bench.generate(gt, res)
        return ["--gt", gt, "--pred", res]
    if protocol == "segmentation":
        import segmentation_bench

        size = int(os.environ.get("STATS_SEG_SIZE", "512"))
        segmentation_bench.OUT = os.path.join(OUT, "segmentation")
        segmentation_bench.N = int(os.environ.get("STATS_SEG_MAPS", "500"))
        segmentation_bench.W = segmentation_bench.H = size
        gt, pred = os.path.join(segmentation_bench.OUT, "gt"), os.path.join(segmentation_bench.OUT, "pred")
        if not os.path.isdir(pred) or len(os.listdir(pred)) != segmentation_bench.N:
            segmentation_bench.generate()
        return ["--gt", gt, "--pred", pred, "--set", "num_classes=19"]
    if protocol == "kws":
        # bench/kws.sh's input: the Bentham ICFHR'14 relevance judgements and the 125 MB synthetic run
        # (tests/data/kws/synthetic, unzipped once into bench/out).
        gt = os.path.join(ROOT, "tests", "data", "kws", "rusteval", "TRACK_I_Bentham_ICFHR2014.RelevanceJudgements.xml")
        pred = os.path.join(ROOT, "bench", "out", "SYNTH_TRACK_I_Bentham.xml")
        if not os.path.exists(pred):
            gz = os.path.join(ROOT, "tests", "data", "kws", "synthetic", "SYNTH_TRACK_I_Bentham.xml.gz")
            with gzip.open(gz, "rb") as src, open(pred + ".tmp", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(pred + ".tmp", pred)
        return ["--gt", gt, "--pred", pred]
    if protocol == "falsid":
        import falsid_bench

        falsid_bench.generate()
        gt, preds = falsid_bench.files()
        return ["--gt", gt, "--pred", *preds]
    if protocol == "chalearn-ce":
        chalearn = importlib.import_module("chalearn-ce_bench")
        chalearn.generate()
        return ["--gt", chalearn.REF, "--pred", chalearn.RES]
    if protocol == "text":
        n = int(os.environ.get("STATS_TEXT_LINES", "100000"))
        d = os.path.join(OUT, f"text-{n}")
        gt, pred = os.path.join(d, "gt.csv"), os.path.join(d, "pred.csv")
        if not (os.path.exists(gt) and os.path.exists(pred)):
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "text_gen.py"), d, str(n)], check=True)
        return ["--gt", gt, "--pred", pred]
    if protocol in ("classification", "regression"):
        d = os.path.join(OUT, f"{protocol}-{N}")
        if not os.path.exists(os.path.join(d, "done")):
            generate(protocol, d)
        return ["--gt", os.path.join(d, "gt.csv"), "--pred", os.path.join(d, "pred.csv")]
    sys.exit(f"statistics bench: no input for {protocol}")


def write(path, header, ids, cols, fmt):
    with open(path, "w") as f:
        f.write(header + "\n")
        for a in range(0, len(ids), 200_000):
            block = [ids[a:a + 200_000]] + [np.char.mod(fmt, c[a:a + 200_000]) for c in cols]
            f.write("\n".join(",".join(r) for r in zip(*block)) + "\n")


def generate(protocol, d):
    """Seeded inputs: binary labels with a score that separates them partly; gamma targets with 15 % noise."""
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(7)
    ids = np.char.mod("id%08d", np.arange(N))
    if protocol == "classification":
        y = rng.integers(0, 2, N)
        s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0.001, 0.999)
        write(os.path.join(d, "gt.csv"), "id,label", ids, [y], "%d")
        write(os.path.join(d, "pred.csv"), "id,0,1", ids, [1 - s, s], "%.6f")
    else:
        t = rng.gamma(2.0, 50.0, N)
        p = np.maximum(t * rng.normal(1.0, 0.15, N), 0.0)
        write(os.path.join(d, "gt.csv"), "id,target", ids, [t], "%.3f")
        write(os.path.join(d, "pred.csv"), "id,prediction", ids, [p], "%.3f")
    open(os.path.join(d, "done"), "w").write("ok\n")


def sklearn_row(protocol, gt, pred):
    """(one score s, B replicates s scaled from those run, peak MiB, interval or None) of statistics_sklearn.py."""
    run = min(PY_REPLICATES, B)
    cmd = [sys.executable, os.path.join(ROOT, "bench", "statistics_sklearn.py"), protocol, gt, pred, str(B), str(run)]
    p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None
    out = json.loads(p.stdout.strip().splitlines()[-1])
    peak = int([x for x in p.stderr.splitlines() if x.startswith("TIME ")][-1].split()[2]) / 1024
    return out, peak


BROWSER = ("classification", "regression", "kws", "detection")  # the protocols whose input is two files


def main():
    print(f"{'protocol':<16}{'one score s':>12}{'B=1000 s':>10}{'ratio':>8}{'target':>8}{'peak MiB (one / B)':>22}"
          f"{'CPU s (one / B)':>18}{'CPU ratio':>10}")
    default = "classification,regression,kws,segmentation,detection"
    for protocol in os.environ.get("STATS_PROTOCOLS", default).split(","):
        files = inputs(protocol)
        args = [BIN, protocol] + files + ["--format", "json", "-q"]
        w1, c1, m1 = timed(args + ["--out", os.path.join(OUT, protocol + ".json")])
        wb, cb, mb = timed(args + ["--set", f"bootstrap={B}", "--out", os.path.join(OUT, protocol + "_b.json")])
        target = f"{TARGETS[protocol]}x" if protocol in TARGETS else "-"
        print(f"{protocol:<16}{w1:>12.2f}{wb:>10.2f}{wb / w1:>7.1f}x{target:>8}{m1:>12.0f} / {mb:.0f}"
              f"{c1:>10.2f} / {cb:.2f}{cb / max(c1, 0.01):>9.1f}x")
        if protocol in ("classification", "regression"):
            sklearn_compare(protocol, files[1], files[3], wb)
        if protocol in BROWSER:
            chromium_row(protocol, files[1], files[3], w1)
        elif protocol == "segmentation":
            # The page takes the label maps as a zip each, made once beside the folders.
            zips = []
            for d in (files[1], files[3]):
                z = d.rstrip("/") + ".zip"
                if not os.path.exists(z):
                    shutil.make_archive(z[:-4], "zip", d)
                zips.append(z)
            chromium_row(protocol, zips[0], zips[1], w1, ",num_classes=19")


def chromium_row(protocol, gt, pred, w1, extra=""):
    one, peak1, _ = browser_row(protocol, gt, pred, set_opts="max_memory=4GiB" + extra)
    secs, peak, scores = browser_row(protocol, gt, pred, set_opts=f"max_memory=4GiB,bootstrap={B}" + extra)
    if secs is None or one is None:
        print(f"  Chromium: {scores}")
    else:
        print(f"{'  Chromium':<16}{one:>12.2f}{secs:>10.2f}{secs / one:>7.1f}x{'':>8}{peak1:>12.0f} / {peak:.0f}"
              f"   (the page's worker: score, then the intervals; {secs / w1:.1f}x native one score)")


def sklearn_compare(protocol, gt, pred, wb):
    py = sklearn_row(protocol, gt, pred)
    if not py:
        print("  scikit-learn: failed")
        return
    out, peak = py
    scaled = out["read_s"] + out["one_s"] + out["replicate_s"] * B
    print(f"{'  scikit-learn':<16}{out['read_s'] + out['one_s']:>12.2f}{scaled:>10.1f}{scaled / (out['read_s'] + out['one_s']):>7.1f}x"
          f"{'':>8}{peak:>12.0f}   ({out['replicates_run']} of {B} replicates run, {out['replicate_s'] * 1000:.0f} ms each;"
          f" dropscore B=1000 is {scaled / wb:.0f}x faster)")
    if out["low"] is not None:
        ours = json.load(open(os.path.join(OUT, protocol + "_b.json")))["intervals"][out["metric"]]
        same = abs(ours["low"] - out["low"]) <= 1e-9 * abs(out["low"]) and abs(ours["high"] - out["high"]) <= 1e-9 * abs(out["high"])
        print(f"  {out['metric']} interval: dropscore [{ours['low']}, {ours['high']}], NumPy + scikit-learn [{out['low']}, {out['high']}]: {'equal' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
