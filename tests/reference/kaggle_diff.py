#!/usr/bin/env python3
"""Differential test of dropscore `kaggle` against each competition's published metric code, written out below
with its source, on random cases (at least 300 per metric group; pinned packages in
tests/reference/requirements-kaggle-new.txt):

- masks (metric=hausdorff, so that all five mask metrics are in the report): a NumPy run-length decoder
  (Carvana's and Severstal's published `rle_decode`: 1-based starts, column-major), foreground Dice over the
  set, mean per-image Dice with the `empty` rule, the 2018 Data Science Bowl's precision over IoU thresholds
  (the competition's "Example Metric Implementation" kernel, `precision_at`), scikit-learn's `fbeta_score` on
  the flattened masks, SciPy's `directed_hausdorff` both ways;
- MAP@k: Ben Hamner's `ml_metrics.average_precision.apk` (the H&M and Santander metric pages' code), np.mean;
- label sets: scikit-learn's MultiLabelBinarizer + f1_score(average=micro|macro|samples);
- strings: rapidfuzz's Levenshtein distance over characters and over token lists, and Tweet Sentiment
  Extraction's published `jaccard`.

Every value must agree to 1e-12 relative (1e-15 absolute near 0) and be null exactly where the reference has none.

Usage: python3 tests/reference/kaggle_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from rapidfuzz.distance import Levenshtein
from scipy.spatial.distance import directed_hausdorff
from sklearn.metrics import f1_score, fbeta_score
from sklearn.preprocessing import MultiLabelBinarizer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
warnings.simplefilter("ignore")


# ---- masks -------------------------------------------------------------------------------------------------


def rle_decode(mask_rle, shape):
    """Carvana's published rle_decode (shape = (height, width)), column-major as Kaggle numbers pixels."""
    s = mask_rle.split()
    starts, lengths = [np.asarray(x, dtype=int) for x in (s[0:][::2], s[1:][::2])]
    starts -= 1
    ends = starts + lengths
    img = np.zeros(shape[0] * shape[1], dtype=np.uint8)
    for lo, hi in zip(starts, ends):
        img[lo:hi] = 1
    return img.reshape(shape, order="F")


def rle_encode(img):
    """Kaggle's rle_encode of a (height, width) mask, column-major."""
    pixels = np.concatenate([[0], img.flatten(order="F"), [0]])
    runs = np.where(pixels[1:] != pixels[:-1])[0] + 1
    runs[1::2] -= runs[::2]
    return " ".join(str(x) for x in runs)


def precision_at(threshold, iou):
    """The 2018 Data Science Bowl kernel's precision_at (iou: true objects × predicted objects)."""
    matches = iou > threshold
    true_positives = np.sum(matches, axis=1) == 1
    false_positives = np.sum(matches, axis=0) == 0
    false_negatives = np.sum(matches, axis=1) == 0
    tp, fp, fn = np.sum(true_positives), np.sum(false_positives), np.sum(false_negatives)
    return tp, fp, fn


def dsb_image(gts, preds, empty):
    if not gts and not preds:
        return {"one": 1.0, "zero": 0.0, "skip": None}[empty]
    iou = np.zeros((len(gts), len(preds)))
    for i, g in enumerate(gts):
        for j, p in enumerate(preds):
            inter = np.sum(g & p)
            union = np.sum(g | p)
            iou[i, j] = inter / union if union else 0.0
    prec = []
    for t in np.arange(0.5, 1.0, 0.05):
        tp, fp, fn = precision_at(t, iou)
        prec.append(tp / (tp + fp + fn) if tp + fp + fn else float("nan"))
    v = float(np.mean(prec))
    return None if math.isnan(v) else v


def mask_reference(images, empty, beta):
    dice, prec, haus = [], [], []
    tp = fp = fn = 0
    flat_t, flat_p = [], []
    for gts, preds, (h, w) in images:
        a = np.zeros((h, w), dtype=np.uint8)
        b = np.zeros((h, w), dtype=np.uint8)
        for g in gts:
            a |= g
        for p in preds:
            b |= p
        inter, sa, sb = int(np.sum(a & b)), int(np.sum(a)), int(np.sum(b))
        tp, fp, fn = tp + inter, fp + sb - inter, fn + sa - inter
        flat_t.append(a.flatten())
        flat_p.append(b.flatten())
        if sa + sb == 0:
            d = {"one": 1.0, "zero": 0.0, "skip": None}[empty]
        else:
            d = 2.0 * inter / (sa + sb)
        if d is not None:
            dice.append(d)
        v = dsb_image([g for g in gts if g.any()], [p for p in preds if p.any()], empty)
        if v is not None:
            prec.append(v)
        if sa and sb:
            pa, pb = np.argwhere(a), np.argwhere(b)
            haus.append(max(directed_hausdorff(pa, pb)[0], directed_hausdorff(pb, pa)[0]))
    mean = lambda xs: float(np.mean(xs)) if xs else None  # noqa: E731
    if tp + fp + fn:
        fb = float(fbeta_score(np.concatenate(flat_t), np.concatenate(flat_p), beta=beta))
        gd = 2.0 * tp / (2 * tp + fp + fn)
    else:
        fb = gd = None
    return {"dice": gd, "mean_dice": mean(dice), "iou_precision": mean(prec), "fbeta": fb, "hausdorff": mean(haus)}


