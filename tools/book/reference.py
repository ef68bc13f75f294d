#!/usr/bin/env python3
"""Writes the book's protocol reference from the registry: one page per protocol of `dropscore list --format json`
(its summary, input files, every option with its official and corrected defaults, its built-in examples, the
specification it follows and the protocol's own notes from docs/notes/<id>.md), an index page, and their lines
in SUMMARY.md (in place of the line `<!-- protocols -->`).

Usage: python3 tools/book/reference.py LIST_JSON BOOK_SRC
  LIST_JSON  the output of `dropscore list --format json`
  BOOK_SRC   a copy of docs/ (the book's source folder), written in place
"""

import json
import os
import sys

MARKER = "<!-- protocols -->"


def prose(text):
    """Registry text as Markdown: `<`, `>` and `&` outside code spans escaped (the registry says `<GTRel>` blocks
    in plain words), line breaks folded."""
    parts = str(text).replace("\n", " ").split("`")
    for i in range(0, len(parts), 2):
        parts[i] = parts[i].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return "`".join(parts)


def cell(text):
    """A Markdown table cell: prose with its pipes escaped."""
    return prose(text).replace("|", "\\|")


def spec_of(pid, specs_dir):
    """The specification a protocol follows: docs/specs/<id>.md, else the spec whose title names `<id>`
    (families.md's "# Standard metric families: `classification`, …")."""
    own = os.path.join(specs_dir, pid + ".md")
    if os.path.exists(own):
        return pid + ".md"
    for name in sorted(os.listdir(specs_dir)):
        if not name.endswith(".md") or name == "README.md":
            continue
        with open(os.path.join(specs_dir, name), encoding="utf-8") as f:
            title = next((line for line in f if line.startswith("# ")), "")
        if "`%s`" % pid in title:
            return name
    return None


def page(p, src):
    pid = p["id"]
    out = ["# `%s`: %s" % (pid, prose(p["name"])), "", prose(p["summary"]), ""]
    spec = spec_of(pid, os.path.join(src, "specs"))
    if spec:
        out += ["Specification: [docs/specs/%s](../specs/%s)." % (spec, spec), ""]
    out += ["## Input files", "", "| | |", "|---|---|",
            "| ground truth | %s |" % cell(p["gt_files"]), "| predictions | %s |" % cell(p["pred_files"]), ""]
    out += ["## Options", "", "Given as `--set NAME=VALUE` on the command line, in `[options]` of `dropscore.toml`, "
            "or in the page's options form. The defaults differ by mode where the corrected mode fixes something.", "",
            "| option | type | official default | corrected default | what it does |", "|---|---|---|---|---|"]
    code = lambda v: "`%s`" % cell(v) if str(v) != "" else "(none)"
    for o in p["options"]:
        out.append("| `%s` | %s | %s | %s | %s |" % (o["name"], code(o["type"]), code(o["default_official"]),
                                                 code(o["default_corrected"]), cell(o["help"])))
    out.append("")
    if p.get("examples"):
        out += ["## Built-in examples", "", "The page's **Try an example** scores these files (from the repository):", "",
                "| example | ground truth | predictions | options |", "|---|---|---|---|"]
        for e in p["examples"]:
            opts = ", ".join("`%s=%s`" % tuple(kv) for kv in e.get("set", [])) or ""
            out.append("| %s | %s | %s | %s |" % (cell(e["label"]), ", ".join("`%s`" % g for g in e["gt"]),
                                                 ", ".join("`%s`" % g for g in e["pred"]), opts))
        out.append("")
    notes = os.path.join(src, "notes", pid + ".md")
    if os.path.exists(notes):
        out += ["## Notes", "", "{{#include ../notes/%s.md}}" % pid, ""]
    return "\n".join(out)


def main():
    list_json, src = sys.argv[1], sys.argv[2]
    with open(list_json, encoding="utf-8") as f:
        protocols = json.load(f)
    ref = os.path.join(src, "reference")
    os.makedirs(ref, exist_ok=True)
    index = ["# Protocol reference", "", "Every protocol of the registry (`dropscore list`), generated from it.", "",
             "| protocol | what it scores |", "|---|---|"]
    lines = []
    for p in protocols:
        with open(os.path.join(ref, p["id"] + ".md"), "w", encoding="utf-8") as f:
            f.write(page(p, src))
        index.append("| [`%s`](%s.md) | %s |" % (p["id"], p["id"], cell(p["name"])))
        lines.append("  - [`%s`](reference/%s.md)" % (p["id"], p["id"]))
    with open(os.path.join(ref, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(index) + "\n")
    summary_path = os.path.join(src, "SUMMARY.md")
    with open(summary_path, encoding="utf-8") as f:
        summary = f.read()
    if MARKER not in summary:
        sys.exit("reference.py: SUMMARY.md has no line %s" % MARKER)
    summary = summary.replace(MARKER, "\n".join(lines))
    with open(summary_path, "w", encoding="utf-8") as f:
        f.write(summary)


if __name__ == "__main__":
    main()
