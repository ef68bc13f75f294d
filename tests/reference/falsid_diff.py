#!/usr/bin/env python3
"""Differential test of dropscore's `falsid` protocol against NumPy / scikit-learn.

Install: pip install -r tests/reference/requirements-falsid.txt. Build: cargo build --release.
Usage: python3 tests/reference/falsid_diff.py [N_CASES] [SEED]   (default 240 cases)

Each case (seeded): three subsets of random sizes (1..40 items, some subsets left empty), random GT labels
(sometimes one class only), predictions with missing and unknown ids, in a random label layout (merged L1,
per-subset L2 with 0/1, explicit L3, or a mix of merged and per-subset files for different subsets); one
distance matrix per subset in a random layout (D1 labelled square with shuffled rows, D2 name rows with or
without the integer column, D3 bare with , TAB or whitespace, D4 .npy float64 / float32 / big-endian /
Fortran order), values drawn from a small set so that ties abound, duplicated rows, and NaN/inf sometimes;
random options (modes, topk_ties, topk_no_match, missing_prediction, topk list).

Reference: per subset `accuracy_score`, `balanced_accuracy_score` (a missing prediction is the class 2, so it
is wrong for both classes, as dropscore counts it), pooled `balanced_accuracy_score` / `accuracy_score` over all
items, means over subsets as `sum(list) / len(list)`; Top-k from `numpy.argsort(row without the query,
kind="stable")` (pessimistic ties: `numpy.lexsort((index, same_class, distance))`), NaN/inf mapped to +inf,
k capped at N - 1. Every headline score, every per-subset score and every item's `correct` must be equal
(bit-exact). Exit status 1 on any mismatch.
"""
import io, json, os, random, subprocess, sys, tempfile

import numpy as np
from sklearn.metrics import accuracy_score, balanced_accuracy_score
import warnings

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DROPSCORE = os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore"))
SUBSETS = ["Pizan", "Tasso", "Yaqut"]


def fmt(v):
    if np.isnan(v):
        return random.choice(["nan", "NaN"])
    if np.isinf(v):
        return "inf" if v > 0 else random.choice(["-inf", "-Inf"])
    return repr(float(v))


