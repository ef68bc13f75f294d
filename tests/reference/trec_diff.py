#!/usr/bin/env python3
"""Differential test of dropscore's `kws` preset `trec` against pytrec_eval (trec_eval 9.0.8's measure code).

Install: pip install pytrec-eval-terrier numpy   (imports as `pytrec_eval`; the plain `pytrec_eval` sdist
downloads trec_eval at build time). Build: cargo build --release.
Usage: python3 tests/reference/trec_diff.py [N_CASES] [SEED]

Each case is a random qrels + run pair (seeded): graded and negative relevance, ties in sim (exact ties and
values that only tie once stored in a C float, as trec_eval 9.0.8 stores them), short runs, qrels queries
missing from the run, run queries missing from the qrels, relevance_level 1..3, extra cutoffs, and for some
cases `depth` (trec_eval -M) or `complete` (-c). pytrec_eval has neither option, so for those cases the
reference is derived from pytrec_eval: the run is sorted and cut as trec_eval does before it is handed over
(depth), and the -c averages are taken over every qrels query (complete).

Compared, per query and for `all`, for every measure both offer: num_ret, num_rel, num_rel_ret, map, gm_map
(`all` only: pytrec_eval's per-query gm_map is trec_eval's internal ln value), Rprec, bpref, recip_rank,
iprec_at_recall_*, P_*, recall_*, ndcg, ndcg_cut_*, map_cut_*, relative_P_*, success_*, num_q (`all` only).
`all` is recomputed from pytrec_eval's per-query values as trec_eval computes it: a left-to-right sum over the
queries in ascending byte order of qid divided by num_q; counts summed; gm_map = exp(Σ / num_q).
Tolerance: 1e-12 relative (values within 1e-15 of 0 compare absolutely); the count of bit-exact values is
printed too. Exit status 1 on any mismatch.

Optional, when trec_eval binaries are given (build one with `make` in a checkout of github usnistgov/trec_eval,
tag v9.0.8 or v10.0): TREC_EVAL_BIN (9.0.8) and TREC_EVAL10_BIN (10.0). Then every case is also run through
`trec_eval -q [-c] [-M d] -l L -m official -m P.… …`, and dropscore's text output (`--format text`, with
`trec_version` set to match) must equal trec_eval's stdout byte for byte, or both must fail.
"""
import json, math, os, random, struct, subprocess, sys, tempfile

