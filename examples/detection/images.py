#!/usr/bin/env python3
"""Draws the `detection` example's images (www/examples/detection/images/shapes_NN.jpg, 320×240): each GT
annotation of gt/instances.json as its shape (circle, square or triangle) filled inside its box on a light,
slightly noisy background; the crowd box of image 3 as a cluster of small circles. Deterministic (seed 7).
Needs Pillow (written with pillow 13.0.0; another version may encode slightly different JPEG bytes).

Usage: python3 examples/detection/images.py
"""
import json
import os
import random

from PIL import Image, ImageDraw

HERE = os.path.join(os.path.dirname(__file__), "..", "..", "www", "examples", "detection")
gt = json.load(open(os.path.join(HERE, "gt", "instances.json")))
out = os.path.join(HERE, "images")
os.makedirs(out, exist_ok=True)
rng = random.Random(7)
COLOURS = {1: (200, 60, 50), 2: (50, 110, 200), 3: (230, 160, 30)}
for im in gt["images"]:
    img = Image.new("RGB", (im["width"], im["height"]), (235, 232, 224))
    d = ImageDraw.Draw(img)
    for _ in range(60):
        x, y = rng.uniform(0, im["width"]), rng.uniform(0, im["height"])
        d.ellipse([x, y, x + 2, y + 2], fill=(215, 212, 204))
    for a in gt["annotations"]:
        if a["image_id"] != im["id"]:
            continue
        x, y, w, h = a["bbox"]
        c = COLOURS.get(a["category_id"], (120, 120, 120))
        if a["iscrowd"]:
            for _ in range(40):
                cx, cy = rng.uniform(x, x + w - 8), rng.uniform(y, y + h - 8)
                d.ellipse([cx, cy, cx + 8, cy + 8], fill=c)
        elif a["category_id"] == 1:
            d.ellipse([x, y, x + w, y + h], fill=c)
        elif a["category_id"] == 2:
            d.rectangle([x, y, x + w, y + h], fill=c)
        else:
            d.polygon([(x + w / 2, y), (x + w, y + h), (x, y + h)], fill=c)
    img.save(os.path.join(out, im["file_name"]), quality=85)
print(f"{len(gt['images'])} images in {out}")
