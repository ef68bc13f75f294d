#!/usr/bin/env python3
"""HTR-like lines for bench/text_bench.py, deterministic (seeded): N lines (default 1,000,000) of about 40
characters of historic-print-like text (Zipf-distributed words of a 30,000-word vocabulary over Latin letters
with German and French accents, capitals, digits, `.`, `-`, `;`, `:`), and for each a recognised line with a
character error rate drawn per line from 5-15 % (substitutions mostly between look-alike letters, deletions,
insertions, sometimes a lost or doubled space). Written as two CSV files (id,text), GT and prediction, and a
TSV of reference<TAB>hypothesis for the Python side.

  python3 bench/text_gen.py OUT_DIR [N]
"""
import os
import random
import sys

LOWER = "abcdefghijklmnopqrstuvwxyzäöüßéèàſ"
LOOKALIKE = ["rn", "m", "cl", "d", "li", "h", "ii", "u", "nu", "vv", "w", "e", "c", "o", "a", "l", "1", "i", "t",
             "f", "ſ", "s", "ü", "ö", "ä", "n", "5", "S", "0", "O", ".", "'"]
SYMBOLS = [".", "-", ";", ":"]


def vocabulary(rng):
    words = set()
    while len(words) < 30_000:
        n = min(14, max(1, int(rng.gauss(5.5, 2.5))))
        words.add("".join(rng.choice(LOWER[:26] if rng.random() < 0.9 else LOWER) for _ in range(n)))
    words = sorted(words)
    rng.shuffle(words)
    return words


def line(rng, vocab, cum):
    words, size = [], 0
    target = rng.randint(25, 55)
    while size < target:
        w = rng.choices(vocab, cum_weights=cum)[0]
        r = rng.random()
        if r < 0.12:
            w = w.capitalize()
        elif r < 0.15:
            w = str(rng.randint(1, 1899))
        if rng.random() < 0.08:
            w += rng.choice(SYMBOLS)
        words.append(w)
        size += len(w) + 1
    return " ".join(words)


def recognise(rng, ref):
    rate = rng.uniform(0.05, 0.15)
    out = []
    for ch in ref:
        if rng.random() >= rate:
            out.append(ch)
            continue
        op = rng.random()
        if op < 0.6:
            out.append(" " if ch != " " and rng.random() < 0.03 else rng.choice(LOOKALIKE)[0] if ch != " " else "")
        elif op < 0.8:
            pass
        else:
            out.append(ch)
            out.append(rng.choice(LOOKALIKE)[-1] if rng.random() < 0.9 else " ")
    return "".join(out)


def main():
    out_dir = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    os.makedirs(out_dir, exist_ok=True)
    rng = random.Random(20261126)
    vocab = vocabulary(rng)
    cum, total = [], 0.0
    for i in range(len(vocab)):
        total += 1 / (i + 1)
        cum.append(total)
    with open(os.path.join(out_dir, "gt.csv"), "w", encoding="utf-8") as g, \
            open(os.path.join(out_dir, "pred.csv"), "w", encoding="utf-8") as p:
        g.write("id,text\n")
        p.write("id,text\n")
        for i in range(n):
            ref = line(rng, vocab, cum)
            hyp = recognise(rng, ref)
            key = f"p{i // 30:06d}_l{i % 30:02d}"
            g.write(f"{key},{ref}\n")
            p.write(f"{key},{hyp}\n")


if __name__ == "__main__":
    main()
