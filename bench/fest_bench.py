"""fest benchmark (run by bench/fest.sh): dropscore native, dropscore wasm in headless Chromium and the Python
official-style implementation (tests/reference/fest_official.py: OpenCV + NumPy, the official per-pair loop) on the
same generated files (bench/fest_gen.py), side by side with ratios and peak memory.

The Python loop is O(N1*N2*H*W): it runs on BENCH_FEST_PY_PAGES pages (default 3, the first of each manuscript);
its time for the 45-page set is extrapolated from them (stated as such). Its per-image values are checked against
dropscore's on those pages.
"""

import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference"))
import fest_official as ref  # noqa: E402

OUT = os.path.join("bench", "out", "fest")
BIN = os.environ.get("DROPSCORE_BIN", os.path.join("target", "release", "dropscore"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
PY_PAGES = int(os.environ.get("BENCH_FEST_PY_PAGES", "3"))


def native(gt, pred):
    """Best wall time (s) and peak RSS (KB) of BENCH_RUNS runs, and the report."""
    best, rss, report, cpu = None, 0, None, None
    for _ in range(RUNS):
        out = os.path.join(OUT, "native.json")
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-v", BIN, "fest", "--gt", gt, "--pred", pred, "--format", "json",
                            "--quiet", "--out", out], capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if p.returncode not in (0, 1):
            raise RuntimeError(p.stderr)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
        rss = max(rss, int(m.group(1)) if m else 0)
        u = re.search(r"User time \(seconds\): ([\d.]+)", p.stderr)
        s_ = re.search(r"System time \(seconds\): ([\d.]+)", p.stderr)
        c = float(u.group(1)) + float(s_.group(1)) if u and s_ else float("nan")
        cpu = c if cpu is None else min(cpu, c)
        best = dt if best is None else min(best, dt)
        with open(out) as f:
            report = json.load(f)
    return best, rss, report, cpu


def browser(gt, pred):
    if os.environ.get("BENCH_SKIP_BROWSER") == "1":
        return None
    p = subprocess.run(["node", "bench/fest_browser.mjs", "--gt", gt, "--pred", pred, "--runs", str(RUNS)],
                       capture_output=True, text=True)
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    if not rows or any("error" in r for r in rows):
        print("browser bench failed:", p.stderr[-2000:], rows)
        return None
    return min(r["score_ms"] for r in rows) / 1000, max(r["renderer_hwm_kb"] for r in rows), rows[0]


def python_pages(gt_root, pred_root):
    mss = sorted(os.listdir(gt_root))
    pages = []
    for i in range(PY_PAGES):
        ms = mss[i % len(mss)]
        d = os.path.join(gt_root, ms, f"text-line-gt-{ms}", "test")
        name = sorted(os.listdir(d))[i // len(mss)]
        pages.append((ms, name, os.path.join(d, name), os.path.join(pred_root, ms, name)))
    times, cpus, values = [], [], {}
    for ms, name, g, p in pages:
        t0, c0 = time.perf_counter(), time.process_time()
        v, _ = ref.evaluate(g, p)
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        values[f"{ms}/{os.path.splitext(name)[0]}"] = [float(x) for x in v]
    return times, cpus, values


def main():
    gt, pred = os.path.join(OUT, "set", "gt"), os.path.join(OUT, "set", "pred")
    n_pages = sum(len(os.listdir(os.path.join(pred, m))) for m in os.listdir(pred))
    t_nat, rss_nat, rep, cpu_nat = native(gt, pred)
    t_big, rss_big, rep_big, cpu_big = native(os.path.join(OUT, "big", "gt"), os.path.join(OUT, "big", "pred"))
    br = browser(gt, pred)
    br_big = browser(os.path.join(OUT, "big", "gt"), os.path.join(OUT, "big", "pred"))
    py_times, py_cpus, py_values = python_pages(gt, pred)
    mismatches = 0
    items = {it["id"]: it for it in rep["items"]}
    for k, v in py_values.items():
        got = [items[k]["scores"][m] for m in ["pixel_iu", "line_iu", "dr", "ra", "fm"]]
        if got != v:
            mismatches += 1
            print(f"MISMATCH {k}: dropscore {got} python {v}")
    py_page = sum(py_times) / len(py_times)
    py_set = py_page * n_pages
    py_cpu_set = sum(py_cpus) / len(py_cpus) * n_pages
    print(f"fest bench: {n_pages} pages of 1344x2016 in 3 manuscripts (+ one 6000x8000 page); best of {RUNS} runs")
    print(f"  leaderboard Line IU: {rep['scores']['line_iu']}  (wasm: {br[2]['scores']['line_iu'] if br else 'n/a'})")
    print(f"  {'':38s} {'45-page set':>12s} {'per page':>10s} {'peak memory':>12s} {'6000x8000 page':>15s} {'peak memory':>12s}")
    print(f"  {'dropscore native':38s} {t_nat:11.3f}s {1000 * t_nat / n_pages:8.1f}ms {rss_nat / 1024:10.0f}MB {t_big:14.3f}s {rss_big / 1024:10.0f}MB")
    if br:
        print(f"  {'dropscore wasm, headless Chromium':38s} {br[0]:11.3f}s {1000 * br[0] / n_pages:8.1f}ms {br[1] / 1024:10.0f}MB "
              f"{(br_big[0] if br_big else float('nan')):14.3f}s {(br_big[1] / 1024 if br_big else float('nan')):10.0f}MB")
    print(f"  {'python official-style (OpenCV+NumPy)':38s} {py_set:10.1f}s* {1000 * py_page:8.0f}ms {'':>12s} {'not run':>15s}")
    print(f"  * extrapolated from {len(py_times)} pages ({', '.join(f'{t:.1f}s' for t in py_times)}); "
          f"per-image values equal on those pages: {len(py_values) - mismatches}/{len(py_values)}")
    print(f"  CPU time (user+sys): native {cpu_nat:.2f}s for the set, {cpu_big:.2f}s for the big page; "
          f"python {py_cpu_set:.0f}s* for the set -> python / native = {py_cpu_set / cpu_nat:.0f}x; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"  ratios (wall): python / native = {py_set / t_nat:.0f}x" + (f", wasm / native = {br[0] / t_nat:.2f}x" if br else "")
          + (f"; browser 45 pages {'<' if br and br[0] < 3 else '>='} 3 s target" if br else ""))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
