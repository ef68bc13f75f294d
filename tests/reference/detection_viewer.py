#!/usr/bin/env python3
"""Expected values of tests/viewer.rs (detection): every detection of www/examples/detection/pred/results.json,
in file order, as pycocotools 2.0.8's COCOeval(iouType='bbox').evaluate() classifies it at IoU 0.5, area all,
maxDets 100 (`evalImgs`: dtMatches[0] / dtIgnore[0]): TP (matched a GT id, not ignored), FP, I (ignored) or
B (beyond maxDets: not in evalImgs), with the matched GT annotation id (0 for none); then per image the GT ids
left unmatched and not ignored (FN). Prints the Rust constants. Needs requirements-vision.txt.

Usage: python3 tests/reference/detection_viewer.py
"""
import contextlib
import io
import os

import numpy as np
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

W = os.path.join(os.path.dirname(__file__), "..", "..", "www", "examples", "detection")
with contextlib.redirect_stdout(io.StringIO()):
    gt = COCO(os.path.join(W, "gt", "instances.json"))
    dt = gt.loadRes(os.path.join(W, "pred", "results.json"))
    E = COCOeval(gt, dt, "bbox")
    E.evaluate()
status = {d: ("B", 0) for d in dt.getAnnIds()}
fn = []
for e in E.evalImgs:
    if e is None or e["aRng"] != [0, 1e10]:
        continue
    for k, d in enumerate(e["dtIds"]):
        m, ig = int(e["dtMatches"][0][k]), bool(e["dtIgnore"][0][k])
        status[d] = ("I" if ig else "TP" if m else "FP", m)
    for k, g in enumerate(e["gtIds"]):
        if not e["gtIgnore"][k] and e["gtMatches"][0][k] == 0:
            fn.append(g)
print("const DETS: [(&str, i64); %d] = [" % len(status))
print("    " + " ".join('("%s", %d),' % status[d] for d in sorted(status)))
print("];")
print("const FN: [i64; %d] = %s;" % (len(fn), sorted(fn)))
