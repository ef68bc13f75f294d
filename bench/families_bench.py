#!/usr/bin/env python3
"""classification / regression benchmark (run by bench/classification.sh and bench/regression.sh): generates
bench/out/<family>/ once (seeded NumPy), then times

  dropscore native   target/release/dropscore <family> --gt gt.csv --pred pred.csv under /usr/bin/time -v (wall,
                     CPU, peak RSS): reading, every metric of the family, the per-item rows, plots, twice:
                     - the text output (every metric, what scikit-learn's side prints), and
                     - --format json: the whole report, with every per-item row (590 MB for 5M regression rows)
  dropscore Chromium bench/browser_bench.mjs --protocol <family>: both files fetched into Blobs in headless Chromium
                     (Debian's /usr/bin/chromium, playwright-core) and posted to the page's own worker (www/worker.js),
                     which reads them once and scores them in wasm; the time runs from the first request to the
                     report parsed in the page (fetching excluded); peak = the renderer process's VmHWM
  scikit-learn       pandas.read_csv of both files, the id alignment (set_index + reindex), then every metric of
                     the family (scikit-learn 1.9.1 / SciPy 1.17.1 calls, as tests/reference/*_diff.py make them),
                     in one process under /usr/bin/time -v (interpreter start and imports included)

and prints both with the ratio, checking that the headline metrics agree to 1e-9.
Env: FAMILY_N (rows, default 5,000,000), FAMILY_K (classes, default 10), BENCH_RUNS (default 1),
BENCH_SKIP_BROWSER=1, FAMILY_BROWSER_SET (--set for the page's run, default max_memory=4GiB: the page's budget is
1 GiB, and 5,000,000 rows × 10 scores with their per-item rows need more).
"""
import json, os, re, subprocess, sys, time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILY = sys.argv[1]
N = int(os.environ.get("FAMILY_N", "5000000"))
K = int(os.environ.get("FAMILY_K", "10"))
RUNS = int(os.environ.get("BENCH_RUNS", "1"))
OUT = os.path.join(ROOT, "bench", "out", FAMILY)
BIN = os.environ.get("DROPSCORE_BIN", os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "dropscore"))


def write(path, header, ids, cols, fmt):
    t0 = time.time()
    with open(path, "w") as f:
        f.write(header + "\n")
        step = 200_000
        for s in range(0, len(ids), step):
            block = [ids[s:s + step]] + [np.char.mod(fmt, c[s:s + step]) for c in cols]
            f.write("\n".join(",".join(r) for r in zip(*block)) + "\n")
    print(f"bench: wrote {path} ({os.path.getsize(path) / 1e6:.0f} MB, {time.time() - t0:.0f} s)", file=sys.stderr)


def generate():
    stamp = os.path.join(OUT, f"done-{N}-{K}")
    if os.path.exists(stamp):
        return
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(21)
    ids = np.char.mod("id%08d", np.arange(N))
    perm = rng.permutation(N)
    if FAMILY == "classification":
        y = rng.integers(0, K, N)
        write(os.path.join(OUT, "gt.csv"), "id,label", ids, [y], "%d")
        w = rng.gamma(1.0, 1.0, (N, K))
        w[np.arange(N), y] += 1.5
        p = w / w.sum(axis=1, keepdims=True)
        write(os.path.join(OUT, "pred.csv"), "id," + ",".join(map(str, range(K))), ids[perm], [p[perm, j] for j in range(K)], "%.5f")
    else:
        t = rng.gamma(2.0, 50.0, N)
        p = np.maximum(t * rng.normal(1.0, 0.15, N), 0.0)
        write(os.path.join(OUT, "gt.csv"), "id,target", ids, [t], "%.3f")
        write(os.path.join(OUT, "pred.csv"), "id,prediction", ids[perm], [p[perm]], "%.3f")
    open(stamp, "w").write("ok\n")


SKLEARN = r'''
import sys, json, warnings
import numpy as np, pandas as pd
from sklearn import metrics as M
from scipy import stats
warnings.simplefilter("ignore")
fam, gt, pred = sys.argv[1:4]
g = pd.read_csv(gt, dtype={"id": str}).set_index("id")
p = pd.read_csv(pred, dtype={"id": str}).set_index("id").reindex(g.index)
out = {}
if fam == "classification":
    y = g["label"].to_numpy()
    # C order, as the spec's row sums are NumPy's pairwise sums of a contiguous row: DataFrame.to_numpy() gives an
    # F-ordered array whose sum(axis=1) adds the columns left to right, and the last-bit differences in the
    # renormalised scores move ROC AUC by ~1e-9 through broken ties.
    S = np.ascontiguousarray(p.to_numpy(dtype=np.float64))
    classes = np.unique(y)
    lab = classes[S.argmax(axis=1)]
    out["accuracy"] = M.accuracy_score(y, lab)
    out["balanced_accuracy"] = M.balanced_accuracy_score(y, lab)
    for a in ["macro", "micro", "weighted"]:
        pr, rc, f, _ = M.precision_recall_fscore_support(y, lab, average=a, zero_division=0)
        out["f1_" + a], out["precision_" + a], out["recall_" + a] = f, pr, rc
    out["matthews_corrcoef"] = M.matthews_corrcoef(y, lab)
    for w, k in [(None, "cohen_kappa"), ("linear", "cohen_kappa_linear"), ("quadratic", "cohen_kappa_quadratic")]:
        out[k] = M.cohen_kappa_score(y, lab, weights=w)
    Nn = S / S.sum(axis=1, keepdims=True)
    out["roc_auc_ovr"] = M.roc_auc_score(y, Nn, multi_class="ovr")
    out["roc_auc_ovr_weighted"] = M.roc_auc_score(y, Nn, multi_class="ovr", average="weighted")
    out["roc_auc_ovo"] = M.roc_auc_score(y, Nn, multi_class="ovo")
    out["average_precision"] = M.average_precision_score(y, S)
    out["log_loss"] = M.log_loss(y, S)
    out["top_k_accuracy"] = M.top_k_accuracy_score(y, S, k=3)
else:
    t = g.iloc[:, 0].to_numpy(dtype=np.float64)
    q = p.iloc[:, 0].to_numpy(dtype=np.float64)
    for name in ["mean_absolute_error", "mean_squared_error", "root_mean_squared_error", "mean_squared_log_error",
                 "root_mean_squared_log_error", "mean_absolute_percentage_error", "median_absolute_error",
                 "max_error", "r2_score", "explained_variance_score"]:
        out[name.replace("_score", "") if name in ("r2_score", "explained_variance_score") else name] = getattr(M, name)(t, q)
    out["pearson"] = stats.pearsonr(t, q).statistic
    out["spearman"] = stats.spearmanr(t, q).statistic
    den = np.abs(t) + np.abs(q)
    out["smape"] = 100 / len(t) * np.sum(np.where(den == 0, 0.0, 2 * np.abs(q - t) / np.where(den == 0, 1.0, den)))
print(json.dumps({k: float(v) for k, v in out.items()}))
'''


