#!/usr/bin/env python3
"""How often dropscore's stand-in for the VisualQA numeric path decides differently from a POS tagger
(docs/specs/aij2022.md 3.4; the README's "aij2022: the VisualQA numeric path").

The contest tags the hypothesis H with NLTK's English averaged-perceptron tagger and tries the tokens tagged `CD`.
dropscore ships no tagger model: with `numeric_path = tagger` (flagged `aij.vqa.numeric_approx`) it tries the tokens
that start with a digit and that Python's `float()` reads; `first_float` tries every token float() reads, `nan`
and `inf` included, which the tagger tags NN or RB here.

NLTK's model (`taggers/averaged_perceptron_tagger.pickle`) is only on GitHub (nltk_data), not on any package
registry. The closest model on a registry is textblob-aptagger 0.2.0's `trontagger-0.1.0.pickle` (PyPI):
Honnibal's averaged perceptron on the Penn Treebank, the tagger NLTK's `PerceptronTagger` was ported from. Its
weights are not NLTK's (its classes spell brackets -LRB-/-RRB-), so the figure below is an estimate, measured with
NLTK 3.7's own `PerceptronTagger` code on that model.

Answers are built from the shapes VisualQA answers take (a count, a count with a noun, a year, a range, a number
word, a sentence, English, no number, and what models emit: `nan`, `inf`, glued numbers, other scripts' digits),
passed through the contest's steps (ASCII punctuation removed, lowercased, wordtodigits, NLTK 3.7 word_tokenize)
and scored against a one-token numeric reference as `vqa_meteor`'s numeric path does. dropscore scores the same
answers in one VisualQA run; its per-id score is compared with the tagger path's.

Exit 1 if more than the README's bound (0.5 %) of the answers differ, or if dropscore and this script's own
transcription of the stand-in disagree on any answer.
"""
import importlib.util, json, os, pathlib, pickle, random, string, subprocess, sys, tempfile

import nltk
import wordtodigits as w2d
from nltk.tag.perceptron import PerceptronTagger
from nltk.tokenize import word_tokenize

BOUND = 0.005
ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("DROPSCORE_BIN", str(ROOT / "target" / "release" / "dropscore"))
if nltk.__version__ != "3.7":
    raise SystemExit(f"aij_numeric_diff needs nltk 3.7 (found {nltk.__version__})")
spec = importlib.util.find_spec("textblob_aptagger")
if spec is None:
    raise SystemExit("aij_numeric_diff needs textblob-aptagger 0.2.0: pip install -r "
                     "tests/reference/requirements-aij2022.txt")
with open(pathlib.Path(spec.origin).parent / "trontagger-0.1.0.pickle", "rb") as f:
    weights, tagdict, classes = pickle.load(f, encoding="latin1")
tagger = PerceptronTagger(load=False)
tagger.model.weights, tagger.tagdict, tagger.classes = weights, tagdict, classes
tagger.model.classes = classes

rng = random.Random(20221015)
P = set(string.punctuation)
NOUNS = "кошки кошек собаки человек людей птицы машин домов деревьев окна лет года метров книги яблока".split()
WORDS = "один два три четыре пять шесть семь восемь девять десять двенадцать двадцать сто".split()
EN = "cats dogs people birds cars years".split()
EN_NUM = "one two three four five ten".split()


def num():
    return str(rng.choice([rng.randint(0, 12), rng.randint(0, 100), rng.randint(1000, 2025)]))


