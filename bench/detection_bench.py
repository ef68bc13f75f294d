#!/usr/bin/env python3
"""detection bench: a COCO-val-sized synthetic set (5,000 images, ~36,000 GT boxes, 80 categories, 100 detections
per image = 500,000 results), scored by dropscore native, pycocotools 2.0.8 and faster-coco-eval (when importable),
each as one whole process under /usr/bin/time (wall, peak RSS), end to end (JSON reading included), and dropscore's
wasm in headless Chromium (bench/browser_row.py: the page's worker, score time without fetching, the renderer's peak
RSS). The AP of each tool is printed as a check that all computed the same thing.

Env: BENCH_RUNS (1), BENCH_SKIP_BROWSER=1, DET_IMAGES (5000), DET_PER_IMAGE (100), DROPSCORE_BIN, BENCH_PYTHON (python3).
"""
import json
import os
import random
import statistics
import subprocess
import sys

from browser_row import browser_row

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "bench", "out", "detection")
BIN = os.environ.get("DROPSCORE_BIN", os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
PY = os.environ.get("BENCH_PYTHON", sys.executable)
RUNS = int(os.environ.get("BENCH_RUNS", "1"))
N_IMG = int(os.environ.get("DET_IMAGES", "5000"))
PER_IMG = int(os.environ.get("DET_PER_IMAGE", "100"))


def generate(gt_path, res_path):
    rng = random.Random(2026)
    images, anns, dets = [], [], []
    for i in range(1, N_IMG + 1):
        images.append({"id": i, "file_name": f"{i:012d}.jpg", "width": 640, "height": 480})
        gts = []
        for _ in range(min(40, int(rng.expovariate(1 / 7.2)))):
            side = 8 * (2 ** rng.uniform(0, 5))
            w, h = round(side * rng.uniform(0.6, 1.4), 2), round(side * rng.uniform(0.6, 1.4), 2)
            x, y = round(rng.uniform(0, 640 - min(w, 600)), 2), round(rng.uniform(0, 480 - min(h, 440)), 2)
            a = {"id": len(anns) + 1, "image_id": i, "category_id": rng.randint(1, 80), "bbox": [x, y, w, h],
                 "area": round(w * h * rng.uniform(0.6, 0.9), 2), "iscrowd": 1 if rng.random() < 0.01 else 0}
            anns.append(a)
            gts.append(a)
        for _ in range(PER_IMG):
            if gts and rng.random() < 0.5:
                g = rng.choice(gts)
                x, y, w, h = g["bbox"]
                j = rng.choice([0.03, 0.1, 0.3])
                box = [round(x + rng.gauss(0, j * w), 2), round(y + rng.gauss(0, j * h), 2),
                       round(abs(w * (1 + rng.gauss(0, j))), 2), round(abs(h * (1 + rng.gauss(0, j))), 2)]
                cat = g["category_id"] if rng.random() < 0.8 else rng.randint(1, 80)
            else:
                s = 8 * (2 ** rng.uniform(0, 5))
                box = [round(rng.uniform(0, 600), 2), round(rng.uniform(0, 440), 2), round(s, 2), round(s * rng.uniform(0.5, 1.5), 2)]
                cat = rng.randint(1, 80)
            dets.append({"image_id": i, "category_id": cat, "bbox": box, "score": round(rng.random(), 5)})
    cats = [{"id": c, "name": f"class_{c}", "supercategory": "thing"} for c in range(1, 81)]
    with open(gt_path, "w") as f:
        json.dump({"images": images, "annotations": anns, "categories": cats}, f)
    with open(res_path, "w") as f:
        json.dump(dets, f)
    return len(anns), len(dets)


PYCOCO = """
import sys, contextlib, io
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval
with contextlib.redirect_stdout(io.StringIO()):
    g = COCO(sys.argv[1]); r = g.loadRes(sys.argv[2]); E = COCOeval(g, r, 'bbox')
    E.evaluate(); E.accumulate(); E.summarize()
print(repr(float(E.stats[0])))
"""

FASTER = """
import sys, contextlib, io
from faster_coco_eval import COCO, COCOeval_faster
with contextlib.redirect_stdout(io.StringIO()):
    g = COCO(sys.argv[1]); r = g.loadRes(sys.argv[2]); E = COCOeval_faster(g, r, 'bbox')
    E.evaluate(); E.accumulate(); E.summarize()
print(repr(float(E.stats[0])))
"""


def timed(cmd):
    walls, rss, out = [], 0, ""
    for _ in range(RUNS):
        p = subprocess.run(["/usr/bin/time", "-f", "TIME %e %M"] + cmd, capture_output=True, text=True)
        line = [l for l in p.stderr.splitlines() if l.startswith("TIME ")]
        if p.returncode != 0 or not line:
            return None, None, p.stderr.strip()[-300:]
        _, e, m = line[-1].split()
        walls.append(float(e))
        rss = max(rss, int(m))
        out = p.stdout
    return statistics.median(walls), rss / 1024, out


def main():
    os.makedirs(OUT, exist_ok=True)
    gt = os.path.join(OUT, "instances.json")
    res = os.path.join(OUT, "results.json")
    if not (os.path.exists(gt) and os.path.exists(res)):
        n_gt, n_det = generate(gt, res)
        print(f"generated {N_IMG} images, {n_gt} GT boxes, {n_det} detections")
    print(f"GT {os.path.getsize(gt) / 1e6:.1f} MB, results {os.path.getsize(res) / 1e6:.1f} MB; load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; median of {RUNS} run(s)")
    rows = []
    w, m, out = timed([BIN, "detection", "--gt", gt, "--pred", res, "--format", "json", "--out", os.path.join(OUT, "report.json")])
    ap = json.load(open(os.path.join(OUT, "report.json")))["scores"]["AP"] if w else None
    rows.append(("dropscore native", w, m, repr(ap) if w else out))
    w, m, sc = browser_row("detection", gt, res, RUNS)
    rows.append(("dropscore Chromium", w, m, repr(sc["AP"]) if w else sc))
    w, m, out = timed([PY, "-c", PYCOCO, gt, res])
    rows.append(("pycocotools 2.0.8", w, m, out.strip()))
    w, m, out = timed([PY, "-c", FASTER, gt, res])
    rows.append(("faster-coco-eval", w, m, out.strip()))
    base = rows[0][1]
    print(f"{'tool':<22} {'wall s':>8} {'peak MB':>9} {'x native':>9}  AP")
    for name, w, m, ap in rows:
        if w is None:
            print(f"{name:<22} {'-':>8} {'-':>9} {'-':>9}  failed: {ap}")
        else:
            print(f"{name:<22} {w:8.2f} {m:9.0f} {w / base:9.1f}  {ap}")


if __name__ == "__main__":
    main()
