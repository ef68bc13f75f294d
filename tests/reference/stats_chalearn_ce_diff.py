#!/usr/bin/env python3
"""Differential test of dropscore's bootstrap intervals for `chalearn-ce` (docs/specs/statistics.md sections 1-2)
against NumPy: the draws are `numpy.random.default_rng(seed).integers(0, n, size=(B, n))` over the image ids (the
first category's GT order, then the ids only later categories list, in order of first appearance); replicate r is
mAP recomputed by the independent NumPy reference of docs/specs/chalearn-ce.md (`reference` in
tests/reference/chalearn_ce_diff.py, imported) on the repeated set built here: in every GT and submission file, the
line of an image drawn k times replaced by k adjacent copies with distinct ids (unknown ids kept once). The
interval is `numpy.percentile(values, [100(1-c)/2, 100(1+c)/2])`, the standard error `numpy.std(values, ddof=1)`
(undefined replicates left out and counted; more than 5 % left out: no interval). The bounds must be equal
exactly (each replicate is bit-identical: the same steps on the same ranking), the standard error to 1e-12
relative.

Random cases (default 150): 1-5 categories over 3-40 images, later categories in another GT order and now and
then with an image of their own, tied and coarse confidences, missing, unknown and repeated ids, a missing
submission file, and every option set the AP diff uses (tie order, missing images, integration, sentinels).

Requirements: tests/reference/requirements-chalearn-ce.txt (NumPy; scikit-learn and SciPy for the imported
chalearn_ce_diff.py and stats_diff.py, whose `want_interval` is the interval of the spec).

Usage: python3 tests/reference/stats_chalearn_ce_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import os
import random
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chalearn_ce_diff as ce  # noqa: E402  (the NumPy AP reference, its option sets and its runner)
from stats_diff import want_interval  # noqa: E402  (docs/specs/statistics.md section 2's interval)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def close(a, b, rel=1e-12):
    """Equal to `rel` relative, or absolute below 1 (both None: equal)."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(1.0, abs(a), abs(b))


def write_case(root, r):
    """A random Codalab layout under root; returns (ref dir, res dir, categories as `ce.reference` reads them)."""
    ref, res = os.path.join(root, "ref"), os.path.join(root, "res")
    os.makedirs(ref)
    os.makedirs(res)
    n = r.randint(3, 40)
    images = [f"{r.randrange(10**6):06d}_{i}.jpg" for i in range(n)]
    cats = {}
    for k in range(r.randint(1, 5)):
        name = f"Event_{k}_{r.choice(['Holi', 'Obon', 'Carnival'])}"
        order = images[:]
        if k > 0:
            r.shuffle(order)
            if r.random() < 0.3:
                order.insert(r.randrange(len(order) + 1), f"own{k}.jpg")
        ppos = r.choice([0.0, 0.1, 0.3, 0.6])
        labels = {i: 1 if r.random() < ppos else r.choice([-1, -1, 0]) for i in order}
        with open(os.path.join(ref, f"{name}_test.txt"), "w") as f:
            f.writelines(f"{i} {labels[i]}\n" for i in order)
        if k > 0 and r.random() < 0.1:  # a missing file (the first category always has one)
            cats[name] = (labels, None)
            continue
        lines = []
        coarse = r.random() < 0.5
        for i in order:
            if r.random() < r.choice([0.0, 0.1, 0.3]):
                continue
            x = r.gauss(0.6 if labels[i] == 1 else 0.4, 0.25)
            lines.append(f"{i} {round(x, 1) if coarse else x!r}")
        if r.random() < 0.5:
            r.shuffle(lines)
        if r.random() < 0.2:
            lines.insert(r.randrange(len(lines) + 1), f"stranger.jpg {r.random()!r}")
        if lines and r.random() < 0.2:
            lines.append(f"{r.choice(lines).split()[0]} {r.random()!r}")
        path = os.path.join(res, f"{name}.txt")
        with open(path, "w") as f:
            f.writelines(x + "\n" for x in lines)
        cats[name] = (labels, ce.read_pairs(path, float))
    return ref, res, dict(sorted(cats.items()))


