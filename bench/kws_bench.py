#!/usr/bin/env python3
"""Runs every benchmark row and prints one table (called by scripts/bench, which prepares the inputs first).

Each command runs BENCH_RUNS times (default 3) under /usr/bin/time -v; the table shows the median wall time and the
highest peak RSS. Rows whose tool reports its own timing (wasm, pytrec_eval) also show that in-process time; for
headless Chromium, the score() call in the worker is the time (there is no process to time) and the peak RSS is
the renderer's VmHWM. The "x native" ratio divides each time by dropscore native's wall time on the same input.
Environment: BENCH_RUNS, BENCH_SKIP_BROWSER=1, RUSTEVAL_BIN, TREC_EVAL_BIN, DROPSCORE_CHROMIUM.
"""
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "bench", "out")
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
BIN = os.path.join(ROOT, "target", "release", "dropscore")

XML_GT = "tests/data/kws/rusteval/TRACK_I_Bentham_ICFHR2014.RelevanceJudgements.xml"
XML_PRED = "bench/out/SYNTH_TRACK_I_Bentham.xml"
QRELS = "tests/data/kws/trec/bentham.qrels.bin"
RUN = "bench/out/SYNTH_TRACK_I_Bentham.run"

# (input label, target for native, target for wasm) in seconds
TARGETS = {"xml": (0.35, 1.5), "trec": (0.5, 2.0)}
INPUT_LABEL = {
    "xml": "XML 125 MB (Bentham GT + synthetic run)",
    "trec": "TREC 83 MB (bentham.qrels.bin + converted run)",
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def timed(cmd, stdout_json=False):
    """Runs cmd under /usr/bin/time -v. Returns (wall_s, max_rss_kb, stdout)."""
    p = subprocess.run(["/usr/bin/time", "-v"] + cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-2000:]}")
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
    h, mnt, s = m.groups()
    wall = int(h or 0) * 3600 + int(mnt) * 60 + float(s)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1))
    return wall, rss, p.stdout


def repeat(cmd, parse=None):
    """BENCH_RUNS runs: median wall, max RSS, median of the in-process time parse(stdout) gives, last stdout."""
    walls, rsss, inner, last = [], [], [], ""
    for _ in range(RUNS):
        wall, rss, out = timed(cmd)
        walls.append(wall)
        rsss.append(rss)
        last = out
        if parse:
            inner.append(parse(out))
    return {
        "wall": statistics.median(walls),
        "rss_kb": max(rsss),
        "inner": statistics.median(inner) if inner and None not in inner else None,
        "stdout": last,
    }


