#!/usr/bin/env python3
"""Differential test of dropscore `kaggle` on PredictionString detection (metric=box_ap: every box metric is in
the report) against:

- pycocotools 2.0.8 COCOeval(iouType='bbox') (pinned in tests/reference/requirements-vision.txt) on the same
  boxes written as a COCO annotation file and a results list: images numbered in the solution's order, the
  solution's classes as categories sorted (by value when all are numbers, else as strings), GT area w*h, no
  crowd, results in the submission's order; stats[0, 1, 2, 8] are box_ap, box_ap50, box_ap75, box_ar100;
- PASCAL VOC's `voc_eval` + `voc_ap(use_07_metric=False)` (the VOC devkit as py-faster-rcnn publishes it),
  written out below with pycocotools' IoU (no +1 pixel) and a stable sort by confidence: voc_ap at `iou`;
- Global Wheat Detection's metric as the public notebook "Competition metric details + script" writes it
  (`calculate_image_precision` over IoU 0.5:0.75:0.05, `find_best_match`), with the same IoU and a stable sort
  by confidence: wheat_precision, images with neither GT nor detections scored as `empty` says.

Random cases (default 360) cover both box formats (xywh, xyxy), with and without class tokens, numeric and named
classes (`10` after `9`), classes only in the submission, images without GT or without detections, more than
100 detections in an image, tied confidences, integer and fractional coordinates, zero-size boxes. Every value
must agree to 1e-12 (null where the reference has -1 or none). Exit status 1 on any mismatch; one summary line.

Usage: python3 tests/reference/kaggle_pstring_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WHEAT_THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75]


# ---- the references ----------------------------------------------------------------------------------------


def parse(cell, classes, conf, xyxy):
    """A PredictionString as the competitions' notebooks read it: split, then float per number."""
    t = cell.split()
    stride = 4 + classes + conf
    out = []
    for i in range(0, len(t), stride):
        c = t[i] if classes else ""
        v = [float(x) for x in t[i + classes:i + stride]]
        s = v[0] if conf else 0.0
        x, y, a, b = v[conf:]
        box = [x, y, a - x, b - y] if xyxy else [x, y, a, b]
        out.append((c, s, box))
    return out


def category_order(names):
    try:
        keys = [float(n) for n in names]
        return [n for _, n in sorted(zip(keys, names), key=lambda p: p[0])]
    except ValueError:
        return sorted(names)


def coco_stats(gt, sub):
    """gt, sub: per image (solution order) the boxes."""
    names = list(dict.fromkeys(c for boxes in gt for c, _, _ in boxes))
    cat_id = {n: i + 1 for i, n in enumerate(category_order(names))}
    anns = []
    for img, boxes in enumerate(gt):
        for c, _, b in boxes:
            anns.append({"id": len(anns) + 1, "image_id": img + 1, "category_id": cat_id[c], "bbox": b,
                         "area": b[2] * b[3], "iscrowd": 0})
    dataset = {"images": [{"id": i + 1} for i in range(len(gt))], "annotations": anns,
               "categories": [{"id": i} for i in cat_id.values()]}
    res = []
    for img, boxes in enumerate(sub):
        for c, s, b in boxes:
            res.append({"image_id": img + 1, "category_id": cat_id.get(c, 10**6), "bbox": b, "score": s})
    with contextlib.redirect_stdout(io.StringIO()):
        coco = COCO()
        coco.dataset = dataset
        coco.createIndex()
        if not res:
            return None  # loadRes of an empty list fails; dropscore scores it (no detections)
        dt = coco.loadRes(res)
        E = COCOeval(coco, dt, "bbox")
        E.evaluate()
        E.accumulate()
        E.summarize()
    s = [float(x) for x in E.stats]
    return {"box_ap": s[0], "box_ap50": s[1], "box_ap75": s[2], "box_ar100": s[8]}


def iou(d, g):
    """pycocotools' bbIou (maskApi.c), not crowd."""
    w = min(d[2] + d[0], g[2] + g[0]) - max(d[0], g[0])
    if w <= 0:
        return 0.0
    h = min(d[3] + d[1], g[3] + g[1]) - max(d[1], g[1])
    if h <= 0:
        return 0.0
    i = w * h
    return i / (d[2] * d[3] + g[2] * g[3] - i)


