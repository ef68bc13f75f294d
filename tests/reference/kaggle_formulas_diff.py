#!/usr/bin/env python3
"""Differential test of the single-competition formulas of the `kaggle` protocol against the competitions'
published metric code (copied below, with its source), on random cases (300 by default):

- `kendall_tau`: Google AI4Code (2022), Kaggle notebook "Competition Metric - Kendall Tau Correlation":
  space-separated cell orders per notebook; predicted orders shuffled, some with a repeated or a left-out
  cell, some with a cell not in the notebook (Python raises: dropscore must refuse). Exact equality.

Usage: python3 tests/reference/kaggle_formulas_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from bisect import bisect
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# From the AI4Code competition's metric notebook, verbatim.
def count_inversions(a):
    inversions = 0
    sorted_so_far = []
    for i, u in enumerate(a):
        j = bisect(sorted_so_far, u)
        inversions += i - j
        sorted_so_far.insert(j, u)
    return inversions


def kendall_tau(ground_truth, predictions):
    total_inversions = 0
    total_2max = 0  # twice the maximum possible inversions across all instances
    for gt, pred in zip(ground_truth, predictions):
        ranks = [gt.index(x) for x in pred]  # rank predicted order in terms of ground truth
        total_inversions += count_inversions(ranks)
        n = len(gt)
        total_2max += n * (n - 1)
    return 1 - 4 * total_inversions / total_2max


def kendall_case(seed):
    r = random.Random(seed)
    notebooks = r.randint(1, 12)
    truth, preds = [], []
    for _ in range(notebooks):
        n = r.choice([0, 1, 2, 3, r.randint(2, 30)])
        cells = [f"{r.getrandbits(32):08x}" for _ in range(n)]
        p = cells[:]
        if r.random() < 0.8:
            r.shuffle(p)
        if p and r.random() < 0.1:
            p.append(r.choice(p))
        if p and r.random() < 0.1:
            p.pop(r.randrange(len(p)))
        if r.random() < 0.03:
            p.append("ffffffffff")
        truth.append(cells)
        preds.append(p)
    try:
        want = kendall_tau(truth, preds)
    except (ValueError, ZeroDivisionError):
        want = None
    gt = "id,cell_order\n" + "".join(f"nb{i},{' '.join(t)}\n" for i, t in enumerate(truth))
    pred = "id,cell_order\n" + "".join(f"nb{i},{' '.join(p)}\n" for i, p in enumerate(preds))
    return gt, pred, want


def check(binary, seed):
    gt, pred, want = kendall_case(seed)
    with tempfile.TemporaryDirectory() as d:
        for name, text in (("solution.csv", gt), ("submission.csv", pred)):
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        cmd = [binary, "kaggle", "--gt", os.path.join(d, "solution.csv"), "--pred", os.path.join(d, "submission.csv"),
               "--set", "metric=kendall_tau", "--format", "json"]
        p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        return [f"kendall case {seed}: exit {p.returncode}: {p.stderr[:300]}"]
    got = out["scores"].get("kendall_tau")
    errors = [x for x in out.get("diagnostics", []) if x.get("severity") == "error"]
    if want is None:
        return [] if got is None else [f"kendall case {seed}: Python raises, dropscore {got}"]
    if errors or got != want:
        return [f"kendall case {seed}: Python {want}, dropscore {got} {errors[:1]}"]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))
    a = ap.parse_args()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(lambda i: check(a.bin, a.seed * 100003 + i), range(a.cases)))
    bad = [b for r in results for b in r]
    for b in bad[:20]:
        print(b)
    print(f"kaggle_formulas_diff: {a.cases} cases (kendall_tau), {len(bad)} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
