"""Differential test of `dropscore fest` against fest_official.py (an independent OpenCV + NumPy implementation of
the official FEST 2025 evaluation, docs/specs/fest.md 2-3) on random mask pairs: varying sizes, touching and diagonal
lines, noise, many colours (the uint8 wrap), empty images, all-black predictions, and PNGs of every kind (8/16-bit
gray, 1/2/4-bit gray, RGB, RGBA, 16-bit RGB, palette), written by the small PNG writer below.

For every pair, every metric in the CLI's JSON equals the reference value to the last bit, the counts agree, and the
CLI's text output equals the reference's printed lines; per-manuscript numpy means are compared on the whole set.

    python3 tests/reference/fest_diff.py [N=200] [SEED=2025]      (DROPSCORE_BIN overrides target/release/dropscore)
"""

import collections
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fest_official as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore"))
IDS = ["pixel_iu", "line_iu", "dr", "ra", "fm"]


KINDS = collections.Counter()  # PNG kinds written (colour type + bit depth), printed in the summary


def write_png(path, arr, kind, depth=8, palette=None):
    """arr: HxW (gray / palette indices) or HxWxC samples. kind: gray, graya, rgb, rgba, palette."""
    KINDS[f"{kind}{depth}"] += 1
    ct, ch = {"gray": (0, 1), "rgb": (2, 3), "palette": (3, 1), "graya": (4, 2), "rgba": (6, 4)}[kind]
    h, w = arr.shape[:2]
    a = arr.reshape(h, w * ch).astype(np.uint32)
    rows = []
    for y in range(h):
        if depth == 8:
            row = a[y].astype(np.uint8).tobytes()
        elif depth == 16:
            row = a[y].astype(">u2").tobytes()
        else:
            bits = "".join(format(int(v), f"0{depth}b") for v in a[y])
            bits += "0" * (-len(bits) % 8)
            row = bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8))
        rows.append(b"\0" + row)

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ct, 0, 0, 0))
    if palette is not None:
        data += chunk(b"PLTE", bytes(np.asarray(palette, dtype=np.uint8).reshape(-1)))
    data += chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(data)