SHAPES = {
    "count": lambda: num(),
    "count noun": lambda: f"{num()} {rng.choice(NOUNS)}",
    "noun count": lambda: f"{rng.choice(NOUNS)} {num()}",
    "about count": lambda: f"{rng.choice(['около', 'примерно', 'где-то', 'больше'])} {num()} {rng.choice(NOUNS)}",
    "year": lambda: f"в {rng.randint(1800, 2025)} году",
    "range": lambda: f"{num()}{rng.choice(['-', ' - ', ' или ', ' и '])}{num()}",
    "decimal/percent": lambda: f"{num()}{rng.choice(['.', ','])}{rng.randint(0, 99)}{rng.choice(['', '%'])}",
    "sentence": lambda: f"на фото {num()} {rng.choice(NOUNS)} и {num()} {rng.choice(NOUNS)}",
    "number word": lambda: f"{rng.choice(WORDS)} {rng.choice(NOUNS)}",
    "english": lambda: f"{rng.choice([num(), rng.choice(EN_NUM)])} {rng.choice(EN)}",
    "no number": lambda: rng.choice(["нет", "да", "не знаю", "много", "несколько кошек", "ни одного"]),
    "model output": lambda: rng.choice(["nan", "none", "inf", "infinity", "NaN", "1e3", f"{num()} nan", f"nan {num()}",
                                        f"{num()}{num()}", f"{num()} {num()} {num()}", "٣ кошки", "１２"]),
}


def prep(h):  # remove_ascii_punct_then_lower, wordtodigits, NLTK 3.7 word_tokenize (Punkt: identity here)
    h = "".join(c for c in h if c not in P).lower()
    return word_tokenize(w2d.convert(h), preserve_line=True)


def ratio(tok, ref):
    try:
        x, y = float(tok), float(ref)
    except ValueError:
        return None
    if x == 0 and y == 0:
        return 1.0
    return min(x, y) / max(x, y)


def numeric(tokens, ref, tagged):
    tags = tagger.tag(tokens) if tagged else [(t, "CD" if t[:1].isdigit() else "-") for t in tokens]
    for t, tag in tags:
        if tag == "CD":
            r = ratio(t, ref)
            if r is not None:
                return r
    return 0.0


N = 2000
cases = []  # (shape, hypothesis, reference, tagger's score, stand-in's score)
for name, make in SHAPES.items():
    for _ in range(N):
        h, ref = make(), num()
        tokens = prep(h)
        cases.append((name, h, ref, numeric(tokens, ref, True), numeric(tokens, ref, False)))

tmp = pathlib.Path(tempfile.mkdtemp(prefix="aij-numeric-"))
gt = {str(k): [{"type": "text", "content": [c[2]]}] for k, c in enumerate(cases)}
pred = {str(k): [{"type": "text", "content": c[1]}] for k, c in enumerate(cases)}
(tmp / "vqa_gt.json").write_text(json.dumps(gt, ensure_ascii=False), encoding="utf-8")
(tmp / "vqa_pred.json").write_text(json.dumps(pred, ensure_ascii=False), encoding="utf-8")
p = subprocess.run([BIN, "aij2022", "--gt", str(tmp / "vqa_gt.json"), "--pred", str(tmp / "vqa_pred.json"),
                    "--format", "json", "--quiet"], capture_output=True, text=True)
if p.returncode not in (0, 1):
    raise SystemExit(f"dropscore failed: {p.stderr}")
got = {i["id"].split("/", 1)[1]: i["scores"]["score"] for i in json.loads(p.stdout)["items"] if i["group"] == "vqa"}


def same(a, b):
    nan = lambda x: x is None or x != x  # JSON writes NaN as null
    return a == b or (nan(a) and nan(b))


total = diff = unlike = 0
print(f"{'shape':<16} {'answers':>7} {'differ':>6}  example of a difference")
for name in SHAPES:
    d, example = 0, ""
    for k, (shape, h, ref, tagged, stand_in) in enumerate(cases):
        if shape != name:
            continue
        g = got[str(k)]
        if not same(g, stand_in):
            unlike += 1
            if unlike <= 10:
                print(f"  dropscore {g} vs this script's stand-in {stand_in}: {h!r} / {ref}")
        if not same(tagged, g):
            d += 1
            example = example or f"{h!r} vs {ref}: tagger {tagged:.4g}, dropscore {g}"
    total += N
    diff += d
    print(f"{name:<16} {N:>7} {d:>6}  {example}")
rate = diff / total
print(f"aij_numeric_diff: dropscore decides as the tagger on {total - diff} of {total} answers ({100 * rate:.2f} % "
      f"differ; model: textblob-aptagger 0.2.0, an estimate; bound {100 * BOUND:.1f} %); {unlike} unlike the "
      f"stand-in's transcription")
sys.exit(1 if rate > BOUND or unlike else 0)
