#!/usr/bin/env python3
"""falsid benchmark (run by bench/falsid.sh): generates bench/out/falsid/ once (seeded), then times

  dropscore native     target/release/dropscore falsid --gt gt.csv --pred pred.csv dist_*.csv --format json,
                       under /usr/bin/time -v (wall, peak RSS)
  dropscore Chromium   bench/browser_bench.mjs --protocol falsid (files as Blobs read in slices by the worker)
  NumPy                numpy.loadtxt of each matrix, then per subset a stable argsort of every row (the query's
                       own column set to +inf) and Top-1/3/5, plus accuracy / balanced accuracy from the labels;
                       timed end to end in one process (interpreter start excluded)

and prints one table with ratios (and checks that every tool found the same Top-1/3/5 and accuracy).
"""
import json, os, re, statistics, subprocess, sys, time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "falsid")
N = int(os.environ.get("FALSID_N", "2000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
SUBSETS = ["Pizan", "Tasso", "Yaqut"]
BIN = os.path.join(ROOT, "target", "release", "dropscore")


def generate():
    stamp = os.path.join(OUT, f"done-{N}")
    if os.path.exists(stamp):
        return
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(2026)
    gt, pred = ["id,label"], ["id,label"]
    for s in SUBSETS:
        ids = [f"{s.lower()}_{i:05d}.png" for i in range(N)]
        y = (rng.random(N) < 0.3).astype(int)
        p = np.where(rng.random(N) < 0.8, y, 1 - y)
        gt += [f"{i},{'not-' if v else ''}{s}" for i, v in zip(ids, y)]
        pred += [f"{i},{'not-' if v else ''}{s}" for i, v in zip(ids, p)]
        feat = rng.normal(size=(N, 16)) + y[:, None] * 0.4
        d = np.sqrt(((feat[:, None, :] - feat[None, :, :]) ** 2).sum(-1))
        d = np.round(d, 6)
        t0 = time.time()
        with open(os.path.join(OUT, f"dist_{s.lower()}.csv"), "w") as f:
            f.write("," + ",".join(ids) + "\n")
            for i in range(N):
                f.write(ids[i] + "," + ",".join(f"{v:.6f}" for v in d[i]) + "\n")
        print(f"bench: wrote dist_{s.lower()}.csv ({os.path.getsize(os.path.join(OUT, f'dist_{s.lower()}.csv')) / 1e6:.1f} MB, {time.time() - t0:.1f} s)", file=sys.stderr)
    open(os.path.join(OUT, "gt.csv"), "w").write("\n".join(gt) + "\n")
    open(os.path.join(OUT, "pred.csv"), "w").write("\n".join(pred) + "\n")
    open(stamp, "w").write("ok\n")


def files():
    return os.path.join(OUT, "gt.csv"), [os.path.join(OUT, "pred.csv")] + [os.path.join(OUT, f"dist_{s.lower()}.csv") for s in SUBSETS]


def native():
    gt, preds = files()
    walls, cpus, rss, scores = [], [], 0, None
    for _ in range(RUNS):
        cmd = ["/usr/bin/time", "-v", BIN, "falsid", "--gt", gt, "--pred", *preds, "--format", "json", "--quiet"]
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
        rss = max(rss, int(m.group(1)) if m else 0)
        cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", out.stderr))
        cpus.append(cpu)
        scores = json.loads(out.stdout)["scores"]
    return statistics.median(walls), rss, scores, statistics.median(cpus)


def browser():
    if os.environ.get("BENCH_SKIP_BROWSER") == "1":
        return None
    gt, preds = files()
    out = subprocess.run(["node", os.path.join(ROOT, "bench", "browser_bench.mjs"), "--protocol", "falsid", "--gt", gt,
                          "--pred", ",".join(preds), "--runs", str(RUNS)], capture_output=True, text=True)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    if not rows or any("error" in r for r in rows):
        print("browser bench failed:", out.stderr[-2000:], rows, file=sys.stderr)
        return None
    return statistics.median(r["score_ms"] for r in rows) / 1000, max(r["renderer_hwm_kb"] for r in rows), rows[-1]["scores"], None


NUMPY_CODE = r'''
import csv, json, sys, time, resource
import numpy as np
t0 = time.perf_counter()
c0 = time.process_time()
out, SUB = sys.argv[1], ["Pizan", "Tasso", "Yaqut"]
def labels(p):
    d = {}
    with open(p) as f:
        for row in list(csv.reader(f))[1:]:
            s = row[1][4:] if row[1].startswith("not-") else row[1]
            d[(s, row[0])] = int(row[1].startswith("not-"))
    return d
gt, pr = labels(out + "/gt.csv"), labels(out + "/pred.csv")
accs, bas, tops = [], [], {1: [], 3: [], 5: []}
for s in SUB:
    with open(f"{out}/dist_{s.lower()}.csv") as f:
        ids = f.readline().rstrip("\n").split(",")[1:]
    n = len(ids)
    m = np.loadtxt(f"{out}/dist_{s.lower()}.csv", delimiter=",", skiprows=1, usecols=range(1, n + 1))
    y = np.array([gt[(s, i)] for i in ids]); p = np.array([pr.get((s, i), 2) for i in ids])
    accs.append(float((y == p).mean()))
    bas.append(float(np.mean([((p == c) & (y == c)).sum() / (y == c).sum() for c in (0, 1) if (y == c).any()])))
    np.fill_diagonal(m, np.inf)
    order = np.argsort(m, axis=1, kind="stable")[:, :5]
    same = y[order] == y[:, None]
    for k in tops:
        tops[k].append(float(same[:, :k].any(axis=1).mean()))
res = {"accuracy": sum(accs) / 3, "uar": sum(bas) / 3, **{f"top{k}": sum(v) / 3 for k, v in tops.items()}}
print(json.dumps({"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0, "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "scores": res}))
'''


def numpy_peer():
    walls, cpus, rss, scores = [], [], 0, None
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", NUMPY_CODE, OUT], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout)
        walls.append(r["seconds"])
        cpus.append(r["cpu"])
        rss = max(rss, r["rss_kb"])
        scores = r["scores"]
    return statistics.median(walls), rss, scores, statistics.median(cpus)


def main():
    generate()
    mb = sum(os.path.getsize(f) for f in files()[1]) / 1e6
    print(f"falsid bench: 3 subsets of {N}×{N} distances ({mb:.0f} MB of text) + labels, {RUNS} runs each (median)")
    rows = [("dropscore native", native()), ("dropscore wasm, headless Chromium (page worker)", browser()), ("NumPy loadtxt + argsort", numpy_peer())]
    nat = rows[0][1][0]
    npy = rows[2][1][0]
    print(f"{'tool':<48} {'time s':>8} {'CPU s':>7} {'peak RSS MB':>12} {'vs native':>10} {'vs NumPy':>9}  top1 / top3 / top5 / accuracy")
    for name, r in rows:
        if r is None:
            print(f"{name:<48} {'skipped':>8}")
            continue
        t, rss, sc, cpu = r
        print(f"{name:<48} {t:8.3f} {cpu if cpu is not None else float('nan'):7.3f} {rss / 1024:12.0f} {t / nat:9.2f}× {t / npy:8.2f}×  "
              f"{sc['top1']:.6f} / {sc['top3']:.6f} / {sc['top5']:.6f} / {sc['accuracy']:.6f}")
    print(f"targets: native ≥ 5× faster than NumPy (wall {npy / nat:.1f}×, CPU {rows[2][1][3] / rows[0][1][3]:.1f}×); browser no slower than NumPy"
          + (f" (measured {npy / rows[1][1][0]:.1f}× faster)" if rows[1][1] else ""))
    print(f"load average during the run: {os.getloadavg()[0]:.1f} (wall times are shared-machine figures; CPU s = user + sys)")
    ok = all(r is None or all(abs(r[2][k] - rows[0][1][2][k]) < 1e-12 for k in ("top1", "top3", "top5", "accuracy")) for _, r in rows)
    print("scores agree across tools" if ok else "SCORES DIFFER across tools")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
