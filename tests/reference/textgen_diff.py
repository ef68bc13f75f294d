#!/usr/bin/env python3
"""dropscore's sacreBLEU and rouge-score functions (src/metrics/sacrebleu, src/metrics/rouge) against the pinned
packages (tests/reference/requirements-textgen.txt: sacrebleu 2.6.0, rouge-score 0.1.2 with nltk 3.7), on random
corpora, through the test entry point tests/textgen.rs (`cargo test --release --test suite -- textgen::diff_cases` with
TEXTGEN_CASES / TEXTGEN_OUT).

Groups (N cases each, 1,000 by default; a case is a corpus of 1 to 8 segments):
- tok:   the 13a, intl, zh, char and none tokenizers on single lines (N lines each), token strings equal;
- bleu:  BLEU(tokenize=13a|intl|zh|char|none, lowercase, smooth_method=exp|floor|add-k|none, smooth_value,
         effective_order).corpus_score: score, bp, precisions, counts, totals, lengths, signature;
- chrf:  CHRF(word_order=0|2, lowercase, whitespace, eps_smoothing): score, name, signature;
- ter:   TER(case_sensitive): score, edits, reference length, signature;
- rouge: RougeScorer([rouge1, rouge2, rougeL, rougeLsum], use_stemmer).score_multi per item and the mean of
         each value over items (`sum(values) / len(values)`). dropscore's count of items whose letters the
         tokenizer drops is its own warning, not the library's, so it is checked by tests/textgen.rs, not here.
Texts mix ASCII words from a small vocabulary (so n-grams match), punctuation and numbers ("3.5", "1,000",
"3-4"), XML entities and `<skipped>`, combining marks, CJK (and the code points sacreBLEU's zh ranges get
wrong), emoji with ZWJ and skin tones, Hebrew and Arabic with RLM, zero-width characters, Unicode punctuation,
symbols and digits, every kind of whitespace (tabs, newlines, NBSP, U+2028, U+001C), İ, Σ, ẞ, Cyrillic, and
random code points of every plane; empty and whitespace-only strings on either side, several references per
segment (a variable number: nrefs:var), hypotheses made from a reference by deleting, inserting, substituting
and moving blocks of words (TER's shifts), and lines of 10,000 characters.

Every number is compared to 1e-12 (absolute), counts and signature strings exactly. Also checks that
src/metrics/sacrebleu/intl_tables.rs equals the tables of the installed `regex` (textgen_intl_tables.py).
Usage: python3 tests/reference/textgen_diff.py [N] [SEED]. Exit status 1 on any difference.
"""
import json, os, random, subprocess, sys, tempfile

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.metrics.bleu import _get_tokenizer
from rouge_score import rouge_scorer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import textgen_intl_tables  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20261126)
assert sacrebleu.__version__ == "2.6.0", sacrebleu.__version__

VOCAB = ("the a dog man bit bitten had just him first was not it wasn't surprising unexpected no one "
         "running runs ran happily generously relational caresses ponies agreed sky skies dying news").split()
PUNCT = list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") + ["...", "--", "'s", "&amp;", "&quot;", "&lt;", "&gt;",
                                                       "&amp;quot;", "<skipped>", "-\n"]
NUMBERS = ["3.5", "1,000", "3-4", "2024.", "10,", ".5", "0-", "1.2.3", "٣٫٥", "²", "½", "Ⅻ", "１２"]
UNI = [
    "e\u0301", "a\u0308\u0323", "\u0301",  # combining marks
    "中文", "漢字", "\u3400", "\u9fa5", "\u9fbc", "\uf900", "\u2000", "\u2001", "\u2a6d", "\u2a6e", "\u2f80",
    "\u2f81", "\u2fa1", "\U00020000", "\U0002f800", "、", "。", "「", "」", "ｆｕｌｌ", "ｶﾀｶﾅ", "한국어", "ひらがな",
    "😀", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "☃", "✓",  # emoji
    "שלום", "مرحبا", "\u200f", "\u200e", "\u202b",  # RTL
    "\u200b", "\u200c", "\u200d", "\ufeff", "\u2060",  # zero-width
    "«", "»", "„", "“", "”", "…", "–", "—", "¿", "¡", "·", "‰", "§",  # punctuation
    "€", "£", "©", "®", "™", "°", "±", "×", "÷", "∑", "^", "`",  # symbols
    "İ", "Σ", "ΣΑΣ", "ẞ", "ß", "K", "Ǆ", "Привет", "мир", "Ελληνικά", "naïve", "café", "ﬁ",
]
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u3000", "\u2028",
          "\u2029", "\u1680", "\u2009", "\u202f"]