def make_case(rng, d):
    opts = {}
    if rng.random() < 0.3:
        opts["topk_ties"] = "pessimistic"
    if rng.random() < 0.3:
        opts["topk_no_match"] = "exclude"
    if rng.random() < 0.3:
        opts["missing_prediction"] = "exclude"
    if rng.random() < 0.3:
        opts["topk"] = ",".join(str(k) for k in sorted(rng.sample(range(1, 12), rng.randint(1, 4))))
    mode = rng.choice(["official", "corrected"])
    gt_rows, pred_rows, mats, truth = [], [], [], {}
    for s in SUBSETS:
        if rng.random() < 0.1:
            continue
        n = rng.randint(1, 40)
        ids = [f"{s[0].lower()}{i:03d}" + rng.choice(["", "_a", "-x"]) for i in range(n)]
        p1 = rng.choice([0.0, 0.3, 0.5, 1.0]) if rng.random() < 0.15 else rng.random()
        y = [1 if rng.random() < p1 else 0 for _ in ids]
        acc = rng.random()
        pred = {}
        for i, yi in zip(ids, y):
            if rng.random() < 0.1:
                continue
            pred[i] = yi if rng.random() < acc else 1 - yi
        extra = [f"zz{s}{k}" for k in range(rng.randint(0, 2))]
        for e in extra:
            pred[e] = rng.randint(0, 1)
        truth[s] = (ids, y, pred)
        gt_rows += [(i, s, yi) for i, yi in zip(ids, y)]
        pred_rows += [(i, s, p) for i, p in pred.items()]
        if rng.random() < 0.85:
            vals = rng.choice([[0, 1, 2], [0.5, 0.25, 1.0, 2.0, 3.0], list(np.round(np.linspace(0, 1, 7), 3))])
            m = np.array([[rng.choice(vals) for _ in range(n)] for _ in range(n)], dtype=np.float64)
            if rng.random() < 0.3:
                m = (m + m.T) / 2
                np.fill_diagonal(m, 0)
            if n > 2 and rng.random() < 0.3:
                m[rng.randrange(n)] = m[rng.randrange(n)]
            if rng.random() < 0.15:
                for _ in range(rng.randint(1, 3)):
                    m[rng.randrange(n), rng.randrange(n)] = rng.choice([np.nan, np.inf, -np.inf])
            mats.append((s, ids, m))
    # GT file: merged words, or L3
    if rng.random() < 0.7:
        gt = "id,label\n" + "".join(f"{i},{'not-' if yi else ''}{s}\n" for i, s, yi in gt_rows)
    else:
        gt = "".join(f"{i};{s.lower()};{yi}\n" for i, s, yi in gt_rows)
    files = [("gt", "gt.csv", gt.encode())]
    layout = rng.choice(["merged", "per", "l3", "mix"])
    rng.shuffle(pred_rows)
    if layout == "merged":
        files.append(("pred", "pred.csv", ("id,label\n" + "".join(f"{i},{'not-' if p else ''}{s}\n" for i, s, p in pred_rows)).encode()))
    elif layout == "l3":
        files.append(("pred", "pred.tsv", ("id\tsubset\tlabel\n" + "".join(f"{i}\t{s}\t{p}\n" for i, s, p in pred_rows)).encode()))
    else:
        merged = [r for r in pred_rows if layout == "mix" and r[1] == "Pizan"]
        if merged:
            files.append(("pred", "merged.csv", "".join(f"{i},{'not-' if p else ''}{s}\n" for i, s, p in merged).encode()))
        for s in SUBSETS:
            rows = [r for r in pred_rows if r[1] == s and r not in merged]
            if rows or (s in truth and not merged):
                files.append(("pred", f"{s.lower()}.csv", ("id,label\n" + "".join(f"{i},{p}\n" for i, _, p in rows)).encode()))
    # Matrices: a random order of ids for D1/D2, GT order for D3/D4.
    mat_ref = {}
    for s, ids, m in mats:
        kind = rng.choice(["D1", "D2", "D2i", "D3", "D4"])
        n = len(ids)
        name = f"dist_{s.lower()}"
        if kind in ("D1", "D2", "D2i"):
            perm = list(range(n))
            rng.shuffle(perm)
            mm = m[np.ix_(perm, perm)]
            order = [ids[p] for p in perm]
            if kind == "D1":
                rows = list(range(n))
                if rng.random() < 0.5:
                    rng.shuffle(rows)
                sep = rng.choice([",", "\t", ";"])
                text = sep + sep.join(order) + "\n" + "".join(order[r] + sep + sep.join(fmt(v) for v in mm[r]) + "\n" for r in rows)
            else:
                sep = rng.choice([",", "\t", " "])
                text = "".join(order[r] + sep + (f"{r}{sep}" if kind == "D2i" else "") + sep.join(fmt(v) for v in mm[r]) + "\n" for r in range(n))
            files.append(("pred", name + ".csv", text.encode()))
            mat_ref[s] = (order, mm)
        elif kind == "D3":
            sep = rng.choice([",", "\t", "  "])
            text = "".join(sep.join(fmt(v) for v in row) + rng.choice(["\n", "\r\n"]) for row in m)
            files.append(("pred", name + ".txt", text.encode()))
            mat_ref[s] = (ids, m)
        else:
            dt = rng.choice(["<f8", "<f4", ">f8", ">f4"])
            arr = m.astype(dt)
            if rng.random() < 0.3:
                arr = np.asfortranarray(arr)
            buf = io.BytesIO()
            np.save(buf, arr)
            files.append(("pred", name + ".npy", buf.getvalue()))
            mat_ref[s] = (ids, arr.astype(np.float64))
    return mode, opts, files, truth, mat_ref