import pytrec_eval

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DROPSCORE = os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore"))
CUT_FAMILIES = ["P", "recall", "ndcg_cut", "map_cut", "relative_P", "success"]
SINGLE = ["num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "ndcg", "iprec_at_recall"]
DEFAULT_CUTS = {"success": [1, 5, 10]}
TOL = 1e-12


def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def name(rng, prefix, alphabet="abcXYZ019_-."):
    return prefix + "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6)))


def make_case(rng):
    qids = sorted({name(rng, rng.choice(["q", "Q", "t"]), "0123456789ab") for _ in range(rng.randint(1, 10))})
    pool = sorted({name(rng, "d") for _ in range(rng.randint(5, 80))})
    qrels, run = {}, {}
    for q in qids:
        judged = rng.sample(pool, rng.randint(1, min(len(pool), 40)))
        levels = rng.choice([[0, 1], [0, 1, 2, 3], [-1, 0, 1, 2], [1], [0]])
        qrels[q] = {d: rng.choice(levels) for d in judged}
        if max(qrels[q].values()) < 0:
            # trec_eval reads a stale level count for a query whose every judgement is negative: avoided.
            qrels[q][judged[0]] = 0
    run_qids = [q for q in qids if rng.random() > 0.15]
    run_qids += [name(rng, "x") for _ in range(rng.randint(0, 2))]
    sim_kind = rng.choice(["int_ties", "float", "f32_ties", "all_equal", "big"])
    for q in run_qids:
        n = rng.choice([1, 2, 3, rng.randint(1, len(pool)), rng.randint(1, len(pool))])
        docs = rng.sample(pool, n)
        sims = {}
        for d in docs:
            if sim_kind == "int_ties":
                s = float(rng.randint(0, 5))
            elif sim_kind == "float":
                s = round(rng.uniform(-3, 3), rng.randint(1, 6))
            elif sim_kind == "f32_ties":
                s = 1.0 + rng.randint(0, 3) * 1e-9 + rng.randint(0, 2) * 1e-3
            elif sim_kind == "all_equal":
                s = 0.5
            else:
                s = 1e10 + rng.randint(0, 2000)
            sims[d] = s
        run[q] = sims
    if not run:
        q = qids[0]
        run[q] = {pool[0]: 1.0}
    cuts = {}
    for fam in CUT_FAMILIES:
        base = DEFAULT_CUTS.get(fam, [5, 10, 15, 20, 30, 100, 200, 500, 1000])
        extra = rng.choice([None, None, rng.randint(1, 12), rng.randint(1, 60)])
        cuts[fam] = sorted(set(base + ([extra] if extra else [])))
    opts = {
        "relevance_level": rng.choice([1, 1, 1, 2, 3]),  # pytrec_eval refuses levels < 1
        "depth": rng.choice([None] * 5 + [rng.randint(1, 20)]),
        "complete": rng.random() < 0.2,
    }
    return qrels, run, cuts, opts


def write_files(d, qrels, run):
    qlines, rlines = [], []
    for q in qrels:
        for doc, rel in qrels[q].items():
            qlines.append(f"{q} 0 {doc} {rel}")
    for q in run:
        for i, (doc, s) in enumerate(run[q].items()):
            rlines.append(f"{q} Q0 {doc} {i + 1} {s!r} tag")
    random.Random(len(qlines)).shuffle(rlines)  # file order must not matter
    g, r = os.path.join(d, "q.qrels"), os.path.join(d, "r.run")
    open(g, "w").write("\n".join(qlines) + "\n")
    open(r, "w").write("\n".join(rlines) + "\n")
    return g, r


def trec_sorted(sims):
    """trec_eval 9.0.8 order: sim (as a C float) descending, ties by docno descending (strcmp)."""
    docs = sorted(sims, key=lambda d: d.encode(), reverse=True)
    return sorted(docs, key=lambda d: -f32(sims[d]))


def reference(qrels, run, cuts, opts):
    measures = set(SINGLE) | {f"{fam}.{','.join(map(str, cuts[fam]))}" for fam in CUT_FAMILIES}
    given = run
    if opts["depth"]:
        given = {q: {d: run[q][d] for d in trec_sorted(run[q])[: opts["depth"]]} for q in run}
    ev = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=opts["relevance_level"])
    per = ev.evaluate(given)
    order = sorted(per, key=lambda q: q.encode())
    names = sorted({k for q in per for k in per[q]})
    n_q = len(qrels) if opts["complete"] else len(order)
    allv = {"num_q": float(n_q)}
    for m in names:
        if m in ("runid", "num_q"):
            continue
        s = 0.0
        for q in order:
            s += per[q][m]
        if m == "gm_map":
            if opts["complete"]:
                s += (n_q - len(order)) * math.log(0.00001)
            allv[m] = math.exp(s / n_q)
        elif m.startswith("num_"):
            allv[m] = s
        else:
            allv[m] = s / n_q
    if opts["complete"]:
        allv["num_rel"] = float(sum(1 for q in qrels for r in qrels[q].values() if r > 0))
    return per, allv


