#!/usr/bin/env python3
"""Cuts a small, self-consistent dictionary out of convert.py's tables: the given words with their parse lists,
a few prediction suffixes per paradigm prefix, and only the paradigms, suffixes and tags these reference (ids
renumbered). `dropscore lemma-build` packs it like the full one. Used for tests/data/lemma/mini (a unit test
that needs no 12 MB asset) and as the seed of the `lemma_asset` fuzz target.

Usage: python3 tools/lemmas/mini.py SRC_DIR OUT_DIR WORDS_FILE
  SRC_DIR     convert.py's output
  OUT_DIR     written: the same files as convert.py, plus expected.tsv ("word<TAB>pymorphy3 normal form",
              for the dictionary words, whose normal form the small dictionary gives exactly as the full one)
  WORDS_FILE  one word a line (words outside the dictionary are left out)
"""
import os
import sys

PREDICTIONS = (24, 8, 4)  # prediction suffixes kept per paradigm prefix ("", "по", "наи")
MAX_FORMS = 60  # paradigms with more forms are not taken for predictions


def lines(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def records(row, sep):
    return [tuple(int(x) for x in r.split(",")) for r in row.split(sep) if r]


def main():
    src, out, words_file = sys.argv[1:4]
    wanted = [w for w in lines(words_file) if w]
    wanted_set = set(wanted)
    words = {}
    with open(os.path.join(src, "words.txt"), encoding="utf-8") as f:
        for line in f:
            k, v = line.rstrip("\n").split("\t")
            if k in wanted_set:
                words[k] = int(v)
    raw = {}
    for line in lines(os.path.join(src, "raw_lists.txt")):
        k, v = line.split("\t")
        if k in words:
            raw[k] = int(v)
    paradigms = [records(r, " ") for r in lines(os.path.join(src, "paradigms.txt"))]
    lists = lines(os.path.join(src, "lists.txt"))
    plists = lines(os.path.join(src, "plists.txt"))

    list_ids = sorted(set(words.values()) | set(raw.values()))
    paras = {p for lid in list_ids for (p, _, _) in records(lists[lid], ";")}
    preds = []
    for n, keep in enumerate(PREDICTIONS):
        taken = []
        for line in lines(os.path.join(src, f"pred{n}.txt")):
            suffix, pid = line.split("\t")
            entries = records(plists[int(pid)], ";")
            if all(len(paradigms[p]) <= MAX_FORMS for (_, _, p, _) in entries):
                taken.append((suffix, int(pid)))
            if len(taken) == keep:
                break
        preds.append(taken)
    plist_ids = sorted({pid for taken in preds for _, pid in taken})
    paras |= {p for pid in plist_ids for (_, _, p, _) in records(plists[pid], ";")}

    para_ids = sorted(paras)
    suffix_ids = sorted({s for p in para_ids for (s, _, _) in paradigms[p]})
    tags = lines(os.path.join(src, "tags.txt"))
    shape = list(range(len(tags) - 7, len(tags)))  # the 7 shape tags stay last
    tag_ids = sorted({t for p in para_ids for (_, t, _) in paradigms[p]} - set(shape)) + shape
    new_para = {old: i for i, old in enumerate(para_ids)}
    new_suffix = {old: i for i, old in enumerate(suffix_ids)}
    new_tag = {old: i for i, old in enumerate(tag_ids)}
    new_list = {old: i for i, old in enumerate(list_ids)}
    new_plist = {old: i for i, old in enumerate(plist_ids)}
    suffixes = lines(os.path.join(src, "suffixes.txt"))

    def write(name, rows):
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write("".join(r + "\n" for r in rows))

    os.makedirs(out, exist_ok=True)
    write("meta.txt", lines(os.path.join(src, "meta.txt")) + ["mini: tools/lemmas/mini.py"])
    write("prefixes.txt", lines(os.path.join(src, "prefixes.txt")))
    write("suffixes.txt", [suffixes[s] for s in suffix_ids])
    write("paradigms.txt", [" ".join(f"{new_suffix[s]},{new_tag[t]},{x}" for (s, t, x) in paradigms[p])
                            for p in para_ids])
    write("tags.txt", [tags[t] for t in tag_ids])
    write("lists.txt", [";".join(f"{new_para[p]},{i},{m}" for (p, i, m) in records(lists[lid], ";"))
                        for lid in list_ids])
    key = lambda kv: kv[0].encode("utf-8")  # noqa: E731
    write("words.txt", [f"{k}\t{new_list[v]}" for k, v in sorted(words.items(), key=key)])
    write("raw_lists.txt", [f"{k}\t{new_list[v]}" for k, v in sorted(raw.items(), key=key)])
    write("plists.txt", [";".join(f"{m},{c},{new_para[p]},{i}" for (m, c, p, i) in records(plists[pid], ";"))
                         for pid in plist_ids])
    for n, taken in enumerate(preds):
        write(f"pred{n}.txt", [f"{s}\t{new_plist[pid]}" for s, pid in sorted(taken, key=key)])
    for name in ("known_prefixes.txt", "particles.txt", "unicode.txt", "overrides.txt"):
        write(name, lines(os.path.join(src, name)))

    import pymorphy3
    morph = pymorphy3.MorphAnalyzer()
    write("expected.tsv", [f"{w}\t{morph.parse(w)[0].normal_form}" for w in wanted if w in words])
    print(f"mini: {len(words)} words, {len(list_ids)} lists, {len(para_ids)} paradigms, "
          f"{len(suffix_ids)} suffixes, {len(tag_ids)} tags, {len(plist_ids)} prediction lists", file=sys.stderr)


if __name__ == "__main__":
    main()