def random_mask(r, h, w):
    m = np.zeros((h, w), dtype=np.uint8)
    kind = r.random()
    if kind < 0.15:
        return m
    if kind < 0.6:
        r0, c0 = r.randrange(h), r.randrange(w)
        m[r0:r0 + r.randint(1, h), c0:c0 + r.randint(1, w)] = 1
    else:
        density = r.choice([0.05, 0.3, 0.7])
        rng = np.random.default_rng(r.randrange(1 << 30))
        m = (rng.random((h, w)) < density).astype(np.uint8)
    return m


def jitter(r, m):
    if not m.any() or r.random() < 0.2:
        return m.copy()
    out = np.roll(m, (r.randint(-2, 2), r.randint(-2, 2)), axis=(0, 1))
    if r.random() < 0.3:
        out = out ^ (np.random.default_rng(r.randrange(1 << 30)).random(m.shape) < 0.05)
    return out.astype(np.uint8)


def mask_case(seed):
    r = random.Random(seed)
    n = r.randint(1, 8)
    per_row = r.random() < 0.3
    fixed = (r.randint(1, 40), r.randint(1, 40))
    images, sol, sub = [], [], []
    for i in range(n):
        iid = f"img{r.randrange(10**6):06d}_{i}"
        h, w = (r.randint(1, 40), r.randint(1, 40)) if per_row else fixed
        gts = [random_mask(r, h, w) for _ in range(r.choice([1, 1, 2, 3]))]
        preds = [jitter(r, g) for g in gts if r.random() < 0.8]
        if r.random() < 0.3:
            preds.append(random_mask(r, h, w))
        images.append((gts, preds, (h, w)))
        for g in gts:
            sol.append([iid, rle_encode(g)] + ([str(w), str(h)] if per_row else []))
        for p in preds or [np.zeros((h, w), dtype=np.uint8)]:
            sub.append([iid, rle_encode(p)])
    r.shuffle(sol)
    r.shuffle(sub)
    empty = r.choice(["one", "zero", "skip"])
    beta = r.choice([1.0, 2.0, 0.5])
    header = ["ImageId", "EncodedPixels"] + (["Width", "Height"] if per_row else [])
    sets = {"metric": "hausdorff", "empty": empty, "beta": repr(beta)}
    sets.update({"width": "Width", "height": "Height"} if per_row else {"width": str(fixed[1]), "height": str(fixed[0])})
    return header, sol, ["ImageId", "EncodedPixels"], sub, sets, mask_reference(images, empty, beta)


# ---- MAP@k, label sets, strings ------------------------------------------------------------------------------


def apk(actual, predicted, k=10):
    """ml_metrics.average_precision.apk (Ben Hamner), as Kaggle's MAP@K metric pages publish it."""
    if len(predicted) > k:
        predicted = predicted[:k]
    score = 0.0
    num_hits = 0.0
    for i, p in enumerate(predicted):
        if p in actual and p not in predicted[:i]:
            num_hits += 1.0
            score += num_hits / (i + 1.0)
    if not actual:
        return 0.0
    return score / min(len(actual), k)


def jaccard(str1, str2):
    """Tweet Sentiment Extraction's published jaccard."""
    a = set(str1.lower().split())
    b = set(str2.lower().split())
    c = a.intersection(b)
    return float(len(c)) / (len(a) + len(b) - len(c))


def rows_case(r, make):
    n = r.choice([1, 2, r.randint(3, 30), r.randint(30, 300)])
    ids = [f"{r.choice(['c', 'id', ''])}{i:05d}" for i in r.sample(range(10**5), n)]
    pairs = [make(r) for _ in ids]
    sol = [[i, t] for i, (t, _) in zip(ids, pairs)]
    sub = [[i, p] for i, (_, p) in zip(ids, pairs)]
    r.shuffle(sub)
    return ids, pairs, sol, sub


def map_case(seed):
    r = random.Random(seed)
    vocab = [f"{r.randrange(10**9):010d}" for _ in range(r.choice([3, 10, 50]))]
    k = r.choice([1, 5, 12, 3])

    def make(r):
        a = [r.choice(vocab) for _ in range(r.choice([0, 1, 2, 3, 6, 15]))]
        p = [r.choice(vocab + a * 3) if a else r.choice(vocab) for _ in range(r.choice([0, 1, 5, 12, 20]))]
        return " ".join(a), " ".join(p)

    ids, pairs, sol, sub = rows_case(r, make)
    ref = float(np.mean([apk(t.split(), p.split(), k) for t, p in pairs]))
    return ["customer_id", "prediction"], sol, ["customer_id", "prediction"], sub, {"metric": "map", "k": str(k)}, {"map": ref}