def random_char():
    while True:
        cp = rng.choice([rng.randrange(0x80, 0x800), rng.randrange(0x800, 0x10000), rng.randrange(0x10000, 0x110000)])
        if not 0xD800 <= cp < 0xE000:
            return chr(cp)


def word():
    r = rng.random()
    if r < 0.55:
        w = rng.choice(VOCAB)
        return w.capitalize() if rng.random() < 0.15 else w
    if r < 0.7:
        return rng.choice(PUNCT)
    if r < 0.78:
        return rng.choice(NUMBERS)
    if r < 0.95:
        return rng.choice(UNI)
    return "".join(random_char() for _ in range(rng.randint(1, 3)))


def join(words):
    out = []
    for w in words:
        if out:
            out.append(rng.choice(SPACES) if rng.random() < 0.2 else ("" if rng.random() < 0.1 else " "))
        out.append(w)
    s = "".join(out)
    if rng.random() < 0.1:
        s = rng.choice(SPACES) + s
    if rng.random() < 0.15:
        s = s + rng.choice(SPACES)
    return s


def mutate(words):
    """A hypothesis from a reference: deletions, insertions, substitutions and block moves."""
    w = list(words)
    for _ in range(rng.randint(0, 4)):
        op = rng.random()
        if op < 0.25 and w:
            del w[rng.randrange(len(w))]
        elif op < 0.5:
            w.insert(rng.randint(0, len(w)), word())
        elif op < 0.7 and w:
            w[rng.randrange(len(w))] = word()
        elif w:
            a = rng.randrange(len(w))
            b = min(len(w), a + rng.randint(1, 6))
            block, rest = w[a:b], w[:a] + w[b:]
            t = rng.randint(0, len(rest))
            w = rest[:t] + block + rest[t:]
    return w


def segment(max_words, long_line=False):
    """(hypothesis, references) of one segment."""
    if long_line:
        # 10,000 characters in about 110 long words (TER stays affordable for the Python reference).
        base = ["".join(rng.choice(VOCAB) for _ in range(rng.randint(10, 20))) for _ in range(110)]
        base = [w + rng.choice(["", ".", ",", "😀", "中"]) for w in base]
        base[-1] += "x" * max(0, 10_000 - len(" ".join(base)))
    else:
        base = [word() for _ in range(rng.randint(0, max_words))]
    refs = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        r = rng.random()
        refs.append("" if r < 0.05 else rng.choice(SPACES) if r < 0.08 else join(mutate(base)))
    r = rng.random()
    hyp = "" if r < 0.05 else rng.choice(SPACES) if r < 0.08 else join(mutate(base))
    return hyp, refs


def corpus(max_words=25):
    segs = [segment(max_words, long_line=rng.random() < 0.01) for _ in range(rng.randint(1, 8))]
    return [h for h, _ in segs], [r for _, r in segs]


def streams(refs):
    """Per-segment reference lists as sacreBLEU's reference streams (None where a segment has fewer)."""
    k = max(len(r) for r in refs)
    return [[r[i] if i < len(r) else None for r in refs] for i in range(k)]


def bleu_case():
    hyps, refs = corpus()
    smooth = rng.choice(["exp", "exp", "floor", "add-k", "none"])
    value = rng.choice([None, None, 0.5, 2.0]) if smooth in ("floor", "add-k") else None
    opts = {"tokenize": rng.choice(["13a", "13a", "intl", "zh", "char", "none"]), "lowercase": rng.random() < 0.3,
            "smooth": smooth, "smooth_value": value, "effective_order": rng.random() < 0.2}
    m = BLEU(tokenize=opts["tokenize"], lowercase=opts["lowercase"], smooth_method=smooth, smooth_value=value,
             effective_order=opts["effective_order"])
    s = m.corpus_score(hyps, streams(refs))
    counts = s.counts if smooth != "add-k" else None  # sacreBLEU shows them after adding k
    want = {"score": s.score, "bp": s.bp, "precisions": s.precisions, "sys_len": s.sys_len, "ref_len": s.ref_len,
            "signature": str(m.get_signature())}
    if counts is not None:
        want["counts"], want["totals"] = counts, s.totals
    return {"kind": "bleu", "hyps": hyps, "refs": refs, "opts": opts}, want


