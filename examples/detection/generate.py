#!/usr/bin/env python3
"""Writes the `detection` example (www/examples/detection/): a synthetic COCO data set of 12 images with boxes
of 3 shape categories plus a category that has no GT, one crowd box, boxes of every COCO size, and a results
file of jittered, missed and spurious detections. Deterministic (seed 7); standard library only.

Usage: python3 examples/detection/generate.py
"""
import json
import os
import random

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "www", "examples", "detection")
rng = random.Random(7)
cats = [{"id": 1, "name": "circle"}, {"id": 2, "name": "square"}, {"id": 3, "name": "triangle"},
        {"id": 4, "name": "star"}]
images, anns, dets = [], [], []
for i in range(1, 13):
    images.append({"id": i, "file_name": f"shapes_{i:02d}.jpg", "width": 320, "height": 240})
    for _ in range(rng.randint(0 if i == 5 else 1, 5)):
        side = rng.choice([12, 24, 40, 64, 110])
        w, h = round(side * rng.uniform(0.7, 1.3), 1), round(side * rng.uniform(0.7, 1.3), 1)
        x, y = round(rng.uniform(0, 320 - w), 1), round(rng.uniform(0, 240 - h), 1)
        cat = rng.choice([1, 2, 3])
        anns.append({"id": len(anns) + 1, "image_id": i, "category_id": cat, "bbox": [x, y, w, h],
                     "area": round(w * h, 2), "iscrowd": 0})
anns.append({"id": len(anns) + 1, "image_id": 3, "category_id": 1, "bbox": [10.0, 150.0, 120.0, 80.0],
             "area": 9600.0, "iscrowd": 1})
for a in anns:
    if a["iscrowd"] or rng.random() < 0.15:
        continue  # missed
    x, y, w, h = a["bbox"]
    j = rng.choice([0.02, 0.05, 0.15, 0.3])
    box = [round(x + rng.gauss(0, j * w), 2), round(y + rng.gauss(0, j * h), 2),
           round(w * (1 + rng.gauss(0, j)), 2), round(h * (1 + rng.gauss(0, j)), 2)]
    cat = a["category_id"] if rng.random() < 0.9 else rng.choice([1, 2, 3])
    dets.append({"image_id": a["image_id"], "category_id": cat, "bbox": box, "score": round(rng.uniform(0.3, 0.99), 3)})
for i in range(1, 13):
    for _ in range(rng.randint(0, 2)):
        dets.append({"image_id": i, "category_id": rng.choice([1, 2, 3, 4]),
                     "bbox": [round(rng.uniform(0, 250), 1), round(rng.uniform(0, 180), 1), 30.0, 30.0],
                     "score": round(rng.uniform(0.05, 0.6), 3)})
dets.append({"image_id": 3, "category_id": 1, "bbox": [20.0, 160.0, 30.0, 30.0], "score": 0.8})  # inside the crowd
with open(os.path.join(OUT, "gt", "instances.json"), "w") as f:
    json.dump({"images": images, "annotations": anns, "categories": cats}, f, indent=1)
    f.write("\n")
with open(os.path.join(OUT, "pred", "results.json"), "w") as f:
    json.dump(dets, f, indent=1)
    f.write("\n")
print(f"{len(images)} images, {len(anns)} annotations, {len(dets)} detections")
