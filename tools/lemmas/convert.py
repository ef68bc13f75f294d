#!/usr/bin/env python3
"""Converts pymorphy3's Russian dictionary (package pymorphy3-dicts-ru, OpenCorpora data) into the plain
tables that `dropscore lemma-build` packs into the lemmatiser asset (src/lemma/asset.rs describes the format).

Usage: python3 tools/lemmas/convert.py OUT_DIR

Written to OUT_DIR (all UTF-8, one record a line):
  meta.txt        versions of the source packages
  prefixes.txt    paradigm prefixes ("", "по", "наи")
  suffixes.txt    paradigm suffixes
  paradigms.txt   per paradigm: "suffix_id,tag_id,prefix_id" per form, space-separated (form 0 = normal form)
  tags.txt        per tag id: "flags features" (see tag_row); dictionary tags, then the shape tags
  lists.txt       per list id: the dictionary parses of one query word, in pymorphy's final order:
                  "para,idx,mask" separated by ';' (mask: bit i = the i-th character is 'е' in the query
                  and 'ё' in the dictionary word, pymorphy's е → ё substitution)
  words.txt       "word<TAB>list_id", sorted by UTF-8 bytes: every dictionary form and every е-spelling of
                  a form written with ё
  raw_lists.txt   "word<TAB>list_id": the dictionary-order list of the words whose order P(t|w) changed
  predN.txt       prediction suffixes for paradigm prefix N: "suffix<TAB>plist_id", sorted by UTF-8 bytes
  plists.txt      per plist id: "mask,count,para,idx" separated by ';'
  overrides.txt   "word<TAB>normal form" for the words outside the dictionary that P(t|w) knows (MorphAnalyzer
                  re-orders their predicted parses by corpus probability), as pymorphy3 gives them
  known_prefixes.txt, particles.txt   pymorphy3.lang.ru.KNOWN_PREFIXES, PARTICLES_AFTER_HYPHEN
  unicode.txt     code point ranges "class first last" (hex) for the shape analyzers: P (category P*),
                  A (str.isalpha), L (alphabetic with LATIN in its name), S (str.isspace), D (str.isdecimal)

Order matters everywhere: it is the order in which pymorphy3 (with its default pure-Python DAWG reader)
produces the parses, including the P(t|w) re-ordering of MorphAnalyzer.parse.
"""
import importlib
import itertools
import os
import sys

# Iterate the big DAWGs with the C extension (dawg2), but make pymorphy3 itself use DAWG2-Python, its
# default reader, so that the similar_items order below is the one a default install produces.
dawg_c = importlib.import_module("dawg")
sys.modules["dawg"] = None  # pymorphy3.dawg falls back to dawg_python
import dawg_python  # noqa: E402
import pymorphy3  # noqa: E402
import pymorphy3_dicts_ru  # noqa: E402
from importlib.metadata import version  # noqa: E402

YO, YE = "ё", "е"


def variants(word):
    """Every spelling of `word` with a non-empty subset of its ё written as е."""
    pos = [i for i, ch in enumerate(word) if ch == YO]
    out = []
    for r in range(1, len(pos) + 1):
        for sub in itertools.combinations(pos, r):
            chars = list(word)
            for i in sub:
                chars[i] = YE
            out.append("".join(chars))
    return out


def mask_of(query, fixed):
    m = 0
    for i, (a, b) in enumerate(zip(query, fixed)):
        if a != b:
            assert a == YE and b == YO, (query, fixed)
            m |= 1 << i
    return m


