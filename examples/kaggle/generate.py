"""Writes the kaggle examples (examples/kaggle/*/ and the page's www/examples/kaggle/*/) with random.Random(35).

Usage: python3 examples/kaggle/generate.py   (from the repository root; deterministic)
"""
import os
import random

R = random.Random(35)
H, W = 24, 32


def rle(pixels):
    """Kaggle's rle_encode: 1-based starts, column-major (Carvana's published kernel)."""
    idx = sorted(c * H + r for r, c in pixels)
    runs, prev = [], -2
    for p in idx:
        if p == prev + 1:
            runs[-1][1] += 1
        else:
            runs.append([p + 1, 1])
        prev = p
    return " ".join(f"{s} {l}" for s, l in runs)


def rect(r0, c0, h, w):
    return {(r, c) for r in range(max(r0, 0), min(r0 + h, H)) for c in range(max(c0, 0), min(c0 + w, W))}


def write(path, header, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join(r) + "\n")


def masks():
    sol, sub, sample = [], [], []
    for i in range(12):
        iid = f"img{i:02d}"
        sample.append([iid, ""])
        n = 0 if i % 5 == 0 else R.randint(1, 2)
        objs = []
        for _ in range(n):
            objs.append((R.randint(0, 18), R.randint(0, 24), R.randint(3, 8), R.randint(3, 9)))
        if not objs:
            sol.append([iid, ""])
        for r0, c0, h, w in objs:
            sol.append([iid, rle(rect(r0, c0, h, w))])
        preds = [(r0 + R.randint(-1, 1), c0 + R.randint(-2, 2), h + R.randint(-1, 1), w) for r0, c0, h, w in objs]
        if i % 4 == 3:
            preds.append((R.randint(0, 18), R.randint(0, 24), 3, 3))
        if i == 10:
            preds = []
        if not preds:
            sub.append([iid, ""])
        for r0, c0, h, w in preds:
            sub.append([iid, rle(rect(r0, c0, max(h, 1), w))])
    return ("ImageId,EncodedPixels", sol, sub, sample)


def lists():
    items = [f"0{700000 + 37 * j}" for j in range(30)]
    sol, sub, sample = [], [], []
    for i in range(20):
        cid = f"c{i:03d}"
        actual = R.sample(items, R.randint(1, 4))
        pred = R.sample(items, R.randint(5, 8))
        for a in actual:
            if R.random() < 0.5:
                pred[R.randrange(len(pred))] = a
        sol.append([cid, " ".join(actual)])
        sub.append([cid, " ".join(pred)])
        sample.append([cid, " ".join(items[:5])])
    return ("customer_id,prediction", sol, sub, sample)


def strings():
    words = "the cat sat on a mat with red hat and big dog ran far".split()
    sol, sub, sample = [], [], []
    for i in range(15):
        t = R.sample(words, R.randint(2, 6))
        p = list(t)
        for _ in range(R.randint(0, 2)):
            op = R.randrange(3)
            if op == 0 and p:
                p.pop(R.randrange(len(p)))
            elif op == 1:
                p.insert(R.randrange(len(p) + 1), R.choice(words))
            elif p:
                p[R.randrange(len(p))] = R.choice(words)
        sol.append([f"t{i:02d}", " ".join(t)])
        sub.append([f"t{i:02d}", " ".join(p)])
        sample.append([f"t{i:02d}", "the"])
    return ("textID,selected_text", sol, sub, sample)


def kl_votes():
    """HMS-style expert votes: six classes, each row's votes normalized to probabilities (its own Random)."""
    r = random.Random(2024)
    classes = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]
    sol, sub, sample = [], [], []
    for i in range(20):
        votes = [r.choice([0, 0, 0, 1, 2, 5]) for _ in classes]
        if sum(votes) == 0:
            votes[r.randrange(6)] = 3
        guess = [v + r.random() for v in votes]
        sol.append([str(568657 + 1000 * i)] + [repr(v / sum(votes)) for v in votes])
        sub.append([str(568657 + 1000 * i)] + [f"{g / sum(guess):.6f}" for g in guess[:-1]]
                   + [repr(1 - sum(round(g / sum(guess), 6) for g in guess[:-1]))])
        sample.append([str(568657 + 1000 * i)] + ["0.166667"] * 5 + ["0.166665"])
    return ("eeg_id," + ",".join(classes), sol, sub, sample)


def tags():
    labels = "clear cloudy haze partly_cloudy water road primary agriculture".split()
    sol, sub, sample = [], [], []
    for i in range(16):
        t = R.sample(labels, R.randint(1, 3))
        p = [x for x in t if R.random() < 0.7] + R.sample(labels, R.randint(0, 2))
        sol.append([f"train_{i}", " ".join(t)])
        sub.append([f"train_{i}", " ".join(dict.fromkeys(p))])
        sample.append([f"train_{i}", "clear primary"])
    return ("image_name,tags", sol, sub, sample)


for name, page, make in [
    ("rle_dice", "rle", masks),
    ("map5", "map", lists),
    ("levenshtein", None, strings),
    ("tags_f1", None, tags),
    ("kl_divergence", None, kl_votes),
]:
    header, sol, sub, sample = make()
    write(f"examples/kaggle/{name}/solution.csv", header, sol)
    write(f"examples/kaggle/{name}/submission.csv", header, sub)
    write(f"examples/kaggle/{name}/sample_submission.csv", header, sample)
    if page:
        write(f"www/examples/kaggle/{page}/solution.csv", header, sol)
        write(f"www/examples/kaggle/{page}/submission.csv", header, sub)