def tags_case(seed):
    r = random.Random(seed)
    vocab = [f"t{j}" for j in range(r.choice([2, 5, 17]))]

    def make(r):
        t = r.sample(vocab, r.randint(0, len(vocab)))
        p = r.sample(vocab, r.randint(0, len(vocab))) + (r.sample(t, 1) if t and r.random() < 0.3 else [])
        return " ".join(t), " ".join(p)

    ids, pairs, sol, sub = rows_case(r, make)
    # Two labels at least: with one, scikit-learn reads the binarized columns as binary, not multilabel, and raises.
    pairs[0] = (pairs[0][0] + " t0 t1", pairs[0][1])
    sol = [[i, t] for i, (t, _) in zip(ids, pairs)]
    yt = [set(t.split()) for t, _ in pairs]
    yp = [set(p.split()) for _, p in pairs]
    mlb = MultiLabelBinarizer().fit(yt + yp)
    T, P = mlb.transform(yt), mlb.transform(yp)
    ref = {f"f1_{a}": float(f1_score(T, P, average=a)) for a in ["micro", "macro", "samples"]}
    return ["image_name", "tags"], sol, ["image_name", "tags"], sub, {"metric": "f1_samples"}, ref


def strings_case(seed):
    r = random.Random(seed)
    words = ["a", "B", "b", "cat", "Cat", "dög", "ёж", "x"]
    empty = r.choice(["one", "zero", "skip"])

    def make(r):
        t = [r.choice(words) for _ in range(r.randint(0, 6))]
        p = [r.choice(words) for _ in range(r.randint(0, 6))] if r.random() < 0.5 else t[: r.randint(0, len(t))]
        return " ".join(t), " ".join(p)

    ids, pairs, sol, sub = rows_case(r, make)
    jac = []
    for t, p in pairs:
        try:
            jac.append(jaccard(t, p))
        except ZeroDivisionError:
            if empty != "skip":
                jac.append(1.0 if empty == "one" else 0.0)
    ref = {
        "levenshtein": float(np.mean([Levenshtein.distance(t, p) for t, p in pairs])),
        "sequence_levenshtein": float(np.mean([Levenshtein.distance(t.split(), p.split()) for t, p in pairs])),
        "word_jaccard": float(np.mean(jac)) if jac else None,
    }
    return ["textID", "selected_text"], sol, ["textID", "selected_text"], sub, {"metric": "levenshtein", "empty": empty}, ref


# ---- running -------------------------------------------------------------------------------------------------


def write_csv(path, header, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(",".join(header) + "\n")
        for row in rows:
            f.write(",".join(row) + "\n")


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b or abs(a - b) <= max(1e-12 * max(abs(a), abs(b)), 1e-15)


def run_case(binary, group, seed, case):
    gh, sol, ph, sub, sets, ref = case
    with tempfile.TemporaryDirectory() as d:
        write_csv(os.path.join(d, "solution.csv"), gh, sol)
        write_csv(os.path.join(d, "submission.csv"), ph, sub)
        args = [binary, "kaggle", "--gt", os.path.join(d, "solution.csv"), "--pred", os.path.join(d, "submission.csv"), "--format", "json"]
        for k, v in sets.items():
            args += ["--set", f"{k}={v}"]
        out = subprocess.run(args, capture_output=True, text=True)
    if out.returncode != 0:
        return [f"{group} seed {seed}: exit {out.returncode}: {out.stdout[:400]} {out.stderr[:400]}"]
    scores = json.loads(out.stdout)["scores"]
    return [
        f"{group} seed {seed} {sets}: {k} = {scores.get(k)}, reference {v}"
        for k, v in ref.items()
        if not close(scores.get(k), v)
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
    a = ap.parse_args()
    groups = [("masks", mask_case), ("map", map_case), ("tags", tags_case), ("strings", strings_case)]
    # The references are computed here, on one thread (scikit-learn's parameter validation is not thread-safe);
    # the dropscore runs go in parallel.
    jobs = [(g, a.seed * 100000 + i, f(a.seed * 100000 + i)) for g, f in groups for i in range(a.cases)]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        failures = [x for out in ex.map(lambda j: run_case(a.bin, *j), jobs) for x in out]
    for f in failures[:30]:
        print(f)
    counts = {"masks": 5, "map": 1, "tags": 3, "strings": 3}
    values = sum(counts[g] for g, _, _ in jobs)
    print(f"kaggle_diff: {len(jobs)} cases, {values} values, {len(failures)} mismatches")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
