#!/usr/bin/env python3
"""How a search spent its candidates, from a `jitgemm tune --verbose` log (its "candidate N: ..." lines, in the order
they were measured). Per problem: how many were measured, at which one the search's best of them came, how many came
after it, and how many were over 1.25 and 1.5 times that best (the runs a racing rule would cut short).

    bench/search_order.py search_10.log
"""
import re
import sys

LINE = re.compile(r"^jitgemm tune (\S+): candidate (\d+): ([0-9.]+) ms measured, ([0-9.]+) ms estimated, "
                  r"group (.*), (\S+) (\S+)$")


def main():
    searches = {}  # problem key -> [(index, measured ms, estimated ms, group, outcome, config)]
    with open(sys.argv[1]) as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if m:
                key, index, measured, estimated, group, outcome, config = m.groups()
                searches.setdefault(key, []).append(
                    (int(index), float(measured), float(estimated), group, outcome, config))
    print(f"{'problem':60} {'measured':>8} {'passed':>6} {'best at':>7} {'after':>5} {'>1.25x':>6} {'>1.5x':>5}  best")
    for key, rows in searches.items():
        passed = [r for r in rows if r[4] == "passed" and r[1] > 0]
        if not passed:
            print(f"{key[:60]:60} {len(rows):8} {0:6}")
            continue
        best = min(passed, key=lambda r: r[1])
        print(f"{key[:60]:60} {len(rows):8} {len(passed):6} {best[0]:7} {len(rows) - best[0]:5} "
              f"{sum(r[1] > 1.25 * best[1] for r in passed):6} {sum(r[1] > 1.5 * best[1] for r in passed):5}  "
              f"{best[5]} {best[1]:.4f} ms")


if __name__ == "__main__":
    main()
