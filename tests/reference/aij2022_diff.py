#!/usr/bin/env python3
"""Differential test of dropscore aij2022 against independent references (docs/specs/aij2022.md 3.3–3.7):

- TRitW 1 − NED: 600 random string pairs, against rapidfuzz's Levenshtein distance (and editdistance);
- METEOR: 600 random captioning pairs (contest postprocess with razdel 0.5.0, NLTK SnowballStemmer("russian"),
  γ = 0.5) and 600 random VisualQA pairs (NLTK PorterStemmer, γ = 0), against NLTK 3.7's `single_meteor_score` with
  the synonym stage disabled (an empty WordNet) and NLTK 3.7's `word_tokenize` (with `preserve_line=True`: Punkt is
  an identity step, as the pipelines delete `.?!` first; src/metrics/aij/nltk_tokenize.rs). The texts carry the
  quotes « “ ‘ „ » ” ’ " ', dashes stuck to words (`человек-`, `-две`, `—поле`) and brackets, which the
  tokenizers split or keep;
- FID: 500 random activation pairs of several N and d, N < d included, against pytorch-fid's
  `calculate_frechet_distance` (SciPy `sqrtm`, ε retry, imaginary-part check), relative 1e-8 (+1e-9 absolute).

Exit status 1 on any mismatch; prints one summary line. Needs target/release/dropscore (DROPSCORE_BIN).
"""
import json, os, random, re, subprocess, sys, tempfile, pathlib, string
import numpy as np
from scipy import linalg
import rapidfuzz.distance.Levenshtein as rl
import editdistance
import razdel
import wordtodigits as w2d
import nltk
from nltk.tokenize import word_tokenize
from nltk.translate.meteor_score import single_meteor_score
from nltk.stem.snowball import SnowballStemmer
from nltk.stem.porter import PorterStemmer

if nltk.__version__ != "3.7":
    raise SystemExit(f"aij2022_diff needs nltk 3.7, the contest's (found {nltk.__version__}): pip install -r "
                     "tests/reference/requirements-aij2022.txt")

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("DROPSCORE_BIN", str(ROOT / "target" / "release" / "dropscore"))
rng = random.Random(20221015)
fails = []


class NoWordNet:
    def synsets(self, *a, **k):
        return []


def run(gt_files, pred_files, extra=()):
    args = [BIN, "aij2022", "--gt", *gt_files, "--pred", *pred_files, "--format", "json", "--quiet", *extra]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"dropscore failed: {p.stderr}")
    return json.loads(p.stdout)


def items(report, task):
    return {i["id"].split("/", 1)[1]: i for i in report["items"] if i["group"] == task}


# ---------------------------------------------------------------- NED
def compute_ned(gt, pred, dist):
    if len(gt) == 0 or len(pred) == 0:
        return 0
    return 1 - dist(pred, gt) / max(len(gt), len(pred))


ALPH = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВЁabcXYZ 0123456789.,-%"
tmp = pathlib.Path(tempfile.mkdtemp(prefix="aij2022-diff-"))
gt, pred, want = {}, {}, {}
for k in range(600):
    a = "".join(rng.choice(ALPH) for _ in range(rng.randint(0, 12)))
    b = "".join(rng.choice(ALPH) for _ in range(rng.randint(0, 12))) if rng.random() < 0.8 else a[: rng.randint(0, len(a))] + "x"
    gt[str(k)] = [{"type": "text", "content": [a]}]
    pred[str(k)] = [{"type": "text", "content": b}]
    want[str(k)] = compute_ned(a, b, rl.distance)
    if compute_ned(a, b, editdistance.eval) != want[str(k)]:
        fails.append(f"rapidfuzz and editdistance disagree on {a!r} {b!r}")
(tmp / "titw_gt.json").write_text(json.dumps(gt, ensure_ascii=False), encoding="utf-8")
(tmp / "titw_pred.json").write_text(json.dumps(pred, ensure_ascii=False), encoding="utf-8")
rep = run([str(tmp / "titw_gt.json")], [str(tmp / "titw_pred.json")])
got = items(rep, "titw")
n_ned = 0
for k, v in want.items():
    g = got[k]["scores"]["score"]
    n_ned += 1
    if g != v:
        fails.append(f"NED id {k}: dropscore {g} vs rapidfuzz {v}")
