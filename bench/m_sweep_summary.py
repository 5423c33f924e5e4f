#!/usr/bin/env python3
"""Summary of gpu-run.sh's M sweep: the sizes served by run-time-shape variants (sweep_variants.csv, from
`jitgemm bench --tune never`) against cuBLAS, and the sample sizes' variant times against their exact tuning
(sweep_exact.csv).

    bench/m_sweep_summary.py sweep_variants.csv sweep_exact.csv
"""
import csv
import math
import sys
from collections import Counter


def rows(path):
    with open(path, newline="") as f:
        return {int(r["m"]): r for r in csv.DictReader(f)}


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    variants, exact = rows(sys.argv[1]), rows(sys.argv[2])
    served = Counter(r["served_by"] for r in variants.values())
    wrong = [m for m, r in variants.items() if r["jitgemm_verified"] != "yes"]
    print(f"sweep: {len(variants)} sizes, served by {dict(served)}, {len(wrong)} wrong {wrong[:10]}")
    speeds = [float(r["speed_vs_cublas"]) for r in variants.values()]
    print(f"variants vs cuBLAS: geomean {geomean(speeds):.3f}x, min {min(speeds):.3f}x, max {max(speeds):.3f}x")
    for lo, hi in ((1, 16), (17, 128), (129, 1024), (1025, 4096)):
        part = [float(r["speed_vs_cublas"]) for m, r in variants.items() if lo <= m <= hi]
        if part:
            print(f"  M {lo}-{hi}: {len(part)} sizes, geomean {geomean(part):.3f}x cuBLAS")
    ratios = []
    for m in sorted(exact):
        if m in variants:
            v, e = float(variants[m]["jitgemm_ms"]), float(exact[m]["jitgemm_ms"])
            ratios.append(e / v)
            print(f"  M {m:5d}: variant {v:.4f} ms ({variants[m]['jitgemm_config']}), exact {e:.4f} ms "
                  f"({exact[m]['jitgemm_config']}, {exact[m]['served_by']}): {e / v:.3f}")
    print(f"variant / exact tuning on {len(ratios)} sample sizes: geomean {geomean(ratios):.3f} "
          f"(of the exact kernel's speed), min {min(ratios) if ratios else float('nan'):.3f}")


if __name__ == "__main__":
    main()
