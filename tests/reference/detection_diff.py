#!/usr/bin/env python3
"""Differential test of `dropscore detection` against pycocotools' COCOeval(iouType='bbox') (pinned in
tests/reference/requirements-vision.txt).

Random COCO cases (default 520) are written as an annotation JSON and a results JSON and scored by both. The
cases cover crowd boxes, GT `area` fields that differ from w*h, tiny/medium/large boxes, images without
annotations, categories without GT, results for categories not in the GT, more than 100 detections in an image,
tied and integer scores, repeated GT annotation ids, unsorted image and category ids, and some non-default
parameters (useCats=0, other maxDets, other IoU thresholds). About one case in six is written the way only
Python's json reads it: `NaN`, `Infinity` and `-Infinity` literals in scores, boxes and GT areas, and
keys repeated inside an element (the last one wins), the reference reading the same text with json.loads. All 12 stats must agree to 1e-12 (-1 <-> null) and
`summarize()`'s printed text must be byte-identical to `dropscore detection --format text`. Exit status 1 on any
mismatch; one summary line.

Usage: python3 tests/reference/detection_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import contextlib
import copy
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
IDS = ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]


def rand_box(rng, scale):
    w = rng.choice([rng.uniform(0.5, 1.5) * scale, float(int(rng.uniform(1, 2) * scale)), 0.0 if rng.random() < 0.02 else scale])
    h = rng.choice([rng.uniform(0.5, 1.5) * scale, float(int(rng.uniform(1, 2) * scale)), scale])
    x = rng.uniform(0, 400)
    y = rng.uniform(0, 300)
    if rng.random() < 0.3:
        x, y, w, h = int(x), int(y), int(w), int(h)
    return [x, y, w, h]


def jitter(rng, b, amount):
    x, y, w, h = b
    return [x + rng.gauss(0, amount * max(w, 1)), y + rng.gauss(0, amount * max(h, 1)),
            max(0.0, w * (1 + rng.gauss(0, amount))), max(0.0, h * (1 + rng.gauss(0, amount)))]


def make_case(rng):
    n_img = rng.randint(1, 10)
    img_ids = rng.sample(range(0, 5000), n_img)
    images = [{"id": i, "file_name": f"{i:06d}.jpg", "width": 640, "height": 480} for i in img_ids]
    if rng.random() < 0.1:
        images.append(dict(images[0]))  # a repeated image entry
    n_cat = rng.randint(1, 6)
    cat_ids = rng.sample(range(1, 100), n_cat)
    cats = [{"id": c, "name": f"c{c}"} for c in cat_ids]
    anns = []
    next_id = 1
    for im in img_ids:
        if rng.random() < 0.2:
            continue  # an image without annotations
        for _ in range(rng.randint(0, 14)):
            cat = rng.choice(cat_ids[:-1] if n_cat > 1 and rng.random() < 0.7 else cat_ids)  # last cat often without GT
            scale = rng.choice([8, 20, 31, 33, 50, 95, 97, 150, 250])
            b = rand_box(rng, scale)
            area = b[2] * b[3] if rng.random() < 0.7 else rng.uniform(0.5, 1.2) * b[2] * b[3]
            if rng.random() < 0.2:
                area = int(area)
            crowd = 1 if rng.random() < 0.08 else 0
            aid = next_id
            next_id += 1
            if rng.random() < 0.02 and anns:
                aid = rng.choice(anns)["id"]  # a repeated annotation id (pycocotools keeps the last)
            anns.append({"id": aid, "image_id": im, "category_id": cat, "bbox": b, "area": area, "iscrowd": crowd})
    rng.shuffle(anns) if rng.random() < 0.3 else None
    dets = []
    score_pool = [round(rng.random(), 2) for _ in range(5)]
    for im in img_ids:
        gts = [a for a in anns if a["image_id"] == im]
        many = rng.random() < 0.08
        n = rng.randint(110, 160) if many else rng.randint(0, 20)
        for _ in range(n):
            if gts and rng.random() < 0.6:
                g = rng.choice(gts)
                b = jitter(rng, g["bbox"], rng.choice([0.02, 0.05, 0.1, 0.3]))
                cat = g["category_id"] if rng.random() < 0.85 else rng.choice(cat_ids)
            else:
                b = rand_box(rng, rng.choice([10, 40, 120]))
                cat = rng.choice(cat_ids + ([999] if rng.random() < 0.05 else []))
            r = rng.random()
            score = rng.choice(score_pool) if r < 0.3 else (rng.randint(0, 3) if r < 0.35 else rng.random())
            dets.append({"image_id": im, "category_id": cat, "bbox": b, "score": score})
    if not dets:
        dets.append({"image_id": img_ids[0], "category_id": cat_ids[0], "bbox": [1.0, 2.0, 3.0, 4.0], "score": 0.5})
    rng.shuffle(dets)
    opts = {}
    r = rng.random()
    if r < 0.08:
        opts["use_cats"] = "false"
    elif r < 0.14:
        opts["max_dets"] = rng.choice(["1,5,20", "2,10,200", "1,10,100,300"])
    elif r < 0.2:
        opts["iou_thresholds"] = rng.choice(["0.5:0.1:0.9", "0.3,0.5,0.75", "0.6:0.05:0.8"])
    return {"images": images, "annotations": anns, "categories": cats}, dets, opts


def pythonic(prng, gt, dets):
    """The case's two files as text that only Python's json reads: NaN/Infinity literals in some scores, boxes
    and GT areas (json.dumps writes them), and a decoy key before the real one in some elements."""
    for d in dets:
        r = prng.random()
        if r < 0.05:
            d["score"] = float("nan")
        elif r < 0.07:
            d["score"] = prng.choice([float("inf"), float("-inf")])
        elif r < 0.09:
            d["bbox"][prng.randrange(4)] = float("nan")
    for a in gt["annotations"]:
        if prng.random() < 0.05:
            a["area"] = prng.choice([float("nan"), float("inf")])
    gt_text, res_text = json.dumps(gt), json.dumps(dets)
    # Decoys: Python's dict keeps the last value of a repeated key.
    res_text = res_text.replace('{"image_id": ', '{"bbox": [0, 0, -1, 5], "score": 0.777, "image_id": ', prng.randint(1, 5))
    gt_text = gt_text.replace('"image_id": ', '"area": -5, "bbox": [1, 2], "image_id": ', prng.randint(0, 5))
    if prng.random() < 0.3:
        gt_text = '{"categories": [], ' + gt_text[1:]  # a repeated top-level key
    return gt_text, res_text


def reference(gt, dets, opts):
    with contextlib.redirect_stdout(io.StringIO()):
        coco = COCO()
        coco.dataset = copy.deepcopy(gt)
        coco.createIndex()
        res = coco.loadRes(copy.deepcopy(dets))
        E = COCOeval(coco, res, "bbox")
        if "use_cats" in opts:
            E.params.useCats = 0
        if "max_dets" in opts:
            E.params.maxDets = [int(x) for x in opts["max_dets"].split(",")]
        if "iou_thresholds" in opts:
            s = opts["iou_thresholds"]
            if ":" in s:
                a, st, b = (float(x) for x in s.split(":"))
                E.params.iouThrs = np.linspace(a, b, int(np.round((b - a) / st)) + 1, endpoint=True)
            else:
                E.params.iouThrs = np.array([float(x) for x in s.split(",")])
        E.evaluate()
        E.accumulate()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        E.summarize()
    return [float(x) for x in E.stats], buf.getvalue()


def run(binary, gt_path, res_path, opts, fmt):
    cmd = [binary, "detection", "--gt", gt_path, "--pred", res_path, "--format", fmt]
    for k, v in opts.items():
        cmd += ["--set", f"{k}={v}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def wrapped_results(binary, tmp, rng):
    """Results wrapped in an object (`{"annotations": [...]}`): pycocotools' loadRes refuses them (its assertion
    "results in not an array of objects"); dropscore refuses them too, naming the wrapper. Returns the mismatches."""
    gt, dets, opts = make_case(rng)
    gp, rp = os.path.join(tmp, "gt.json"), os.path.join(tmp, "res.json")
    with open(gp, "w") as f:
        json.dump(gt, f)
    with open(rp, "w") as f:
        json.dump({"annotations": dets}, f)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            COCO(gp).loadRes(rp)
        refused = False
    except (AssertionError, TypeError, KeyError):
        refused = True
    code, out, _ = run(binary, gp, rp, opts, "json")
    codes = [d["code"] for d in json.loads(out)["diagnostics"]] if out.strip() else []
    if not refused or code != 1 or "detection.json.not_a_list" not in codes:
        print(f"wrapped results: pycocotools refused={refused}, dropscore exit {code} {codes}")
        return 1
    return 0


def stringified(gt, dets, style):
    """The case with every image id written as a string (in `images`, the annotations and the results): plain,
    zero-padded or prefixed (the string order of plain ids differs from the numeric one)."""
    def s(i):
        return {"plain": str(i), "padded": f"{i:05d}", "prefixed": f"img_{i}"}[style]
    gt = copy.deepcopy(gt)
    for im in gt["images"]:
        im["id"] = s(im["id"])
    for a in gt["annotations"]:
        a["image_id"] = s(a["image_id"])
    dets = copy.deepcopy(dets)
    for d in dets:
        d["image_id"] = s(d["image_id"])
    return gt, dets


def string_ids(binary, tmp, rng, cases):
    """String image ids, which pycocotools keeps as dict keys: `cases` random cases stringified must give
    pycocotools' stats (its images in `sorted()` string order); a result id 1 for a GT id "1" is refused as
    loadRes refuses it, and a GT mixing int and str ids fails as COCOeval's sorted() does. Returns (mismatches,
    values compared)."""
    bad = values = 0
    gp, rp = os.path.join(tmp, "gt.json"), os.path.join(tmp, "res.json")
    for case in range(cases):
        gt, dets, opts = make_case(rng)
        gt, dets = stringified(gt, dets, rng.choice(["plain", "padded", "prefixed"]))
        with open(gp, "w") as f:
            json.dump(gt, f)
        with open(rp, "w") as f:
            json.dump(dets, f)
        stats, _ = reference(gt, dets, opts)
        code, out, err = run(binary, gp, rp, opts, "json")
        if code != 0:
            print(f"string ids case {case}: exit {code}: {err.strip()[:300]}")
            bad += 1
            continue
        scores = json.loads(out)["scores"]
        for i, k in enumerate(IDS):
            ref, mine = stats[i], scores.get(k)
            values += 1
            if (ref == -1 and mine is not None) or (ref != -1 and (mine is None or abs(mine - ref) > 1e-12)):
                print(f"string ids case {case} {k}: pycocotools {ref!r}, dropscore {mine!r} opts={opts}")
                bad += 1
    for name, mutate, code_expected in [
        ("a result id 1 for the GT's \"1\"", lambda g, d: d[0].__setitem__("image_id", int(d[0]["image_id"])), "detection.unknown_image"),
        ("a GT with int and str ids", lambda g, d: g["images"].append({"id": 123456, "file_name": "x.jpg"}), "detection.mixed_image_ids"),
    ]:
        gt, dets, opts = make_case(rng)
        gt, dets = stringified(gt, dets, "plain")  # "1" and 1
        mutate(gt, dets)
        with open(gp, "w") as f:
            json.dump(gt, f)
        with open(rp, "w") as f:
            json.dump(dets, f)
        try:
            reference(gt, dets, opts)
            refused = False
        except (AssertionError, TypeError):
            refused = True
        code, out, _ = run(binary, gp, rp, opts, "json")
        codes = [d["code"] for d in json.loads(out)["diagnostics"]] if out.strip() else []
        if not refused or code != 1 or code_expected not in codes:
            print(f"{name}: pycocotools refused={refused}, dropscore exit {code} {codes}")
            bad += 1
    return bad, values


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=520)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--string-cases", type=int, default=80)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bad = 0
    exact = 0
    values = 0
    nulls = 0
    pythonic_cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(args.cases):
            gt, dets, opts = make_case(rng)
            prng = random.Random(args.seed * 1000 + case)  # leaves the other cases as they were
            if prng.random() < 1 / 6:
                gt_text, res_text = pythonic(prng, gt, dets)
                gt, dets = json.loads(gt_text), json.loads(res_text)  # as COCO() and loadRes() read the files
                pythonic_cases += 1
            else:
                gt_text, res_text = json.dumps(gt), json.dumps(dets)
            gp = os.path.join(tmp, "gt.json")
            rp = os.path.join(tmp, "res.json")
            with open(gp, "w") as f:
                f.write(gt_text)
            with open(rp, "w") as f:
                f.write(res_text)
            stats, text = reference(gt, dets, opts)
            code, out, err = run(args.bin, gp, rp, opts, "json")
            if code != 0:
                print(f"case {case}: exit {code}: {err.strip()[:300]}")
                bad += 1
                continue
            rep = json.loads(out)
            for i, k in enumerate(IDS):
                mine = rep["scores"].get(k)
                ref = stats[i]
                if ref == -1:
                    nulls += 1
                    if mine is not None:
                        print(f"case {case} {k}: pycocotools -1, dropscore {mine!r}")
                        bad += 1
                    continue
                values += 1
                if mine is None or abs(mine - ref) > 1e-12:
                    print(f"case {case} {k}: pycocotools {ref!r}, dropscore {mine!r} opts={opts}")
                    bad += 1
                elif mine == ref:
                    exact += 1
            code, out, err = run(args.bin, gp, rp, opts, "text")
            if not out.startswith(text):
                print(f"case {case}: summary text differs (opts={opts})\n--- pycocotools\n{text}--- dropscore\n{out}")
                bad += 1
        bad += wrapped_results(args.bin, tmp, rng)
        string_bad, string_values = string_ids(args.bin, tmp, random.Random(args.seed + 1), args.string_cases)
        bad += string_bad
    print(f"detection_diff: {args.cases} cases ({pythonic_cases} with NaN/Infinity literals and repeated keys), "
          f"{values} stats ({exact} bit-identical) + {nulls} -1/null, {args.string_cases} cases with string image ids "
          f"({string_values} stats) and the int/str refusals, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
