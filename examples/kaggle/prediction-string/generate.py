#!/usr/bin/env python3
"""Writes this example's solution.csv, sample_submission.csv and submission.csv (random.Random(35)): 12 images,
classes 0-2, boxes `class x y w h` in the solution and `class conf x y w h` in the submission (jittered GT boxes,
some missed, some spurious)."""

import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(35)
gt_rows, sub_rows, sample_rows = [], [], []
for i in range(12):
    image = f"img_{i:03d}"
    gts, dets = [], []
    for _ in range(rng.randint(0, 4)):
        c = rng.randint(0, 2)
        w, h = rng.randint(8, 80), rng.randint(8, 80)
        x, y = rng.randint(0, 300), rng.randint(0, 200)
        gts.append(f"{c} {x} {y} {w} {h}")
        if rng.random() < 0.8:
            j = lambda v, s: round(v + rng.gauss(0, s), 1)
            dets.append(f"{c} {rng.uniform(0.3, 1):.3f} {j(x, 3)} {j(y, 3)} {max(1, j(w, 4))} {max(1, j(h, 4))}")
    for _ in range(rng.randint(0, 2)):
        dets.append(f"{rng.randint(0, 2)} {rng.uniform(0, 0.6):.3f} {rng.randint(0, 300)} {rng.randint(0, 200)} "
                    f"{rng.randint(8, 60)} {rng.randint(8, 60)}")
    gt_rows.append(f"{image},{' '.join(gts)}")
    sub_rows.append(f"{image},{' '.join(dets)}")
    sample_rows.append(f"{image},0 1.0 0 0 10 10")
for name, rows in [("solution.csv", gt_rows), ("submission.csv", sub_rows), ("sample_submission.csv", sample_rows)]:
    with open(os.path.join(HERE, name), "w") as f:
        f.write("image_id,PredictionString\n" + "\n".join(rows) + "\n")
