#!/usr/bin/env python3
"""One source for every figure: the pages quote measured figures only as their sources give them.

Sources, one per kind:
- RELIABILITY.md, written by the fault suite's last full run: the scenarios, the IDs checked, the
  duplicates, the suite's time and date;
- BENCHMARKS.md's "Where we stand" table: speeds, ratios, start times.

Checked pages: README.md, CONTRIBUTING.md and docs/*.md (not docs/benchmark-history.md, which keeps
old runs on purpose, nor the decision records and the CHANGELOG, which are dated history).
- README.md holds the headline of each source between `<!-- reliability -->` and `<!-- /reliability -->`,
  and `<!-- benchmarks -->` … `<!-- /benchmarks -->`: the text must be the one this script derives.
- Anywhere else, a count of scenarios, a number of IDs checked or served, a suite time, a ratio
  (`0.53 ×`), a speed (`M IDs/s`, `req/s`) or a time of a thousand milliseconds or more must appear
  in its source; a figure that no source has is reported with its page and line.

  python3 .ci/figures.py          check (exit 1 on a difference)
  python3 .ci/figures.py --fix    rewrite README's two headlines from the sources, then check
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def reliability():
    text = read("RELIABILITY.md")
    date = re.search(r"^- Date: (\d{4}-\d\d-\d\d)", text, re.M).group(1)
    seconds, scenarios = re.search(r"^- Suite time: (\d+) s for (\d+) scenarios", text, re.M).groups()
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| Scenario")]
    ids = duplicates = 0
    for row in rows:
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]
        ids += int(cells[3].replace(",", ""))
        duplicates += int(cells[4]) if cells[4].isdigit() else 0
    failed = sum("**FAILED" in row for row in rows)
    return {"date": date, "seconds": int(seconds), "scenarios": int(scenarios), "ids": ids,
            "duplicates": duplicates, "failed": failed, "text": text}


def benchmarks_table():
    text = read("BENCHMARKS.md")
    start = text.index("## Where we stand")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else len(text)]


def reliability_headline(r):
    return ("In the fault suite's last run ({date}, 2 cores, {scenarios} scenarios in {minutes} minutes), "
            "{ids:,} IDs were checked and {duplicates} repeated.").format(
        minutes=round(r["seconds"] / 60), **r)


def benchmarks_headline(table):
    """The first row of the table: the measure a reader asks about first."""
    for line in table.splitlines():
        if line.startswith("| ") and not line.startswith("| measure") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            return "{0}: {1}, beside {2} in the same run ({3} ×).".format(cells[0][0].upper() + cells[0][1:], *cells[1:4])
    raise SystemExit("BENCHMARKS.md's table has no row")


HEADLINES = {"reliability": reliability_headline, "benchmarks": benchmarks_headline}
FIGURE = re.compile(
    r"\d+ scenarios"
    r"|\d{1,3}(?:,\d{3})+ IDs(?= checked| served)|(?<=duplicates in )\d{1,3}(?:,\d{3})+ IDs"
    r"|\d+\.\d+ ?×"
    r"|\d+(?:\.\d+)? M (?:segment |snowflake )?IDs/s"
    r"|\d{1,3}(?:,\d{3})+ (?:req/s|requests/s|ms)"
    r"|\d{1,3}(?:,\d{3})* s for \d+ scenarios")

# A time of the suite or the build, on a line that names one.
SUITE_TIME = re.compile(r"(?<=about |under |takes )\d+ minutes")


def number_of(figure):
    return re.match(r"[\d.,]+", figure).group(0).rstrip(".,")


def main():
    r = reliability()
    table = benchmarks_table()
    sources = r["text"] + "\n" + read("BENCHMARKS.md")
    wanted = {"reliability": reliability_headline(r), "benchmarks": benchmarks_headline(table)}
    problems = []
    if r["failed"] or r["duplicates"]:
        problems.append("RELIABILITY.md is of a run that failed or found a duplicate: publish a passing run")

    readme = read("README.md")
    for kind, headline in wanted.items():
        block = re.compile(r"(<!-- %s -->\n)(.*?)(\n<!-- /%s -->)" % (kind, kind), re.S)
        if not block.search(readme):
            problems.append("README.md has no <!-- %s --> headline" % kind)
        elif "--fix" in sys.argv:
            readme = block.sub(lambda m: m.group(1) + headline + m.group(3), readme)
        elif block.search(readme).group(2).strip() != headline:
            problems.append("README.md's %s headline differs from its source; it should read:\n    %s" % (kind, headline))
    if "--fix" in sys.argv:
        with open(os.path.join(ROOT, "README.md"), "w", encoding="utf-8") as f:
            f.write(readme)

    pages = ["README.md", "CONTRIBUTING.md"] + sorted(glob.glob("docs/*.md", root_dir=ROOT))
    pages = [p for p in pages if p != "docs/benchmark-history.md"]
    checked = 0
    for page in pages:
        text = read(page)
        for kind in HEADLINES:  # the headlines are checked above
            text = re.sub(r"<!-- %s -->\n.*?\n<!-- /%s -->" % (kind, kind), "", text, flags=re.S)
        for number, line in enumerate(text.splitlines(), 1):
            matches = list(FIGURE.finditer(line))
            if re.search(r"suite|verify|\.ci/run", line, re.I):
                matches += list(SUITE_TIME.finditer(line))
            for match in matches:
                checked += 1
                figure = match.group(0)
                if figure.endswith("minutes"):
                    if round(r["seconds"] / 60) != int(number_of(figure)):
                        problems.append("%s:%d: %r for the suite, but its last run took %d s" % (page, number, figure, r["seconds"]))
                elif figure.endswith("scenarios") and int(number_of(figure)) != r["scenarios"]:
                    problems.append("%s:%d: %r, but the last run had %d scenarios" % (page, number, figure, r["scenarios"]))
                elif not figure.endswith("scenarios") and not re.search(
                        r"(?<![\d.,])%s(?![\d]|[.,]\d)" % re.escape(number_of(figure)), sources):
                    problems.append("%s:%d: %r is in neither RELIABILITY.md nor BENCHMARKS.md" % (page, number, figure))
    for problem in problems:
        print("[figures] " + problem)
    print("[figures] %d pages, %d figures checked against RELIABILITY.md (%d scenarios, %s IDs) and BENCHMARKS.md; "
          "%d problems" % (len(pages), checked, r["scenarios"], format(r["ids"], ","), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