def json_line(out):
    lines = [l for l in out.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def rusteval_ap(out):
    """The MEAN ap from rusteval's output (its column order changes from run to run)."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("MEAN:") and i + 2 < len(lines):
            names, values = line[5:].split(), lines[i + 2].split()
            if "ap" in names and len(values) == len(names):
                return float(values[names.index("ap")])
    return None


def fmt_s(v):
    return "—" if v is None else (f"{v:.3f} s" if v < 10 else f"{v:.1f} s")


def fmt_mb(kb):
    return "—" if not kb else f"{kb / 1024:.0f} MB"


def check_vs_score(add, gt, pred):
    """Pre-flight check vs score in headless Chromium: the manifest of `gt`, then
    bench/check_browser.mjs (fresh warmed workers; check alone vs open + score official, and the whole click)."""
    manifest = os.path.join(OUT, "kws_manifest.json")
    subprocess.run([BIN, "manifest", "kws", "--gt", gt, "--out", manifest], cwd=ROOT, check=True)
    p = subprocess.run(["node", "bench/check_browser.mjs", "--gt", gt, "--pred", pred, "--manifest", manifest,
                        "--runs", str(RUNS)], cwd=ROOT, capture_output=True, text=True)
    res = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0 or not res:
        add(tool="dropscore check (pre-flight), Chromium", input="xml", wall=None, inner=None, rss_kb=None,
            kind="wasm", note=f"failed: {p.stderr.strip().splitlines()[-1:]}")
        return

    def med(k):
        return statistics.median(x[k] for x in res) / 1000

    add(tool=f"dropscore check (pre-flight, manifest), Chromium {res[0].get('browser', '')}", input="xml", wall=None,
        inner=med("check_ms"), rss_kb=None, kind="wasm",
        note=f"the same submission scored: official {med('score_official_ms'):.2f} s, whole Score click "
             f"{med('click_ms'):.2f} s (fresh warmed workers, medians of {len(res)}); {res[0]['check_summary']}")


def main():
    load = os.getloadavg()[0]
    rows = []  # dicts: tool, input, wall, inner, rss_kb, check, note, kind (native|wasm|peer)
    native_wall = {}

    def add(**r):
        rows.append(r)
        log(f"  {r['tool']:<44} {r['input']:<5} wall {fmt_s(r.get('wall'))}  inner {fmt_s(r.get('inner'))}  "
            f"rss {fmt_mb(r.get('rss_kb'))}  {r.get('check', '')}  {r.get('note', '')}")

    def score_of(report, *names):
        for n in names:
            v = (report.get("scores") or {}).get(n)
            if isinstance(v, (int, float)):
                return v
        return None

    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    inputs = {"xml": (XML_GT, XML_PRED), "trec": (QRELS, RUN)}
    for key, (gt, pred) in inputs.items():
        log(f"{INPUT_LABEL[key]}: {gt} + {pred}")
        # dropscore native
        r = repeat([BIN, "kws", "--gt", gt, "--pred", pred, "--format", "json", "--quiet"])
        rep = json.loads(r["stdout"])
        native_wall[key] = r["wall"]
        add(tool="dropscore native (CLI, release)", input=key, wall=r["wall"], inner=None, rss_kb=r["rss_kb"],
            map=score_of(rep, "map"), kind="native")

        # dropscore wasm in Node, Uint8Array
        r = repeat(["node", "bench/wasm_bench.mjs", "--gt", gt, "--pred", pred, "--data", "u8"],
                   parse=lambda out: (json_line(out).get("score_ms") or 0) / 1000)
        j = json_line(r["stdout"])
        add(tool=f"dropscore wasm, Node {node_version} (Uint8Array)", input=key, wall=r["wall"], inner=r["inner"],
            rss_kb=r["rss_kb"], map=score_of(j, "map"), kind="wasm",
            note=f"wasm memory {j.get('wasm_memory_bytes', 0) / 2**20:.0f} MB (the file is copied in)")

        # dropscore wasm in Node, Blob: not possible (no FileReaderSync in Node)
        _, _, out = timed(["node", "bench/wasm_bench.mjs", "--gt", gt, "--pred", pred, "--data", "blob"])
        j = json_line(out)
        add(tool=f"dropscore wasm, Node {node_version} (Blob)", input=key, wall=None, inner=None, rss_kb=None,
            map=score_of(j, "map"), kind="wasm",
            note="n/a: " + (j.get("error") or "scored") + " (Node 20 has Blob but no FileReaderSync; use Uint8Array)")

        # dropscore wasm in headless Chromium
        if os.environ.get("BENCH_SKIP_BROWSER") == "1":
            log("  (browser skipped: BENCH_SKIP_BROWSER=1)")
        else:
            p = subprocess.run(["node", "bench/browser_bench.mjs", "--gt", gt, "--pred", pred, "--runs", str(RUNS)],
                               cwd=ROOT, capture_output=True, text=True)
            res = [json.loads(l) for l in p.stdout.splitlines() if l.startswith("{")]
            if p.returncode != 0 or not res or any("error" in x for x in res):
                err = (res[-1].get("error") if res else None) or p.stderr.strip().splitlines()[-1:]
                add(tool="dropscore wasm, headless Chromium", input=key, wall=None, inner=None, rss_kb=None,
                    kind="wasm", note=f"failed: {err}")
            else:
                t = statistics.median(x["score_ms"] for x in res) / 1000
                add(tool=f"dropscore wasm, Chromium {res[0].get('browser', '')} (fetch → Blob → worker)", input=key,
                    wall=None, inner=t, rss_kb=max(x["renderer_hwm_kb"] for x in res), map=score_of(res[-1], "map"),
                    kind="wasm",
                    note=f"request to the page's worker → report in the page; fetch → Blob "
                         f"{statistics.median(x['fetch_ms'] for x in res) / 1000:.2f} s not included; "
                         f"report {res[-1]['report_bytes'] / 1e6:.1f} MB; RSS = renderer VmHWM")

        if key == "xml" and os.environ.get("BENCH_SKIP_BROWSER") != "1":
            check_vs_score(add, gt, pred)

        # peers
        if key == "xml":
            rb = os.environ.get("RUSTEVAL_BIN")
            if rb and os.access(rb, os.X_OK):
                r = repeat([rb, gt, pred])
                add(tool="rusteval v0.5 (RUSTEVAL_BIN)", input=key, wall=r["wall"], inner=None, rss_kb=r["rss_kb"],
                    map=rusteval_ap(r["stdout"]), kind="peer", note="prints 5 decimals")
            else:
                add(tool="rusteval v0.5", input=key, wall=None, inner=None, rss_kb=None, kind="peer",
                    note="not run: set RUSTEVAL_BIN to a rusteval binary built from source")
        else:
            if shutil.which("python3"):
                try:
                    r = repeat(["python3", "bench/pytrec_bench.py", gt, pred],
                               parse=lambda out: json_line(out)["parse_s"] + json_line(out)["eval_s"])
                    j = json_line(r["stdout"])
                    add(tool="pytrec_eval (pytrec-eval-terrier)", input=key, wall=r["wall"], inner=r["inner"],
                        rss_kb=r["rss_kb"], map=j["scores"]["map"], kind="peer",
                        note=f"parse {j['parse_s']:.2f} s + eval {j['eval_s']:.2f} s (map, P, ndcg only)")
                except Exception as e:  # noqa: BLE001 - a missing peer is a row, not a crash
                    add(tool="pytrec_eval", input=key, wall=None, inner=None, rss_kb=None, kind="peer",
                        note=f"failed: {str(e).splitlines()[0][:120]}")
            tb = os.environ.get("TREC_EVAL_BIN")
            if tb and os.access(tb, os.X_OK):
                r = repeat([tb, gt, pred])
                m = re.search(r"^map\s+all\s+([\d.]+)", r["stdout"], re.M)
                ver = subprocess.run([tb, "-v"], capture_output=True, text=True)
                ver = (ver.stdout + ver.stderr).strip().split()[-1] if (ver.stdout + ver.stderr).strip() else "?"
                add(tool=f"trec_eval {ver} (TREC_EVAL_BIN)", input=key, wall=r["wall"], inner=None,
                    rss_kb=r["rss_kb"], map=float(m.group(1)) if m else None, kind="peer",
                    note="official measure set; prints 4 decimals")
            else:
                add(tool="trec_eval", input=key, wall=None, inner=None, rss_kb=None, kind="peer",
                    note="not run: set TREC_EVAL_BIN to a trec_eval binary built from source")

    # The table
    lines = [
        "| tool | input | wall (median of %d) | score only (in-process) | peak RSS | × native | target | MAP | notes |" % RUNS,
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        t = r.get("inner") if r["kind"] == "wasm" and r.get("inner") is not None else r.get("wall")
        ratio = "—" if t is None or r["kind"] == "native" and r.get("wall") is None else f"{t / native_wall[r['input']]:.2f}×"
        if r["kind"] == "native":
            ratio = "1.00×"
        tgt = ""
        if r["kind"] in ("native", "wasm") and t is not None:
            limit = TARGETS[r["input"]][0 if r["kind"] == "native" else 1]
            tgt = f"≤ {limit:g} s {'✓' if t <= limit else '✗'}"
        mp = r.get("map")
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["tool"], r["input"].upper(), fmt_s(r.get("wall")), fmt_s(r.get("inner")), fmt_mb(r.get("rss_kb")),
            ratio, tgt, "—" if mp is None else f"{mp:.4f}", r.get("note", "")))
    table = "\n".join(lines)

    cpu = "?"
    try:
        cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read()).group(1)
    except Exception:  # noqa: BLE001
        pass
    wasm = os.path.join(ROOT, "www", "pkg", "dropscore_bg.wasm")
    head = "\n".join([
        "# dropscore benchmark",
        "",
        f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores ({cpu}), {platform.system()} "
        f"{platform.release()}, node {node_version}; wasm {os.path.getsize(wasm) if os.path.exists(wasm) else '?'} bytes; "
        f"load average {load:.2f} at the start; "
        f"commit {subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT, capture_output=True, text=True).stdout.strip()}.",
        "",
        "Inputs: " + "; ".join(f"{k.upper()} = {v}" for k, v in INPUT_LABEL.items()) + ".",
        "Times: wall = whole process (start-up, reading, parsing, scoring, output); score only = the tool's own timing "
        "of the scoring call (wasm: score(); pytrec_eval: parse + evaluate). Targets apply to dropscore native's wall "
        "and to the wasm rows' score-only time. MAP = the headline map (XML: rusteval ap, binary32).",
        "",
    ])
    doc = head + table + "\n"
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "results.md"), "w", encoding="utf-8") as f:
        f.write(doc)
    print(doc)
    print(f"(written to bench/out/results.md)")


if __name__ == "__main__":
    main()
