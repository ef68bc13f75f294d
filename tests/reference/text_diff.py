#!/usr/bin/env python3
"""Differential test of dropscore `text` (docs/specs/text.md section 2) against its pinned references
(tests/reference/requirements-text.txt): jiwer 4.0.0 (cer, wer, mer, wil, wip corpus-level; each pair's
process_characters / process_words for the per-item rates and edit counts, cer_mean, wer_mean), PyPI anls 0.0.2
(anls_score, several references), and the published formulas transcribed below: ICDAR 2019 ReCTS / ArT 1-N.E.D.,
SQuAD's evaluate-v1.1.py and evaluate-v2.0.py, Kaggle Tweet Sentiment Extraction's jaccard.

Random cases per metric group (at least --cases items each): Unicode with combining marks, CJK, emoji,
right-to-left and zero-width characters, empty strings on either side, whitespace runs, tabs and newlines,
several references, and a few 10,000-character lines. Every value must agree to 1e-12 (absolute), counts exactly.

Usage: python3 tests/reference/text_diff.py [--cases N] [--seed S] [--bin target/release/dropscore]
"""

import argparse
import collections
import json
import os
import random
import re
import string
import subprocess
import sys
import tempfile

import jiwer
from anls import anls_score
from rapidfuzz.distance import Levenshtein

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOL = 1e-12

# ---- the SQuAD scripts, transcribed -------------------------------------------------------------------------
# From evaluate-v1.1.py and evaluate-v2.0.py as published with SQuAD (rajpurkar.github.io/SQuAD-explorer, the
# "Evaluation Script v1.1" and "v2.0" links); only the file reading and printing are left out.


