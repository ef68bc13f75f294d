#!/usr/bin/env python3
"""Parity of dropscore's built-in Russian lemmatiser with pymorphy3 (`MorphAnalyzer().parse(w)[0].normal_form`).

Install: tests/reference/requirements-lemma.txt (pymorphy3 + pymorphy3-dicts-ru, pinned); build:
cargo build --release, and the asset www/assets/ru-lemmas.bin (scripts/ensure-tools builds it).
Usage: python3 tests/reference/lemma_diff.py [N_DICT] [N_OOV] [SEED]

Three word lists go through `dropscore lemma` (one word a line) and through pymorphy3 with its default
pure-Python DAWG reader (as `pip install pymorphy3` gives it; the C `dawg` module is hidden):
  (a) every word form of the aij2022 TextQA, MathQA and VisualQA fixtures (tests/data/lemma/fixture_words.txt,
      including VisualQA's whole answer strings), target 100 %;
  (b) N_DICT (100,000) word forms sampled from the dictionary (a quarter of those with ё written as е),
      target >= 99.99 %;
  (c) N_OOV (20,000) forms outside the dictionary: misspellings (a letter replaced, dropped, doubled or two
      swapped), rare compounds (known and unknown prefixes), hyphenated words and particles, `по-` adverbs,
      mixed Cyrillic/Latin script, numbers, Latin words, punctuation and multi-word strings, plus every word
      outside the dictionary that pymorphy's P(t|w) table knows (with dawg2 installed), target >= 99 %.
Prints the three agreement rates and the first differences of each list; exit status 1 below a target.
"""
import importlib, os, random, subprocess, sys, time

try:  # the C DAWG reader (dawg2) only lists the 3 million dictionary keys fast
    dawg_c = importlib.import_module("dawg")
except ImportError:
    dawg_c = None
sys.modules["dawg"] = None  # pymorphy3 falls back to DAWG2-Python, its default reader
import pymorphy3  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DROPSCORE = os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore"))
ASSET = os.environ.get("DROPSCORE_LEMMAS", os.path.join(ROOT, "www", "assets", "ru-lemmas.bin"))
TARGETS = {"a": 1.0, "b": 0.9999, "c": 0.99}

CYR = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
LOOKALIKE = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "к": "k", "м": "m", "т": "t"}
LATIN_WORDS = ["wi-fi", "pdf", "iphone", "xiv", "ok", "covid-19", "e-mail", "mix", "hello", "bmw", "ii"]
PARTICLES = ["-то", "-ка", "-таки", "-де", "-с", "-ста", "-тко"]
PREFIXES = ["супер", "анти", "псевдо", "недо", "пере", "мега", "квази-", "экс-", "вице-", "раз", "бы", "ку",
            "не", "по", "наи", "микро", "гипер", "авто", "эко"]


def dropscore(words):
    data = "".join(w + "\n" for w in words)
    out = subprocess.run([DROPSCORE, "lemma", "--lemmas", ASSET], input=data.encode(), capture_output=True,
                         check=True).stdout.decode()
    got = out.split("\n")[:-1]
    assert len(got) == len(words), (len(got), len(words))
    return got