def dropscore(g, r, cuts, opts):
    ms = ["official"] + SINGLE + [f"{fam}_{k}" for fam in CUT_FAMILIES for k in cuts[fam]]
    args = [DROPSCORE, "kws", "--gt", g, "--pred", r, "--format", "json", "--quiet",
            "--set", "measures=" + ",".join(ms),
            "--set", f"relevance_level={opts['relevance_level']}",
            "--set", f"complete={'true' if opts['complete'] else 'false'}"]
    if opts["depth"]:
        args += ["--set", f"depth={opts['depth']}"]
    out = subprocess.run(args, capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


def measure_args_trec_eval(cuts):
    args = ["-m", "official", "-m", "ndcg"]
    for fam in CUT_FAMILIES:
        args += ["-m", f"{fam}.{','.join(map(str, cuts[fam]))}"]
    return args


def text_compare(te_bin, version, g, r, cuts, opts):
    """trec_eval's -q stdout against dropscore's text output; both fail counts as agreement."""
    te = [te_bin, "-q", "-l", str(opts["relevance_level"])]
    if opts["complete"]:
        te.append("-c")
    if opts["depth"]:
        te += ["-M", str(opts["depth"])]
    te += measure_args_trec_eval(cuts) + [g, r]
    ref = subprocess.run(te, capture_output=True, text=True)
    ms = ["official", "ndcg"] + [f"{fam}_{k}" for fam in CUT_FAMILIES for k in cuts[fam]]
    ds = [DROPSCORE, "kws", "--gt", g, "--pred", r, "--format", "text", "--quiet",
          "--set", "measures=" + ",".join(ms), "--set", f"relevance_level={opts['relevance_level']}",
          "--set", f"complete={'true' if opts['complete'] else 'false'}", "--set", f"trec_version={version}"]
    if opts["depth"]:
        ds += ["--set", f"depth={opts['depth']}"]
    got = subprocess.run(ds, capture_output=True, text=True)
    if ref.returncode != 0:
        if got.returncode == 1:
            return []
        return [f"trec_eval {version} fails ({ref.stderr.strip()[:120]}) but dropscore exits {got.returncode}"]
    if got.returncode != 0:
        return [f"trec_eval {version} succeeds but dropscore exits {got.returncode}: {got.stderr[:300]}"]
    if got.stdout == ref.stdout:
        return []
    a, b = ref.stdout.splitlines(), got.stdout.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return [f"text {version} line {i + 1}: trec_eval {x!r} dropscore {y!r}"]
    return [f"text {version}: trec_eval {len(a)} lines, dropscore {len(b)} lines"]


def close(a, b):
    if a is None or b is None:
        return a is b
    if a == b:
        return True
    if abs(a) < 1e-15 and abs(b) < 1e-15:
        return True
    return abs(a - b) <= TOL * max(abs(a), abs(b))


def compare(per, allv, rep, stats):
    errors = []
    items = {it["id"]: it for it in rep["items"]}
    evaluated = {q for q, it in items.items() if it["detail"].get("evaluated") and it["detail"].get("in_results")}
    if evaluated != set(per):
        errors.append(f"evaluated queries differ: dropscore {sorted(evaluated)} pytrec_eval {sorted(per)}")
    for q in per:
        it = items.get(q)
        if it is None:
            continue
        for m, ref in per[q].items():
            if m in ("runid", "num_q", "gm_map"):
                continue
            got = it["scores"].get(m)
            stats["values"] += 1
            stats["exact"] += got == ref
            if not close(got, ref):
                errors.append(f"{q} {m}: dropscore {got!r} pytrec_eval {ref!r}")
    for m, ref in allv.items():
        got = rep["scores"].get(m)
        stats["values"] += 1
        stats["exact"] += got == ref
        if not close(got, ref):
            errors.append(f"all {m}: dropscore {got!r} reference {ref!r}")
    return errors


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20260101
    if not os.path.exists(DROPSCORE):
        sys.exit(f"{DROPSCORE} not found: run `cargo build --release` first")
    rng = random.Random(seed)
    passed = failed = 0
    stats = {"values": 0, "exact": 0}
    kinds = {"depth": 0, "complete": 0, "missing": 0, "extra": 0, "no common query": 0}
    with tempfile.TemporaryDirectory() as d:
        for case in range(n):
            qrels, run, cuts, opts = make_case(rng)
            kinds["depth"] += bool(opts["depth"])
            kinds["complete"] += opts["complete"]
            kinds["missing"] += any(q not in run for q in qrels)
            kinds["extra"] += any(q not in qrels for q in run)
            g, r = write_files(d, qrels, run)
            try:
                per, allv = reference(qrels, run, cuts, opts)
                code, out, err = dropscore(g, r, cuts, opts)
                if not per:
                    # No query in both files: trec_eval stops (exit status 7), dropscore reports an error.
                    kinds["no common query"] += 1
                    ok = code == 1 and "kws.trec.no_common_queries" in out + err
                    errors = [] if ok else [f"expected error kws.trec.no_common_queries, got exit {code}"]
                elif code != 0:
                    errors = [f"dropscore exit {code}: {err[:500]}"]
                else:
                    errors = compare(per, allv, json.loads(out), stats)
                for env, version in (("TREC_EVAL_BIN", "9.0.8"), ("TREC_EVAL10_BIN", "10.0")):
                    if os.environ.get(env):
                        errors += text_compare(os.environ[env], version, g, r, cuts, opts)
                        kinds[f"text {version}"] = kinds.get(f"text {version}", 0) + 1
            except Exception as e:  # a crash on either side is a failure of the case
                errors = [f"exception: {e}"]
            if errors:
                failed += 1
                if failed <= 5:
                    print(f"case {case} {opts}: {len(errors)} mismatch(es)")
                    for e in errors[:8]:
                        print("   ", e)
                    keep = os.path.join(tempfile.gettempdir(), f"trec_diff_case{case}")
                    os.makedirs(keep, exist_ok=True)
                    for f in (g, r):
                        open(os.path.join(keep, os.path.basename(f)), "w").write(open(f).read())
                    print(f"    files kept in {keep}")
            else:
                passed += 1
    print("cases with " + ", ".join(f"{k} {v}" for k, v in kinds.items())
          + f"; {stats['values']} values compared, {stats['exact']} bit-exact")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
