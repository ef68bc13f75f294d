"""Writes the CLIP-embedding test case (specs/aij2022.md 2.3 b) for the captioning fixture ids 0-3:
clip_image.npy (float32, 4x6), clip_text.npy (float64, 4x6), clip_ids.json, and clip_expected.json with
(a) the per-id scores by a plain Python loop in the order the spec states (norm = sqrt of the sum of squares
in index order, u/|u| . v/|v| summed in index order), (b) NumPy's (u/np.linalg.norm(u)) @ (v/np.linalg.norm(v)),
(c) the float32 torch-style value; *_bits hold the binary64 bit patterns. numpy 2.x; run from this folder."""
import json, math, struct
import numpy as np

rng = np.random.default_rng(2022)
img = rng.normal(size=(4, 6)).astype(np.float32)
txt = rng.normal(size=(4, 6))
txt[2] = img[2].astype(np.float64) * 3.0  # cosine 1 up to rounding
ids = ["0", "1", "2", "3"]
np.save("clip_image.npy", img)
np.save("clip_text.npy", txt)
json.dump(ids, open("clip_ids.json", "w"))


def loop(u, v):
    nu = math.sqrt(sum(x * x for x in u))
    nv = math.sqrt(sum(x * x for x in v))
    s = 0.0
    for a, b in zip(u, v):
        s += (a / nu) * (b / nv)
    return s


exp = {"per_id": {}, "numpy": {}, "float32": {}}
for i, k in enumerate(ids):
    u = [float(x) for x in img[i]]
    v = [float(x) for x in txt[i]]
    exp["per_id"][k] = loop(u, v)
    u64, v64 = img[i].astype(np.float64), txt[i]
    exp["numpy"][k] = float((u64 / np.linalg.norm(u64)) @ (v64 / np.linalg.norm(v64)))
    u32, v32 = img[i], txt[i].astype(np.float32)
    exp["float32"][k] = float((u32 / np.linalg.norm(u32)) @ (v32 / np.linalg.norm(v32)))
vals = list(exp["per_id"].values())
# the exact binary64 values as integers (JSON float parsers may round the decimal form differently)
exp["per_id_bits"] = {k: struct.unpack("<Q", struct.pack("<d", v))[0] for k, v in exp["per_id"].items()}
exp["numpy_bits"] = {k: struct.unpack("<Q", struct.pack("<d", v))[0] for k, v in exp["numpy"].items()}
exp["clip_cap"] = float(np.mean(vals))
exp["clip_cap_bits"] = struct.unpack("<Q", struct.pack("<d", exp["clip_cap"]))[0]
json.dump(exp, open("clip_expected.json", "w"), indent=1)
