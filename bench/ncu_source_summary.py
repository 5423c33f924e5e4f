#!/usr/bin/env python3
"""Where a kernel's warps stall, from ncu's per-instruction view of its SASS (bench/gpu-run.sh ncu rows with
NCU_SOURCE set writes ncu_source_<row>.csv: `ncu --import REPORT --page source --csv --print-source sass`).

Prints the share of the warp-state samples per opcode, then the instructions that drew the most samples.
  bench/ncu_source_summary.py ncu_source_1.csv [top-instructions]
"""
import csv
import re
import sys
from collections import Counter


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    with open(sys.argv[1], newline="") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own messages precede the table
    rows = list(csv.reader(lines))
    if not rows:
        sys.exit("no table in " + sys.argv[1])
    # The kernel's name comes first ("Kernel Name", name), then the header row, repeated in some ncu versions.
    start = next((i for i, r in enumerate(rows) if "Source" in r), None)
    if start is None:
        sys.exit("no header row (one naming a Source column) in " + sys.argv[1])
    header = rows[start]
    rows = [header] + [r for r in rows[start + 1:] if r != header]
    def column(pattern):
        for i, name in enumerate(header):
            if re.search(pattern, name):
                return i
        sys.exit("no column matching %r among %s" % (pattern, header))
    source = column(r"^Source$")
    address = column(r"Address")
    samples = column(r"Warp Stall Sampling \(All")
    total = sum(number(r[samples]) for r in rows[1:] if len(r) > samples)
    if total == 0:
        sys.exit("no samples")
    by_opcode = Counter()
    instructions = []
    for r in rows[1:]:
        if len(r) <= samples:
            continue
        text = r[source].strip()
        words = [w for w in text.split() if not w.startswith("@")]
        opcode = words[0] if words else "?"
        by_opcode[opcode] += number(r[samples])
        instructions.append((number(r[samples]), r[address], text))
    print("samples: %d" % total)
    for opcode, n in by_opcode.most_common(15):
        print("%6.1f%%  %s" % (100 * n / total, opcode))
    print()
    for n, where, text in sorted(instructions, reverse=True)[:top]:
        print("%6.2f%%  %s  %s" % (100 * n / total, where, text))


if __name__ == "__main__":
    main()
