#!/usr/bin/env python3
"""Checks the built book: every relative link and image of every HTML page leads to a file of the book (and to an
element with that id when it has a #fragment), and every protocol and option of `dropscore list --format json`
has its reference page and its row there. Prints every problem; exit 1 if any.

Usage: python3 tools/book/check.py LIST_JSON BOOK_HTML_DIR
"""

import json
import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key) and tag in ("a", "img", "script", "link"):
                self.links.append(a[key])


def parse(path, cache):
    if path not in cache:
        p = Page()
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        cache[path] = p
    return cache[path]


def dead_links(root):
    cache, problems = {}, []
    for dirpath, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".html"):
                continue
            page = os.path.join(dirpath, name)
            for link in parse(page, cache).links:
                u = urlsplit(link)
                if u.scheme or u.netloc or link.startswith(("mailto:", "javascript:")):
                    continue
                target = page if not u.path else os.path.normpath(os.path.join(dirpath, unquote(u.path)))
                if os.path.isdir(target):
                    target = os.path.join(target, "index.html")
                rel = os.path.relpath(page, root)
                if not os.path.exists(target):
                    problems.append("%s: dead link %s" % (rel, link))
                elif u.fragment and target.endswith(".html") and unquote(u.fragment) not in parse(target, cache).ids:
                    problems.append("%s: no #%s in %s" % (rel, u.fragment, os.path.relpath(target, root)))
    return problems


def missing_reference(protocols, root):
    problems = []
    for p in protocols:
        path = os.path.join(root, "reference", p["id"] + ".html")
        if not os.path.exists(path):
            problems.append("no reference page for protocol %s" % p["id"])
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for o in p["options"]:
            if "<code>%s</code>" % o["name"] not in text:
                problems.append("reference/%s.html: option %s missing" % (p["id"], o["name"]))
    return problems


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        protocols = json.load(f)
    root = sys.argv[2]
    problems = dead_links(root) + missing_reference(protocols, root)
    for p in problems:
        print("book: " + p)
    print("book: %d pages checked, %d problems" % (sum(f.endswith(".html") for _, _, fs in os.walk(root) for f in fs),
                                                  len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