def utf8_key(s):
    return s.encode("utf-8")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    path = pymorphy3_dicts_ru.get_path()
    morph = pymorphy3.MorphAnalyzer()
    assert not pymorphy3.dawg.EXTENSION_AVAILABLE
    d = morph.dictionary
    Tag = d.Tag
    replaces = morph.char_substitutes

    def w(name, lines):
        with open(os.path.join(out, name), "w", encoding="utf-8", newline="\n") as f:
            for line in lines:
                f.write(line)
                f.write("\n")

    w("meta.txt", [
        f"pymorphy3 {version('pymorphy3')}",
        f"pymorphy3-dicts-ru {version('pymorphy3-dicts-ru')}",
        f"source opencorpora.org revision {d.meta.get('source_revision')}",
    ])
    w("prefixes.txt", d.paradigm_prefixes)
    for s in d.suffixes:
        assert "\n" not in s
    w("suffixes.txt", d.suffixes)

    paradigm_lines = []
    for para in d.paradigms:
        n = len(para) // 3
        paradigm_lines.append(" ".join(f"{para[i]},{para[n + i]},{para[2 * n + i]}" for i in range(n)))
    w("paradigms.txt", paradigm_lines)

    # --- tags: flags bit0 productive, bit1 unknown POS, bit2 has {ADJF, sing, datv}; features = bitmask of
    # (grammemes & (POS | numbers | cases | persons | tenses)) with gen1 -> gent, loc1 -> loct.
    feature_grammemes = sorted(Tag.PARTS_OF_SPEECH | Tag.NUMBERS | Tag.CASES | Tag.PERSONS | Tag.TENSES)
    bit = {g: i for i, g in enumerate(feature_grammemes)}
    assert len(bit) < 64

    def tag_row(tag):
        flags = (1 if tag.is_productive() else 0) | (2 if tag._is_unknown() else 0)
        flags |= 4 if {"ADJF", "sing", "datv"} in tag else 0
        feats = set(tag.grammemes) & set(feature_grammemes)
        for a, b in (("gen1", "gent"), ("loc1", "loct")):
            if a in feats:
                feats.discard(a)
                feats.add(b)
        return f"{flags} {sum(1 << bit[g] for g in feats)}"

    shape_tags = ["NUMB,intg", "NUMB,real", "PNCT", "ROMN", "LATN", "ADVB", "UNKN"]
    for t in shape_tags:  # registered by the analyzer units at MorphAnalyzer() time
        Tag(t)
    w("tags.txt", [tag_row(t) for t in d.gramtab] + [tag_row(Tag(t)) for t in shape_tags])

    # --- words
    words_c = dawg_c.RecordDAWG(">HH")
    words_c.load(os.path.join(path, "words.dawg"))
    entries = {}
    for key, (para, idx) in words_c.iteritems():
        entries.setdefault(key, []).append((para, idx, 0))
    print(f"convert: {len(entries)} dictionary forms", file=sys.stderr)

    words_py = d.words  # dawg_python RecordDAWG, pymorphy3's own reader
    ambiguous = set()
    for key in entries:
        if YO in key:
            ambiguous.update(variants(key))
    for q in ambiguous:
        lst = []
        for fixed, values in words_py.similar_items(q, replaces):
            m = mask_of(q, fixed)
            lst.extend((para, idx, m) for para, idx in values)
        entries[q] = lst
    print(f"convert: {len(ambiguous)} е-spellings of ё forms", file=sys.stderr)

    # P(t|w) re-ordering (MorphAnalyzer.parse with its ProbabilityEstimator): stable sort by probability.
    cpd_c = dawg_c.IntCompletionDAWG()
    cpd_c.load(os.path.join(path, "p_t_given_w.intdawg"))
    prob_words = {k.rsplit(":", 1)[0] for k in cpd_c.keys()}
    cpd = morph.prob_estimator.p_t_given_w
    reordered = 0
    raw_order = {}  # word -> dictionary-order list, where P(t|w) changed it (UnknownPrefixAnalyzer reads it)
    for word in prob_words:
        lst = entries.get(word)
        if not lst:
            continue
        probs = [cpd.prob(word, d.build_tag_info(para, idx)) for para, idx, _ in lst]
        if sum(probs) == 0:
            continue
        order = sorted(range(len(lst)), key=lambda i: probs[i], reverse=True)
        if order != list(range(len(lst))):
            reordered += 1
            raw_order[word] = lst
        entries[word] = [lst[i] for i in order]
    print(f"convert: {len(prob_words)} P(t|w) words, {reordered} re-ordered", file=sys.stderr)
    overrides = []
    for word in sorted(prob_words, key=utf8_key):
        if word not in entries and "\n" not in word and "\t" not in word:
            overrides.append(f"{word}\t{morph.parse(word)[0].normal_form}")
    w("overrides.txt", overrides)
    print(f"convert: {len(overrides)} P(t|w) words outside the dictionary", file=sys.stderr)

    list_ids = {}
    list_lines = []
    word_lines = []
    for key in sorted(entries, key=utf8_key):
        assert "\t" not in key and "\n" not in key
        lst = tuple(entries[key])
        lid = list_ids.get(lst)
        if lid is None:
            lid = list_ids[lst] = len(list_lines)
            list_lines.append(";".join(f"{p},{i},{m}" for p, i, m in lst))
        word_lines.append(f"{key}\t{lid}")
    raw_lines = []
    for key in sorted(raw_order, key=utf8_key):
        lst = tuple(raw_order[key])
        lid = list_ids.get(lst)
        if lid is None:
            lid = list_ids[lst] = len(list_lines)
            list_lines.append(";".join(f"{p},{i},{m}" for p, i, m in lst))
        raw_lines.append(f"{key}\t{lid}")
    w("lists.txt", list_lines)
    w("words.txt", word_lines)
    w("raw_lists.txt", raw_lines)
    print(f"convert: {len(word_lines)} keys, {len(list_lines)} distinct parse lists", file=sys.stderr)

    # --- prediction suffixes
    plist_ids = {}
    plist_lines = []
    for n, pdawg in enumerate(d.prediction_suffixes_dawgs):
        pc = dawg_c.RecordDAWG(">IHH")
        pc.load(os.path.join(path, f"prediction-suffixes-{n}.dawg"))
        pent = {}
        for key, (cnt, para, idx) in pc.iteritems():
            pent.setdefault(key, []).append((0, cnt, para, idx))
        amb = set()
        for key in pent:
            if YO in key:
                amb.update(variants(key))
        for q in amb:
            lst = []
            for fixed, values in pdawg.similar_items(q, replaces):
                m = mask_of(q, fixed)
                lst.extend((m, cnt, para, idx) for cnt, para, idx in values)
            pent[q] = lst
        lines = []
        for key in sorted(pent, key=utf8_key):
            lst = tuple(pent[key])
            pid = plist_ids.get(lst)
            if pid is None:
                pid = plist_ids[lst] = len(plist_lines)
                plist_lines.append(";".join(f"{m},{c},{p},{i}" for m, c, p, i in lst))
            lines.append(f"{key}\t{pid}")
        w(f"pred{n}.txt", lines)
        print(f"convert: prediction suffixes {n}: {len(lines)} keys", file=sys.stderr)
    w("plists.txt", plist_lines)

    from pymorphy3.lang import ru
    w("known_prefixes.txt", ru.KNOWN_PREFIXES)
    w("particles.txt", ru.PARTICLES_AFTER_HYPHEN)
    import unicodedata

    def is_latin_char(c):  # pymorphy3.shapes.is_latin_char, which raises for an unnamed character
        return "LATIN" in unicodedata.name(c, "")
    classes = {
        "P": lambda c: unicodedata.category(c)[0] == "P",
        "A": str.isalpha,
        "L": lambda c: c.isalpha() and is_latin_char(c),
        "S": str.isspace,
        "D": str.isdecimal,
    }
    rows = [f"version {unicodedata.unidata_version}"]
    for name, test in classes.items():
        start = None
        for cp in range(0x110001):
            hit = cp < 0x110000 and test(chr(cp))
            if hit and start is None:
                start = cp
            elif not hit and start is not None:
                rows.append(f"{name} {start:x} {cp - 1:x}")
                start = None
    w("unicode.txt", rows)


if __name__ == "__main__":
    main()