tot = sum(want.values()) / len(want)
if rep["scores"]["titw"] != tot:
    fails.append(f"NED total {rep['scores']['titw']} vs {tot}")

# ---------------------------------------------------------------- METEOR (captioning)
RU = ("птица птицы птиц летают летят летающий над водой озером озёрами две два двух большие большой маленькая "
      "красная красный машина машины стоит стоящая на улице улица торт со светло-бежевой глазурью кошка кошки "
      "собака собаки бежит по траве человек люди детский детская синий синего жёлтый желтого ёлка елка шёл "
      "сидят сидел хорошо лучше медведь медвежонок шарики воздушных").split()


def punct_detokenize(text):  # captioning/metrics/utils.py of ai-forever/fbc2_aij2022
    text = text.strip()
    for ch in ",.!?:;%" + ")]}":
        text = text.replace(ch, "")
    for ch in "([}":
        text = text.replace(ch, "")
    for q in "\"'":  # " x " -> "x", ' x ' -> 'x'
        for f in re.findall(q + r"\s[^" + q + r"]+\s" + q, text):
            text = text.replace(f, f[0] + f[2:-2] + f[-1])
    text = text.replace("' s", "'s").replace(" 's", "'s")
    return text.strip()


def postprocess(ref, hyp):
    ref, hyp = punct_detokenize(ref.strip()), punct_detokenize(hyp.strip())
    hyp = hyp.replace("@@UNKNOWN@@", "<unk>")
    hyp = " ".join(t.text for t in razdel.tokenize(hyp)).lower()
    ref = " ".join(t.text for t in razdel.tokenize(ref)).lower()
    return ref, hyp


def tok(t):  # NLTK 3.7 word_tokenize without Punkt (an identity step here)
    return word_tokenize(t, preserve_line=True)


MARKS = list("«“‘„»”’\"'-—–(") + ["--", " -", "- ", " —", "— "]


def sentence(vocab, lo, hi):
    words = [rng.choice(vocab) for _ in range(rng.randint(lo, hi))]
    if words and rng.random() < 0.3:
        words[0] = words[0].capitalize()
    for i in range(len(words)):  # quotes, dashes and brackets stuck to some words
        r = rng.random()
        if r < 0.12:
            words[i] = rng.choice(MARKS) + words[i]
        elif r < 0.24:
            words[i] = words[i] + rng.choice(MARKS + [")", ","])
    s = " ".join(words)
    return s + rng.choice(["", "", ".", "!", ","])


snow = SnowballStemmer("russian")
gt, pred, want = {}, {}, {}
for k in range(600):
    opts = [sentence(RU, 1, 7) for _ in range(rng.randint(1, 3))]
    h = sentence(RU, 0, 8) if rng.random() < 0.85 else opts[0]
    gt[str(k)] = [{"type": "text", "content": opts}]
    pred[str(k)] = [{"type": "text", "content": h}]
    best = 0
    for o in opts:
        r, hp = postprocess(o, h)
        s = single_meteor_score(tok(r), tok(w2d.convert(hp)), wordnet=NoWordNet(), stemmer=snow, gamma=0.5)
        if s > best:
            best = s
    want[str(k)] = best
(tmp / "captioning_gt.json").write_text(json.dumps(gt, ensure_ascii=False), encoding="utf-8")
(tmp / "captioning_pred.json").write_text(json.dumps(pred, ensure_ascii=False), encoding="utf-8")
rep = run([str(tmp / "captioning_gt.json")], [str(tmp / "captioning_pred.json")])
got = items(rep, "captioning")
n_met = 0
for k, v in want.items():
    g = got[k]["scores"]["meteor"]
    n_met += 1
    if g != v:
        fails.append(f"METEOR captioning id {k}: dropscore {g} vs nltk {v} ({gt[k]} / {pred[k]})")
if rep["scores"]["captioning_meteor"] != float(np.mean(np.array(list(want.values())))):
    fails.append("METEOR captioning mean differs")

