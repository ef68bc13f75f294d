#!/usr/bin/env python3
"""Differential test of dropscore's ports of the aij2022 METEOR tokenizers (src/metrics/aij/nltk_tokenize.rs,
src/metrics/aij/razdel.rs) against the references from PyPI (tests/reference/requirements-tokenize.txt):

- NLTK 3.7's `NLTKWordTokenizer().tokenize` (what `word_tokenize` applies to each Punkt sentence; Punkt is an
  identity step for the contest's texts, see nltk_tokenize.rs);
- razdel 0.5.0's `tokenize`;
- NLTK 3.7's `PorterStemmer().stem` (src/metrics/aij/porter.rs), on N random Latin words.

N random strings (default 100,000; argument 1) built from Cyrillic and Latin words, digits, the quotes « “ ‘ „ » ” ’
" ' and `, every dash (- ‐ ‑ ‒ – — ― −), brackets, punctuation, the NLTK contractions and spaces, each given to
`dropscore tokenize --nltk` and `--razdel` (one text a line). Token lists must be equal on every string.
Exit status 1 on any mismatch; prints one summary line. Needs target/release/dropscore (DROPSCORE_BIN).
"""
import os, pathlib, random, subprocess, sys

import nltk
import razdel
from nltk.tokenize import NLTKWordTokenizer

if nltk.__version__ != "3.7":
    raise SystemExit(f"aij_tokenize_diff needs nltk 3.7 (found {nltk.__version__}): pip install -r "
                     "tests/reference/requirements-tokenize.txt")

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("DROPSCORE_BIN", str(ROOT / "target" / "release" / "dropscore"))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
rng = random.Random(20221010)

WORDS = ("кошка Кошка КОШКА птицы летают над водой светло-бежевой человек две поле девяти улицах зимой яблоко "
         "велосипеде ёлка Ёж ж и в cat Dog the THE a I yahoo Yahoo cannot CanNot gimme gonna gotta lemme "
         "wanna more'n d'ye 'tis 'twas don't I'm we'll you're they've isn't can't e-mail рок-н-ролл кто-то x y "
         "mβж ΔP ѣ é İ ı ſ K i s").split()
QUOTES = list("«“‘„»”’\"'`") + ["''", "``", "'s", "'S", "'m", "'d", "'ll", "'re", "'ve", "n't", "N'T", "'LL"]
DASHES = list("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212") + ["--", "---"]
PUNCT = list(".,!?:;…%$&@#*/\\+=<>^_|~№()[]{}") + ["...", "..", ":-)", ";)", "=((", "?!"]
DIGITS = ["0", "1", "2", "12", "3.5", "3,5", "1/2", "1990", "٣", "²", "½", "Ⅻ"]
# Python's whitespace (\r, \x0b, \x1c, \u2028 and \u3000 included) and characters where Python's \w differs from
# Rust's char::is_alphanumeric (combining marks U+0301, U+0345).
SPACES = [" ", " ", " ", "  ", "\t", "\u00a0", "\r", "\x0b", "\x1c", "\u2028", "\u3000", "\u0301", "\u0345"]


def piece():
    r = rng.random()
    if r < 0.40:
        return rng.choice(WORDS)
    if r < 0.55:
        return rng.choice(QUOTES)
    if r < 0.70:
        return rng.choice(DASHES)
    if r < 0.85:
        return rng.choice(PUNCT)
    return rng.choice(DIGITS)


def text():
    out = []
    for _ in range(rng.randint(0, 9)):
        out.append(piece())
        if rng.random() < 0.55:
            out.append(rng.choice(SPACES))
    t = "".join(out)
    return t.strip() if rng.random() < 0.3 else t


texts = [text() for _ in range(N)]
texts[:6] = ["", " ", "»яблоко", "”НА ВЕЛОСИПЕДЫ", "человек -две", "девяти— поле"]
data = ("\n".join(texts) + "\n").encode("utf-8")
tb = NLTKWordTokenizer()
fails, n = [], 0
for flag, ref in (("--nltk", lambda t: tb.tokenize(t)), ("--razdel", lambda t: [x.text for x in razdel.tokenize(t)])):
    p = subprocess.run([BIN, "tokenize", flag], input=data, capture_output=True)
    if p.returncode != 0:
        raise SystemExit(f"dropscore tokenize {flag} failed: {p.stderr.decode()}")
    got = p.stdout.decode("utf-8").split("\n")[:-1]
    if len(got) != len(texts):
        raise SystemExit(f"dropscore tokenize {flag}: {len(got)} lines for {len(texts)} texts")
    for t, g in zip(texts, got):
        want = ref(t)
        n += 1
        if any(not w or any(c.isspace() for c in w) for w in want):
            fails.append(f"{flag} {t!r}: reference token with whitespace {want}")
        elif g.split(" ") != want and not (g == "" and want == []):
            fails.append(f"{flag} {t!r}: dropscore {g.split(' ')} vs reference {want}")

# NLTK's PorterStemmer (the VisualQA METEOR's stem stage, src/metrics/aij/porter.rs) on random Latin words built
# from the letters and suffixes its rules test (y-runs, double consonants, -ational, -alli, -logi, -ies, ...),
# lower-cased first as METEOR does, plus the irregular forms.
from nltk.stem.porter import PorterStemmer
SUFFIXES = ("ational tional enci anci izer bli alli entli eli ousli ization ation ator alism iveness fulness "
            "ousness aliti iviti biliti fulli logi icate ative alize iciti ical ful ness al ance ence er ic able "
            "ible ant ement ment ent ion ou ism ate iti ous ive ize sses ies ss s ied eed ed ing at bl iz y e ll "
            "*d").split()
def latin_word():
    w = "".join(rng.choice("aeiouybcdfglmnprstvwxzyy") for _ in range(rng.randint(0, 9)))
    for _ in range(rng.randint(0, 2)):
        w += rng.choice(SUFFIXES)
    return w
words = [latin_word() for _ in range(N)] + ["sky", "skies", "dying", "news", "innings", "howe", "exceed", "yyyy",
                                             "syzygy", "ab*d", "falling", "hopping", "ёжики", "ß", "x"]
ps = PorterStemmer()
p = subprocess.run([BIN, "tokenize", "--porter"], input=("\n".join(words) + "\n").encode(), capture_output=True)
got = p.stdout.decode("utf-8").split("\n")[:-1]
if p.returncode != 0 or len(got) != len(words):
    raise SystemExit(f"dropscore tokenize --porter failed: {p.stderr.decode()}")
for w, g in zip(words, got):
    n += 1
    if g != ps.stem(w):
        fails.append(f"--porter {w!r}: dropscore {g!r} vs nltk {ps.stem(w)!r}")

status = "OK" if not fails else f"FAILED ({len(fails)})"
print(f"aij tokenize diff {status}: {n} tokenizations of {N} random strings (nltk 3.7 NLTKWordTokenizer, razdel 0.5.0) "
      f"and {len(words)} Porter stems")
for f in fails[:20]:
    print("  " + f)
sys.exit(1 if fails else 0)