def unit_ids(cats):
    ids, seen = [], set()
    for gt, _ in cats.values():
        for i in gt:
            if i not in seen:
                seen.add(i)
                ids.append(i)
    return ids


def repeated(cats, weight):
    """Every unit's line replaced by weight[id] adjacent copies (`id`, `id#1`, …); unknown ids kept once."""

    def copies(i):
        return [i if c == 0 else f"{i}#{c}" for c in range(weight.get(i, 1))]

    out = {}
    for name, (gt, sub) in cats.items():
        g = {c: label for i, label in gt.items() for c in copies(i)}
        s = None if sub is None else [(c, conf) for i, conf in sub for c in copies(i)]
        out[name] = (g, s)
    return out


def compare(name, rep, metric, values, B, seed, conf, unit, exact=False):
    """The report's statistics and its interval of `metric` against the replicate values (None: undefined);
    returns (intervals checked, errors). Bounds equal exactly with `exact`, else to 1e-12; se to 1e-12."""
    st = rep.get("statistics")
    if st != {"unit": unit, "strata": None, "bootstrap": B, "seed": seed, "confidence": conf}:
        return 0, [f"{name}: statistics {st}"]
    iv = rep.get("intervals", {}).get(metric)
    (lo, hi, se), left_out = want_interval(values, B, conf)
    if iv is None:
        return 0, [f"{name} {metric}: no interval, want {(lo, hi, se)} ({left_out} left out)"]
    got = (iv["low"], iv["high"], iv["se"])
    bounds = got[:2] == (lo, hi) if exact else close(got[0], lo) and close(got[1], hi)
    if iv["left_out"] != left_out or not bounds or not close(got[2], se):
        return 1, [f"{name} {metric}: got {got} ({iv['left_out']} left out), want {(lo, hi, se)} ({left_out})"]
    return 1, []


def case(binary, case_seed):
    r = random.Random(case_seed)
    B = r.choice([40, 100, 200])
    seed = r.randrange(2**32)
    conf = r.choice([0.9, 0.95, 0.99])
    opts = dict(r.choice(ce.OPTION_SETS))
    with tempfile.TemporaryDirectory(prefix="stats-chalearn-") as tmp:
        ref, res, cats = write_case(tmp, r)
        stats = {"bootstrap": B, "seed": seed, "confidence": conf}
        rep = ce.run(binary, ref, res, len(cats), {**opts, **stats})
    units = unit_ids(cats)
    n = len(units)
    draws = np.random.default_rng(seed).integers(0, n, size=(B, n))
    values = []
    for row in draws:
        counts = np.bincount(row, minlength=n)
        values.append(ce.reference(repeated(cats, dict(zip(units, map(int, counts)))), opts)[1])
    name = f"chalearn-ce case {case_seed} {opts}"
    if rep["scores"]["map"] is None:
        iv = rep.get("intervals", {}).get("map")
        return 0, [] if iv is None or iv["low"] is None else [f"{name}: an interval for an undefined mAP"]
    return compare(name, rep, "map", values, B, seed, conf, "image", exact=True)


def run_cases(checks):
    """Runs each `check()` -> (intervals checked, errors), printing a case's first errors; returns (intervals
    checked, cases that differ)."""
    checked = bad = 0
    for check in checks:
        k, errors = check()
        checked += k
        for e in errors[:3]:
            print(e)
        bad += bool(errors)
    return checked, bad


def arguments(**cases):
    """The command line: `--NAME N` for each keyword's default number of cases, `--seed`, `--bin`; returns the
    parsed arguments and the binary's absolute path."""
    ap = argparse.ArgumentParser()
    for name, default in cases.items():
        ap.add_argument(f"--{name.replace('_', '-')}", type=int, default=default)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release/dropscore"))
    a = ap.parse_args()
    return a, a.bin if os.path.isabs(a.bin) else os.path.join(ROOT, a.bin)


def main():
    a, binary = arguments(cases=150)
    intervals, bad = run_cases(lambda c=c: case(binary, a.seed * 100043 + c) for c in range(a.cases))
    print(f"stats_chalearn_ce_diff: {a.cases} chalearn-ce cases, {intervals} mAP intervals against the NumPy AP "
          f"reference on the repeated sets, {bad} cases differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
