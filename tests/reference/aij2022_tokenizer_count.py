"""Counts where dropscore's tokeniser stand-ins for the aij2022 METEOR pipelines (src/metrics/aij/tokens.rs,
ported line for line below) differ from the real ones, on generated texts (specs/aij2022.md 3.4, 3.5, 3.9):

  word_tokenize  ~ str.split()                    flagged approximate unless word_tokenize_is_split(text)
  razdel.tokenize joined by spaces ~ razdel_join   flagged approximate unless razdel_is_exact(text)

NLTK's word_tokenize = punkt sentence split + NLTKWordTokenizer; punkt's data is not on this machine, so the
reference here is NLTKWordTokenizer on the whole text (the same for one-sentence texts). Not part of CI (it only
counts; it never fails). Usage: python3 tests/reference/aij2022_tokenizer_count.py [N]
"""
import random, sys
from collections import Counter

import razdel
from nltk.tokenize import NLTKWordTokenizer

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
rng = random.Random(7)
WORDS = ("две птицы летают над водой светло-бежевой глазурью кошка спит red car the dog's 2 3.5 10 -3 "
         "рок-н-ролл e-mail кто-то 1990-х").split()
PUNCT = list(".,!?:;\"'()[]{}«»—–-…%$&*/@#+=<>") + ["''", "``", "...", "--"]


def py_space(c):
    return c.isspace()


def is_split(t):  # tokens.rs word_tokenize_is_split
    return not any(not (c.isalnum() or py_space(c) or c in "-_") or c in "\u00ab\u00bb" for c in t)


def razdel_join(t):  # tokens.rs razdel_join
    toks = []
    for chunk in t.split():
        cur = ""
        for i, c in enumerate(chunk):
            inner = c == "-" and cur and i + 1 < len(chunk) and chunk[i + 1].isalnum()
            if c.isalnum() or c == "_" or inner:
                cur += c
            else:
                if cur:
                    toks.append(cur)
                    cur = ""
                toks.append(c)
        if cur:
            toks.append(cur)
    return " ".join(toks)


def razdel_exact(t):
    return all(c.isalnum() or py_space(c) or c in "-_" for c in t)


def text():
    parts = []
    for _ in range(rng.randint(1, 8)):
        r = rng.random()
        if r < 0.7:
            parts.append(rng.choice(WORDS))
        elif r < 0.85:
            parts.append(rng.choice(WORDS) + rng.choice(PUNCT))
        else:
            parts.append(rng.choice(PUNCT))
    return " ".join(parts)


tok = NLTKWordTokenizer()
c = Counter()
examples = {}
for _ in range(N):
    t = text()
    nl = tok.tokenize(t)
    flag = is_split(t)
    key = ("wt", "exact-claimed" if flag else "flagged", "same" if t.split() == nl else "differs")
    c[key] += 1
    examples.setdefault(key, (t, t.split(), nl))
    rz = " ".join(x.text for x in razdel.tokenize(t))
    flag = razdel_exact(t)
    key = ("razdel", "exact-claimed" if flag else "flagged", "same" if razdel_join(t) == rz else "differs")
    c[key] += 1
    examples.setdefault(key, (t, razdel_join(t), rz))
for k in sorted(c):
    print(k, c[k])
for k in sorted(examples):
    if k[2] == "differs":
        print("example", k, examples[k])
