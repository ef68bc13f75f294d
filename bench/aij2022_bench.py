#!/usr/bin/env python3
"""aij2022 benchmark (run by bench/aij2022.sh): generates bench/out/aij2022/ once (seeded), then times

  dropscore native     target/release/dropscore aij2022 --gt ref --pred gen --format json (wall, /usr/bin/time -v RSS)
  dropscore Chromium   bench/browser_bench.mjs --protocol aij2022 (files as Blobs read by the worker)
  SciPy                pytorch-fid's recipe: np.load, np.mean / np.cov (float64), calculate_frechet_distance with
                       scipy.linalg.sqrtm, in one process (interpreter start excluded)

for (a) two 10,000 × 2048 float32 .npy activation files, (b) two .npz statistics files, and (c) 100,000 captioning
pairs (dropscore only; target < 2 s in the browser). Prints one table with ratios and checks the FID values agree
to 1e-8 relative. CPU s = user + system time of the run's processes (native: the CLI; Chromium: node and every process
below it, polled from /proc every 0.2 s, start-up and page load included, divided by the run count; SciPy: the timed part
of its process), next to the load average, as the machine is shared.
"""
import json, os, re, resource, statistics, subprocess, sys, time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "aij2022")
N = int(os.environ.get("AIJ_N", "10000"))
D = int(os.environ.get("AIJ_D", "2048"))
PAIRS = int(os.environ.get("AIJ_PAIRS", "100000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
BIN = os.path.join(ROOT, "target", "release", "dropscore")
P = lambda f: os.path.join(OUT, f)


def generate():
    stamp = P(f"done-{N}-{D}-{PAIRS}")
    if os.path.exists(stamp):
        return
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(2022)
    # Inception-like: non-negative, correlated features
    basis = rng.normal(size=(64, D)).astype(np.float32)
    for name, shift in (("ref", 0.0), ("gen", 0.15)):
        z = rng.normal(size=(N, 64)).astype(np.float32)
        acts = np.abs(z @ basis * 0.1 + rng.normal(size=(N, D)).astype(np.float32) * 0.3 + shift)
        np.save(P(f"{name}_acts.npy"), acts.astype(np.float32))
        a = acts.astype(np.float64)
        np.savez(P(f"{name}_stats.npz"), mu=a.mean(axis=0), sigma=np.cov(a, rowvar=False))
    words = ("две птицы летают над водой озером большие маленькая красная машина стоит на улице торт со светло-бежевой "
             "глазурью кошка спит диване собака бежит по траве человек идёт дорога синий дом дерево").split()
    gt, pred = {}, {}
    for i in range(PAIRS):
        k = str(i)
        gt[k] = [{"type": "text", "content": [" ".join(rng.choice(words, size=rng.integers(3, 9))) for _ in range(2)]}]
        pred[k] = [{"type": "text", "content": " ".join(rng.choice(words, size=rng.integers(3, 9))) + "."}]
    json.dump(gt, open(P("captioning_gt.json"), "w"), ensure_ascii=False)
    json.dump(pred, open(P("captioning_pred.json"), "w"), ensure_ascii=False)
    open(stamp, "w").write("ok\n")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def tree_ticks(root):
    """utime + stime (clock ticks) of `root` and all its descendants, from /proc."""
    parent, ticks = {}, {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            st = open(f"/proc/{d}/stat").read()
        except OSError:
            continue
        f = st[st.rindex(")") + 2:].split()
        parent[int(d)] = int(f[1])
        ticks[int(d)] = int(f[11]) + int(f[12])
    out = {}
    for pid in ticks:
        p, hops = pid, 0
        while p and p != root and hops < 50:
            p, hops = parent.get(p, 0), hops + 1
        if p == root:
            out[pid] = ticks[pid]
    return out


def native(gt, pred, key):
    walls, rss, val, cpus = [], 0, None, []
    for _ in range(RUNS):
        c0 = children_cpu()
        cmd = ["/usr/bin/time", "-v", BIN, "aij2022", "--gt", gt, "--pred", pred, "--format", "json", "--quiet"]
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
        rss = max(rss, int(m.group(1)) if m else 0)
        val = json.loads(out.stdout)["scores"][key]
        cpus.append(children_cpu() - c0)
    return statistics.median(walls), rss, val, statistics.median(cpus)


def browser(gt, pred, key):
    if os.environ.get("BENCH_SKIP_BROWSER") == "1":
        return None
    proc = subprocess.Popen(["node", os.path.join(ROOT, "bench", "browser_bench.mjs"), "--protocol", "aij2022", "--gt", gt,
                             "--pred", pred, "--runs", str(RUNS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = {}  # pid -> last utime+stime (ticks) of node and every process below it (Chromium), polled
    import threading
    def poll():
        while proc.poll() is None:
            for pid, ticks in tree_ticks(proc.pid).items():
                seen[pid] = max(seen.get(pid, 0), ticks)
            time.sleep(0.2)
    t = threading.Thread(target=poll)
    t.start()
    stdout, stderr = proc.communicate()
    t.join()
    out = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    if not rows or any("error" in r for r in rows):
        print("browser bench failed:", out.stderr[-2000:], rows, file=sys.stderr)
        return None
    cpu = sum(seen.values()) / os.sysconf("SC_CLK_TCK") / RUNS
    return statistics.median(r["score_ms"] for r in rows) / 1000, max(r["renderer_hwm_kb"] for r in rows), rows[-1]["scores"][key], cpu


SCIPY_CODE = r'''
import json, sys, time, resource
import numpy as np
from scipy import linalg
def frechet(mu1, sigma1, mu2, sigma2, eps=1e-6):  # pytorch-fid calculate_frechet_distance
    diff = mu1 - mu2
    covmean = linalg.sqrtm(sigma1.dot(sigma2))
    if not np.isfinite(covmean).all():
        offset = np.eye(sigma1.shape[0]) * eps
        covmean = linalg.sqrtm((sigma1 + offset).dot(sigma2 + offset))
    if np.iscomplexobj(covmean):
        if not np.allclose(np.diagonal(covmean).imag, 0, atol=1e-3):
            raise ValueError("Imaginary component")
        covmean = covmean.real
    return diff.dot(diff) + np.trace(sigma1) + np.trace(sigma2) - 2 * np.trace(covmean)
t0 = time.perf_counter()
r0 = resource.getrusage(resource.RUSAGE_SELF)
a, b = sys.argv[1], sys.argv[2]
def stats(p):
    if p.endswith(".npz"):
        f = np.load(p)
        return f["mu"], f["sigma"]
    x = np.load(p).astype(np.float64)   # pytorch-fid's activations are float64
    return np.mean(x, axis=0), np.cov(x, rowvar=False)
m1, s1 = stats(a); m2, s2 = stats(b)
fid = frechet(m1, s1, m2, s2)
r1 = resource.getrusage(resource.RUSAGE_SELF)
cpu = r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
print(json.dumps({"seconds": time.perf_counter() - t0, "rss_kb": r1.ru_maxrss, "fid": float(fid), "cpu": cpu}))
'''


def scipy_peer(gt, pred):
    walls, rss, val, cpus = [], 0, None, []
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", SCIPY_CODE, gt, pred], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout)
        walls.append(r["seconds"])
        rss = max(rss, r["rss_kb"])
        val = r["fid"]
        cpus.append(r["cpu"])
    return statistics.median(walls), rss, val, statistics.median(cpus)


def table(title, rows, peer_name):
    print(f"\n{title}   [load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}]")
    nat = rows[0][1][0]
    peer = next((r[1][0] for r in rows if r[0] == peer_name and r[1]), None)
    print(f"{'tool':<44} {'time s':>8} {'CPU s':>8} {'peak RSS MB':>12} {'vs native':>10} {'vs SciPy':>9}  value")
    for name, r in rows:
        if r is None:
            print(f"{name:<44} {'skipped':>8}")
            continue
        t, rss, v, cpu = r
        vs = f"{t / peer:8.2f}×" if peer else "       —"
        print(f"{name:<44} {t:8.3f} {cpu:8.2f} {rss / 1024:12.0f} {t / nat:9.2f}× {vs}  {v!r}", flush=True)
    return rows


def main():
    generate()
    ok = True
    for label, g, p in (("(a) FID from two %d × %d float32 .npy activation files" % (N, D), P("ref_acts.npy"), P("gen_acts.npy")),
                        ("(b) FID from two .npz statistics files (d = %d)" % D, P("ref_stats.npz"), P("gen_stats.npz"))):
        rows = table(label, [("dropscore native", native(g, p, "generation_fid")),
                             ("dropscore wasm, headless Chromium (page worker)", browser(g, p, "generation_fid")),
                             ("pytorch-fid recipe, NumPy/SciPy sqrtm", scipy_peer(g, p))], "pytorch-fid recipe, NumPy/SciPy sqrtm")
        vals = [r[1][2] for r in rows if r[1]]
        agree = all(abs(v - vals[-1]) <= 1e-8 * abs(vals[-1]) + 1e-9 for v in vals)
        sp = rows[2][1][0]
        print(f"targets: native ≥ 2× faster than SciPy (measured {sp / rows[0][1][0]:.1f}×); browser no slower than SciPy"
              + (f" (measured {sp / rows[1][1][0]:.2f}×)" if rows[1][1] else "") + ("; values agree to 1e-8" if agree else "; VALUES DIFFER"))
        ok &= agree
    table(f"(c) captioning METEOR, {PAIRS} pairs (2 options each)", [
        ("dropscore native", native(P("captioning_gt.json"), P("captioning_pred.json"), "captioning_meteor")),
        ("dropscore wasm, headless Chromium (page worker)", browser(P("captioning_gt.json"), P("captioning_pred.json"), "captioning_meteor"))], "")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