def chrf_case():
    hyps, refs = corpus()
    opts = {"word_order": rng.choice([0, 2]), "lowercase": rng.random() < 0.2, "whitespace": rng.random() < 0.2,
            "eps_smoothing": rng.random() < 0.2}
    m = CHRF(**opts)
    s = m.corpus_score(hyps, streams(refs))
    return ({"kind": "chrf", "hyps": hyps, "refs": refs, "opts": opts},
            {"score": s.score, "name": s.name, "signature": str(m.get_signature())})


def ter_case():
    hyps, refs = corpus(max_words=30)
    opts = {"case_sensitive": rng.random() < 0.3}
    m = TER(**opts)
    s = m.corpus_score(hyps, streams(refs))
    return ({"kind": "ter", "hyps": hyps, "refs": refs, "opts": opts},
            {"score": s.score, "num_edits": s.num_edits, "ref_length": s.ref_length,
             "signature": str(m.get_signature())})


def rouge_case():
    hyps, refs = corpus()
    opts = {"types": ["rouge1", "rouge2", "rougeL", "rougeLsum"], "stem": rng.random() < 0.5}
    sc = rouge_scorer.RougeScorer(opts["types"], use_stemmer=opts["stem"])
    items = []
    for h, rs in zip(hyps, refs):
        s = sc.score_multi(rs, h)
        items.append([[s[t].precision, s[t].recall, s[t].fmeasure] for t in opts["types"]])
    means = [[sum(it[k][j] for it in items) / len(items) for j in range(3)] for k in range(len(opts["types"]))]
    return {"kind": "rouge", "hyps": hyps, "refs": refs, "opts": opts}, {"means": means, "items": items}


def tok_cases():
    out = []
    for name in ["13a", "intl", "zh", "char", "none"]:
        tok = _get_tokenizer(name)()
        lines = [corpus()[0][0] for _ in range(N)]
        out.append(({"kind": "tok", "hyps": lines, "opts": {"tokenize": name}}, {"tokens": [tok(x) for x in lines]}))
    for name in ["ja-mecab", "ko-mecab", "flores101", "flores200", "spm"]:
        out.append(({"kind": "tok", "hyps": [], "opts": {"tokenize": name}}, {"refused": True}))
    return out


def differ(got, want, path=""):
    """The first difference between the Rust result and the reference's, or None."""
    if isinstance(want, bool) or isinstance(want, str) or want is None:
        return None if got == want else f"{path}: {got!r} != {want!r}"
    if isinstance(want, (int, float)):
        if not isinstance(got, (int, float)) or abs(got - want) > 1e-12:
            return f"{path}: {got!r} != {want!r}"
        return None
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return f"{path}: length {got!r} != {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            d = differ(g, w, f"{path}[{i}]")
            if d:
                return d
        return None
    for k, w in want.items():
        d = differ(got.get(k) if isinstance(got, dict) else None, w, f"{path}.{k}")
        if d:
            return d
    return None


def main():
    tables = textgen_intl_tables.render()
    with open(textgen_intl_tables.OUT, encoding="utf-8") as f:
        if f.read() != tables:
            sys.exit("textgen_diff: src/metrics/sacrebleu/intl_tables.rs differs from the installed regex's tables")
    cases = tok_cases()
    for make in (bleu_case, chrf_case, ter_case, rouge_case):
        cases += [make() for _ in range(N)]
    with tempfile.TemporaryDirectory() as tmp:
        cin, cout = os.path.join(tmp, "cases.json"), os.path.join(tmp, "out.json")
        with open(cin, "w", encoding="utf-8") as f:
            json.dump([c for c, _ in cases], f)
        env = dict(os.environ, TEXTGEN_CASES=cin, TEXTGEN_OUT=cout)
        subprocess.run(["cargo", "test", "--quiet", "--release", "--test", "suite", "--", "textgen::diff_cases"],
                       cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        with open(cout, encoding="utf-8") as f:
            got = json.load(f)
    counts, failures = {}, {}
    for (case, want), g in zip(cases, got):
        kind = case["kind"]
        counts[kind] = counts.get(kind, 0) + 1
        if want.get("refused"):
            d = None if "model file" in g.get("error", "") else f"not refused: {g!r}"
        else:
            d = differ(g, want)
        if d:
            failures.setdefault(kind, []).append((case, d))
    bad = 0
    for kind, n in counts.items():
        f = failures.get(kind, [])
        bad += len(f)
        print(f"textgen {kind}: {n} cases, {len(f)} differences")
        for case, d in f[:3]:
            print("   ", d, "\n     case:", json.dumps(case, ensure_ascii=True)[:600])
    print(f"{sum(counts.values()) - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
