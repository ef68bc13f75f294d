#!/usr/bin/env python3
"""Differential test of dropscore's bootstrap intervals (docs/specs/statistics.md) for the `text` family against
the reference libraries on the repeated sets: jiwer 4.0.0 (tests/reference/requirements-text.txt) for the corpus
CER, WER, MER, WIL, WIP and the per-line means, sacreBLEU 2.6.0 (tests/reference/requirements-textgen.txt) for
corpus BLEU, chrF, chrF++ and TER with one or several references. Random lines, a random seed, B and confidence;
the draws are NumPy's `default_rng(seed).integers(0, n, size=(B, n))`; replicate r is the library's corpus score
on the lists in which line i appears as many times as drawn (copies adjacent, in line order); the interval is
`numpy.percentile(values, [100(1-c)/2, 100(1+c)/2])` and `numpy.std(values, ddof=1)`. Every bound must agree to
1e-10 relative (the replicates agree to 1e-12; a percentile interpolates two of them).

Also `falsid` (strata = subsets) against scikit-learn 1.x's `accuracy_score` and `balanced_accuracy_score` with
`sample_weight` = the draw counts and a NumPy Top-k on the query sample (`falsid_case`).

Usage: python3 tests/reference/stats_more_diff.py [--cases N] [--falsid-cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import jiwer
import numpy as np
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__

VOCAB = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran,", "été", "Big", "big.", "x", "über", "(it)"]


def line(r, lo=1, hi=9):
    return " ".join(r.choice(VOCAB) for _ in range(r.randint(lo, hi)))


def noisy(r, s):
    words = s.split()
    out = []
    for w in words:
        u = r.random()
        if u < 0.1:
            continue
        out.append(r.choice(VOCAB) if u < 0.3 else w)
        if r.random() < 0.08:
            out.append(r.choice(VOCAB))
    return " ".join(out)


def close(a, b, rel=1e-10):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-14


def jiwer_metric(mid, refs, hyps):
    if mid == "cer":
        return jiwer.cer(refs, hyps)
    if mid in ("wer", "mer", "wil", "wip"):
        return getattr(jiwer.process_words(refs, hyps), mid)
    if mid == "cer_mean":
        return sum(jiwer.process_characters(x, y).cer for x, y in zip(refs, hyps)) / len(refs)
    if mid == "wer_mean":
        return sum(jiwer.process_words(x, y).wer for x, y in zip(refs, hyps)) / len(refs)
    return "skip"


def sacre_metric(mid, refs, hyps):
    """refs: one list of references per line; sacreBLEU takes reference streams (None where a line has fewer)."""
    k = max(len(x) for x in refs)
    streams = [[x[j] if j < len(x) else None for x in refs] for j in range(k)]
    m = {"bleu": BLEU(), "chrf": CHRF(), "chrf++": CHRF(word_order=2), "ter": TER()}.get(mid)
    if m is None:
        return "skip"
    return m.corpus_score(hyps, streams).score


def case(binary, case_seed):
    r = random.Random(case_seed)
    n = r.randint(5, 40)
    B = r.choice([40, 100, 200])
    seed = r.randrange(2**32)
    conf = r.choice([0.9, 0.95, 0.99])
    many = r.random() < 0.4
    refs = [[line(r) for _ in range(r.randint(1, 3) if many else 1)] for _ in range(n)]
    hyps = [noisy(r, x[0]) for x in refs]
    ids = [f"i{k:03d}" for k in range(n)]
    metric = "bleu" if many else "cer"
    with tempfile.TemporaryDirectory() as d:
        gt = {i: (x if many else x[0]) for i, x in zip(ids, refs)}
        json.dump(gt, open(f"{d}/gt.json", "w"), ensure_ascii=False)
        json.dump(dict(zip(ids, hyps)), open(f"{d}/pred.json", "w"), ensure_ascii=False)
        opts = ["--set", f"bootstrap={B}", "--set", f"seed={seed}", "--set", f"confidence={conf}"]
        out = subprocess.run(
            [binary, "text", "--gt", f"{d}/gt.json", "--pred", f"{d}/pred.json", "--set", f"metric={metric}"]
            + opts + ["--format", "json", "-q"],
            capture_output=True,
            text=True,
        )
        rep = json.loads(out.stdout)
    draws = np.random.default_rng(seed).integers(0, n, size=(B, n))
    counts = [np.bincount(row, minlength=n) for row in draws]
    errors, checked = [], 0
    st = rep.get("statistics")
    if st != {"unit": "item", "strata": None, "bootstrap": B, "seed": seed, "confidence": conf}:
        errors.append(f"statistics {st}")
    for mid, iv in rep.get("intervals", {}).items():
        values = []
        for w in counts:
            rr = [x for x, k in zip(refs, w) for _ in range(k)]
            hh = [y for y, k in zip(hyps, w) for _ in range(k)]
            v = sacre_metric(mid, rr, hh)
            if v == "skip" and not many:
                v = jiwer_metric(mid, [x[0] for x in rr], hh)
            values.append(v)
        if "skip" in values:
            continue
        checked += 1
        lo, hi = np.percentile(values, [100 * (1 - conf) / 2, 100 * (1 + conf) / 2])
        want = (float(lo), float(hi), float(np.std(values, ddof=1)))
        got = (iv["low"], iv["high"], iv["se"])
        if iv["left_out"] != 0 or not all(close(a, b) for a, b in zip(got, want)):
            errors.append(f"text case {case_seed} {mid}: got {got}, want {want}")
    return checked, errors


FALSID_SUBSETS = ["Pizan", "Tasso", "Yaqut"]


def falsid_case(binary, case_seed):
    """falsid: strata = subsets (each drawn from one generator, strata in name order, sizes kept); the class
    readings by scikit-learn with `sample_weight` = the draw counts (a missing prediction is the label -1,
    always wrong; `balanced_accuracy_score` leaves out the classes without a true sample, as dropscore does);
    Top-k on the query sample: each query's first same-class item in `numpy.argsort(kind="stable")` order of
    its row without itself, k capped at N - 1, the drawn queries counted as drawn."""
    from sklearn.metrics import accuracy_score, balanced_accuracy_score

    r = random.Random(case_seed)
    names = sorted(r.sample(FALSID_SUBSETS, r.randint(1, 3)))
    B = r.choice([40, 100, 200])
    seed = r.randrange(2**32)
    conf = r.choice([0.9, 0.95, 0.99])
    subsets = []
    for name in names:
        n = r.randint(3, 25)
        y = [r.randint(0, 1) for _ in range(n)]
        p = [None if r.random() < 0.1 else (t if r.random() < 0.7 else r.randint(0, 1)) for t in y]
        d = None
        if r.random() < 0.7:
            spread = r.randint(2, 8)
            d = np.array([[0 if i == j else r.randint(1, spread) for j in range(n)] for i in range(n)], float)
        subsets.append((name, [f"{name[0].lower()}{i:03d}" for i in range(n)], y, p, d))
    with tempfile.TemporaryDirectory() as tmp:
        gt, pred, files = "id,subset,label\n", "id,subset,label\n", []
        for name, ids, y, p, d in subsets:
            order = list(range(len(ids)))
            r.shuffle(order)  # file order differs from the report's
            for i in order:
                gt += f"{ids[i]},{name},{y[i]}\n"
                if p[i] is not None:
                    pred += f"{ids[i]},{name},{p[i]}\n"
            if d is not None:
                path = f"{tmp}/dist_{name.lower()}.csv"
                with open(path, "w") as f:
                    f.write("," + ",".join(ids) + "\n")
                    for i, row in zip(ids, d):
                        f.write(i + "," + ",".join(str(int(v)) for v in row) + "\n")
                files.append(path)
        open(f"{tmp}/gt.csv", "w").write(gt)
        open(f"{tmp}/pred.csv", "w").write(pred)
        opts = ["--set", f"bootstrap={B}", "--set", f"seed={seed}", "--set", f"confidence={conf}"]
        out = subprocess.run(
            [binary, "falsid", "--gt", f"{tmp}/gt.csv", "--pred", f"{tmp}/pred.csv"] + files + opts
            + ["--format", "json", "-q"],
            capture_output=True,
            text=True,
        )
        rep = json.loads(out.stdout)
    rng = np.random.default_rng(seed)
    counts = [[np.bincount(row, minlength=len(s[1])) for row in rng.integers(0, len(s[1]), size=(B, len(s[1])))]
              for s in subsets]
    ranks = []
    for name, ids, y, p, d in subsets:
        if d is None:
            ranks.append(None)
            continue
        rk = []
        for q in range(len(ids)):
            others = [j for j in range(len(ids)) if j != q]
            order = np.argsort(d[q][others], kind="stable")
            same = [k for k, o in enumerate(order) if y[others[o]] == y[q]]
            rk.append(same[0] + 1 if same else None)
        ranks.append(rk)

    ys = [s[2] for s in subsets]
    ps = [[-1 if x is None else x for x in s[3]] for s in subsets]
    # scikit-learn's answer for each distinct call: with one subset the pooled readings are the same calls as the
    # per-subset ones (about 1 ms each, nearly all of it input validation), made once.
    calls = {}

    def sk(f, y, p, w):
        key = (f.__name__, tuple(y), tuple(p), tuple(int(v) for v in w))
        if key not in calls:
            calls[key] = f(y, p, sample_weight=w)
        return calls[key]

    def metric(mid, b):
        ws = [c[b] for c in counts]
        if mid == "accuracy":
            return float(np.mean([sk(accuracy_score, y, p, w) for y, p, w in zip(ys, ps, ws)]))
        if mid == "uar":
            return float(np.mean([sk(balanced_accuracy_score, y, p, w) for y, p, w in zip(ys, ps, ws)]))
        cat = lambda xs: [v for x in xs for v in x]
        if mid == "pooled_accuracy":
            return sk(accuracy_score, cat(ys), cat(ps), cat(ws))
        if mid == "pooled_macro_recall":
            return sk(balanced_accuracy_score, cat(ys), cat(ps), cat(ws))
        k = int(mid[3:])
        per = []
        for rk, w in zip(ranks, ws):
            if rk is not None:
                keff = min(k, len(rk) - 1)
                per.append(sum(int(x is not None and x <= keff) * c for x, c in zip(rk, w)) / sum(w))
        return sum(per) / len(per)

    errors, checked = [], 0
    st = rep.get("statistics")
    if st != {"unit": "sample", "strata": "subset", "bootstrap": B, "seed": seed, "confidence": conf}:
        errors.append(f"falsid case {case_seed}: statistics {st}")
    want_ids = ["accuracy", "uar", "pooled_macro_recall", "pooled_accuracy"]
    if any(rk is not None for rk in ranks):
        want_ids += ["top1", "top3", "top5"]
    if sorted(rep.get("intervals", {})) != sorted(want_ids):
        errors.append(f"falsid case {case_seed}: intervals for {sorted(rep.get('intervals', {}))}")
    for mid, iv in rep.get("intervals", {}).items():
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = [metric(mid, b) for b in range(B)]
        checked += 1
        lo, hi = np.percentile(values, [100 * (1 - conf) / 2, 100 * (1 + conf) / 2])
        want = (float(lo), float(hi), float(np.std(values, ddof=1)))
        got = (iv["low"], iv["high"], iv["se"])
        if iv["left_out"] != 0 or not all(close(a, b) for a, b in zip(got, want)):
            errors.append(f"falsid case {case_seed} {mid}: got {got}, want {want}")
    return checked, errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--falsid-cases", type=int, default=300)
    ap.add_argument("--bin", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release/dropscore"))
    a = ap.parse_args()
    binary = a.bin if os.path.isabs(a.bin) else os.path.join(ROOT, a.bin)
    bad, intervals = 0, 0
    for c in range(a.cases):
        k, errors = case(binary, a.seed * 100003 + c)
        intervals += k
        for e in errors[:5]:
            print(e)
        bad += bool(errors)
    print(f"stats_more_diff: {a.cases} text cases, {intervals} intervals against jiwer/sacreBLEU, {bad} cases differ")
    fbad, fintervals = 0, 0
    for c in range(a.falsid_cases):
        k, errors = falsid_case(binary, a.seed * 100019 + c)
        fintervals += k
        for e in errors[:5]:
            print(e)
        fbad += bool(errors)
    print(
        f"stats_more_diff: {a.falsid_cases} falsid cases, {fintervals} intervals against scikit-learn "
        f"(sample_weight = draw counts) and a NumPy Top-k, {fbad} cases differ"
    )
    sys.exit(1 if bad or fbad else 0)


if __name__ == "__main__":
    main()