# ---------------------------------------------------------------- METEOR (VisualQA, Porter, γ = 0)
EN = ("running runs ran cats cat happily happy generously relational relate agreed plastered motoring hopping "
      "filing caresses ponies ties sky skies dying news the a an of two three hundred and point red reds "
      "organization organize conditional conditionally electricity electrical goodness hopeful").split()
porter = PorterStemmer()
P = set(string.punctuation)
gt, pred, want = {}, {}, {}
for k in range(600):
    opts = [sentence(EN, 1, 4) for _ in range(rng.randint(1, 3))]
    h = sentence(EN, 0, 5)
    gt[str(k)] = [{"type": "text", "content": opts}]
    pred[str(k)] = [{"type": "text", "content": h}]
    hp = "".join(c for c in h if c not in P).lower()
    best = 0
    for o in opts:
        op = "".join(c for c in o if c not in P).lower()
        ref = tok(op)
        if len(ref) == 1 and ref[0].isnumeric():
            continue
        s = single_meteor_score(ref, tok(w2d.convert(hp)), wordnet=NoWordNet(), stemmer=porter, gamma=0)
        if s > best:
            best = s
    want[str(k)] = best
(tmp / "vqa_gt.json").write_text(json.dumps(gt), encoding="utf-8")
(tmp / "vqa_pred.json").write_text(json.dumps(pred), encoding="utf-8")
rep = run([str(tmp / "vqa_gt.json")], [str(tmp / "vqa_pred.json")])
got = items(rep, "vqa")
for k, v in want.items():
    g = got[k]["scores"]["score"]
    n_met += 1
    if g != v:
        fails.append(f"METEOR vqa id {k}: dropscore {g} vs nltk {v} ({gt[k]} / {pred[k]})")


# ---------------------------------------------------------------- FID
def frechet(mu1, sigma1, mu2, sigma2, eps=1e-6):  # pytorch-fid calculate_frechet_distance
    diff = mu1 - mu2
    covmean = linalg.sqrtm(sigma1.dot(sigma2))
    if not np.isfinite(covmean).all():
        offset = np.eye(sigma1.shape[0]) * eps
        covmean = linalg.sqrtm((sigma1 + offset).dot(sigma2 + offset))
    if np.iscomplexobj(covmean):
        if not np.allclose(np.diagonal(covmean).imag, 0, atol=1e-3):
            raise ValueError("Imaginary component")
        covmean = covmean.real
    return diff.dot(diff) + np.trace(sigma1) + np.trace(sigma2) - 2 * np.trace(covmean)


n_fid, worst_full, worst_sing, skipped = 0, 0.0, 0.0, 0
shapes = [(20, 4), (50, 8), (100, 16), (40, 32), (300, 64), (90, 48), (5, 8), (10, 16), (30, 64), (12, 40)]
cases = []
for k in range(500):
    n, d = shapes[k % len(shapes)]
    dt = np.float32 if k % 3 == 0 else np.float64
    a = np.random.default_rng(k).normal(size=(n, d)).astype(dt)
    b = (np.random.default_rng(10_000 + k).normal(size=(n + k % 7, d)) * rng.uniform(0.5, 2) + rng.uniform(-1, 1)).astype(dt)
    # pytorch-fid's activations are float64 (np.empty); a float32 .npy is read as float64 first.
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    try:
        want_fid = frechet(np.mean(a64, axis=0), np.cov(a64, rowvar=False), np.mean(b64, axis=0), np.cov(b64, rowvar=False))
    except ValueError:
        skipped += 1
        continue
    case = tmp / f"fid{k}"
    case.mkdir()
    np.save(case / "gt.npy", a)
    np.save(case / "pred.npy", b)
    cases.append((k, n, d, dt, case, want_fid))

from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=2) as pool:
    reps = list(pool.map(lambda c: run([str(c[4] / "gt.npy")], [str(c[4] / "pred.npy")]), cases))