def squad_normalize_answer(s):
    """Lower text and remove punctuation, articles and extra whitespace (both scripts)."""

    def remove_articles(text):
        regex = re.compile(r"\b(a|an|the)\b", re.UNICODE)
        return re.sub(regex, " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def v1_f1_score(prediction, ground_truth):
    prediction_tokens = squad_normalize_answer(prediction).split()
    ground_truth_tokens = squad_normalize_answer(ground_truth).split()
    common = collections.Counter(prediction_tokens) & collections.Counter(ground_truth_tokens)
    num_same = sum(common.values())
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(prediction_tokens)
    recall = 1.0 * num_same / len(ground_truth_tokens)
    f1 = (2 * precision * recall) / (precision + recall)
    return f1


def v1_exact_match_score(prediction, ground_truth):
    return squad_normalize_answer(prediction) == squad_normalize_answer(ground_truth)


def v1_metric_max_over_ground_truths(metric_fn, prediction, ground_truths):
    scores_for_ground_truths = []
    for ground_truth in ground_truths:
        score = metric_fn(prediction, ground_truth)
        scores_for_ground_truths.append(score)
    return max(scores_for_ground_truths)


def v1_evaluate(dataset, predictions):
    f1 = exact_match = total = 0
    for article in dataset:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                total += 1
                if qa["id"] not in predictions:
                    continue
                ground_truths = list(map(lambda x: x["text"], qa["answers"]))
                prediction = predictions[qa["id"]]
                exact_match += v1_metric_max_over_ground_truths(v1_exact_match_score, prediction, ground_truths)
                f1 += v1_metric_max_over_ground_truths(v1_f1_score, prediction, ground_truths)
    exact_match = 100.0 * exact_match / total
    f1 = 100.0 * f1 / total
    return {"exact_match": exact_match, "f1": f1}


def v2_get_tokens(s):
    if not s:
        return []
    return squad_normalize_answer(s).split()


def v2_compute_exact(a_gold, a_pred):
    return int(squad_normalize_answer(a_gold) == squad_normalize_answer(a_pred))


def v2_compute_f1(a_gold, a_pred):
    gold_toks = v2_get_tokens(a_gold)
    pred_toks = v2_get_tokens(a_pred)
    common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
    num_same = sum(common.values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        return int(gold_toks == pred_toks)
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    f1 = (2 * precision * recall) / (precision + recall)
    return f1


def v2_get_raw_scores(dataset, preds):
    exact_scores = {}
    f1_scores = {}
    for article in dataset:
        for p in article["paragraphs"]:
            for qa in p["qas"]:
                qid = qa["id"]
                gold_answers = [a["text"] for a in qa["answers"] if squad_normalize_answer(a["text"])]
                if not gold_answers:
                    gold_answers = [""]
                if qid not in preds:
                    continue
                a_pred = preds[qid]
                exact_scores[qid] = max(v2_compute_exact(a, a_pred) for a in gold_answers)
                f1_scores[qid] = max(v2_compute_f1(a, a_pred) for a in gold_answers)
    return exact_scores, f1_scores


def v2_make_eval_dict(exact_scores, f1_scores, qid_list=None):
    if not qid_list:
        total = len(exact_scores)
        return collections.OrderedDict(
            [
                ("exact", 100.0 * sum(exact_scores.values()) / total),
                ("f1", 100.0 * sum(f1_scores.values()) / total),
                ("total", total),
            ]
        )
    total = len(qid_list)
    return collections.OrderedDict(
        [
            ("exact", 100.0 * sum(exact_scores[k] for k in qid_list) / total),
            ("f1", 100.0 * sum(f1_scores[k] for k in qid_list) / total),
            ("total", total),
        ]
    )


def v2_evaluate(dataset, preds):
    """main() of evaluate-v2.0.py without a no-answer probability file (na_probs 0.0, threshold 1.0)."""
    qid_to_has_ans = {}
    for article in dataset:
        for p in article["paragraphs"]:
            for qa in p["qas"]:
                qid_to_has_ans[qa["id"]] = bool(qa["answers"])
    has_ans_qids = [k for k, v in qid_to_has_ans.items() if v]
    no_ans_qids = [k for k, v in qid_to_has_ans.items() if not v]
    exact_raw, f1_raw = v2_get_raw_scores(dataset, preds)
    out = v2_make_eval_dict(exact_raw, f1_raw)
    if has_ans_qids:
        for k, v in v2_make_eval_dict(exact_raw, f1_raw, qid_list=has_ans_qids).items():
            out["HasAns_" + k] = v
    if no_ans_qids:
        for k, v in v2_make_eval_dict(exact_raw, f1_raw, qid_list=no_ans_qids).items():
            out["NoAns_" + k] = v
    return out


# ---- Kaggle Tweet Sentiment Extraction's metric (its evaluation page) and 1-N.E.D. --------------------------


def kaggle_jaccard(str1, str2):
    a = set(str1.lower().split())
    b = set(str2.lower().split())
    c = a.intersection(b)
    return float(len(c)) / (len(a) + len(b) - len(c))


def ned_term(a, b):
    n = max(len(a), len(b))
    return 0.0 if n == 0 else Levenshtein.distance(a, b) / n


# ---- random text ---------------------------------------------------------------------------------------------

ALPHABETS = [
    "abcdefghij klmnop",
    "aeiou bcdfg",
    "AaBbÉéßẞİıΣσς ",
    "e\u0301a\u0300o\u0308 \u0301",  # combining marks
    "漢字仮名カタカナ한국어 ",
    "😀👍🏽👨‍👩‍👧 ",
    "שלום مرحبا \u200f\u200e",
    "ab\u200b\u200c\u200d\ufeffc ",
    " \t\n\r\u00a0\u3000\u2028",
    "the a an The AN cat, dog! (x) _y_",
    ".,;:!?'\"-",
    "0123456789½²",
]


def rand_text(r, long=False):
    if long:
        alpha = r.choice(ALPHABETS[:3])
        return "".join(r.choice(alpha) for _ in range(10000))
    if r.random() < 0.1:
        return ""
    alpha = "".join(r.sample(ALPHABETS, r.randint(1, 3)))
    n = r.choice([1, 2, 3, r.randint(4, 20), r.randint(20, 80)])
    return "".join(r.choice(alpha) for _ in range(n))


def noisy(r, s):
    """A hypothesis: the reference with edits, or unrelated text."""
    if r.random() < 0.1:
        return rand_text(r)
    out = list(s)
    for _ in range(r.randint(0, max(1, len(s) // 5))):
        k = r.randint(0, len(out))
        op = r.random()
        c = r.choice(r.choice(ALPHABETS))
        if op < 0.33 and out:
            out[min(k, len(out) - 1)] = c
        elif op < 0.66:
            out.insert(k, c)
        elif out:
            del out[min(k, len(out) - 1)]
    return "".join(out)


def noisy_long(r, s):
    out = list(s)
    for _ in range(r.randint(1, 1500)):
        k = r.randint(0, len(out) - 1)
        op = r.random()
        if op < 0.4:
            out[k] = r.choice(ALPHABETS[0])
        elif op < 0.7:
            out.insert(k, r.choice(ALPHABETS[0]))
        else:
            del out[k]
    return "".join(out)


# ---- running dropscore ---------------------------------------------------------------------------------------


def run(binary, gt, pred, sets=(), gt_name="gt.json", pred_name="pred.json"):
    with tempfile.TemporaryDirectory() as d:
        g, p = os.path.join(d, gt_name), os.path.join(d, pred_name)
        with open(g, "w", encoding="utf-8") as f:
            json.dump(gt, f, ensure_ascii=False)
        with open(p, "w", encoding="utf-8") as f:
            json.dump(pred, f, ensure_ascii=False)
        cmd = [binary, "text", "--gt", g, "--pred", p, "--format", "json", "-q"]
        for s in sets:
            cmd += ["--set", s]
        out = subprocess.run(cmd, capture_output=True, check=False).stdout
        return json.loads(out)


class Checker:
    def __init__(self):
        self.failures = []
        self.compared = 0

    def eq(self, what, got, want):
        self.compared += 1
        if want is None or got is None:
            ok = got is None and want is None
        else:
            ok = abs(float(got) - float(want)) <= TOL
        if not ok and len(self.failures) < 30:
            self.failures.append(f"{what}: dropscore {got!r}, reference {want!r}")


def jiwer_group(binary, r, batches, per_batch, ck):
    for b in range(batches):
        refs = [rand_text(r) for _ in range(per_batch)]
        hyps = [noisy(r, s) for s in refs]
        if b % 3 == 0:
            refs[0] = rand_text(r, long=True)
            hyps[0] = noisy_long(r, refs[0])
        ids = [f"i{k:05d}" for k in range(per_batch)]
        rep = run(binary, dict(zip(ids, refs)), dict(zip(ids, hyps)))
        s = rep["scores"]
        if not any(jiwer.transformations.wer_default([x])[0] for x in refs):
            pass
        ck.eq(f"batch {b} cer", s.get("cer"), jiwer.cer(refs, hyps))
        w = jiwer.process_words(refs, hyps)
        for m in ["wer", "mer", "wil", "wip"]:
            ck.eq(f"batch {b} {m}", s.get(m), getattr(w, m))
        items = {it["id"]: it["scores"] for it in rep["items"]}
        cm, wm, nl = [], [], []
        for k, (x, y) in enumerate(zip(refs, hyps)):
            it = items.get(ids[k], {})
            pc = jiwer.process_characters(x, y)
            pw = jiwer.process_words(x, y)
            cm.append(pc.cer)
            wm.append(pw.wer)
            nl.append(ned_term(x, y))
            ck.eq(f"batch {b} item {k} cer", it.get("cer"), pc.cer)
            ck.eq(f"batch {b} item {k} wer", it.get("wer"), pw.wer)
            for lvl, o in [("char", pc), ("word", pw)]:
                for f in ["hits", "substitutions", "deletions", "insertions"]:
                    ck.eq(f"batch {b} item {k} {lvl}_{f}", it.get(f"{lvl}_{f}"), getattr(o, f))
            ck.eq(f"batch {b} item {k} ned", it.get("ned"), 1.0 - ned_term(x, y))
            a, bb = set(x.lower().split()), set(y.lower().split())
            want = kaggle_jaccard(x, y) if (a or bb) else None
            ck.eq(f"batch {b} item {k} jaccard", it.get("jaccard"), want)
        ck.eq(f"batch {b} cer_mean", s.get("cer_mean"), sum(cm) / len(cm))
        ck.eq(f"batch {b} wer_mean", s.get("wer_mean"), sum(wm) / len(wm))
        ck.eq(f"batch {b} ned", s.get("ned"), 1.0 - sum(nl) / len(nl))


def anls_group(binary, r, batches, per_batch, ck):
    for b in range(batches):
        ids = [f"q{k:05d}" for k in range(per_batch)]
        refs = [[rand_text(r) for _ in range(r.randint(1, 4))] for _ in ids]
        hyps = [noisy(r, rs[0]) if r.random() < 0.8 else rand_text(r) for rs in refs]
        tau = r.choice([0.5, 0.5, 0.3, 1.0])
        rep = run(binary, dict(zip(ids, refs)), dict(zip(ids, hyps)), sets=[f"anls_threshold={tau}", "metric=anls"])
        items = {it["id"]: it["scores"] for it in rep["items"]}
        want = [anls_score(h, rs, tau) for h, rs in zip(hyps, refs)]
        for k, i in enumerate(ids):
            ck.eq(f"anls batch {b} item {k}", items.get(i, {}).get("anls"), want[k])
        ck.eq(f"anls batch {b}", rep["scores"].get("anls"), sum(want) / len(want))
        # SQuAD v2.0's per-question functions outside the squad layout (the json layout's exact_match and f1).
        em = [max(v2_compute_exact(a, h) for a in ([x for x in rs if squad_normalize_answer(x)] or [""])) for h, rs in zip(hyps, refs)]
        f1 = [max(v2_compute_f1(a, h) for a in ([x for x in rs if squad_normalize_answer(x)] or [""])) for h, rs in zip(hyps, refs)]
        ck.eq(f"json exact_match batch {b}", rep["scores"].get("exact_match"), 100.0 * sum(em) / len(em))
        ck.eq(f"json f1 batch {b}", rep["scores"].get("f1"), 100.0 * sum(f1) / len(f1))


def squad_answer(r):
    if r.random() < 0.5:
        return r.choice(["the cat", "a dog", "An apple", "the", "Paris, France", "1,000", "É l'été", "東京", "", " "])
    return rand_text(r)


def squad_group(binary, r, batches, per_batch, ck):
    for b in range(batches):
        v2 = b % 2 == 1
        qas, preds = [], {}
        for k in range(per_batch):
            qid = f"{b}-{k:04x}"
            impossible = v2 and r.random() < 0.3
            answers = [] if impossible else [{"text": squad_answer(r), "answer_start": 0} for _ in range(r.randint(1, 3))]
            qa = {"id": qid, "question": "?", "answers": answers}
            if v2:
                qa["is_impossible"] = impossible
            qas.append(qa)
            base = answers[0]["text"] if answers and r.random() < 0.7 else ""
            preds[qid] = noisy(r, base) if r.random() < 0.5 else (base if r.random() < 0.5 else squad_answer(r))
        dataset = [{"title": "t", "paragraphs": [{"context": "c", "qas": qas[: per_batch // 2]}, {"context": "d", "qas": qas[per_batch // 2 :]}]}]
        gt = {"version": "v2.0" if v2 else "1.1", "data": dataset}
        rep = run(binary, gt, preds, sets=["metric=f1"])
        s = rep["scores"]
        if v2:
            want = v2_evaluate(dataset, preds)
            ck.eq(f"squad2 {b} exact", s.get("exact_match"), want["exact"])
            ck.eq(f"squad2 {b} f1", s.get("f1"), want["f1"])
            for k in ["HasAns_exact", "HasAns_f1", "NoAns_exact", "NoAns_f1"]:
                ck.eq(f"squad2 {b} {k}", s.get(k), want.get(k))
        else:
            want = v1_evaluate(dataset, preds)
            ck.eq(f"squad1 {b} exact", s.get("exact_match"), want["exact_match"])
            ck.eq(f"squad1 {b} f1", s.get("f1"), want["f1"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--bin", default=os.environ.get("DROPSCORE_BIN", os.path.join(ROOT, "target", "release", "dropscore")))
    a = ap.parse_args()
    r = random.Random(a.seed)
    ck = Checker()
    per = 100
    batches = max(1, -(-a.cases // per))
    jiwer_group(a.bin, r, batches, per, ck)
    anls_group(a.bin, r, batches, per, ck)
    squad_group(a.bin, r, max(2, batches * 2), per // 2 + 1, ck)
    for f in ck.failures:
        print("FAIL", f)
    print(f"text_diff: {ck.compared} values compared, {len(ck.failures)} differ")
    sys.exit(1 if ck.failures else 0)


if __name__ == "__main__":
    main()
