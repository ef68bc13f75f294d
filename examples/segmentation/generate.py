#!/usr/bin/env python3
"""Writes the `segmentation` example (www/examples/segmentation/): 6 synthetic 64x48 street scenes with 4
classes (0 background, 1 sky, 2 road, 3 car) and a 2-pixel ignore border (255), as 8-bit gray PNGs (scene 6 as
a palette PNG); the predictions move the horizon and the road edge, miss part of a car (255 = no prediction)
and confuse a few blocks. Deterministic (seed 11); standard library only (zlib PNG writer).

Usage: python3 examples/segmentation/generate.py
"""
import os
import random
import struct
import zlib

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "www", "examples", "segmentation")
W, H = 64, 48


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(rows, palette=False):
    ihdr = struct.pack(">IIBBBBB", W, H, 8, 3 if palette else 0, 0, 0, 0)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if palette:
        colours = [(0, 0, 0), (70, 130, 180), (128, 64, 128), (0, 0, 142)] + [(255, 255, 255)] * 252
        out += chunk(b"PLTE", bytes(c for rgb in colours for c in rgb))
    raw = b"".join(b"\x00" + bytes(r) for r in rows)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def scene(rng, horizon, road_left, cars):
    img = [[0] * W for _ in range(H)]
    for y in range(H):
        for x in range(W):
            if y < horizon:
                img[y][x] = 1
            elif x >= road_left - (y - horizon) // 2:
                img[y][x] = 2
    for (cx, cy, cw, ch) in cars:
        for y in range(cy, min(H, cy + ch)):
            for x in range(cx, min(W, cx + cw)):
                img[y][x] = 3
    return img


rng = random.Random(11)
for k in range(1, 7):
    horizon, road = rng.randint(12, 20), rng.randint(24, 40)
    cars = [(rng.randint(30, 52), rng.randint(26, 36), rng.randint(6, 12), rng.randint(4, 8)) for _ in range(rng.randint(0, 2))]
    gt = scene(rng, horizon, road, cars)
    for y in range(H):
        for x in range(W):
            if x < 2 or y < 2 or x >= W - 2 or y >= H - 2:
                gt[y][x] = 255
    pred_cars = [(cx + rng.randint(-2, 2), cy + rng.randint(-1, 1), cw, ch) for (cx, cy, cw, ch) in cars]
    pred = scene(rng, horizon + rng.randint(-2, 2), road + rng.randint(-4, 4), pred_cars)
    if cars and k % 2 == 0:  # a missed part of the first car
        cx, cy, cw, ch = cars[0]
        for y in range(cy, min(H, cy + ch // 2)):
            for x in range(cx, min(W, cx + cw)):
                pred[y][x] = 255
    for _ in range(2):  # a confused block
        bx, by, c = rng.randint(0, W - 6), rng.randint(0, H - 6), rng.randint(0, 3)
        for y in range(by, by + 5):
            for x in range(bx, bx + 5):
                pred[y][x] = c
    for role, img in (("gt", gt), ("pred", pred)):
        with open(os.path.join(OUT, role, f"scene_{k}.png"), "wb") as f:
            f.write(png(img, palette=(k == 6)))
print("6 scenes written")
