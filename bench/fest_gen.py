"""Generates the fest benchmark set into bench/out/fest (not committed): 3 manuscripts x 15 pages of 1344x2016 with
about 40 text lines each, in the data set layout (gt/<MS>/text-line-gt-<MS>/test/NNN.png, pred/<MS>/NNN.png), and
one 6000x8000 page (big/gt/001.png, big/pred/001.png). GT: white wavy bands on black, some touching; predictions:
the bands shifted and resized, some split in two colours, merged with the next line or missed, plus false blobs.

    python3 bench/fest_gen.py [OUT=bench/out/fest]
"""

import os
import sys

import cv2
import numpy as np


def page(rng, w, h, nlines):
    gt = np.zeros((h, w), dtype=np.uint8)
    pred = np.zeros((h, w, 3), dtype=np.uint8)
    spacing = (h - 80) / nlines
    xs = np.arange(w)
    colours = rng.choice(256 ** 3 - 1, size=nlines * 3, replace=False) + 1
    ci = 0
    for i in range(nlines):
        top = int(40 + i * spacing)
        th = int(spacing * 0.45)
        x0 = int(rng.integers(20, w // 8))
        x1 = int(rng.integers(w * 5 // 8, w - 20))
        amp, per, ph = rng.uniform(1, 4), rng.uniform(150, 400), rng.uniform(0, 6.3)
        wave = (amp * np.sin(xs / per + ph)).astype(int)
        ys = np.arange(h)[:, None]
        band = (ys >= top + wave[None, :]) & (ys < top + th + wave[None, :]) & (xs[None, :] >= x0) & (xs[None, :] < x1)
        gt[band] = 255
        if rng.random() < 0.1 and i + 1 < nlines:  # an ascender touching the next line: GT lines merge
            x = int(rng.integers(x0, x1 - 3))
            gt[top + th: int(top + spacing) + 4, x:x + 3] = 255
        r = rng.random()
        if r < 0.05:
            continue  # missed line
        dy, dt = int(rng.integers(-3, 4)), int(rng.integers(-3, 4))
        pband = (ys >= top + dy + wave[None, :]) & (ys < top + dy + th + dt + wave[None, :]) & (xs[None, :] >= x0 + 5) & (xs[None, :] < x1 - 5)
        c = colours[ci]
        ci += 1
        pred[pband] = [c >> 16, (c >> 8) & 255, c & 255]
        if r > 0.9:  # split: the right half in another colour
            c2 = colours[ci]
            ci += 1
            pred[pband & (xs[None, :] > (x0 + x1) // 2)] = [c2 >> 16, (c2 >> 8) & 255, c2 & 255]
    for _ in range(int(rng.integers(0, 4))):  # false blobs
        y, x = int(rng.integers(0, h - 30)), int(rng.integers(0, w - 120))
        c = colours[ci]
        ci += 1
        pred[y:y + 25, x:x + 110] = [c >> 16, (c >> 8) & 255, c & 255]
    return gt, pred


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("bench", "out", "fest")
    rng = np.random.default_rng(2025)
    for ms in ["Latin14396", "Latin2", "Syriaque341"]:
        gdir = os.path.join(out, "set", "gt", ms, f"text-line-gt-{ms}", "test")
        pdir = os.path.join(out, "set", "pred", ms)
        os.makedirs(gdir, exist_ok=True)
        os.makedirs(pdir, exist_ok=True)
        for k in range(1, 16):
            gt, pred = page(rng, 1344, 2016, int(rng.integers(36, 45)))
            cv2.imwrite(os.path.join(gdir, f"{k:03d}.png"), gt)
            cv2.imwrite(os.path.join(pdir, f"{k:03d}.png"), cv2.cvtColor(pred, cv2.COLOR_RGB2BGR))
    gt, pred = page(rng, 6000, 8000, 150)
    for d in ["gt", "pred"]:
        os.makedirs(os.path.join(out, "big", d), exist_ok=True)
    cv2.imwrite(os.path.join(out, "big", "gt", "001.png"), gt)
    cv2.imwrite(os.path.join(out, "big", "pred", "001.png"), cv2.cvtColor(pred, cv2.COLOR_RGB2BGR))
    print(f"fest_gen: 45 pages of 1344x2016 and one 6000x8000 page in {out}")


if __name__ == "__main__":
    main()
