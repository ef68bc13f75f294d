#!/usr/bin/env python3
"""Differential test of `dropscore segmentation` against a NumPy transcription of mmsegmentation's IoUMetric
(`mmseg/evaluation/metrics/iou_metric.py`: `intersect_and_union`, `total_area_to_metrics`; mmsegmentation and
torch are not installed). torch.histc(x, bins=C, min=0, max=C-1) on integer class values is a bincount of the
values in 0..C-1; the areas are summed over the images, the metrics computed in float64 from the integer
counts (the spec's contract: mmseg itself uses float32 and rounds), then np.nanmean over the classes.

Random cases (default 320) of 1-6 label maps, written as PNG (8/16-bit gray, 8/4-bit palette, RGB with a
palette option) with a small PNG writer (zlib), with ignore pixels, absent classes, predictions of 255,
reduce_zero_label, another ignore_index, and a single differently named pair; about 6 % of the cases hold a GT
or predicted value >= num_classes, where dropscore must fail with the first such pixel. The 7 metrics and the
per-class IoU/Acc/Dice/precision/recall and pixel counts must agree to 1e-12. Exit status 1 on any mismatch.

Usage: python3 tests/reference/segmentation_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import warnings
import zlib

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
METRICS = ["aAcc", "mIoU", "mAcc", "mDice", "mFscore", "mPrecision", "mRecall"]


# ---------------------------------------------------------------- mmseg's IoUMetric, in NumPy

def histc(x, num_classes):
    """torch.histc(x.float(), bins=num_classes, min=0, max=num_classes - 1) for integer values."""
    x = x[(x >= 0) & (x <= num_classes - 1)]
    return np.bincount(x.astype(np.int64), minlength=num_classes)[:num_classes].astype(np.int64)


def intersect_and_union(pred_label, label, num_classes, ignore_index):
    mask = label != ignore_index
    pred_label = pred_label[mask]
    label = label[mask]
    intersect = pred_label[pred_label == label]
    area_intersect = histc(intersect, num_classes)
    area_pred_label = histc(pred_label, num_classes)
    area_label = histc(label, num_classes)
    area_union = area_pred_label + area_label - area_intersect
    return area_intersect, area_union, area_pred_label, area_label


def total_area_to_metrics(ti, tu, tp, tl, beta=1):
    def f_score(precision, recall, beta=1):
        return (1 + beta ** 2) * (precision * recall) / ((beta ** 2 * precision) + recall)

    with np.errstate(divide="ignore", invalid="ignore"):
        all_acc = ti.sum() / tl.sum()
        iou = ti / tu
        acc = ti / tl
        dice = 2 * ti / (tp + tl)
        precision = ti / tp
        recall = ti / tl
        fscore = np.array([f_score(x[0], x[1], beta) for x in zip(precision, recall)], dtype=np.float64)
    return all_acc, {"IoU": iou, "Acc": acc, "Dice": dice, "Fscore": fscore, "Precision": precision, "Recall": recall}


def reduce_zero_label(gt):
    gt = gt.astype(np.int64)
    gt[gt == 0] = 255
    gt = gt - 1
    gt[gt == 254] = 255
    return gt


def reference(pairs, num_classes, ignore_index, reduce):
    ti = np.zeros(num_classes, np.int64)
    tu = ti.copy()
    tp = ti.copy()
    tl = ti.copy()
    for gt, pred in pairs:
        g = reduce_zero_label(gt) if reduce else gt.astype(np.int64)
        i, u, p, l = intersect_and_union(pred.astype(np.int64), g, num_classes, ignore_index)
        ti += i
        tu += u
        tp += p
        tl += l
    all_acc, per = total_area_to_metrics(ti, tu, tp, tl)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nanmean of all-NaN: NaN, as mmseg gets it
        summary = {
            "aAcc": float(all_acc),
            "mIoU": np.nanmean(per["IoU"]),
            "mAcc": np.nanmean(per["Acc"]),
            "mDice": np.nanmean(per["Dice"]),
            "mFscore": np.nanmean(per["Fscore"]),
            "mPrecision": np.nanmean(per["Precision"]),
            "mRecall": np.nanmean(per["Recall"]),
        }
    return summary, per, tp, tl


# ---------------------------------------------------------------- a small PNG writer

def chunk(kind, data):
    c = struct.pack(">I", len(data)) + kind + data
    return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(arr, mode, palette=None):
    h, w = arr.shape[:2]
    if mode == "L8":
        ct, depth, rows = 0, 8, [r.astype(">u1").tobytes() for r in arr]
    elif mode == "L16":
        ct, depth, rows = 0, 16, [r.astype(">u2").tobytes() for r in arr]
    elif mode == "P8":
        ct, depth, rows = 3, 8, [r.astype(">u1").tobytes() for r in arr]
    elif mode == "P4":
        ct, depth = 3, 4
        rows = []
        for r in arr:
            r = list(r) + ([0] if w % 2 else [])
            rows.append(bytes((int(r[i]) << 4) | int(r[i + 1]) for i in range(0, len(r), 2)))
    elif mode == "RGB":
        ct, depth, rows = 2, 8, [r.astype(">u1").tobytes() for r in arr]
    else:
        raise ValueError(mode)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ct, 0, 0, 0))
    if ct == 3:
        n = 16 if depth == 4 else 256
        out += chunk(b"PLTE", bytes((i * 37 % 256, i * 91 % 256, i * 53 % 256)[j] for i in range(n) for j in range(3)))
    out += chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + r for r in rows)))
    return out + chunk(b"IEND", b"")


def colour_of(v):
    return ((v * 97) % 256, (v * 31 + 7) % 256, (v * 13 + 200) % 256)


def write(path, arr, mode):
    if mode == "RGB":
        rgb = np.zeros(arr.shape + (3,), np.uint8)
        for v in np.unique(arr):
            rgb[arr == v] = colour_of(int(v))
        data = png_bytes(rgb, "RGB")
    else:
        data = png_bytes(arr, mode)
    with open(path, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- cases

def make_case(rng):
    C = rng.randint(1, 12)
    ignore = 255 if rng.random() < 0.85 else rng.choice([0, C + 3])
    reduce = ignore == 255 and rng.random() < 0.2
    n = rng.randint(1, 6)
    pairs = []
    for _ in range(n):
        h, w = rng.randint(1, 40), rng.randint(1, 40)
        used = rng.sample(range(C), rng.randint(1, C))
        g = np.array(rng.choices(used, k=h * w), np.int64).reshape(h, w)
        if rng.random() < 0.6:  # blocks, so that predictions can be mostly right
            for _ in range(rng.randint(1, 4)):
                y, x = rng.randrange(h), rng.randrange(w)
                g[y:y + rng.randint(1, 15), x:x + rng.randint(1, 15)] = rng.choice(used)
        if reduce:
            g = g + 1  # stored values: 0 = ignore, v + 1 = class v
        if rng.random() < 0.5:
            g[np.array([rng.random() < 0.1 for _ in range(h * w)]).reshape(h, w)] = 255 if reduce or ignore == 255 else ignore
        if reduce and rng.random() < 0.5:
            g[0, 0] = 0
        p = (g - 1 if reduce else g.copy()).clip(0, None)
        noise = np.array([rng.random() < rng.choice([0.05, 0.3, 0.8]) for _ in range(h * w)]).reshape(h, w)
        p[noise] = np.array(rng.choices(range(C), k=int(noise.sum())), np.int64)
        p[p >= C] = 0
        if ignore >= C and rng.random() < 0.3:  # "no prediction": the ignore value, allowed in predictions
            p[np.array([rng.random() < 0.05 for _ in range(h * w)]).reshape(h, w)] = ignore
        pairs.append([g, p])
    bad = None
    if rng.random() < 0.06:
        k = rng.randrange(n)
        side = rng.randrange(2)
        arr = pairs[k][side]
        y, x = rng.randrange(arr.shape[0]), rng.randrange(arr.shape[1])
        v = C + 1 + (1 if reduce and side == 0 else 0)
        if v not in (255, ignore) and v < 256:
            arr[y, x] = v
            bad = (k, side)
    return C, ignore, reduce, pairs, bad


def first_bad(arr, C, ignore):
    idx = np.flatnonzero((arr.reshape(-1) >= C) & (arr.reshape(-1) != ignore))
    i = int(idx[0])
    return [i % arr.shape[1], i // arr.shape[1]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=320)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    mismatches = 0
    checked = 0
    errors_checked = 0
    for case in range(args.cases):
        C, ignore, reduce, pairs, bad = make_case(rng)
        with tempfile.TemporaryDirectory() as tmp:
            gd, pd = os.path.join(tmp, "gt"), os.path.join(tmp, "pred")
            os.mkdir(gd)
            os.mkdir(pd)
            single = len(pairs) == 1 and rng.random() < 0.5
            mode = rng.choice(["L8", "L8", "P8", "L16", "RGB"] + (["P4"] if C <= 15 and not reduce and ignore < 16 else []))
            stored_max = max(int(a.max()) for pr in pairs for a in pr)
            if mode == "P4" and stored_max > 15:
                mode = "L8"
            names = []
            for k, (g, p) in enumerate(pairs):
                name = f"img{k:03d}"
                write(os.path.join(gd, name + ".png"), g, mode)
                write(os.path.join(pd, ("other" if single else name) + ".png"), p, mode)
                names.append(name)
            cmd = [args.bin, "segmentation", "--gt", gd, "--pred", pd, "--format", "json",
                   "--set", f"num_classes={C}", "--set", f"ignore_index={ignore}"]
            if reduce:
                cmd += ["--set", "reduce_zero_label=true"]
            if mode == "RGB":
                vals = sorted({int(v) for pr in pairs for a in pr for v in np.unique(a)})
                pal = ",".join("#%02X%02X%02X=%d" % (colour_of(v) + (v,)) for v in vals)
                cmd += ["--set", f"palette={pal}"]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if bad is not None:
                k, side = bad
                g, p = pairs[k]
                g_eff = reduce_zero_label(g) if reduce else g
                want = first_bad(g_eff if side == 0 else p, C, ignore)
                code = "segmentation.gt_value" if side == 0 else "segmentation.pred_value"
                rep = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else {"diagnostics": []}
                hits = [d for d in rep["diagnostics"] if d["code"] == code]
                if proc.returncode != 1 or not hits or hits[0].get("pixel") != want:
                    print(f"case {case}: expected {code} at {want}, got exit {proc.returncode} {hits[:1]}")
                    mismatches += 1
                errors_checked += 1
                continue
            if proc.returncode != 0:
                print(f"case {case}: exit {proc.returncode}: {proc.stderr.strip()[:400]}")
                mismatches += 1
                continue
            rep = json.loads(proc.stdout)
            summary, per, tp, tl = reference(pairs, C, ignore, reduce)
            for m in METRICS:
                ref, mine = summary[m], rep["scores"].get(m)
                checked += 1
                if np.isnan(ref):
                    if mine is not None:
                        print(f"case {case} {m}: reference NaN, dropscore {mine!r}")
                        mismatches += 1
                elif mine is None or abs(mine - ref) > 1e-12:
                    print(f"case {case} {m}: reference {ref!r}, dropscore {mine!r} (C={C} ignore={ignore} reduce={reduce} {mode})")
                    mismatches += 1
            classes = {it["id"]: it for it in rep["items"] if it["group"] is None}
            for k in range(C):
                it = classes.get(str(k))
                if it is None:
                    print(f"case {case}: no item for class {k}")
                    mismatches += 1
                    continue
                s = it["scores"]
                for key, arr in [("IoU", per["IoU"]), ("Acc", per["Acc"]), ("Dice", per["Dice"]),
                                 ("precision", per["Precision"]), ("recall", per["Recall"])]:
                    ref, mine = float(arr[k]), s.get(key)
                    checked += 1
                    if (np.isnan(ref) and mine is not None) or (not np.isnan(ref) and (mine is None or abs(mine - ref) > 1e-12)):
                        print(f"case {case} class {k} {key}: reference {ref!r}, dropscore {mine!r}")
                        mismatches += 1
                if s.get("gt_pixels") != float(tl[k]) or s.get("pred_pixels") != float(tp[k]):
                    print(f"case {case} class {k}: pixel counts {s.get('gt_pixels')}/{s.get('pred_pixels')} vs {tl[k]}/{tp[k]}")
                    mismatches += 1
    print(f"segmentation_diff: {args.cases} cases, {checked} values compared, {errors_checked} located-error cases, "
          f"{mismatches} mismatches")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
