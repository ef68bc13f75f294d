#!/usr/bin/env python3
"""Writes tests/data/aij2022/lemmas.tsv: pymorphy3's first-parse normal form of every word form the aij2022 test
inputs lemmatise (TextQA/MathQA words after lower-casing and punctuation removal; VQA whole strings, as the
contest's calc_meteor.py passes them to pymorphy). pymorphy3 2.0.6 + pymorphy3-dicts-ru 2.4.417150 stand in for
pymorphy2 0.9.1 (docs/specs/aij2022.md 3.9). Usage: python3 tests/reference/aij2022_lemmas.py [extra.json ...]"""
import json, string, sys, pathlib, re
import pymorphy3

here = pathlib.Path(__file__).resolve().parents[1] / "data" / "aij2022"
morph = pymorphy3.MorphAnalyzer()
P = set(string.punctuation)
forms = set()

def texts(path):
    d = json.loads(path.read_text(encoding="utf-8"))
    for v in d.values():
        for el in (v if isinstance(v, list) else [v]):
            c = el.get("content")
            for s in (c if isinstance(c, list) else [c]):
                if isinstance(s, str):
                    yield s

cyr = re.compile("[\u0400-\u052f]")
for name in ["textqa", "mathqa"] + sys.argv[1:]:
    files = [here / f"{name}_gt.json", here / f"{name}_pred.json"] if not name.endswith(".json") else [pathlib.Path(name)]
    for f in files:
        for s in texts(f):
            for keep in ("", "-"):
                t = "".join(ch for ch in s.lower() if ch not in P or ch in keep)
                forms.update(w for w in t.split() if cyr.search(w))
for f in [here / "vqa_gt.json", here / "vqa_pred.json"]:
    for s in texts(f):
        t = "".join(ch for ch in s if ch not in P).lower()
        if cyr.search(t):
            forms.add(t)
            forms.update(w for w in t.split() if cyr.search(w))
with open(here / "lemmas.tsv", "w", encoding="utf-8") as out:
    for w in sorted(forms):
        out.write(f"{w}\t{morph.parse(w)[0].normal_form}\n")
print(f"{len(forms)} forms written to {here / 'lemmas.tsv'}")
