#!/usr/bin/env python3
"""Differential test of dropscore chalearn-ce against an independent NumPy implementation of the VOC-style AP of
docs/specs/chalearn-ce.md section 3 (and the readings of sections 4-5), plus scikit-learn's average_precision_score where
the spec says they coincide.

Random categories (default 240: ties, -0.0/0.0, exponents, missing positives, unknown ids, duplicates, no positives,
empty and missing files) are written as a Codalab layout and scored by `dropscore chalearn-ce ... --format json`
under several option sets. Per-category AP and mAP must be bit-identical to the NumPy reference (np.trapezoid /
voc_ap's np.sum, pairwise sums; mAP a left-to-right mean in category-name order).

scikit-learn: average_precision_score groups ties and has no envelope and no sentinels, so it equals the tie-grouped
step sum only where the envelope changes nothing at the recall jumps (and every positive is ranked). This script
(a) checks that its own tie-grouped, envelope-free step sum equals sklearn on every fully ranked category (the
grouping is right), and (b) that dropscore's tie-grouped step sum equals sklearn (to 1e-12; sklearn sums in another
order) on every category where the envelope is inactive. Exit status 1 on any mismatch; one summary line.

Usage: python3 tests/reference/chalearn_ce_diff.py [--categories N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.metrics import average_precision_score

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


# ---------------------------------------------------------------- the NumPy reference (independent of dropscore)

def read_pairs(path, conv):
    out = []
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            parts = line.split()
            if parts:
                out.append((parts[0], conv(parts[1])))
    return out


def ranking(gt, sub, tie, append):
    """Labels (1/0) of the ranked items, as a float array, plus group-end mask (for tie = grouped)."""
    seen = set()
    conf, lab = [], []
    for img, c in sub:
        if img not in gt or img in seen:
            continue
        seen.add(img)
        conf.append(c)
        lab.append(1.0 if gt[img] == 1 else 0.0)
    if append:
        for img, l in gt.items():  # GT file order (dicts keep insertion order)
            if img not in seen:
                conf.append(-np.inf)
                lab.append(1.0 if l == 1 else 0.0)
    conf = np.asarray(conf, dtype=np.float64)
    lab = np.asarray(lab, dtype=np.float64)
    if tie == "positives_first":
        order = np.lexsort((-lab, -conf))
    elif tie == "negatives_first":
        order = np.lexsort((lab, -conf))
    else:
        order = np.argsort(-conf, kind="stable")
    conf, lab = conf[order], lab[order]
    ends = np.r_[conf[1:] != conf[:-1], True] if len(conf) else np.zeros(0, dtype=bool)
    return lab, ends


def voc_curve(lab, ends, npos, grouped):
    tp = np.cumsum(lab)
    fp = np.cumsum(1.0 - lab)
    rec = tp / float(npos)
    prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
    if grouped:
        rec, prec = rec[ends], prec[ends]
    return rec, prec


def ap_of(rec, prec, integration, sentinels):
    if sentinels:
        mrec = np.concatenate(([0.0], rec, [1.0]))
        mpre = np.concatenate(([0.0], prec, [0.0]))
    else:
        mrec, mpre = rec.copy(), prec.copy()
    if len(mpre) == 0:
        return 0.0
    mpre = np.maximum.accumulate(mpre[::-1])[::-1]
    if integration == "trapezoid":
        return float(np.trapezoid(mpre, mrec))
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1]))


def reference(cats, opts):
    """{category: AP or None}, mAP, under the options (dict of dropscore option names)."""
    tie = opts.get("tie_order", "file")
    append = opts.get("missing_images", "unranked") == "append"
    integ = opts.get("integration", "trapezoid")
    sent = opts.get("sentinels", "true") == "true"
    aps = {}
    for name, (gt, sub) in cats.items():
        npos = sum(1 for l in gt.values() if l == 1)
        if npos == 0:
            aps[name] = None
        elif sub is None:
            aps[name] = 0.0
        else:
            lab, ends = ranking(gt, sub, tie, append)
            rec, prec = voc_curve(lab, ends, npos, tie == "grouped")
            aps[name] = ap_of(rec, prec, integ, sent)
    vals = [aps[k] for k in sorted(aps) if aps[k] is not None]
    total = 0.0
    for v in vals:
        total += v
    return aps, (total / len(vals) if vals else None)


# ---------------------------------------------------------------- random categories

def fmt_conf(rnd, x):
    style = rnd.random()
    if style < 0.35:
        return f"{round(x, 1):.1f}"  # coarse: many ties
    if style < 0.45:
        return f"{x:.3e}"
    if style < 0.5:
        return rnd.choice(["0.0", "-0.0", "0", "+0.0"])
    return repr(x)


def generate(root, n, seed):
    rnd = random.Random(seed)
    ref = os.path.join(root, "input", "ref")
    res = os.path.join(root, "input", "res")
    os.makedirs(ref)
    os.makedirs(res)
    cats = {}
    for k in range(n):
        name = f"Cat_{k:04d}_{rnd.choice(['Holi', 'Carnival', 'Diwali', 'Obon'])}"
        nimg = rnd.choice([1, 2, 5, 20, 60, 150, 400])
        ppos = rnd.choice([0.0, 0.02, 0.1, 0.3, 0.7, 1.0])
        ids = [f"{k:04d}{i:06d}.jpg" for i in range(nimg)]
        labels = {i: (1 if rnd.random() < ppos else rnd.choice([-1, -1, 0])) for i in ids}
        with open(os.path.join(ref, f"{name}_test.txt"), "w") as f:
            for i in ids:
                f.write(f"{i} {labels[i]}\n")
        gt = {i: labels[i] for i in ids}
        if rnd.random() < 0.03:
            cats[name] = (gt, None)  # missing file
            continue
        pmiss = rnd.choice([0.0, 0.0, 0.05, 0.3])
        lines = []
        for i in ids:
            if rnd.random() < pmiss:
                continue
            x = rnd.gauss(0.6 if labels[i] == 1 else 0.4, 0.25)
            lines.append(f"{i} {fmt_conf(rnd, x)}")
        rnd.shuffle(lines) if rnd.random() < 0.5 else None
        for _ in range(rnd.choice([0, 0, 1, 3])):
            lines.insert(rnd.randrange(len(lines) + 1), f"unknown_{rnd.randrange(10**6)}.jpg {rnd.random()!r}")
        if lines and rnd.random() < 0.15:
            dup = rnd.choice(lines).split()[0]
            lines.insert(rnd.randrange(len(lines) + 1), f"{dup} {rnd.random()!r}")
        if rnd.random() < 0.02:
            lines = []
        body = "\n".join(lines) + ("\n" if lines else "")
        with open(os.path.join(res, f"{name}.txt"), "w", newline="") as f:
            f.write(body.replace("\n", "\r\n") if rnd.random() < 0.2 else body)
        cats[name] = (gt, read_pairs(os.path.join(res, f"{name}.txt"), float))
    return ref, res, cats


def run(binary, ref, res, n, opts, mode="official"):
    args = [binary, "chalearn-ce", "--gt", ref, "--pred", res, "--format", "json", "--quiet", "--mode", mode,
            "--set", f"expected_categories={n}"]
    for k, v in opts.items():
        args += ["--set", f"{k}={v}"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"dropscore failed ({p.returncode}): {p.stderr}")
    return json.loads(p.stdout)


OPTION_SETS = [
    {},
    {"integration": "step"},
    {"sentinels": "false"},
    {"sentinels": "false", "integration": "step"},
    {"tie_order": "grouped"},
    {"tie_order": "positives_first"},
    {"tie_order": "negatives_first"},
    {"missing_images": "append"},
    {"tie_order": "grouped", "missing_images": "append", "integration": "step"},
    {"tie_order": "file", "missing_images": "append", "sentinels": "false"},
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--categories", type=int, default=240)
    ap.add_argument("--seed", type=int, default=2015)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    a = ap.parse_args()
    failures = []
    compared = 0
    with tempfile.TemporaryDirectory(prefix="chalearn-diff-") as tmp:
        ref, res, cats = generate(tmp, a.categories, a.seed)
        for opts in OPTION_SETS:
            for mode in ("official", "corrected"):
                if mode == "official":
                    full = dict(opts)
                    report = run(a.bin, ref, res, a.categories, opts)
                else:
                    # corrected defaults (tie groups, appended missing images) unless the set overrides them;
                    # duplicates kept (corrected refuses them, which the edge-case tests cover)
                    full = {"tie_order": "grouped", "missing_images": "append", **opts}
                    report = run(a.bin, ref, res, a.categories, {**opts, "duplicates": "first"}, "corrected")
                want, want_map = reference(cats, full)
                got = {it["id"]: it["scores"]["ap"] for it in report["items"]}
                for name, w in want.items():
                    g = got.get(name)
                    compared += 1
                    if g != w:
                        failures.append(f"{full}: {name}: dropscore {g!r} vs numpy {w!r}")
                if report["scores"]["map"] != want_map:
                    failures.append(f"{full}: mAP dropscore {report['scores']['map']!r} vs numpy {want_map!r}")
        # scikit-learn where it coincides
        sk_checked = sk_grouping = 0
        grouped = run(a.bin, ref, res, a.categories, {"tie_order": "grouped", "integration": "step"})
        got = {it["id"]: it["scores"]["ap"] for it in grouped["items"]}
        for name, (gt, sub) in cats.items():
            npos = sum(1 for l in gt.values() if l == 1)
            if sub is None or npos == 0:
                continue
            seen, y, s = set(), [], []
            for img, c in sub:
                if img in gt and img not in seen:
                    seen.add(img)
                    y.append(1 if gt[img] == 1 else 0)
                    s.append(c)
            if sum(y) != npos or sum(y) == len(y):
                continue  # a positive is not ranked, or no negative: sklearn's recall differs / degenerate
            sk = average_precision_score(y, s)
            lab, ends = ranking(gt, sub, "grouped", False)
            rec, prec = voc_curve(lab, ends, npos, True)
            mine = float(np.sum(np.diff(np.r_[0.0, rec]) * prec))  # no envelope, no sentinels
            sk_grouping += 1
            if abs(mine - sk) > 1e-12:
                failures.append(f"sklearn grouping: {name}: numpy {mine!r} vs sklearn {sk!r}")
            env = np.maximum.accumulate(prec[::-1])[::-1]
            jumps = np.r_[True, rec[1:] != rec[:-1]]
            if np.array_equal(env[jumps], prec[jumps]):
                sk_checked += 1
                if abs(got[name] - sk) > 1e-12:
                    failures.append(f"sklearn: {name}: dropscore {got[name]!r} vs sklearn {sk!r}")
    # docs/specs/chalearn-ce.md 7: sklearn on the worked example gives 0.666667, as the tie-grouped reading does.
    ex = os.path.join(ROOT, "tests", "data", "chalearn-ce", "ap_example")
    gt = dict(read_pairs(os.path.join(ex, "input", "ref", "La_Tomatina_test.txt"), int))
    for variant in (("input", "res"), ("res_negfirst",)):
        sub = read_pairs(os.path.join(ex, *variant, "La_Tomatina.txt"), float)
        sk = average_precision_score([1 if gt[i] == 1 else 0 for i, _ in sub], [c for _, c in sub])
        report = run(a.bin, os.path.join(ex, "input", "ref"), os.path.join(ex, *variant), 1, {}, "corrected")
        if f"{sk:.6f}" != "0.666667" or f"{report['scores']['map']:.6f}" != "0.666667":
            failures.append(f"worked example {variant}: sklearn {sk!r}, dropscore corrected {report['scores']['map']!r}")
    for f in failures[:20]:
        print("MISMATCH", f)
    print(f"chalearn-ce diff: {a.categories} random categories x {len(OPTION_SETS) * 2} option sets, {compared} APs "
          f"compared bit for bit with NumPy; scikit-learn: grouping checked on {sk_grouping} categories, "
          f"equal to dropscore's tie-grouped step sum on {sk_checked} where the envelope is inactive; "
          f"{len(failures)} mismatches")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