def timed(cmd):
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench: {cmd[0]} failed: {p.stderr[-2000:]}")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
    h, m, s = wall.groups()
    secs = int(h or 0) * 3600 + int(m) * 60 + float(s)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1)) / 1024
    cpu = sum(float(re.search(rf"{w} time \(seconds\): ([\d.]+)", p.stderr).group(1)) for w in ("User", "System"))
    return secs, rss, p.stdout, cpu


def browser(gt, pred):
    """(wall s, peak MiB, scores) of dropscore in headless Chromium, or None (skipped or failed, said on stderr)."""
    if os.environ.get("BENCH_SKIP_BROWSER") == "1":
        return None
    cmd = ["node", os.path.join(ROOT, "bench", "browser_bench.mjs"), "--protocol", FAMILY, "--gt", gt, "--pred", pred,
           "--runs", str(RUNS), "--set", os.environ.get("FAMILY_BROWSER_SET", "max_memory=4GiB")]
    out = subprocess.run(cmd, capture_output=True, text=True)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    if out.returncode != 0 or not rows or any(r.get("errors") for r in rows):
        print("bench: browser run failed:", out.stderr[-2000:], [r.get("errors") for r in rows], file=sys.stderr)
        return None
    best = min(rows, key=lambda r: r["score_ms"])
    return best["score_ms"] / 1000, max(r["renderer_hwm_kb"] for r in rows) / 1024, best["scores"]


def main():
    generate()
    gt, pred = os.path.join(OUT, "gt.csv"), os.path.join(OUT, "pred.csv")
    rep = os.path.join(OUT, "report.json")
    best = {}
    native_text = "dropscore native (text: every metric)"
    native_json = "dropscore native (--format json: every metric and every per-item row)"
    for _ in range(RUNS):
        for tool, cmd in [
            (native_text, [BIN, FAMILY, "--gt", gt, "--pred", pred, "--format", "text", "--out", os.path.join(OUT, "report.txt")]),
            (native_json, [BIN, FAMILY, "--gt", gt, "--pred", pred, "--format", "json", "--out", rep]),
            ("scikit-learn (pandas + metric calls)", [sys.executable, "-c", SKLEARN, FAMILY, gt, pred]),
        ]:
            secs, rss, out, cpu = timed(cmd)
            if tool not in best or secs < best[tool][0]:
                best[tool] = (secs, rss, out, cpu)
    ours = json.load(open(rep))["scores"]
    sk = "scikit-learn (pandas + metric calls)"
    theirs = json.loads(best[sk][2])
    web = browser(gt, pred)
    agree = lambda mine: [k for k, v in theirs.items() if mine.get(k) is None or abs(mine[k] - v) > 1e-9 * max(1.0, abs(v))]
    bad = agree(ours)
    bad_web = agree(web[2]) if web else []
    title = (f"{FAMILY}: {N:,} rows" + (f", {K} classes (scores)" if FAMILY == "classification" else "") +
             f", best of {RUNS}; load average {os.getloadavg()[0]:.2f}")
    base, base_cpu = best[sk][0], best[sk][3]
    lines = [title, "", "| tool | wall | vs scikit-learn (wall) | CPU | vs scikit-learn (CPU) | peak memory |",
             "|---|---|---|---|---|---|"]
    row = lambda tool, secs, cpu, rss: lines.append(
        f"| {tool} | {secs:.2f} s | {base / secs:.1f}× | " + (f"{cpu:.2f} s | {base_cpu / max(cpu, 1e-9):.1f}× |" if cpu else "— | — |") +
        f" {rss:,.0f} MiB |")
    for tool in (native_text, native_json):
        row(tool, best[tool][0], best[tool][3], best[tool][1])
    if web:
        row("dropscore wasm, headless Chromium (score only)", web[0], None, web[1])
    else:
        lines.append("| dropscore wasm, headless Chromium | skipped or failed (see stderr) | | | | |")
    row(sk, base, base_cpu, best[sk][1])
    lines.append("")
    lines.append(f"metrics compared: {len(theirs)}; differing from scikit-learn by more than 1e-9: native {bad or 'none'}" +
                 (f", Chromium {bad_web or 'none'}" if web else ""))
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(ROOT, "bench", "out", f"{FAMILY}.md"), "w") as f:
        f.write(text + "\n")
    sys.exit(1 if bad or bad_web else 0)


if __name__ == "__main__":
    main()
