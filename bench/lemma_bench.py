#!/usr/bin/env python3
"""Words per second of the Russian lemmatiser: dropscore native (`dropscore lemma --bench`), dropscore wasm in
Node (bench/lemma_wasm.mjs) and pymorphy3 (`parse(w)[0].normal_form`, default pure-Python DAWG reader), on
the same 100,000 dictionary forms (seeded sample, 1 in 4 with ё written as е) and 20,000 unknown forms from
tests/reference/lemma_diff.py's generator. Also prints the asset's size, raw and gzipped."""
import gzip, os, random, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
import lemma_diff  # noqa: E402  (hides the C dawg module from pymorphy3, as the parity test does)

BIN = os.path.join(ROOT, "target", "release", "dropscore")
ASSET = os.path.join(ROOT, "www", "assets", "ru-lemmas.bin")


def main():
    rng = random.Random(7)
    morph = lemma_diff.pymorphy3.MorphAnalyzer()
    d = lemma_diff.dawg_c.RecordDAWG(">HH")
    d.load(os.path.join(morph.dictionary.path, "words.dawg"))
    keys = sorted(set(d.keys()))
    known = [w.replace("ё", "е") if "ё" in w and rng.random() < 0.25 else w for w in rng.sample(keys, 100_000)]
    unknown = lemma_diff.oov_words(morph, sorted(rng.sample(keys, 50_000)), rng, 20_000)
    raw = os.path.getsize(ASSET)
    with open(ASSET, "rb") as f:
        gz = len(gzip.compress(f.read(), 6))
    print(f"asset {ASSET}: {raw} bytes ({raw / 1e6:.1f} MB), gzipped {gz} bytes ({gz / 1e6:.1f} MB)")
    print(f"{'words':<22}{'dropscore native':>20}{'dropscore wasm':>18}{'pymorphy3':>14}{'native/py':>11}{'wasm/py':>9}")
    for name, words in (("100,000 dictionary", known), ("20,000 unknown", unknown)):
        path = os.path.join(ROOT, "bench", "out", f"lemma_{name.split()[1]}.txt")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(words) + "\n")
        with open(path, "rb") as f:
            out = subprocess.run([BIN, "lemma", "--bench", "--lemmas", ASSET], stdin=f, capture_output=True, check=True)
        native = float(out.stdout.split()[0])
        out = subprocess.run(["node", os.path.join(ROOT, "bench", "lemma_wasm.mjs"), path, ASSET],
                             capture_output=True, check=True)
        wasm = float(out.stdout.split()[0])
        t = time.perf_counter()
        for w in words:
            morph.parse(w)[0].normal_form
        py = len(words) / (time.perf_counter() - t)
        print(f"{name:<22}{native:>16,.0f} w/s{wasm:>14,.0f} w/s{py:>10,.0f} w/s{native / py:>10.1f}×{wasm / py:>8.1f}×")


if __name__ == "__main__":
    main()