def oov_words(morph, dict_words, rng, n):
    known = morph.word_is_known
    out, seen = [], set()

    def put(w):
        w = w.lower()
        if w and "\n" not in w and w not in seen and not known(w, strict=True):
            seen.add(w)
            out.append(w)

    def word():
        return rng.choice(dict_words)

    makers = []

    def misspell():
        w = word()
        if len(w) < 3:
            return w + rng.choice(CYR)
        i = rng.randrange(len(w))
        k = rng.randrange(4)
        if k == 0:
            return w[:i] + rng.choice(CYR) + w[i + 1:]
        if k == 1:
            return w[:i] + w[i + 1:]
        if k == 2:
            return w[:i] + w[i] + w[i:]
        j = min(i + 1, len(w) - 1)
        return w[:i] + w[j] + w[i] + w[j + 1:]
    makers += [misspell] * 6
    makers.append(lambda: rng.choice(PREFIXES) + word())
    makers.append(lambda: word() + rng.choice(["ность", "ировать", "изм", "ка", "ище", "ушка"]))
    makers.append(lambda: word() + "-" + word())
    makers.append(lambda: word() + rng.choice(PARTICLES))
    makers.append(lambda: "по-" + word())
    makers.append(lambda: "".join(LOOKALIKE.get(c, c) if rng.random() < 0.3 else c for c in word()))
    makers.append(lambda: rng.choice([str(rng.randrange(10 ** rng.randrange(1, 7))),
                                      f"{rng.randrange(100)},{rng.randrange(100)}",
                                      f"-{rng.randrange(100)}.{rng.randrange(10)}",
                                      f"{rng.randrange(100)}-{rng.choice(['й', 'го', 'х', 'ти', 'летний'])}",
                                      f"{rng.randrange(1000)}{rng.choice(['км', 'кг', 'руб'])}"]))
    makers.append(lambda: rng.choice(LATIN_WORDS) + rng.choice(["", "s", "-" + word()]))
    makers.append(lambda: rng.choice(["—", "«", "»", "…", "!?", "«»", "--", "№", "+", "§"]) * rng.randrange(1, 3))
    makers.append(lambda: word() + " " + word())
    makers.append(lambda: "".join(rng.choice(CYR) for _ in range(rng.randrange(2, 12))))
    while len(out) < n:
        put(rng.choice(makers)())
    return out


def main():
    n_dict = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    n_oov = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2022
    rng = random.Random(seed)
    t0 = time.time()
    morph = pymorphy3.MorphAnalyzer()
    assert not pymorphy3.dawg.EXTENSION_AVAILABLE

    with open(os.path.join(ROOT, "tests", "data", "lemma", "fixture_words.txt"), encoding="utf-8") as f:
        fixture = [w for w in f.read().split("\n") if w]

    if dawg_c is not None:
        d = dawg_c.RecordDAWG(">HH")
        d.load(os.path.join(morph.dictionary.path, "words.dawg"))
        all_words = sorted(set(d.keys()))
    else:
        all_words = sorted(set(morph.dictionary.words.keys()))
    sample = rng.sample(all_words, n_dict)
    dict_list = [w.replace("ё", "е") if "ё" in w and rng.random() < 0.25 else w for w in sample]
    dict_words = sorted(set(rng.sample(all_words, 50_000)))
    oov = oov_words(morph, dict_words, rng, n_oov)
    if dawg_c is not None:
        cpd = dawg_c.IntCompletionDAWG()
        cpd.load(os.path.join(morph.dictionary.path, "p_t_given_w.intdawg"))
        seen = set(oov)
        for w in sorted({k.rsplit(":", 1)[0] for k in cpd.keys()}):
            if w not in seen and "\n" not in w and not morph.word_is_known(w, strict=True):
                oov.append(w)

    failed = False
    summary = []
    for name, words in (("a", fixture), ("b", dict_list), ("c", oov)):
        want = [morph.parse(w)[0].normal_form for w in words]
        got = dropscore(words)
        diffs = [(w, x, y) for w, x, y in zip(words, want, got) if x != y]
        rate = 1 - len(diffs) / len(words)
        ok = rate >= TARGETS[name]
        failed |= not ok
        summary.append(f"({name}) {len(words) - len(diffs)}/{len(words)} = {rate * 100:.4f} %")
        print(f"({name}) {len(words)} words: {len(diffs)} differ, agreement {rate * 100:.4f} % "
              f"(target {TARGETS[name] * 100:g} %) {'ok' if ok else 'FAILED'}")
        for w, x, y in diffs[:15]:
            print(f"    {w!r}: pymorphy3 {x!r}, dropscore {y!r}")
    print(f"lemma_diff: {'; '.join(summary)} ({time.time() - t0:.0f} s)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