def random_lines(rng, h, w):
    """An instance map of text lines (0 = background): bands, touching bands, diagonal tails, noise."""
    inst = np.zeros((h, w), dtype=np.int32)
    k = int(rng.integers(0, 9))
    y = int(rng.integers(0, 3))
    for i in range(1, k + 1):
        th = int(rng.integers(1, 5))
        if y >= h:
            break
        x0 = int(rng.integers(0, max(1, w // 3)))
        x1 = int(rng.integers(min(w, x0 + 1), w + 1))
        inst[y:y + th, x0:x1] = i
        if rng.random() < 0.3:  # diagonal tail
            yy, xx = y + th, x1
            for _ in range(int(rng.integers(1, 4))):
                if yy < h and xx < w:
                    inst[yy, xx] = i
                yy += 1
                xx += 1
        y += th + int(rng.integers(0, 4))  # gap 0 = touching lines
    if rng.random() < 0.3:
        noise = rng.random((h, w)) < 0.02
        inst[noise & (inst == 0)] = k + 1
    return inst


def random_pred(rng, inst):
    """A predicted colour map derived from the GT lines: shifted, split, merged, extra blobs, many colours."""
    h, w = inst.shape
    mode = rng.random()
    if mode < 0.05:
        return np.zeros((h, w, 3), dtype=np.int64)  # all black
    p = inst.copy()
    if rng.random() < 0.5:
        p = np.roll(p, int(rng.integers(-2, 3)), axis=int(rng.integers(0, 2)))
    if rng.random() < 0.4:  # split lines in halves
        p = np.where((p > 0) & (np.arange(w)[None, :] > w // 2), p + 50, p)
    if rng.random() < 0.3:  # merge neighbours
        p = np.where(p > 0, (p + 1) // 2, 0)
    if rng.random() < 0.3:  # extra blob
        y0, x0 = int(rng.integers(0, h)), int(rng.integers(0, w))
        p[y0:y0 + 3, x0:x0 + 6] = 99
    if rng.random() < 0.15:  # many colours: every pixel its own label (uint8 wrap)
        p = np.where(rng.random((h, w)) < 0.7, np.arange(h * w).reshape(h, w) + 1, p)
    labels = np.unique(p)
    ncol = len(labels)
    pal = rng.integers(0, 256, size=(ncol, 3))
    pal[0] = 0 if rng.random() < 0.85 else rng.integers(0, 256, size=3)  # sometimes no black background
    if rng.random() < 0.1:
        pal[1:] = 255  # binary mask
    idx = np.searchsorted(labels, p)
    return pal[idx]


def write_gt(rng, path, inst):
    h, w = inst.shape
    r = rng.random()
    fg = inst > 0
    if r < 0.45:
        write_png(path, np.where(fg, 255, 0), "gray")
    elif r < 0.55:
        write_png(path, np.where(fg, int(rng.integers(1, 256)), 0), "gray")
    elif r < 0.65:  # 16-bit gray, some foreground below 256 (read as background)
        write_png(path, np.where(fg, rng.choice([200, 40000], size=(h, w)), rng.choice([0, 100], size=(h, w))), "gray", 16)
    elif r < 0.72:
        write_png(path, fg.astype(np.uint8), "gray", 1)
    elif r < 0.77:
        write_png(path, np.where(fg, 3, rng.choice([0, 0, 1], size=(h, w))), "gray", 2)
    elif r < 0.87:  # colour GT, near-black colours included
        cols = np.array([[0, 0, 0], [255, 255, 255], [0, 0, 4], [2, 0, 0], [127, 46, 9], [0, 1, 0]])
        pick = rng.integers(1, len(cols), size=(h, w))
        write_png(path, np.where(fg[..., None], cols[pick], 0), "rgb")
    elif r < 0.92:  # 16-bit RGB (rounded luma, then high byte)
        v = rng.choice([2240, 2241, 60000], size=(h, w))
        write_png(path, np.stack([np.zeros_like(v), np.zeros_like(v), np.where(fg, v, 0)], -1), "rgb", 16)
    else:  # palette with a tRNS-free 2-colour palette
        write_png(path, fg.astype(np.uint8), "palette", 8, palette=[[0, 0, 0], [255, 255, 255]])


def write_pred(rng, path, rgb):
    h, w = rgb.shape[:2]
    distinct = np.unique(rgb.reshape(-1, 3), axis=0)
    r = rng.random()
    if r < 0.5 or len(distinct) > 256:
        if rng.random() < 0.5 or len(distinct) > 256:
            write_png(path, rgb, "rgb")
        else:
            write_png(path, np.dstack([rgb, rng.integers(0, 256, size=(h, w))]), "rgba")
    elif r < 0.7:  # palette (bit depth from the colour count)
        idx = np.array([np.searchsorted(np.ravel_multi_index(distinct.T, (256, 256, 256)), np.ravel_multi_index(c.T, (256, 256, 256))) for c in [rgb.reshape(-1, 3)]])[0]
        depth = 8 if len(distinct) > 16 else 4 if len(distinct) > 4 else 2 if len(distinct) > 2 else 1
        write_png(path, idx.reshape(h, w), "palette", depth, palette=distinct)
    elif r < 0.85:  # 16-bit RGB: high bytes are the colour
        write_png(path, rgb * 257 + rng.integers(0, 256, size=rgb.shape), "rgb", 16)
    else:  # gray prediction (r = g = b)
        write_png(path, rgb[..., 0], "gray")


def cli(gt, pred, fmt, extra=()):
    p = subprocess.run([BIN, "fest", "--gt", gt, "--pred", pred, "--format", fmt, "--quiet", *extra],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"dropscore exited {p.returncode}: {p.stderr}")
    return p.stdout


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2025
    rng = np.random.default_rng(seed)
    tmp = tempfile.mkdtemp(prefix="fest-diff-")
    failures = []
    compared = crashes = 0
    all_gt, all_pred = os.path.join(tmp, "all", "gt"), os.path.join(tmp, "all", "pred")
    os.makedirs(all_gt)
    os.makedirs(all_pred)
    pooled = []
    seen = collections.Counter()
    for i in range(n):
        h, w = int(rng.integers(1, 48)), int(rng.integers(1, 64))
        if i % 25 == 0:
            h, w = 120, 160
        inst = random_lines(rng, h, w)
        if i % 40 == 7:
            inst[:] = 0  # empty GT
        conn = 4 if i % 5 == 4 else 8
        d = os.path.join(tmp, f"{i:03d}")
        os.makedirs(os.path.join(d, "gt"))
        os.makedirs(os.path.join(d, "pred"))
        gt_path, pred_path = os.path.join(d, "gt", "img.png"), os.path.join(d, "pred", "img.png")
        write_gt(rng, gt_path, inst)
        write_pred(rng, pred_path, random_pred(rng, inst))
        try:
            values, counts = ref.evaluate(gt_path, pred_path, conn)
            crash = False
        except ZeroDivisionError:
            crash = True
        extra = ("--set", "connectivity=4") if conn == 4 else ()
        rep = json.loads(cli(gt_path, pred_path, "json", extra))
        codes = [x["code"] for x in rep["diagnostics"]]
        seen.update(set(codes))
        if crash:
            crashes += 1
            if "fest.official.ra_division_by_zero" not in codes or rep["scores"]["line_iu"] is not None:
                failures.append(f"pair {i}: reference raises ZeroDivisionError, CLI gives {codes}")
            continue
        item = rep["items"][0]
        got = [item["scores"][k] for k in IDS]
        want = [float(v) for v in values]
        if got != want:
            failures.append(f"pair {i} (conn {conn}): metrics {got} != reference {want}")
        got_counts = {k: item["detail"][k] for k in counts}
        if got_counts != counts:
            failures.append(f"pair {i}: counts {got_counts} != reference {counts}")
        txt = cli(gt_path, pred_path, "text", extra)
        if not txt.startswith(ref.text(values)):
            failures.append(f"pair {i}: text output\n{txt}!= reference\n{ref.text(values)}")
        compared += 1
        if conn == 8:
            os.link(gt_path, os.path.join(all_gt, f"{i:03d}.png"))
            os.link(pred_path, os.path.join(all_pred, f"{i:03d}.png"))
            pooled.append(values)
    # Manuscript means (numpy) over every non-crashing 8-connected pair, in sorted order.
    rep = json.loads(cli(all_gt, all_pred, "json"))
    want = [float(np.mean([v[k] for v in pooled])) for k in range(5)]
    got = [rep["groups"][0]["scores"][k] for k in IDS]
    if got != want:
        failures.append(f"manuscript means {got} != reference {want}")
    print("PNGs by kind:", ", ".join(f"{k} {v}" for k, v in sorted(KINDS.items())))
    print("cases by diagnostic:", ", ".join(f"{k.removeprefix('fest.')} {v}" for k, v in sorted(seen.items())))
    for f in failures[:20]:
        print("MISMATCH", f)
    print(f"fest_diff: {compared} pairs compared (5 metrics, 9 counts, text), {crashes} ZeroDivisionError cases, "
          f"1 manuscript of {len(pooled)} images; {len(failures)} mismatches (seed {seed})")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
