#!/usr/bin/env python3
"""Keeps BENCHMARKS.md's "Where we stand" table readable in a minute (issue 47): one row per
measure, no cell over 25 words (a cell that is only one backticked command may be longer), and
the whole table (every table line, the header and its separator included) within 900 words.

    python3 .ci/benchmarks-table.py

Prints the table's word count and rows; exits 1, naming the row and the cell, if a rule is broken.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGE = os.path.join(ROOT, "BENCHMARKS.md")
HEADING = "## Where we stand"
MAX_CELL_WORDS = 25
MAX_TABLE_WORDS = 900
COMMAND_ONLY = re.compile(r"^`[^`]+`$")


def table_lines(lines):
    """The lines of the first table after the heading (consecutive lines starting with |)."""
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip() == HEADING)
    except StopIteration:
        return None
    table = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if line.lstrip().startswith("|"):
            table.append(line.rstrip("\n"))
        elif table:
            break
    return table


def cells(line):
    """The cells of a table line: split on | not escaped as \\| (GitHub splits inside code too)."""
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", inner)]


def is_separator(line):
    return all(re.fullmatch(r":?-{3,}:?", cell) for cell in cells(line))


def main():
    lines = open(PAGE, encoding="utf-8").read().splitlines()
    table = table_lines(lines)
    if not table:
        print(f"[benchmarks] no table under '{HEADING}' in BENCHMARKS.md")
        return 1
    header = cells(table[0])
    failures = []
    rows = 0
    for number, line in enumerate(table[1:], start=1):
        if is_separator(line):
            continue
        rows += 1
        row = cells(line)
        if len(row) != len(header):
            failures.append(f"row {rows} ({row[0][:60]!r}): {len(row)} cells, the header has {len(header)}")
        for column, cell in enumerate(row):
            words = len(cell.split())
            if words > MAX_CELL_WORDS and not COMMAND_ONLY.match(cell):
                name = header[column] if column < len(header) else f"cell {column + 1}"
                failures.append(f"row {rows} ({row[0][:60]!r}), cell '{name}': {words} words, "
                                f"over {MAX_CELL_WORDS}")
    total = len("\n".join(table).split())
    print(f"[benchmarks] where-we-stand table: {total} words (at most {MAX_TABLE_WORDS}), {rows} rows")
    if total > MAX_TABLE_WORDS:
        failures.append(f"the table has {total} words, over {MAX_TABLE_WORDS}")
    for failure in failures:
        print(f"[benchmarks] {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