def voc_ap(rec, prec):
    """voc_ap(rec, prec, use_07_metric=False) of py-faster-rcnn's voc_eval.py."""
    mrec = np.concatenate(([0.0], rec, [1.0]))
    mpre = np.concatenate(([0.0], prec, [0.0]))
    for i in range(mpre.size - 1, 0, -1):
        mpre[i - 1] = np.maximum(mpre[i - 1], mpre[i])
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1])


def voc_map(gt, sub, ovthresh, order):
    """order: the submission's rows (images) in file order, as voc_eval reads the detections file."""
    names = list(dict.fromkeys(c for boxes in gt for c, _, _ in boxes))
    aps = []
    for cls in category_order(names):
        R = [{"bbox": [b for c, _, b in boxes if c == cls]} for boxes in gt]
        for r in R:
            r["det"] = [False] * len(r["bbox"])
        npos = sum(len(r["bbox"]) for r in R)
        dets = [(img, s, b) for img in order for c, s, b in sub[img] if c == cls]
        conf = np.array([s for _, s, _ in dets])
        sorted_ind = np.argsort(-conf, kind="stable")
        tp = np.zeros(len(dets))
        fp = np.zeros(len(dets))
        for d, k in enumerate(sorted_ind):
            img, _, bb = dets[k]
            r = R[img]
            ovmax = -np.inf
            jmax = -1
            for j, g in enumerate(r["bbox"]):
                o = iou(bb, g)
                if o > ovmax:
                    ovmax, jmax = o, j
            if ovmax > ovthresh and not r["det"][jmax]:
                tp[d] = 1.0
                r["det"][jmax] = True
            else:
                fp[d] = 1.0
        fp = np.cumsum(fp)
        tp = np.cumsum(tp)
        rec = tp / float(npos)
        prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
        aps.append(voc_ap(rec, prec))
    return float(np.mean(aps)) if aps else None


def calculate_precision(gts, preds, threshold):
    """The notebook's calculate_precision with find_best_match (gts copied per threshold)."""
    matched = [False] * len(gts)
    tp = fp = 0
    for p in preds:
        best_iou, best = -np.inf, -1
        for gi, g in enumerate(gts):
            if matched[gi]:
                continue
            o = iou(p, g)
            if o < threshold:
                continue
            if o > best_iou:
                best_iou, best = o, gi
        if best >= 0:
            tp += 1
            matched[best] = True
        else:
            fp += 1
    fn = matched.count(False)
    return tp / (tp + fp + fn)


def wheat(gt, sub, empty):
    per = []
    for g, d in zip(gt, sub):
        gts = [b for _, _, b in g]
        scores = np.array([s for _, s, _ in d])
        preds = [d[i][2] for i in np.argsort(-scores, kind="stable")]
        if not gts and not preds:
            per.append({"one": 1.0, "zero": 0.0, "skip": None}[empty])
            continue
        p = 0.0
        for t in WHEAT_THRESHOLDS:
            p += calculate_precision(gts, preds, t) / len(WHEAT_THRESHOLDS)
        per.append(p)
    kept = [v for v in per if v is not None]
    return float(np.mean(kept)) if kept else None


# ---- random cases --------------------------------------------------------------------------------------------


def num(rng, v):
    return str(int(v)) if rng.random() < 0.3 else repr(round(v, rng.choice([1, 2, 6])))


