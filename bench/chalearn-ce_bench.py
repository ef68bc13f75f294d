#!/usr/bin/env python3
"""chalearn-ce benchmark (run by bench/chalearn-ce.sh): generates bench/out/chalearn-ce/ once (seeded): 100 categories
x 30,000 test images, i.e. 3 million GT lines and 3 million submission lines (`002234.jpg 0.056313`, in test-list
order; CHALEARN_SHUFFLE=1 shuffles each file), as the Codalab
layout input/ref + input/res and as ref.zip + submission.zip (deflate), then times

  dropscore native     target/release/dropscore chalearn-ce --gt input/ref --pred input/res --format json,
                       under /usr/bin/time -v (wall, peak RSS); also on the two zips
  dropscore Chromium   bench/browser_bench.mjs --protocol chalearn-ce --gt ref.zip --pred submission.zip (the zips as
                       Blobs, read in slices and inflated by the wasm in the page's worker; score() timed)
  NumPy                the VOC-style AP of docs/specs/chalearn-ce.md 3 in NumPy (the same construction as
                       tests/reference/chalearn_ce_diff.py): files read and split in Python, ids mapped with a dict,
                       stable argsort, cumsum, envelope, np.trapezoid; timed end to end in one process (interpreter
                       start excluded), on input/ref + input/res

and prints one table with ratios, checking that every tool printed the same mAP.
"""
import json, os, re, statistics, subprocess, sys, time, zipfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out", "chalearn-ce")
CATS = int(os.environ.get("CHALEARN_CATS", "100"))
IMAGES = int(os.environ.get("CHALEARN_IMAGES", "30000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
# Submission lines in test-list order (as a participant writes them, looping over the test images), or shuffled.
SHUFFLE = os.environ.get("CHALEARN_SHUFFLE", "0") == "1"
BIN = os.path.join(ROOT, "target", "release", "dropscore")
REF, RES = os.path.join(OUT, "input", "ref"), os.path.join(OUT, "input", "res")
REFZIP, SUBZIP = os.path.join(OUT, "ref.zip"), os.path.join(OUT, "submission.zip")


def generate():
    stamp = os.path.join(OUT, f"done-{CATS}x{IMAGES}{'-shuffled' if SHUFFLE else ''}")
    if os.path.exists(stamp):
        return
    for old in [f for f in os.listdir(OUT) if f.startswith("done-")] if os.path.isdir(OUT) else []:
        os.remove(os.path.join(OUT, old))
    os.makedirs(REF, exist_ok=True)
    os.makedirs(RES, exist_ok=True)
    rng = np.random.default_rng(2015)
    t0 = time.time()
    ids = [f"{i:06d}.jpg" for i in range(IMAGES)]
    truth = rng.integers(0, CATS, IMAGES)  # one event per image
    names = [f"Event_{c:03d}_{['Holi', 'Carnival', 'Diwali', 'Obon'][c % 4]}" for c in range(CATS)]
    with zipfile.ZipFile(REFZIP, "w", zipfile.ZIP_DEFLATED) as rz, zipfile.ZipFile(SUBZIP, "w", zipfile.ZIP_DEFLATED) as sz:
        for c, name in enumerate(names):
            pos = truth == c
            gt = "".join(f"{i} {1 if p else -1}\n" for i, p in zip(ids, pos))
            conf = np.clip(rng.normal(0.35, 0.2, IMAGES) + pos * rng.uniform(0.0, 0.5), 0, 1)
            order = rng.permutation(IMAGES) if SHUFFLE else range(IMAGES)
            sub = "".join(f"{ids[k]} {conf[k]:.6f}\n" for k in order)
            open(os.path.join(REF, f"{name}_test.txt"), "w").write(gt)
            open(os.path.join(RES, f"{name}.txt"), "w").write(sub)
            rz.writestr(f"{name}_test.txt", gt)
            sz.writestr(f"{name}.txt", sub)
    mb = sum(os.path.getsize(os.path.join(d, f)) for d in (REF, RES) for f in os.listdir(d)) / 1e6
    print(f"bench: wrote {CATS} x {IMAGES} ({mb:.0f} MB of text; zips {os.path.getsize(REFZIP) / 1e6:.0f} + "
          f"{os.path.getsize(SUBZIP) / 1e6:.0f} MB) in {time.time() - t0:.0f} s", file=sys.stderr)
    open(stamp, "w").write("ok\n")


def native(gt, pred):
    walls, rss, m = [], 0, None
    for _ in range(RUNS):
        cmd = ["/usr/bin/time", "-v", BIN, "chalearn-ce", "--gt", gt, "--pred", pred, "--format", "json", "--quiet",
               "--set", f"expected_categories={CATS}"]
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        mm = re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr)
        rss = max(rss, int(mm.group(1)) if mm else 0)
        m = json.loads(out.stdout)["scores"]["map"]
    return statistics.median(walls), rss, m


def browser():
    if os.environ.get("BENCH_SKIP_BROWSER") == "1":
        return None
    out = subprocess.run(["node", os.path.join(ROOT, "bench", "browser_bench.mjs"), "--protocol", "chalearn-ce",
                          "--gt", REFZIP, "--pred", SUBZIP, "--runs", str(RUNS)], capture_output=True, text=True)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    if not rows or any("error" in r for r in rows):
        print("browser bench failed:", out.stderr[-2000:], rows, file=sys.stderr)
        return None
    return statistics.median(r["score_ms"] for r in rows) / 1000, max(r["renderer_hwm_kb"] for r in rows), rows[-1]["scores"]["map"]


NUMPY_CODE = r'''
import json, os, sys, time, resource
import numpy as np
t0 = time.perf_counter()
ref, res = sys.argv[1], sys.argv[2]
aps = {}
for f in sorted(os.listdir(ref)):
    cat = f[: -len(".txt")].rsplit("_", 1)[0]
    g = open(os.path.join(ref, f)).read().split()
    index = {img: k for k, img in enumerate(g[0::2])}
    labels = np.array(g[1::2], dtype=np.int64) == 1
    npos = int(labels.sum())
    s = open(os.path.join(res, cat + ".txt")).read().split()
    pos = np.array([index.get(img, -1) for img in s[0::2]], dtype=np.int64)
    conf = np.array(s[1::2], dtype=np.float64)
    keep = pos >= 0                      # unknown ids dropped (duplicates: none in this input)
    pos, conf = pos[keep], conf[keep]
    order = np.argsort(-conf, kind="stable")
    lab = labels[pos[order]].astype(np.float64)
    tp = np.cumsum(lab); fp = np.cumsum(1.0 - lab)
    rec = tp / float(npos); prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
    mrec = np.concatenate(([0.0], rec, [1.0])); mpre = np.concatenate(([0.0], prec, [0.0]))
    mpre = np.maximum.accumulate(mpre[::-1])[::-1]
    aps[cat] = float(np.trapezoid(mpre, mrec))
total = 0.0
for k in sorted(aps):
    total += aps[k]
m = total / len(aps)
print(json.dumps({"seconds": time.perf_counter() - t0, "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "map": m}))
'''


def numpy_peer():
    walls, rss, m = [], 0, None
    for _ in range(RUNS):
        out = subprocess.run([sys.executable, "-c", NUMPY_CODE, REF, RES], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout)
        walls.append(r["seconds"])
        rss = max(rss, r["rss_kb"])
        m = r["map"]
    return statistics.median(walls), rss, m


def main():
    generate()
    load = os.getloadavg()[0]
    print(f"chalearn-ce bench: {CATS} categories x {IMAGES} images ({CATS * IMAGES / 1e6:.1f} M GT + {CATS * IMAGES / 1e6:.1f} M "
          f"submission lines{', shuffled' if SHUFFLE else ', in test-list order'}), {RUNS} runs each (median); load average {load:.1f} on {os.cpu_count()} cores")
    rows = [
        ("dropscore native (input/ref + input/res)", native(REF, RES)),
        ("dropscore native (ref.zip + submission.zip)", native(REFZIP, SUBZIP)),
        ("dropscore wasm, headless Chromium (zips, page worker)", browser()),
        ("NumPy (input/ref + input/res)", numpy_peer()),
    ]
    nat, npy = rows[0][1][0], rows[3][1][0]
    print(f"{'tool':<54} {'time s':>8} {'peak RSS MB':>12} {'vs native':>10} {'NumPy / tool':>13}  mAP")
    for name, r in rows:
        if r is None:
            print(f"{name:<54} {'skipped':>8}")
            continue
        t, rss, m = r
        print(f"{name:<54} {t:8.3f} {rss / 1024:12.0f} {t / nat:9.2f}x {npy / t:12.1f}x  {m!r}")
    br = rows[2][1]
    print(f"targets: native >= 10x faster than NumPy including parsing (measured {npy / nat:.1f}x); browser under 2 s"
          + (f" (measured {br[0]:.2f} s)" if br else " (not measured)"))
    ok = all(r is None or r[2] == rows[0][1][2] for _, r in rows)
    print("mAP identical across tools" if ok else "mAP DIFFERS across tools")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
