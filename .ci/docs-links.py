#!/usr/bin/env python3
"""Checks the relative links of the Markdown files at the root and under docs/: the file must
exist, and a #fragment must be a heading of that file (GitHub's anchors). Exits 1 on a broken one."""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path):
    found, inside = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            inside = not inside
        elif not inside and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            found.add(slug)
    return found


def main():
    broken = []
    pages = sorted(glob.glob("*.md", root_dir=ROOT) + glob.glob("docs/*.md", root_dir=ROOT)
                   + glob.glob("docs/decisions/*.md", root_dir=ROOT))
    for page in pages:
        text = open(os.path.join(ROOT, page), encoding="utf-8").read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            file, _, fragment = target.partition("#")
            path = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), file)) if file else os.path.join(ROOT, page)
            if not os.path.exists(path):
                broken.append(f"{page}: {target} (no such file)")
            elif fragment and path.endswith(".md") and fragment not in anchors(path):
                broken.append(f"{page}: {target} (no such heading)")
    for line in broken:
        print(f"[links] broken: {line}")
    print(f"[links] {len(pages)} pages checked, {len(broken)} broken links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
