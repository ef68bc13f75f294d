#!/usr/bin/env python3
"""The Python package as a user installs it (the wheel of scripts/build-wheel in a fresh virtual environment):
every example of every protocol scored through ``dropscore.score_json`` equals the command line's
``--format json`` byte for byte, from paths and from bytes; the manifest and the pre-flight check equal
``dropscore manifest`` / ``dropscore check --format json``; pandas DataFrames and the Kaggle-style entry point give
the report's numbers and raise ``ParticipantVisibleError`` with the located diagnostics; the intervals (options
``bootstrap``/``seed``/``confidence`` through ``score``) and ``dropscore.compare`` equal the command line's
``--set bootstrap=…`` report and ``dropscore compare --format json`` byte for byte, one example per protocol.

Usage: python tests/python/test_binding.py --bin target/release/dropscore   (run with the venv's python)
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def on_disk(p):
    for c in (os.path.join(ROOT, "www", p), os.path.join(ROOT, p)):
        if os.path.exists(c):
            return c
    raise FileNotFoundError(p)


def cli(bin_path, args, cwd):
    r = subprocess.run([bin_path] + args, cwd=cwd, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise AssertionError("dropscore %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


def stage(tmp, paths):
    """Links to `paths` in a fresh folder under their base names, so both sides name the files alike."""
    d = tempfile.mkdtemp(dir=tmp)
    names = []
    for p in paths:
        name = os.path.basename(p)
        if name in names:
            name = "pred_" + name
        os.symlink(p, os.path.join(d, name))
        names.append(name)
    return d, names


def examples_equal_the_cli(dropscore, bin_path, tmp):
    cases = 0
    for p in dropscore.protocols():
        for ex in p["examples"]:
            gts = [on_disk(g) for g in ex["gt"]]
            preds = [on_disk(q) for q in ex["pred"]]
            d, names = stage(tmp, gts + preds)
            g, q = names[: len(gts)], names[len(gts):]
            opts = dict(ex.get("set") or [])
            for mode in ("official", "corrected"):
                args = [p["id"], "--mode", mode, "--format", "json", "--quiet"]
                for n in g:
                    args += ["--gt", n]
                for n in q:
                    args += ["--pred", n]
                for k, v in opts.items():
                    args += ["--set", "%s=%s" % (k, v)]
                want = cli(bin_path, args, d)
                cwd = os.getcwd()
                os.chdir(d)
                try:
                    got = dropscore.score_json(p["id"], g, q, options=opts, mode=mode)
                finally:
                    os.chdir(cwd)
                assert got == want, "%s/%s %s: the package and the CLI differ" % (p["id"], ex["id"], mode)
                cases += 1
            # The same files as (name, bytes) pairs, when they are files (folders are walked from disk only).
            if all(os.path.isfile(x) for x in gts + preds):
                pairs = lambda xs, ns: [(n, open(x, "rb").read()) for x, n in zip(xs, ns)]
                got = dropscore.score_json(p["id"], pairs(gts, g), pairs(preds, q), options=opts)
                args = [p["id"], "--format", "json", "--quiet"] + sum((["--gt", n] for n in g), []) + \
                    sum((["--pred", n] for n in q), []) + sum((["--set", "%s=%s" % kv] for kv in opts.items()), [])
                assert got == cli(bin_path, args, d), "%s/%s: from bytes" % (p["id"], ex["id"])
    assert cases >= 30, cases
    print("examples: %d reports equal the CLI's" % cases)


def intervals_and_compare_equal_the_cli(dropscore, bin_path, tmp):
    stats = {"bootstrap": "200", "seed": "7", "confidence": "0.9"}
    compared = refused = 0
    for p in dropscore.protocols():
        ex = next((e for e in p["examples"] if all(os.path.isfile(on_disk(x)) for x in e["gt"] + e["pred"])), None)
        if ex is None:
            continue
        gts, preds = [on_disk(g) for g in ex["gt"]], [on_disk(q) for q in ex["pred"]]
        d, names = stage(tmp, gts + preds)
        g, q = names[: len(gts)], names[len(gts):]
        base = sum((["--gt", n] for n in g), []) + sum((["--pred", n] for n in q), [])
        opts = dict(ex.get("set") or [])
        sets = lambda o: sum((["--set", "%s=%s" % kv] for kv in o.items()), [])
        cwd = os.getcwd()
        os.chdir(d)
        try:
            o = dict(opts, **stats)
            got = dropscore.score_json(p["id"], g, q, options=o)
            assert got == cli(bin_path, [p["id"], "--format", "json", "--quiet"] + base + sets(o), d), \
                "%s/%s: the intervals differ" % (p["id"], ex["id"])
            o = dict(opts, bootstrap="200", seed="3", permutations="500")
            args = ["compare", p["id"], "--format", "json", "--quiet"] + base + sum((["--vs", n] for n in q), []) + sets(o)
            r = subprocess.run([bin_path] + args, cwd=d, capture_output=True, text=True)
            try:
                got = dropscore.compare_json(p["id"], g, q, q, options=o)
            except ValueError as e:
                assert r.returncode != 0 and not r.stdout and str(e) in r.stderr, (p["id"], str(e), r.stderr)
                refused += 1
                continue
            assert got == r.stdout, "%s/%s: compare differs from the CLI's" % (p["id"], ex["id"])
            assert dropscore.compare(p["id"], g, q, q, options=o)["compare"]["delta"] in (0, 0.0, None)
            compared += 1
        finally:
            os.chdir(cwd)
    # Protocols without units yet (docs/specs/statistics.md) are refused with the command line's message.
    assert compared >= 2 and compared + refused >= 10, (compared, refused)
    # Two different submissions, every metric (compare_all), B from bytes.
    gt, pred = on_disk("examples/regression/gt.csv"), on_disk("examples/regression/pred.csv")
    d, (g, q) = stage(tmp, [gt, pred])
    lines = open(pred).read().splitlines()
    head, rows = lines[0], lines[1:]
    worse = "\n".join([head] + [",".join(r.split(",")[:-1] + [str(float(r.split(",")[-1]) + 0.5)]) for r in rows]) + "\n"
    with open(os.path.join(d, "worse.csv"), "w") as f:
        f.write(worse)
    o = {"compare_all": "true", "bootstrap": "300", "seed": "11", "confidence": "0.95"}
    want = cli(bin_path, ["compare", "regression", "--gt", g, "--pred", q, "--vs", "worse.csv", "--format", "json",
                          "--quiet"] + sum((["--set", "%s=%s" % kv] for kv in o.items()), []), d)
    got = dropscore.compare_json("regression", os.path.join(d, g), os.path.join(d, q),
                                 ("worse.csv", worse.encode()), options=o)
    assert got == want, "regression compare_all differs from the CLI's"
    c = dropscore.compare("regression", os.path.join(d, g), os.path.join(d, q), ("worse.csv", worse.encode()),
                          options=dict(o, compare_all=True))
    assert c["compare"]["delta"] is not None and len(c["compare_all"]) > 1, c["compare"]
    try:
        dropscore.compare("regression", gt, pred, pred, options={"permutations": "many"})
    except ValueError as e:
        assert "permutations" in str(e), e
    else:
        raise AssertionError("a bad permutations option must raise ValueError")
    print("statistics: intervals and %d comparisons equal the CLI's (%d protocols refused alike)" % (compared + 1, refused))


def preflight_equals_the_cli(dropscore, bin_path, tmp):
    gt, pred = on_disk("examples/regression/gt.csv"), on_disk("examples/regression/pred.csv")
    d, (g, q) = stage(tmp, [gt, pred])
    made = dropscore.manifest("regression", os.path.join(d, g))
    want = json.loads(cli(bin_path, ["manifest", "regression", "--gt", g], d))
    assert made == want, (made, want)
    path = os.path.join(d, "manifest.json")
    with open(path, "w") as f:
        json.dump(made, f)
    checked = dropscore.check("regression", path, os.path.join(d, q))
    assert checked["ready"] is True, checked["summary"]
    want = json.loads(cli(bin_path, ["check", "regression", "--manifest", "manifest.json", "--pred", q, "--format", "json"], d))
    short = ("pred.csv", b"id,prediction\n1,2.0\n")
    assert checked == json.loads(json.dumps(want)) or checked["summary"] == want["summary"], (checked, want)
    not_ready = dropscore.check("regression", made, short)
    assert not_ready["ready"] is False and any(x["severity"] == "error" for x in not_ready["diagnostics"])
    print("pre-flight: manifest and check equal the CLI's")


def dataframes_and_kaggle(dropscore, tmp):
    try:
        import pandas as pd
    except ImportError:
        print("pandas: not installed, DataFrame inputs not tested")
        return
    gt = pd.read_csv(on_disk("examples/regression/gt.csv"), dtype=str)
    pred = pd.read_csv(on_disk("examples/regression/pred.csv"), dtype=str)
    from_paths = dropscore.score("regression", on_disk("examples/regression/gt.csv"), on_disk("examples/regression/pred.csv"))
    from_frames = dropscore.score("regression", gt, pred)
    assert from_frames["scores"] == from_paths["scores"], (from_frames["scores"], from_paths["scores"])
    value = dropscore.kaggle.score(gt, pred, gt.columns[0], protocol="regression", metric="mean_absolute_error")
    assert value == from_paths["scores"]["mean_absolute_error"], value
    broken = pred.iloc[:-3]
    try:
        dropscore.kaggle.score(gt, broken, gt.columns[0], protocol="regression")
    except dropscore.kaggle.ParticipantVisibleError as e:
        assert "error" in str(e) and e.diagnostics, str(e)
        print("kaggle: %s" % str(e).splitlines()[0])
    else:
        raise AssertionError("a submission with missing ids must raise ParticipantVisibleError")
    try:
        dropscore.score("regression", gt, pred, options={"no_such_option": 1})
    except ValueError as e:
        print("usage error: %s" % e)
    else:
        raise AssertionError("an unknown option must raise ValueError")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "dropscore"))
    a = ap.parse_args()
    import dropscore

    assert os.path.dirname(dropscore.__file__) != os.path.join(ROOT, "python", "dropscore"), "test the installed wheel"
    lemmas = os.path.join(ROOT, "www", "assets", "ru-lemmas.bin")
    if os.path.exists(lemmas):
        dropscore.load_asset("lemma", lemmas)
    with tempfile.TemporaryDirectory() as tmp:
        examples_equal_the_cli(dropscore, os.path.abspath(a.bin), tmp)
        intervals_and_compare_equal_the_cli(dropscore, os.path.abspath(a.bin), tmp)
        preflight_equals_the_cli(dropscore, os.path.abspath(a.bin), tmp)
        dataframes_and_kaggle(dropscore, tmp)
    print("python binding: ok (dropscore %s)" % dropscore.__version__)


if __name__ == "__main__":
    sys.exit(main())
