#!/usr/bin/env python3
"""How a search spent its candidates and its time, from a `jitgemm tune --verbose` log. Per problem: how many
candidates were measured (its "candidate N: ..." lines, in the order measured), at which one the search's best of them
came, how many came after it, and how many were over 1.25 and 1.5 times that best (the runs a racing rule cuts short);
then where its seconds went (its "time: ..." line): setup, waiting for compiles (and of that, after the stop),
measuring, and where NVRTC ran; and the median search time.

    bench/search_order.py search_10.log
"""
import re
import statistics
import sys

LINE = re.compile(r"^jitgemm tune (\S+): candidate (\d+): ([0-9.]+) ms measured, ([0-9.]+) ms estimated, "
                  r"group (.*), (\S+) (\S+)$")


DONE = re.compile(r"^jitgemm tune (\S+): done in ([0-9.]+) s")
TIME = re.compile(r"^jitgemm tune (\S+): time: setup ([0-9.]+) s, ranking ([0-9.]+) s, waiting for compiles ([0-9.]+) s "
                  r"\(([0-9.]+) s after a stop\), measuring ([0-9.]+) s, finalists ([0-9.]+) s, recording ([0-9.]+) s; "
                  r"NVRTC ([0-9.]+) s over (\d+) threads(?:; NVRTC compiles in (.+))?$")


def print_times(done, times):
    """Where each search's seconds went, and the median search."""
    if not done:
        return
    print()
    print(f"{'problem':60} {'seconds':>7} {'setup':>5} {'compile wait':>12} {'after stop':>10} {'measuring':>9} "
          f"{'NVRTC s':>7}  compiles in")
    for key, seconds in done.items():
        t = times.get(key)
        if t is None:
            print(f"{key[:60]:60} {seconds:7.2f}")
            continue
        setup, _, wait, after, measuring, _, _, nvrtc, _, where = t
        # "worker processes (PATH, up to 16)" or "this process (why)"; logs before session 26 do not say.
        where = "workers" if where and where.startswith("worker") else where or "?"
        print(f"{key[:60]:60} {seconds:7.2f} {setup:5.2f} {wait:12.2f} {after:10.2f} {measuring:9.2f} {nvrtc:7.1f}  "
              f"{where}")
    all_seconds = list(done.values())
    waits = [times[k][2] for k in done if k in times]
    print(f"median search {statistics.median(all_seconds):.2f} s over {len(all_seconds)}, sum {sum(all_seconds):.1f} s; "
          f"waiting for compiles {sum(waits):.1f} s of it")


def main():
    searches = {}  # problem key -> [(index, measured ms, estimated ms, group, outcome, config)]
    done = {}  # problem key -> seconds
    times = {}  # problem key -> the time line's figures
    with open(sys.argv[1]) as f:
        for line in f:
            line = line.rstrip("\n")
            m = LINE.match(line)
            if m:
                key, index, measured, estimated, group, outcome, config = m.groups()
                searches.setdefault(key, []).append(
                    (int(index), float(measured), float(estimated), group, outcome, config))
            elif (m := DONE.match(line)):
                done[m.group(1)] = float(m.group(2))
            elif (m := TIME.match(line)):
                times[m.group(1)] = tuple(float(v) for v in m.groups()[1:10]) + (m.group(11),)
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
    print_times(done, times)


if __name__ == "__main__":
    main()
