#!/usr/bin/env python3
"""segmentation bench: 500 Cityscapes-sized label maps (1024x2048, 19 classes, ignore 255), GT and prediction as
8-bit gray PNGs, scored by dropscore native and by the NumPy transcription of mmsegmentation's IoUMetric
(tests/reference/segmentation_diff.py; PNGs read with zlib + NumPy, which is enough for the files written here:
8-bit gray, filter 0), each as one whole process under /usr/bin/time (wall, peak RSS), and dropscore's wasm in headless Chromium on
gt.zip + pred.zip (the same PNGs, stored; bench/browser_row.py: the page's worker, score time without fetching, the
renderer's peak RSS). mIoU printed as a check.

Env: BENCH_RUNS (1), BENCH_SKIP_BROWSER=1, SEG_MAPS (500), SEG_W (2048), SEG_H (1024), DROPSCORE_BIN, BENCH_PYTHON (python3).
"""
import os
import statistics
import struct
import subprocess
import sys
import zipfile
import zlib

import numpy as np

from browser_row import browser_row

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OUT = os.path.join(ROOT, "bench", "out", "segmentation")
BIN = os.environ.get("DROPSCORE_BIN", os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
PY = os.environ.get("BENCH_PYTHON", sys.executable)
RUNS = int(os.environ.get("BENCH_RUNS", "1"))
N = int(os.environ.get("SEG_MAPS", "500"))
W = int(os.environ.get("SEG_W", "2048"))
H = int(os.environ.get("SEG_H", "1024"))


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(arr):
    h, w = arr.shape
    raw = np.concatenate([np.zeros((h, 1), np.uint8), arr.astype(np.uint8)], axis=1).tobytes()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))


def generate():
    rng = np.random.default_rng(19)
    for d in ("gt", "pred"):
        os.makedirs(os.path.join(OUT, d), exist_ok=True)
    for k in range(N):
        # Blocks of 64x64 pixels with a class each, a horizon of classes, an ignore band at the bottom.
        coarse = rng.integers(0, 19, size=(H // 64 + 1, W // 64 + 1))
        gt = np.kron(coarse, np.ones((64, 64), np.int64))[:H, :W]
        gt[: H // 3] = 10  # sky
        gt[-H // 16:] = 255
        pred = gt.copy()
        pred[pred == 255] = 0
        noise = rng.random((H // 8, W // 8)) < 0.2
        wrong = np.kron(noise, np.ones((8, 8), bool))[:H, :W]
        pred[wrong] = (pred[wrong] + 1) % 19
        with open(os.path.join(OUT, "gt", f"{k:04d}.png"), "wb") as f:
            f.write(png(gt))
        with open(os.path.join(OUT, "pred", f"{k:04d}.png"), "wb") as f:
            f.write(png(pred))


NUMPY = r"""
import os, sys, struct, zlib
import numpy as np
sys.path.insert(0, sys.argv[3])
from segmentation_diff import intersect_and_union, total_area_to_metrics

def read(path):
    b = open(path, 'rb').read()
    w, h = struct.unpack('>II', b[16:24])
    i, idat = 8, []
    while i < len(b):
        n = struct.unpack('>I', b[i:i + 4])[0]
        if b[i + 4:i + 8] == b'IDAT':
            idat.append(b[i + 8:i + 8 + n])
        i += 12 + n
    return np.frombuffer(zlib.decompress(b''.join(idat)), np.uint8).reshape(h, w + 1)[:, 1:]

C = 19
ti = np.zeros(C, np.int64); tu = ti.copy(); tp = ti.copy(); tl = ti.copy()
for name in sorted(os.listdir(sys.argv[1])):
    i, u, p, l = intersect_and_union(read(os.path.join(sys.argv[2], name)).astype(np.int64),
                                     read(os.path.join(sys.argv[1], name)).astype(np.int64), C, 255)
    ti += i; tu += u; tp += p; tl += l
acc, per = total_area_to_metrics(ti, tu, tp, tl)
print(repr(float(np.nanmean(per['IoU']))))
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
    if not os.path.exists(os.path.join(OUT, "pred", f"{N - 1:04d}.png")):
        generate()
    gt, pred = os.path.join(OUT, "gt"), os.path.join(OUT, "pred")
    print(f"{N} label maps {W}x{H}, 19 classes; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"median of {RUNS} run(s)")
    rows = []
    rep = os.path.join(OUT, "report.json")
    w, m, out = timed([BIN, "segmentation", "--gt", gt, "--pred", pred, "--set", "num_classes=19",
                       "--format", "json", "--out", rep])
    import json
    rows.append(("dropscore native", w, m, repr(json.load(open(rep))["scores"]["mIoU"]) if w else out))
    zips = []
    for d in (gt, pred):
        z = d + ".zip"
        if not os.path.exists(z):
            with zipfile.ZipFile(z + ".tmp", "w", zipfile.ZIP_STORED) as f:
                for name in sorted(os.listdir(d)):
                    f.write(os.path.join(d, name), name)
            os.replace(z + ".tmp", z)
        zips.append(z)
    w, m, sc = browser_row("segmentation", zips[0], zips[1], RUNS, "max_memory=4GiB,num_classes=19")
    rows.append(("dropscore Chromium", w, m, repr(sc["mIoU"]) if w else sc))
    w, m, out = timed([PY, "-c", NUMPY, gt, pred, os.path.join(ROOT, "tests", "reference")])
    rows.append(("NumPy IoUMetric", w, m, out.strip()))
    base = rows[0][1]
    print(f"{'tool':<22} {'wall s':>8} {'peak MB':>9} {'x native':>9}  mIoU")
    for name, w, m, v in rows:
        if w is None:
            print(f"{name:<22} {'-':>8} {'-':>9} {'-':>9}  failed: {v}")
        else:
            print(f"{name:<22} {w:8.2f} {m:9.0f} {w / base:9.1f}  {v}")


if __name__ == "__main__":
    main()