def make_case(rng):
    classes = rng.random() < 0.75
    xyxy = rng.random() < 0.4
    named = rng.random() < 0.3
    pool = ["car", "person", "dog", "Aortic_enlargement"] if named else [str(i) for i in range(rng.randint(1, 12))]
    n_img = rng.randint(1, 12)
    many = rng.random() < 0.08
    gt_rows, sub_rows = [], []
    for _ in range(n_img):
        g_tok, d_tok = [], []
        for _ in range(rng.choice([0, rng.randint(1, 6), rng.randint(1, 20)])):
            c = rng.choice(pool)
            x, y = rng.uniform(0, 500), rng.uniform(0, 400)
            w = 0.0 if rng.random() < 0.02 else rng.uniform(2, 120)
            h = rng.uniform(2, 120)
            g = [num(rng, x), num(rng, y), num(rng, x + w if xyxy else w), num(rng, y + h if xyxy else h)]
            gv = [float(v) for v in g]
            if xyxy and (gv[2] < gv[0] or gv[3] < gv[1]):
                continue
            g_tok.append(([c] if classes else []) + g)
            if rng.random() < 0.75:
                j = lambda v, s: v + rng.gauss(0, s)
                x2, y2 = j(x, 0.08 * (w + 1)), j(y, 0.08 * (h + 1))
                w2, h2 = max(0.0, j(w, 0.1 * (w + 1))), max(0.0, j(h, 0.1 * (h + 1)))
                c2 = c if rng.random() < 0.9 else rng.choice(pool + ["unseen"])
                d_tok.append((c2, x2, y2, w2, h2))
        for _ in range(rng.randint(0, 4) + (rng.randint(90, 130) if many else 0)):
            d_tok.append((rng.choice(pool + ["unseen"]), rng.uniform(0, 500), rng.uniform(0, 400),
                          rng.uniform(1, 100), rng.uniform(1, 100)))
        tied = rng.random() < 0.3
        d_out = []
        for c, x, y, w, h in d_tok:
            s = rng.choice([0.5, 0.25, 1.0]) if tied else round(rng.random(), rng.choice([2, 6]))
            bx = [num(rng, x), num(rng, y)]
            xs, ys = float(bx[0]), float(bx[1])
            bx += [repr(xs + w) if xyxy else num(rng, w), repr(ys + h) if xyxy else num(rng, h)]
            if float(bx[2]) < (xs if xyxy else 0) or float(bx[3]) < (ys if xyxy else 0):
                continue
            d_out.append(([c] if classes else []) + [repr(s)] + bx)
        rng.shuffle(d_out)
        gt_rows.append(" ".join(" ".join(t) for t in g_tok))
        sub_rows.append(" ".join(" ".join(t) for t in d_out))
    opts = {"classes": "true" if classes else "false", "box_format": "xyxy" if xyxy else "xywh",
            "iou": rng.choice(["0.5", "0.4", "0.75"]), "empty": rng.choice(["one", "zero", "skip"])}
    return gt_rows, sub_rows, opts


def write(path, rows, order):
    with open(path, "w") as f:
        f.write("image_id,PredictionString\n")
        for i in order:
            f.write(f"im{i:04d},{rows[i]}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=360)
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bad = values = exact = nulls = 0
    with tempfile.TemporaryDirectory() as tmp:
        gp, sp = os.path.join(tmp, "solution.csv"), os.path.join(tmp, "submission.csv")
        for case in range(args.cases):
            gt_rows, sub_rows, opts = make_case(rng)
            classes, xyxy = opts["classes"] == "true", opts["box_format"] == "xyxy"
            gt = [parse(r, classes, False, xyxy) for r in gt_rows]
            sub = [parse(r, classes, True, xyxy) for r in sub_rows]
            write(gp, gt_rows, range(len(gt_rows)))
            order = list(range(len(sub_rows)))
            rng.shuffle(order)  # the submission's rows in another order: images stay in the solution's
            write(sp, sub_rows, order)
            ref = coco_stats(gt, sub) or {}
            ref["voc_ap"] = voc_map(gt, sub, float(opts["iou"]), order)
            ref["wheat_precision"] = wheat(gt, sub, opts["empty"])
            cmd = [args.bin, "kaggle", "--gt", gp, "--pred", sp, "--format", "json", "--set", "metric=box_ap"]
            for k, v in opts.items():
                cmd += ["--set", f"{k}={v}"]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode != 0:
                print(f"case {case}: exit {p.returncode}: {p.stderr.strip()[:300]}")
                bad += 1
                continue
            mine = json.loads(p.stdout)["scores"]
            for k, r in ref.items():
                m = mine.get(k)
                if r is None or r == -1:
                    nulls += 1
                    if m is not None:
                        print(f"case {case} {k}: reference none, dropscore {m!r} opts={opts}")
                        bad += 1
                    continue
                values += 1
                if m is None or abs(m - r) > 1e-12:
                    print(f"case {case} {k}: reference {r!r}, dropscore {m!r} opts={opts}")
                    bad += 1
                elif m == r:
                    exact += 1
    print(f"kaggle_pstring_diff: {args.cases} cases, {values} values ({exact} bit-identical) + {nulls} none/null "
          f"against pycocotools, voc_eval and the Global Wheat notebook, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
