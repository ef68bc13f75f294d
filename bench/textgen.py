#!/usr/bin/env python3
"""BLEU benchmark (bench/textgen.sh): 100,000 synthetic translation segments (seeded; WMT-like English of 5-45
words from a Zipf-distributed 20,000-word vocabulary with punctuation and numbers; each hypothesis is its
reference with deleted, inserted, substituted and moved words), written once to bench/out/textgen/segments.tsv,
then timed, BENCH_RUNS times each (median):

  dropscore native  `corpus_bleu` of src/metrics/sacrebleu with sacreBLEU's defaults, in the release test binary
                    of tests/textgen.rs (`bench_bleu`), scoring time measured inside (file reading excluded);
                    peak RSS of the process (getrusage of the child)
  sacreBLEU 2.6.0   `sacrebleu.corpus_bleu(hyps, [refs])` in a fresh Python process, scoring time measured
                    around the call (reading excluded, import excluded); peak RSS of that process

and prints both with the ratio (target: native at least 10x) and checks that the two scores agree to 1e-12.
Env: TEXTGEN_SEGMENTS (default 100000), BENCH_RUNS (default 3).
"""
import json, os, random, resource, statistics, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = int(os.environ.get("TEXTGEN_SEGMENTS", "100000"))
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
OUT = os.path.join(ROOT, "bench", "out", "textgen")
DATA = os.path.join(OUT, f"segments-{N}.tsv")

PY = r'''
import json, resource, sys, time
import sacrebleu
hyps, refs = [], []
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        h, r = line.rstrip("\n").split("\t")
        hyps.append(h); refs.append(r)
t = time.perf_counter()
s = sacrebleu.corpus_bleu(hyps, [refs])
sec = time.perf_counter() - t
print(json.dumps({"seconds": sec, "score": s.score}))
'''


def generate():
    if os.path.exists(DATA):
        return
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(20261126)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocab = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 10))) for _ in range(20_000)]
    weights = [1 / (i + 1) for i in range(len(vocab))]
    extras = [",", ".", ";", "(", ")", "\"", "'s", "3.5", "1,000", "2024", "-", "?", "!"]

    def sentence():
        w = rng.choices(vocab, weights, k=rng.randint(5, 45))
        for _ in range(rng.randint(0, 4)):
            w.insert(rng.randint(0, len(w)), rng.choice(extras))
        w[0] = w[0].capitalize()
        return w

    def mutate(w):
        w = list(w)
        for _ in range(rng.randint(0, 6)):
            op = rng.random()
            if op < 0.3 and len(w) > 1:
                del w[rng.randrange(len(w))]
            elif op < 0.55:
                w.insert(rng.randint(0, len(w)), rng.choices(vocab, weights)[0])
            elif op < 0.85:
                w[rng.randrange(len(w))] = rng.choices(vocab, weights)[0]
            else:
                a = rng.randrange(len(w))
                b = min(len(w), a + 3)
                block, rest = w[a:b], w[:a] + w[b:]
                t = rng.randint(0, len(rest))
                w = rest[:t] + block + rest[t:]
        return w

    with open(DATA, "w", encoding="utf-8") as f:
        for _ in range(N):
            ref = sentence()
            f.write(" ".join(mutate(ref)) + ".\t" + " ".join(ref) + ".\n")


def run(cmd, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    p = subprocess.run(cmd, env=env, cwd=ROOT, check=True, capture_output=True, text=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    line = [x for x in p.stdout.splitlines() if x.startswith("{")][-1]
    return json.loads(line), max(peak, before)


def native_binary():
    p = subprocess.run(["cargo", "test", "--release", "--test", "suite", "--no-run", "--message-format=json"],
                       cwd=ROOT, check=True, capture_output=True, text=True)
    for line in p.stdout.splitlines():
        m = json.loads(line)
        if m.get("reason") == "compiler-artifact" and m.get("target", {}).get("name") == "suite" and m.get("executable"):
            return m["executable"]
    sys.exit("bench textgen: no test binary")


def main():
    generate()
    rows = {}
    # The Python side first, before any other child (getrusage(RUSAGE_CHILDREN) keeps the largest child); the
    # native peak is measured in a separate process below.
    py = [run([sys.executable, "-c", PY, DATA]) for _ in range(RUNS)]
    exe = native_binary()
    env = dict(os.environ, TEXTGEN_BENCH=DATA)
    rows["sacreBLEU 2.6.0 corpus_bleu"] = py
    nat = subprocess.run([sys.executable, "-c", NATIVE, exe, str(RUNS)], env=env, check=True, capture_output=True,
                         text=True)
    rows["dropscore native corpus_bleu"] = json.loads(nat.stdout)
    n_sec = statistics.median(r["seconds"] for r, _ in rows["dropscore native corpus_bleu"])
    p_sec = statistics.median(r["seconds"] for r, _ in py)
    n_score = rows["dropscore native corpus_bleu"][0][0]["score"]
    p_score = py[0][0]["score"]
    print(f"bench textgen: {N:,} segments, {os.path.getsize(DATA) / 1e6:.1f} MB, load {os.getloadavg()[0]:.2f}, "
          f"median of {RUNS}")
    print(f"| row | BLEU time (s) | peak RSS (MB) | ratio | score |")
    print(f"|---|---|---|---|---|")
    for name, rs in rows.items():
        sec = statistics.median(r["seconds"] for r, _ in rs)
        peak = max(p for _, p in rs) / 1024
        print(f"| {name} | {sec:.3f} | {peak:.0f} | {p_sec / sec:.1f}x | {rs[0][0]['score']!r} |")
    print(f"native is {p_sec / n_sec:.1f}x sacreBLEU (target 10x); scores agree: {abs(n_score - p_score) <= 1e-12}")
    if abs(n_score - p_score) > 1e-12:
        sys.exit(1)


# Runs the native binary RUNS times from a fresh process, so its peak RSS is its own.
NATIVE = r'''
import json, resource, subprocess, sys
out = []
for _ in range(int(sys.argv[2])):
    p = subprocess.run([sys.argv[1], "--exact", "textgen::bench_bleu", "--nocapture", "--test-threads=1"], check=True,
                       capture_output=True, text=True)
    line = [x[x.index("{"):] for x in p.stdout.splitlines() if "{" in x][-1]
    out.append([json.loads(line), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss])
print(json.dumps(out))
'''

if __name__ == "__main__":
    main()