for (k, n, d, dt, _, want_fid), rep in zip(cases, reps):
    got_fid = rep["scores"]["generation_fid"]
    n_fid += 1
    err = abs(got_fid - want_fid)
    singular = n <= d
    rel = err / max(abs(want_fid), 1e-300)
    if singular:
        worst_sing = max(worst_sing, rel)
    else:
        worst_full = max(worst_full, rel)
    # docs/specs/aij2022.md 3.6/7.6: 1e-8 relative (+1e-9 absolute); singular covariances 1e-7 (case B's tolerance:
    # sqrtm of a singular product is itself only accurate to about sqrt(eps)).
    tol = 1e-7 if singular else 1e-8
    if err > tol * abs(want_fid) + 1e-9:
        fails.append(f"FID case {k} (N={n}, d={d}, {dt.__name__}): dropscore {got_fid} vs pytorch-fid {want_fid} (rel {rel:.2e})")


# ---------------------------------------------------------------- CLIP from embedding matrices (spec 2.3 b)
# Per-id cosine dot(u/|u|, v/|v|) through the captioning task: must equal a plain Python loop in the spec's order
# bit for bit, and NumPy's (u/np.linalg.norm(u)) @ (v/np.linalg.norm(v)) to 1e-14.
import math
n_clip, clip_bits, worst_clip = 0, 0, 0.0
clip_cases = []
for k in range(120):
    n = 1 + k % 17
    d = [2, 6, 7, 8, 9, 33, 64, 768][k % 8]
    g = np.random.default_rng(50_000 + k)
    img = g.normal(size=(n, d)).astype(np.float32 if k % 2 else np.float64)
    txt = (g.normal(size=(n, d)) + (img if k % 3 == 0 else 0)).astype(np.float64 if k % 4 else np.float32)
    ids = [f"c{k}_{i}" for i in range(n)]
    case = tmp / f"clip{k}"
    case.mkdir()
    np.save(case / "clip_image.npy", img)
    np.save(case / "clip_text.npy", txt)
    (case / "clip_ids.json").write_text(json.dumps(ids))
    (case / "captioning_gt.json").write_text(json.dumps({i: [{"type": "text", "content": ["a b"]}] for i in ids}))
    (case / "captioning_pred.json").write_text(json.dumps({i: [{"type": "text", "content": "a b"}] for i in ids}))
    clip_cases.append((k, case, img.astype(np.float64), txt.astype(np.float64), ids))


def clip_loop(u, v):
    nu = math.sqrt(sum(x * x for x in u))
    nv = math.sqrt(sum(x * x for x in v))
    s = 0.0
    for a, b in zip(u, v):
        s += (a / nu) * (b / nv)
    return s


with ThreadPoolExecutor(max_workers=2) as pool:
    reps = list(pool.map(lambda c: run([str(c[1] / "captioning_gt.json")],
                                        [str(c[1] / f) for f in ("captioning_pred.json", "clip_image.npy", "clip_text.npy", "clip_ids.json")]),
                         clip_cases))
for (k, _, img, txt, ids), rep in zip(clip_cases, reps):
    got = items(rep, "captioning")
    for i, key in enumerate(ids):
        n_clip += 1
        g = got.get(key, {}).get("scores", {}).get("clip")
        want = clip_loop([float(x) for x in img[i]], [float(x) for x in txt[i]])
        ref = float((img[i] / np.linalg.norm(img[i])) @ (txt[i] / np.linalg.norm(txt[i])))
        if g is None or g != want:
            fails.append(f"CLIP case {k} id {key}: dropscore {g} vs loop {want}")
            continue
        clip_bits += 1
        worst_clip = max(worst_clip, abs(g - ref))
        if abs(g - ref) > 1e-14:
            fails.append(f"CLIP case {k} id {key}: dropscore {g} vs numpy {ref}")

for f in fails[:20]:
    print(f)
status = "FAILED" if fails else "ok"
print(f"aij2022 diff {status}: NED {n_ned} cases (rapidfuzz/editdistance), METEOR {n_met} cases (nltk 3.7 single_meteor_score "
      f"and word_tokenize, razdel 0.5.0: captioning Snowball-ru γ=0.5, VQA Porter γ=0), FID {n_fid} cases vs pytorch-fid/SciPy sqrtm ({skipped} skipped: "
      f"sqrtm raises); worst relative FID error {worst_full:.1e} full rank, {worst_sing:.1e} singular; CLIP {n_clip} ids from "
      f"embeddings ({clip_bits} bit-identical to the loop, worst |Δ| vs NumPy {worst_clip:.1e}); {len(fails)} mismatches")
sys.exit(1 if fails else 0)
