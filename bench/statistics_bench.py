#!/usr/bin/env python3
"""statistics bench (docs/specs/statistics.md section 6): for each protocol with bootstrap units, dropscore native
scoring once and with `--set bootstrap=1000`, each as one process under /usr/bin/time (wall, peak RSS), and the
ratio against the spec's target (5x one score for classification, regression, kws, segmentation; 20x for detection).

Inputs: detection, the COCO-val-sized synthetic set of bench/detection_bench.py (DET_IMAGES, DET_PER_IMAGE);
segmentation, the label maps of bench/segmentation_bench.py at STATS_SEG_MAPS (500) maps of STATS_SEG_SIZE (512)
pixels square, 19 classes.
Env: BENCH_RUNS (1), STATS_PROTOCOLS (detection), DROPSCORE_BIN.

Measured 2026-11-26 (2 shared cores, load ~10, so walls are noisy; the ratio is what counts): detection, 5,000
images / 500,000 results: one score 7.46 s, B = 1000 130.9 s, 17.5x (target 20x), peak RSS 134 / 140 MiB;
1,000 images / 100,000 results: 0.86 s, 41.9 s, 48.8x (fixed costs of one score weigh less there).
"""
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import detection_bench  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "bench", "out", "statistics")
BIN = os.environ.get("DROPSCORE_BIN", os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
RUNS = int(os.environ.get("BENCH_RUNS", "1"))
TARGETS = {"classification": 5, "regression": 5, "kws": 5, "segmentation": 5, "detection": 20}


def timed(cmd):
    walls, peaks = [], []
    for _ in range(RUNS):
        p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd, capture_output=True, text=True)
        line = [x for x in p.stderr.splitlines() if x.startswith("TIME ")][-1].split()
        if p.returncode != 0:
            sys.exit(f"{cmd}: exit {p.returncode}: {p.stderr[-2000:]}")
        walls.append(float(line[1]))
        peaks.append(int(line[2]) / 1024)
    return statistics.median(walls), max(peaks)


def inputs(protocol):
    os.makedirs(OUT, exist_ok=True)
    if protocol == "detection":
        gt, res = os.path.join(OUT, "instances.json"), os.path.join(OUT, "results.json")
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
    sys.exit(f"statistics bench: no input for {protocol}")


def main():
    print(f"{'protocol':<16}{'one score s':>12}{'B=1000 s':>10}{'ratio':>8}{'target':>8}{'peak MiB (one / B)':>22}")
    for protocol in os.environ.get("STATS_PROTOCOLS", "detection").split(","):
        args = [BIN, protocol] + inputs(protocol) + ["--format", "json", "-q"]
        w1, m1 = timed(args + ["--out", os.path.join(OUT, protocol + ".json")])
        wb, mb = timed(args + ["--set", "bootstrap=1000", "--out", os.path.join(OUT, protocol + "_b.json")])
        print(f"{protocol:<16}{w1:>12.2f}{wb:>10.2f}{wb / w1:>7.1f}x{TARGETS.get(protocol, 0):>7}x{m1:>12.0f} / {mb:.0f}")


if __name__ == "__main__":
    main()