def reference(mode, opts, truth, mat_ref):
    ks = [int(k) for k in opts.get("topk", "1,3,5").split(",")]
    exclude_missing = opts.get("missing_prediction") == "exclude"
    groups, items = {}, {}
    all_y, all_p = [], []
    for s in SUBSETS:
        if s not in truth:
            continue
        ids, y, pred = truth[s]
        yy, pp = [], []
        for i, yi in zip(ids, y):
            p = pred.get(i)
            items[(i, s)] = None if (p is None and exclude_missing) else float(p == yi)
            if p is None and exclude_missing:
                continue
            yy.append(yi)
            pp.append(2 if p is None else p)
        g = {}
        g["accuracy"] = float(accuracy_score(yy, pp)) if yy else None
        g["uar"] = float(balanced_accuracy_score(yy, pp)) if yy else None
        all_y += yy
        all_p += pp
        if s in mat_ref:
            order, m = mat_ref[s]
            m = np.where(np.isfinite(m), m, np.inf)
            cls = np.array([y[ids.index(i)] for i in order])
            n = len(order)
            for k in ks:
                keff = min(k, n - 1)
                hits = counted = 0
                for q in range(n):
                    others = np.delete(np.arange(n), q)
                    d = m[q, others]
                    same = (cls[others] == cls[q]).astype(int)
                    if not same.any() and opts.get("topk_no_match") == "exclude":
                        continue
                    counted += 1
                    if opts.get("topk_ties") == "pessimistic":
                        o = np.lexsort((np.arange(n - 1), same, d))
                    else:
                        o = np.argsort(d, kind="stable")
                    if same[o[:keff]].any():
                        hits += 1
                g[f"top{k}"] = hits / counted if counted else None
        groups[s] = g
    mean = lambda xs: (sum(xs) / len(xs)) if xs else None
    scores = {
        "accuracy": mean([g["accuracy"] for g in groups.values() if g["accuracy"] is not None]),
        "uar": mean([g["uar"] for g in groups.values() if g["uar"] is not None]),
        "pooled_macro_recall": float(balanced_accuracy_score(all_y, all_p)) if all_y else None,
        "pooled_accuracy": float(accuracy_score(all_y, all_p)) if all_y else None,
    }
    for k in ks:
        scores[f"top{k}"] = mean([g[f"top{k}"] for g in groups.values() if g.get(f"top{k}") is not None])
    return scores, groups, items


def main():
    n_cases = int(sys.argv[1]) if len(sys.argv) > 1 else 240
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    rng = random.Random(seed)
    random.seed(seed)
    bad = compared = 0
    with tempfile.TemporaryDirectory() as d:
        for c in range(n_cases):
            mode, opts, files, truth, mat_ref = make_case(rng, d)
            case_dir = os.path.join(d, f"c{c}")
            os.makedirs(case_dir)
            args = [DROPSCORE, "falsid", "--mode", mode, "--format", "json", "--quiet"]
            for role, name, data in files:
                p = os.path.join(case_dir, name)
                with open(p, "wb") as f:
                    f.write(data)
                args += [f"--{role}", p]
            for k, v in opts.items():
                args += ["--set", f"{k}={v}"]
            out = subprocess.run(args, capture_output=True, text=True)
            if out.returncode not in (0, 1):
                print(f"case {c}: exit {out.returncode}: {out.stderr}")
                bad += 1
                continue
            rep = json.loads(out.stdout)
            errors = [x for x in rep["diagnostics"] if x["severity"] == "error"]
            if errors:
                print(f"case {c}: unexpected errors {[(x['code'], x['message']) for x in errors]}")
                bad += 1
                continue
            scores, groups, items = reference(mode, opts, truth, mat_ref)
            problems = []
            for k, v in scores.items():
                compared += 1
                if rep["scores"].get(k) != v:
                    problems.append(f"scores.{k}: dropscore {rep['scores'].get(k)!r} reference {v!r}")
            for g in rep["groups"]:
                for k, v in groups[g["id"]].items():
                    compared += 1
                    if g["scores"].get(k) != v:
                        problems.append(f"{g['id']}.{k}: dropscore {g['scores'].get(k)!r} reference {v!r}")
            for it in rep["items"]:
                compared += 1
                if it["scores"]["correct"] != items[(it["id"], it["group"])]:
                    problems.append(f"item {it['group']}/{it['id']}: {it['scores']['correct']} vs {items[(it['id'], it['group'])]}")
            if problems:
                bad += 1
                print(f"case {c} ({mode}, {opts}): " + "; ".join(problems[:5]))
    print(f"falsid_diff: {n_cases} cases, {compared} values compared, {bad} cases with mismatches (seed {seed})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
